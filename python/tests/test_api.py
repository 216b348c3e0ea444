"""The package's face: exported names, docstrings and help(), the type stubs (generated from the module by
nanobind's stubgen at build time) checked against the module and, where mypy is installed, by mypy on
code that uses the API (correct calls pass, wrong ones are reported)."""

import ast
import inspect
import os
import pydoc
import subprocess
import sys

import pytest

import tmapgen
from tmapgen import _tmapgen

STUB = os.path.join(os.path.dirname(tmapgen.__file__), "_tmapgen.pyi")


def test_exports_have_docstrings():
    for name in tmapgen.__all__:
        obj = getattr(tmapgen, name)
        if name == "__version__":
            assert isinstance(obj, str) and obj[0].isdigit()
            continue
        assert (obj.__doc__ or "").strip(), name
    assert issubclass(tmapgen.SpecError, ValueError) and tmapgen.SpecError.__module__ == "tmapgen"
    assert "tmapgen" in (tmapgen.__doc__ or "")


def test_help_reads_well():
    text = pydoc.render_doc(tmapgen.validate, renderer=pydoc.plaintext)
    assert "validate(spec" in text and "Validates one tensor map" in text and "SpecError" in text
    text = pydoc.render_doc(tmapgen.TensorMapSpec, renderer=pydoc.plaintext)
    assert "global_dim" in text and "innermost" in text and "replace" in text
    text = pydoc.render_doc(tmapgen.for_tensor, renderer=pydoc.plaintext)
    assert "for_tensor(tensor" in text and "DLPack" in text
    assert "transaction_bytes" in pydoc.render_doc(tmapgen.Report, renderer=pydoc.plaintext)


def stub_tree():
    if not os.path.exists(STUB):
        pytest.skip("no _tmapgen.pyi next to the module (the build did not generate stubs)")
    return ast.parse(open(STUB).read())


def test_stub_names_match_the_module():
    tree = stub_tree()
    stub_top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    public = {n for n in dir(_tmapgen) if not n.startswith("_")}  # stubgen leaves out private names
    runtime = {n for n in public if inspect.isclass(getattr(_tmapgen, n)) or callable(getattr(_tmapgen, n))}
    runtime.discard("SpecError")  # re-exported from tmapgen in the stub
    assert runtime <= stub_top | {"SpecError"}, runtime - stub_top
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        members = {m.name for m in cls.body if isinstance(m, ast.FunctionDef)}
        rt = getattr(_tmapgen, cls.name)
        for m in members:
            assert hasattr(rt, m), "%s.%s in the stub but not in the module" % (cls.name, m)
        for m in dir(rt):
            if not m.startswith("_") and m not in members:
                pytest.fail("%s.%s in the module but not in the stub" % (cls.name, m))


USES = '''
import tmapgen
spec = tmapgen.TensorMapSpec(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")
r: tmapgen.Report = tmapgen.validate(spec, target="sm_90a")
n: int = r.transaction_bytes
ok: bool = r.valid
fix: str = r.diagnostics[0].fix if r.diagnostics else ""
nv = r.nearest_valid()
if nv is not None:
    dims: tuple[int, ...] = nv.global_dim
many: tmapgen.ReportList = tmapgen.validate_many(b"{}", on_error="report")
first: tmapgen.Report = many[0]
text: str = str(r) + r.to_json()
t = tmapgen.for_tensor(object(), (8, 8), swizzle="128B")
addr: int | None = t.global_address
'''
USES_DESC = '''
d: tmapgen.DescReport = tmapgen.tcgen05_desc(dtype="bf16", tile=(128, 64))
v: int = d.value
i: tmapgen.IdescReport = tmapgen.idesc(kind="f16", m=128, n=256)
'''
USES_BLOB = '''
b: bytes = tmapgen.encode(dict(dtype="bf16", global_dim=[64, 64], box_dim=[64, 8]))
m = tmapgen.decode(b)
s = m.spec
'''
WRONG = '''
import tmapgen
r = tmapgen.validate(dict(dtype="bf16"), target=90)
x: str = r.transaction_bytes
'''


def mypy(code, tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy is not installed: the stubs are not type-checked")
    f = tmp_path / "uses.py"
    f.write_text(code)
    out, err, rc = api.run([str(f), "--no-incremental", "--cache-dir", os.devnull, "--python-version",
                            "%d.%d" % sys.version_info[:2], "--disallow-untyped-calls"])
    return rc, out + err


def test_mypy_accepts_correct_uses(tmp_path):
    stub_tree()
    code = USES + USES_DESC + USES_BLOB
    rc, out = mypy(code, tmp_path)
    assert rc == 0, out


def test_mypy_reports_wrong_uses(tmp_path):
    stub_tree()
    rc, out = mypy(WRONG, tmp_path)
    assert rc == 1
    assert 'Argument "target" to "validate" has incompatible type "int"' in out
    assert 'Incompatible types in assignment (expression has type "int", variable has type "str")' in out
