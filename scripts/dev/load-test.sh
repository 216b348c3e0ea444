#!/usr/bin/env bash
# Bounded load test of tmapd on loopback (docs/service.md, docs/perf.md): starts a tmapd from BUILD_DIR,
# then measures unary Validate (32 calls in flight, and 1) and the ValidateBatch stream. Every run is
# capped both in requests and in seconds. The server logs one line per request, as in production (to a
# file). With OLD_BUILD_DIR, the unary run at 32 in flight and the ValidateBatch stream (1000 specs per
# message) alternate between the old server and the new one, ROUNDS times each, with the same load
# generator (BUILD_DIR's): the side-by-side figures of docs/perf.md. With AB_ARGS (and no OLD_BUILD_DIR),
# the same server binary runs without and with the extra flags AB_ARGS, alternating ROUNDS times, unary
# Validate at 32 in flight and at 1 (the per-call cost of a feature such as --metrics-listen), and the
# script ends there.
#
#   scripts/dev/load-test.sh [BUILD_DIR] [OLD_BUILD_DIR]     (default: build)
#   env: REQUESTS (unary, 200000), SPECS (batch, 5000000), SECONDS_CAP (10 per run), CONCURRENCY (32),
#        ROUNDS (3, with OLD_BUILD_DIR or AB_ARGS), TMAPD_ARGS (extra flags of the new server),
#        AB_ARGS (flags compared against their absence)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
OLD=${2:-}
TMAPD=$BUILD/server/tmapd
LOAD=$BUILD/server/tmapd_load
for b in "$TMAPD" "$LOAD" ${OLD:+"$OLD/server/tmapd"}; do
  [ -x "$b" ] || { echo "load-test: $b not built (needs gRPC: scripts/install-deps.sh, then scripts/build.sh)" >&2; exit 2; }
done
REQUESTS=${REQUESTS:-200000}
SPECS=${SPECS:-5000000}
SECONDS_CAP=${SECONDS_CAP:-10}
CONCURRENCY=${CONCURRENCY:-32}
ROUNDS=${ROUNDS:-3}
read -r -a EXTRA <<< "${TMAPD_ARGS:-}"
tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

python3 scripts/dev/gen-specs.py 10000 "$tmp/specs.jsonl" --seed 1 >/dev/null 2>&1

# start BINARY ARGS...: a tmapd on a free port; sets pid and addr.
start() {
  "$@" --listen 127.0.0.1:0 --no-gpu 2>"$tmp/tmapd.log" &
  pid=$!
  for _ in $(seq 200); do grep -q "listening on" "$tmp/tmapd.log" && break; sleep 0.05; done
  addr=$(grep -o 'listening on [^ ]*' "$tmp/tmapd.log" | head -1 | cut -d' ' -f3)
  [ -n "$addr" ] || { echo "load-test: $1 did not start" >&2; cat "$tmp/tmapd.log" >&2; exit 1; }
  # Warm-up (not measured).
  "$LOAD" --target "$addr" --mode unary --concurrency "$CONCURRENCY" --requests 20000 --seconds 3 --specs "$tmp/specs.jsonl" >/dev/null
}
stop() {
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
}
unary32() {
  "$LOAD" --target "$addr" --mode unary --concurrency "$CONCURRENCY" --requests "$REQUESTS" --seconds "$SECONDS_CAP" \
    --specs "$tmp/specs.jsonl"
}
batch1() {
  "$LOAD" --target "$addr" --mode batch --concurrency 1 --batch-size 1000 --requests "$SPECS" --seconds "$SECONDS_CAP" \
    --specs "$tmp/specs.jsonl"
}

echo "machine: $(nproc) cores, $(uname -m); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server: logging one line per request to a file${TMAPD_ARGS:+; new server flags: $TMAPD_ARGS}"
if [ -n "$OLD" ]; then
  for r in $(seq "$ROUNDS"); do
    start "$OLD/server/tmapd"
    echo "old (round $r, load $(cut -d' ' -f1 /proc/loadavg)): $(unary32)"
    echo "old (round $r): batch: $(batch1)"
    stop
    start "$TMAPD" "${EXTRA[@]}"
    echo "new (round $r, load $(cut -d' ' -f1 /proc/loadavg)): $(unary32)"
    echo "new (round $r): batch: $(batch1)"
    stop
  done
fi
if [ -n "${AB_ARGS:-}" ] && [ -z "$OLD" ]; then
  read -r -a AB <<< "$AB_ARGS"
  unary1() {
    "$LOAD" --target "$addr" --mode unary --concurrency 1 --requests $((REQUESTS / 10)) --seconds "$SECONDS_CAP" \
      --specs "$tmp/specs.jsonl"
  }
  for r in $(seq "$ROUNDS"); do
    start "$TMAPD" "${EXTRA[@]}"
    echo "without (round $r, load $(cut -d' ' -f1 /proc/loadavg)): 32 in flight: $(unary32)"
    echo "without (round $r): 1 in flight: $(unary1)"
    stop
    start "$TMAPD" "${EXTRA[@]}" "${AB[@]}"
    echo "with $AB_ARGS (round $r, load $(cut -d' ' -f1 /proc/loadavg)): 32 in flight: $(unary32)"
    echo "with $AB_ARGS (round $r): 1 in flight: $(unary1)"
    stop
  done
  exit 0
fi
start "$TMAPD" "${EXTRA[@]}"
unary32
"$LOAD" --target "$addr" --mode unary --concurrency 1 --requests $((REQUESTS / 10)) --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
"$LOAD" --target "$addr" --mode batch --concurrency 1 --batch-size 1000 --requests "$SPECS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
"$LOAD" --target "$addr" --mode batch --concurrency 2 --batch-size 1000 --requests "$SPECS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl"
echo "server log: $(wc -l < "$tmp/tmapd.log") lines"
