#!/usr/bin/env bash
# Installs the Kubernetes schema validator of the deploy/ tests (tests/deploy/deploy_test.py) into
# build/deploy-venv, once: kubernetes-validate from PyPI, a package that carries the Kubernetes API's JSON
# schemas, so that the tests validate offline. scripts/test.sh calls it before ctest; without it the
# schema test is skipped with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build/deploy-venv
version=1.37.0
if "$venv/bin/kubernetes-validate" --version 2>/dev/null | grep -qx "$version"; then exit 0; fi
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
mkdir -p build
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --disable-pip-version-check --no-input --retries 10 --timeout 60 -q \
  "kubernetes-validate==$version" > build/deploy-deps.log 2>&1 || {
  echo "deploy-deps: pip install kubernetes-validate==$version failed; the last lines of build/deploy-deps.log:" >&2
  tail -20 build/deploy-deps.log >&2
  exit 1
}
