#!/usr/bin/env bash
# gpu-check.sh: builds tmapgen with its GPU kernels and runs every on-GPU check in one go on a GPU host
# (docs/gpu-checks.md): the fault/timeout self-test, `tmapgen check` over the check specs, the
# validator-vs-driver sweep, the hardware coverage matrix, the bandwidth table, the wgmma proof and the
# codegen example (the kernel built with examples/codegen/tile_a.gen.h), the plan proof (GEMMs and convolutions
# from generated plan headers, scripts/lab/plan-proof-h200.sh), the multicast checks (single maps and GEMM plans
# over 2- to 8-CTA clusters, scripts/lab/mcast-checks.sh) and the multicast bench; ends with a summary.
#
#   scripts/gpu-check.sh [OUT_DIR]        (logs go to OUT_DIR, default build-gpucheck/out)
#   scripts/gpu-check.sh --list-steps     (the steps a run would take, from STEPS or the default; no build)
#   env: RANDOM_N (200000), MATRIX_N (50000), MATRIX_SECONDS (120), BENCH_GIB (4), JOBS (nproc),
#        STEPS (default "selftest check random matrix bench wgmma codegen planproof mcast mcastbench": which steps
#        run, in this order; empty: build only)
#
# Needs nvcc (CUDA 12.8+ for sm_100a), CMake, a C++17 compiler, a GPU and its driver, and Abseil and
# simdjson: where the host has no package manager, carry the .deb files (scripts/gpu-deps.sh fetch, here)
# in .debs/; they are unpacked with dpkg -x into the build folder. No gRPC, Protobuf or GoogleTest.
# Exit status: 0 when every step passed.
set -u
# --list-steps: print the steps a run would take (after the environment is read) and stop; nothing is built.
list_only=0
if [ "${1:-}" = "--list-steps" ]; then list_only=1; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
b=${TMAPGEN_GPU_BUILD:-$root/build-gpucheck}
out=${1:-$b/out}
jobs=${JOBS:-$(nproc)}
random_n=${RANDOM_N:-200000}
matrix_n=${MATRIX_N:-50000}
bench_gib=${BENCH_GIB:-4}
matrix_s=${MATRIX_SECONDS:-120}
steps=${STEPS-selftest check random matrix bench wgmma codegen planproof mcast mcastbench}
if [ $list_only = 1 ]; then
  echo "$steps"
  exit 0
fi
mkdir -p "$out"
summary=()
fail=0
step() {  # step NAME LOG RESULT-LINE-REGEX CMD...
  local name=$1 log=$2 pat=$3
  shift 3
  local t0=$SECONDS
  "$@" > "$out/$log" 2>&1
  local rc=$?
  local line
  line=$(grep -E "$pat" "$out/$log" | tail -1 | cut -c1-150)
  [ $rc -ne 0 ] && fail=1
  summary+=("$(printf '| %-22s | %3d | %4ds | %s |' "$name" "$rc" $((SECONDS - t0)) "$line")")
  echo "== $name: rc $rc (${line})"
}

echo "== build ($b)"
t0=$SECONDS
prefix_args=()
if ls "$root"/.debs/*.deb >/dev/null 2>&1; then
  prefix_args=(-DCMAKE_PREFIX_PATH="$(bash "$root/scripts/gpu-deps.sh" unpack "$b/deps")")
  . "$b/deps/env.sh"
fi
cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_WITH_PROTOBUF=OFF -DTMAPGEN_TESTS=OFF \
  -DTMAPGEN_MICROBENCH=OFF "${prefix_args[@]}" > "$out/build.log" 2>&1 &&
  cmake --build "$b" -j "$jobs" --target tmapgen >> "$out/build.log" 2>&1
rc=$?
summary+=("$(printf '| %-22s | %3d | %4ds | %s |' build "$rc" $((SECONDS - t0)) "$(grep -E 'kernels|nvcc' "$out/build.log" | head -1 | cut -c1-120)")")
if [ $rc -ne 0 ]; then
  tail -30 "$out/build.log"
  exit 2
fi
t=$b/tmapgen
(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null || true) > "$out/gpu.txt"
echo "GPU: $(cat "$out/gpu.txt")"

for s in $steps; do
  case $s in
    selftest) step "check --self-test" selftest.txt '^self-test' "$t" check --self-test ;;
    check) step "check (specs)" check.txt '^summary' "$t" check "$root/tests/gpu/specs/check_specs.jsonl" ;;
    random) step "sweep --random" sweep_random.txt 'BAD\)' "$t" sweep --random "$random_n" --seed 1 ;;
    matrix) step "sweep --matrix" sweep_matrix.txt 'configurations/s' "$t" sweep --matrix --count "$matrix_n" --seed 1 \
              --max-seconds "$matrix_s" ;;
    bench) step "bench" bench.txt 'TMA copy / plain copy' "$t" bench "$root/tests/gpu/specs/bench_specs.jsonl" \
             --gib "$bench_gib" ;;
    wgmma) step "wgmma proof" wgmma.txt '^wgmma:' "$t" check --wgmma ;;
    codegen) step "codegen example" codegen_example.txt '^codegen example:' "$t" check --codegen-example ;;
    planproof) step "plan proof" plan_proof.txt '^plan proof:' env TMAPGEN="$t" JOBS="$jobs" \
                 bash "$root/scripts/lab/plan-proof-h200.sh" "$out/plan-proof" ;;
    mcast) step "multicast checks" mcast.txt '^mcast checks:' bash "$root/scripts/lab/mcast-checks.sh" "$t" "$out" ;;
    mcastbench) step "multicast bench" mcast_bench.txt '^multicast / per CTA' bash -c \
                  "'$t' bench '$root/tests/gpu/specs/mcast_bench.jsonl' --multicast 2 --gib 1 &&
                   '$t' bench '$root/tests/gpu/specs/mcast_bench.jsonl' --multicast 4 --gib 1" ;;
    *) echo "unknown step $s"; fail=1 ;;
  esac
done
{
  echo
  echo "## gpu-check summary ($(cat "$out/gpu.txt"))"
  echo
  echo "| step                   |  rc | time | result |"
  echo "|------------------------|-----|------|--------|"
  printf '%s\n' "${summary[@]}"
  echo
  echo "bandwidth (TMA load+store vs cuMemcpyDtoD):"
  grep -E '^(== |\| TMA|\| SM copy|\| cuMemcpy|TMA copy|\| map)' "$out/bench.txt" 2>/dev/null || true
  echo
  grep -E '^not proven|^not covered' "$out/check.txt" "$out/sweep_matrix.txt" 2>/dev/null | sed 's/^[^:]*://' | sort -u
} | tee "$out/summary.md"
exit $fail
