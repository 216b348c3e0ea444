#!/usr/bin/env bash
# deb_unit_test.sh BUILD_DIR SOURCE_DIR: the Debian package's service definition as systemd would load it,
# without the package or a running systemd (scripts/dev/test-deb.sh installs the real package):
#   deploy/systemd/tmapd.service + packaging/tmapd.service.d/debian.conf (the drop-in, loaded from the
#   unit's directory) with the package's paths pointed at the built binaries and EnvironmentFile= at
#   packaging/tmapd.default:
#   1. systemd-analyze verify prints nothing (it reports bad directives on stderr with status 0, and
#      checks that ExecStart's binary exists);
#   2. systemd-analyze security --offline: exposure at most 1.5, the bound tests/deploy/ holds the unit
#      to (the drop-in must not weaken the sandbox);
#   3. tmapd started with the drop-in's ExecStart, its variables from packaging/tmapd.default as
#      EnvironmentFile= reads them (the port set to 0) and %d a directory holding the token: it serves
#      with the token required, and exits 0 on SIGTERM.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v systemd-analyze >/dev/null 2>&1 || { echo "skipped: systemd-analyze not found (Debian: systemd)"; exit 77; }
tmapd=$build/server/tmapd
worker=$build/server/tmapd_check_worker
[ -x "$tmapd" ] || { echo "skipped: tmapd is not built (gRPC not found)"; exit 77; }
tmp=$(mktemp -d /tmp/tmapgen-deb-unit.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

dropin=$src/packaging/tmapd.service.d/debian.conf
grep -qx "ExecStart=" "$dropin" || fail "the drop-in does not reset the unit's ExecStart"
sed "s|^ExecStart=/usr/local/bin/tmapd |ExecStart=$tmapd |" "$src/deploy/systemd/tmapd.service" > "$tmp/tmapd.service"
mkdir "$tmp/tmapd.service.d"
sed -e "s|^ExecStart=/usr/bin/tmapd |ExecStart=$tmapd |" -e "s|/usr/libexec/tmapd/tmapd_check_worker|$worker|" \
    -e "s|^EnvironmentFile=-/etc/default/tmapd$|EnvironmentFile=-$src/packaging/tmapd.default|" \
    "$dropin" > "$tmp/tmapd.service.d/debian.conf"
grep -q "^ExecStart=$tmapd " "$tmp/tmapd.service.d/debian.conf" || fail "the drop-in's ExecStart is not /usr/bin/tmapd"

echo "== systemd-analyze verify (unit + drop-in)"
out=$(systemd-analyze verify "$tmp/tmapd.service" 2>&1) || fail "verify: $out"
[ -z "$out" ] || fail "verify reported: $out"
# The drop-in is read: a bad key in it is reported.
cp "$tmp/tmapd.service.d/debian.conf" "$tmp/good.conf"
echo "ProtectSystem=stricter" >> "$tmp/tmapd.service.d/debian.conf"
systemd-analyze verify "$tmp/tmapd.service" 2>&1 | grep -q stricter || fail "verify did not read the drop-in"
mv "$tmp/good.conf" "$tmp/tmapd.service.d/debian.conf"

echo "== systemd-analyze security --offline"
sec=$(systemd-analyze security --offline=yes "$tmp/tmapd.service" 2>&1 || true)
level=$(echo "$sec" | sed -n 's/.*Overall exposure level for tmapd.service: \([0-9.]*\).*/\1/p')
[ -n "$level" ] || fail "no exposure level: $sec"
echo "exposure $level"
awk -v l="$level" 'BEGIN { exit !(l <= 1.5) }' || fail "exposure $level is above 1.5"

echo "== tmapd with the drop-in's ExecStart and packaging/tmapd.default"
listen=$(sed -n 's/^TMAPD_LISTEN=//p' "$src/packaging/tmapd.default")
opts=$(sed -n 's/^TMAPD_OPTS=//p' "$src/packaging/tmapd.default")
[ -n "$listen" ] || fail "TMAPD_LISTEN is not set in packaging/tmapd.default"
execstart=$(sed -n 's/^ExecStart=\(..*\)/\1/p' "$tmp/tmapd.service.d/debian.conf")
mkdir -m 0700 "$tmp/cred" && echo "deb-unit-test-token" > "$tmp/cred/token"
cmd=${execstart//\$\{TMAPD_LISTEN\}/${listen%:*}:0}
cmd=${cmd//%d/$tmp/cred}
cmd=${cmd//\$TMAPD_OPTS/$opts}
echo "$cmd"
# shellcheck disable=SC2086
$cmd > "$tmp/tmapd.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$tmp/tmapd.log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/tmapd.log"; fail "tmapd exited"; }
  sleep 0.1
done
cat "$tmp/tmapd.log"
grep -q "token required" "$tmp/tmapd.log" || fail "tmapd does not require the token"
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
pid=
[ "$rc" = 0 ] || { cat "$tmp/tmapd.log"; fail "tmapd exited $rc on SIGTERM"; }
echo PASS
