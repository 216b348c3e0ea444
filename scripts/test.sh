#!/usr/bin/env bash
# Quick start, command 2: installs what is missing (scripts/deploy-deps.sh: the Kubernetes schema validator
# of the deploy/ tests, from PyPI), builds, and runs every test: the C++ suite (ctest),
# then the Python package's (scripts/python-test.sh: builds python/ in build/python-venv, runs pytest).
# GPU tests skip with their reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/deploy-deps.sh
(cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
bash scripts/python-test.sh
