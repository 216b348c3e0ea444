#!/usr/bin/env bash
# driver-agreement.sh: builds tmapgen_driver_agreement and compares the validator with the real CUDA driver
# on this machine's GPU (docs/hardware.md; docs/lab/hardware-history.md records the runs on an H200).
#
#   bash scripts/lab/driver-agreement.sh
#
# Needs only a compiler, CMake and the NVIDIA driver (libcuda.so.1); no Protobuf, GoogleTest or CUDA toolkit.
# Writes, under $OUT when it is set (else build-agree/agreement/):
#   env.txt           GPU, driver, toolchain and the exact commands
#   build.log         the CMake configure and build output
#   boundaries.txt    hand-made probes and bisection searches (--boundaries)
#   boundaries.json
#   random.txt        random specs biased to the rules' boundaries (--random N --seed S)
#   random.json
# Environment: AGREEMENT_N (default 200000), AGREEMENT_SEED (default 1), BUILD_DIR (default build-agree).
# Exit status: 0 when neither run found a BAD case (validator valid, driver rejects), 1 when one did,
# 2 when the build or a run failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-agree}
OUTDIR=${OUT:-$BUILD/agreement}
N=${AGREEMENT_N:-200000}
SEED=${AGREEMENT_SEED:-1}
mkdir -p "$OUTDIR"

TOOL="$BUILD/tools/tmapgen_driver_agreement"
CONFIGURE=(cmake -S "$ROOT" -B "$BUILD" -DTMAPGEN_WITH_PROTOBUF=OFF -DTMAPGEN_TESTS=OFF -DTMAPGEN_MICROBENCH=OFF)
BUILDCMD=(cmake --build "$BUILD" --target tmapgen_driver_agreement -j16)
RUN_B=("$TOOL" --boundaries --json "$OUTDIR/boundaries.json")
RUN_R=("$TOOL" --random "$N" --seed "$SEED" --json "$OUTDIR/random.json")

{
  echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
  echo "host: $(uname -srm)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
    nvidia-smi | sed -n '3p'
  else
    echo "nvidia-smi: not found"
  fi
  if command -v nvcc >/dev/null 2>&1; then nvcc --version | tail -n 2; else echo "nvcc: not found"; fi
  cmake --version | head -n 1
  "${CXX:-c++}" --version | head -n 1
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown) (working tree, uncommitted changes included)"
  echo "commands:"
  echo "  ${CONFIGURE[*]}"
  echo "  ${BUILDCMD[*]}"
  echo "  ${RUN_B[*]}"
  echo "  ${RUN_R[*]}"
} > "$OUTDIR/env.txt" 2>&1
cat "$OUTDIR/env.txt"

if ! { "${CONFIGURE[@]}" && "${BUILDCMD[@]}"; } > "$OUTDIR/build.log" 2>&1; then
  echo "BUILD FAILED (last lines of $OUTDIR/build.log):"
  tail -n 60 "$OUTDIR/build.log"
  exit 2
fi
echo "built $TOOL"

"${RUN_B[@]}" > "$OUTDIR/boundaries.txt" 2>&1
rc_b=$?
"${RUN_R[@]}" > "$OUTDIR/random.txt" 2>&1
rc_r=$?
echo "exit status: boundaries $rc_b, random $rc_r"

# A short summary on stdout (most important last); the full results are in the files above.
echo
echo "===== boundary probes that are not plain agreement (first 40) ====="
grep -E ' (BAD|MASKED)$| contradicts:|UNEXPLAINED' "$OUTDIR/boundaries.txt" | cut -c1-200 | head -n 40
echo
echo "===== boundary searches ====="
grep -A 3 '^  search ' "$OUTDIR/boundaries.txt" | grep -v '^--$' | cut -c1-200
tail -n 1 "$OUTDIR/boundaries.txt"
echo
echo "===== random sweep summary ====="
sed -n '/^== random sweep/,/^driver error codes/p' "$OUTDIR/random.txt"
grep -E '^\[(BAD|MASKED|CONTRADICTED|UNEXPLAINED)' "$OUTDIR/random.txt" | cut -c1-200 | head -n 40

if [[ $rc_b -ge 2 || $rc_r -ge 2 ]]; then exit 2; fi
if [[ $rc_b -ne 0 || $rc_r -ne 0 ]]; then exit 1; fi
exit 0
