"""Descriptors: wgmma_desc, tcgen05_desc, decode_desc, check_desc, idesc, decode_idesc.

Expected values come from the PTX ISA's bit layouts (wgmma 9.7.15.5.1.2.2: start address bits 0-13, LBO
16-29, SBO 32-45, base offset 49-51, layout type 62-63 with 128B swizzle = 1; tcgen05 9.7.16.4.1 Table 40:
the same fields, bits 46-48 fixed to 0b001, layout type 61-63 with 128B swizzle = 2; addresses and offsets
in 16-byte units), CUTLASS's canonical K-major 128B-swizzled layout (SBO = 8 rows x 128 B = 1024 B; LBO unused,
encoded 1), and the instruction descriptor of Table 42 (d_type bits 4-5, f32 = 1; a/b type bits 7-9/10-12,
bf16 = 1; N >> 3 at bits 17-22; M >> 4 at bits 24-28). Agreement with the command line compares the JSON of
`tmapgen desc/idesc ... --format json` for the same arguments.
"""

import json
import subprocess

import pytest

import tmapgen
from tmapgen import SpecError


def fields(report):
    return {f.name: f for f in report.fields}


def test_tcgen05_k_major_128b_tile():
    d = tmapgen.tcgen05_desc(operand="A", dtype="bf16", tile=(128, 64), smem_address=0x400)
    f = fields(d)
    assert d.valid and d.arch == "tcgen05"
    assert f["start_address"].encoded == 0x400 >> 4 and f["start_address"].bytes == 0x400
    assert d.sbo == 1024 and f["stride_byte_offset"].encoded == 64
    assert f["leading_byte_offset"].encoded == 1
    assert f["fixed_0b001"].lo == 46 and f["fixed_0b001"].encoded == 1
    assert f["layout_type"].lo == 61 and f["layout_type"].encoded == 2 and d.swizzle == "128B"
    want = (2 << 61) | (1 << 46) | (64 << 32) | (1 << 16) | 64
    assert d.value == want == int(d)
    assert str(d).startswith("tcgen05 shared-memory descriptor 0x%016x -- VALID" % want)


def test_wgmma_same_tile():
    d = tmapgen.wgmma_desc(operand="A", dtype="bf16", tile=(128, 64), smem_address=0x400)
    assert d.value == (1 << 62) | (64 << 32) | (1 << 16) | 64
    assert d.arch == "wgmma" and fields(d)["layout_type"].lo == 62


def test_k_slice_advances_the_start_by_32_bytes():
    # One MMA K of bf16 is 16 elements = 32 bytes of each row: the k-th slice starts 32 k bytes later.
    d = tmapgen.tcgen05_desc(dtype="bf16", tile=(128, 64), smem_address=0x400, k_slice=2)
    assert d.advanced_value == d.value + (64 >> 4)


def test_decode_reads_the_family_from_bits_46_48():
    t = tmapgen.decode_desc(0x4000404000010040)
    assert t.arch == "tcgen05" and t.arch_guessed and t.valid and t.start_address == 1024
    w = tmapgen.decode_desc("0x4000004000010040")
    assert w.arch == "wgmma" and w.arch_guessed
    assert tmapgen.decode_desc(0x4000004000010040, arch="wgmma").arch_guessed is False


def test_check_against_the_map_that_fills_the_tile():
    spec = tmapgen.TensorMapSpec(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B",
                                 target="sm_100a", smem_address=0x400)
    derived = tmapgen.tcgen05_desc(for_map=spec)
    assert derived.valid and derived.start_address == 0x400
    assert tmapgen.check_desc(derived.value, spec, arch="tcgen05").valid
    assert tmapgen.check_desc(derived.value, spec).valid  # family from bits 46-48
    wrong = derived.value ^ (1 << 32)  # SBO off by 16 bytes
    bad = tmapgen.check_desc(wrong, spec)
    assert not bad.valid and bad.errors
    assert isinstance(bad.errors[0], tmapgen.DescDiagnostic)


@pytest.mark.parametrize("call,field", [
    (lambda: tmapgen.tcgen05_desc(swizzle="128B", for_map=dict(dtype="bf16", global_dim=[64, 64], box_dim=[64, 8])),
     "swizzle"),
    (lambda: tmapgen.tcgen05_desc(swizzle="96B"), "swizzle"),
    (lambda: tmapgen.tcgen05_desc(tile=(128,)), "tile"),
    (lambda: tmapgen.tcgen05_desc(base_offset=9), "base_offset"),
    (lambda: tmapgen.wgmma_desc(lbo_mode="absolute", lbo=1024), "lbo_mode"),
    (lambda: tmapgen.tcgen05_desc(lbo_mode="absolute"), "lbo_mode"),
    (lambda: tmapgen.tcgen05_desc(k_slice=1, sub_tile=(0, 16)), "k_slice"),
    (lambda: tmapgen.decode_desc(-1), "value"),
    (lambda: tmapgen.decode_desc(0, arch="hopper"), "arch"),
    (lambda: tmapgen.decode_desc(0, dtype="bf16"), "tile"),
    (lambda: tmapgen.check_desc(0, None), "for_map"),
    (lambda: tmapgen.tcgen05_desc(for_map=dict(dtype="bf16")), "for_map.global_dim"),
    (lambda: tmapgen.idesc(kind="f17"), "kind"),
    (lambda: tmapgen.idesc(cta_group=3), "cta_group"),
    (lambda: tmapgen.idesc(k=96), "k"),
    (lambda: tmapgen.idesc(d_type="f64"), "d_type"),
    (lambda: tmapgen.decode_idesc(2**32), "value"),
    (lambda: tmapgen.idesc(a_source="regs"), "a_source"),
])
def test_malformed_arguments_name_the_argument(call, field):
    with pytest.raises(SpecError) as e:
        call()
    assert e.value.field == field, str(e.value)


def test_idesc_table_42():
    i = tmapgen.idesc(kind="f16", m=128, n=256, a_type="bf16", b_type="bf16", d_type="f32")
    assert i.value == (1 << 4) | (1 << 7) | (1 << 10) | ((256 >> 3) << 17) | ((128 >> 4) << 24) == 0x08400490
    assert i.valid and (i.m, i.n, i.k) == (128, 256, 16) and i.kind == "f16"
    f = {x.name: x for x in i.fields}
    assert (f["n"].lo, f["n"].encoded, f["m"].lo, f["m"].encoded) == (17, 32, 24, 8)
    assert "tcgen05.mma.cta_group::1.kind::f16" in i.to_dict()["ptx"]


def test_decode_idesc_every_kind_or_one():
    a = tmapgen.decode_idesc(0x08400490)
    assert a.all_kinds and a.valid and a.kind is None and a.fields == []
    kinds = {k["mma_kind"]: k["valid"] for k in a.to_dict()["by_kind"]}
    assert kinds["f16"] is True and kinds["tf32"] is False
    one = tmapgen.decode_idesc(0x08400490, kind="f16", target="sm_100a")
    assert one.valid and one.m == 128 and one.n == 256
    bad = tmapgen.idesc(kind="f16", m=96, n=256)  # M is 64 or 128 for cta_group 1 (Table 39)
    assert not bad.valid and bad.errors


def run_cli(cli, *args):
    p = subprocess.run([cli, *args, "--format", "json"], capture_output=True, text=True, timeout=60)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def test_desc_json_agrees_with_the_cli(cli, tmp_path):
    spec = dict(tensor_data_type="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B",
                target="sm_100a", smem_address=2048 + 128)
    f = tmp_path / "map.json"
    f.write_text(json.dumps(spec))
    cases = [
        (["desc", "tcgen05", "--operand", "B", "--major", "MN", "--dtype", "f16", "--tile", "64,128", "--swizzle", "64B"],
         lambda: tmapgen.tcgen05_desc(operand="B", major="MN", dtype="f16", tile=(64, 128), swizzle="64B")),
        (["desc", "wgmma", "--dtype", "e4m3", "--smem-address", "0x1000", "--k-slice", "1"],
         lambda: tmapgen.wgmma_desc(dtype="e4m3", smem_address=0x1000, k_slice=1)),
        (["desc", "tcgen05", "--for-map", str(f)], lambda: tmapgen.tcgen05_desc(for_map=spec)),
        (["desc", "decode", "0x4000404000010040", "--for-map", str(f)],
         lambda: tmapgen.check_desc(0x4000404000010040, spec)),
        (["desc", "decode", "0x4000004000010040", "--tile", "64,64", "--dtype", "bf16"],
         lambda: tmapgen.decode_desc(0x4000004000010040, tile=(64, 64), dtype="bf16")),
        (["idesc", "--kind", "mxf4nvf4", "--m", "256", "--n", "128", "--cta-group", "2", "--k", "96", "--scale-type",
          "ue4m3", "--target", "sm_103a"],
         lambda: tmapgen.idesc(kind="mxf4nvf4", m=256, n=128, cta_group=2, k=96, scale_type="ue4m3", target="sm_103a")),
        (["idesc", "decode", "0x08400490"], lambda: tmapgen.decode_idesc(0x08400490)),
        (["idesc", "--kind", "f16", "--m", "128", "--n", "128", "--a-source", "tmem"],
         lambda: tmapgen.idesc(kind="f16", m=128, n=128, a_source="tmem")),
        (["idesc", "decode", "0x08400490", "--kind", "f16", "--a-source", "tmem", "--target", "sm_100a"],
         lambda: tmapgen.decode_idesc(0x08400490, kind="f16", a_source="tmem", target="sm_100a")),
    ]
    for args, mine in cases:
        want = run_cli(cli, *args)
        got = mine().to_dict()
        if "map" in want and "source" in want["map"]:  # the command line names the file, Python the argument
            want["map"].pop("source")
            got["map"].pop("source", None)
        assert got == want, args


def test_drawing():
    d = tmapgen.tcgen05_desc(dtype="bf16", tile=(64, 64), draw=True, max_lines=8)
    assert d.has_tile and d.drawing().strip() and d.svg().startswith("<svg")
    with pytest.raises(SpecError):
        tmapgen.decode_desc(0x4000404000010040).drawing()


def test_desc_types_come_from_the_data_type_table():
    # PTX ISA 9.7.15: wgmma .e4m3 and .e5m2 are two types; int8 data is .s8.
    assert tmapgen.wgmma_desc(dtype="int8", smem_address=0x1000, tile=(64, 64)).to_dict()["layout"]["dtype"] == "s8"
    assert tmapgen.wgmma_desc(dtype="float8_e4m3fn", smem_address=0x1000).to_dict()["layout"]["dtype"] == "e4m3"
    with pytest.raises(SpecError) as e:
        tmapgen.wgmma_desc(dtype="fp8", smem_address=0x1000)
    assert e.value.field == "dtype" and "give e4m3 or e5m2" in str(e.value)
