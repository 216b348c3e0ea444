"""validate() and Report: verdicts, diagnostics and derived facts.

Expected values come from the documentation: cuda.h's limits (box extent at most 256, strides and inner
box rows multiples of 16 bytes), the PTX ISA's swizzle span/repeat (5.5.7: 128B swizzle spans 128 bytes,
repeats every 1024), the transaction count of a tile load (box elements x element size), the rule ids
and sources of docs/rules.md, and the README's worked example.
"""

import json

import pytest

import tmapgen
from tmapgen import SpecError, TensorMapSpec

GEMM_TILE = dict(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")
README = dict(dtype="f16", global_dim=[500, 64], global_strides=[1000], box_dim=[3, 300], swizzle="64B",
              target="sm_90a")


def test_valid_gemm_tile_facts():
    r = tmapgen.validate(**GEMM_TILE, target="sm_90a")
    assert r.valid and r.target == "sm_90a" and r.errors == []
    assert r.transaction_bytes == 64 * 128 * 2            # box elements x 2 bytes
    assert r.elements_per_copy == 64 * 128
    assert r.smem_bytes == r.smem_footprint_bytes == 16384
    assert r.swizzle_span == 128 and r.swizzle_repeat == 1024 and r.swizzle_atomicity == 16
    assert r.smem_alignment_required == 128                # PTX ISA: cp.async.bulk.tensor smem 128-byte aligned
    assert r.smem_alignment_recommended == 1024            # the 128B swizzle repeat (PTX ISA 5.5.7)
    assert r.inner_box_bytes == 128 and r.smem_row_pitch == 128
    assert r.coord0_multiple == 8                          # 16 bytes of bf16
    assert r.element_bits == r.smem_element_bits == 16
    assert r.encoder == "cuTensorMapEncodeTiled"
    assert r.global_extent_bytes == 4096 * 8192
    assert r.swizzle_base_offset is None and r.bytes_per_halo_pixel is None
    assert r.ptx == ["cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [dst], "
                     "[tmap, {x0, x1}], [mbar];"]
    assert "cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2" in r.host_code
    assert r.counts == {"errors": 0, "warnings": len(r.warnings), "notes": len(r.notes)}
    assert set(r.derived) >= {"transaction_bytes", "smem_footprint_bytes", "swizzle_repeat", "ptx"}
    assert r.derived["transaction_bytes"] == r.transaction_bytes


def test_facts_are_worded_per_direction():
    # PTX ISA 9.2 sections 9.7.9.25.5.2-9.7.9.25.5.4: loads into shared memory complete with
    # .mbarrier::complete_tx::bytes (the mbarrier counts the box's 64 x 128 x 2 bytes); stores and reductions
    # into global memory with .bulk_group (no mbarrier; shared memory is their source); a prefetch to L2 has
    # neither shared memory nor a completion mechanism.
    box = 64 * 128 * 2
    load = tmapgen.validate(**GEMM_TILE, target="sm_90a")
    assert (load.bytes_per_copy, load.transaction_bytes, load.completion, load.smem_role) == \
        (box, box, "mbarrier::complete_tx::bytes", "destination")
    for direction in ("store", "reduce"):
        extra = {"reduce_op": "add"} if direction == "reduce" else {}
        r = tmapgen.validate(**GEMM_TILE, target="sm_90a", direction=direction, **extra)
        assert r.valid, r.errors
        assert (r.bytes_per_copy, r.transaction_bytes, r.completion, r.smem_role) == (box, 0, "bulk_group", "source")
        assert r.smem_bytes == box
        assert r.derived["completion"] == "bulk_group" and r.derived["bytes_per_copy"] == box
        assert "expect_tx" not in str(r) and "transaction bytes" not in str(r)
    p = tmapgen.validate(**GEMM_TILE, target="sm_90a", direction="prefetch")
    assert (p.bytes_per_copy, p.transaction_bytes, p.completion, p.smem_role, p.smem_bytes) == (box, 0, "none", "none", 0)


def test_without_target_every_target_is_tried():
    r = tmapgen.validate(**GEMM_TILE)
    assert r.valid and r.target is None
    assert r.valid_targets[:2] == ["sm_90", "sm_90a"] and len(r.valid_targets) == 16
    assert r.min_target == "sm_90"


def test_blackwell_only_swizzle_depends_on_the_target():
    # docs/rules.md target-swizzle-atomicity: the 128B_ATOM_* swizzles need compute capability 10.0.
    spec = TensorMapSpec(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B_atom_32B")
    hopper = tmapgen.validate(spec, target="sm_90a")
    assert not hopper.valid and [d.rule for d in hopper.errors] == ["target-swizzle-atomicity"]
    assert hopper.errors[0].target == "sm_90a"
    assert tmapgen.validate(spec, target="sm_100a").valid
    anyt = tmapgen.validate(spec)
    assert anyt.valid and "sm_90a" not in anyt.valid_targets and anyt.min_target == "sm_100"


def test_readme_example_every_finding_and_the_nearest_valid_spec():
    r = tmapgen.validate(**README)
    assert not r.valid
    errs = {d.rule: d for d in r.errors}
    assert set(errs) == {"global-stride-align-16", "box-dim-range", "box-inner-bytes-16"}
    assert errs["box-dim-range"].field == "box_dim[1]"
    assert (errs["box-dim-range"].value, errs["box-dim-range"].limit) == (300, 256)
    assert errs["global-stride-align-16"].field == "global_strides[0]" and errs["global-stride-align-16"].value == 1000
    assert "1008" in errs["global-stride-align-16"].fix
    assert errs["box-inner-bytes-16"].source.startswith("cuda.h")
    assert [d.severity for d in r.diagnostics][:3] == ["error"] * 3  # errors first
    # global_dim[1] is 64: the box-dim-range fix, the box-exceeds-tensor note and the repair all take 64.
    assert "box_dim[1] = 64" in errs["box-dim-range"].fix
    fixed = r.nearest_valid()
    assert fixed.box_dim == (8, 64) and fixed.global_strides == (1008,)
    assert tmapgen.validate(fixed).valid
    assert r.nearest_valid_changes() == ["box_dim[0]: 3 -> 8", "global_strides[0]: 1000 -> 1008",
                                         "box_dim[1]: 300 -> 64"]
    text = str(r)
    assert text.startswith("spec 0: tiled map, load -- INVALID for sm_90a")
    assert "nearest valid configuration" in text and repr(r) == text
    assert "\x1b[" in r.text(color=True) and "\x1b[" not in text


def test_valid_spec_nearest_valid_is_itself():
    r = tmapgen.validate(**GEMM_TILE)
    assert r.nearest_valid() == r.spec and r.nearest_valid_changes() == []


def test_diagnostic_objects():
    d = tmapgen.validate(**README).errors[0]
    assert isinstance(d, tmapgen.Diagnostic)
    assert d.line is None and d.column is None
    assert d.rule in repr(d) and "fix:" in str(d)


def test_json_report():
    r = tmapgen.validate(**README)
    j = json.loads(r.to_json())
    assert j == r.to_dict()
    assert j["index"] == 0 and j["valid"] is False and j["target"] == "sm_90a"
    assert [x["rule"] for x in j["diagnostics"]] == [d.rule for d in r.diagnostics]
    assert j["nearest_valid"]["changes"] == r.nearest_valid_changes()
    assert j["derived"]["transaction_bytes"] == r.transaction_bytes


def test_spec_fields_override_and_target_argument():
    spec = TensorMapSpec(**GEMM_TILE)
    r = tmapgen.validate(spec, swizzle="64B")  # 128-byte rows no longer fit the 64-byte span
    assert not r.valid and r.errors[0].rule == "swizzle-inner-span"
    assert r.spec.swizzle == "64B" and spec.swizzle == "128B"
    assert tmapgen.validate(spec, target="sm_120a").target == "sm_120a"
    with pytest.raises(SpecError) as e:
        tmapgen.validate(spec, target="sm_42")
    assert e.value.field == "target"
    with pytest.raises(SpecError) as e:
        tmapgen.validate(dict(GEMM_TILE, box_dim=[64, -1]))
    assert e.value.field == "box_dim[1]"


def test_swizzle_base_offset_from_the_destination():
    # PTX ISA 5.5.7 / wgmma descriptor base offset: (address / 128) % (repeat / 128) for a 1024-byte repeat.
    r = tmapgen.validate(**GEMM_TILE, smem_address=0x400 + 3 * 128)
    assert r.swizzle_base_offset == 3


def test_im2col_facts():
    r = tmapgen.validate(mode="im2col", dtype="f16", global_dim=[64, 56, 56, 32], channels=64, pixels=128,
                         lower_corner=[-1, -1], upper_corner=[-1, -1], swizzle="128B", target="sm_90a")
    assert r.valid, str(r)
    assert r.encoder == "cuTensorMapEncodeIm2col"
    assert r.transaction_bytes == 64 * 128 * 2  # channels x pixels x element size
    assert r.spec.box_dim is None
    assert ".im2col" in r.ptx[0]


def test_smem_alignment_has_one_name_per_meaning():
    # Required (PTX ISA, cp.async.bulk.tensor: the shared-memory address is 128-byte aligned) and recommended (the
    # swizzle repeat, 1024 B for 128B: there the wgmma matrix descriptor's base offset is 0, PTX ISA "matrix
    # descriptor"). The bare name meant the first here and the second in generated code: it is gone, and reading
    # it says which two names replace it.
    r = tmapgen.validate(**GEMM_TILE, target="sm_90a")
    assert (r.smem_alignment_required, r.smem_alignment_recommended) == (128, 1024)
    with pytest.raises(AttributeError) as e:
        r.smem_alignment
    assert "smem_alignment_required" in str(e.value) and "smem_alignment_recommended" in str(e.value)
    assert r.to_dict()["derived"]["smem_alignment_recommended"] == 1024
    assert "smem_alignment" not in r.to_dict()["derived"]
    # The spec's own smem_alignment is an input: the alignment the caller guarantees (docs/schema.md).
    assert TensorMapSpec(**GEMM_TILE, smem_alignment=256).smem_alignment == 256


def test_min_target_is_the_lowest_valid_whatever_target_was_asked():
    # PTX ISA (cp.async.bulk.tensor): a .tile load into .shared::cta exists from sm_90.
    r = tmapgen.validate(**GEMM_TILE, target="sm_100a")
    assert r.valid and r.valid_targets == ["sm_100a"] and r.min_target == "sm_90"
    assert r.to_dict()["min_target"] == "sm_90"
    assert "minimum target        sm_90\n" in str(r)


def test_strides_not_given_are_the_dense_tensors():
    # cuda.h: globalStrides[0] = globalDim[0] x element size + padding[0]; dense: 4100 x 2 B (bf16) = 8200, which is
    # not a multiple of 16 (cuda.h): invalid, naming global_strides[0], with the padded pitch 8208 as the fix.
    r = tmapgen.validate(dtype="bf16", global_dim=[4100, 8192], box_dim=[64, 128], swizzle="128B", target="sm_90a")
    assert r.spec.global_strides == (8200,)
    assert not r.valid and [(d.rule, d.field) for d in r.errors] == [("global-stride-align-16", "global_strides[0]")]
    assert "dense" in r.errors[0].fix and "8208" in r.errors[0].fix
    assert r.to_dict()["global_strides_default"] == "dense"
    assert "(dense default: not given)" in str(r)
    given = tmapgen.validate(dtype="bf16", global_dim=[4100, 8192], global_strides=[8208], box_dim=[64, 128],
                             swizzle="128B", target="sm_90a")
    assert given.valid and "global_strides_default" not in given.to_dict()
