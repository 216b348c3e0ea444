#!/usr/bin/env bash
# compile_check.sh TMAPGEN_BINARY SOURCE_DIR: the plan proof kernel (tests/plan/gpu/plan_proof.cu, run on the H200
# by scripts/lab/plan-proof-h200.sh) compiles with nvcc for sm_90a against headers tmapgen generates: a GEMM with
# a 2 x 2 cluster multicasting A and B, an fp8 GEMM with n256, and a convolution. Exit 77 (skipped) with the
# reason where nvcc is absent.
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "${2:?usage: compile_check.sh TMAPGEN_BINARY SOURCE_DIR}" && pwd)"
nvcc=${NVCC:-}
[ -z "$nvcc" ] && nvcc=$(command -v nvcc 2>/dev/null || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "skipped: no nvcc (set NVCC or CUDA_HOME)"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
NVCC=$nvcc TMAPGEN=$tmapgen COMPILE_ONLY=1 JOBS=${JOBS:-2} TORCH_PYTHON= \
  CASES="gemm_bf16_2x2_mcast_ab gemm_e4m3_2x2 conv_bf16_stride2" \
  bash "$src/scripts/lab/plan-proof-h200.sh" "$out" > "$out/log" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^COMPILED' "$out/log")" -eq 3 ]; then
  grep '^COMPILED' "$out/log"
  echo "plan_proof.cu compiles for sm_90a from 3 generated headers ($("$nvcc" --version | tail -1))"
  exit 0
fi
cat "$out/log"
for f in "$out"/*.nvcc.log; do [ -f "$f" ] && { echo "== $f"; grep -m5 error "$f"; }; done
exit 1
