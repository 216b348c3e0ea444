#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 60) from a seed corpus.
# Crashes land in build-fuzz*/crash-*.
#   build-fuzz      the JSON reader and spec parser (no Protobuf), seeds: the project's examples
#   build-fuzz-rpc  one target per tmapd RPC (needs Protobuf and gRPC), every library instrumented,
#                   seeds: requests written by the target's own seed generator (fuzz/tmapd_seeds.py)
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DTMAPGEN_FUZZ=ON -DTMAPGEN_TESTS=OFF -DTMAPGEN_MICROBENCH=OFF \
  -DTMAPGEN_WITH_PROTOBUF=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target json_fuzz spec_json_fuzz blob_fuzz trace_stream_fuzz fast_path_fuzz
mkdir -p build-fuzz/corpus
for f in examples/*.json examples/*.jsonl; do [ -f "$f" ] && cp "$f" build-fuzz/corpus/; done
# blob_fuzz seeds: maps the driver wrote (hex lines of the committed corpus sample) and binary maps.
mkdir -p build-fuzz/corpus-blob
if [ -f tests/blob/data/shared_corpus_sample.jsonl.gz ]; then
  python3 - <<'PY'
import gzip, itertools, json
with gzip.open("tests/blob/data/shared_corpus_sample.jsonl.gz", "rt") as f:
    for i, line in enumerate(itertools.islice(f, 200)):
        b = json.loads(line)["bytes"]
        open(f"build-fuzz/corpus-blob/hex-{i:03d}", "w").write(b)
        if i < 20:
            open(f"build-fuzz/corpus-blob/bin-{i:03d}", "wb").write(bytes.fromhex(b))
PY
fi
for t in spec_json_fuzz json_fuzz blob_fuzz trace_stream_fuzz fast_path_fuzz; do
  echo "== $t (${secs}s)"
  corpus=corpus; [ "$t" = blob_fuzz ] && corpus=corpus-blob
  (cd build-fuzz && ./fuzz/$t -max_total_time="$secs" -max_len=4096 -print_final_stats=1 $corpus 2>&1 | tail -12)
done

# tmapd's request parsing, per RPC.
san="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -g -O1"
CC=clang CXX=clang++ cmake -S . -B build-fuzz-rpc -G Ninja -DTMAPGEN_FUZZ=ON -DTMAPGEN_TESTS=OFF -DTMAPGEN_MICROBENCH=OFF \
  -DTMAPGEN_WITH_KERNELS=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$san" >/dev/null
if ! grep -q tmapd_validate_fuzz build-fuzz-rpc/build.ninja 2>/dev/null; then
  echo "fuzz: gRPC not found: the tmapd targets are not built (scripts/install-deps.sh)"
  exit 0
fi
methods="validate build validate_batch describe matrix_descriptor instruction_descriptor codegen check decode plan_gemm plan_conv"
targets=$(for m in $methods; do echo -n "tmapd_${m}_fuzz "; done)
cmake --build build-fuzz-rpc -j "$(nproc)" --target $targets
# Debian's python3-protobuf is in the system Python.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
"$PY" fuzz/tmapd_seeds.py build-fuzz-rpc/seeds
for m in $methods; do
  echo "== tmapd_${m}_fuzz (${secs}s)"
  mkdir -p "build-fuzz-rpc/corpus-$m"
  (cd build-fuzz-rpc && ./fuzz/tmapd_${m}_fuzz -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "corpus-$m" "seeds/$m" 2>&1 | tail -14)
done
