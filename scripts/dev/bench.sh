#!/usr/bin/env bash
# bench.sh: build and run the tmapgen benchmarks, then time `tmapgen validate` end to end on a
# generated JSON Lines file. docs/perf.md has the current figures, docs/lab/perf-history.md every run.
#
# usage: scripts/dev/bench.sh [--quick] [--no-micro] [--no-cli]
#
# Environment (all optional):
#   BUILD_DIR   build directory (default build; configured with Ninja, Release)
#   OUT_DIR     where results go (default $BUILD_DIR/perf): bench.json, bench.txt, specs.jsonl, time-*.txt
#   N           specs in the generated file (default 1000000)
#   SEED        gen-specs.py seed (default 1)
#   INVALID     fraction of invalid specs (default 0.3)
#   RUNS        end-to-end runs per output format; the median is reported (default 3)
#   REPS        benchmark repetitions; medians are reported when > 1 (default 1)
#   CPU         CPU the timed commands are pinned to with taskset (default 0)
#   JOBS        ninja -j (default 1)
#   MIN_TIME    --benchmark_min_time (default 0.2)
#   FILTER      --benchmark_filter (default: all)
#
# Results go to stdout; progress messages go to stderr, and only when stderr is a terminal.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/perf}
N=${N:-1000000}
SEED=${SEED:-1}
INVALID=${INVALID:-0.3}
RUNS=${RUNS:-3}
REPS=${REPS:-1}
CPU=${CPU:-0}
JOBS=${JOBS:-1}
MIN_TIME=${MIN_TIME:-0.2}
FILTER=${FILTER:-.}
MICRO=1
CLI=1

for a in "$@"; do
  case "$a" in
    --quick) N=100000; RUNS=1; MIN_TIME=0.05 ;;
    --no-micro) MICRO=0 ;;
    --no-cli) CLI=0 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

progress() { if [ -t 2 ]; then printf 'bench.sh: %s\n' "$*" >&2; fi; }

PIN=()
if command -v taskset >/dev/null 2>&1; then PIN=(taskset -c "$CPU"); fi

mkdir -p "$OUT_DIR"

progress "building tmapgen_microbench_validate and tmapgen (ninja -j$JOBS)"
if [ -t 2 ]; then
  ninja -C "$BUILD_DIR" -j"$JOBS" tmapgen_microbench_validate tmapgen >&2
else
  ninja -C "$BUILD_DIR" -j"$JOBS" tmapgen_microbench_validate tmapgen >/dev/null
fi

echo "== machine"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores online)"
echo "compiler: $(${CXX:-c++} --version | head -1)"
echo "kernel:   $(uname -sr)"
echo "date:     $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg)"
if git rev-parse --git-dir >/dev/null 2>&1; then
  dirty=$(git status --porcelain -- src cli CMakeLists.txt | wc -l)
  echo "commit:   $(git rev-parse --short HEAD)$( [ "$dirty" -gt 0 ] && echo " + $dirty uncommitted paths in src/ cli/")"
fi

if [ "$MICRO" = 1 ]; then
  echo
  echo "== microbenchmarks (${PIN[*]} $BUILD_DIR/microbench/tmapgen_microbench_validate --benchmark_min_time=$MIN_TIME)"
  progress "running microbenchmarks (about a minute)"
  BENCH_ARGS=(--benchmark_min_time="$MIN_TIME" --benchmark_filter="$FILTER"
              --benchmark_out="$OUT_DIR/bench.json" --benchmark_out_format=json)
  if [ "$REPS" -gt 1 ]; then
    BENCH_ARGS+=(--benchmark_repetitions="$REPS" --benchmark_report_aggregates_only=true)
  fi
  "${PIN[@]}" "$BUILD_DIR/microbench/tmapgen_microbench_validate" "${BENCH_ARGS[@]}" | tee "$OUT_DIR/bench.txt"
fi

if [ "$CLI" = 1 ]; then
  SPECS="$OUT_DIR/specs-$N-$SEED-$INVALID.jsonl"
  echo
  echo "== end to end: $N specs (scripts/dev/gen-specs.py $N ... --seed $SEED --invalid-frac $INVALID)"
  if [ ! -s "$SPECS" ]; then
    progress "generating $N specs into $SPECS"
    python3 scripts/dev/gen-specs.py "$N" "$SPECS.tmp" --seed "$SEED" --invalid-frac "$INVALID"
    mv "$SPECS.tmp" "$SPECS"
  fi
  echo "file: $SPECS ($(wc -c <"$SPECS") bytes, $(wc -l <"$SPECS") lines)"

  TIMER="time"
  if command -v hyperfine >/dev/null 2>&1; then TIMER=hyperfine; fi

  # One timed run: prints "wall_s user_s sys_s max_rss_kb exit".
  time_once() {
    local out="$1"; shift
    local tf="$OUT_DIR/time.tmp"
    set +e
    /usr/bin/time -v -o "$tf" "$@" >/dev/null 2>"$out"
    set -e
    local wall user sys rss rc
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tf")
    user=$(awk -F': ' '/User time/ {print $2}' "$tf")
    sys=$(awk -F': ' '/System time/ {print $2}' "$tf")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tf")
    rc=$(awk -F': ' '/Exit status/ {print $2}' "$tf")
    echo "$wall $user $sys $rss $rc"
  }

  for fmt in json text; do
    CMD=("${PIN[@]}" "$BUILD_DIR/tmapgen" validate "$SPECS" --format "$fmt" --quiet)
    echo
    echo "-- ${CMD[*]} > /dev/null"
    if [ "$TIMER" = hyperfine ]; then
      hyperfine --runs "$RUNS" --style basic -i --export-json "$OUT_DIR/hyperfine-$fmt.json" \
        "${CMD[*]} > /dev/null 2>/dev/null"
      mean=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" \
             "$OUT_DIR/hyperfine-$fmt.json")
      awk -v n="$N" -v t="$mean" 'BEGIN {printf "median %.3f s: %.0f specs/s\n", t, n / t}'
      continue
    fi
    walls=()
    for r in $(seq 1 "$RUNS"); do
      progress "$fmt run $r/$RUNS"
      read -r wall user sys rss rc < <(time_once "$OUT_DIR/stderr-$fmt.txt" "${CMD[@]}")
      walls+=("$wall")
      awk -v r="$r" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v rc="$rc" -v n="$N" \
        'BEGIN {printf "run %d: wall %.2f s (user %.2f s, sys %.2f s), max RSS %d KiB, exit %d: %.0f specs/s\n", r, w, u, s, m, rc, n / w}'
    done
    median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    awk -v n="$N" -v t="$median" -v f="$fmt" 'BEGIN {printf "%s: median wall %.2f s = %.0f specs/s (target > 200000)\n", f, t, n / t}'
    if [ "$fmt" = text ]; then echo "summary (stderr): $(tail -1 "$OUT_DIR/stderr-$fmt.txt")"; fi
  done
  rm -f "$OUT_DIR/time.tmp"
fi
