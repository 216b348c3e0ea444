#!/usr/bin/env python3
"""Checks of deploy/ (docs/service.md, "Deploying"). No cluster and no running systemd here, so:

  schema     deploy/kubernetes/*.yaml against the Kubernetes API's JSON schemas, offline, with
             kubernetes-validate (PyPI; its package carries the schemas; scripts/deploy-deps.sh installs
             it into build/deploy-venv), strict (unknown fields are errors), for 1.30 and 1.37.
  structure  what a schema cannot see: the Service selects the Deployment's pods, the probes and ports
             name the ports tmapd is told to listen on, the Secrets are mounted where --token-file and
             --tls-* read, the grace period outlasts --grace-ms; and the built tmapd started with the
             manifest's own arguments (ports 0, the files in a temporary directory) serves, reports
             SERVING for the readiness probe's service on its health port, and requires the token.
  systemd    deploy/systemd/tmapd.service through `systemd-analyze verify` (no output allowed) and
             `systemd-analyze security --offline` (exposure at most 1.5 of 10), the sandbox directives
             required, and the built tmapd started with the unit's ExecStart arguments.

usage: deploy_test.py GROUP TMAPD SOURCE_DIR KUBERNETES_VALIDATE      (exit 77 = skipped, reason printed)
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

GROUP, TMAPD, SRC, KV = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), sys.argv[4]
del sys.argv[1:5]
MANIFEST = os.path.join(SRC, "deploy", "kubernetes", "tmapd.yaml")
UNIT = os.path.join(SRC, "deploy", "systemd", "tmapd.service")

try:
    import yaml
except ImportError:
    print("skipped: python3-yaml is not installed (scripts/install-deps.sh installs it)")
    sys.exit(77)

if GROUP == "schema":
    if not os.access(KV, os.X_OK):
        KV = shutil.which("kubernetes-validate") or ""
    if not KV:
        print("skipped: kubernetes-validate is not installed (scripts/deploy-deps.sh installs it into build/deploy-venv)")
        sys.exit(77)
if GROUP == "systemd" and not shutil.which("systemd-analyze"):
    print("skipped: systemd-analyze is not installed (Debian package systemd)")
    sys.exit(77)


def docs():
    with open(MANIFEST) as f:
        return {d["kind"]: d for d in yaml.safe_load_all(f) if d}


def flag(args, name):
    """The value of --name=V or --name V in an argument list; None when absent."""
    for i, a in enumerate(args):
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
        if a == name and i + 1 < len(args):
            return args[i + 1]
    return None


def port_of(addr):
    return int(addr.rsplit(":", 1)[1])


def quantity(q):
    """A Kubernetes quantity ("500m", "2", "512Mi", "2Gi") as a number."""
    q = str(q)
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 1e3, "M": 1e6, "G": 1e9}
    for u, f in sorted(units.items(), key=lambda x: -len(x[0])):
        if q.endswith(u):
            return float(q[:-len(u)]) * f
    return float(q)


class Started:
    """The built tmapd with a given argument list, on loopback ports chosen by the kernel."""

    def __init__(self, args):
        self.proc = subprocess.Popen([TMAPD] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self.lines = []
        end = time.time() + 20
        while time.time() < end:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.lines.append(line)
            if "metrics listening on" in line or ("listening on" in line and "--metrics-listen" not in " ".join(args)):
                break
        self.log = "".join(self.lines)

    def find(self, what):
        m = re.search(what + r" listening on (\S+)", self.log)
        return m.group(1) if m else None

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)
        return self.proc.returncode


def make_tls(d):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", os.path.join(d, "tls.key"),
                    "-out", os.path.join(d, "tls.crt"), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)


def health_status(addr, service):
    """grpc.health.v1.Health/Check, with the request and response written by hand (field 1 of each)."""
    import grpc
    req = service.encode()
    body = (b"\x0a" + bytes([len(req)]) + req) if req else b""
    with grpc.insecure_channel(addr) as ch:
        raw = ch.unary_unary("/grpc.health.v1.Health/Check")(body, timeout=10)
    return {b"": 0, b"\x08\x01": 1, b"\x08\x02": 2}.get(raw, raw)


@unittest.skipUnless(GROUP == "schema", "group schema")
class SchemaTest(unittest.TestCase):
    def test_manifests_validate_strictly(self):
        for version in ("1.30.0", "1.37.0"):
            p = subprocess.run([KV, "--strict", "-k", version, MANIFEST], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            for kind in ("deployment/tmapd", "service/tmapd", "poddisruptionbudget/tmapd"):
                self.assertIn("passed for resource %s against version %s" % (kind, version.rsplit(".", 1)[0]),
                              p.stdout + p.stderr)

    def test_validator_rejects_a_misspelt_field(self):
        # The validator is strict: a probe field spelt wrong fails (so a pass above means something).
        with open(MANIFEST) as f:
            bad = f.read().replace("              service: tmapgen.v2.Tmapd", "              servce: tmapgen.v2.Tmapd", 1)
        with tempfile.NamedTemporaryFile("w", suffix=".yaml") as t:
            t.write(bad)
            t.flush()
            p = subprocess.run([KV, "--strict", "-k", "1.30.0", t.name], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("'servce' was unexpected", p.stdout + p.stderr)


@unittest.skipUnless(GROUP == "structure", "group structure")
class StructureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = docs()
        cls.dep = cls.d["Deployment"]
        cls.pod = cls.dep["spec"]["template"]["spec"]
        cls.c = cls.pod["containers"][0]
        cls.args = cls.c["args"]

    def test_kinds(self):
        self.assertEqual(sorted(self.d), ["Deployment", "PodDisruptionBudget", "Service"])
        self.assertEqual(self.dep["apiVersion"], "apps/v1")
        self.assertEqual(self.d["Service"]["apiVersion"], "v1")
        self.assertEqual(self.d["PodDisruptionBudget"]["apiVersion"], "policy/v1")

    def test_headless_service_selects_the_pods(self):
        svc = self.d["Service"]["spec"]
        self.assertEqual(svc["clusterIP"], "None")
        labels = self.dep["spec"]["template"]["metadata"]["labels"]
        self.assertEqual(self.dep["spec"]["selector"]["matchLabels"], labels)
        self.assertTrue(set(svc["selector"].items()) <= set(labels.items()))
        self.assertTrue(set(self.d["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"].items()) <= set(labels.items()))
        self.assertLess(self.d["PodDisruptionBudget"]["spec"]["minAvailable"], self.dep["spec"]["replicas"])
        ports = {p["name"]: p["containerPort"] for p in self.c["ports"]}
        (sp,) = svc["ports"]
        self.assertEqual(ports[sp["targetPort"]], port_of(flag(self.args, "--listen")))
        self.assertEqual(sp["port"], port_of(flag(self.args, "--listen")))

    def test_probes_use_grpc_on_the_health_port(self):
        health = port_of(flag(self.args, "--health-listen"))
        ports = {p["name"]: p["containerPort"] for p in self.c["ports"]}
        self.assertEqual(ports["health"], health)
        self.assertEqual(ports["metrics"], port_of(flag(self.args, "--metrics-listen")))
        for probe in ("readinessProbe", "livenessProbe"):
            self.assertEqual(self.c[probe]["grpc"]["port"], health, probe)
            self.assertNotIn("httpGet", self.c[probe])
            self.assertNotIn("exec", self.c[probe])
        self.assertEqual(self.c["readinessProbe"]["grpc"]["service"], "tmapgen.v2.Tmapd")
        ann = self.dep["spec"]["template"]["metadata"]["annotations"]
        self.assertEqual(int(ann["prometheus.io/port"]), ports["metrics"])

    def test_security_context(self):
        self.assertTrue(self.pod["securityContext"]["runAsNonRoot"])
        self.assertNotEqual(self.pod["securityContext"]["runAsUser"], 0)
        self.assertEqual(self.pod["securityContext"]["seccompProfile"]["type"], "RuntimeDefault")
        self.assertFalse(self.pod["automountServiceAccountToken"])
        sc = self.c["securityContext"]
        self.assertTrue(sc["readOnlyRootFilesystem"])
        self.assertFalse(sc["allowPrivilegeEscalation"])
        self.assertTrue(sc["runAsNonRoot"])
        self.assertEqual(sc["capabilities"]["drop"], ["ALL"])
        self.assertNotIn("add", sc["capabilities"])

    def test_resources(self):
        r = self.c["resources"]
        for k in ("cpu", "memory"):
            self.assertIn(k, r["requests"])
            self.assertLessEqual(quantity(r["requests"][k]), quantity(r["limits"][k]), k)

    def test_secrets_are_mounted_where_tmapd_reads(self):
        mounts = {m["name"]: m for m in self.c["volumeMounts"]}
        vols = {v["name"]: v for v in self.pod["volumes"]}
        for m in mounts.values():
            self.assertTrue(m["readOnly"])
        tok = vols["token"]["secret"]
        self.assertEqual(tok["secretName"], "tmapd-token")
        self.assertEqual(tok["defaultMode"], 0o440)
        (item,) = tok["items"]
        self.assertEqual(os.path.join(mounts["token"]["mountPath"], item["path"]), flag(self.args, "--token-file"))
        tls_dir = mounts["tls"]["mountPath"]
        self.assertEqual(vols["tls"]["secret"]["secretName"], "tmapd-tls")
        # A kubernetes.io/tls Secret holds tls.crt and tls.key.
        self.assertEqual(flag(self.args, "--tls-cert"), tls_dir + "/tls.crt")
        self.assertEqual(flag(self.args, "--tls-key"), tls_dir + "/tls.key")

    def test_grace_period_outlasts_grace_ms(self):
        self.assertGreater(self.pod["terminationGracePeriodSeconds"] * 1000, int(flag(self.args, "--grace-ms")))

    def test_tmapd_accepts_the_manifest_arguments(self):
        d = tempfile.mkdtemp(prefix="deploy-k8s-")
        try:
            make_tls(d)
            with open(os.path.join(d, "token"), "w") as f:
                f.write("deploy-test-token\n")
            args = []
            for a in self.args:
                for old, new in (("/etc/tmapd/tls/", d + "/"), ("/etc/tmapd/token/", d + "/")):
                    a = a.replace(old, new)
                for f in ("--listen", "--health-listen", "--metrics-listen"):
                    if a.startswith(f + "="):
                        a = a.rsplit(":", 1)[0] + ":0"  # same host, a free port
                args.append(a)
            s = Started(args)
            try:
                self.assertIn("(TLS, token required)", s.log, s.log)
                health = s.find("health")
                self.assertIsNotNone(health, s.log)
                addr = "127.0.0.1:" + health.rsplit(":", 1)[1]
                self.assertEqual(health_status(addr, self.c["readinessProbe"]["grpc"]["service"]), 1)  # SERVING
                self.assertEqual(health_status(addr, ""), 1)
                self.assertIsNotNone(s.find("metrics"), s.log)
            finally:
                self.assertEqual(s.stop(), 0, s.log)
        finally:
            shutil.rmtree(d, ignore_errors=True)


@unittest.skipUnless(GROUP == "systemd", "group systemd")
class SystemdTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="deploy-systemd-")
        with open(UNIT) as f:
            cls.text = f.read()
        # verify checks that ExecStart's binary exists: point it at the built one.
        cls.unit = os.path.join(cls.dir, "tmapd.service")
        with open(cls.unit, "w") as f:
            f.write(cls.text.replace("/usr/local/bin/tmapd ", TMAPD + " "))
        cls.service = {}
        section = None
        for line in cls.text.splitlines():
            if line.startswith("["):
                section = line.strip("[]")
            elif section == "Service" and "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                cls.service.setdefault(k, []).append(v)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_verify_is_clean(self):
        p = subprocess.run(["systemd-analyze", "verify", self.unit], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout + p.stderr, "")

    def test_verify_reports_a_bad_directive(self):
        # verify reports unknown keys and bad values on stderr (its status stays 0), so the test above
        # requires silence.
        bad = os.path.join(self.dir, "bad.service")
        with open(bad, "w") as f:
            f.write(open(self.unit).read().replace("ProtectSystem=strict", "ProtectSystem=stricter"))
        p = subprocess.run(["systemd-analyze", "verify", bad], capture_output=True, text=True)
        self.assertIn("stricter", p.stderr)

    def test_exposure(self):
        p = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=15", self.unit],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        m = re.search(r"Overall exposure level for tmapd.service: (\d+\.\d)", p.stdout + p.stderr)
        self.assertIsNotNone(m, p.stdout)
        self.assertLessEqual(float(m.group(1)), 1.5)

    def test_sandbox_directives(self):
        want = {"DynamicUser": "yes", "ProtectSystem": "strict", "NoNewPrivileges": "yes", "PrivateTmp": "yes",
                "ProtectHome": "yes", "PrivateDevices": "yes", "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
                "CapabilityBoundingSet": "", "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native"}
        for k, v in want.items():
            self.assertEqual(self.service.get(k), [v], k)
        # No writable path of any kind.
        for k in ("ReadWritePaths", "StateDirectory", "CacheDirectory", "LogsDirectory", "RuntimeDirectory",
                  "ConfigurationDirectory"):
            self.assertNotIn(k, self.service)
        self.assertEqual(self.service["LoadCredential"], ["token:/etc/tmapd/token"])
        exec_args = shlex.split(self.service["ExecStart"][0])
        self.assertEqual(flag(exec_args, "--token-file"), "%d/token")

    def test_tmapd_accepts_the_unit_arguments(self):
        # %d is the credential directory systemd makes; the token is copied there as "token".
        cred = os.path.join(self.dir, "credentials")
        os.makedirs(cred, exist_ok=True)
        with open(os.path.join(cred, "token"), "w") as f:
            f.write("unit-test-token\n")
        args = shlex.split(self.service["ExecStart"][0])[1:]
        args = [a.replace("%d", cred) for a in args]
        for f in ("--listen", "--metrics-listen"):
            i = args.index(f)
            args[i + 1] = args[i + 1].rsplit(":", 1)[0] + ":0"
        s = Started(args)
        try:
            self.assertIn("(plaintext, token required)", s.log, s.log)
            self.assertIsNotNone(s.find("metrics"), s.log)
            # TimeoutStopSec outlasts --grace-ms.
            self.assertGreater(int(self.service["TimeoutStopSec"][0]) * 1000, int(flag(args, "--grace-ms")))
        finally:
            self.assertEqual(s.stop(), 0, s.log)


if __name__ == "__main__":
    unittest.main(verbosity=2)
