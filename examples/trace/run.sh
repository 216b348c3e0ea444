#!/usr/bin/env bash
# examples/trace/run.sh [BUILD_DIR] [OUT_DIR]: the programs of docs/lab/hardware-history.md
# "tmapgen trace on real programs", each under `tmapgen trace`, on a GPU host (CUDA toolkit for reject.cc;
# PyTorch, Triton, JAX for the Python ones: a missing one is reported and skipped). Records and reports land in OUT_DIR.
# SKIP="inductor cublas" leaves those programs out (the Inductor one autotunes for minutes).
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=${1:-$here/../../build}
out=${2:-$here/out}
mkdir -p "$out"
tm=$b/tmapgen
g++ -O2 -std=c++17 -I/usr/local/cuda/include "$here/reject.cc" -o "$out/reject" -lcuda -lpthread -ldl || echo "reject.cc: not built"
run() {
  local name=$1; shift
  case " ${SKIP:-} " in *" $name "*) echo "$name: skipped (SKIP)"; return ;; esac
  "$tm" trace --out "$out/$name.jsonl" --report "$out/$name.report.json" "$@" > "$out/$name.stdout" 2> "$out/$name.stderr"
  echo "$name: rc $?, $(grep -m1 'summary:' "$out/$name.stderr")"
}
[ -x "$out/reject" ] && run reject -- "$out/reject" basic
[ -x "$out/reject" ] && run reject_threads -- "$out/reject" threads 8 20000
python3 -c 'import triton' 2>/dev/null && run triton -- python3 "$here/triton_tma.py" 3
python3 -c 'import torch' 2>/dev/null && run cublas -- python3 "$here/cublas.py"
python3 -c 'import jax' 2>/dev/null && XLA_PYTHON_CLIENT_PREALLOCATE=false run jax -- python3 "$here/jax_prog.py"
python3 -c 'import torch' 2>/dev/null && TORCHINDUCTOR_CACHE_DIR=$out/inductor_cache run inductor -- python3 "$here/inductor_tma.py"
run codegen_example -- "$tm" check --codegen-example
cat "$out"/*.jsonl > "$out/all.jsonl"
"$tm" validate --quiet "$out/all.jsonl" > "$out/validate.txt" 2>&1; echo "validate: $(tail -1 "$out/validate.txt")"
