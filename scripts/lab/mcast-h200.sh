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
exit $rc
