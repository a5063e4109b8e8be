#!/usr/bin/env bash
# Writes docs/images/play.png, analysis.png, watch.png, explorer.png, review.png and phone.png:
# the browser tests photograph the page (needs chromium and chromium-driver: apt-get install -y
# chromium chromium-driver; and axe-core: npm ci --prefix tests/browser).
set -euo pipefail
cd "$(dirname "$0")/.."
GUI_SCREENSHOTS="$PWD/docs/images" cargo test --test gui_browser --test gui_browser_players -- --nocapture
ls -l docs/images
