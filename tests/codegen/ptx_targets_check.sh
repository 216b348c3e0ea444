#!/usr/bin/env bash
# ptx_targets_check.sh: the targets `tmapgen codegen --lang ptx` says a tensormap.replace sequence assembles
# for are exactly the targets ptxas accepts it on (issue 15). For every spec of testdata/ptx_targets.jsonl
# and every target the map is valid for, the sequence is wrapped in a PTX kernel and assembled with ptxas
# for that target: a listed target must assemble, an unlisted one must be rejected. A target this ptxas
# does not know (sm_101a is sm_110a since CUDA 13) is reported and not counted.
#
#   tests/codegen/ptx_targets_check.sh TMAPGEN_BINARY SOURCE_DIR
#
# ptxas: next to $NVCC, else on PATH, else /usr/local/cuda/bin. Exit status: 0 OK, 1 a mismatch, 77 skipped
# (no ptxas).
set -u
tmapgen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
ptxas=""
if [ -n "${NVCC:-}" ] && [ -x "$(dirname "$NVCC")/ptxas" ]; then ptxas="$(dirname "$NVCC")/ptxas"; fi
if [ -z "$ptxas" ]; then ptxas="$(command -v ptxas 2>/dev/null || true)"; fi
if [ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ]; then ptxas=/usr/local/cuda/bin/ptxas; fi
if [ -z "$ptxas" ]; then echo "SKIP: ptxas not found (set NVCC=/path/to/nvcc); nothing was assembled"; exit 77; fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
all_targets="sm_90 sm_90a sm_100 sm_100a sm_100f sm_101a sm_103 sm_103a sm_103f sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f sm_121a"
status=0 checked=0
n=0
while IFS= read -r spec; do
  [ -z "$spec" ] && continue
  n=$((n + 1))
  printf '%s\n' "$spec" > "$tmp/spec.json"
  name="$(printf '%s' "$spec" | sed -n 's/.*"name": *"\([^"]*\)".*/\1/p')"
  # The targets the map is valid for (the spec's target, or every valid one), from the validator's report.
  valid="$("$tmapgen" validate --format json --no-gpu "$tmp/spec.json" | sed -n 's/.*"valid_targets":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' ')"
  if ! "$tmapgen" codegen "$tmp/spec.json" --lang ptx -o "$tmp/seq.ptx" 2> "$tmp/err"; then
    echo "FAIL: $name: codegen --lang ptx failed: $(head -1 "$tmp/err")"; status=1; continue
  fi
  listed="$(sed -n 's/.*; assembles for: //p' "$tmp/seq.ptx")"
  grep '^tensormap' "$tmp/seq.ptx" | sed 's/%tmap/%r1/; s/%gaddr/%rd1/; s/ *\/\/.*//' > "$tmp/lines"
  for t in $all_targets; do
    case " $valid " in *" $t "*) ;; *) continue ;; esac
    {
      echo ".version 9.0"; echo ".target $t"; echo ".address_size 64"
      echo ".visible .entry k(.param .u64 g) {"
      echo "  .reg .b64 %rd<2>;"; echo "  .reg .b32 %r<2>;"; echo "  .shared .align 128 .b8 map[128];"
      echo "  ld.param.u64 %rd1, [g];"; echo "  mov.u32 %r1, map;"
      sed 's/^/  /' "$tmp/lines"
      echo "  ret;"; echo "}"
    } > "$tmp/k.ptx"
    if "$ptxas" -arch="$t" "$tmp/k.ptx" -o "$tmp/k.cubin" 2> "$tmp/ptxas.err"; then ok=1; else ok=0; fi
    if [ $ok -eq 0 ] && grep -q "is not defined for option" "$tmp/ptxas.err"; then
      echo "NOTE: $name: $t is not a target of this ptxas ($("$ptxas" --version | tail -1)); not counted"; continue
    fi
    case " $listed " in *" $t "*) want=1 ;; *) want=0 ;; esac
    checked=$((checked + 1))
    if [ $ok -ne $want ]; then
      status=1
      if [ $want -eq 1 ]; then echo "FAIL: $name: listed for $t, but ptxas rejects it: $(head -1 "$tmp/ptxas.err")"
      else echo "FAIL: $name: not listed for $t, but ptxas accepts it"; fi
    fi
  done
done < "$src/tests/codegen/testdata/ptx_targets.jsonl"
# A target on which the sequence cannot assemble is an error of codegen, not a silent list.
printf '%s\n' '{"name": "plain", "target": "sm_100", "tensor_data_type": "float16", "global_dim": [256, 512], "global_strides": [512], "box_dim": [64, 128], "swizzle": "128B"}' > "$tmp/plain.json"
if "$tmapgen" codegen "$tmp/plain.json" --lang ptx -o "$tmp/plain.ptx" 2> "$tmp/plain.err" || ! grep -q "does not assemble for sm_100" "$tmp/plain.err"; then
  echo "FAIL: --lang ptx for sm_100 should be refused with the reason; got: $(cat "$tmp/plain.err")"; status=1
fi
[ $status -eq 0 ] && echo "OK: $n specs, $checked (spec, target) pairs: the listed targets are the ones $ptxas accepts"
exit $status
