#!/usr/bin/env bash
# check-gpu-workers-fake.sh OLD_TMAPGEN [NEW_TMAPGEN]: the process handling of the on-GPU checks that run items
# in child processes (`check --wgmma`, `check --codegen-example`, `check --multicast`, single maps and GEMM plans)
# compared between two binaries on a machine without a GPU: both open the test double of the driver
# (tests/gpu/fake/fake_gpu_driver.cc, built here into $WORK) through TMAPGEN_LIBCUDA, which runs no kernel but
# faults, crashes or hangs at the launches a scenario names (launches counted across the children of one run).
# Standard output, standard error and the exit status must be the same for every scenario: no GPU, a GPU too old,
# every item answered, a fault, a crash, several crashes in a row, a hang (the watchdog: 60 s, 120 s for
# --multicast; the hangs run in parallel).
#
# Environment: WORK (default /tmp/tmapgen-gpu-workers-fake), HANGS (1: also the hang scenarios, default 1).
# Exit status 0 when every scenario agrees.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
old=$1
new=${2:-$root/build/tmapgen}
work=${WORK:-/tmp/tmapgen-gpu-workers-fake}
hangs=${HANGS:-1}
mkdir -p "$work/lib"
${CXX:-c++} -std=c++17 -O1 -shared -fPIC -o "$work/lib/libcuda.so.1" "$root/tests/gpu/fake/fake_gpu_driver.cc" || exit 2
specs=$root/tests/gpu/specs/mcast_specs.jsonl
plan="--plan gemm --dtype bf16 --m 512 --n 512 --k 512 --tile 128x128x64 --stages 4 --cluster 2x2 --multicast ab"
# NAME|ENV|ARGS: ENV is "ACTIONS CC LIBCUDA" (- for the default).
scenarios=(
  "codegen-none|- - -|--codegen-example"
  "codegen-nodriver|- - /nonexistent/libcuda.so.1|--codegen-example"
  "codegen-sm80|- 80 -|--codegen-example"
  "codegen-fault1|1:fault - -|--codegen-example"
  "codegen-fault-crash|2:fault,4:crash - -|--codegen-example"
  "codegen-crash-all|1:crash,2:crash,3:crash,4:crash,5:crash - -|--codegen-example"
  "codegen-fault-last|5:fault - -|--codegen-example"
  "wgmma-none|- - -|--wgmma"
  "wgmma-nodriver|- - /nonexistent/libcuda.so.1|--wgmma"
  "wgmma-sm100|- 100 -|--wgmma"
  "wgmma-sm80|- 80 -|--wgmma"
  "wgmma-fault-crash|3:fault,7:crash,8:crash - -|--wgmma"
  "wgmma-crash-last|40:crash - -|--wgmma"
  "mcast-none|- - -|--multicast 2 $specs"
  "mcast-nodriver|- - /nonexistent/libcuda.so.1|--multicast 2 $specs"
  "mcast-fault-crash|1:fault,3:crash - -|--multicast 4 --mask 0xb $specs"
  "mcast-plan-crash|2:crash,3:fault - -|$plan"
)
if [ "$hangs" = 1 ]; then
  scenarios+=(
    "codegen-hang|3:hang - -|--codegen-example"
    "wgmma-hang|5:hang - -|--wgmma"
    "mcast-hang|2:hang - -|--multicast 2 $specs"
  )
fi
run_one() {  # run_one BIN TAG NAME ENV ARGS
  local bin=$1 tag=$2 name=$3 env=$4 args=$5
  read -r actions cc lib <<< "$env"
  [ "$actions" = - ] && actions=
  [ "$cc" = - ] && cc=
  [ "$lib" = - ] && lib=$work/lib/libcuda.so.1
  local d=$work/$tag
  mkdir -p "$d"
  rm -f "$d/$name.launches"
  # shellcheck disable=SC2086
  TMAPGEN_LIBCUDA=$lib TMAPGEN_FAKE_GPU_ACTIONS=$actions TMAPGEN_FAKE_GPU_CC=$cc \
    TMAPGEN_FAKE_GPU_LAUNCHES=$d/$name.launches "$bin" check $args > "$d/$name.out" 2> "$d/$name.err"
  echo $? > "$d/$name.rc"
}
pids=()
for s in "${scenarios[@]}"; do
  IFS='|' read -r name env args <<< "$s"
  if [[ $name == *hang* ]]; then
    run_one "$old" old "$name" "$env" "$args" & pids+=($!)
    run_one "$new" new "$name" "$env" "$args" & pids+=($!)
  else
    run_one "$old" old "$name" "$env" "$args"
    run_one "$new" new "$name" "$env" "$args"
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
fail=0
for s in "${scenarios[@]}"; do
  IFS='|' read -r name env args <<< "$s"
  same=1
  for f in out err rc; do cmp -s "$work/old/$name.$f" "$work/new/$name.$f" || same=0; done
  printf '%-22s rc %s  %s  %s\n' "$name" "$(cat "$work/new/$name.rc")" "$([ $same = 1 ] && echo same || echo DIFFERENT)" \
    "$(grep -E '^(codegen example|wgmma|multicast check|tmapgen check)' "$work/new/$name.out" | tail -1 | cut -c1-110)"
  [ $same = 1 ] || { fail=1; diff "$work/old/$name.out" "$work/new/$name.out" | head -20; }
done
echo "gpu workers under the fake driver: ${#scenarios[@]} scenarios, $([ $fail = 0 ] && echo all the same || echo SOME DIFFER)"
exit $fail
