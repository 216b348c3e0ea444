#!/usr/bin/env bash
# blob-sweep.sh: on a GPU host, the driver's own CUtensorMap bytes against tmapgen's offline encoding
# (src/blob; docs/tensormap-layout.md, docs/hardware.md):
#   1. sweep     a fresh random sweep (tools/tmap_corpus --random, a new seed) piped into tools/blob_check:
#                every accepted map's offline bytes must equal the driver's, and decode must give back the
#                parameters; stops at ACCEPTED accepted maps
#   2. product   `tmapgen --spec S --format json` (the build command encodes with the driver on a GPU host and
#                compares with the offline bytes, "offline_match") for SPECS valid specs of the sweep
#   3. fullmap   the whole-map constants of `tmapgen codegen --lang cpp` in real TMA loads: the address set by
#                cuTensorMapReplaceAddress (host) and by tensormap.replace (device); tests/blob/gpu
#   4. probes    tools/tmap_corpus --probes again, through blob_check
#   5. replace   tests/blob/gpu/replace_probe.cu: what tensormap.replace writes, field by field, from zeros and
#                from the driver's map, and TMA loads through maps built on the device (replace.jsonl)
# The sweep also times the driver's encode (tmap_corpus --time) and the offline encoder and decoder
# (blob_check --time) on the same accepted maps.
#
#   scripts/lab/blob-sweep.sh OUT_DIR        env: ACCEPTED (100000), SEED (date-based), SPECS (300), JOBS (nproc),
#                                        SWEEP_SECONDS (90)
# Needs CMake, a C++17 compiler, nvcc (step 3), a GPU and its driver; Abseil from .debs/ where the host has no
# package manager (scripts/gpu-deps.sh). Exit status: 0 when every step passed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: blob-sweep.sh OUT_DIR}
mkdir -p "$out"
b=${TMAPGEN_BLOB_BUILD:-$root/build-blobsweep}
jobs=${JOBS:-$(nproc)}
accepted=${ACCEPTED:-100000}
seed=${SEED:-$(date +%s)}
nspecs=${SPECS:-300}
sweep_s=${SWEEP_SECONDS:-90}
fail=0
t0=$SECONDS
echo "== build ($b)"
prefix_args=()
if ls "$root"/.debs/*.deb >/dev/null 2>&1; then
  prefix_args=(-DCMAKE_PREFIX_PATH="$(bash "$root/scripts/gpu-deps.sh" unpack "$b/deps")")
  . "$b/deps/env.sh"
fi
cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DTMAPGEN_WITH_PROTOBUF=OFF -DTMAPGEN_TESTS=OFF -DTMAPGEN_MICROBENCH=OFF \
  "${prefix_args[@]}" > "$out/build.log" 2>&1 &&
  cmake --build "$b" -j "$jobs" --target tmap_corpus blob_check tmapgen >> "$out/build.log" 2>&1 ||
  { echo "build failed"; tail -30 "$out/build.log"; exit 2; }
echo "   built in $((SECONDS - t0)) s"
(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null || true) | tee "$out/gpu.txt"

echo "== sweep: seed $seed, until $accepted accepted maps"
t1=$SECONDS
timeout -k 5 $((sweep_s + 30)) "$b/tools/tmap_corpus" --random 20000000 --accepted "$accepted" --seed "$seed" \
    --seconds "$sweep_s" --time 2> "$out/sweep.gen.txt" |
  "$b/tools/blob_check" --specs "$out/sweep.specs.jsonl" --mismatches "$out/sweep.mismatches.jsonl" --time \
    > "$out/sweep.summary.txt" 2> "$out/sweep.check.txt"
rcs=("${PIPESTATUS[@]}")
cat "$out/sweep.gen.txt" "$out/sweep.summary.txt"
echo "   sweep rc ${rcs[*]}, $((SECONDS - t1)) s"
[ "${rcs[1]}" -ne 0 ] && fail=1
grep -q "^TOTAL" "$out/sweep.summary.txt" || fail=1

echo "== product: tmapgen --spec S --format json on this GPU host, $nspecs specs"
t1=$SECONDS
n=0 match=0 nomatch=0 notcompared=0
mkdir -p "$out/product"
while IFS= read -r line && [ $n -lt "$nspecs" ]; do
  printf '%s\n' "$line" > "$out/product/spec.json"
  if "$b/tmapgen" --spec "$out/product/spec.json" --format json --target sm_90a > "$out/product/report.json" 2>/dev/null; then
    n=$((n + 1))
    if grep -q '"offline_match":true' "$out/product/report.json"; then match=$((match + 1))
    elif grep -q '"offline_match":false' "$out/product/report.json"; then nomatch=$((nomatch + 1)); cat "$out/product/report.json" >> "$out/product/findings.jsonl"
    else notcompared=$((notcompared + 1)); fi
  fi
done < <(awk 'NR % 97 == 1' "$out/sweep.specs.jsonl")
echo "PRODUCT: $n valid specs through the build command: $match offline_match true, $nomatch false, $notcompared not compared" | tee "$out/product.txt"
echo "   $((SECONDS - t1)) s"
[ "$nomatch" -ne 0 ] && fail=1
[ "$match" -eq 0 ] && fail=1

echo "== fullmap: kMap of codegen --lang cpp in TMA loads"
t1=$SECONDS
"$b/tmapgen" codegen "$root/tests/blob/gpu/full_map_specs.jsonl" --lang cpp -o "$out/full_map.gen.h" > "$out/fullmap.log" 2>&1 &&
  nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -I"$out" "$root/tests/blob/gpu/full_map_check.cu" \
    -o "$b/full_map_check" -lcuda >> "$out/fullmap.log" 2>&1 &&
  timeout -k 2 30 "$b/full_map_check" >> "$out/fullmap.log" 2>&1
rc=$?
cat "$out/fullmap.log"
echo "   fullmap rc $rc, $((SECONDS - t1)) s"
[ $rc -ne 0 ] && fail=1

echo "== probes: tmap_corpus --probes through blob_check"
t1=$SECONDS
timeout -k 2 40 "$b/tools/tmap_corpus" --probes --seed "$seed" --seconds 30 2> "$out/probes.gen.txt" |
  "$b/tools/blob_check" --mismatches "$out/probes.mismatches.jsonl" > "$out/probes.summary.txt" 2> "$out/probes.check.txt"
rcs=("${PIPESTATUS[@]}")
cat "$out/probes.gen.txt" "$out/probes.summary.txt"
[ "${rcs[1]}" -ne 0 ] && fail=1
echo "   probes rc ${rcs[*]}, $((SECONDS - t1)) s"
echo "== replace: what tensormap.replace writes (tests/blob/gpu/replace_probe.cu)"
t1=$SECONDS
nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a "$root/tests/blob/gpu/replace_probe.cu" -o "$b/replace_probe" -lcuda \
    > "$out/replace.log" 2>&1 && timeout -k 2 60 "$b/replace_probe" > "$out/replace.jsonl" 2>> "$out/replace.log"
rc=$?
echo "   replace rc $rc: $(grep -c '"probe":"replace"' "$out/replace.jsonl" 2>/dev/null) probes, $((SECONDS - t1)) s"
grep '"device_built"' "$out/replace.jsonl" | sed 's/"bytes":"[0-9a-f]*",//; s/"driver":"[0-9a-f]*",//'
[ $rc -ne 0 ] && fail=1
rm -rf "$out/product/spec.json" "$out/product/report.json" "$out/sweep.specs.jsonl"
echo "== blob-sweep: $([ $fail -eq 0 ] && echo PASS || echo FAIL) in $((SECONDS - t0)) s"
exit $fail
