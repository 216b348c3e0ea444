#!/usr/bin/env bash
# gpu_check_script_test.sh: scripts/gpu-check.sh, which runs only on GPU hosts, reads its environment and
# step list without a GPU (a dropped variable once stopped every run after the build): its default steps are
# the ones docs/gpu-checks.md and its own header name, and each has a branch in its case statement.
set -u
root=${1:?usage: gpu_check_script_test.sh SOURCE_DIR}
script=$root/scripts/gpu-check.sh
bash -n "$script" || { echo "FAIL: $script does not parse"; exit 1; }
steps=$(env -u STEPS bash "$script" --list-steps) || { echo "FAIL: --list-steps failed"; exit 1; }
documented=$(sed -n 's/.*STEPS (default "\([a-z ]*\)".*/\1/p' "$script" | head -1)
[ -n "$steps" ] || { echo "FAIL: no default step"; exit 1; }
[ "$steps" = "$documented" ] || { echo "FAIL: default steps '$steps', the header says '$documented'"; exit 1; }
for s in $steps; do
  grep -Eq "^ +$s\)" "$script" || { echo "FAIL: step $s has no branch"; exit 1; }
done
[ "$(STEPS="wgmma codegen" bash "$script" --list-steps)" = "wgmma codegen" ] || { echo "FAIL: STEPS is not read"; exit 1; }
[ -z "$(STEPS= bash "$script" --list-steps)" ] || { echo "FAIL: an empty STEPS must mean build only"; exit 1; }
echo "PASS: default steps: $steps"
