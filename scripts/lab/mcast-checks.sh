#!/usr/bin/env bash
# mcast-checks.sh TMAPGEN [OUT]: the multicast checks on a GPU host (docs/gpu-checks.md, "Multicast"): the single-map
# form over the specs of tests/gpu/specs/mcast_specs.jsonl with clusters of 2 and 4 (all CTAs, and a mask that leaves
# a CTA out), then GEMM plans run CTA by CTA over their clusters (slice and leader issue, A and/or B multicast, K- and
# MN-major, ragged M/N/K edges, bf16 and e4m3). Every command's output goes to OUT/mcast-*.txt; the last line says how
# many commands passed. Exit status 0 when all did. Each command ends with a negative control that must TIMEOUT.
set -u
t=$1
out=${2:-.}
root=$(cd "$(dirname "$0")/../.." && pwd)
specs=$root/tests/gpu/specs/mcast_specs.jsonl
mkdir -p "$out"
n=0
ok=0
run() {  # run NAME ARGS...
  local name=$1
  shift
  n=$((n + 1))
  timeout 300 "$t" check "$@" > "$out/mcast-$name.txt" 2>&1
  local rc=$?
  [ $rc -eq 0 ] && ok=$((ok + 1))
  echo "mcast $name: rc $rc: $(grep -E '^multicast check:|^model:' "$out/mcast-$name.txt" | tr '\n' ' ' | cut -c1-220)"
}
run single2 --multicast 2 "$specs"
run single4 --multicast 4 "$specs"
run single4-mask --multicast 4 --mask 0xb "$specs"
g="--plan gemm --dtype bf16 --m 512 --n 512 --k 512 --tile 128x128x64 --stages 4"
run plan-1x1 $g --cluster 1x1
run plan-2x1-b $g --cluster 2x1 --multicast b
run plan-1x2-a $g --cluster 1x2 --multicast a
run plan-2x2-ab $g --cluster 2x2 --multicast ab
run plan-2x2-ab-leader $g --cluster 2x2 --multicast ab --multicast-issue leader
run plan-4x1-b $g --cluster 4x1 --multicast b
run plan-ragged --plan gemm --dtype bf16 --m 700 --n 328 --k 1000 --tile 128x128x64 --stages 3 --cluster 2x2 --multicast ab
run plan-mn-major --plan gemm --dtype f16 --m 512 --n 384 --k 256 --a-major mn --b-major mn --tile 128x128x64 --stages 2 --cluster 2x2 --multicast ab
run plan-e4m3 --plan gemm --dtype e4m3 --m 512 --n 512 --k 1024 --tile 128x128x128 --stages 4 --cluster 2x2 --multicast ab
run plan-2x4 --plan gemm --dtype bf16 --m 1024 --n 1024 --k 256 --tile 128x64x64 --stages 2 --cluster 2x4 --multicast ab --k-tiles 4
echo "mcast checks: $ok of $n commands passed"
[ $ok -eq $n ]
