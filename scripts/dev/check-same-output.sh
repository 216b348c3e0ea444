#!/usr/bin/env bash
# check-same-output.sh: the tmapgen of another commit (OLD) and of this tree (NEW) must write the same
# bytes (standard output, standard error, exit status, and the files a command writes):
#   1. `tmapgen validate` for every --format, with and without --quiet, on generated spec files and the
#      spec files of tests/ and examples/;
#   2. every command and format on the command lines of scripts/dev/same-output-cases.txt (build from flags,
#      validate, rules, explain of every rule id, layout, decode, diff, desc, idesc, codegen, show, and the
#      usage errors and help texts of each; check, sweep, bench and trace up to where they need a GPU).
# A refactoring or speed-up that changes a byte is a bug unless the change is intended and documented.
#
# usage: scripts/dev/check-same-output.sh [OLD_COMMIT | OLD_BINARY]
#   OLD_COMMIT defaults to `git merge-base HEAD main`; it is built as scripts/dev/bench-old-new.sh builds it
#   (git archive into $WORK, Release, tmapgen only), in the same $WORK, so the two scripts share the build.
#   An executable file instead of a commit is used as the old binary as it is.
#
# Environment (all optional):
#   N       specs in the generated file (default 20000; seed 1, 30 % invalid, as docs/perf.md)
#   BIG     also compare on the 1,000,000-spec file of scripts/dev/bench-old-new.sh (default 1; 0: skip)
#   WORK    where the old tree, its build, the files and the outputs go (default /tmp/tmapgen-bench-old-new)
#   BUILD   this tree's build directory (default build; Release)
#   VALIDATE  1: run part 1 (default); 0: only the command lines of part 2
#   ONLY    a regular expression: run only the part-2 cases whose line matches it
# Exit status 0 when every output is the same (and the exit statuses agree), 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
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
  # (TMAPGEN_BENCH: the micro-benchmarks option's name in older trees)
  cmake -S "$old_src" -B "$WORK/build-$old" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_TESTS=OFF \
    -DTMAPGEN_MICROBENCH=OFF -DTMAPGEN_BENCH=OFF --no-warn-unused-cli "${launcher[@]}" >/dev/null
  cmake --build "$WORK/build-$old" --target tmapgen >/dev/null
  old_bin=$WORK/build-$old/tmapgen
  old_name=$old
fi
cmake --build "$BUILD" --target tmapgen >/dev/null
case "$BUILD" in /*) new_bin=$BUILD/tmapgen ;; *) new_bin=$root/$BUILD/tmapgen ;; esac

# The inputs: a generated file, the big one, and every spec file of tests/ (JSON Lines, JSON, text format).
# tests/tmap/testdata/text_branches.jsonl holds specs for the branches of rule texts that the generated files
# never reach (the im2col 32-bit wrap, interleaved address fixes, ignored fields, bitwise reductions, ...).
files=()
small=$WORK/specs-$N-1-0.3.jsonl
gen() { [ -f "$1" ] || { python3 scripts/dev/gen-specs.py "${@:2}" "$1.$$" && mv "$1.$$" "$1"; }; }
gen "$small" "$N" --seed 1 --invalid-frac 0.3
files+=("$small")
# All invalid, and none: the two ends of the mix.
gen "$WORK/specs-2000-2-1.jsonl" 2000 --seed 2 --invalid-frac 1
gen "$WORK/specs-2000-3-0.jsonl" 2000 --seed 3 --invalid-frac 0
files+=("$WORK/specs-2000-2-1.jsonl" "$WORK/specs-2000-3-0.jsonl")
if [ "$BIG" = 1 ]; then
  big=$WORK/specs-1000000-1-0.3.jsonl
  gen "$big" 1000000 --seed 1 --invalid-frac 0.3
  files+=("$big")
fi
while IFS= read -r f; do files+=("$f"); done < <(find tests examples -type f \( -name '*.json' -o -name '*.jsonl' \
  -o -name '*.textproto' -o -name '*.txtpb' \) 2>/dev/null | grep -v '/data/' | sort)

formats=(json text short)
if "$new_bin" --format textproto --dims 64,64 --box 64,64 >/dev/null 2>&1; then formats+=(textproto); fi

T=$(mktemp -d "$WORK/same.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0 compared=0
VALIDATE=${VALIDATE:-1}
[ "$VALIDATE" = 1 ] || files=()
for f in "${files[@]}"; do
  for fmt in "${formats[@]}"; do
    for q in "" --quiet; do
      set +e
      "$old_bin" validate "$f" --format "$fmt" $q --no-gpu >"$T/old.out" 2>"$T/old.err"; rc_old=$?
      "$new_bin" validate "$f" --format "$fmt" $q --no-gpu >"$T/new.out" 2>"$T/new.err"; rc_new=$?
      set -e
      compared=$((compared + 1))
      if [ $rc_old != $rc_new ] || ! cmp -s "$T/old.out" "$T/new.out" ||
         ! cmp -s "$T/old.err" "$T/new.err"; then
        echo "DIFFERENT: $f --format $fmt $q (exit $rc_old vs $rc_new)"
        cmp "$T/old.out" "$T/new.out" | head -1 || true
        fail=1
      fi
    done
  done
done

# Part 2: every command, on the command lines of scripts/dev/same-output-cases.txt.
D=$WORK/same-data
if [ ! -f "$D/a.words" ]; then
  mkdir -p "$D.$$"
  python3 - "$D.$$" <<'PY'
import gzip, json, sys
d = sys.argv[1]
lines = gzip.open("tests/blob/data/shared_corpus_sample.jsonl.gz", "rt").read().splitlines()[:300]
open(d + "/corpus.jsonl", "w").write("\n".join(lines) + "\n")
open(d + "/a.jsonl", "w").write(lines[0] + "\n")
open(d + "/b.jsonl", "w").write(lines[1] + "\n")
b = bytes.fromhex(json.loads(lines[0])["bytes"])
open(d + "/a.hex", "w").write(b.hex() + "\n")
words = [int.from_bytes(b[i:i + 8], "little") for i in range(0, 128, 8)]
open(d + "/a.words", "w").write(" ".join("%016x" % w for w in words) + "\n")
PY
  rm -rf "$D" 2>/dev/null || true
  mv "$D.$$" "$D" 2>/dev/null || rm -rf "$D.$$"
fi
cases=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  line=${line//@R@/$root}
  line=${line//@D@/$D}
  if [ -n "${ONLY:-}" ] && ! printf '%s\n' "$line" | grep -Eq -- "$ONLY"; then continue; fi
  cases+=("$line")
done < scripts/dev/same-output-cases.txt
# explain of every rule id the old binary lists, in both formats
if [ -z "${ONLY:-}" ]; then
  while IFS= read -r id; do cases+=("explain $id" "explain $id --format json" "rules $id --format json")
  done < <("$old_bin" rules --format json | python3 -c 'import json,sys; [print(r["id"]) for r in json.load(sys.stdin)]')
fi
ncases=0
for c in "${cases[@]}"; do
  stdin=/dev/null
  if [ "${c:0:1}" = "<" ]; then stdin=${c%% *}; stdin=${stdin:1}; c=${c#* }; fi
  read -r -a argv <<< "$c"
  for side in old new; do
    rm -rf "$T/run-$side" && mkdir -p "$T/run-$side"
    bin=$old_bin; [ $side = new ] && bin=$new_bin
    set +e
    (cd "$T/run-$side" && NO_COLOR=1 "$bin" "${argv[@]}" <"$stdin" >"$T/$side.out" 2>"$T/$side.err"); echo $? >"$T/$side.rc"
    set -e
  done
  ncases=$((ncases + 1))
  if ! cmp -s "$T/old.rc" "$T/new.rc" || ! cmp -s "$T/old.out" "$T/new.out" || ! cmp -s "$T/old.err" "$T/new.err" ||
     ! diff -r "$T/run-old" "$T/run-new" >/dev/null; then
    echo "DIFFERENT: tmapgen $c (exit $(cat "$T/old.rc") vs $(cat "$T/new.rc"))"
    diff "$T/old.out" "$T/new.out" | head -6 || true
    diff "$T/old.err" "$T/new.err" | head -6 || true
    diff -r "$T/run-old" "$T/run-new" | head -3 || true
    fail=1
  fi
done
if [ $fail = 0 ]; then
  echo "same output: $compared validate runs (${#files[@]} files x ${formats[*]} x with and without --quiet) and $ncases command lines, old $old_name, new $(git rev-parse --short HEAD)$( [ -n "$(git status --porcelain -- src cli)" ] && echo ' + changes')"
fi
exit $fail
