"""validate_many and ReportList, and agreement with the command line (one implementation, two faces).

The agreement tests run build/tmapgen (or $TMAPGEN_CLI) on the same input and compare its output byte
for byte with what the package renders; they skip, saying why, when the command line is not built.
"""

import json
import os
import re
import subprocess
import sys
import threading

import pytest

import tmapgen
from tmapgen import SpecError, TensorMapSpec

from conftest import REPO

LINES = [
    '{"tensor_data_type":"f16","global_dim":[64,64],"box_dim":[8,8]}',
    '',
    '{"tensor_data_type":"f32","global_dim":[1024,1000],"global_strides":[4000],"box_dim":[64,300],"swizzle":"128B"}',
    '{"tensor_data_type":"f16","global_dim":[64,-64],"box_dim":[8,8]}',
    '{"mode":"im2col","tensor_data_type":"bf16","global_dim":[64,56,56,32],"channels_per_pixel":64,'
    '"pixels_per_column":128,"pixel_box_lower_corner":[-1,-1],"pixel_box_upper_corner":[-1,-1],"target":"sm_90a"}',
]
TEXT = ("\n".join(LINES) + "\n").encode()


def test_bytes_str_bytearray_memoryview_agree():
    a = tmapgen.validate_many(TEXT, on_error="report")
    for other in (TEXT.decode(), bytearray(TEXT), memoryview(TEXT)):
        assert tmapgen.validate_many(other, on_error="report").to_jsonl() == a.to_jsonl()
    assert len(a) == 4  # the blank line is skipped
    assert [r.valid for r in a] == [True, False, False, True]
    assert [r.index for r in a] == [0, 1, 2, 3]
    assert a.valid_count == 2 and a.invalid_count == 2 and a.input_error_count == 1 and not a.all_valid
    assert [r.index for r in a.invalid()] == [1, 2]
    assert isinstance(a[-1], tmapgen.Report) and a[-1].index == 3
    assert [r.index for r in a[1:3]] == [1, 2]
    with pytest.raises(IndexError):
        a[4]
    assert "4 reports" in repr(a)
    import collections.abc
    assert isinstance(a, collections.abc.Sequence)


def test_input_error_reports():
    r = tmapgen.validate_many(TEXT, on_error="report")[2]
    assert r.is_input_error and not r.valid
    d = r.diagnostics[0]
    assert d.rule == "input-error" and d.field == "global_dim[1]" and d.line == 4  # the 4th line of the text
    with pytest.raises(SpecError) as e:
        r.spec
    assert e.value.field == "global_dim[1]"
    with pytest.raises(SpecError):
        r.transaction_bytes
    assert r.counts["errors"] == 1 and "error[input-error]" in str(r)


def test_raise_names_the_line_and_field():
    with pytest.raises(SpecError) as e:
        tmapgen.validate_many(TEXT)
    assert e.value.field == "global_dim[1]" and "line 4" in str(e.value)


def test_iterables_of_specs_and_dicts():
    specs = [TensorMapSpec(dtype="f16", global_dim=[64, 64], box_dim=[8, 8]),
             dict(dtype="f32", global_dim=[64, 64], box_dim=[64, 8], swizzle="128B")]
    out = tmapgen.validate_many(iter(specs), target="sm_90a")
    assert [r.valid for r in out] == [True, False] and all(r.target == "sm_90a" for r in out)
    assert tmapgen.validate_many((s for s in specs)).to_jsonl().count(b"\n") == 2
    with pytest.raises(SpecError) as e:
        tmapgen.validate_many([specs[0], dict(dtype="f16", global_dim=[64, 64], box_dim=[8, -8])])
    assert e.value.field == "specs[1].box_dim[1]"
    rep = tmapgen.validate_many([specs[0], dict(dtype="f16")], on_error="report")
    assert rep[1].is_input_error and rep[1].diagnostics[0].field == "specs[1].global_dim"
    with pytest.raises(TypeError):
        tmapgen.validate_many(5)
    with pytest.raises(TypeError):
        tmapgen.validate_many(dict(dtype="f16"))
    with pytest.raises(ValueError):
        tmapgen.validate_many([], on_error="ignore")
    assert len(tmapgen.validate_many([])) == 0 and tmapgen.validate_many([]).all_valid


def test_the_gil_is_released_for_bytes():
    """Another Python thread runs while validate_many parses and validates a large input."""
    line = LINES[0].encode() + b"\n"
    data = line * 200_000
    ticks = []
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            ticks.append(1)

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = len(ticks)
        sys.setswitchinterval(1.0)  # with the GIL held, the spinner would barely run during the call
        out = tmapgen.validate_many(data)
        during = len(ticks) - before
    finally:
        sys.setswitchinterval(0.005)
        stop.set()
        t.join()
    assert len(out) == 200_000
    assert during > 1000, during


# ---- one implementation, two faces ------------------------------------------------------------------

def _run(cli, *args, stdin=None):
    return subprocess.run([cli, *args], capture_output=True, input=stdin, timeout=300)


def _without_file(jsonl):
    """The command line names the input file in its input-error reports ("file"); validate_many() reads
    bytes and has none, so the comparison leaves that field out."""
    return re.sub(rb',"file":"[^"]*"', b"", jsonl)


def test_json_lines_agree_byte_for_byte_with_the_cli(cli, tmp_path):
    """2,000 generated specs of every mode (30 % invalid, some unreadable) through both faces."""
    path = tmp_path / "specs.jsonl"
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "dev", "gen-specs.py"), "2000", str(path), "--seed", "5",
                    "--input-error-frac", "0.03"], check=True, stderr=subprocess.DEVNULL)
    p = _run(cli, "validate", str(path), "--format", "json", "--no-gpu")
    assert p.returncode in (1, 2), p.stderr
    mine = tmapgen.validate_many(path.read_bytes(), on_error="report")
    assert mine.to_jsonl() == _without_file(p.stdout)
    assert mine.input_error_count > 0 and 0 < mine.valid_count < len(mine)
    # Each report alone (validate() of the same spec) is the same JSON, index aside.
    cli_reports = [json.loads(l) for l in p.stdout.splitlines()]
    specs = [r.spec for r in mine if not r.is_input_error][:300]
    for s, rep in zip(specs, (c for c in cli_reports if c["diagnostics"][:1] == [] or
                                c["diagnostics"][0]["rule"] != "input-error")):
        j = json.loads(tmapgen.validate(s).to_json())
        rep = dict(rep, index=0)
        assert j == rep


def test_target_flag_agrees(cli, tmp_path):
    """For specs that name no target, target= is the command line's --target. (A spec's own target is
    kept by --target but replaced by target=, as every keyword replaces the spec's field in Python.)"""
    no_target = b"".join(l + b"\n" for l in TEXT.splitlines() if b'"target"' not in l)
    path = tmp_path / "t.jsonl"
    path.write_bytes(no_target)
    p = _run(cli, "validate", str(path), "--format", "json", "--no-gpu", "--target", "sm_100a")
    assert tmapgen.validate_many(no_target, target="sm_100a", on_error="report").to_jsonl() == _without_file(p.stdout)
    assert tmapgen.validate_many(TEXT, target="sm_100a", on_error="report")[3].target == "sm_100a"


def test_text_report_agrees(cli, tmp_path):
    spec = dict(tensor_data_type="f16", global_dim=[500, 64], global_strides=[1000], box_dim=[3, 300],
                swizzle="64B", target="sm_90a")
    f = tmp_path / "one.json"
    f.write_text(json.dumps(spec))
    p = _run(cli, "validate", str(f), "--no-gpu", "--color", "never")
    assert p.stdout.decode() == str(tmapgen.validate(spec)) + "\n"
    assert "1 spec: 0 valid, 1 invalid" in p.stderr.decode()


def test_spec_json_is_read_back_by_the_cli(cli, tmp_path):
    s = TensorMapSpec(mode="gather4", dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 1], swizzle="128B",
                      target="sm_100a", name="rows")
    f = tmp_path / "s.json"
    f.write_text(s.to_json())
    p = _run(cli, "validate", str(f), "--format", "json", "--no-gpu")
    # to_json() writes every field, the dense strides included, so the file gives them: the same report as the
    # spec read back from it, and as the spec itself but for the marker of strides filled in.
    assert json.loads(p.stdout) == json.loads(tmapgen.validate(TensorMapSpec.from_json(s.to_json())).to_json())
    mine = json.loads(tmapgen.validate(s).to_json())
    assert mine.pop("global_strides_default") == "dense"
    assert json.loads(p.stdout) == mine
