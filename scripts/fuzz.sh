#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 60) from a seed corpus of
# the project's own examples. Crashes land in build-fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DTMAPGEN_FUZZ=ON -DTMAPGEN_TESTS=OFF -DTMAPGEN_BENCH=OFF \
  -DTMAPGEN_WITH_PROTOBUF=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target json_reader_fuzz spec_json_fuzz blob_fuzz trace_stream_fuzz
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
for t in spec_json_fuzz json_reader_fuzz blob_fuzz trace_stream_fuzz; do
  echo "== $t (${secs}s)"
  corpus=corpus; [ "$t" = blob_fuzz ] && corpus=corpus-blob
  (cd build-fuzz && ./fuzz/$t -max_total_time="$secs" -max_len=4096 -print_final_stats=1 $corpus 2>&1 | tail -12)
done
