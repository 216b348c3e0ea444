#!/usr/bin/env bash
# python-test.sh: builds the Python package (python/, docs/python.md) into a virtual environment and runs
# its tests (pytest, python/tests). scripts/test.sh calls it after ctest.
#
# - The environment is build/python-venv, made with the system python3 (Debian python3-venv and
#   python3-dev: scripts/install-deps.sh), or $TMAPGEN_PYTHON. Its build tools come from PyPI
#   (scikit-build-core, nanobind) with pytest and numpy, once: the environment is kept and reused.
# - The package is built with `pip install --no-build-isolation ./python` (the CMake tree stays in
#   build/python-pkg, so later runs rebuild only what changed) and tested against build/tmapgen, so the
#   agreement tests compare the two faces of the same tree.
# - Quiet: one line per step; pip's output goes to build/python-test.log and is shown only on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${TMAPGEN_PYTHON:-}
if [ -z "$py" ]; then
  if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=$(command -v python3); fi
fi
venv=build/python-venv
log=build/python-test.log
mkdir -p build
: > "$log"
step() {
  local what=$1
  shift
  if [ -t 2 ]; then echo "python: $what" >&2; fi
  if ! "$@" >> "$log" 2>&1; then
    echo "python-test: $what failed ($*); the last lines of $log:" >&2
    tail -40 "$log" >&2
    exit 1
  fi
}
pip_opts=(--disable-pip-version-check --no-input --retries 10 --timeout 60 -q)
if ! "$venv/bin/python" -c "import nanobind, scikit_build_core, pytest, numpy, mypy" > /dev/null 2>&1; then
  rm -rf "$venv"
  step "creating $venv with $py" "$py" -m venv "$venv"
  step "installing scikit-build-core, nanobind, pytest, numpy, mypy from PyPI" \
    "$venv/bin/python" -m pip install "${pip_opts[@]}" "scikit-build-core>=0.10" "nanobind>=2.0" pytest numpy mypy
fi
# Its own CMake tree (build/python-pkg), apart from python/build of manual `pip install ./python` runs
# with other interpreters.
cmake_defs=("--config-settings=build-dir=$PWD/build/python-pkg")
if command -v ccache > /dev/null 2>&1; then cmake_defs+=("--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache"); fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}
step "building and installing the package (pip install ./python)" \
  "$venv/bin/python" -m pip install "${pip_opts[@]}" --no-build-isolation "${cmake_defs[@]}" ./python
export TMAPGEN_CLI=${TMAPGEN_CLI:-$PWD/build/tmapgen}
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider python/tests
