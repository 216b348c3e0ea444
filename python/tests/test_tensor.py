"""for_tensor on the host: numpy arrays (DLPack and __array_interface__) and objects that offer only the
CUDA array interface (its protocol dict, as numba and cupy publish it).

Expected values come from the arrays themselves (numpy's ctypes.data, strides, shape) and from the
mapping documented in tmapgen/_tensor.py (cuda.h types; CUTLASS's to_CUtensorMapDataType for the types
cuda.h lacks). The GPU tests (test_gpu.py) do the same with torch, cupy and jax tensors on a device.
"""

import numpy as np
import pytest

import tmapgen
from tmapgen import SpecError


def test_numpy_2d_through_dlpack():
    a = np.zeros((256, 128), dtype=np.float32)
    s = tmapgen.for_tensor(a, (64, 32), swizzle="128B")
    assert s.global_address == a.ctypes.data
    assert s.global_dim == (128, 256) and s.global_strides == (512,)
    assert s.box_dim == (32, 64) and s.swizzle == "128B" and s.dtype == "f32"
    assert s.origin[0] == "numpy.ndarray, float32 on cpu:0, shape [256, 128]"
    assert s.origin[1].startswith("read through DLPack")
    assert s.origin[2] == "dtype float32 -> CU_TENSOR_MAP_DATA_TYPE_FLOAT32"
    assert "host memory" in s.origin[3]
    r = tmapgen.validate(s, target="sm_90a")
    assert r.valid and r.origin == s.origin
    assert "origin                dtype float32 -> CU_TENSOR_MAP_DATA_TYPE_FLOAT32" in str(r)
    assert r.to_dict()["origin"] == s.origin


@pytest.mark.parametrize("dtype,carried,note", [
    (np.float16, "f16", None), (np.float32, "f32", None), (np.float64, "f64", None),
    (np.uint8, "u8", None), (np.uint16, "u16", None), (np.uint32, "u32", None), (np.uint64, "u64", None),
    (np.int32, "s32", None), (np.int64, "s64", None),
    (np.int8, "u8", "no signed 8-bit type"), (np.int16, "u16", "no signed 16-bit type"),
    (np.bool_, "u8", "one byte per value"),
])
def test_dtype_mapping(dtype, carried, note):
    a = np.zeros((16, 64), dtype=dtype)
    s = tmapgen.for_tensor(a, (8, 64 * 16 // np.dtype(dtype).itemsize // 16))
    assert s.dtype == carried
    if note:
        assert note in s.origin[2]


def test_dtype_override_of_the_same_width():
    a = np.zeros((64, 64), dtype=np.float32)
    assert tmapgen.for_tensor(a, (8, 8), dtype="tf32").dtype == "tf32"
    assert tmapgen.for_tensor(a, (8, 8), dtype="CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ").dtype == "f32_ftz"
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(a, (8, 8), dtype="f16")
    assert e.value.field == "dtype" and "32" in str(e.value)
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(a, (8, 8), dtype="f8")
    assert e.value.field == "dtype"


def test_views_slices_and_size_one_dimensions():
    base = np.zeros((100, 200), dtype=np.float16)
    v = base[10:90, 16:144]
    s = tmapgen.for_tensor(v, (16, 64))
    assert s.global_address == v.ctypes.data == base.ctypes.data + (10 * 200 + 16) * 2
    assert s.global_dim == (128, 80) and s.global_strides == (400,)
    w = np.zeros((4, 64), dtype=np.float32)[:, None, :]  # numpy gives the new axis stride 0
    assert w.strides[1] == 0
    t = tmapgen.for_tensor(w, (1, 1, 32))
    assert t.global_dim == (64, 1, 4)
    assert t.global_strides == (256, 256)  # dense: only index 0 of the size-1 dimension exists
    # A size-1 slice of a padded array keeps its row stride (320 B) in every numpy version (numpy before 2.3
    # already exports the inserted axis above with the dense stride through DLPack, so it gets no origin line).
    p = np.zeros((4, 2, 80), dtype=np.float32)[:, 1:2, :64]
    assert p.strides == (640, 320, 4)
    u = tmapgen.for_tensor(p, (1, 1, 32))
    assert u.global_dim == (64, 1, 4) and u.global_strides == (256, 640)
    assert any("global_strides[0]: dimension 1 has size 1 (only index 0 exists): stride 320 B replaced by the "
               "dense 256 B" in o for o in u.origin)


def test_element_strides_and_extra_fields_in_the_tensor_order():
    a = np.zeros((8, 64, 64), dtype=np.float16)
    s = tmapgen.for_tensor(a, (1, 32, 64), element_strides=(1, 2, 1), swizzle="128B", target="sm_90a",
                           l2_promotion="256B", name="act", direction="store")
    assert s.element_strides == (1, 2, 1) and s.box_dim == (64, 32, 1)
    assert (s.target, s.l2_promotion, s.name, s.direction) == ("sm_90a", "256B", "act", "store")
    c = tmapgen.for_tensor(np.zeros((2, 16, 16, 64), np.float16), mode="im2col", channels_per_pixel=64,
                           pixels_per_column=32, pixel_box_lower_corner=[-1, -1], pixel_box_upper_corner=[-1, -1])
    assert c.mode == "im2col" and c.box_dim is None and c.global_dim == (64, 16, 16, 2)


@pytest.mark.parametrize("make,words", [
    (lambda: np.zeros((64, 64), np.float16).T, "innermost dimension has a stride of 128 bytes"),
    (lambda: np.zeros((64, 64), np.float16)[::-1], "negative strides"),
    (lambda: np.zeros((1,) * 6, np.float16), "6 dimensions"),
    (lambda: np.zeros((), np.float16), "0-dimensional"),
    (lambda: np.zeros((8, 8), np.complex64), "complex64 has no tensor-map type"),
    (lambda: np.zeros((8, 8), ">f4"), "big-endian"),
    (lambda: [[1, 2], [3, 4]], "cannot read a list"),
])
def test_arrays_that_cannot_be_maps(make, words):
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(make(), None)
    assert words in str(e.value) and e.value.field == "tensor"


def test_argument_errors():
    a = np.zeros((64, 64), np.float16)
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(a, (8, 8, 8))
    assert e.value.field == "box" and "tensor's order" in str(e.value)
    for k in ("global_dim", "global_strides", "box_dim", "tensor_data_type"):
        with pytest.raises(SpecError) as e:
            tmapgen.for_tensor(a, (8, 8), **{k: [1]})
        assert e.value.field == k
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(a, (8, 8), swizzle="96B")
    assert e.value.field == "swizzle"
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(a, (8, 8), element_strides=(1,))
    assert e.value.field == "element_strides"


class CudaArray:
    """An object that offers only __cuda_array_interface__ (version 3), with a made-up device pointer."""

    def __init__(self, shape, typestr, strides=None, ptr=0x7F0000000000, dtype=None):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr, data=(ptr, False), strides=strides,
                                             version=3)
        if dtype is not None:
            self.dtype = dtype


def test_cuda_array_interface_dict():
    x = CudaArray((512, 256), "<f2")
    s = tmapgen.for_tensor(x, (64, 64), swizzle="128B")
    assert s.global_address == 0x7F0000000000 and s.global_dim == (256, 512) and s.global_strides == (512,)
    assert s.origin[1] == "read through __cuda_array_interface__" and not any("host memory" in o for o in s.origin)
    y = CudaArray((4, 100, 64), "<i4", strides=(100 * 512, 512, 4), ptr=0x7F0000000100)
    t = tmapgen.for_tensor(y, (1, 8, 32))
    assert t.dtype == "s32" and t.global_strides == (512, 51200) and t.global_address == 0x7F0000000100


def test_cuda_array_interface_opaque_types_by_name():
    class BF16:
        name = "bfloat16"

    class FP8:
        name = "float8_e4m3fn"

    assert tmapgen.for_tensor(CudaArray((64, 64), "<V2", dtype=BF16()), (8, 8)).dtype == "bf16"
    f8 = tmapgen.for_tensor(CudaArray((64, 64), "|V1", dtype=FP8()), (8, 16))
    assert f8.dtype == "u8" and "float8_e4m3fn -> CU_TENSOR_MAP_DATA_TYPE_UINT8" in f8.origin[2]
    with pytest.raises(SpecError) as e:
        tmapgen.for_tensor(CudaArray((64, 64), "|V2"), (8, 8))
    assert "pass dtype=" in str(e.value)
    assert tmapgen.for_tensor(CudaArray((64, 64), "|V2"), (8, 8), dtype="u16").dtype == "u16"


def test_array_interface_only():
    a = np.arange(64 * 32, dtype=np.uint16).reshape(64, 32)

    class HostOnly:
        __array_interface__ = a.__array_interface__

    s = tmapgen.for_tensor(HostOnly(), (8, 16))
    assert s.origin[1] == "read through __array_interface__"
    assert s.to_json() == tmapgen.for_tensor(a, (8, 16)).to_json()


def test_dlpack_capsule_reader_refuses_other_objects():
    with pytest.raises(TypeError):
        tmapgen._tmapgen._dlpack_info(object())


def test_origin_shows_the_reversals_and_box_errors_name_the_value_given():
    # The box follows the tensor's shape (outermost first); cuda.h's box_dim is innermost first. A box of
    # 300 rows exceeds cuTensorMapEncodeTiled's boxDim[i] <= 256 (cuda.h): the error names box[0], the
    # value as given, and the order it was read in.
    a = np.zeros((4096, 128), dtype=np.float16)
    s = tmapgen.for_tensor(a, (300, 64))
    assert s.box_dim == (64, 300)
    assert "global_dim [128, 4096] (innermost first) is the shape [4096, 128] (outermost first) reversed" in s.origin
    assert ("box_dim [64, 300] (innermost first) is the box [300, 64] given in the tensor's order (outermost "
            "first) reversed: box_dim[i] = box[1 - i]") in s.origin
    r = tmapgen.validate(s, target="sm_90a")
    assert not r.valid
    text = str(r)
    assert ("box_dim[1] (innermost first: box[0] of for_tensor's box, which is outermost first) = 300 exceeds "
            "256 elements") in text
    assert "[64, 300] (innermost first: the box [300, 64] given in the tensor's order, reversed)" in text
    assert '"box_given_order":"outermost_first"' in r.to_json()
    # A spec written innermost first reads its box_dim as given.
    t = tmapgen.validate(tmapgen.TensorMapSpec(dtype="f16", global_dim=[128, 4096], box_dim=[64, 300]), target="sm_90a")
    assert "box_dim[1] (innermost first: the 2nd value) = 300 exceeds 256 elements" in str(t)
    assert "box_given_order" not in t.to_json()
