#!/usr/bin/env bash
# mcast-h200.sh OUT: the multicast work on an H200 in one run: builds tmapgen with its kernels (scripts/gpu-check.sh)
# and runs the multicast checks (scripts/lab/mcast-checks.sh: single maps over 2- and 4-CTA clusters, GEMM plans CTA by
# CTA, each with its negative control) and the multicast bench (2- and 4-CTA clusters). Logs and the summary in OUT.
set -u
out=${1:?usage: mcast-h200.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
STEPS="mcast mcastbench" timeout 340 bash "$root/scripts/gpu-check.sh" "$out"
rc=$?
for f in "$out"/mcast-*.txt; do
  echo "=== $(basename "$f")"
  grep -vE '^      CTA [0-9]+ PASS ' "$f" | head -60
done
echo "=== mcast_bench.txt"
cat "$out/mcast_bench.txt" 2>/dev/null
# What limits the multicast ring: more stages in flight, two rings per SM, both box sizes, clusters of 2 and 4.
t=${TMAPGEN_GPU_BUILD:-$root/build-gpucheck}/tmapgen
[ -f "${TMAPGEN_GPU_BUILD:-$root/build-gpucheck}/deps/env.sh" ] && . "${TMAPGEN_GPU_BUILD:-$root/build-gpucheck}/deps/env.sh"
echo "=== bench sweep (stages x blocks per SM)"
for c in 2 4; do
  for st in 4 8; do
    for b in 1 2; do
      echo "--- --multicast $c --stages $st --blocks-per-sm $b"
      timeout 60 "$t" bench "$root/tests/gpu/specs/mcast_bench.jsonl" --multicast $c --gib 1 --stages $st \
        --blocks-per-sm $b --rounds 3 2>&1 | grep -E '^multicast bench|^\| multicast|^\| per CTA|^multicast /|bench --multicast'
    done
  done
done 2>&1 | tee "$out/mcast_bench_sweep.txt"
exit $rc
