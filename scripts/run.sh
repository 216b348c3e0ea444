#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds, and runs the main job on its embedded
# default: an im2col::w tensor map with the 128-byte swizzle, validated and explained. Any arguments
# replace the default flags: scripts/run.sh --dtype bf16 --dims 64,56,56,32
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null
if [ "$#" -eq 0 ]; then set -- --mode im2col::w --swizzle 128B; fi
exec build/tmapgen "$@"
