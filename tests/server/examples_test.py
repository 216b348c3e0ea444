#!/usr/bin/env python3
"""examples_test.py: the service clients of examples/ (docs/service.md) against a loopback tmapd, with stubs
generated from proto/ at test time, as a user of the Debian packages would.

usage: examples_test.py python|go TMAPD SOURCE_DIR      (exit 77 = skipped, reason printed)

python: the stubs from tests/server/grpc_stubs.py (the same generation as process_test.py), then
        examples/python-client/tmapd_client.py.
go:     examples/go-client/gen.sh (protoc, protoc-gen-go, protoc-gen-go-grpc), then `go build ./...` offline:
        the modules of examples/go-client/go.mod are taken from /usr/share/gocode (Debian's golang-*-dev
        packages) through a vendor/ directory made here (symbolic links and vendor/modules.txt), with
        GOPROXY=off; then the client runs.

Both clients must print EXPECTED. The good map (f16 1024 x 1024, 2048-byte rows, box 64 x 64, SWIZZLE_128B):
a 64 x 64 f16 box is 64 * 64 * 2 = 8192 bytes (cuda.h: CU_TENSOR_MAP_DATA_TYPE_FLOAT16 is 2 bytes), and its
128-byte inner box fits the 128-byte swizzle span. The bad map breaks three rules of cuda.h
(cuTensorMapEncodeTiled): globalStrides must be multiples of 16 (1000), boxDim[i] <= 256 (300), and
boxDim[0] * elementSize a multiple of 16 bytes (3 x 2 = 6), in the order the report lists dimensions' rules.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

MODE, TMAPD, SRC = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
TMP = tempfile.mkdtemp(prefix="tmapd-examples-")
GOCODE = "/usr/share/gocode/src"

EXPECTED_MAPS = (
    "good: valid for sm_90a, 8192 transaction bytes\n"
    "bad: INVALID for sm_90a: global-stride-align-16, box-dim-range, box-inner-bytes-16\n"
)


def skip(reason):
    print("skipped: " + reason)
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(77)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        print("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
        sys.exit(1)
    return r.stdout


def start_tmapd():
    p = subprocess.Popen([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    first = p.stderr.readline()
    if "listening on" not in first:
        p.wait(timeout=10)
        print("FAIL: tmapd did not start: " + first + p.stderr.read())
        sys.exit(1)
    return p, first.split("listening on ")[1].split(" ")[0]


def python_client():
    try:
        import grpc  # noqa: F401
    except ImportError:
        skip("python3-grpcio is not installed (scripts/install-deps.sh installs it)")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import grpc_stubs
    stubs = os.path.join(TMP, "stubs")
    os.makedirs(stubs)
    print("stubs:", grpc_stubs.generate(SRC, stubs), file=sys.stderr)
    env = dict(os.environ, PYTHONPATH=stubs)
    return lambda address: run([sys.executable, os.path.join(SRC, "examples/python-client/tmapd_client.py"), address],
                               env=env)


def go_vendor(work):
    """vendor/ of symbolic links into /usr/share/gocode and the vendor/modules.txt that `go build -mod=vendor`
    checks against go.mod: every required module, explicit, with the packages it holds."""
    with open(os.path.join(work, "go.mod")) as f:
        requires = re.findall(r"^\s+(\S+)\s+(v\S+)", f.read(), re.M)
    lines = []
    for mod, version in requires:
        src = os.path.join(GOCODE, mod)
        if not os.path.isdir(src):
            skip("%s is not in %s (install Debian's golang-*-dev package for it; docs/service.md)" % (mod, GOCODE))
        dst = os.path.join(work, "vendor", mod)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.symlink(src, dst)
        go = "1.11"
        if os.path.exists(os.path.join(src, "go.mod")):
            with open(os.path.join(src, "go.mod")) as f:
                m = re.search(r"^go\s+(\S+)", f.read(), re.M)
            go = m.group(1) if m else go
        lines += ["# %s %s" % (mod, version), "## explicit; go %s" % go]
        packages = []
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith((".", "_")) and d not in ("testdata", "vendor")]
            if any(n.endswith(".go") and not n.endswith("_test.go") for n in files):
                rel = os.path.relpath(root, src)
                packages.append(mod if rel == "." else mod + "/" + rel)
        lines += sorted(packages)
    with open(os.path.join(work, "vendor", "modules.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def go_client():
    for tool, package in (("go", "golang-go"), ("protoc", "protobuf-compiler"), ("protoc-gen-go", "protoc-gen-go"),
                          ("protoc-gen-go-grpc", "protoc-gen-go-grpc")):
        if not shutil.which(tool):
            skip("%s is not installed (Debian: apt-get install %s; docs/service.md)" % (tool, package))
    # Debian's protoc-gen-go-1-3 (golang-goprotobuf-dev) also installs /usr/bin/protoc-gen-go, an APIv1
    # plugin without proto3 `optional` support; the APIv2 one prints its version.
    version = subprocess.run(["protoc-gen-go", "--version"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                             timeout=30).stdout
    if not version.startswith("protoc-gen-go v1."):
        skip("protoc-gen-go is not the APIv2 plugin (Debian: apt-get install protoc-gen-go)")
    work = os.path.join(TMP, "go-client")
    shutil.copytree(os.path.join(SRC, "examples/go-client"), work)
    run(["sh", "gen.sh", os.path.join(SRC, "proto")], cwd=work)
    go_vendor(work)
    # The build cache stays in the test's working directory (the build tree), so that a second run is quick.
    env = dict(os.environ, GOFLAGS="-mod=vendor", GOPROXY="off", GO111MODULE="on",
               GOCACHE=os.path.join(os.getcwd(), "go-build-cache"), GOPATH=os.path.join(TMP, "gopath"), HOME=TMP,
               CGO_ENABLED="0")
    run(["go", "build", "./..."], cwd=work, env=env)  # the v2 stubs too
    run(["go", "build", "-o", "go-client", "."], cwd=work, env=env)
    return lambda address: run([os.path.join(work, "go-client"), address])


def main():
    client = {"python": python_client, "go": go_client}[MODE]()
    server, address = start_tmapd()
    try:
        out = client(address)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    lines = out.splitlines(keepends=True)
    ok = len(lines) == 3 and lines[0].startswith("server: tmapgen ") and "tmapgen.v1.Tmapd" in lines[0] \
        and "".join(lines[1:]) == EXPECTED_MAPS
    shutil.rmtree(TMP, ignore_errors=True)
    if not ok:
        print("FAIL: the %s client printed\n%s\nexpected a server line, then\n%s" % (MODE, out, EXPECTED_MAPS))
        return 1
    print("OK: the %s client of examples/ called tmapd on %s" % (MODE, address))
    return 0


if __name__ == "__main__":
    sys.exit(main())
