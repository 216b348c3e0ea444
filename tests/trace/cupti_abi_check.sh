#!/usr/bin/env bash
# cupti_abi_check.sh SOURCE_DIR: compiles cupti_abi_check.cc against the CUDA toolkit's CUPTI headers.
# Exit 77 (skipped) with the reason where they are not installed.
set -u
src=${1:?usage: cupti_abi_check.sh SOURCE_DIR}
cxx=${CXX:-c++}
inc=""
for d in ${CUDA_HOME:-} /usr/local/cuda; do
  for s in include targets/x86_64-linux/include extras/CUPTI/include; do
    [ -n "$d" ] && [ -f "$d/$s/cupti.h" ] && inc="$inc -I$d/$s"
    [ -n "$d" ] && [ -f "$d/$s/cuda.h" ] && inc="$inc -I$d/$s"
  done
done
if ! echo "$inc" | grep -q .; then
  echo "skipped: no CUPTI headers (cupti.h) under \$CUDA_HOME or /usr/local/cuda"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if "$cxx" -std=c++17 -I"$src" $inc "$src/tests/trace/cupti_abi_check.cc" -o "$out/check" 2> "$out/err"; then
  echo "CUPTI ABI declarations agree with $(echo $inc | tr ' ' '\n' | head -1 | cut -c3-)/cupti*.h"
  exit 0
fi
cat "$out/err"
exit 1
