#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds, and runs every test: the C++ suite (ctest),
# then the Python package's (scripts/python-test.sh: builds python/ in build/python-venv, runs pytest).
# GPU tests skip with their reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
bash scripts/python-test.sh
