#!/usr/bin/env bash
# compile_check.sh SOURCE_DIR: tests/trace/gpu/launch_proof.cu (the GPU proof of the launch checks, run by
# scripts/lab/trace-launch-h200.sh) compiles with nvcc for sm_90a and links against the driver's stub. Exit 77
# (skipped) with the reason where nvcc is absent.
set -u
src=${1:?usage: compile_check.sh SOURCE_DIR}
nvcc=${NVCC:-}
[ -z "$nvcc" ] && nvcc=$(command -v nvcc 2>/dev/null || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "skipped: no nvcc (set NVCC or CUDA_HOME)"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
stubs=""
for d in "$(dirname "$nvcc")/../lib64/stubs" "$(dirname "$nvcc")/../targets/x86_64-linux/lib/stubs"; do
  [ -d "$d" ] && stubs="$stubs -L$d"
done
if "$nvcc" -arch=sm_90a -std=c++17 -O2 "$src/tests/trace/gpu/launch_proof.cu" -o "$out/launch_proof" $stubs -lcuda \
     > "$out/log" 2>&1; then
  echo "launch_proof.cu compiles for sm_90a ($("$nvcc" --version | tail -1))"
  exit 0
fi
cat "$out/log"
exit 1
