"""grpc_stubs.py: Python stubs for tmapd, generated at test time from proto/ (shared by process_test.py and
examples_test.py, so that both compile the protos the same way).

generate(src, out_dir, extra) writes *_pb2.py and *_pb2_grpc.py of proto/tmapgen.proto, tmapd.proto and
tmapd_v2.proto (and of `extra`: {file name: proto text}, compiled as a group of their own) into out_dir, and
returns which compiler made each group. It exits with status 77 (skipped, reason printed) when no compiler
can. python3-grpc-tools first; where its bundled protoc is too old for a file (Debian's grpc-tools 1.14
rejects proto3 `optional`, which tmapgen.proto uses), the system protoc with grpc_python_plugin
(protobuf-compiler-grpc; protoc 3.21 compiles proto3 `optional` without the experimental flag).
"""
import os
import shutil
import subprocess
import sys

PROTOS = ("tmapgen.proto", "tmapd.proto", "tmapd_v2.proto")


def generate(src, out_dir, extra=None):
    pdir = os.path.join(out_dir, "protos")
    os.makedirs(pdir, exist_ok=True)
    for name in PROTOS:
        shutil.copy(os.path.join(src, "proto", name), pdir)
    groups = []
    if extra:
        for name, text in extra.items():
            with open(os.path.join(pdir, name), "w") as f:
                f.write(text)
        groups.append(list(extra))
    groups.append(list(PROTOS))
    used = {}
    for group in groups:
        files = [os.path.join(pdir, g) for g in group]
        tools = [sys.executable, "-m", "grpc_tools.protoc", "-I" + pdir, "--python_out=" + out_dir,
                 "--grpc_python_out=" + out_dir] + files
        ok = subprocess.run(tools, capture_output=True).returncode == 0
        if ok:
            mods = [g.replace(".proto", "_pb2") for g in group]
            probe = subprocess.run([sys.executable, "-c", "import " + ",".join(mods)], cwd=out_dir, capture_output=True)
            ok = probe.returncode == 0
        if ok:
            used[" ".join(group)] = "grpc_tools.protoc"
            continue
        plugin = shutil.which("grpc_python_plugin")
        protoc = shutil.which("protoc")
        if not plugin or not protoc:
            print("skipped: grpc_tools cannot compile %s and protoc/grpc_python_plugin are missing" % group)
            sys.exit(77)
        subprocess.run([protoc, "-I" + pdir, "--python_out=" + out_dir, "--grpc_python_out=" + out_dir,
                        "--plugin=protoc-gen-grpc_python=" + plugin] + files, check=True)
        used[" ".join(group)] = "protoc + grpc_python_plugin"
    return used
