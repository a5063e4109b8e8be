#!/usr/bin/env bash
# Writes docs/images/play.png, analysis.png and watch.png: the browser test photographs the page
# (needs chromium and chromium-driver: apt-get install -y chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
GUI_SCREENSHOTS="$PWD/docs/images" cargo test --test gui_browser -- --nocapture
ls -l docs/images
