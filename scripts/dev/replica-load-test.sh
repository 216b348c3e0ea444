#!/usr/bin/env bash
# Throughput of tmapd with 1, 2 and 4 replicas on one host, as a ratio to one replica, in one run
# (docs/service.md "Scaling out", docs/perf.md). For each count R: R tmapd replicas on loopback, then one
# load generator (BUILD_DIR's tmapd_load) balancing round_robin over the list "ipv4:A,B,..." — the same
# gRPC balancing tmapgen --remote uses — with the same client settings for every R:
#   batch: STREAMS ValidateBatch streams of 1000-spec messages (specs/s), then
#   unary: CONCURRENCY Validate calls in flight (req/s).
# With PIN=K (default 2 where the host has at least 12 cores, else 0), replica i runs on cores
# [i*K, (i+1)*K) and the load generator on the cores after the last replica's (taskset), so that each
# replica stands for a K-core machine and the generator never competes with them; PIN=0 leaves placement
# to the kernel.
#
#   scripts/dev/replica-load-test.sh [BUILD_DIR]        (default: build)
#   env: REPLICAS ("1 2 4"), PIN, SECONDS_CAP (10 per run), SPECS (batch cap, 50000000), REQUESTS (unary cap,
#        5000000), STREAMS (16), CONCURRENCY (64), TMAPD_ARGS (extra flags of every replica)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
TMAPD=$BUILD/server/tmapd
LOAD=$BUILD/server/tmapd_load
for b in "$TMAPD" "$LOAD"; do
  [ -x "$b" ] || { echo "replica-load-test: $b not built (needs gRPC: scripts/install-deps.sh, then scripts/build.sh)" >&2; exit 2; }
done
REPLICAS=${REPLICAS:-1 2 4}
SECONDS_CAP=${SECONDS_CAP:-10}
SPECS=${SPECS:-50000000}
REQUESTS=${REQUESTS:-5000000}
STREAMS=${STREAMS:-16}
CONCURRENCY=${CONCURRENCY:-64}
CORES=$(nproc)
max_r=0
for r in $REPLICAS; do [ "$r" -gt "$max_r" ] && max_r=$r; done
if [ -z "${PIN:-}" ]; then PIN=0; [ "$CORES" -ge 12 ] && PIN=2; fi
if [ "$PIN" -gt 0 ] && [ $((max_r * PIN)) -ge "$CORES" ]; then
  echo "replica-load-test: PIN=$PIN x $max_r replicas leaves no core of $CORES for the load generator" >&2; exit 2
fi
command -v taskset >/dev/null || PIN=0
read -r -a EXTRA <<< "${TMAPD_ARGS:-}"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
python3 scripts/dev/gen-specs.py 10000 "$tmp/specs.jsonl" --seed 1 >/dev/null 2>&1

client=()
[ "$PIN" -gt 0 ] && client=(taskset -c "$((max_r * PIN))-$((CORES - 1))")

# start R: R replicas; sets pids and target ("ipv4:A,B,...").
start() {
  local addrs=() i
  pids=()
  for ((i = 0; i < $1; i++)); do
    local pin=()
    [ "$PIN" -gt 0 ] && pin=(taskset -c "$((i * PIN))-$((i * PIN + PIN - 1))")
    "${pin[@]}" "$TMAPD" --listen 127.0.0.1:0 --no-gpu "${EXTRA[@]}" 2>"$tmp/tmapd.$i.log" &
    pids+=($!)
  done
  for ((i = 0; i < $1; i++)); do
    for _ in $(seq 200); do grep -q "listening on" "$tmp/tmapd.$i.log" && break; sleep 0.05; done
    local a
    a=$(grep -o 'listening on [^ ]*' "$tmp/tmapd.$i.log" | head -1 | cut -d' ' -f3)
    [ -n "$a" ] || { echo "replica-load-test: replica $i did not start" >&2; cat "$tmp/tmapd.$i.log" >&2; exit 1; }
    addrs+=("$a")
  done
  target="ipv4:$(IFS=,; echo "${addrs[*]}")"
  # Warm-up (not measured).
  "${client[@]}" "$LOAD" --target "$target" --mode unary --concurrency "$CONCURRENCY" --requests 20000 --seconds 3 \
    --specs "$tmp/specs.jsonl" >/dev/null
}
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
rate() { sed -E 's/.*: ([0-9]+) (specs|req)\/s.*/\1/'; }

echo "machine: $CORES cores, $(uname -m); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "replicas pinned to $PIN cores each (0: not pinned); load generator: ${client[*]:-not pinned}; $STREAMS streams, $CONCURRENCY unary calls in flight"
declare -A batch unary
for r in $REPLICAS; do
  start "$r"
  b=$("${client[@]}" "$LOAD" --target "$target" --mode batch --concurrency "$STREAMS" --batch-size 1000 \
        --requests "$SPECS" --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl")
  u=$("${client[@]}" "$LOAD" --target "$target" --mode unary --concurrency "$CONCURRENCY" --requests "$REQUESTS" \
        --seconds "$SECONDS_CAP" --specs "$tmp/specs.jsonl")
  echo "$r replica(s): $b"
  echo "$r replica(s): $u"
  per=""
  for ((i = 0; i < r; i++)); do per+=" $(grep -c 'method=ValidateBatch' "$tmp/tmapd.$i.log" || true)"; done
  echo "$r replica(s): batch streams per replica:$per"
  batch[$r]=$(echo "$b" | rate)
  unary[$r]=$(echo "$u" | rate)
  stop
done
first=${REPLICAS%% *}
echo "replicas  batch specs/s  ratio  unary req/s  ratio"
for r in $REPLICAS; do
  awk -v r="$r" -v b="${batch[$r]}" -v b1="${batch[$first]}" -v u="${unary[$r]}" -v u1="${unary[$first]}" \
    'BEGIN { printf "%8d  %13d  %5.2f  %11d  %5.2f\n", r, b, b / b1, u, u / u1 }'
done
