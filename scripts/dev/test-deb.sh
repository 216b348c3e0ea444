#!/usr/bin/env bash
# test-deb.sh [--if-asked] [BUILD_DIR]: builds the Debian package of tmapd (cpack, cmake/package.cmake)
# and tests it where it is meant to go: a clean Debian 12 root made with debootstrap.
#
#   1. cpack; dpkg-deb -I/-c: what the package declares and holds (the trace injection and preload libraries
#      in /usr/lib/tmapgen/);
#   2. debootstrap --variant=minbase bookworm ROOT (the host's apt sources are copied in, so the root sees
#      the same Debian 12 suites as the host: main, updates, security);
#   3. apt-get install ./tmapd_*.deb inside ROOT: apt resolves the declared dependencies from the mirror;
#      ldd on every ELF file of the package finds every library (so the declared dependencies provide
#      them all); `tmapgen trace` finds both trace libraries (no "was not found" line, the traced program
#      gets the preload library in LD_PRELOAD); the postinst made /etc/tmapd/token, root-only;
#   4. starts tmapd as tmapd.service would: systemd cannot run in a chroot, so the ExecStart line (the
#      package's drop-in's, which replaces the unit's) is run by hand, with /etc/default/tmapd read as systemd's EnvironmentFile= reads it, the token
#      copied to a credential directory as LoadCredential= does (%d), and an unprivileged user standing
#      in for DynamicUser= (the listen address is set to port 0 in /etc/default/tmapd, so a test never
#      takes a port another process uses);
#   5. a health check (grpc.health.v1.Health/Check for tmapgen.v2.Tmapd, by python3-grpcio installed in
#      the root afterwards: a client this project did not write) and `tmapgen --remote ... validate` of
#      examples/specs.jsonl, whose output must be byte-identical to the build's local `tmapgen validate`;
#      a call without the token is refused;
#   6. SIGTERM: tmapd exits 0; then the root is removed.
# Needs root, network to the Debian mirror, and minutes. Set TMAPGEN_DEB_ROOT_TARBALL=FILE to keep the
# bare root in FILE (made on the first run, unpacked on later ones). Under ctest (--if-asked) it runs only
# when TMAPGEN_TEST_DEB=1 (`TMAPGEN_TEST_DEB=1 ctest --test-dir build -L deb`), and skips (77) otherwise.
set -euo pipefail
if_asked=0
if [ "${1:-}" = --if-asked ]; then if_asked=1; shift; fi
cd "$(dirname "$0")/../.."
src=$(pwd)
build=$(cd "${1:-build}" && pwd)
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "$if_asked" = 1 ] && [ "${TMAPGEN_TEST_DEB:-0}" != 1 ]; then
  skip "set TMAPGEN_TEST_DEB=1 to run it (root, the Debian mirror, minutes)"
fi
[ "$(id -u)" = 0 ] || { [ "$if_asked" = 1 ] && skip "needs root"; fail "needs root (debootstrap, chroot)"; }
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] || fail "build the package on Debian 12 (bookworm), the release it declares dependencies for; this host is ${PRETTY_NAME:-unknown}"
start=$(date +%s)
step() { echo "== [$(( $(date +%s) - start ))s] $*"; }

if ! command -v debootstrap >/dev/null 2>&1; then
  step "apt-get install debootstrap"
  apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null
fi

step "build and cpack"
cmake --build "$build" --target tmapgen tmapd tmapd_check_worker tmapgen_trace_inject tmapgen_trace_preload >/dev/null
rm -rf "$build/package"
(cd "$build" && cpack --config CPackConfig.cmake >/dev/null)
deb=$(ls "$build"/package/tmapd_*.deb)
[ "$(echo "$deb" | wc -l)" = 1 ] || fail "expected one package, found: $deb"
dpkg-deb -I "$deb"
dpkg-deb -c "$deb"
# tmapgen trace looks for the injection library in ../lib/tmapgen/ from /usr/bin/tmapgen and for the preload
# library beside it (cli/trace_cmd.cc).
for f in /usr/lib/tmapgen/libtmapgen_trace_inject.so /usr/lib/tmapgen/libtmapgen_trace_preload.so; do
  dpkg-deb -c "$deb" | awk '{print $6}' | grep -qx ".$f" || fail "the package does not hold $f"
done
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "the package declares no dependencies"

work=$(mktemp -d /var/tmp/tmapgen-deb.XXXXXX)
root=$work/root
pid=
cleanup() {
  set +e
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  for m in "$root/dev/pts" "$root/dev" "$root/proc"; do mountpoint -q "$m" && umount -l "$m"; done
  # Never into a mount that is still there (the host's /dev).
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

if [ -n "${TMAPGEN_DEB_ROOT_TARBALL:-}" ] && [ -f "$TMAPGEN_DEB_ROOT_TARBALL" ]; then
  step "unpack the Debian 12 root from $TMAPGEN_DEB_ROOT_TARBALL"
  mkdir -p "$root" && tar -C "$root" -xzf "$TMAPGEN_DEB_ROOT_TARBALL"
else
  step "debootstrap --variant=minbase bookworm"
  debootstrap --variant=minbase bookworm "$root" ${TMAPGEN_DEBIAN_MIRROR:-} > "$work/debootstrap.log" 2>&1 \
    || { tail -30 "$work/debootstrap.log"; fail debootstrap; }
  if [ -n "${TMAPGEN_DEB_ROOT_TARBALL:-}" ]; then
    tar -C "$root" -czf "$TMAPGEN_DEB_ROOT_TARBALL" .
  fi
fi
# The host's suites (a Debian 12 host has updates and security enabled, as a build farm's would).
rm -f "$root/etc/apt/sources.list"
cp -a /etc/apt/sources.list.d/. "$root/etc/apt/sources.list.d/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }

step "apt-get install ./$(basename "$deb") in the root"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")" > "$work/apt.log" 2>&1 \
  || { cat "$work/apt.log"; fail "apt-get install"; }
grep -E "^(Setting up|The following NEW)" "$work/apt.log" | sed 's/^/  /' | head -40
in_root dpkg -s tmapd | grep -E "^(Status|Version|Depends)"

step "ldd: every library of every ELF file in the package is found"
for f in $(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|'); do
  [ -f "$root$f" ] && head -c 4 "$root$f" | grep -q ELF || continue
  missing=$(in_root ldd "$f" | grep "not found" || true)
  [ -z "$missing" ] || fail "$f: $missing"
  echo "  $f: $(in_root ldd "$f" | wc -l) libraries, all found"
done
step "tmapgen trace in the root finds both trace libraries"
# Without a driver in the root, trace runs the program anyway and says that no map can be traced; neither
# library may be missing, and the program gets the package's preload library in LD_PRELOAD.
trace_out=$(in_root /usr/bin/tmapgen trace -- /bin/sh -c 'echo "preload: $LD_PRELOAD"' 2>&1) || true
echo "$trace_out" | sed 's/^/  | /'
if echo "$trace_out" | grep -q "was not found"; then fail "tmapgen trace in the root does not find a library"; fi
echo "$trace_out" | grep -qx "preload: /usr/lib/tmapgen/libtmapgen_trace_preload.so" \
  || fail "the traced program's LD_PRELOAD is not /usr/lib/tmapgen/libtmapgen_trace_preload.so"
# The token made by the postinst: present, root-only.
[ "$(stat -c %a "$root/etc/tmapd/token")" = 600 ] || fail "/etc/tmapd/token is not 0600"
[ "$(stat -c %a "$root/etc/tmapd")" = 700 ] || fail "/etc/tmapd is not 0700"
# The unit is deploy/systemd/tmapd.service as it is; the package's settings are in its drop-in.
cmp "$root/usr/lib/systemd/system/tmapd.service" "$src/deploy/systemd/tmapd.service" \
  || fail "the installed unit is not deploy/systemd/tmapd.service"
dropin=$root/usr/lib/systemd/system/tmapd.service.d/debian.conf
[ -f "$dropin" ] || fail "no drop-in"
# Debian policy 12.5: the copyright file, naming the licence.
grep -q '^License: Apache-2.0' "$root/usr/share/doc/tmapd/copyright" 2>/dev/null || fail "no /usr/share/doc/tmapd/copyright"

step "start tmapd with the drop-in's ExecStart line (systemd does not run in a chroot)"
# The admin's change: any free port (tmapd prints the one it took).
sed -i 's/^TMAPD_LISTEN=.*/TMAPD_LISTEN=127.0.0.1:0/' "$root/etc/default/tmapd"
# EnvironmentFile=: VAR=value lines, comments skipped; ${VAR} is one word, $VAR splits at spaces.
listen=$(sed -n 's/^TMAPD_LISTEN=//p' "$root/etc/default/tmapd")
opts=$(sed -n 's/^TMAPD_OPTS=//p' "$root/etc/default/tmapd")
# The drop-in resets the unit's ExecStart= and sets its own: the one systemd runs.
execstart=$(sed -n 's/^ExecStart=\(..*\)/\1/p' "$dropin")
# LoadCredential=token:/etc/tmapd/token: a copy the service's user can read, in %d.
cred=/run/credentials/tmapd.service
install -d -m 0500 -o nobody "$root$cred"
install -m 0400 -o nobody "$root/etc/tmapd/token" "$root$cred/token"
cmd=${execstart//\$\{TMAPD_LISTEN\}/$listen}
cmd=${cmd//%d/$cred}
cmd=${cmd//\$TMAPD_OPTS/$opts}
echo "  $cmd   (as nobody, for DynamicUser=)"
# shellcheck disable=SC2086
chroot --userspec=nobody:nogroup "$root" /usr/bin/env -i PATH=/usr/bin:/bin $cmd > "$work/tmapd.log" 2>&1 &
pid=$!
port=
for _ in $(seq 100); do
  port=$(sed -n 's/^tmapd: listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/tmapd.log" | head -1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/tmapd.log"; fail "tmapd exited"; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/tmapd.log"; fail "tmapd did not say where it listens"; }
echo "  tmapd pid $pid listening on 127.0.0.1:$port"

step "health check (grpc.health.v1, python3-grpcio installed in the root for it)"
in_root apt-get install -y --no-install-recommends python3-grpcio > "$work/apt-grpc.log" 2>&1 \
  || { cat "$work/apt-grpc.log"; fail "apt-get install python3-grpcio"; }
# HealthCheckRequest{service="tmapgen.v2.Tmapd"} and the answer, in the protobuf wire format
# (field 1, length-delimited / varint): no stubs needed. SERVING is 1.
in_root python3 - "$port" <<'EOF' || fail "health check"
import sys, grpc
name = b"tmapgen.v2.Tmapd"
ch = grpc.insecure_channel("127.0.0.1:" + sys.argv[1])
check = ch.unary_unary("/grpc.health.v1.Health/Check")
answer = check(b"\x0a" + bytes([len(name)]) + name, timeout=10)
print("  grpc.health.v1.Health/Check tmapgen.v2.Tmapd:", "SERVING" if answer == b"\x08\x01" else answer)
sys.exit(0 if answer == b"\x08\x01" else 1)
EOF

step "tmapgen --remote validate (the package's tmapgen, the token the package made)"
cp "$src/examples/specs.jsonl" "$root/tmp/specs.jsonl"
token=$(cat "$root/etc/tmapd/token")
set +e
chroot "$root" /usr/bin/env -i -C /tmp PATH=/usr/bin:/bin TMAPGEN_TOKEN="$token" \
  tmapgen --remote "127.0.0.1:$port" validate specs.jsonl > "$work/remote.out" 2> "$work/remote.err"
remote_rc=$?
(cd "$root/tmp" && "$build/tmapgen" validate specs.jsonl > "$work/local.out" 2> "$work/local.err")
local_rc=$?
chroot "$root" /usr/bin/env -i -C /tmp PATH=/usr/bin:/bin tmapgen --remote "127.0.0.1:$port" validate specs.jsonl \
  > /dev/null 2> "$work/notoken.err"
notoken_rc=$?
set -e
echo "  remote: exit $remote_rc, $(wc -l < "$work/remote.out") lines; local build: exit $local_rc"
head -5 "$work/remote.out" | sed 's/^/  | /'
cmp "$work/remote.out" "$work/local.out" || fail "remote and local validate differ (stdout)"
cmp "$work/remote.err" "$work/local.err" || fail "remote and local validate differ (stderr)"
[ "$remote_rc" = "$local_rc" ] || fail "exit status: remote $remote_rc, local $local_rc"
[ "$notoken_rc" = 2 ] && grep -q UNAUTHENTICATED "$work/notoken.err" \
  || { cat "$work/notoken.err"; fail "a call without the token was not refused (exit $notoken_rc)"; }
echo "  without the token: exit 2, $(head -1 "$work/notoken.err")"

step "stop (SIGTERM)"
kill -TERM "$pid"
set +e; wait "$pid"; rc=$?; set -e
pid=
sed 's/^/  | /' "$work/tmapd.log" | tail -5
[ "$rc" = 0 ] || fail "tmapd exited $rc on SIGTERM"
step "PASS ($(basename "$deb"), $(stat -c %s "$deb") bytes)"
