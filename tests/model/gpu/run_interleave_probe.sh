#!/usr/bin/env bash
# Builds and runs interleave_probe.cu on a GPU host; a case that traps is recorded as "crash" and skipped.
# Usage: tests/model/gpu/run_interleave_probe.sh OUT_DIR [SECONDS]
# Then, anywhere: gunzip OUT_DIR/blob.bin.gz if compressed; interleave_probe --list > LIST (needs only libcuda's
# stub); tests/model/gpu/encode_interleave_data.py OUT_DIR LIST > tests/model/data/interleave_h200.txt
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-/tmp/interleave_out}
limit=${2:-100}
mkdir -p "$out"
nvcc -std=c++17 -O2 -arch=sm_90 "$root/tests/model/gpu/interleave_probe.cu" -lcuda -o /tmp/interleave_probe || exit 2
start=$SECONDS
from=0
while [ $((SECONDS - start)) -lt "$limit" ]; do
  /tmp/interleave_probe --out "$out" --from "$from" 2>>"$out/errors.txt"
  p=$(cat "$out/progress")
  [ "$p" = done ] && break
  echo "case $p crash" >> "$out/cases.txt"
  echo "crash at case $p" >> "$out/errors.txt"
  from=$((p + 1))
done
echo "cases recorded: $(grep -c '^case' "$out/cases.txt"), crashes: $(grep -c crash "$out/cases.txt"), progress: $(cat "$out/progress")"
