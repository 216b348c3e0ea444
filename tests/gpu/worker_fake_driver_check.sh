#!/usr/bin/env bash
# worker_fake_driver_check.sh TMAPGEN FAKE_LIBCUDA: `tmapgen check --codegen-example`, `--wgmma` and `--multicast`
# end to end through their child processes (src/gpu/runtime/worker.h) on a machine without a GPU, against the test
# double of the driver (tests/gpu/fake/fake_gpu_driver.cc): it runs no kernel (so a status word stays 0), faults
# (CUDA_ERROR_ILLEGAL_ADDRESS, 700 in cuda.h) or is killed at the launches named. Expected texts are the messages
# of src/gpu/check/*.cc: a fault names the driver's error and only its item, a crash names its item, a new child
# goes on after it, and the report counts the children. 77 (skipped) when this tmapgen holds no kernels.
set -u
t=$1
lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
run() {  # run NAME ACTIONS CC ARGS...: output in $tmp/NAME, exit status in $tmp/NAME.rc
  local name=$1 actions=$2 cc=$3
  shift 3
  TMAPGEN_LIBCUDA=$lib TMAPGEN_FAKE_GPU_ACTIONS=$actions TMAPGEN_FAKE_GPU_CC=$cc \
    TMAPGEN_FAKE_GPU_LAUNCHES=$tmp/$name.launches "$t" check "$@" > "$tmp/$name" 2>&1
  echo $? > "$tmp/$name.rc"
  if grep -q "built without nvcc" "$tmp/$name"; then echo "skipped: this tmapgen holds no GPU kernels"; exit 77; fi
}
expect() {  # expect NAME TEXT: a line of NAME's output contains TEXT
  if ! grep -qF -- "$2" "$tmp/$1"; then
    echo "FAIL $1: no line with: $2"
    sed 's/^/    /' "$tmp/$1" | head -30
    fail=1
  fi
}
expect_rc() {
  if [ "$(cat "$tmp/$1.rc")" != "$2" ]; then echo "FAIL $1: exit status $(cat "$tmp/$1.rc"), expected $2"; fail=1; fi
}
# The codegen example: 5 coordinates, one launch each; launch 2 faults, launch 4 kills its child.
run codegen 2:fault,4:crash 90 --codegen-example
expect codegen "interior                       (64, 128)    ERROR   the kernel did not report a status (0)"
expect codegen "origin                         (0, 0)       FAULT   kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS"
expect codegen "edge (last full box)           (192, 384)   ERROR   the kernel did not report a status (0)"
expect codegen "hanging past the end           (224, 448)   FAULT   the check process died"
expect codegen "negative (hanging before 0)    (-32, -64)   ERROR   the kernel did not report a status (0)"
expect codegen "codegen example: 0 of 5 coordinates PASS; 3 check process(es)"
expect_rc codegen 1
# The wgmma proof: the first configuration's child is killed; the 39 others run in a second child.
run wgmma 1:crash 90 --wgmma
expect wgmma "bf16 A K-major B K-major swizzle none        FAULT the check process died (hang or crash)"
expect wgmma "bf16 A K-major B MN-major swizzle none       FAIL "
expect wgmma "wgmma: 0 of 40 configurations equal the float64 product; 2 check process(es)"
expect_rc wgmma 1
run wgmma-sm100 "" 100 --wgmma
expect wgmma-sm100 "tmapgen check --wgmma: not run: wgmma needs sm_90a; this GPU is sm_100"
expect_rc wgmma-sm100 2
# Multicast over 2 CTAs: the first launch faults (every window of that launch FAULT), the rest run on.
run mcast 1:fault 90 --multicast 2 "$(cd "$(dirname "$0")" && pwd)/specs/mcast_specs.jsonl"
expect mcast "      CTA 0 FAULT   kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS"
expect mcast "      CTA 1 FAULT   kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS"
expect mcast "      CTA 0 ERROR   the kernel did not report a status (0)"
expect mcast "; 2 check process(es)"
expect_rc mcast 1
[ $fail = 0 ] && echo "the GPU checks' children under the fake driver: as expected"
exit $fail
