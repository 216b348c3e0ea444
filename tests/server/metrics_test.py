#!/usr/bin/env python3
"""Out-of-process tests of tmapd's Prometheus endpoint (--metrics-listen) and of its health-only
listener (--health-listen): the real binary on loopback, calls made with python3-grpcio, the endpoint
scraped with an HTTP GET and read as the Prometheus text exposition format (version 0.0.4: `# HELP`,
`# TYPE`, then `name{label="value",...} value` lines). The expected counts are the calls this test made.

usage: metrics_test.py TMAPD TMAPGEN SOURCE_DIR      (exit 77 = skipped, reason printed)
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time
import unittest
import urllib.request

# The stubs and the server wrapper of the service's process tests (generated at import, in its TMP).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process_test as pt  # noqa: E402  (reads TMAPD TMAPGEN SOURCE_DIR from sys.argv; exits 77 without grpcio)

grpc = pt.grpc
TMAPD = pt.TMAPD

# The metrics endpoint starts before the main listener, which fails here at once (a name that cannot resolve).
if "metrics are unavailable" in subprocess.run([TMAPD, "--listen", "no-such-host.invalid:1", "--metrics-listen",
                                                "127.0.0.1:0"], capture_output=True, text=True).stderr:
    print("skipped: tmapd was built without prometheus-cpp (scripts/install-deps.sh installs prometheus-cpp-dev)")
    sys.exit(77)

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')


def parse_exposition(text):
    """{(name, frozenset(labels.items())): value}, and {name: type}. Rejects any line that is not a comment,
    a blank line or a sample, and a sample of a family whose TYPE was not declared before it."""
    samples, types = {}, {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
            continue
        if line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("not a sample line: %r" % line)
        name, labels_text, value = m.groups()
        labels = {}
        if labels_text:
            pos = 0
            while pos < len(labels_text):
                lm = LABEL.match(labels_text, pos)
                if not lm:
                    raise ValueError("bad labels in %r" % line)
                labels[lm.group(1)] = lm.group(2)
                pos = lm.end()
        family = re.sub(r"_(bucket|sum|count)$", "", name)
        if name not in types and family not in types:
            raise ValueError("sample before its # TYPE: %r" % line)
        key = (name, frozenset(labels.items()))
        if key in samples:
            raise ValueError("duplicate sample: %r" % line)
        samples[key] = float(value)
    return samples, types


def scrape(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10) as r:
        if r.status != 200:
            raise RuntimeError("GET /metrics: HTTP %d" % r.status)
        return parse_exposition(r.read().decode())


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def wait_line(server, needle, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        for line in list(server.lines):
            if needle in line:
                return line
        time.sleep(0.02)
    raise AssertionError("no %r in the log: %s" % (needle, server.log()))


def metrics_port(server):
    return int(wait_line(server, "metrics listening on").split("metrics listening on ")[1].split(" ")[0].rsplit(":", 1)[1])


def run_tmapd(*args):
    return subprocess.run([TMAPD, "--listen", "127.0.0.1:0", "--no-gpu"] + list(args), capture_output=True, text=True,
                          timeout=30)


class MetricsTest(unittest.TestCase):
    TOKEN = "metrics-test-token"

    @classmethod
    def setUpClass(cls):
        token_file = os.path.join(pt.TMP, "metrics-token")
        with open(token_file, "w") as f:
            f.write(cls.TOKEN + "\n")
        cls.server = pt.Tmapd("--metrics-listen", "127.0.0.1:0", "--token-file", token_file, "--max-message-bytes", "16384",
                            "--max-specs-per-message", "5")
        cls.port = metrics_port(cls.server)
        cls.channel = grpc.insecure_channel(cls.server.address)
        cls.v1 = pt.tmapd_pb2_grpc.TmapdStub(cls.channel)
        cls.v2 = pt.tmapd_v2_pb2_grpc.TmapdStub(cls.channel)
        cls.auth = (("authorization", "Bearer " + cls.TOKEN),)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.server.stop()

    def test_counts_match_the_calls_made(self):
        before, types = scrape(self.port)
        self.assertEqual(types["tmapd_refusals_total"], "counter")
        # Every refusal reason is there from the start, at 0.
        for reason in ("concurrent_calls", "unauthenticated", "deadline", "response_too_large", "gpu_queue_full",
                       "request_limit", "streams", "pending_messages", "idle", "heavy_queue_full"):
            self.assertIn(("tmapd_refusals_total", frozenset({"reason": reason}.items())), before)
        base = {k: v for k, v in before.items()}
        lines_before = self.server.log().count("method=")

        def delta(samples, name, **labels):
            return value(samples, name, **labels) - base.get((name, frozenset(labels.items())), 0.0)

        # 7 Validate OK (4 on v1, 3 on v2), 2 invalid specs among them still OK; 3 without a token.
        for i in range(4):
            r = self.v1.Validate(pt.tmapd_pb2.ValidateRequest(spec=pt.good_spec() if i % 2 else pt.bad_spec()),
                                 metadata=self.auth, timeout=10)
            self.assertEqual(r.valid, i % 2 == 1)
        for _ in range(3):
            self.v2.Validate(pt.tmapd_pb2.ValidateRequest(spec=pt.good_spec()), metadata=self.auth, timeout=10)
        for _ in range(3):
            with self.assertRaises(grpc.RpcError) as e:
                self.v1.Validate(pt.tmapd_pb2.ValidateRequest(spec=pt.good_spec()), timeout=10)
            self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        # 2 Describe.
        for _ in range(2):
            self.v1.Describe(pt.tmapd_pb2.DescribeRequest(), metadata=self.auth, timeout=10)
        # One Validate whose answer is over --max-message-bytes (16384): the name comes back in the report
        # and twice in the rendered text, the request (about 9 KB) is under the limit.
        big = pt.good_spec()
        big.name = "n" * 9000
        with self.assertRaises(grpc.RpcError) as e:
            self.v1.Validate(pt.tmapd_pb2.ValidateRequest(spec=big, options=pt.tmapd_pb2.RenderOptions(
                format=pt.tmapd_pb2.OUTPUT_TEXT)), metadata=self.auth, timeout=10)
        self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
        # One batch stream: 5 + 4 specs, all answered.
        reqs = [pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()] * 5), pt.tmapd_pb2.BatchRequest(specs=[pt.bad_spec()] * 4)]
        answered = sum(len(r.results) for r in self.v1.ValidateBatch(iter(reqs), metadata=self.auth, timeout=10))
        self.assertEqual(answered, 9)
        # One batch stream over --max-specs-per-message (6 > 5): refused, nothing computed.
        with self.assertRaises(grpc.RpcError) as e:
            list(self.v1.ValidateBatch(iter([pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()] * 6)]), metadata=self.auth,
                                       timeout=10))
        self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)

        # The server logs each call when it ends; the last one is ended when its log line is there.
        end = time.time() + 10
        while self.server.log().count("method=") < lines_before + 15 and time.time() < end:
            time.sleep(0.02)
        after, types = scrape(self.port)
        self.assertEqual(types["tmapd_calls_total"], "counter")
        self.assertEqual(types["tmapd_call_duration_seconds"], "histogram")
        self.assertEqual(types["tmapd_calls_in_flight"], "gauge")
        self.assertEqual(types["tmapd_specs_validated_total"], "counter")
        self.assertEqual(delta(after, "tmapd_calls_total", method="Validate", code="OK"), 7)
        self.assertEqual(delta(after, "tmapd_calls_total", method="Validate", code="UNAUTHENTICATED"), 3)
        self.assertEqual(delta(after, "tmapd_calls_total", method="Validate", code="RESOURCE_EXHAUSTED"), 1)
        self.assertEqual(delta(after, "tmapd_calls_total", method="Describe", code="OK"), 2)
        self.assertEqual(delta(after, "tmapd_calls_total", method="ValidateBatch", code="OK"), 1)
        self.assertEqual(delta(after, "tmapd_calls_total", method="ValidateBatch", code="RESOURCE_EXHAUSTED"), 1)
        self.assertEqual(delta(after, "tmapd_refusals_total", reason="request_limit"), 1)
        self.assertEqual(delta(after, "tmapd_refusals_total", reason="unauthenticated"), 3)
        self.assertEqual(delta(after, "tmapd_refusals_total", reason="response_too_large"), 1)
        self.assertEqual(delta(after, "tmapd_refusals_total", reason="concurrent_calls"), 0)
        self.assertEqual(delta(after, "tmapd_refusals_total", reason="deadline"), 0)
        self.assertEqual(delta(after, "tmapd_specs_validated_total", method="Validate", stage="computed"), 7)
        self.assertEqual(delta(after, "tmapd_specs_validated_total", method="ValidateBatch", stage="computed"), 9)
        self.assertEqual(delta(after, "tmapd_specs_validated_total", method="ValidateBatch", stage="delivered"), 9)
        # The histogram: one observation per call; cumulative buckets, +Inf = count.
        self.assertEqual(delta(after, "tmapd_call_duration_seconds_count", method="Validate"), 11)
        self.assertEqual(delta(after, "tmapd_call_duration_seconds_count", method="Describe"), 2)
        buckets = sorted((float(dict(k[1])["le"]), v) for k, v in after.items()
                         if k[0] == "tmapd_call_duration_seconds_bucket" and dict(k[1])["method"] == "Validate")
        self.assertEqual(buckets[0][0], 0.000025)
        self.assertEqual(buckets[-1][0], float("inf"))
        self.assertEqual(buckets[-2][0], 60.0)
        self.assertTrue(all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:])), buckets)
        self.assertEqual(buckets[-1][1], value(after, "tmapd_call_duration_seconds_count", method="Validate"))
        # Nothing is in flight now.
        for m in ("Validate", "Describe", "ValidateBatch"):
            self.assertEqual(value(after, "tmapd_calls_in_flight", method=m), 0, m)

    def test_open_stream_is_in_flight(self):
        go = threading.Event()
        first = threading.Event()

        def requests():
            yield pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()] * 3)
            go.wait(20)

        call = self.v2.ValidateBatch(requests(), metadata=self.auth, timeout=30)
        got = []

        def read():
            for r in call:
                got.append(len(r.results))
                first.set()

        t = threading.Thread(target=read)
        t.start()
        self.assertTrue(first.wait(10))
        during, _ = scrape(self.port)
        go.set()
        t.join(20)
        self.assertEqual(sum(got), 3)
        self.assertEqual(value(during, "tmapd_calls_in_flight", method="ValidateBatch"), 1)
        end = time.time() + 10
        while time.time() < end:
            after, _ = scrape(self.port)
            if value(after, "tmapd_calls_in_flight", method="ValidateBatch") == 0:
                break
            time.sleep(0.05)
        self.assertEqual(value(after, "tmapd_calls_in_flight", method="ValidateBatch"), 0)

    def test_stream_room_refusals_are_counted(self):
        # --max-streams 1: a stream that waits on its client is closed to make room for a second one
        # (docs/service.md: waiting streams hold no call slot; the longest-waiting makes room), and counted.
        server = pt.Tmapd("--metrics-listen", "127.0.0.1:0", "--max-streams", "1", "--no-log")
        try:
            port = metrics_port(server)
            go = threading.Event()

            def requests():
                yield pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()] * 2)
                go.wait(20)

            with grpc.insecure_channel(server.address) as ch:
                stub = pt.tmapd_pb2_grpc.TmapdStub(ch)
                first = stub.ValidateBatch(requests(), timeout=30)
                self.assertEqual(len(next(first).results), 2)
                second = stub.ValidateBatch(iter([pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()] * 3)]), timeout=30)
                self.assertEqual(sum(len(r.results) for r in second), 3)
                with self.assertRaises(grpc.RpcError) as e:
                    list(first)
                go.set()
            self.assertEqual(e.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
            self.assertIn("--max-streams", e.exception.details())
            # Both streams are counted when the server has ended them (after their clients saw the end).
            end = time.time() + 10
            while time.time() < end:
                s, _ = scrape(port)
                if (value(s, "tmapd_calls_total", method="ValidateBatch", code="RESOURCE_EXHAUSTED") == 1 and
                        value(s, "tmapd_calls_total", method="ValidateBatch", code="OK") == 1 and
                        value(s, "tmapd_calls_in_flight", method="ValidateBatch") == 0):
                    break
                time.sleep(0.05)
            self.assertEqual(value(s, "tmapd_refusals_total", reason="streams"), 1)
            self.assertEqual(value(s, "tmapd_calls_total", method="ValidateBatch", code="OK"), 1)
            self.assertEqual(value(s, "tmapd_calls_total", method="ValidateBatch", code="RESOURCE_EXHAUSTED"), 1)
            self.assertEqual(value(s, "tmapd_specs_validated_total", method="ValidateBatch", stage="delivered"), 5)
            self.assertEqual(value(s, "tmapd_calls_in_flight", method="ValidateBatch"), 0)
        finally:
            server.stop()

    def test_concurrent_call_refusals_are_counted(self):
        # --max-concurrent-calls 1 and a burst of Validate calls from 8 threads: every call the clients saw
        # refused as busy is counted as such (how many are refused depends on the scheduling).
        server = pt.Tmapd("--metrics-listen", "127.0.0.1:0", "--max-concurrent-calls", "1", "--validate-threads", "0",
                          "--no-log")
        try:
            port = metrics_port(server)
            codes = []
            lock = threading.Lock()

            def burst():
                with grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                    stub = pt.tmapd_pb2_grpc.TmapdStub(ch)
                    futures = [stub.Validate.future(pt.tmapd_pb2.ValidateRequest(spec=pt.good_spec()), timeout=20)
                               for _ in range(100)]
                    for f in futures:
                        with lock:
                            codes.append(f.code())

            threads = [threading.Thread(target=burst) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            busy = codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED)
            self.assertEqual(busy + codes.count(grpc.StatusCode.OK), 800)
            end = time.time() + 10
            while time.time() < end:
                s, _ = scrape(port)
                if sum(v for k, v in s.items() if k[0] == "tmapd_calls_total" and dict(k[1]).get("method") == "Validate") == 800:
                    break
                time.sleep(0.05)
            self.assertEqual(value(s, "tmapd_refusals_total", reason="concurrent_calls"), busy)
            self.assertEqual(value(s, "tmapd_calls_total", method="Validate", code="RESOURCE_EXHAUSTED") or 0, busy)
        finally:
            server.stop()


class MetricsFlagTest(unittest.TestCase):
    def test_non_loopback_refused_unless_allowed(self):
        p = run_tmapd("--metrics-listen", "0.0.0.0:0")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--metrics-listen 0.0.0.0:0 (0.0.0.0:0: not loopback only)", p.stderr)
        self.assertIn("--metrics-allow-remote", p.stderr)
        self.assertNotIn("listening on", p.stderr)

    def test_allowed_remote_serves(self):
        server = pt.Tmapd("--metrics-listen", "0.0.0.0:0", "--metrics-allow-remote")
        try:
            line = wait_line(server, "metrics listening on")
            self.assertIn("metrics listening on 0.0.0.0:", line)
            s, _ = scrape(metrics_port(server))
            self.assertEqual(value(s, "tmapd_refusals_total", reason="unauthenticated"), 0)
        finally:
            server.stop()

    def test_bad_values(self):
        for args, msg in ((["--metrics-listen"], "--metrics-listen needs HOST:PORT"),
                          (["--metrics-listen", ""], "--metrics-listen needs HOST:PORT"),
                          (["--metrics-listen", "unix:/tmp/x"], "needs HOST:PORT (the endpoint is HTTP over TCP)"),
                          (["--metrics-allow-remote"], "--metrics-allow-remote needs --metrics-listen"),
                          (["--metrics-listen", "127.0.0.1:99999"], "--metrics-listen")):
            p = run_tmapd(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertIn(msg, p.stderr, args)

    def test_port_in_use_names_the_flag(self):
        server = pt.Tmapd("--metrics-listen", "127.0.0.1:0")
        try:
            port = metrics_port(server)
            p = run_tmapd("--metrics-listen", "127.0.0.1:%d" % port)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("--metrics-listen 127.0.0.1:%d: cannot listen on" % port, p.stderr)
        finally:
            server.stop()


class HealthListenerTest(unittest.TestCase):
    def test_serves_health_only_and_follows_shutdown(self):
        server = pt.Tmapd("--health-listen", "127.0.0.1:0", "--grace-ms", "20000")
        try:
            line = wait_line(server, "health listening on")
            addr = line.split("health listening on ")[1].split(" ")[0]
            hc = grpc.insecure_channel(addr)
            health = pt.health_pb2_grpc.HealthStub(hc)
            SERVING, NOT_SERVING = pt.health_pb2.HealthCheckResponse.SERVING, pt.health_pb2.HealthCheckResponse.NOT_SERVING
            for svc in ("", "tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd"):
                self.assertEqual(health.Check(pt.health_pb2.HealthCheckRequest(service=svc), timeout=10).status, SERVING, svc)
            # No tmapd method there.
            with self.assertRaises(grpc.RpcError) as e:
                pt.tmapd_pb2_grpc.TmapdStub(hc).Describe(pt.tmapd_pb2.DescribeRequest(), timeout=10)
            self.assertEqual(e.exception.code(), grpc.StatusCode.UNIMPLEMENTED)
            # An open stream keeps tmapd in its grace period after SIGTERM: the health port says NOT_SERVING.
            go = threading.Event()

            def requests():
                yield pt.tmapd_pb2.BatchRequest(specs=[pt.good_spec()])
                go.wait(20)

            mc = grpc.insecure_channel(server.address)
            call = pt.tmapd_pb2_grpc.TmapdStub(mc).ValidateBatch(requests(), timeout=30)
            next(call)
            server.proc.send_signal(signal.SIGTERM)
            wait_line(server, "finishing calls in flight")
            self.assertEqual(health.Check(pt.health_pb2.HealthCheckRequest(service=""), timeout=10).status, NOT_SERVING)
            self.assertEqual(health.Check(pt.health_pb2.HealthCheckRequest(service="tmapgen.v2.Tmapd"), timeout=10).status,
                             NOT_SERVING)
            go.set()
            list(call)
            self.assertEqual(server.proc.wait(timeout=30), 0)
            hc.close()
            mc.close()
        finally:
            server.stop()

    def test_bad_address(self):
        p = run_tmapd("--health-listen", "no-such-host.invalid:1")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("--health-listen", p.stderr)


if __name__ == "__main__":
    try:
        unittest.main(verbosity=2)
    finally:
        import shutil
        shutil.rmtree(pt.TMP, ignore_errors=True)
