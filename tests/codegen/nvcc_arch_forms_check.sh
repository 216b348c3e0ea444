#!/usr/bin/env bash
# nvcc_arch_forms_check.sh: a generated header builds the way users build, and PatchGlobalAddress() exists
# exactly in the device passes where tensormap.replace does. A kernel that calls it (guarded by the header's
# TMAPGEN_GEN_TENSORMAP_REPLACE, as docs/codegen.md says) is compiled with
#   -arch=sm_90a    (nvcc 13.0 embeds compute_90 PTX, sm_90a SASS and compute_90a PTX: nvcc --dryrun)
#   -arch=sm_100a   (compute_100 PTX, sm_100a SASS, compute_100a PTX)
#   -gencode arch=compute_90a,code=sm_90a   (sm_90a SASS only)
#   -arch=sm_90     (plain: compute_90 PTX and sm_90 SASS; tensormap.replace must not appear)
# In each device pass the header's macro must equal what the compiler's own feature macros say
# (__CUDA_ARCH_FEAT_SM90_ALL / __CUDA_ARCH_FEAT_SM100_ALL: the passes for which ptxas accepts the
# instruction, PTX ISA 9.7.9.26 and docs/codegen.md), and the PTX that nvcc keeps must hold the instruction
# in the architecture-specific passes and nowhere else. Four compiles (nvcc is slow).
#
#   tests/codegen/nvcc_arch_forms_check.sh TMAPGEN_BINARY SOURCE_DIR
#
# nvcc: $NVCC, else `nvcc` on PATH, else /usr/local/cuda/bin/nvcc. Exit status: 0 OK, 1 failed, 77 skipped
# (nvcc not found).
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
nvcc="${NVCC:-}"
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then nvcc="$(command -v nvcc 2>/dev/null || true)"; fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc not found (set NVCC=/path/to/nvcc); the generated header was not compiled for device targets"
  exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$tmapgen" codegen "$src/examples/codegen/tile.json" --lang cpp -o "$tmp/tile_a.gen.h" || { echo "FAIL: codegen exited $?"; exit 1; }
cat > "$tmp/user.cu" <<'EOF'
#include "tile_a.gen.h"
#ifndef TMAPGEN_GEN_TENSORMAP_REPLACE
#error "the generated header does not say where PatchGlobalAddress() exists (TMAPGEN_GEN_TENSORMAP_REPLACE)"
#endif
// What this compiler pass supports, from nvcc's own macros (independent of the header).
#if defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL))
#define EXPECT_REPLACE 1
#else
#define EXPECT_REPLACE 0
#endif
#if TMAPGEN_GEN_TENSORMAP_REPLACE != EXPECT_REPLACE
#error "TMAPGEN_GEN_TENSORMAP_REPLACE disagrees with the pass's architecture-specific feature macros"
#endif
__global__ void patch(void* map_in_global, const void* tensor, unsigned* out) {
#if TMAPGEN_GEN_TENSORMAP_REPLACE
  tmapgen_gen::tile_a::PatchGlobalAddress(map_in_global, tensor);
#endif
  out[0] = tmapgen_gen::tile_a::kTransactionBytes;
}
EOF
status=0 n=0
check() {  # name, then nvcc's architecture flags
  local name="$1"; shift
  local keep="$tmp/keep-$name"
  mkdir -p "$keep"
  n=$((n + 1))
  if ! (cd "$tmp" && "$nvcc" -std=c++17 "$@" --keep --keep-dir "$keep" -I "$tmp" -c user.cu -o "$keep/user.o") \
       > "$keep/log" 2>&1; then
    echo "FAIL: $name: the header and a kernel calling PatchGlobalAddress() do not compile with nvcc $*:"
    grep -m 3 -i "error" "$keep/log"
    status=1
    return
  fi
  local ptx
  for ptx in "$keep"/*.ptx; do
    [ -f "$ptx" ] || continue
    # The pass's target, from the PTX itself: ".target sm_90" (compute_90) or ".target sm_90a" (compute_90a).
    local pass; pass="$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$ptx" | head -1)"
    local want=0 have=0
    case "$pass" in *a|*f) want=1 ;; esac
    grep -q "tensormap.replace" "$ptx" && have=1
    if [ $want -ne $have ]; then
      echo "FAIL: $name: the PTX for $pass $([ $have -eq 1 ] && echo has || echo lacks) tensormap.replace"
      status=1
    fi
  done
}
check sm_90a -arch=sm_90a
check sm_100a -arch=sm_100a
check gencode_90a -gencode arch=compute_90a,code=sm_90a
check sm_90 -arch=sm_90
[ $status -eq 0 ] && echo "OK: $n nvcc forms: the header compiles and PatchGlobalAddress() is in exactly the arch-specific passes ($nvcc)"
exit $status
