#!/usr/bin/env bash
# bench-old-new.sh: `tmapgen validate` end to end, the tree before the simdjson reader (OLD) against this
# tree (NEW), side by side in one run on the same generated file (docs/perf.md, "The JSON Lines path").
#
# usage: scripts/dev/bench-old-new.sh [OLD_COMMIT | OLD_BINARY]
#   OLD_COMMIT defaults to the last commit of main merged into this branch (git merge-base HEAD main): the
#   same tree with the hand-written JSON reader and writer, so that both write the same reports. An
#   executable file instead of a commit is used as the old binary as it is (as scripts/dev/check-same-output.sh).
#
# Environment (all optional):
#   N        specs in the generated JSON Lines file (default 1000000; seed 1, 30 % invalid, as docs/perf.md)
#   RUNS     runs per binary and format, alternating old and new; the median is reported (default 5)
#   CPU      CPU the runs are pinned to with taskset (default 0)
#   WORK     where the old tree, its build, the file and the outputs go (default /tmp/tmapgen-bench-old-new)
#   BUILD    this tree's build directory (default build; Release)
# Timed runs write to /dev/null; one more run of each binary writes files, and cmp checks that the two
# wrote the same bytes (the script stops if not).
# Results go to stdout as a markdown table; progress to stderr when it is a terminal.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
old=${1:-$(git merge-base HEAD main)}
old_bin=
if [ -x "$old" ] && [ -f "$old" ]; then
  old_bin=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
else
  old=$(git rev-parse --short "$old")
fi
N=${N:-1000000}
RUNS=${RUNS:-5}
CPU=${CPU:-0}
WORK=${WORK:-/tmp/tmapgen-bench-old-new}
BUILD=${BUILD:-build}
progress() { if [ -t 2 ]; then printf 'bench-old-new: %s\n' "$*" >&2; fi; }
mkdir -p "$WORK"
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work} CCACHE_DIR=${CCACHE_DIR:-/work/.ccache}
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

# The old tree: `git archive` of OLD_COMMIT, built Release without tests, benchmarks or kernels' checks.
if [ -z "$old_bin" ]; then
  old_src=$WORK/src-$old
  if [ ! -f "$old_src/CMakeLists.txt" ]; then
    progress "extracting $old"
    rm -rf "$old_src" && mkdir -p "$old_src"
    git archive "$old" | tar -C "$old_src" -x
  fi
  progress "building old tmapgen ($old)"
  # (TMAPGEN_BENCH: the micro-benchmarks option's name in older trees)
  cmake -S "$old_src" -B "$WORK/build-$old" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_TESTS=OFF \
    -DTMAPGEN_MICROBENCH=OFF -DTMAPGEN_BENCH=OFF --no-warn-unused-cli "${launcher[@]}" >/dev/null
  cmake --build "$WORK/build-$old" --target tmapgen >/dev/null
  old_bin=$WORK/build-$old/tmapgen
fi
progress "building new tmapgen"
cmake --build "$BUILD" --target tmapgen >/dev/null
new_bin=$root/$BUILD/tmapgen

file=$WORK/specs-$N-1-0.3.jsonl
if [ ! -f "$file" ]; then
  progress "generating $N specs"
  python3 scripts/dev/gen-specs.py "$N" "$file" --seed 1 --invalid-frac 0.3
fi
bytes=$(stat -L -c %s "$file")

PIN=()
if command -v taskset >/dev/null 2>&1; then PIN=(taskset -c "$CPU"); fi
TIME=()
if [ -x /usr/bin/time ]; then TIME=(/usr/bin/time -f "%e %U %S %M" -o "$WORK/time.txt"); fi

# run BIN FORMAT OUT: one timed run; prints "wall user sys maxrss_kb"
run() {
  local bin=$1 fmt=$2 out=$3 t0 t1
  t0=$(date +%s.%N)
  "${TIME[@]}" "${PIN[@]}" "$bin" validate "$file" --format "$fmt" --quiet --no-gpu > "$out" 2>/dev/null || true
  t1=$(date +%s.%N)
  if [ ${#TIME[@]} -gt 0 ]; then tail -1 "$WORK/time.txt"; else echo "$(echo "$t1 - $t0" | bc) 0 0 0"; fi
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "== machine"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores online), runs pinned to CPU $CPU"
echo "compiler: $(${CXX:-c++} --version | head -1)"
echo "date:     $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (before the runs)"
if [ "$old_bin" = "$old" ] || [ -f "$old" ]; then echo "old:      $old_bin"
else echo "old:      $old ($(git log -1 --format=%s "$old" | cut -c1-70))"; fi
echo "new:      $(git rev-parse --short HEAD)$( [ -n "$(git status --porcelain -- src cli CMakeLists.txt)" ] && echo " + uncommitted changes")"
echo "file:     $file ($N specs, $bytes bytes)"
echo
echo "| format | binary | wall (median of $RUNS) | user+sys | peak RSS | specs/s | runs (wall s) |"
echo "|---|---|---:|---:|---:|---:|---|"
for fmt in json text; do
  declare -A walls=() cpus=() rss=()
  for r in $(seq "$RUNS"); do
    for which in old new; do
      bin=$old_bin; [ "$which" = new ] && bin=$new_bin
      progress "$fmt run $r $which"
      read -r wall user sys kb < <(run "$bin" "$fmt" /dev/null)
      walls[$which]+="$wall "
      cpus[$which]+="$(echo "$user + $sys" | bc) "
      rss[$which]=$kb
    done
  done
  # One more run of each, not timed, into files: the two must write the same bytes.
  run "$old_bin" "$fmt" "$WORK/out-$fmt-old.txt" >/dev/null
  run "$new_bin" "$fmt" "$WORK/out-$fmt-new.txt" >/dev/null
  if ! cmp -s "$WORK/out-$fmt-old.txt" "$WORK/out-$fmt-new.txt"; then
    echo "bench-old-new: outputs differ ($fmt): $WORK/out-$fmt-{old,new}.txt" >&2
    exit 1
  fi
  outbytes=$(stat -c %s "$WORK/out-$fmt-new.txt")
  rm -f "$WORK/out-$fmt-old.txt" "$WORK/out-$fmt-new.txt"
  for which in old new; do
    w=$(echo "${walls[$which]}" | tr ' ' '\n' | grep . | median)
    c=$(echo "${cpus[$which]}" | tr ' ' '\n' | grep . | median)
    rate=$(echo "$N / $w" | bc)
    echo "| $fmt | $which | ${w} s | ${c} s | $((rss[$which] / 1024)) MB | $rate | ${walls[$which]}|"
  done
  echo "| $fmt | output | $outbytes bytes, the same for both (cmp) | | | | |"
  unset walls cpus rss
done
echo
echo "timed runs write to /dev/null (as docs/perf.md's); a last run of each writes files that cmp compares"
