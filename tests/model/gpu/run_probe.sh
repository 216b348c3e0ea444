#!/usr/bin/env bash
# Builds tests/model/gpu/tma_probe.cu with the model and the core library on a GPU host (nvcc, sm_90 or later)
# and runs it: first the interleave exploration, then every case, each risky case in its own process.
# Usage: tests/model/gpu/run_probe.sh OUT_DIR [SWEEP]
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-/tmp/tma_probe_out}
sweep=${2:-400}
b=/tmp/tma_probe_build
mkdir -p "$b" "$out"
cd "$b"
pids=()
for f in "$root"/src/*.cc "$root"/src/json/*.cc "$root"/src/model/*.cc; do
  g++ -std=c++17 -O2 -I"$root" -c "$f" -o "$(basename "$f").o" & pids+=($!)
done
nvcc -std=c++17 -O2 -arch=sm_90 -I"$root" -c "$root/tests/model/gpu/tma_probe.cu" -o probe.o || exit 2
for p in "${pids[@]}"; do wait "$p" || exit 2; done
nvcc -arch=sm_90 ./*.o -lcuda -o probe || exit 2
./probe --explore-interleave > "$out/explore.txt" 2>&1
./probe --sweep "$sweep" > "$out/probe.txt" 2>&1
for i in $(./probe --list-risky); do
  echo "== risky case $i" >> "$out/probe.txt"
  ./probe --case "$i" >> "$out/probe.txt" 2>&1
done
echo "$(grep -c '^PASS' "$out/probe.txt") passed, $(grep -c '^FAIL' "$out/probe.txt") failed, $(grep -c 'CUDA error' "$out/probe.txt") CUDA errors"
