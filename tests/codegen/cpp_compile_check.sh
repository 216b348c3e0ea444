#!/usr/bin/env bash
# cpp_compile_check.sh: the header `tmapgen codegen --lang cpp` writes compiles cleanly with
# g++ -std=c++17 -Wall -Wextra -Werror, and its constexpr values equal the numbers computed by hand in
# testdata/check_main.cc (static_asserts). Also checks determinism (two runs, same bytes).
#
#   tests/codegen/cpp_compile_check.sh TMAPGEN_BINARY SOURCE_DIR
#
# Compiler: $CXX, else g++. cuda.h: $CUDA_INCLUDE, else /usr/local/cuda/include; without cuda.h only the
# constexpr part is compiled (-DTMAPGEN_GEN_NO_HOST) and the script says so.
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
here="$src/tests/codegen"
cxx="${CXX:-g++}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
flags=(--desc tile_a:wgmma:A:K --idesc kind=f16,m=128,n=256,a-type=bf16,b-type=bf16,d-type=f32,name=mma)

cd "$here/testdata" || exit 1
"$tmapgen" codegen known.jsonl --lang cpp "${flags[@]}" -o "$tmp/known.gen.h" || { echo "FAIL: codegen exited $?"; exit 1; }
"$tmapgen" codegen known.jsonl --lang cpp "${flags[@]}" -o "$tmp/again.gen.h" || exit 1
if ! cmp -s "$tmp/known.gen.h" "$tmp/again.gen.h"; then echo "FAIL: two runs gave different bytes"; exit 1; fi

# An invalid spec: exit 1, the validator's report on stderr, no output file.
printf '{"name": "bad", "tensor_data_type": "float16", "global_dim": [100, 64], "global_strides": [200], "box_dim": [300, 8]}\n' > "$tmp/bad.json"
"$tmapgen" codegen "$tmp/bad.json" --lang cpp -o "$tmp/bad.gen.h" 2> "$tmp/bad.err"
rc=$?
if [ $rc -ne 1 ] || [ -e "$tmp/bad.gen.h" ] || ! grep -q "box-dim-range" "$tmp/bad.err"; then
  echo "FAIL: invalid spec: exit $rc (want 1), file written: $([ -e "$tmp/bad.gen.h" ] && echo yes || echo no), report:"
  cat "$tmp/bad.err"
  exit 1
fi

warn=(-std=c++17 -Wall -Wextra -Werror -Wpedantic -Wshadow -Wconversion)
status=0
if ! "$cxx" "${warn[@]}" -DTMAPGEN_GEN_NO_HOST -I "$tmp" -c check_main.cc -o "$tmp/nohost.o"; then
  echo "FAIL: the constexpr part (TMAPGEN_GEN_NO_HOST) does not compile with $cxx ${warn[*]}"
  status=1
fi
cuda_inc="${CUDA_INCLUDE:-/usr/local/cuda/include}"
if [ -f "$cuda_inc/cuda.h" ]; then
  if ! "$cxx" "${warn[@]}" -I "$tmp" -I "$cuda_inc" -c check_main.cc -o "$tmp/host.o"; then
    echo "FAIL: the header with its host part does not compile with $cxx ${warn[*]}"
    status=1
  fi
else
  echo "NOTE: $cuda_inc/cuda.h not found: only the constexpr part was compiled (set CUDA_INCLUDE)"
fi
# An edited constant must break the build (the static_asserts guard the validated configuration).
sed 's/^constexpr unsigned kTransactionBytes = 16384u;/constexpr unsigned kTransactionBytes = 8192u;/' "$tmp/known.gen.h" > "$tmp/edited.gen.h"
if cmp -s "$tmp/known.gen.h" "$tmp/edited.gen.h"; then echo "FAIL: the edit did not apply"; status=1; fi
printf '#include "edited.gen.h"\nint main() { return 0; }\n' > "$tmp/edited.cc"
if "$cxx" -std=c++17 -DTMAPGEN_GEN_NO_HOST -I "$tmp" -c "$tmp/edited.cc" -o "$tmp/edited.o" 2>/dev/null; then
  echo "FAIL: a header whose kTransactionBytes was edited still compiles"
  status=1
fi
[ $status -eq 0 ] && echo "OK: generated header compiles with $cxx ${warn[*]}; hand-computed values hold"
exit $status
