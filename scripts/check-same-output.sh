#!/usr/bin/env bash
# check-same-output.sh: `tmapgen validate` of another commit (OLD) and of this tree (NEW) must write the
# same bytes, for every --format, with and without --quiet, on generated spec files and the spec files
# of tests/ (docs/perf.md, section 13: a speed-up that changes a byte is a bug unless documented).
#
# usage: scripts/check-same-output.sh [OLD_COMMIT | OLD_BINARY]
#   OLD_COMMIT defaults to `git merge-base HEAD main`; it is built as scripts/bench-old-new.sh builds it
#   (git archive into $WORK, Release, tmapgen only), in the same $WORK, so the two scripts share the build.
#   An executable file instead of a commit is used as the old binary as it is.
#
# Environment (all optional):
#   N       specs in the generated file (default 20000; seed 1, 30 % invalid, as docs/perf.md)
#   BIG     also compare on the 1,000,000-spec file of scripts/bench-old-new.sh (default 1; 0: skip)
#   WORK    where the old tree, its build, the files and the outputs go (default /tmp/tmapgen-bench-old-new)
#   BUILD   this tree's build directory (default build; Release)
# Exit status 0 when every output is the same (and the exit statuses agree), 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
N=${N:-20000}
BIG=${BIG:-1}
WORK=${WORK:-/tmp/tmapgen-bench-old-new}
BUILD=${BUILD:-build}
mkdir -p "$WORK"
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work} CCACHE_DIR=${CCACHE_DIR:-/work/.ccache}
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

arg=${1:-$(git merge-base HEAD main)}
if [ -x "$arg" ] && [ -f "$arg" ]; then
  old_bin=$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")
  old_name=$old_bin
else
  old=$(git rev-parse --short "$arg")
  old_src=$WORK/src-$old
  if [ ! -f "$old_src/CMakeLists.txt" ]; then
    rm -rf "$old_src" && mkdir -p "$old_src"
    git archive "$old" | tar -C "$old_src" -x
  fi
  cmake -S "$old_src" -B "$WORK/build-$old" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_TESTS=OFF \
    -DTMAPGEN_BENCH=OFF "${launcher[@]}" >/dev/null
  cmake --build "$WORK/build-$old" --target tmapgen >/dev/null
  old_bin=$WORK/build-$old/tmapgen
  old_name=$old
fi
cmake --build "$BUILD" --target tmapgen >/dev/null
new_bin=$root/$BUILD/tmapgen

# The inputs: a generated file, the big one, and every spec file of tests/ (JSON Lines, JSON, text format).
# tests/tmap/testdata/text_branches.jsonl holds specs for the branches of rule texts that the generated files
# never reach (the im2col 32-bit wrap, interleaved address fixes, ignored fields, bitwise reductions, ...).
files=()
small=$WORK/specs-$N-1-0.3.jsonl
[ -f "$small" ] || python3 scripts/gen-specs.py "$N" "$small" --seed 1 --invalid-frac 0.3
files+=("$small")
# All invalid, and none: the two ends of the mix.
[ -f "$WORK/specs-2000-2-1.jsonl" ] || python3 scripts/gen-specs.py 2000 "$WORK/specs-2000-2-1.jsonl" --seed 2 --invalid-frac 1
[ -f "$WORK/specs-2000-3-0.jsonl" ] || python3 scripts/gen-specs.py 2000 "$WORK/specs-2000-3-0.jsonl" --seed 3 --invalid-frac 0
files+=("$WORK/specs-2000-2-1.jsonl" "$WORK/specs-2000-3-0.jsonl")
if [ "$BIG" = 1 ]; then
  big=$WORK/specs-1000000-1-0.3.jsonl
  [ -f "$big" ] || python3 scripts/gen-specs.py 1000000 "$big" --seed 1 --invalid-frac 0.3
  files+=("$big")
fi
while IFS= read -r f; do files+=("$f"); done < <(find tests examples -type f \( -name '*.json' -o -name '*.jsonl' \
  -o -name '*.textproto' -o -name '*.txtpb' \) 2>/dev/null | grep -v '/data/' | sort)

formats=(json text short)
if "$new_bin" --format textproto --dims 64,64 --box 64,64 >/dev/null 2>&1; then formats+=(textproto); fi

fail=0 compared=0
for f in "${files[@]}"; do
  for fmt in "${formats[@]}"; do
    for q in "" --quiet; do
      set +e
      "$old_bin" validate "$f" --format "$fmt" $q --no-gpu >"$WORK/same-old.out" 2>"$WORK/same-old.err"; rc_old=$?
      "$new_bin" validate "$f" --format "$fmt" $q --no-gpu >"$WORK/same-new.out" 2>"$WORK/same-new.err"; rc_new=$?
      set -e
      compared=$((compared + 1))
      if [ $rc_old != $rc_new ] || ! cmp -s "$WORK/same-old.out" "$WORK/same-new.out" ||
         ! cmp -s "$WORK/same-old.err" "$WORK/same-new.err"; then
        echo "DIFFERENT: $f --format $fmt $q (exit $rc_old vs $rc_new)"
        cmp "$WORK/same-old.out" "$WORK/same-new.out" | head -1 || true
        fail=1
      fi
    done
  done
done
rm -f "$WORK"/same-{old,new}.{out,err}
if [ $fail = 0 ]; then
  echo "same output: $compared runs (${#files[@]} files x ${formats[*]} x with and without --quiet), old $old_name, new $(git rev-parse --short HEAD)$( [ -n "$(git status --porcelain -- src cli)" ] && echo ' + changes')"
fi
exit $fail
