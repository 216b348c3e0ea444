#!/usr/bin/env bash
# nvcc_check.sh: with nvcc, for sm_90a:
#   1. examples/codegen/tile_a.gen.h is what `tmapgen codegen examples/codegen/tile.json` generates now
#      (checked without nvcc too; a difference fails: regenerate the example header);
#   2. the example kernel examples/codegen/tma_tile_example.cu compiles and links with the header;
#   3. the test header (tests/codegen/testdata/known.jsonl) compiles with nvcc as CUDA;
#   4. the --lang ptx sequence for tile.json assembles (inside inline asm, ptxas for sm_90a);
#   5. examples/codegen/tensormap_replace_example.cu compiles with that sequence included.
#
#   tests/codegen/nvcc_check.sh TMAPGEN_BINARY SOURCE_DIR
#
# nvcc: $NVCC, else `nvcc` on PATH, else /usr/local/cuda/bin/nvcc. Exit status: 0 OK, 1 failed, 77 skipped
# (nvcc not found; the staleness check 1 still ran). The kernel is compiled, not run: see docs/codegen.md.
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
"$tmapgen" codegen examples/codegen/tile.json --lang cpp -o "$tmp/tile_a.gen.h" || { echo "FAIL: codegen exited $?"; exit 1; }
if ! cmp -s "$tmp/tile_a.gen.h" examples/codegen/tile_a.gen.h; then
  echo "FAIL: examples/codegen/tile_a.gen.h is stale; regenerate it (from the source root):"
  echo "  tmapgen codegen examples/codegen/tile.json --lang cpp -o examples/codegen/tile_a.gen.h"
  diff "$tmp/tile_a.gen.h" examples/codegen/tile_a.gen.h | head -20
  exit 1
fi

nvcc="${NVCC:-}"
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then nvcc="$(command -v nvcc 2>/dev/null || true)"; fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc not found (set NVCC=/path/to/nvcc); the example kernel was not compiled"
  exit 77
fi
arch=(-gencode=arch=compute_90a,code=sm_90a)
status=0
cudadir="$(cd "$(dirname "$nvcc")/.." && pwd)"
# 2. The example, linked against the driver stub (libcuda.so) when the toolkit has one, else compiled only.
if [ -f "$cudadir/lib64/stubs/libcuda.so" ]; then
  "$nvcc" -std=c++17 "${arch[@]}" -I "$tmp" examples/codegen/tma_tile_example.cu -o "$tmp/tma_tile_example" \
    -L"$cudadir/lib64/stubs" -lcuda || { echo "FAIL: the example does not compile/link"; status=1; }
else
  "$nvcc" -std=c++17 "${arch[@]}" -I "$tmp" -c examples/codegen/tma_tile_example.cu -o "$tmp/example.o" \
    || { echo "FAIL: the example does not compile"; status=1; }
fi
# 3. The test header as CUDA (device pass included).
(cd tests/codegen/testdata && "$tmapgen" codegen known.jsonl --desc tile_a:wgmma:A:K \
   --idesc kind=f16,m=128,n=256,a-type=bf16,b-type=bf16,d-type=f32,name=mma -o "$tmp/known.gen.h") || exit 1
printf '#include "known.gen.h"\n#include "%s/tests/codegen/testdata/check_main.cc"\n__global__ void k(unsigned long long* o) { o[0] = tmapgen_gen::tile_a::WgmmaDescA(1024u) + tmapgen_gen::tile_a::kTransactionBytes + tmapgen_gen::mma::kValue; }\n' \
  "$src" > "$tmp/known_check.cu"
"$nvcc" -std=c++17 "${arch[@]}" -Werror all-warnings -I "$tmp" -c "$tmp/known_check.cu" -o "$tmp/known_check.o" \
  || { echo "FAIL: the generated test header does not compile with nvcc"; status=1; }
# 4. The PTX sequence, with %tmap/%gaddr bound to inline-asm operands.
"$tmapgen" codegen examples/codegen/tile.json --lang ptx | grep '^tensormap' | sed 's/%tmap/%0/; s/%gaddr/%1/; s/ *\/\/.*//' > "$tmp/lines"
{
  echo '__global__ void replace_map(unsigned long long gaddr) {'
  echo '  __shared__ __align__(128) unsigned char map[128];'
  echo '  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(map));'
  echo '  asm volatile('
  while read -r l; do echo "    \"$l\\n\""; done < "$tmp/lines"
  echo '    :: "r"(a), "l"(gaddr) : "memory");'
  echo '}'
} > "$tmp/ptx_check.cu"
"$nvcc" "${arch[@]}" -cubin -o "$tmp/ptx_check.cubin" "$tmp/ptx_check.cu" \
  || { echo "FAIL: the --lang ptx sequence does not assemble for sm_90a"; status=1; }
# 5. The device-side example: the generated sequence as string literals, included into inline asm.
sed 's/.*/"&\\n"/' "$tmp/lines" > "$tmp/tile_a.replace.inc"
"$nvcc" -std=c++17 "${arch[@]}" -I "$tmp" -c examples/codegen/tensormap_replace_example.cu -o "$tmp/replace_example.o" \
  || { echo "FAIL: examples/codegen/tensormap_replace_example.cu does not compile"; status=1; }
[ $status -eq 0 ] && echo "OK: example header current; examples, test header and PTX sequence compile for sm_90a with $nvcc"
exit $status
