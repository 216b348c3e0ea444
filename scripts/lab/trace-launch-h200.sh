#!/usr/bin/env bash
# trace-launch-h200.sh: the GPU proof of `tmapgen trace`'s launch checks (docs/trace.md, "At kernel launch"),
# in one run on a GPU host: builds tmapgen and the injection library, compiles tests/trace/gpu/launch_proof.cu
# with nvcc for sm_90a, runs each of its programs under `tmapgen trace --fail-on error` and checks the finding
# and the exit status; then the ordinary Triton and JAX programs of examples/trace (no false finding), a
# Triton kernel with device-side descriptors (TMAPGEN_TRACE_DEVICE_MAPS), PyTorch training steps (cuBLAS's TMA
# kernels; their time per step untraced and traced), a replay of every launch record with
# `tmapgen validate`, and the cost of a launch (untraced, CUPTI alone, traced through the preload library,
# traced through CUPTI's launch callbacks; side by side, nine times). Each program also runs once with
# TMAPGEN_TRACE_LAUNCH_VIA=both: CUPTI's launch callbacks check and the preload library's wrappers count, and
# the two counts of launches the driver accepted must be equal in every process (the preload library sees
# every launch CUPTI sees), with TMAPGEN_TRACE_PRELOAD_DEBUG=1 recording where each entry point was obtained.
#
#   scripts/lab/trace-launch-h200.sh [OUT_DIR]      (default: $OUT/trace-launch, else build-trace-launch/out)
#   env: TMAPGEN_TRACE_BUILD (build-trace-launch), JOBS (nproc), SKIP ("triton jax train bench": cases left out),
#        TIMEOUT (seconds per traced program, 900; a program killed by it fails its check with exit 124)
#
# Needs nvcc (CUDA 12.4+: cuFuncGetParamInfo), CMake, a C++17 compiler, a GPU with its driver, CUPTI (the
# toolkit's, or PyTorch's), Abseil and simdjson (carried .debs as in scripts/gpu-check.sh). Writes
# OUT_DIR/summary.md (one line per check: PASS or FAIL with what was seen) and every program's output.
# Exit status: 0 when every check passed, 1 when one failed, 2 when the build failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
b=${TMAPGEN_TRACE_BUILD:-$root/build-trace-launch}
out=${1:-${OUT:+$OUT/trace-launch}}
out=${out:-$b/out}
mkdir -p "$out"
jobs=${JOBS:-$(nproc)}
fail=0
lines=()
note() { lines+=("$1"); echo "$1"; }
pass() { note "PASS $1"; }
failc() { note "FAIL $1"; fail=1; }
skip() { case " ${SKIP:-} " in *" $1 "*) note "SKIP $1 (SKIP)"; return 0 ;; esac; return 1; }

echo "== build ($b)"
prefix_args=()
if ls "$root"/.debs/*.deb >/dev/null 2>&1; then
  prefix_args=(-DCMAKE_PREFIX_PATH="$(bash "$root/scripts/gpu-deps.sh" unpack "$b/deps")")
  . "$b/deps/env.sh"
fi
if ! { cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_WITH_PROTOBUF=OFF -DTMAPGEN_TESTS=OFF \
         -DTMAPGEN_MICROBENCH=OFF "${prefix_args[@]}" > "$out/build.log" 2>&1 &&
       cmake --build "$b" -j "$jobs" --target tmapgen tmapgen_trace_inject tmapgen_trace_preload >> "$out/build.log" 2>&1; }; then
  tail -30 "$out/build.log"
  exit 2
fi
tm=$b/tmapgen
if ! nvcc -arch=sm_90a -std=c++17 -O2 "$root/tests/trace/gpu/launch_proof.cu" -o "$out/launch_proof" -lcuda \
     > "$out/nvcc.log" 2>&1; then
  cat "$out/nvcc.log"
  exit 2
fi
# The same program with the CUDA runtime as a shared library (-cudart shared): its <<<>>> launches can be
# described through the runtime (cudaGetFuncBySymbol), which a statically linked runtime hides.
if ! nvcc -arch=sm_90a -std=c++17 -O2 -cudart shared "$root/tests/trace/gpu/launch_proof.cu" -o "$out/launch_proof_shared" \
     -lcuda >> "$out/nvcc.log" 2>&1; then
  cat "$out/nvcc.log"
  exit 2
fi
(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null || true) > "$out/gpu.txt"
echo "GPU: $(cat "$out/gpu.txt")"

# run NAME -- CMD...: the program under trace; sets $rc, $err (stderr file), $rec (records file).
run() {
  local name=$1
  shift 2
  timeout "${TIMEOUT:-900}" "$tm" trace --fail-on error --out "$out/$name.jsonl" --report "$out/$name.report.json" -- "$@" \
    > "$out/$name.stdout" 2> "$out/$name.stderr"
  rc=$?
  err=$out/$name.stderr
  rec=$out/$name.jsonl
}
# expect NAME RC PATTERN...: the exit status and every (extended) pattern in standard error.
expect() {
  local name=$1 want=$2
  shift 2
  local missing=""
  for p in "$@"; do grep -Eq -- "$p" "$err" || missing="$missing [$p]"; done
  if [ "$rc" = "$want" ] && [ -z "$missing" ]; then
    pass "$name: exit $rc, $(grep -E -m1 'kernel launches:' "$err" | cut -c1-160)"
  else
    failc "$name: exit $rc (expected $want); missing:$missing; $(grep -E -m1 'kernel launches:' "$err" | cut -c1-160)"
  fi
}

# stats NAME: the launch checks' own account of their time in that run (TMAPGEN_TRACE_LAUNCH_STATS=1).
stats() { note "INFO $1 launch checks: $(grep -m1 'launch checks:' "$out/$1.stderr" | sed 's/.*launch checks: //')"; }

# coverage NAME -- CMD...: the program with TMAPGEN_TRACE_LAUNCH_VIA=both; every process's count of launches
# the driver accepted through CUPTI's callbacks must equal the preload library's, with no runtime launch
# that had no driver launch under it, and some process must have launched something.
coverage() {
  local name=$1
  shift 2
  TMAPGEN_TRACE_LAUNCH_VIA=both TMAPGEN_TRACE_PRELOAD_DEBUG=1 timeout "${TIMEOUT:-900}" "$tm" trace -- "$@" \
    > "$out/cov_$name.stdout" 2> "$out/cov_$name.stderr"
  local crc=$?
  local verdict
  verdict=$(sed -n 's/.*pid \([0-9]*\): launches the driver accepted: \([0-9]*\) driver launches and \([0-9]*\) runtime launches.*; \([0-9]*\) seen through the preloaded entry points.*/\1 \2 \3 \4/p' \
              "$out/cov_$name.stderr" |
            awk '{n++; if ($2 != $4 || $3 != 0) bad = bad " pid " $1 ": CUPTI " $2 "+" $3 " runtime, preload " $4;
                  else if ($2 > 0) ok++; tot += $2}
                 END {if (n == 0) print "FAIL no process reported its counts";
                      else if (bad != "") print "FAIL" bad;
                      else if (ok == 0) print "FAIL no launch seen";
                      else print "PASS " n " processes, " tot " launches, each seen by both"}')
  case $verdict in
    PASS*) pass "coverage $name: ${verdict#PASS } (exit $crc)" ;;
    *) failc "coverage $name: ${verdict#FAIL } (exit $crc; cov_$name.stderr)" ;;
  esac
}

run freed -- "$out/launch_proof" freed
expect freed 1 'whose tensor (was freed and its memory reallocated|is in no live allocation)' \
  'kernel [^ ]*one_map_kernel' 'launch_proof freed: results right'

run toolarge -- "$out/launch_proof" toolarge
expect toolarge 1 'whose tensor runs past the end of its allocation' '\(1073741824 bytes\)' \
  '\(536870912 bytes\) on device 0' 'launch_proof toolarge: results right'

# A packed parameter buffer (cuLaunchKernel's `extra`) laid out at the offsets cuFuncGetParamInfo reports:
# the layout the driver reads (measured: laid out from the first parameter's offset, or from 48, the kernel
# reads another pointer and faults; those two run untraced here, as the record of that measurement).
for origin in first 48; do
  "$out/launch_proof" packed $origin > "$out/packed_$origin.stdout" 2> "$out/packed_$origin.stderr"
  prc=$?
  note "INFO packed buffer from origin $origin, untraced: exit $prc ($(grep -m1 -E 'failed|results right' "$out/packed_$origin.stderr" | cut -c1-100))"
done
run packed -- "$out/launch_proof" packed 0
expect packed 1 'whose tensor runs past the end of its allocation' 'parameter 0 at offset 112 of the parameter buffer' \
  'launch_proof packed: results right'

run struct -- "$out/launch_proof" struct 100
expect struct 0 'struct_kernel[^:]*: 200 launches, 400 maps, 0 findings' 'kernel launches: .*; 0 findings' \
  'launch_proof struct: results right'

run struct_shared -- "$out/launch_proof_shared" struct 100
expect struct_shared 0 'struct_kernel[^:]*: 200 launches, 400 maps, 0 findings' 'kernel launches: .*; 0 findings' \
  'launch_proof struct: results right'
coverage struct -- "$out/launch_proof" struct 100
coverage struct_shared -- "$out/launch_proof_shared" struct 100
coverage graph -- "$out/launch_proof" graph
# The same checks with launches watched through CUPTI's callbacks (the fallback): the same findings.
TMAPGEN_TRACE_LAUNCH_VIA=cupti run struct_cupti -- "$out/launch_proof" struct 100
expect struct_cupti 0 'struct_kernel[^:]*: 200 launches, 400 maps, 0 findings' 'kernel launches: .*; 0 findings' \
  'launch_proof struct: results right'
TMAPGEN_TRACE_LAUNCH_VIA=cupti run toolarge_cupti -- "$out/launch_proof" toolarge
expect toolarge_cupti 1 'whose tensor runs past the end of its allocation' '\(1073741824 bytes\)'

run handbuilt -- "$out/launch_proof" handbuilt
expect handbuilt 1 'origin: the map of record [0-9]+ with its global address changed' \
  'launch_proof handbuilt: results right'
if grep -q '"origin":"unknown"' "$rec" && grep '"origin":"unknown"' "$rec" | grep -q 'L2_PROMOTION_L2_256B' &&
   grep '"origin":"address-replaced"' "$rec" | grep -q '"valid_for_target":false'; then
  pass "handbuilt records: the L2-edited map of unknown origin, the moved address invalid and address-replaced"
else
  failc "handbuilt records: expected an unknown-origin L2_256B record and an invalid address-replaced one in $rec"
fi

run graph -- "$out/launch_proof" graph
expect graph 1 'kernel [^ ]*one_map_kernel[^ ]*, graph kernel node' 'kernel [^ ]*one_map_kernel[^ ]*, cuLaunchKernel' \
  'kernel [^ ]*one_map_kernel[^ ]*, cuGraphLaunch' 'launch_proof graph: results right'

run graph_freed -- "$out/launch_proof" graph_freed
expect graph_freed 1 'whose tensor (is in no live allocation|was freed and its memory reallocated)' \
  'kernel [^ ]*one_map_kernel[^ ]*, cuGraphLaunch' 'launch_proof graph_freed: results right'

if ! skip triton; then
  if python3 -c 'import triton, torch' 2>/dev/null; then
    TMAPGEN_TRACE_LAUNCH_STATS=1 run triton -- python3 "$root/examples/trace/triton_tma.py" 3
    expect triton 0 'kernel launches: .*; 0 findings' 'device-side descriptor copy: OK'
    stats triton
    coverage triton -- python3 "$root/examples/trace/triton_tma.py" 3
    if grep -q WRONG "$err"; then failc "triton: a result is WRONG"; fi
    TMAPGEN_TRACE_DEVICE_MAPS=copy_device_desc run triton_device -- python3 "$root/examples/trace/triton_tma.py" 1
    expect triton_device 0 'device memory read after launches: [0-9,]+ pointers?, [1-9][0-9,]* map records?' \
      'device-side descriptor copy: OK'
    # A real workload's wall time, untraced and traced, alternated twice (reported, not judged).
    for round in 1 2; do
      u=$(python3 "$root/examples/trace/triton_tma.py" 20 2>&1 | sed -n 's/.*done in \([0-9.]*\) s.*/\1/p')
      t=$("$tm" trace -- python3 "$root/examples/trace/triton_tma.py" 20 2>&1 | sed -n 's/.*done in \([0-9.]*\) s.*/\1/p')
      note "INFO triton_tma.py 20 reps, round $round: ${u:-?} s untraced, ${t:-?} s traced"
    done
  else
    note "SKIP triton (no triton/torch here)"
  fi
fi
if ! skip train && python3 -c 'import torch' 2>/dev/null; then
  # PyTorch training steps (cuBLAS's nvjet kernels: TMA on Hopper): no finding, and the time per step untraced,
  # with CUPTI alone, with the encode trace alone (TMAPGEN_TRACE_LAUNCH=0) and traced, alternated three times
  # (the spread of the untraced rounds is the run-to-run noise). The first run prints what the windows of each
  # kernel held (TMAPGEN_TRACE_LAUNCH_DEBUG), for the record of what cuBLAS passes.
  TMAPGEN_TRACE_LAUNCH_STATS=1 TMAPGEN_TRACE_LAUNCH_DEBUG=1 run train -- python3 "$root/examples/trace/train_step.py" 50 10
  expect train 0 'kernel launches: .*; 0 findings' 'train_step: 50 steps'
  stats train
  coverage train -- python3 "$root/examples/trace/train_step.py" 50 10
  per_step() { sed -n 's/.*steps, \([0-9.]*\) ms per step.*/\1/p'; }
  : > "$out/train_rounds.txt"
  for round in 1 2 3; do
    u=$(python3 "$root/examples/trace/train_step.py" 300 30 2>&1 | per_step)
    c=$(TMAPGEN_TRACE_BASELINE=1 "$tm" trace -- python3 "$root/examples/trace/train_step.py" 300 30 2>&1 | per_step)
    e=$(TMAPGEN_TRACE_LAUNCH=0 "$tm" trace -- python3 "$root/examples/trace/train_step.py" 300 30 2>&1 | per_step)
    t=$("$tm" trace -- python3 "$root/examples/trace/train_step.py" 300 30 2>&1 | per_step)
    tc=$(TMAPGEN_TRACE_LAUNCH_VIA=cupti "$tm" trace -- python3 "$root/examples/trace/train_step.py" 300 30 2>&1 | per_step)
    note "INFO train_step.py 300 steps, round $round, ms per step: untraced ${u:-?}, CUPTI alone ${c:-?}, encode trace only ${e:-?}, traced ${t:-?}, traced through CUPTI's launch callbacks ${tc:-?}"
    echo "${u:-?} ${t:-?}" >> "$out/train_rounds.txt"
  done
  # Within the run-to-run noise: the median traced step is no slower than the slowest untraced round.
  tmed=$(awk '$1!="?" && $2!="?"{print $2}' "$out/train_rounds.txt" | sort -g |
         awk '{d[NR]=$1} END{if (NR==0) print "?"; else print d[int((NR+1)/2)]}')
  umax=$(awk '$1!="?" && $2!="?"{if ($1>m) m=$1} END{print (m=="" ? "?" : m)}' "$out/train_rounds.txt")
  verdict="FAIL $tmed $umax"
  if [ "$tmed" != "?" ] && [ "$umax" != "?" ] && awk -v t="$tmed" -v u="$umax" 'BEGIN{exit !(t <= u)}'; then
    verdict="PASS $tmed $umax"
  fi
  case $verdict in
    PASS*) pass "train cost: the median traced step (${verdict#PASS }) is within the untraced rounds' spread (median traced, slowest untraced, ms)" ;;
    *) failc "train cost: the median traced step is beyond the untraced rounds' spread (${verdict#FAIL }: median traced, slowest untraced, ms)" ;;
  esac
fi
if ! skip jax; then
  if python3 -c 'import jax' 2>/dev/null; then
    XLA_PYTHON_CLIENT_PREALLOCATE=false TMAPGEN_TRACE_LAUNCH_STATS=1 run jax -- python3 "$root/examples/trace/jax_prog.py"
    expect jax 0 'kernel launches: .*; 0 findings' 'jax_prog: jax'
    stats jax
    XLA_PYTHON_CLIENT_PREALLOCATE=false coverage jax -- python3 "$root/examples/trace/jax_prog.py"
  else
    note "SKIP jax (no jax here)"
  fi
fi

# Every launch record replays through the spec reader (exit 0 or 1: valid or invalid, never 2: bad input).
cat "$out"/*.jsonl 2>/dev/null | grep '"kernel"' > "$out/launch_records.jsonl"
"$tm" validate --quiet "$out/launch_records.jsonl" > "$out/replay.txt" 2>&1
vrc=$?
n=$(wc -l < "$out/launch_records.jsonl")
if [ "$n" -gt 0 ] && [ $vrc -le 1 ]; then pass "replay: $n launch records read back by tmapgen validate (exit $vrc)"
else failc "replay: $n launch records, tmapgen validate exit $vrc (replay.txt)"; fi

if ! skip bench; then
# Cost: median ns per launch call, untraced / CUPTI subscribed only / traced (the preload library) / traced
# through CUPTI's launch callbacks, alternated nine times.
: > "$out/bench.txt"
# Pinned to one core (taskset, where present): launches are CPU-bound, and a migrating thread adds noise.
pin=()
command -v taskset >/dev/null 2>&1 && pin=(taskset -c 3)
for round in 1 2 3 4 5 6 7 8 9; do
  "${pin[@]}" "$out/launch_proof" bench 50 > "$out/bench_plain_$round.txt" 2>/dev/null
  TMAPGEN_TRACE_BASELINE=1 "${pin[@]}" "$tm" trace -- "$out/launch_proof" bench 50 > "$out/bench_cupti_$round.txt" 2>/dev/null
  "${pin[@]}" "$tm" trace -- "$out/launch_proof" bench 50 > "$out/bench_traced_$round.txt" 2>"$out/bench_traced_$round.stderr"
  TMAPGEN_TRACE_LAUNCH_VIA=cupti "${pin[@]}" "$tm" trace -- "$out/launch_proof" bench 50 > "$out/bench_tcupti_$round.txt" \
    2>"$out/bench_tcupti_$round.stderr"
  for k in nomap map; do
    p=$(awk -v k=$k '$2==k{print $3}' "$out/bench_plain_$round.txt")
    c=$(awk -v k=$k '$2==k{print $3}' "$out/bench_cupti_$round.txt")
    t=$(awk -v k=$k '$2==k{print $3}' "$out/bench_traced_$round.txt")
    tc=$(awk -v k=$k '$2==k{print $3}' "$out/bench_tcupti_$round.txt")
    echo "round $round $k untraced ${p:-?} cupti_only ${c:-?} traced ${t:-?} traced_via_cupti ${tc:-?}" | tee -a "$out/bench.txt"
  done
done
# The median over the rounds of (traced - untraced): the host is shared, and single rounds swing by a
# microsecond either way (2026-12-03: untraced 3031 then 3727 ns in consecutive rounds).
added() {
  awk -v k=$1 '$3==k && $5!="?" && $9!="?"{print $9-$5}' "$out/bench.txt" | sort -g |
    awk '{d[NR]=$1} END{if(NR==0) print "?"; else print d[int((NR+1)/2)]}'
}
nomap=$(added nomap)
withmap=$(added map)
added_cupti() {
  awk -v k=$1 '$3==k && $5!="?" && $11!="?"{print $11-$5}' "$out/bench.txt" | sort -g |
    awk '{d[NR]=$1} END{if(NR==0) print "?"; else print d[int((NR+1)/2)]}'
}
note "INFO cost through CUPTI's launch callbacks (TMAPGEN_TRACE_LAUNCH_VIA=cupti): no map $(added_cupti nomap) ns, known map $(added_cupti map) ns (median of the rounds)"
if [ "$nomap" != "?" ] && awk -v d="$nomap" 'BEGIN{exit !(d < 500)}'; then pass "cost: a launch without maps adds $nomap ns (< 500; the median of nine rounds)"
else failc "cost: a launch without maps adds $nomap ns (limit 500)"; fi
if [ "$withmap" != "?" ] && awk -v d="$withmap" 'BEGIN{exit !(d < 2000)}'; then pass "cost: a launch with a known map adds $withmap ns (< 2000; the median of nine rounds)"
else failc "cost: a launch with a known map adds $withmap ns (limit 2000)"; fi

fi
{
  echo "## trace launch checks on $(cat "$out/gpu.txt")"
  echo
  printf '%s\n' "${lines[@]}"
  echo
  echo '```'
  cat "$out/bench.txt" 2>/dev/null
  echo '```'
} > "$out/summary.md"
echo
cat "$out/summary.md"
exit $fail
