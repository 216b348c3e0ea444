#!/usr/bin/env bash
# plan-proof-h200.sh: the on-GPU proof of `tmapgen plan` (docs/plan.md, "The proof"), in one run on an sm_90
# host: builds tmapgen, generates the plan header of every case below (`tmapgen plan gemm|conv ... --format cpp`),
# compiles tests/plan/gpu/plan_proof.cu against each with nvcc for sm_90a (a kernel built only from the header:
# TMA producer with the plan's multicast, N-stage mbarrier pipeline, wgmma consumers, TMA-store epilogue), runs
# each and compares D with a plain f32 GPU reference; two negative controls must fail the way they should (every
# expect_tx 16 bytes too high: a reported hang; every A descriptor 32 bytes off: mismatches); then times cuBLAS / cuBLASLt / cuDNN through PyTorch on the benchmarked shapes.
#
#   scripts/lab/plan-proof-h200.sh [OUT_DIR]     (default: $OUT/plan-proof, else build-plan-proof/out)
#   env: TMAPGEN_PROOF_BUILD (build-plan-proof), JOBS (nproc), CASES (names to run, default all), TIMEOUT (s per
#        case, 60), TORCH_PYTHON (/opt/torch/.venv/bin/python3; empty: no PyTorch timing), NVCC (nvcc),
#        COMPILE_ONLY=1 (generate and compile, run nothing: the ctest uses it where there is no GPU),
#        TMAPGEN (an existing tmapgen binary: no build)
#
# Needs nvcc (CUDA 12.4+), CMake, a C++17 compiler, Abseil and simdjson (carried .debs as in
# scripts/gpu-check.sh) and, to run, an sm_90 GPU. Writes OUT_DIR/summary.md (one line per case: PASS or FAIL
# with the comparison and the throughput) and each case's header, nvcc log and output.
# Exit status: 0 when every case passed, 1 when one failed, 2 when the build failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
b=${TMAPGEN_PROOF_BUILD:-$root/build-plan-proof}
out=${1:-${OUT:+$OUT/plan-proof}}
out=${out:-$b/out}
mkdir -p "$out"
jobs=${JOBS:-$(nproc)}
nvcc=${NVCC:-nvcc}
torch_python=${TORCH_PYTHON-/opt/torch/.venv/bin/python3}
fail=0
lines=()
note() { lines+=("$1"); echo "$1"; }

# name | plan command and flags | --bench iterations (0: none) | extra nvcc flags | expected (pass, hang, mismatch)
cases=(
  "gemm_bf16_1x1_ragged|gemm --m 1000 --n 1000 --k 1000|0||pass"
  "gemm_bf16_2x1_mcast_b|gemm --m 1900 --n 1000 --k 1000 --cluster 2x1 --multicast b|0||pass"
  "gemm_bf16_1x2_mcast_a|gemm --m 1000 --n 1896 --k 1000 --cluster 1x2 --multicast a|0||pass"
  "gemm_bf16_2x2_mcast_ab|gemm --m 1000 --n 1000 --k 1000 --cluster 2x2 --multicast ab|0||pass"
  "gemm_bf16_2x2_leader|gemm --m 1000 --n 1000 --k 1000 --cluster 2x2 --multicast ab --multicast-issue leader|0||pass"
  "gemm_bf16_2x1_no_mcast|gemm --m 1000 --n 1000 --k 1000 --cluster 2x1 --multicast none|0||pass"
  "gemm_bf16_bk128|gemm --m 1000 --n 1000 --k 1000 --tile 128x128x128|0||pass"
  "gemm_bf16_bn256|gemm --m 1000 --n 1000 --k 1000 --tile 128x256x64 --cluster 2x1 --multicast b|0||pass"
  "gemm_bf16_mn_major|gemm --m 1000 --n 1000 --k 1000 --a-major mn --b-major mn|0||pass"
  "gemm_f16_2x1|gemm --m 1000 --n 1000 --k 1000 --dtype f16 --d-type f16 --cluster 2x1 --multicast b|0||pass"
  "gemm_e4m3_1x1|gemm --m 1000 --n 1008 --k 1040 --dtype e4m3 --tile 128x128x128|0||pass"
  "gemm_e4m3_2x2|gemm --m 1000 --n 1008 --k 1040 --dtype e4m3 --tile 128x256x128 --cluster 2x2 --multicast ab|0||pass"
  "gemm_bf16_4096_bench|gemm --m 4096 --n 4096 --k 4096 --cluster 2x1 --multicast b|20||pass"
  "gemm_e4m3_4096_bench|gemm --m 4096 --n 4096 --k 4096 --dtype e4m3 --tile 128x256x128 --cluster 2x1 --multicast b|20||pass"
  "conv_bf16_stride2|conv --n 8 --c 64 --k 128 --h 28 --w 28 --r 3 --s 3 --pad 1 --stride 2|0|-DPROOF_CONV=1|pass"
  "conv_bf16_ragged_dil2|conv --n 4 --c 96 --k 64 --h 17 --w 19 --r 3 --s 3 --pad 1 --dilation 2|0|-DPROOF_CONV=1|pass"
  "conv_bf16_mcast_2x2|conv --n 4 --c 64 --k 256 --h 20 --w 20 --r 3 --s 3 --pad 1 --cluster 2x2 --multicast b|0|-DPROOF_CONV=1|pass"
  "conv_bf16_bench|conv --n 32 --c 128 --k 128 --h 56 --w 56 --r 3 --s 3 --pad 1|20|-DPROOF_CONV=1|pass"
  "negative_expect_tx|gemm --m 512 --n 512 --k 512|0|-DPROOF_EXPECT_TX_DELTA=16u|hang"
  "negative_desc_a|gemm --m 512 --n 512 --k 512|0|-DPROOF_DESC_A_START_DELTA=2u|mismatch"
)
# The PyTorch shapes timed beside the benchmarked cases (same problems).
torch_shapes=(gemm:4096:4096:4096:bf16 gemm:4096:4096:4096:e4m3 conv:32:128:128:56:56:3:3:1:1:1:bf16)

selected() { [ -z "${CASES:-}" ] && return 0; case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }

tm=${TMAPGEN:-}
if [ -z "$tm" ]; then
  echo "== build ($b)"
  prefix_args=()
  if ls "$root"/.debs/*.deb >/dev/null 2>&1; then
    prefix_args=(-DCMAKE_PREFIX_PATH="$(bash "$root/scripts/gpu-deps.sh" unpack "$b/deps")")
    . "$b/deps/env.sh"
  fi
  if ! { cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_WITH_PROTOBUF=OFF -DTMAPGEN_TESTS=OFF \
           -DTMAPGEN_MICROBENCH=OFF "${prefix_args[@]}" > "$out/build.log" 2>&1 &&
         cmake --build "$b" -j "$jobs" --target tmapgen >> "$out/build.log" 2>&1; }; then
    tail -30 "$out/build.log"
    exit 2
  fi
  tm=$b/tmapgen
fi
"$tm" --version > "$out/tmapgen-version.txt" 2>&1
(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null || true) > "$out/gpu.txt"
echo "GPU: $(cat "$out/gpu.txt")"
"$nvcc" --version | tail -1 > "$out/nvcc-version.txt"

# Headers, then every compile in parallel (one binary per header).
names=()
for c in "${cases[@]}"; do
  IFS='|' read -r name cmd bench nvflags expect <<< "$c"
  selected "$name" || continue
  # shellcheck disable=SC2086
  if ! "$tm" plan $cmd --format cpp > "$out/$name.h" 2> "$out/$name.plan.txt"; then
    note "FAIL $name: tmapgen plan $cmd --format cpp exited $? ($(head -c 300 "$out/$name.plan.txt" | tr '\n' ' '))"
    fail=1
    continue
  fi
  # shellcheck disable=SC2086
  "$tm" plan $cmd > "$out/$name.plan.txt" 2>&1
  names+=("$name")
  printf '%s\n' "$name|$nvflags" >> "$out/compile.list"
done
compile() {
  local name=${1%%|*} nvflags=${1#*|}
  # shellcheck disable=SC2086
  "$nvcc" -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -Xptxas -v -I "$root/tests/plan/gpu" \
    -DPROOF_PLAN_HEADER="\"$out/$name.h\"" $nvflags "$root/tests/plan/gpu/plan_proof.cu" -lcuda -o "$out/$name.bin" \
    > "$out/$name.nvcc.log" 2>&1
}
export -f compile
export nvcc root out
t0=$SECONDS
[ -f "$out/compile.list" ] && xargs -d '\n' -P "$jobs" -I{} bash -c 'compile "$1"' _ {} < "$out/compile.list"
rm -f "$out/compile.list"
echo "== compiled ${#names[@]} case(s) in $((SECONDS - t0)) s"

for c in "${cases[@]}"; do
  IFS='|' read -r name cmd bench nvflags expect <<< "$c"
  selected "$name" || continue
  [ -f "$out/$name.h" ] || continue
  if [ ! -x "$out/$name.bin" ]; then
    note "FAIL $name: nvcc failed ($(grep -m1 -E 'error' "$out/$name.nvcc.log" | cut -c1-200))"
    fail=1
    continue
  fi
  regs=$(grep -A3 "entry function '_Z15PlanProof" "$out/$name.nvcc.log" | grep -oE 'Used [0-9]+ registers' | head -1)
  if [ "${COMPILE_ONLY:-0}" = 1 ]; then
    note "COMPILED $name ($regs)"
    continue
  fi
  args=()
  [ "$bench" != 0 ] && args=(--bench "$bench")
  timeout "${TIMEOUT:-60}" "$out/$name.bin" "${args[@]}" > "$out/$name.txt" 2>&1
  rc=$?
  cmpl=$(grep -m1 '^compare:' "$out/$name.txt" | sed 's/^compare: //' | cut -c1-220)
  benchl=$(grep -m1 '^bench:' "$out/$name.txt" | sed 's/^bench: //')
  hang=$(grep -m1 'HANG' "$out/$name.txt" | cut -c1-200)
  if [ "$expect" = hang ]; then
    if [ $rc -eq 1 ] && [ -n "$hang" ]; then note "PASS $name: the hang was reported: $hang"
    else note "FAIL $name: expected a reported hang, exit $rc: $(tail -2 "$out/$name.txt" | tr '\n' ' ')"; fail=1; fi
  elif [ "$expect" = mismatch ]; then
    if [ $rc -eq 1 ] && [ -z "$hang" ] && grep -q '^  mismatch' "$out/$name.txt"; then note "PASS $name: the comparison failed: $cmpl"
    else note "FAIL $name: expected mismatches, exit $rc: ${hang:-$cmpl}"; fail=1; fi
  elif [ $rc -eq 0 ]; then
    note "PASS $name: $cmpl${benchl:+; bench $benchl} ($regs)"
  else
    note "FAIL $name: exit $rc: ${hang:-$cmpl} $(grep -m3 -E 'FAIL|mismatch' "$out/$name.txt" | tr '\n' ' ' | cut -c1-400)"
    fail=1
  fi
done

if [ "${COMPILE_ONLY:-0}" != 1 ] && [ -n "$torch_python" ] && [ -x "$torch_python" ]; then
  echo "== PyTorch on the same shapes"
  timeout 300 "$torch_python" "$root/tests/plan/gpu/torch_bench.py" "${torch_shapes[@]}" > "$out/torch.txt" 2>&1
  echo "torch exit $?" >> "$out/torch.txt"
  cat "$out/torch.txt"
elif [ "${COMPILE_ONLY:-0}" != 1 ]; then
  echo "no PyTorch ($torch_python): library timings skipped" > "$out/torch.txt"
fi

{
  echo "# plan proof ($(date -u '+%Y-%m-%d %H:%M UTC'), $(cat "$out/gpu.txt"), $(cat "$out/nvcc-version.txt"))"
  echo
  for l in "${lines[@]}"; do echo "- $l"; done
  if [ -f "$out/torch.txt" ]; then
    echo
    echo "PyTorch on the benchmarked shapes:"
    echo
    sed 's/^/    /' "$out/torch.txt"
  fi
} > "$out/summary.md"
npass=0
for l in "${lines[@]}"; do case $l in PASS*|COMPILED*) npass=$((npass + 1)) ;; esac; done
echo "plan proof: $npass of ${#lines[@]} case(s) passed$([ "${COMPILE_ONLY:-0}" = 1 ] && echo ' (compiled only)')"
echo "== summary: $out/summary.md"
exit $fail
