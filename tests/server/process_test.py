#!/usr/bin/env python3
"""Out-of-process tests of tmapd: the real binary on loopback ports, called through a client this
project did not write (python3-grpcio, with stubs generated at test time in a temporary directory) and
through tmapgen --remote (output byte-identical to the local command).

usage: process_test.py TMAPD TMAPGEN SOURCE_DIR      (exit 77 = skipped, reason printed)
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

TMAPD, TMAPGEN, SRC = (os.path.abspath(a) for a in sys.argv[1:4])
del sys.argv[1:4]

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grpc_stubs  # noqa: E402

try:
    import grpc
except ImportError:
    print("skipped: python3-grpcio is not installed (scripts/install-deps.sh installs it)")
    sys.exit(77)

# The standard protocol definitions (grpc.health.v1 and grpc.reflection.v1alpha), written out here
# because Debian's python3-grpcio ships neither grpcio-health-checking nor grpcio-reflection.
HEALTH_PROTO = """syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
"""
REFLECTION_PROTO = """syntax = "proto3";
package grpc.reflection.v1alpha;
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    ExtensionRequest file_containing_extension = 5;
    string all_extension_numbers_of_type = 6;
    string list_services = 7;
  }
}
message ExtensionRequest { string containing_type = 1; int32 extension_number = 2; }
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ExtensionNumberResponse all_extension_numbers_response = 5;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ExtensionNumberResponse { string base_type_name = 1; repeated int32 extension_number = 2; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
service ServerReflection {
  rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse);
}
"""

TMP = tempfile.mkdtemp(prefix="tmapd-test-")


def generate_stubs():
    """The Python stubs into TMP (tests/server/grpc_stubs.py), the standard protocols included."""
    used = grpc_stubs.generate(SRC, TMP, {"health.proto": HEALTH_PROTO, "reflection.proto": REFLECTION_PROTO})
    print("stubs:", used, file=sys.stderr)
    sys.path.insert(0, TMP)


generate_stubs()
import health_pb2  # noqa: E402
import health_pb2_grpc  # noqa: E402
import reflection_pb2  # noqa: E402
import reflection_pb2_grpc  # noqa: E402
import tmapd_pb2  # noqa: E402
import tmapd_pb2_grpc  # noqa: E402
import tmapd_v2_pb2  # noqa: E402
import tmapd_v2_pb2_grpc  # noqa: E402
import tmapgen_pb2  # noqa: E402
from google.protobuf import descriptor_pb2  # noqa: E402


class Tmapd:
    """A tmapd process on a free loopback port; its log lines are collected."""

    def __init__(self, *args, listen="127.0.0.1:0", gpu=False, strace=None, preexec_fn=None):
        self.cwd = tempfile.mkdtemp(prefix="server-cwd-", dir=TMP)
        cmd = [TMAPD, "--listen", listen] + ([] if gpu else ["--no-gpu"]) + list(args)
        if strace:
            cmd = ["strace", "-f", "-qq", "-e", "trace=open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,"
                   "mkdir,mknod,truncate", "-o", strace] + cmd
        # A session of its own: stop() signals the group, so that a tmapd under strace stops with it.
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=self.cwd,
                                     preexec_fn=preexec_fn, start_new_session=True)
        self.lines = []
        first = self.proc.stderr.readline()
        if "listening on" not in first:
            self.proc.wait(timeout=10)
            raise RuntimeError("tmapd did not start: " + first + self.proc.stderr.read())
        self.lines.append(first)
        self.address = first.split("listening on ")[1].split(" ")[0]
        self.port = int(self.address.rsplit(":", 1)[1])
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self):
        for line in self.proc.stderr:
            self.lines.append(line)

    def log(self):
        return "".join(self.lines)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.reader.join(timeout=5)
        return self.proc.returncode


def good_spec():
    s = tmapgen_pb2.TensorMapSpec()
    s.mode = tmapgen_pb2.TILED
    s.tensor_data_type = tmapgen_pb2.CU_TENSOR_MAP_DATA_TYPE_FLOAT16
    s.tensor_rank = 2
    s.global_dim.extend([1024, 1024])
    s.global_strides.extend([2048])
    s.box_dim.extend([64, 64])
    s.swizzle = tmapgen_pb2.CU_TENSOR_MAP_SWIZZLE_128B
    s.target = "sm_90a"
    return s


def bad_spec():
    s = good_spec()
    s.tensor_data_type = tmapgen_pb2.CU_TENSOR_MAP_DATA_TYPE_UINT8
    s.box_dim[0] = 3
    return s


def trailing(err, key):
    for k, v in err.trailing_metadata() or ():
        if k == key:
            return v
    return None


class ServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Tmapd("--max-message-bytes", "65536", "--max-specs-per-message", "5000")
        cls.channel = grpc.insecure_channel(cls.server.address)
        cls.stub = tmapd_pb2_grpc.TmapdStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        assert cls.server.stop() == 0

    def test_validate(self):
        r = self.stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec(), options=tmapd_pb2.RenderOptions(format=tmapd_pb2.OUTPUT_JSON)))
        self.assertTrue(r.valid)
        self.assertTrue(r.report.valid)
        self.assertIn('"valid":true', r.rendered)
        r = self.stub.Validate(tmapd_pb2.ValidateRequest(spec=bad_spec()))
        self.assertFalse(r.valid)
        self.assertTrue(r.error_rules)
        self.assertTrue(r.report.nearest_valid_changes)

    def test_build_without_gpu(self):
        r = self.stub.Build(tmapd_pb2.BuildRequest(spec=good_spec()))
        self.assertTrue(r.valid)
        self.assertFalse(r.report.HasField("encoding"))  # --no-gpu: no driver encoding

    def test_malformed_spec_names_the_field(self):
        s = good_spec()
        s.mode = 99
        with self.assertRaises(grpc.RpcError) as e:
            self.stub.Validate(tmapd_pb2.ValidateRequest(spec=s))
        self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("mode", e.exception.details())
        self.assertEqual(trailing(e.exception, "tmapgen-field"), "spec.mode")

    def test_garbage_bytes(self):
        for method in ("/tmapgen.v1.Tmapd/Validate", "/tmapgen.v2.Tmapd/PlanGemm", "/tmapgen.v2.Tmapd/PlanConv"):
            raw = self.channel.unary_unary(method)
            with self.assertRaises(grpc.RpcError) as e:
                raw(b"\xff\xff\xff\xff\x0f")
            self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, method)

    def test_oversized_request(self):
        s = good_spec()
        s.name = "x" * 100000
        with self.assertRaises(grpc.RpcError) as e:
            self.stub.Validate(tmapd_pb2.ValidateRequest(spec=s))
        self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)

    def test_expired_deadline(self):
        def slow():
            yield tmapd_pb2.BatchRequest(specs=[good_spec()])
            time.sleep(1.0)
            yield tmapd_pb2.BatchRequest(specs=[good_spec()])
        with self.assertRaises(grpc.RpcError) as e:
            list(self.stub.ValidateBatch(slow(), timeout=0.3))
        self.assertEqual(e.exception.code(), grpc.StatusCode.DEADLINE_EXCEEDED)
        self.assertTrue(self.stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()), timeout=5).valid)

    def test_ten_thousand_bad_requests_then_still_answers(self):
        s = good_spec()
        s.swizzle = 1234
        bad = tmapd_pb2.ValidateRequest(spec=s)
        raw = self.channel.unary_unary("/tmapgen.v1.Tmapd/Validate")
        codes = {}
        for i in range(10000):
            try:
                if i % 3 == 0:
                    raw(b"\x0a\xff")
                else:
                    self.stub.Validate(bad)
            except grpc.RpcError as e:
                codes[e.code()] = codes.get(e.code(), 0) + 1
        self.assertEqual(sum(codes.values()), 10000, codes)
        r = self.stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()))
        self.assertTrue(r.valid)
        self.assertEqual(self.stub.Describe(tmapd_pb2.DescribeRequest()).max_message_bytes, 65536)

    def test_batch_stream(self):
        def requests():
            for m in range(10):
                yield tmapd_pb2.BatchRequest(specs=[good_spec() if i % 2 == 0 else bad_spec() for i in range(1500)],
                                             options=tmapd_pb2.RenderOptions(no_report=True))
        n = valid = 0
        for res in self.stub.ValidateBatch(requests()):
            for r in res.results:
                self.assertEqual(r.index, n)
                n += 1
                valid += r.valid
        self.assertEqual((n, valid), (15000, 7500))

    def test_batch_over_the_limit(self):
        def requests():
            yield tmapd_pb2.BatchRequest(specs=[good_spec()] * 5001)
        with self.assertRaises(grpc.RpcError) as e:
            list(self.stub.ValidateBatch(requests()))
        self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)

    def test_health(self):
        h = health_pb2_grpc.HealthStub(self.channel)
        self.assertEqual(h.Check(health_pb2.HealthCheckRequest()).status, health_pb2.HealthCheckResponse.SERVING)
        self.assertEqual(h.Check(health_pb2.HealthCheckRequest(service="tmapgen.v1.Tmapd")).status,
                         health_pb2.HealthCheckResponse.SERVING)

    def test_reflection(self):
        r = reflection_pb2_grpc.ServerReflectionStub(self.channel)
        reqs = [reflection_pb2.ServerReflectionRequest(list_services=""),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="tmapgen.v1.Tmapd"),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="tmapgen.v2.Tmapd")]
        answers = list(r.ServerReflectionInfo(iter(reqs)))
        names = {s.name for s in answers[0].list_services_response.service}
        self.assertTrue({"tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd", "grpc.health.v1.Health"} <= names, names)
        methods = {}
        for a in answers[1:]:
            for blob in a.file_descriptor_response.file_descriptor_proto:
                fd = descriptor_pb2.FileDescriptorProto.FromString(blob)
                for svc in fd.service:
                    methods[fd.package + "." + svc.name] = {m.name for m in svc.method}
        self.assertEqual(methods["tmapgen.v1.Tmapd"], {"Validate", "Build", "ValidateBatch", "Describe"})
        self.assertEqual(methods["tmapgen.v2.Tmapd"], {"Validate", "Build", "ValidateBatch", "Describe", "MatrixDescriptor",
                                                       "InstructionDescriptor", "Codegen", "Check", "Decode", "PlanGemm",
                                                       "PlanConv"})

    def test_log_lines(self):
        self.stub.Describe(tmapd_pb2.DescribeRequest())
        time.sleep(0.2)
        self.assertRegex(self.server.log(), r"tmapd: method=Describe status=OK duration_us=\d+")


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def pb_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(field << 3 | 2) + varint(len(data)) + data


# The retired v1 argv requests, encoded by hand (their messages are gone from tmapd.proto):
# DescriptorRequest{kind=1, args=2, for_map=3}, CodegenRequest{files=1 (SpecFile{name=1, content=2}), args=2},
# CheckRequest{files=1, args=2}.
def old_descriptor(args):
    return b"".join(pb_bytes(2, a) for a in args)


def old_codegen(args, spec_text):
    return pb_bytes(1, pb_bytes(1, "s.json") + pb_bytes(2, spec_text)) + b"".join(pb_bytes(2, a) for a in args)


SPEC_TEXT = ('{"name":"a_tile","tensor_data_type":"bf16","global_dim":[1024,1024],"box_dim":[64,64],'
             '"swizzle":"128B","target":"sm_90a"}')


class AttackTest(unittest.TestCase):
    """File attacks: a request that names a server file can neither read nor write it. The old argv
    methods are gone (UNIMPLEMENTED), the v2 messages have no field that the server opens, and under
    strace (where installed) the server is seen opening none of the paths."""

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(TMP, "attack")
        os.makedirs(cls.dir, exist_ok=True)
        cls.fifo = os.path.join(cls.dir, "fifo")
        os.mkfifo(cls.fifo)
        cls.victim = os.path.join(cls.dir, "victim.h")
        with open(cls.victim, "w") as f:
            f.write("precious\n")
        cls.created = os.path.join(cls.dir, "created.h")
        cls.trace = os.path.join(cls.dir, "strace.log")
        cls.strace = shutil.which("strace")
        cls.server = Tmapd(strace=cls.trace if cls.strace else None)
        cls.channel = grpc.insecure_channel(cls.server.address)
        cls.v2 = tmapd_v2_pb2_grpc.TmapdStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.server.stop()

    def assert_untouched(self):
        with open(self.victim) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertFalse(os.path.exists(self.created))
        # Nobody has the FIFO open for reading: opening its write end without blocking fails with ENXIO.
        with self.assertRaises(OSError) as e:
            os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        self.assertEqual(e.exception.errno, 6)  # ENXIO

    def raw(self, method, payload):
        call = self.channel.unary_unary(method)
        with self.assertRaises(grpc.RpcError) as e:
            call(payload, timeout=10)
        return e.exception

    def test_v1_argv_methods_are_gone(self):
        attacks = [
            ("/tmapgen.v1.Tmapd/Descriptor", old_descriptor(["wgmma", "--for_map", "/etc/passwd"])),
            ("/tmapgen.v1.Tmapd/Descriptor", old_descriptor(["wgmma", "--for_map", "/dev/zero"])),
            ("/tmapgen.v1.Tmapd/Descriptor", old_descriptor(["wgmma", "--for_map", self.fifo])),
            ("/tmapgen.v1.Tmapd/Descriptor", old_descriptor(["wgmma", "--svg", self.created])),
            ("/tmapgen.v1.Tmapd/Codegen", old_codegen(["--o", self.victim], SPEC_TEXT)),
            ("/tmapgen.v1.Tmapd/Codegen", old_codegen(["--o=" + self.created], SPEC_TEXT)),
            ("/tmapgen.v1.Tmapd/Check", old_codegen(["--seed", "1"], SPEC_TEXT)),
        ]
        for method, payload in attacks:
            t0 = time.time()
            err = self.raw(method, payload)
            self.assertEqual(err.code(), grpc.StatusCode.UNIMPLEMENTED, (method, err.details()))
            self.assertLess(time.time() - t0, 5)
        self.assert_untouched()

    def test_v2_names_are_labels(self):
        """The only strings of v2 that look like paths are labels: a map's name in reports, the sources named
        in generated comments. Giving server paths there opens nothing and writes nothing."""
        spec = good_spec()
        for name in ("/etc/passwd", "/dev/zero", self.fifo):
            req = tmapd_v2_pb2.MatrixDescriptorRequest(
                operation=tmapd_v2_pb2.MatrixDescriptorRequest.DERIVE, family=tmapd_v2_pb2.WGMMA, map=spec, map_name=name,
                render=tmapd_v2_pb2.Rendering(format=tmapd_v2_pb2.Rendering.TEXT))
            r = self.v2.MatrixDescriptor(req, timeout=5)
            self.assertEqual(r.map.source, name)
            self.assertIn(name, r.rendered)
        r = self.v2.Codegen(tmapd_v2_pb2.CodegenRequest(specs=[spec], sources=[self.victim, self.created, self.fifo]),
                            timeout=5)
        self.assertTrue(r.generated)
        self.assertEqual([f.name for f in r.files], ["tmapgen_gen.h"])
        self.assertIn(self.victim, r.files[0].content)  # named in the comment, nothing more
        self.assert_untouched()

    def test_the_client_reads_its_own_files(self):
        """tmapgen --remote parses argv and reads files on the client, as the local command does: the same
        bytes, and nothing reaches the server when the local parse fails."""
        env = dict(os.environ, NO_COLOR="1")
        for args in (["desc", "wgmma", "--for_map", "/etc/passwd"], ["desc", "wgmma", "--for_map", "/dev/null"]):
            local = subprocess.run([TMAPGEN] + args, capture_output=True, env=env)
            remote = subprocess.run([TMAPGEN, "--remote", self.server.address] + args, capture_output=True, env=env)
            self.assertEqual((remote.returncode, remote.stdout, remote.stderr), (local.returncode, local.stdout, local.stderr))
            self.assertEqual(local.returncode, 2)
        # -o is written by the client, relative to the client's directory, never the server's.
        spec = os.path.join(self.dir, "spec.json")
        with open(spec, "w") as f:
            f.write(SPEC_TEXT)
        client_dir = os.path.join(self.dir, "client")
        os.makedirs(client_dir, exist_ok=True)
        for o in (["--o", "out1.h"], ["--o=out2.h"], ["-o", "out3.h"]):
            p = subprocess.run([TMAPGEN, "--remote", self.server.address, "codegen", spec] + o, cwd=client_dir,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(client_dir)), ["out1.h", "out2.h", "out3.h"])
        self.assertFalse(os.path.exists(os.path.join(self.server.cwd, "out1.h")))
        self.assert_untouched()

    def test_strace_sees_no_request_path(self):
        if not self.strace:
            self.skipTest("strace is not installed: the FIFO and file checks above still ran")
        self.test_v1_argv_methods_are_gone()
        self.test_v2_names_are_labels()
        time.sleep(0.5)
        with open(self.trace) as f:
            trace = f.read()
        self.assertIn("openat(", trace)  # the trace works (libraries, /proc, ...)
        for path in ("/etc/passwd", "/dev/zero", self.fifo, self.victim, self.created):
            self.assertNotIn('"%s"' % path, trace, path)


class SecurityTest(unittest.TestCase):
    def test_non_loopback_without_tls_is_refused(self):
        p = subprocess.run([TMAPD, "--listen", "0.0.0.0:0"], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("requires TLS", p.stderr)

    def test_tls_and_token(self):
        if not shutil.which("openssl"):
            self.skipTest("openssl not installed")
        d = os.path.join(TMP, "tls")
        os.makedirs(d, exist_ok=True)
        cert, key, tok = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem"), os.path.join(d, "token")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
        secret = "tok-" + os.urandom(8).hex()
        with open(tok, "w") as f:
            f.write(secret + "\n")
        server = Tmapd("--tls-cert", cert, "--tls-key", key, "--token-file", tok, listen="0.0.0.0:0")
        try:
            target = "127.0.0.1:%d" % server.port
            base = [TMAPGEN, "--remote", target, "--tls-ca", cert]
            ok = subprocess.run(base + ["--token", secret, "--mode", "tiled"], capture_output=True, text=True)
            self.assertEqual(ok.returncode, 0, ok.stderr)
            local = subprocess.run([TMAPGEN, "--no-gpu", "--mode", "tiled"], capture_output=True, text=True)
            self.assertEqual(ok.stdout, local.stdout)
            wrong = subprocess.run(base + ["--token", "nope", "--mode", "tiled"], capture_output=True, text=True)
            self.assertEqual(wrong.returncode, 2)
            self.assertIn("UNAUTHENTICATED", wrong.stderr)
            plain = subprocess.run([TMAPGEN, "--remote", target, "--token", secret, "--deadline-ms", "5000", "--mode", "tiled"],
                                   capture_output=True, text=True)
            self.assertEqual(plain.returncode, 2)  # plaintext client, TLS server
            with open(cert, "rb") as f:
                creds = grpc.ssl_channel_credentials(root_certificates=f.read())
            with grpc.secure_channel(target, creds) as ch:
                stub = tmapd_pb2_grpc.TmapdStub(ch)
                with self.assertRaises(grpc.RpcError) as e:
                    stub.Describe(tmapd_pb2.DescribeRequest(), metadata=[("authorization", "Bearer wrong")])
                self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
                stub.Describe(tmapd_pb2.DescribeRequest(), metadata=[("authorization", "Bearer " + secret)])
        finally:
            server.stop()
        self.assertNotIn(secret, server.log())
        self.assertIn("status=UNAUTHENTICATED", server.log())


def open_fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def threads(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return -1


def wait_until(pred, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def answers(address, timeout=5):
    """A fresh connection gets an answer."""
    with grpc.insecure_channel(address) as ch:
        try:
            return tmapd_pb2_grpc.TmapdStub(ch).Describe(tmapd_pb2.DescribeRequest(), timeout=timeout,
                                                         wait_for_ready=True) is not None
        except grpc.RpcError:
            return False


class HardeningTest(unittest.TestCase):
    """Hardening: each case was found by a hostile client on loopback."""

    def test_descriptor_exhaustion_recovers(self):
        import resource
        import socket

        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

        server = Tmapd("--handshake-timeout-ms", "1500", "--fd-reserve", "32", preexec_fn=limit)
        try:
            host, port = server.address.rsplit(":", 1)
            before = grpc.insecure_channel(server.address)  # a client connected before the flood
            stub = tmapd_pb2_grpc.TmapdStub(before)
            self.assertTrue(stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()), timeout=5).valid)
            for keep_open in (False, True):
                flood = []
                for _ in range(300):
                    c = socket.socket()
                    c.settimeout(5)
                    c.connect((host, int(port)))
                    flood.append(c)
                time.sleep(0.5)
                # The server accepted only what leaves descriptors free and closed the rest at once.
                closed = 0
                for c in flood:
                    c.setblocking(False)
                    try:
                        closed += c.recv(1) == b""
                    except (BlockingIOError, ConnectionResetError) as e:
                        closed += isinstance(e, ConnectionResetError)
                self.assertGreater(closed, 0)
                self.assertLess(open_fds(server.proc.pid), 256)
                self.assertTrue(stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()), timeout=5).valid)
                if not keep_open:
                    for c in flood:
                        c.close()
                # Recovery: the attackers left (first round) or were reaped by the handshake timeout (second).
                self.assertTrue(wait_until(lambda: answers(server.address, timeout=2), 15), keep_open)
                for c in flood:
                    c.close()
            before.close()
            self.assertIsNone(server.proc.poll())
        finally:
            server.stop()

    def test_idle_connections_are_reaped(self):
        server = Tmapd("--max-connection-idle-ms", "400")
        try:
            # The first call makes the descriptors gRPC creates once (pollers, wakeup fds); count from after it,
            # once its own connection was reaped, so that only the idle connections are measured.
            warm = grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)])
            tmapd_pb2_grpc.TmapdStub(warm).Describe(tmapd_pb2.DescribeRequest(), timeout=5)
            warm.close()
            time.sleep(1.5)  # more than the idle limit: the warm-up connection is gone
            base = open_fds(server.proc.pid)
            chans = [grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)])
                     for _ in range(20)]
            for ch in chans:
                tmapd_pb2_grpc.TmapdStub(ch).Describe(tmapd_pb2.DescribeRequest(), timeout=5)
            self.assertGreaterEqual(open_fds(server.proc.pid), base + 20)
            self.assertTrue(wait_until(lambda: open_fds(server.proc.pid) <= base + 2, 10), open_fds(server.proc.pid) - base)
            for ch in chans:
                ch.close()
        finally:
            server.stop()

    def test_streams_and_threads_are_bounded(self):
        # Open streams are bounded by --max-streams: each stream past it closes the one that waited longest.
        server = Tmapd("--max-streams", "50")
        try:
            idle_threads = threads(server.proc.pid)
            release = threading.Event()

            def idle():
                release.wait(60)
                return
                yield  # a generator that sends nothing until released

            chans = [grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)])
                     for _ in range(4)]
            calls = [tmapd_pb2_grpc.TmapdStub(chans[i % 4]).ValidateBatch(idle(), timeout=60) for i in range(200)]
            refused = []

            def count():
                refused.clear()
                for c in calls:
                    if c.done() and c.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        refused.append(c)
                return len(refused) == 150

            self.assertTrue(wait_until(count, 20), len(refused))
            self.assertIn("--max-streams", refused[0].details())
            self.assertLess(threads(server.proc.pid), idle_threads + 16)
            # Waiting streams hold no slot of the calls in progress: unary calls are answered beside them.
            tmapd_pb2_grpc.TmapdStub(chans[0]).Describe(tmapd_pb2.DescribeRequest(), timeout=5)
            release.set()
            for c in calls:
                c.cancel()
            self.assertTrue(wait_until(lambda: answers(server.address), 10))
            for ch in chans:
                ch.close()
        finally:
            server.stop()
        self.assertIn("method=ValidateBatch status=RESOURCE_EXHAUSTED", server.log())

    def test_corrupt_batch_message_fails_the_stream(self):
        server = Tmapd()
        try:
            with grpc.insecure_channel(server.address) as ch:
                for svc in ("tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd"):
                    raw = ch.stream_stream("/%s/ValidateBatch" % svc)
                    good = tmapd_pb2.BatchRequest(specs=[good_spec(), bad_spec()]).SerializeToString()
                    got = []
                    with self.assertRaises(grpc.RpcError) as e:
                        for r in raw(iter([good, b"\xff\xff\xff", good]), timeout=10):
                            got.append(tmapd_pb2.BatchResponse.FromString(r))
                    self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                    self.assertIn("message 2 of the stream", e.exception.details())
                    self.assertIn("2 specs were answered before it", e.exception.details())
                    self.assertEqual(sum(len(r.results) for r in got), 2)
        finally:
            server.stop()
        self.assertIn("method=ValidateBatch status=INVALID_ARGUMENT", server.log())

    def test_first_index_is_validated(self):
        server = Tmapd()
        try:
            with grpc.insecure_channel(server.address) as ch:
                stub = tmapd_pb2_grpc.TmapdStub(ch)
                r = list(stub.ValidateBatch(iter([tmapd_pb2.BatchRequest(specs=[good_spec()], first_index=2147483647)])))
                self.assertEqual(r[0].results[0].index, 2147483647)
                for first, n in ((2147483647, 3), (2147483600, 100), (-1, 1)):
                    with self.assertRaises(grpc.RpcError) as e:
                        list(stub.ValidateBatch(iter([tmapd_pb2.BatchRequest(specs=[good_spec()] * n, first_index=first)])))
                    self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                    self.assertEqual(trailing(e.exception, "tmapgen-field"), "first_index")
                # Indices that continue across messages are bounded too.
                with self.assertRaises(grpc.RpcError) as e:
                    list(stub.ValidateBatch(iter([tmapd_pb2.BatchRequest(specs=[good_spec()], first_index=2147483647),
                                                  tmapd_pb2.BatchRequest(specs=[good_spec()])])))
                self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                self.assertTrue(stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()), timeout=5).valid)
        finally:
            self.assertEqual(server.stop(), 0)

    def test_responses_over_the_limit_are_refused_and_logged(self):
        server = Tmapd("--max-message-bytes", "65536")
        try:
            with grpc.insecure_channel(server.address) as ch:
                stub = tmapd_pb2_grpc.TmapdStub(ch)
                s = good_spec()
                s.name = "n" * 20000  # a 20 KB request; its report and rendering repeat the name
                opts = tmapd_pb2.RenderOptions(format=tmapd_pb2.OUTPUT_TEXTPROTO)
                with self.assertRaises(grpc.RpcError) as e:
                    stub.Validate(tmapd_pb2.ValidateRequest(spec=s, options=opts), timeout=5)
                self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
                self.assertIn("over the message limit of 65536 bytes", e.exception.details())
                with self.assertRaises(grpc.RpcError) as e:
                    list(stub.ValidateBatch(iter([tmapd_pb2.BatchRequest(specs=[good_spec(), s], options=opts)]), timeout=5))
                self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
                self.assertIn("the result of spec 1", e.exception.details())
                self.assertTrue(stub.Validate(tmapd_pb2.ValidateRequest(spec=good_spec()), timeout=5).valid)
        finally:
            server.stop()
        log = server.log()
        self.assertIn("method=Validate status=RESOURCE_EXHAUSTED", log)
        self.assertIn("method=ValidateBatch status=RESOURCE_EXHAUSTED", log)
        self.assertNotIn("method=Validate status=CANCELLED", log)

    def test_token_is_checked_before_the_request_is_parsed(self):
        tok = os.path.join(TMP, "token-before")
        with open(tok, "w") as f:
            f.write("t0ken\n")
        server = Tmapd("--token-file", tok)
        try:
            with grpc.insecure_channel(server.address) as ch:
                for method in ("/tmapgen.v1.Tmapd/Validate", "/tmapgen.v2.Tmapd/MatrixDescriptor", "/tmapgen.v2.Tmapd/Codegen"):
                    raw = ch.unary_unary(method)
                    with self.assertRaises(grpc.RpcError) as e:
                        raw(b"\x0a\xff\xff", timeout=5)
                    self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED, method)
                    with self.assertRaises(grpc.RpcError) as e:
                        raw(b"\x0a\xff\xff", timeout=5, metadata=[("authorization", "Bearer t0ken")])
                    self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, method)
        finally:
            server.stop()

    def test_a_token_file_without_a_token_refuses_to_start(self):
        for i, content in enumerate(["", "   ", "\n", " \t\r\n", "two words\n"]):
            path = os.path.join(TMP, "token-%d" % i)
            with open(path, "w") as f:
                f.write(content)
            p = subprocess.run([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu", "--token-file", path],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, (content, p.stderr))
            self.assertIn("refusing to start" if i < 4 else "whitespace", p.stderr)
        p = subprocess.run([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu"], capture_output=True, text=True, timeout=30,
                           env=dict(os.environ, TMAPD_TOKEN=" "))
        self.assertEqual(p.returncode, 2, p.stderr)

    def test_unreadable_or_endless_credential_files_refuse_to_start(self):
        # Each names the flag and the reason; a file over 1 MiB stops at the limit instead of being read whole,
        # and a device (/dev/zero, endless) is not read at all.
        big = os.path.join(TMP, "token-big")
        with open(big, "w") as f:
            f.write("x" * (2 << 20))
        cases = [
            (["--token-file", "/nonexistent/token"], "--token-file: cannot open /nonexistent/token: No such file"),
            (["--token-file", "/dev/zero"], "--token-file: /dev/zero is not a regular file"),
            (["--token-file", big], "is longer than 1048576 bytes, the limit for --token-file"),
            (["--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"],
             "--tls-cert: cannot open /nonexistent/cert.pem"),
        ]
        for args, words in cases:
            p = subprocess.run([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu"] + args,
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertIn(words, p.stderr, args)

    def test_the_client_keeps_tokens_off_the_network(self):
        # A plaintext token to an address that is not loopback: refused before any connection.
        for target in ("10.255.255.1:50051", "ipv4:127.0.0.1:1,10.0.0.1:1", "dns:///192.0.2.1:50051"):
            p = subprocess.run([TMAPGEN, "--remote", target, "--token", "t0ken", "--mode", "tiled"], capture_output=True,
                               text=True, timeout=30)
            self.assertEqual(p.returncode, 2, target)
            self.assertIn("refusing to send the token in plaintext", p.stderr)
        p = subprocess.run([TMAPGEN, "--remote", "10.255.255.1:50051", "--mode", "tiled", "--deadline-ms", "300"],
                           capture_output=True, text=True, timeout=30)
        self.assertNotIn("refusing", p.stderr)  # without a token there is nothing to protect
        tok = os.path.join(TMP, "token-client")
        with open(tok, "w") as f:
            f.write("t0ken\n")
        server = Tmapd("--token-file", tok)
        try:
            port = server.address.rsplit(":", 1)[1]
            for target in (server.address, "localhost:" + port, "dns:///localhost:" + port):
                p = subprocess.run([TMAPGEN, "--remote", target, "--token", "t0ken", "--mode", "tiled"], capture_output=True,
                                   text=True, timeout=30)
                self.assertEqual(p.returncode, 0, (target, p.stderr))
        finally:
            server.stop()

    def test_a_stalled_log_reader_does_not_stop_the_service(self):
        """stderr is a pipe that nobody reads after the first line: the log buffers (bounded) and the calls
        go on."""
        proc = subprocess.Popen([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            addr = proc.stderr.readline().split("listening on ")[1].split(" ")[0]
            load = os.path.join(os.path.dirname(TMAPD), "tmapd_load")
            p = subprocess.run([load, "--target", addr, "--mode", "unary", "--concurrency", "8", "--requests", "30000",
                                "--seconds", "60"], capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("30000 requests (0 failed)", p.stdout)
            self.assertTrue(answers(addr))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            rest = proc.stderr.read()  # drains the pipe: the server can finish writing and exit
            proc.wait(timeout=30)
        self.assertIn("method=Validate status=OK", rest)

    def test_the_client_bounds_response_sizes(self):
        server = Tmapd()
        try:
            g = os.path.join(TMP, "big.jsonl")
            subprocess.run([sys.executable, os.path.join(SRC, "scripts", "dev", "gen-specs.py"), "50", g], check=True,
                           capture_output=True)
            base = [TMAPGEN, "--remote", server.address]
            p = subprocess.run(base + ["--max-response-bytes", "1024", "validate", "--format", "textproto", g],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2)
            self.assertIn("RESOURCE_EXHAUSTED", p.stderr)
            p = subprocess.run(base + ["validate", "--format", "textproto", g], capture_output=True, text=True, timeout=30)
            self.assertIn(p.returncode, (0, 1), p.stderr)
        finally:
            server.stop()


class GenericClientTest(unittest.TestCase):
    """A client that has no .proto files, as grpcurl: the request types come from server reflection, the
    bodies are the JSON of docs/service.md's grpcurl lines (Protobuf's JSON mapping), and the call is a
    raw one. Also the v2 API from a Python client with generated stubs."""

    @classmethod
    def setUpClass(cls):
        cls.server = Tmapd()
        cls.channel = grpc.insecure_channel(cls.server.address)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.server.stop()

    def test_documented_grpcurl_calls(self):
        import re
        from google.protobuf import descriptor_pool, json_format, message_factory
        with open(os.path.join(SRC, "docs", "service.md")) as f:
            calls = re.findall(r"grpcurl -plaintext -d '([^']*)' \S+ ([\w.]+)/(\w+)", f.read())
        self.assertGreaterEqual(len(calls), 3)
        refl = reflection_pb2_grpc.ServerReflectionStub(self.channel)
        for body, service, method in calls:
            pool = descriptor_pool.DescriptorPool()
            seen = set()
            todo = [reflection_pb2.ServerReflectionRequest(file_containing_symbol=service)]
            files = {}
            while todo:
                for a in refl.ServerReflectionInfo(iter(todo)):
                    for blob in a.file_descriptor_response.file_descriptor_proto:
                        fd = descriptor_pb2.FileDescriptorProto.FromString(blob)
                        files[fd.name] = fd
                todo = []
                for fd in list(files.values()):
                    for dep in fd.dependency:
                        if dep not in files and dep not in seen:
                            seen.add(dep)
                            todo.append(reflection_pb2.ServerReflectionRequest(file_by_filename=dep))
            added = set()

            def add(name):
                if name in added:
                    return
                for dep in files[name].dependency:
                    add(dep)
                pool.Add(files[name])
                added.add(name)

            for name in files:
                add(name)
            m = pool.FindMethodByName(service + "." + method)
            req_cls = message_factory.MessageFactory(pool).GetPrototype(m.input_type)
            res_cls = message_factory.MessageFactory(pool).GetPrototype(m.output_type)
            req = json_format.Parse(body, req_cls())
            raw = self.channel.unary_unary("/%s/%s" % (service, method))
            res = res_cls.FromString(raw(req.SerializeToString(), timeout=10))
            self.assertTrue(res.rendered, (method, json_format.MessageToJson(res)[:300]))

    def test_decode_recovers_what_the_driver_was_given(self):
        """Maps the real driver wrote (tests/blob/data), sent as bytes: the recovered spec has the parameters
        of the call that made each one (the corpus records them)."""
        import gzip
        import json
        v2 = tmapd_v2_pb2_grpc.TmapdStub(self.channel)
        rows = []
        with gzip.open(os.path.join(SRC, "tests", "blob", "data", "shared_corpus_sample.jsonl.gz"), "rt") as f:
            for line in f:
                r = json.loads(line)
                if r.get("bytes") and r.get("driver_result") == 0 and (r["mode"] == "tiled") == (len(rows) % 2 == 0):
                    rows.append(r)  # tiled and im2col maps, alternating
                if len(rows) == 200:
                    break
        req = tmapd_v2_pb2.DecodeRequest(maps=[bytes.fromhex(r["bytes"]) for r in rows], target="sm_90a")
        res = v2.Decode(req, timeout=30)
        self.assertEqual(len(res.maps), len(rows))
        for r, m in zip(rows, res.maps):
            self.assertTrue(m.spec_recovered, m.label)
            self.assertEqual(list(m.spec.global_dim), r["global_dim"])
            if "box_dim" in r:
                self.assertEqual(list(m.spec.box_dim), r["box_dim"])
            else:
                self.assertEqual(m.spec.channels_per_pixel, r["channels_per_pixel"])
                self.assertEqual(m.spec.pixels_per_column, r["pixels_per_column"])
            self.assertEqual(list(m.spec.global_strides), r["global_strides"])
            self.assertEqual(tmapgen_pb2.TensorDataType.Name(m.spec.tensor_data_type),
                             "CU_TENSOR_MAP_DATA_TYPE_" + r["tensor_data_type"])
            self.assertEqual(m.spec.global_address, r["global_address"])
            self.assertTrue(m.reencodes)
            self.assertEqual(m.report.valid, m.valid)
            self.assertTrue(m.fields)
        for bad, field in ((b"\x00" * 127, "maps[0]"), (b"", "maps[0]")):
            with self.assertRaises(grpc.RpcError) as e:
                v2.Decode(tmapd_v2_pb2.DecodeRequest(maps=[bad]))
            self.assertEqual(e.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertEqual(trailing(e.exception, "tmapgen-field"), field)

    def test_v2_stubs(self):
        v2 = tmapd_v2_pb2_grpc.TmapdStub(self.channel)
        r = v2.MatrixDescriptor(tmapd_v2_pb2.MatrixDescriptorRequest(
            operation=tmapd_v2_pb2.MatrixDescriptorRequest.BUILD, family=tmapd_v2_pb2.TCGEN05,
            layout=tmapd_v2_pb2.MatrixLayout(tile=tmapd_v2_pb2.Tile(mn=128, k=64))))
        # The tcgen05 shared-memory descriptor's fields, PTX ISA 9.7.16.4.1 Table 40.
        self.assertEqual([(f.name, f.lo, f.width) for f in r.fields],
                         [("start_address", 0, 14), ("leading_byte_offset", 16, 14), ("stride_byte_offset", 32, 14),
                          ("fixed_0b001", 46, 3), ("base_offset", 49, 3), ("lbo_mode", 52, 1), ("fixed_zero", 53, 8),
                          ("layout_type", 61, 3)])
        self.assertEqual(r.fields[3].encoded, 1)  # the fixed 0b001
        self.assertEqual(r.rendered, "")  # nothing asked to render
        i = v2.InstructionDescriptor(tmapd_v2_pb2.InstructionDescriptorRequest(
            operation=tmapd_v2_pb2.InstructionDescriptorRequest.DECODE, value=0x08200490))
        self.assertEqual(len(i.by_kind), 7)
        c = v2.Codegen(tmapd_v2_pb2.CodegenRequest(specs=[good_spec()], language=tmapd_v2_pb2.JSON))
        self.assertTrue(c.generated)
        self.assertEqual(c.files[0].name, "tmapgen_gen.json")
        with self.assertRaises(grpc.RpcError) as e:
            v2.Check(tmapd_v2_pb2.CheckRequest(specs=[tmapd_v2_pb2.NamedSpec(name="a", spec=good_spec())]))
        self.assertEqual(e.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)
        self.assertEqual(list(v2.Describe(tmapd_pb2.DescribeRequest()).services), ["tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd"])


class CliTest(unittest.TestCase):
    """tmapgen --remote prints what tmapgen prints, with the same exit status."""

    @classmethod
    def setUpClass(cls):
        # Uses the GPU where there is one, like the local command: on a GPU host the outputs compared
        # include the driver's encoding.
        cls.server = Tmapd(gpu=True)
        d = os.path.join(TMP, "cli")
        os.makedirs(d, exist_ok=True)
        cls.dir = d
        subprocess.run([sys.executable, os.path.join(SRC, "scripts", "dev", "gen-specs.py"), "2000", os.path.join(d, "g.jsonl"),
                        "--seed", "11", "--invalid-frac", "0.5"], check=True, capture_output=True)
        with open(os.path.join(d, "bad.jsonl"), "w") as f:
            f.write('{"mode":"tiled"}\n{"mode": 99}\nnot json\n{"tensor_rank": 3, "global_dim":[1,2]}\n')
        with open(os.path.join(d, "arr.json"), "w") as f:
            f.write('[{"mode":"tiled"}, {"mode":"bogus"}, {"swizzle":"128B"}]')
        with open(os.path.join(d, "t.textproto"), "w") as f:
            f.write("mode: TILED\n---\nmode: FOO\n---\ntensor_rank: 2\n")

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0

    def same(self, *args, stdin=None):
        env = dict(os.environ, NO_COLOR="1")
        local = subprocess.run([TMAPGEN] + list(args), capture_output=True, input=stdin, env=env)
        remote = subprocess.run([TMAPGEN, "--remote", self.server.address] + list(args), capture_output=True,
                                input=stdin, env=env)
        self.assertEqual(remote.returncode, local.returncode, (args, remote.stderr[-500:]))
        self.assertEqual(remote.stdout, local.stdout, args)
        self.assertEqual(remote.stderr, local.stderr, args)
        return local.returncode

    def test_validate(self):
        g, bad, arr, tp = (os.path.join(self.dir, n) for n in ("g.jsonl", "bad.jsonl", "arr.json", "t.textproto"))
        for fmt in ("text", "json", "textproto"):
            self.assertEqual(self.same("validate", "--format", fmt, g), 1)
            self.assertEqual(self.same("validate", "--format", fmt, bad, arr, tp), 2)
            self.same("validate", "--format", fmt, "--target", "sm_100a", "--quiet", g)
        self.same("validate", "--color", "always", g)
        self.same("validate", "no-such-file.json", bad)
        with open(g, "rb") as f:
            self.same("validate", "-", stdin=f.read())

    def test_build(self):
        self.assertEqual(self.same("--mode", "im2col::w", "--swizzle", "128B"), 0)
        self.same("--mode", "gather4", "--format", "textproto")
        self.same("--mode", "im2col", "--format", "json", "--color", "always")
        self.assertEqual(self.same("--dims", "3,3"), 1)
        self.same("build", "--spec", os.path.join(self.dir, "arr.json"))
        self.assertEqual(self.same("--bogus-flag"), 2)
        self.assertEqual(self.same("--dims", "x"), 2)
        self.assertEqual(self.same("validate"), 2)
        self.assertEqual(self.same("frobnicate"), 2)
        self.same("rules")  # runs locally
        self.same("--help")

    def test_descriptors(self):
        self.same("desc", "wgmma", "--tile", "64,16")
        self.same("desc", "tcgen05", "--tile", "128,64", "--format", "json")
        self.same("desc", "decode", "0x4000004000010001")
        self.same("idesc", "--kind", "f16", "--m", "64", "--n", "64")
        self.same("idesc", "--kind", "f16", "--a-source", "tmem", "--m", "128", "--n", "64", "--format", "json")
        self.same("idesc", "decode", "0x08200490", "--a-source", "tmem", "--kind", "f16")
        self.same("idesc", "decode", "0x08200490")
        self.same("idesc", "--kind", "i8", "--m", "96")  # invalid: exit 1
        self.same("idesc", "--help", "--kind", "f16")  # runs locally
        self.same("desc", "wgmma", "--bogus")
        m = os.path.join(self.dir, "map.json")
        with open(m, "w") as f:
            f.write('{"mode":"tiled","tensor_data_type":"f16","tensor_rank":2,"global_dim":[4096,4096],'
                    '"box_dim":[64,64],"swizzle":"128B"}\n')
        self.same("desc", "wgmma", "--for-map", m)  # the file travels inline; messages name it
        self.same("desc", "tcgen05", "--for-map=" + m, "--format", "json")
        self.same("desc", "wgmma", "--for-map", m, "--check", "0x4000004000010001")
        self.same("desc", "decode", "0x4000004000010001", "--for-map", m)
        self.same("desc", "wgmma", "--for-map", os.path.join(self.dir, "no-such-map.json"))

    def test_decode(self):
        import gzip
        import json
        lines = []
        with gzip.open(os.path.join(SRC, "tests", "blob", "data", "shared_corpus_sample.jsonl.gz"), "rt") as f:
            for line in f:
                lines.append(line)
                if len(lines) == 30:
                    break
        corpus = os.path.join(self.dir, "maps.jsonl")
        with open(corpus, "w") as f:
            f.writelines(lines)
        hexmap = json.loads(lines[0])["bytes"]
        binary = os.path.join(self.dir, "maps.bin")
        with open(binary, "wb") as f:
            f.write(bytes.fromhex(hexmap) + bytes.fromhex(json.loads(lines[1])["bytes"]))
        self.same("decode", hexmap)
        self.same("decode", "--format", "json", corpus)
        self.same("decode", "--target", "sm_100a", "--color", "always", binary)
        self.same("decode", "--no-validate", binary)
        self.same("decode", "ff" * 128)  # exit 1: bits no driver writes
        self.same("decode", "zz")  # exit 2: not a map
        self.same("decode", "--target", "sm_42", hexmap)
        self.same("decode", "-", stdin=bytes.fromhex(hexmap))

    def test_codegen(self):
        m = os.path.join(self.dir, "cg.json")
        with open(m, "w") as f:
            f.write('{"name":"a_tile","tensor_data_type":"bf16","global_dim":[1024,1024],"box_dim":[64,64],'
                    '"swizzle":"128B","target":"sm_90a"}\n')
        bad = os.path.join(self.dir, "cg_bad.json")
        with open(bad, "w") as f:
            f.write('{"tensor_data_type":"bf16","global_dim":[1000,64],"global_strides":[2008],"box_dim":[64,64]}\n')
        self.same("codegen", m, "--lang", "cpp")
        self.same("codegen", m, "--lang=json")
        self.same("codegen", m, "--lang", "ptx", "--desc", "a_tile:wgmma:A:K")
        self.same("codegen", bad, "--lang", "cpp")  # exit 1: the report on stderr, nothing on stdout
        self.same("codegen", m, "--lang", "fortran")  # exit 2: the usage error names the flag
        out = os.path.join(self.dir, "remote.h")
        p = subprocess.run([TMAPGEN, "--remote", self.server.address, "codegen", m, "-o", out],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        local = subprocess.run([TMAPGEN, "codegen", m], capture_output=True, text=True)
        with open(out) as f:
            self.assertEqual(f.read(), local.stdout)

    def test_plan(self):
        """plan gemm and plan conv: text, JSON, the generated header, invalid plans (exit 1; with --format cpp the
        report on stderr), usage errors and --help (local), each byte for byte."""
        self.assertEqual(self.same("plan", "gemm"), 0)
        self.same("plan", "gemm", "--format", "json", "--pretty")
        self.same("plan", "gemm", "--m", "1000", "--n", "1000", "--k", "1000", "--format", "cpp", "--namespace", "g")
        self.same("plan", "gemm", "--cluster", "2x2", "--multicast", "ab", "--format", "json")
        self.same("plan", "gemm", "--cluster", "4x1", "--multicast", "b", "--multicast-issue", "leader", "--format", "cpp")
        self.same("plan", "gemm", "--target", "sm_100a", "--cta-group", "2", "--cluster", "2x1", "--bn", "256",
                  "--format", "cpp")
        self.assertEqual(self.same("plan", "gemm", "--dtype", "e4m3", "--tile", "128x256x128", "--stages", "4"), 1)
        self.assertEqual(self.same("plan", "gemm", "--dtype", "e4m3", "--tile", "128x256x128", "--stages", "4",
                                   "--format", "cpp"), 1)
        self.assertEqual(self.same("plan", "gemm", "--bm", "300"), 2)
        self.assertEqual(self.same("plan", "gemm", "--bogus"), 2)
        self.same("plan", "gemm", "--help")
        self.same("plan", "--help")
        self.assertEqual(self.same("plan"), 2)
        self.assertEqual(self.same("plan", "conv", "--format", "json"), 0)
        self.same("plan", "conv", "-h", "30", "--w", "30", "--stride", "2", "--format", "cpp")
        self.same("plan", "conv", "--d", "8", "--t", "3", "--pad", "1,1,1", "--cluster", "2x1", "--multicast", "b")
        self.same("plan", "conv", "--target", "sm_100a", "--format", "json")
        self.assertEqual(self.same("plan", "conv", "--d", "40", "--t", "32", "--r", "32", "--s", "32", "--format", "cpp"), 1)
        self.assertEqual(self.same("plan", "conv", "--s", "60"), 2)
        # The command ran on the server (the log names the method), not locally.
        for _ in range(100):  # the log is written every 20 ms
            log = self.server.log()
            if "method=PlanConv status=OK" in log:
                break
            time.sleep(0.05)
        self.assertIn("method=PlanGemm status=OK", log)
        self.assertIn("method=PlanConv status=OK", log)

    def test_check(self):
        spec = os.path.join(self.dir, "one.json")
        with open(spec, "w") as f:
            f.write('{"mode":"tiled","tensor_data_type":"f16","global_dim":[256,256],"box_dim":[64,64]}\n')
        with grpc.insecure_channel(self.server.address) as ch:
            d = tmapd_pb2_grpc.TmapdStub(ch).Describe(tmapd_pb2.DescribeRequest())
        if d.check_available:  # a GPU host: the same report as the local check
            self.same("check", spec)
        else:
            p = subprocess.run([TMAPGEN, "--remote", self.server.address, "check", spec], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("FAILED_PRECONDITION", p.stderr)

    def test_server_down_is_exit_2(self):
        p = subprocess.run([TMAPGEN, "--remote", "127.0.0.1:1", "--mode", "tiled"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("UNAVAILABLE", p.stderr)


class ScaleTest(unittest.TestCase):
    def test_round_robin_over_two_servers(self):
        a, b = Tmapd(), Tmapd()
        try:
            target = "ipv4:%s,%s" % (a.address, b.address)
            with grpc.insecure_channel(target, options=[("grpc.lb_policy_name", "round_robin")]) as ch:
                stub = tmapd_pb2_grpc.TmapdStub(ch)
                # round_robin uses a replica once its connection is up; on a loaded machine the second may come
                # up some calls after the first.
                seen = set()
                end = time.time() + 20
                while len(seen) < 2 and time.time() < end:
                    seen.add(stub.Describe(tmapd_pb2.DescribeRequest(), wait_for_ready=True, timeout=10).instance)
            self.assertEqual(seen, {a.address, b.address})
            g = os.path.join(TMP, "rr.jsonl")
            subprocess.run([sys.executable, os.path.join(SRC, "scripts", "dev", "gen-specs.py"), "50", g], check=True,
                           capture_output=True)
            for _ in range(4):
                p = subprocess.run([TMAPGEN, "--remote", target, "--mode", "tiled"], capture_output=True)
                self.assertEqual(p.returncode, 0, p.stderr)
        finally:
            a.stop()
            b.stop()
        self.assertIn("method=Build", a.log() + b.log())


class FakeTmapd:
    """A tmapgen.v2.Tmapd that answers what a test tells it to (`batch`: a function from the requests of a
    ValidateBatch stream and the context to the responses), to see what tmapgen --remote makes of answers
    tmapd would never send. `health`: the grpc.health.v1 status it reports, as tmapd reports its own."""

    def __init__(self, batch=None, max_message_bytes=4 << 20, health=health_pb2.HealthCheckResponse.SERVING):
        from concurrent import futures
        self.batch = batch
        self.requests = []  # the BatchRequests received, as sent
        self.describe = tmapd_pb2.DescribeResponse(max_message_bytes=max_message_bytes, max_specs_per_message=10000,
                                                   max_specs_per_call=10000000)
        self.stopping = threading.Event()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=16),
                                  options=[("grpc.max_receive_message_length", 64 << 20)])
        self.build = None  # Build: a function (request, context) -> Result
        self.build_calls = 0

        def build(req, ctx):
            self.build_calls += 1
            return self.build(req, ctx)
        handlers = {
            "Build": grpc.unary_unary_rpc_method_handler(
                build, request_deserializer=tmapd_pb2.BuildRequest.FromString,
                response_serializer=tmapd_pb2.Result.SerializeToString),
            "Describe": grpc.unary_unary_rpc_method_handler(
                lambda req, ctx: self.describe, request_deserializer=tmapd_pb2.DescribeRequest.FromString,
                response_serializer=tmapd_pb2.DescribeResponse.SerializeToString),
            "ValidateBatch": grpc.stream_stream_rpc_method_handler(
                self._batch, request_deserializer=tmapd_pb2.BatchRequest.FromString,
                response_serializer=tmapd_pb2.BatchResponse.SerializeToString),
        }
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("tmapgen.v2.Tmapd", handlers),))
        fake = self

        class Health(health_pb2_grpc.HealthServicer):
            def Check(self, req, ctx):
                return health_pb2.HealthCheckResponse(status=health)

            def Watch(self, req, ctx):
                yield health_pb2.HealthCheckResponse(status=health)
                fake.stopping.wait()

        health_pb2_grpc.add_HealthServicer_to_server(Health(), self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.address = "127.0.0.1:%d" % self.port
        self.server.start()

    def _batch(self, request_iterator, ctx):
        def requests():
            for r in request_iterator:
                self.requests.append(r)
                yield r
        yield from self.batch(requests(), ctx)

    def stop(self):
        self.stopping.set()
        self.server.stop(0).wait()


def fake_result(index, valid=True, rendered=None):
    """A result as tmapd sends it for --format text: the rendered text, and fields that agree."""
    r = tmapd_pb2.Result(index=index, valid=valid, valid_targets_mask=2 if valid else 0,
                         rendered=("spec %d answered\n" % index) if rendered is None else rendered)
    if not valid:
        r.error_rules.append("some-rule")
    return r


def indices(requests):
    """The index of every spec of a stream's requests, in order (first_index as tmapd reads it)."""
    out, nxt = [], 0
    for r in requests:
        if r.HasField("first_index"):
            nxt = r.first_index
        for _ in r.specs:
            out.append(nxt)
            nxt += 1
    return out


class ClientDistrustTest(unittest.TestCase):
    """tmapgen --remote checks every response of a batch stream before it prints any of it: a server that
    answers the wrong spec, answers twice, miscounts or stops early makes it fail with exit 2, saying how
    many specs were answered, never crash or report success."""

    @classmethod
    def setUpClass(cls):
        d = os.path.join(TMP, "distrust")
        os.makedirs(d, exist_ok=True)
        cls.specs = os.path.join(d, "three.jsonl")
        with open(cls.specs, "w") as f:
            for _ in range(3):
                f.write('{"mode":"tiled","tensor_data_type":"f16","global_dim":[256,256],"box_dim":[64,64],'
                        '"target":"sm_90a"}\n')

    def run_against(self, batch, *extra, **kw):
        fake = FakeTmapd(batch, **kw)
        try:
            p = subprocess.run([TMAPGEN, "--remote", fake.address, "--deadline-ms", "20000", "validate"] + list(extra) +
                               [self.specs], capture_output=True, text=True, timeout=60)
        finally:
            fake.stop()
        return p, fake

    def assert_refused(self, batch, answered, *says):
        p, _ = self.run_against(batch)
        self.assertEqual(p.returncode, 2, p.stderr)  # never a signal (SIGSEGV, abort) or success
        self.assertIn("%d of 3 specs answered%s, %d not answered" % (answered, " (printed above)" if answered else "",
                                                                     3 - answered), p.stderr)
        for s in says:
            self.assertIn(s, p.stderr)
        self.assertEqual(p.stdout, "".join("spec %d answered\n" % i for i in range(answered)))
        return p

    def test_index_far_past_the_input(self):
        def batch(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(50000000)], valid=1)
        self.assert_refused(batch, 0, "bad response from 127.0.0.1:", "result index 50000000: expected 0",
                            "past the last input")

    def test_negative_index(self):
        def batch(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0)], valid=1)
            yield tmapd_pb2.BatchResponse(results=[fake_result(-5)], valid=1)
        self.assert_refused(batch, 1, "result index -5: expected 1", "negative")

    def test_repeated_and_skipped_indices(self):
        def repeated(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0), fake_result(0)], valid=2)
        self.assert_refused(repeated, 0, "result index 0: expected 1", "answered already")

        def skipped(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0), fake_result(2)], valid=2)
        self.assert_refused(skipped, 0, "result index 2: expected 1", "out of order")

    def test_stream_ends_ok_with_specs_unanswered(self):
        def batch(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0)], valid=1)
        self.assert_refused(batch, 1, "ended the stream (OK) with 2 of its 3 specs unanswered")

    def test_counts_and_fields_must_agree(self):
        def miscounted(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(i) for i in range(3)], valid=5)
        self.assert_refused(miscounted, 0, "a response counts 5 valid and 0 invalid for 3 valid and 0 invalid results")

        def valid_without_targets(reqs, ctx):
            list(reqs)
            r = fake_result(0)
            r.valid_targets_mask = 0
            yield tmapd_pb2.BatchResponse(results=[r], valid=1)
        self.assert_refused(valid_without_targets, 0, "result 0: valid is true but valid_targets_mask is 0x0")

        def invalid_without_errors(reqs, ctx):
            list(reqs)
            r = fake_result(0, valid=False)
            del r.error_rules[:]
            yield tmapd_pb2.BatchResponse(results=[r], invalid=1)
        self.assert_refused(invalid_without_errors, 0, "result 0: valid is false with 0 error rules")

        def empty(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse()
        self.assert_refused(empty, 0, "a response with no results")

        def unrendered(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0, rendered="")], valid=1)
        self.assert_refused(unrendered, 0, "result 0: nothing rendered")

    def test_a_failed_stream_says_what_was_answered(self):
        def batch(reqs, ctx):
            list(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(0)], valid=1)
            ctx.abort(grpc.StatusCode.INVALID_ARGUMENT, "request: something the server did not like")
        self.assert_refused(batch, 1, "INVALID_ARGUMENT: request: something the server did not like")

    def test_a_broken_stream_resumes_from_the_first_unanswered_spec(self):
        streams = []

        def batch(reqs, ctx):
            got = indices(reqs)
            streams.append(got)
            if len(streams) == 1:
                yield tmapd_pb2.BatchResponse(results=[fake_result(got[0])], valid=1)
                ctx.abort(grpc.StatusCode.UNAVAILABLE, "going away")
            yield tmapd_pb2.BatchResponse(results=[fake_result(i) for i in got], valid=len(got))
        p, _ = self.run_against(batch)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(streams, [[0, 1, 2], [1, 2]])
        self.assertEqual(p.stdout, "spec 0 answered\nspec 1 answered\nspec 2 answered\n")
        self.assertRegex(p.stderr, r"tmapgen: replica 127\.0\.0\.1:\d+ failed after 1 of 3 specs \(UNAVAILABLE: going away\); "
                         r"resuming the remaining 2 on another replica\n3 specs: 3 valid, 0 invalid\n")

    def test_streams_hold_at_most_max_specs_per_call(self):
        streams = []

        def batch(reqs, ctx):
            got = indices(reqs)
            streams.append(got)
            yield tmapd_pb2.BatchResponse(results=[fake_result(i) for i in got], valid=len(got))
        fake = FakeTmapd(batch)
        fake.describe.max_specs_per_call = 2
        try:
            p = subprocess.run([TMAPGEN, "--remote", fake.address, "validate", self.specs], capture_output=True, text=True,
                               timeout=60)
        finally:
            fake.stop()
        self.assertEqual((p.returncode, p.stderr), (0, "3 specs: 3 valid, 0 invalid\n"))
        self.assertEqual(streams, [[0, 1], [2]])

    def test_messages_stay_under_the_advertised_limit(self):
        """Messages are packed by bytes under the limit the server advertises; a spec that no message can
        carry is an input error naming its place, and the other specs are sent and answered."""
        d = os.path.join(TMP, "distrust")
        f = os.path.join(d, "mixed.jsonl")
        small = '{"mode":"tiled","tensor_data_type":"f16","global_dim":[256,256],"box_dim":[64,64]}'
        big = ('{"mode":"im2col","tensor_data_type":"f16","tensor_rank":5,"global_dim":[64,16,16,16,8],'
               '"global_strides":[128,2048,32768,524288],"box_dim":[64,1,1,1,1],"element_strides":[1,1,1,1,1],'
               '"pixel_box_lower_corner":[-1,-1,-1],"pixel_box_upper_corner":[1,1,1],"channels_per_pixel":64,'
               '"pixels_per_column":32,"global_address":1099511627776,"smem_address":1024,"target":"sm_90a"}')
        with open(f, "w") as out:
            out.write("\n".join([small] * 10 + [big] + [small] * 10) + "\n")

        def batch(reqs, ctx):
            got = indices(reqs)
            yield tmapd_pb2.BatchResponse(results=[fake_result(i) for i in got], valid=len(got))
        fake = FakeTmapd(batch, max_message_bytes=96)
        try:
            p = subprocess.run([TMAPGEN, "--remote", fake.address, "validate", f], capture_output=True, text=True,
                               timeout=60)
        finally:
            fake.stop()
        self.assertEqual(p.returncode, 2, p.stderr)  # the spec not sent is an input error, as locally
        self.assertEqual(indices(fake.requests), list(range(10)) + list(range(11, 21)))
        self.assertTrue(all(r.ByteSize() <= 96 for r in fake.requests), [r.ByteSize() for r in fake.requests])
        self.assertGreater(len(fake.requests), 2)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 21)
        self.assertRegex(lines[10], r"^%s:11: error\[input-error\] spec is \d+ bytes, over the server's message limit of "
                         r"96 bytes \(Describe.max_message_bytes\); it was not sent \(spec 10\)$" % re.escape(f))
        self.assertEqual(p.stderr, "21 specs: 20 valid, 1 invalid (1 unreadable)\n")

    def test_unary_calls_are_retried_on_unavailable(self):
        """The service config's retryPolicy: a unary call that fails UNAVAILABLE is made again by gRPC."""
        fake = FakeTmapd()

        def build(req, ctx):
            if fake.build_calls == 1:
                ctx.abort(grpc.StatusCode.UNAVAILABLE, "try again")
            return fake_result(0, rendered="built\n")
        fake.build = build
        try:
            p = subprocess.run([TMAPGEN, "--remote", fake.address, "--mode", "tiled"], capture_output=True, text=True,
                               timeout=60)
        finally:
            fake.stop()
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "built\n", ""))
        self.assertEqual(fake.build_calls, 2)

    def test_unhealthy_replicas_get_no_calls(self):
        """The client balances over the replicas whose grpc.health.v1 status is SERVING."""
        real = Tmapd()

        def batch(reqs, ctx):
            list(reqs)
            ctx.abort(grpc.StatusCode.INTERNAL, "this replica said it was not serving")
            yield from ()
        fake = FakeTmapd(batch, health=health_pb2.HealthCheckResponse.NOT_SERVING)
        try:
            env = dict(os.environ, NO_COLOR="1")
            local = subprocess.run([TMAPGEN, "validate", self.specs], capture_output=True, text=True, env=env)
            for _ in range(6):
                p = subprocess.run([TMAPGEN, "--remote", "%s,%s" % (fake.address, real.address), "validate", self.specs],
                                   capture_output=True, text=True, env=env, timeout=60)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (local.returncode, local.stdout, local.stderr))
            self.assertEqual(fake.requests, [])
        finally:
            fake.stop()
            real.stop()


class LargeInputTest(unittest.TestCase):
    """Specs whose messages or reports are large: remote output equals local output byte for byte."""

    @classmethod
    def setUpClass(cls):
        cls.server = Tmapd()  # tmapd's default message limit, 4 MiB
        cls.dir = os.path.join(TMP, "large")
        os.makedirs(cls.dir, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0

    def same(self, *args):
        env = dict(os.environ, NO_COLOR="1")
        local = subprocess.run([TMAPGEN] + list(args), capture_output=True, env=env)
        remote = subprocess.run([TMAPGEN, "--remote", self.server.address] + list(args), capture_output=True, env=env,
                                timeout=120)
        self.assertEqual(remote.returncode, local.returncode, (args, remote.stderr[-500:]))
        self.assertEqual(remote.stdout, local.stdout, args)
        self.assertEqual(remote.stderr, local.stderr, args)
        return local

    def test_many_specs_with_5kb_names(self):
        """1,200 specs with 5 KB names: 6 MB of specs, more than one 4 MiB message holds."""
        f = os.path.join(self.dir, "names5k.jsonl")
        with open(f, "w") as out:
            for i in range(1200):
                out.write('{"name":"%s","mode":"tiled","tensor_data_type":"f16","global_dim":[1024,1024],'
                          '"box_dim":[64,%d],"target":"sm_90a"}\n' % (("%05d" % i) * 1000, 64 if i % 3 else 300))
        self.assertGreater(os.path.getsize(f), 4 << 20)
        for fmt in ("text", "json", "textproto"):
            self.assertEqual(self.same("validate", "--format", fmt, f).returncode, 1)

    def test_a_3mb_name(self):
        """Six specs in the text format, the third named by 3 MB: its JSON and text-format reports repeat the
        name (6 MB, over the server's limit), yet remote prints the six records local prints."""
        f = os.path.join(self.dir, "big.textproto")
        recs = []
        for i in range(6):
            name = "n" * (3 << 20) if i == 2 else "s%d" % i
            recs.append('name: "%s"\nmode: TILED\ntensor_data_type: CU_TENSOR_MAP_DATA_TYPE_FLOAT16\ntensor_rank: 2\n'
                        'global_dim: 1024\nglobal_dim: 1024\nbox_dim: 64\nbox_dim: %d\ntarget: "sm_90a"\n'
                        % (name, 64 if i % 2 == 0 else 300))
        with open(f, "w") as out:
            out.write("---\n".join(recs))
        local = self.same("validate", "--format", "textproto", f)
        self.assertEqual(local.stdout.count(b"\n---\n"), 6)
        self.same("validate", "--format", "json", f)
        self.same("validate", f)
        self.same("validate", "--quiet", "--format", "textproto", f)

    def test_long_names_that_need_escaping(self):
        """Long names with quotes, backslashes, control characters and non-ASCII text: JSON escapes them,
        text prints them as they are; remote equals local in every format."""
        import json
        f = os.path.join(self.dir, "escapes.jsonl")
        with open(f, "w") as out:
            for i, piece in enumerate(['a"b\\c', "tab\there\nnewline\x01\x1f", "\u00e9\u4e2d\U0001f600", "plain"]):
                name = piece * ((1 << 20) // len(piece) + 1)
                out.write(json.dumps({"name": name, "mode": "tiled", "tensor_data_type": "f16",
                                      "global_dim": [1024, 1024], "box_dim": [64, 64 if i % 2 else 300],
                                      "target": "sm_90a"}) + "\n")
        for fmt in ("text", "json", "textproto"):
            self.same("validate", "--format", fmt, f)
        self.same("validate", "--color", "always", f)


@unittest.skipUnless(os.environ.get("TMAPD_REPLICA_TEST"), "runs as its own test (tmapd_replica_test)")
class ReplicaTest(unittest.TestCase):
    """Three replicas on loopback, one killed (SIGKILL) in the middle of a batch of 200,000 specs: the client
    resumes the unanswered specs on another replica and prints what a local run prints."""

    def cpu_ticks(self, server):
        with open("/proc/%d/stat" % server.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    def test_a_replica_killed_mid_batch_loses_nothing(self):
        import hashlib
        n = int(os.environ.get("TMAPD_REPLICA_SPECS", "200000"))
        specs = os.path.join(TMP, "replicas.jsonl")
        subprocess.run([sys.executable, os.path.join(SRC, "scripts", "dev", "gen-specs.py"), str(n), specs, "--seed", "27",
                        "--input-error-frac", "0.001"], check=True, capture_output=True)
        env = dict(os.environ, NO_COLOR="1")

        def run(cmd, on_progress=None):
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            err = []
            t = threading.Thread(target=lambda: err.append(p.stderr.read()))
            t.start()
            h, size = hashlib.sha256(), 0
            while True:
                chunk = p.stdout.read(1 << 20)
                if not chunk:
                    break
                h.update(chunk)
                size += len(chunk)
                if on_progress:
                    on_progress(size)
            p.wait(timeout=300)
            t.join()
            return p.returncode, h.hexdigest(), size, err[0].decode()

        start = time.time()
        local = run([TMAPGEN, "validate", specs])
        replicas = [Tmapd() for _ in range(3)]
        killed = []
        try:
            target = ",".join(r.address for r in replicas)

            def kill_the_busy_one(size):
                # A quarter of the way: the replica that has used the most CPU is the one answering the stream.
                if not killed and size > local[2] // 4:
                    busy = max(replicas, key=self.cpu_ticks)
                    busy.proc.send_signal(signal.SIGKILL)
                    killed.append(busy)
            remote = run([TMAPGEN, "--remote", target, "validate", specs], kill_the_busy_one)
        finally:
            for r in replicas:
                r.stop()
        print("%d specs: local + remote with a replica killed: %.1f s" % (n, time.time() - start), file=sys.stderr)
        self.assertEqual(len(killed), 1)
        self.assertEqual(remote[:3], local[:3])  # exit status, output hash, output size
        unreadable = re.search(r"\((\d+) unreadable\)", local[3])
        sent = n - (int(unreadable.group(1)) if unreadable else 0)
        lines = remote[3].splitlines(True)
        self.assertEqual(lines[-1], local[3])  # the same summary line
        self.assertRegex("".join(lines[:-1]), r"^(tmapgen: replica %s failed after \d+ of %d specs \(\w+: [^\n]*\); resuming "
                         r"the remaining \d+ on another replica\n)+$" % (re.escape(killed[0].address), sent))
        survivors = [r for r in replicas if r is not killed[0]]
        self.assertIn("method=ValidateBatch status=OK", "".join(r.log() for r in survivors))


class ServerListTest(unittest.TestCase):
    def test_lists_and_targets(self):
        """--remote with a list of servers, gRPC's ipv4: list, a list that mixes an IPv6 literal (an ipv6:
        target with IPv4-mapped addresses) and a dns:/// name: the same output as the local command."""
        a, b = Tmapd(), Tmapd()
        try:
            g = os.path.join(TMP, "lists.jsonl")
            subprocess.run([sys.executable, os.path.join(SRC, "scripts", "dev", "gen-specs.py"), "300", g], check=True,
                           capture_output=True)
            env = dict(os.environ, NO_COLOR="1")
            local = subprocess.run([TMAPGEN, "validate", g], capture_output=True, env=env)
            for target in ("%s,%s" % (a.address, b.address), "ipv4:%s,%s" % (a.address, b.address),
                           "localhost:%d,[::ffff:127.0.0.1]:%d" % (a.port, b.port), "dns:///localhost:%d" % a.port):
                p = subprocess.run([TMAPGEN, "--remote", target, "validate", g], capture_output=True, env=env,
                                   timeout=60)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (local.returncode, local.stdout, local.stderr),
                                 target)
            for bad, says in (("%s,,%s" % (a.address, b.address), "an empty server in the list"),
                              ("%s,no-such-host.invalid:1" % a.address, 'cannot resolve "no-such-host.invalid"')):
                p = subprocess.run([TMAPGEN, "--remote", bad, "validate", g], capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 2)
                self.assertIn(says, p.stderr)
        finally:
            a.stop()
            b.stop()


class ShutdownTest(unittest.TestCase):
    def test_sigterm_finishes_calls_in_flight(self):
        server = Tmapd()
        ch = grpc.insecure_channel(server.address)
        stub = tmapd_pb2_grpc.TmapdStub(ch)
        first_answer = threading.Event()

        def requests():
            for m in range(5):
                yield tmapd_pb2.BatchRequest(specs=[good_spec()] * 100)
                if m == 0:
                    first_answer.wait(10)
                time.sleep(0.3)

        answered = []

        def run():
            for res in stub.ValidateBatch(requests(), timeout=60):
                answered.append(len(res.results))
                first_answer.set()

        t = threading.Thread(target=run)
        t.start()
        self.assertTrue(first_answer.wait(10))
        server.proc.send_signal(signal.SIGTERM)
        t.join(60)
        self.assertEqual(sum(answered), 500)
        self.assertEqual(server.proc.wait(timeout=30), 0)
        ch.close()
        server.stop()
        self.assertIn("finishing calls in flight", server.log())
        self.assertIn("method=ValidateBatch status=OK", server.log())


if __name__ == "__main__":
    try:
        unittest.main(verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
