#!/usr/bin/env bash
# header_compile_check.sh: the header `tmapgen plan gemm|conv --format cpp` writes compiles with
# g++ -std=c++17 -Wall -Wextra -Werror (the constexpr part; with cuda.h also the host part), its constants hold
# the values CUTLASS computes (testdata/plan_check_main.cc: static_asserts), an edited constant breaks the build,
# and an invalid plan generates nothing (exit 1).
#
#   tests/plan/header_compile_check.sh TMAPGEN_BINARY SOURCE_DIR
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
cxx="${CXX:-g++}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
"$tmapgen" plan gemm --m 4096 --n 4096 --k 4096 --tile 128x128x64 --cluster 2x2 --multicast ab --format cpp \
  --namespace gemm_gen > "$tmp/gemm.gen.h" || { echo "FAIL: plan gemm --format cpp exited $?"; exit 1; }
"$tmapgen" plan conv --n 8 --c 64 --k 128 --h 28 --w 28 --r 3 --s 3 --pad 1 --format cpp --namespace conv_gen \
  > "$tmp/conv.gen.h" || { echo "FAIL: plan conv --format cpp exited $?"; exit 1; }
warn=(-std=c++17 -Wall -Wextra -Werror -Wpedantic -Wshadow -Wconversion)
cp "$src/tests/plan/testdata/plan_check_main.cc" "$tmp/"
if ! "$cxx" "${warn[@]}" -DTMAPGEN_GEN_NO_HOST -I "$tmp" -c "$tmp/plan_check_main.cc" -o "$tmp/nohost.o"; then
  echo "FAIL: the constexpr part does not compile with $cxx ${warn[*]}"
  status=1
fi
cuda_inc="${CUDA_INCLUDE:-/usr/local/cuda/include}"
if [ -f "$cuda_inc/cuda.h" ]; then
  if ! "$cxx" "${warn[@]}" -I "$tmp" -I "$cuda_inc" -c "$tmp/plan_check_main.cc" -o "$tmp/host.o"; then
    echo "FAIL: the header with its host part does not compile"
    status=1
  fi
else
  echo "NOTE: $cuda_inc/cuda.h not found: only the constexpr part was compiled (set CUDA_INCLUDE)"
fi
# An edited constant breaks the build.
sed 's/^constexpr unsigned kStageBytes = 32768u;/constexpr unsigned kStageBytes = 16384u;/' "$tmp/gemm.gen.h" > "$tmp/edited.gen.h"
if cmp -s "$tmp/gemm.gen.h" "$tmp/edited.gen.h"; then echo "FAIL: the edit did not apply"; status=1; fi
printf '#include "edited.gen.h"\nint main() { return 0; }\n' > "$tmp/edited.cc"
if "$cxx" -std=c++17 -DTMAPGEN_GEN_NO_HOST -I "$tmp" -c "$tmp/edited.cc" -o "$tmp/edited.o" 2>/dev/null; then
  echo "FAIL: a header whose kStageBytes was edited still compiles"
  status=1
fi
# An invalid plan: exit 1, nothing on standard output.
"$tmapgen" plan gemm --k 4100 --format cpp > "$tmp/bad.gen.h" 2> "$tmp/bad.err"
rc=$?
if [ $rc -ne 1 ] || [ -s "$tmp/bad.gen.h" ]; then echo "FAIL: an invalid plan: exit $rc (want 1), output $(wc -c < "$tmp/bad.gen.h") bytes"; status=1; fi
[ $status -eq 0 ] && echo "OK: plan headers compile with $cxx ${warn[*]}; CUTLASS's values hold"
exit $status
