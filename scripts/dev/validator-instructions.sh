#!/usr/bin/env bash
# validator-instructions.sh: instructions per call of Validate and of Validate + MakeDiagnostics (every finding
# explained) for each mode and kind of spec of tools/validator_vs_driver.cc, counted by callgrind. Instruction
# counts are reproducible on a shared, noisy machine where timings are not (docs/lab/perf-history.md, section 12); they are
# no substitute for the timed comparison with the driver on a GPU host.
#
#   scripts/dev/validator-instructions.sh [BUILD_DIR]     (default build/; needs valgrind)
#   COLUMNS="Validate +explained" scripts/dev/validator-instructions.sh OTHER_BUILD   (a tool without the fresh column)
set -euo pipefail
b=${1:-build}
tool=$b/tools/tmapgen_validator_vs_driver
[ -x "$tool" ] || { echo "no $tool (cmake --build $b --target tmapgen_validator_vs_driver)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 2; }
calls=2000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r -a cols <<< "${COLUMNS:-Validate +explained +explained-fresh}"
printf '| mode | specs |'
for c in "${cols[@]}"; do printf ' %s Ir/call |' "$c"; done
printf '\n|---|---|'
for c in "${cols[@]}"; do printf -- '---:|'; done
printf '\n'
for mode in tiled im2col im2col::w im2col::w::128 gather4 scatter4; do
  for kind in valid 1error several; do
    row="| $mode | $kind |"
    for col in "${cols[@]}"; do
      if [ "$kind" = valid ] && [ "$col" != Validate ]; then row="$row - |"; continue; fi
      valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*RunBatch*' \
        --callgrind-out-file="$tmp/cg.out" "$tool" --no-driver --rounds 1 --calls $calls \
        --mode "$mode" --kind "$kind" --column "$col" > /dev/null 2>&1
      ir=$(callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      row="$row $((ir / calls)) |"
    done
    echo "$row"
  done
done
