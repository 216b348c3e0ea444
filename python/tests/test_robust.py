"""Untrusted input never crashes the package: random dicts of random values (the Python spec reader,
python/ext/py_spec.cc) give a spec or SpecError/TypeError, and mutated JSON Lines give the same reports as
the command line, input errors included. Deterministic (fixed seeds)."""

import random
import subprocess

import pytest

import tmapgen
from tmapgen import SpecError

KEYS = ["name", "mode", "direction", "reduce_op", "tensor_data_type", "dtype", "tensor_rank", "rank", "global_address",
        "global_dim", "global_strides", "box_dim", "element_strides", "interleave", "swizzle", "l2_promotion", "l2",
        "oob_fill", "pixel_box_lower_corner", "pixel_box_upper_corner", "pixel_box_lower_corner_width",
        "pixel_box_upper_corner_width", "channels_per_pixel", "pixels_per_column", "wide_mode", "target",
        "smem_address", "smem_alignment", "driver_version", "box", "bogus"]


def value(rng, depth=0):
    k = rng.randrange(12)
    if k == 0:
        return rng.choice([0, 1, 2, 3, 7, 16, 128, 255, 256, 4096, 2**31, 2**32, 2**63, 2**64, -1, -2**63])
    if k == 1:
        return rng.choice(["bf16", "128B", "tiled", "im2col", "sm_90a", "0x1000", "13.0", "", "x" * 300, "\u00e9"])
    if k == 2 and depth < 2:
        return [value(rng, depth + 1) for _ in range(rng.randrange(7))]
    if k == 3:
        return [rng.choice([1, 8, 64, 128, 256, 4096]) for _ in range(rng.randrange(1, 6))]
    if k == 4:
        return rng.choice([None, True, False, 1.5, float("nan"), b"bytes", object(), {"a": 1}, (1, 2)])
    return rng.choice([16, 64, 1024, [64, 64], [4096, 4096], "f16", "none", "load", "zero"])


def test_random_dicts():
    rng = random.Random(13)
    outcomes = {"spec": 0, "SpecError": 0, "TypeError": 0}
    for _ in range(20000):
        d = {rng.choice(KEYS[:-2] if rng.random() < 0.9 else KEYS): value(rng) for _ in range(rng.randrange(5))}
        if rng.random() < 0.8:
            d.setdefault("dtype", "f16")
            d.setdefault("global_dim", [64, 64])
            d.setdefault("box_dim", [8, 8])
        try:
            s = tmapgen.TensorMapSpec(d)
        except SpecError as e:
            assert isinstance(e.field, str) and str(e)
            outcomes["SpecError"] += 1
            continue
        except TypeError:
            outcomes["TypeError"] += 1
            continue
        outcomes["spec"] += 1
        r = tmapgen.validate(s)
        str(r), r.to_json(), r.diagnostics  # rendering never fails either
    assert outcomes["spec"] > 1000 and outcomes["SpecError"] > 5000, outcomes
    print(outcomes)


def mutate(rng, line):
    b = bytearray(line)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(3)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            del b[min(i, len(b) - 1)]
        elif op == 1:
            b.insert(i, rng.choice(b'{}[]",:-0123456789ae \\\x00\xff'))
        elif b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
    return bytes(b).replace(b"\n", b" ")


def test_mutated_json_lines_agree_with_the_cli(cli, tmp_path):
    rng = random.Random(29)
    base = [b'{"tensor_data_type":"f16","global_dim":[64,64],"box_dim":[8,8],"swizzle":"none"}',
            b'{"mode":"im2col","tensor_data_type":"bf16","global_dim":[64,56,56,32],"channels_per_pixel":64,'
            b'"pixels_per_column":128,"pixel_box_lower_corner":[-1,-1],"pixel_box_upper_corner":[-1,-1]}']
    lines = [mutate(rng, rng.choice(base)) for _ in range(3000)]
    data = b"\n".join(lines) + b"\n"
    f = tmp_path / "mutated.jsonl"
    f.write_bytes(data)
    p = subprocess.run([cli, "validate", str(f), "--format", "json", "--no-gpu"], capture_output=True, timeout=120)
    mine = tmapgen.validate_many(data, on_error="report")
    assert mine.input_error_count > 1000
    assert mine.to_jsonl() == p.stdout


def test_mutated_json_lines_never_crash():
    rng = random.Random(31)
    line = b'{"tensor_data_type":"f16","global_dim":[64,64],"box_dim":[8,8],"global_address":"0x1000"}'
    for _ in range(3000):
        m = mutate(rng, line)
        try:
            tmapgen.validate_many(m)
        except SpecError:
            pass
        tmapgen.validate_many(m, on_error="report").to_jsonl()
