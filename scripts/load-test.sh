#!/usr/bin/env bash
# Bounded load test of tmapd on loopback (docs/service.md, docs/perf.md): starts a tmapd from BUILD_DIR,
# then measures unary Validate (32 calls in flight) and the ValidateBatch stream. Every run is capped
# both in requests and in seconds. The server logs one line per request, as in production (to a file).
#
#   scripts/load-test.sh [BUILD_DIR]      (default: build)
#   env: REQUESTS (unary, 200000), SPECS (batch, 5000000), SECONDS_CAP (10 per run), CONCURRENCY (32)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
TMAPD=$BUILD/server/tmapd
LOAD=$BUILD/server/tmapd_load
for b in "$TMAPD" "$LOAD"; do
  [ -x "$b" ] || { echo "load-test: $b not built (needs gRPC: scripts/install-deps.sh, then scripts/build.sh)" >&2; exit 2; }
done
REQUESTS=${REQUESTS:-200000}
SPECS=${SPECS:-5000000}
SECONDS_CAP=${SECONDS_CAP:-10}
CONCURRENCY=${CONCURRENCY:-32}
tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

python3 scripts/gen-specs.py 10000 "$tmp/specs.jsonl" --seed 1 >/dev/null 2>&1

"$TMAPD" --listen 127.0.0.1:0 --no-gpu 2>"$tmp/tmapd.log" &
pid=$!
for _ in $(seq 100); do grep -q "listening on" "$tmp/tmapd.log" && break; sleep 0.1; done
addr=$(grep -o 'listening on [^ ]*' "$tmp/tmapd.log" | head -1 | cut -d' ' -f3)
[ -n "$addr" ] || { echo "load-test: tmapd did not start" >&2; cat "$tmp/tmapd.log" >&2; exit 1; }

echo "machine: $(nproc) cores, $(uname -m); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server: $addr (logging one line per request to a file)"
# Warm-up (not measured).
"$LOAD" --target "$addr" --mode unary --concurrency "$CONCURRENCY" --requests 20000 --seconds 3 --specs "$tmp/specs.jsonl" >/dev/null
"$LOAD" --target "$addr" --mode unary --concurrency "$CONCURRENCY" --requests "$REQUESTS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
"$LOAD" --target "$addr" --mode unary --concurrency 1 --requests $((REQUESTS / 10)) --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
"$LOAD" --target "$addr" --mode batch --concurrency 1 --batch-size 1000 --requests "$SPECS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
"$LOAD" --target "$addr" --mode batch --concurrency 2 --batch-size 1000 --requests "$SPECS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
echo "server log: $(wc -l < "$tmp/tmapd.log") lines"
