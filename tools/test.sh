#!/usr/bin/env bash
# The test command of README.md (and of .ci/run): the Rust tests, then the Python package
# installed into a fresh virtual environment with the README's one command, and its pytest
# suite run against the binaries `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test

echo "== the Python package (python/, docs/python.md): fresh venv, pip install ./python[test], pytest"
venv=target/python-test-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "./python[test]"
(cd python && BAGHCHAL_BIN_DIR="$PWD/../target/debug" "../$venv/bin/python" -m pytest -q -p no:cacheprovider)
