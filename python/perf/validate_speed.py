#!/usr/bin/env python3
"""validate_speed.py: the speed of tmapgen from Python, next to the command line in the same run.

usage: python3 python/perf/validate_speed.py [--quick] [--specs N] [--cli PATH]

Single calls (timeit, best of 7 repeats, nanoseconds per call):
  validate(spec object)        a TensorMapSpec built once: what a kernel launcher re-validating a cached
                               spec pays (the goal: under 2 microseconds)
  validate(spec, target=...)   the same with the target given per call
  validate(invalid spec)       a spec with 3 errors (the findings are kept; their text is made when read)
  ... + .diagnostics           the same, reading every explained finding (message, fix, source)
  validate(dict)               the schema dict converted on each call
  validate(**kwargs)           keyword arguments
  TensorMapSpec(**kwargs)      building a spec object
Bulk (specs/s, best of 3): N specs from scripts/dev/gen-specs.py (30 % invalid, the mix of docs/perf.md):
  validate_many(bytes)         JSON Lines parsed and validated in C++ with the GIL released
  validate_many(bytes).to_jsonl()   the same plus every JSON report
  validate_many(list of specs) TensorMapSpec objects
  tmapgen validate --quiet / --format json   the command line on the same file, same machine, same run
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import timeit

import tmapgen

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def per_call_ns(timer, number, repeat=7):
    return min(timer.repeat(number=number, repeat=repeat)) / number * 1e9


def best_of(fn, repeat=3):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer iterations (about 10 s)")
    ap.add_argument("--specs", type=int, default=0, help="specs for the bulk runs (default 1,000,000; 100,000 quick)")
    ap.add_argument("--cli", default=os.environ.get("TMAPGEN_CLI", os.path.join(REPO, "build", "tmapgen")))
    a = ap.parse_args()
    n_specs = a.specs or (100_000 if a.quick else 1_000_000)
    number = 20_000 if a.quick else 200_000

    print("tmapgen %s, Python %s, %s" % (tmapgen.__version__, sys.version.split()[0], os.uname().machine))
    try:
        model = [l for l in open("/proc/cpuinfo") if l.startswith("model name")][0].split(":", 1)[1].strip()
        print("cpu: %s, %d cores" % (model, os.cpu_count()))
    except (OSError, IndexError):
        pass

    fields = dict(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B", target="sm_90a")
    spec = tmapgen.TensorMapSpec(**fields)
    untargeted = tmapgen.TensorMapSpec(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")
    bad = tmapgen.TensorMapSpec(dtype="f16", global_dim=[500, 64], global_strides=[1000], box_dim=[3, 300],
                                swizzle="64B", target="sm_90a")
    assert tmapgen.validate(spec).valid and not tmapgen.validate(bad).valid
    d = spec.to_dict(explicit_only=True)
    env = dict(tmapgen=tmapgen, spec=spec, bad=bad, d=d, fields=fields, untargeted=untargeted)
    rows = [
        ("validate(spec object), valid, target in spec", "tmapgen.validate(spec)"),
        ("validate(spec object, target='sm_90a')", "tmapgen.validate(untargeted, target='sm_90a')"),
        ("validate(spec object), no target: all 16 targets", "tmapgen.validate(untargeted)"),
        ("validate(invalid spec object), 3 errors", "tmapgen.validate(bad)"),
        ("validate(invalid) + .diagnostics (texts made)", "tmapgen.validate(bad).diagnostics"),
        ("validate(dict)", "tmapgen.validate(d)"),
        ("validate(**kwargs)", "tmapgen.validate(**fields)"),
        ("TensorMapSpec(**kwargs)", "tmapgen.TensorMapSpec(**fields)"),
    ]
    print("\nsingle calls (best of 7 x %d calls)" % number)
    print("%-52s %10s" % ("call", "ns/call"))
    for label, stmt in rows:
        ns = per_call_ns(timeit.Timer(stmt, globals=env), number)
        print("%-52s %10.0f" % (label, ns))

    # Bulk.
    tmp = tempfile.mkdtemp(prefix="tmapgen_perf_")
    path = os.path.join(tmp, "specs.jsonl")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "dev", "gen-specs.py"), str(n_specs), path, "--seed", "1"],
                   check=True, stderr=subprocess.DEVNULL)
    data = open(path, "rb").read()
    print("\nbulk: %d specs (scripts/dev/gen-specs.py %d --seed 1), %.1f MB, best of 3" % (n_specs, n_specs, len(data) / 1e6))
    print("%-52s %10s %12s" % ("path", "seconds", "specs/s"))
    res = tmapgen.validate_many(data)
    print("  (valid %d, invalid %d)" % (res.valid_count, res.invalid_count))
    del res
    t = best_of(lambda: tmapgen.validate_many(data))
    print("%-52s %10.3f %12.0f" % ("validate_many(bytes)", t, n_specs / t))
    t = best_of(lambda: tmapgen.validate_many(data).to_jsonl())
    print("%-52s %10.3f %12.0f" % ("validate_many(bytes).to_jsonl()", t, n_specs / t))
    res = tmapgen.validate_many(data)
    specs = [r.spec for r in res[:min(n_specs, 200_000)]]
    del res
    t = best_of(lambda: tmapgen.validate_many(specs))
    print("%-52s %10.3f %12.0f" % ("validate_many(list of %d TensorMapSpec)" % len(specs), t, len(specs) / t))
    # The C++ rate: a file with no invalid spec, where `tmapgen validate --quiet` prints nothing but its summary
    # (parse + validate, as validate_many(bytes) does).
    valid_path = os.path.join(tmp, "valid.jsonl")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "dev", "gen-specs.py"), str(n_specs), valid_path, "--seed", "1",
                    "--invalid-frac", "0"], check=True, stderr=subprocess.DEVNULL)
    vdata = open(valid_path, "rb").read()
    t = best_of(lambda: tmapgen.validate_many(vdata))
    print("%-52s %10.3f %12.0f" % ("validate_many(bytes), no invalid spec", t, n_specs / t))
    if os.path.exists(a.cli):
        def run_valid():
            with open(os.devnull, "wb") as null:
                subprocess.run([a.cli, "validate", valid_path, "--format", "json", "--no-gpu", "--quiet"], stdout=null)
        t = best_of(run_valid)
        print("%-52s %10.3f %12.0f" % ("tmapgen validate --quiet, no invalid spec", t, n_specs / t))
    if os.path.exists(a.cli):
        for label, extra in (("tmapgen validate --quiet --format json", ["--quiet"]),
                             ("tmapgen validate --format json (every report)", [])):
            def run(extra=extra):
                with open(os.devnull, "wb") as null:
                    subprocess.run([a.cli, "validate", path, "--format", "json", "--no-gpu"] + extra, stdout=null)
            t = best_of(run)
            print("%-52s %10.3f %12.0f" % (label, t, n_specs / t))
    else:
        print("(no command line at %s: the CLI rows are missing)" % a.cli)


if __name__ == "__main__":
    main()
