"""TensorMapSpec: the schema's names and short forms, and SpecError for every malformed value.

Expected values are the schema's documented behaviour (docs/schema.md: names, defaults, dense strides:
cuda.h's globalStrides[0] = globalDim[0] x element size + padding[0] with no padding) and cuda.h's
enumerator values.
"""

import copy
import pickle

import pytest

import tmapgen
from tmapgen import SpecError, TensorMapSpec

BASE = dict(tensor_data_type="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")


def test_kwargs_dict_and_short_forms_are_the_same_spec():
    a = TensorMapSpec(**BASE)
    b = TensorMapSpec(BASE)
    c = TensorMapSpec(dtype="bf16", global_dim=(4096, 4096), box_dim=(64, 128), swizzle="CU_TENSOR_MAP_SWIZZLE_128B")
    d = TensorMapSpec(tensor_data_type=9, global_dim=[4096, 4096], box_dim=[64, 128], swizzle=3)  # cuda.h values
    assert a == b == c == d
    assert a.dtype == a.tensor_data_type == "bf16"
    assert a.cuda_data_type == "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"
    assert a.swizzle == "128B" and a.rank == a.tensor_rank == 2


def test_every_short_alias():
    s = TensorMapSpec(mode="im2col", dtype="f16", rank=4, global_dim=[64, 56, 56, 32], channels=64, pixels=128,
                      lower_corner=[-1, -1], upper_corner=[-1, -1], l2="256B", oob="nan")
    assert (s.channels_per_pixel, s.pixels_per_column) == (64, 128)
    assert s.pixel_box_lower_corner == (-1, -1) and s.pixel_box_upper_corner == (-1, -1)
    assert s.l2_promotion == "256B" and s.oob_fill == "nan" and s.box_dim is None
    w = TensorMapSpec(mode="im2col::w", dtype="f16", global_dim=[64, 56, 56, 32], channels=64, pixels=128,
                      lower_corner_w=-1, upper_corner_w=-1, swizzle="128B")
    assert (w.pixel_box_lower_corner_width, w.pixel_box_upper_corner_width) == (-1, -1)
    assert w.wide_mode == "w"  # follows the mode (docs/schema.md)


def test_defaults_of_the_schema():
    s = TensorMapSpec(dtype="f16", global_dim=[100, 4, 3], box_dim=[8, 4, 1])
    # The dense tensor's strides (cuda.h, cuTensorMapEncodeTiled: globalStrides[0] = globalDim[0] x element size
    # + padding[0], globalStrides[1] = globalStrides[0] x (globalDim[1] + padding[1]), padding 0): 100 x 2 B = 200,
    # then 200 x 4 = 800. Not rows padded to 208: that would describe another tensor.
    assert s.global_strides == (200, 800)
    assert s.element_strides == (1, 1, 1)
    assert (s.mode, s.direction, s.interleave, s.swizzle, s.l2_promotion, s.oob_fill) == (
        "tiled", "load", "none", "none", "128B", "zero")
    assert s.target is None and s.global_address is None and s.smem_address is None and s.name is None


def test_none_means_not_given():
    assert TensorMapSpec(**BASE, target=None, global_strides=None) == TensorMapSpec(**BASE)


def test_addresses_and_driver_version():
    s = TensorMapSpec(**BASE, global_address="0x7f0000001000", smem_address=1024, driver_version="13.0")
    assert s.global_address == 0x7F0000001000 and s.smem_address == 1024 and s.driver_version == 13000
    assert TensorMapSpec(**BASE, global_address=2**64 - 1).global_address == 2**64 - 1


@pytest.mark.parametrize("fields,field,words", [
    (dict(global_dim=[4096, -4]), "global_dim[1]", "expected an unsigned integer, got -4"),
    (dict(global_dim=[2**64, 1]), "global_dim[0]", "does not fit in 64 bits"),
    (dict(box_dim=[2**32, 1]), "box_dim[0]", "does not fit in 32 bits"),
    (dict(box_dim=[64.0, 128]), "box_dim[0]", "expected an unsigned integer, got float"),
    (dict(box_dim=[True, 128]), "box_dim[0]", "expected an unsigned integer, got bool"),
    (dict(box_dim=64), "box_dim", "expected a list of integers"),
    (dict(global_dim=[1, 2, 3, 4, 5, 6]), "global_dim[5]", "more than 5 entries"),
    (dict(swizzle="256B"), "swizzle", "unknown value \"256B\"; expected one of"),
    (dict(swizzle=7), "swizzle", "enum value 7 is out of range"),
    (dict(swizzle=1.5), "swizzle", "expected a name (str) or the cuda.h integer, got float"),
    (dict(mode="tensor"), "mode", "unknown value \"tensor\""),
    (dict(mode=0), "mode", "expected a name (str)"),
    (dict(target="sm_89"), "target", "unknown value \"sm_89\""),
    (dict(global_address="0xZZ"), "global_address", "expected an address"),
    (dict(global_address=-16), "global_address", "expected an address"),
    (dict(driver_version="thirteen"), "driver_version", "expected a driver version"),
    (dict(pixel_box_lower_corner_width=2**31), "pixel_box_lower_corner_width", "does not fit in a 32-bit int"),
    (dict(name=5), "name", "expected a str"),
])
def test_malformed_values_raise_spec_error_naming_the_field(fields, field, words):
    with pytest.raises(SpecError) as e:
        TensorMapSpec({**BASE, **fields})
    assert e.value.field == field
    assert str(e.value).startswith(field + ": ")
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


def test_unknown_fields_suggest_the_name():
    with pytest.raises(SpecError) as e:
        TensorMapSpec(**BASE, swizle="128B")
    assert e.value.field == "swizle" and 'did you mean "swizzle"' in str(e.value)
    with pytest.raises(SpecError) as e:
        TensorMapSpec(dtype="bf16", global_dim=[64, 64], box=[64, 64])
    assert "box_dim" in str(e.value) and "for_tensor" in str(e.value)
    with pytest.raises(SpecError) as e:
        TensorMapSpec({1: 2})
    assert "field names are str" in str(e.value)


def test_field_given_twice():
    with pytest.raises(SpecError) as e:
        TensorMapSpec({"dtype": "bf16", "tensor_data_type": "f16", "global_dim": [64], "box_dim": [8]})
    assert e.value.field == "tensor_data_type" and "given twice" in str(e.value)


@pytest.mark.parametrize("fields,field", [
    (dict(global_dim=[64, 64], box_dim=[8, 8]), "tensor_data_type"),
    (dict(dtype="f16", box_dim=[8, 8]), "global_dim"),
    (dict(dtype="f16", global_dim=[64, 64]), "box_dim"),
    (dict(dtype="f16", global_dim=[64, 64], box_dim=[8]), "box_dim"),
    (dict(dtype="f16", global_dim=[64, 64], box_dim=[8, 8], global_strides=[128, 128]), "global_strides"),
    (dict(dtype="f16", global_dim=[64, 64], box_dim=[8, 8], tensor_rank=3), "global_dim"),
    (dict(dtype="f16", global_dim=[64, 64], box_dim=[8, 8], element_strides=[1]), "element_strides"),
    (dict(mode="im2col", dtype="f16", global_dim=[64, 8, 8, 2], pixels_per_column=8), "channels_per_pixel"),
    (dict(mode="im2col", dtype="f16", global_dim=[64, 8, 8, 2], channels_per_pixel=8), "pixels_per_column"),
])
def test_missing_and_inconsistent_fields(fields, field):
    with pytest.raises(SpecError) as e:
        TensorMapSpec(fields)
    assert e.value.field == field, str(e.value)


def test_a_well_formed_spec_is_never_an_error():
    # Out of the driver's range (box 300 > 256, stride 1000 not a multiple of 16): well formed.
    s = TensorMapSpec(dtype="f16", global_dim=[500, 64], global_strides=[1000], box_dim=[3, 300])
    assert s.box_dim == (3, 300)


def test_non_dict_spec_is_a_type_error():
    with pytest.raises(TypeError):
        TensorMapSpec([1, 2, 3])
    with pytest.raises(TypeError):
        tmapgen.validate(42)


def test_round_trips():
    s = TensorMapSpec(**BASE, name="tile_a", target="sm_90a", global_address=0x10000)
    assert TensorMapSpec(s.to_dict(explicit_only=True)) == s
    assert TensorMapSpec.from_json(s.to_json()).to_json() == s.to_json()
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s and copy.copy(s) == s
    assert eval(repr(s), {"TensorMapSpec": TensorMapSpec}) == s
    assert hash(s) == hash(TensorMapSpec(s.to_dict(explicit_only=True)))
    canon = s.to_dict()
    assert canon["tensor_data_type"] == "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16" and canon["global_strides"] == [8192]


def test_replace_derives_again_what_was_not_given():
    s = TensorMapSpec(dtype="f16", global_dim=[64, 64], box_dim=[8, 8])
    t = s.replace(global_dim=[100, 64, 2], box_dim=[8, 8, 1])
    assert t.rank == 3 and t.global_strides == (200, 200 * 64)  # dense: 100 x 2 B, then x 64
    assert s.global_dim == (64, 64)  # unchanged
    u = TensorMapSpec(s, swizzle="32B")
    assert u.swizzle == "32B" and u.global_dim == s.global_dim


def test_from_json_errors_carry_line_and_field():
    with pytest.raises(SpecError) as e:
        TensorMapSpec.from_json('{"tensor_data_type": "f16",\n "global_dim": [64, -4], "box_dim": [8, 8]}')
    assert e.value.field == "global_dim[1]" and "line 2" in str(e.value)


def test_data_type_names_of_the_one_table():
    # cuda.h (CUDA 13.0) has no 8-bit float or signed 8-bit type: UINT8 carries them; the spec remembers the
    # name given and the report says what it was read as (docs/schema.md "Data types").
    for name in ("e4m3", "E5M2", "fp8", "int8", "float8_e4m3fn"):
        s = TensorMapSpec(dtype=name, global_dim=[4096, 64], box_dim=[128, 64])
        assert s.cuda_data_type == "CU_TENSOR_MAP_DATA_TYPE_UINT8" and s.dtype == "u8"
        assert s.data_type_alias == name.lower()
        assert TensorMapSpec(s.to_dict(explicit_only=True)).data_type_alias == name.lower()
    r = tmapgen.validate(TensorMapSpec(dtype="int8", global_dim=[4096, 64], box_dim=[128, 64]), target="sm_90a")
    assert "int8 is a signed 8-bit integer, not a tensor-map type: the map uses CU_TENSOR_MAP_DATA_TYPE_UINT8" in str(r)
    assert TensorMapSpec(dtype="uint8", global_dim=[64], box_dim=[16]).data_type_alias is None
    assert TensorMapSpec(dtype="e2m1", global_dim=[128], box_dim=[128]).cuda_data_type == "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B"
    with pytest.raises(SpecError) as e:
        TensorMapSpec(dtype="e9m9", global_dim=[64], box_dim=[16])
    assert e.value.field == "tensor_data_type"
