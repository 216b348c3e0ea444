#!/usr/bin/env bash
# Installs the Debian packages tmapgen needs, only those that are missing. Needs root (or sudo).
# chromium renders the SVG pictures to PNG in a test (tmapgen show).
set -euo pipefail
pkgs=(cmake ninja-build g++ ccache libgtest-dev libbenchmark-dev protobuf-compiler libprotobuf-dev chromium)
# zlib: the tests of src/blob read the gzip'd corpus samples (tests/blob/data).
pkgs+=(zlib1g-dev)
# Abseil (strings, status) and simdjson (the spec reader): the core links both.
pkgs+=(libabsl-dev libsimdjson-dev)
# tmapd (server/) and tmapgen --remote; the service tests use a Python gRPC client and openssl.
pkgs+=(libgrpc++-dev protobuf-compiler-grpc python3-grpcio python3-grpc-tools python3-protobuf openssl)
# tmapd's Prometheus endpoint (--metrics-listen); tmapd builds without it and then refuses the flag.
pkgs+=(prometheus-cpp-dev)
# The deploy/ tests: the manifests' YAML (python3-yaml) and the systemd unit (systemd-analyze, in systemd).
pkgs+=(python3-yaml systemd)
# The Python package (python/, scripts/python-test.sh): a virtual environment and the headers to build it.
pkgs+=(python3-venv python3-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
