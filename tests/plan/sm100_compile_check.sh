#!/usr/bin/env bash
# sm100_compile_check.sh: Blackwell plans, compiled and never run (there is no Blackwell GPU here). Generates the
# headers of three sm_100a plans (tmapgen plan ... --format cpp): a tcgen05 GEMM with 1-CTA MMA and
# .multicast::cluster copies, one with 2-CTA MMA and .cta_group::2 copies, and a convolution with its im2col::w and
# im2col::w::128 forms; compiles tests/plan/testdata/sm100_plan_kernels.cu (a producer and an MMA issuer per plan,
# built only from the headers' constants) with nvcc for sm_100a; and checks that the PTX holds every instruction the
# plans call for and that ptxas assembles it for sm_100a.
#
#   tests/plan/sm100_compile_check.sh TMAPGEN_BINARY SOURCE_DIR
# Exit 0 when it passes, 77 (ctest: skipped) when nvcc or its sm_100a support is absent, 1 otherwise.
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc); else nvcc=/usr/local/cuda/bin/nvcc; fi
fi
if [ ! -x "$nvcc" ]; then
  echo "SKIP: no nvcc (set NVCC): the sm_100a plan kernels were not compiled"
  exit 77
fi
if ! "$nvcc" --list-gpu-arch 2>/dev/null | grep -qx 'compute_100'; then
  echo "SKIP: $nvcc has no sm_100 support (CUDA 12.8 or later): the sm_100a plan kernels were not compiled"
  exit 77
fi
ptxas="$(dirname "$nvcc")/ptxas"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
gen() {  # gen FILE NAMESPACE ARGS...
  local file=$1 ns=$2
  shift 2
  if ! "$tmapgen" plan "$@" --format cpp --namespace "$ns" > "$tmp/$file" 2> "$tmp/$file.err"; then
    echo "FAIL: tmapgen plan $* --format cpp exited with an error:"
    cat "$tmp/$file.err"
    exit 1
  fi
}
gen gemm1.gen.h g1 gemm --target sm_100a --cluster 2x1 --multicast b
gen gemm2.gen.h g2 gemm --target sm_100a --cta-group 2 --cluster 2x1 --tile 128x256x64
gen conv.gen.h cv conv --target sm_100a --n 2 --h 16 --w 256 --c 64 --k 128 --r 3 --s 3 --pad 1 --stride 2
for ns in im2col_w im2col_w128; do
  grep -q "namespace $ns {" "$tmp/conv.gen.h" || { echo "FAIL: the convolution header has no conv::$ns"; status=1; }
done
kernels="$src/tests/plan/testdata/sm100_plan_kernels.cu"
flags=(-std=c++17 -I "$tmp" -Xcompiler -Wall -Werror all-warnings)
# The whole file (host part: the maps' Encode and the launches) for sm_100a.
if ! "$nvcc" "${flags[@]}" -gencode arch=compute_100a,code=sm_100a -c "$kernels" -o "$tmp/kernels.o" > "$tmp/nvcc.log" 2>&1; then
  echo "FAIL: nvcc did not compile the sm_100a plan kernels:"
  head -c 6000 "$tmp/nvcc.log"
  echo
  status=1
fi
# The PTX: every instruction the three plans call for is there; ptxas assembles it for sm_100a.
if "$nvcc" "${flags[@]}" -gencode arch=compute_100a,code=compute_100a -ptx "$kernels" -o "$tmp/kernels.ptx" > "$tmp/ptx.log" 2>&1; then
  while IFS='|' read -r want what; do
    [ -z "$want" ] && continue
    if ! grep -qF -- "$want" "$tmp/kernels.ptx"; then
      echo "FAIL: the PTX has no $want ($what)"
      status=1
    fi
  done <<'EOF'
cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2|2-CTA copies signalling the even CTA
.multicast::cluster [|the 1-CTA plan's multicast B slices
cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w.mbarrier|the im2col::w copies with {wHalo, wOffset}
cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier|the im2col::w::128 copies
cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier|the filter copies
mbarrier.arrive.expect_tx.shared::cta.b64|barriers armed with kExpectTx
mapa.shared::cluster.u32|the pair's even CTA's barrier
tcgen05.mma.cta_group::1.kind::f16|1-CTA MMAs
tcgen05.mma.cta_group::2.kind::f16|2-CTA MMAs
tcgen05.mma.ws.cta_group::1.kind::f16|M = 32 MMAs over the runs of im2col::w::128
tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64|the pair's release of both CTAs' stages
tcgen05.alloc.cta_group::2|tensor memory of the pair
EOF
  if [ -x "$ptxas" ] && ! "$ptxas" -arch=sm_100a "$tmp/kernels.ptx" -o "$tmp/kernels.cubin" > "$tmp/ptxas.log" 2>&1; then
    echo "FAIL: ptxas -arch=sm_100a rejected the PTX:"
    head -c 4000 "$tmp/ptxas.log"
    status=1
  fi
else
  echo "FAIL: nvcc -ptx failed:"
  head -c 4000 "$tmp/ptx.log"
  status=1
fi
# The header's constants are what the kernels read: an edited kExpectTx of the wide form stops the build.
sed 's/^constexpr unsigned kExpectTx = \([0-9]*\)u;  \/\/ A + B copies of one stage/constexpr unsigned kExpectTx = 1u;/' \
  "$tmp/conv.gen.h" > "$tmp/edited.h"
if cmp -s "$tmp/conv.gen.h" "$tmp/edited.h"; then echo "FAIL: the edit did not apply"; status=1; fi
mkdir -p "$tmp/edited"
cp "$tmp/gemm1.gen.h" "$tmp/gemm2.gen.h" "$tmp/edited/"
cp "$tmp/edited.h" "$tmp/edited/conv.gen.h"
if "$nvcc" -std=c++17 -I "$tmp/edited" -gencode arch=compute_100a,code=compute_100a -ptx "$kernels" -o "$tmp/edited.ptx" \
  > /dev/null 2>&1; then
  echo "FAIL: a header whose kExpectTx was edited still compiles"
  status=1
fi
[ $status -eq 0 ] && echo "OK: the sm_100a plan kernels (1-CTA multicast GEMM, 2-CTA GEMM, im2col::w and ::w::128 convolution) compile with $("$nvcc" --version | tail -1); not run (no Blackwell GPU here)"
exit $status
