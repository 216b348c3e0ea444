"""for_tensor: the tensor map of an array that speaks DLPack or __cuda_array_interface__.

How an array is read, in this order (the first protocol the object offers and can carry its dtype):
  1. DLPack (``__dlpack__``/``__dlpack_device__``: torch, cupy, jax, numpy >= 1.22): the capsule's
     metadata is read in C++ (tmapgen._tmapgen._dlpack_info), without consuming it; strides are in elements.
  2. ``__cuda_array_interface__`` (cupy, numba, torch on CUDA) and ``__array_interface__`` (numpy):
     the dict's shape, typestr, data pointer and byte strides.
  3. torch tensors whose dtype neither protocol can carry (float8 and float4 on torch versions whose DLPack
     export refuses them): tensor.data_ptr(), stride() and element_size(), and the dtype's name.

What the map says about the array, and why (each choice is also written to the spec's ``origin``):
  - global_address is the data pointer (plus DLPack's byte_offset); global_dim is the shape reversed
    (cuda.h is innermost first); global_strides are the strides in bytes, reversed, without the
    innermost one, which must be one element (TMA reads dimension 0 contiguously).
  - A dimension of size 1 has only index 0, so its stride never moves an address; frameworks report any
    number there (torch's DLPack export writes 1). Its stride is set to the dense value (the next inner
    dimension's stride x size, rounded up to 16 bytes), and the origin says so when it differs.
  - Data types map to the cuda.h type that carries the bits: float16/bfloat16/float32/float64, int32,
    int64 and the unsigned integers to their own types; int8 and int16 to UINT8/UINT16 (cuda.h has no
    signed 8/16-bit type; CUTLASS's to_CUtensorMapDataType maps int8_t to UINT8); bool to UINT8; the
    8-bit floats (float8_e4m3fn, e5m2, e8m0fnu, ...) to UINT8, as CUTLASS maps float_e4m3_t, float_e5m2_t
    and float_ue8m0_t (cute/arch/copy_sm90_desc.hpp) and DeepGEMM maps torch.float8_e4m3fn: a copy moves
    the bytes unchanged. Packed 4-bit floats (DLPack float4_e2m1fn with 4 bits, torch float4_e2m1fn_x2)
    map to 16U4_ALIGN8B (CUTLASS's float_e2m1_t); pass dtype="16U4_ALIGN16B" for the padded
    shared-memory layout that tcgen05's f8f6f4 kinds read (CUTLASS float_e2m1_unpacksmem_t, DeepGEMM's
    packed FP4). Packed 6-bit floats map to 16U6_ALIGN16B (CUTLASS float_e2m3_t/float_e3m2_t).
    4- and 6-bit values stored one per byte (ml_dtypes) are bytes to TMA: UINT8.
  - ``dtype=`` overrides the mapping with any cuda.h type of the same width in global memory
    (tf32 or f32_ftz for a float32 tensor; the array's own type name is then noted).
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence, Tuple

from . import _tmapgen
from ._tmapgen import SpecError, TensorMapSpec

# DLPack type codes (dlpack.h, DLDataTypeCode).
_INT, _UINT, _FLOAT, _BFLOAT, _COMPLEX, _BOOL = 0, 1, 2, 4, 5, 6
_FLOAT8_NAMES = {
    7: "float8_e3m4", 8: "float8_e4m3", 9: "float8_e4m3b11fnuz", 10: "float8_e4m3fn",
    11: "float8_e4m3fnuz", 12: "float8_e5m2", 13: "float8_e5m2fnuz", 14: "float8_e8m0fnu",
}
_FLOAT6_NAMES = {15: "float6_e2m3fn", 16: "float6_e3m2fn"}
_FLOAT4 = 17

# DLPack device types (dlpack.h, DLDeviceType).
_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda_host", 13: "cuda_managed", 4: "opencl", 7: "vulkan", 8: "metal",
            10: "rocm", 11: "rocm_host", 14: "oneapi"}
_CUDA_DEVICES = (2, 3, 13)

# Names of dtypes that the array-interface typestrings cannot express (numpy "V" void), as frameworks
# and ml_dtypes spell them: (DLPack code, value bits, values per stored element, stored bits per element).
_NAMED = {
    "bfloat16": (_BFLOAT, 16, 1, 16),
    "float8_e3m4": (7, 8, 1, 8), "float8_e4m3": (8, 8, 1, 8), "float8_e4m3b11fnuz": (9, 8, 1, 8),
    "float8_e4m3fn": (10, 8, 1, 8), "float8_e4m3fnuz": (11, 8, 1, 8), "float8_e5m2": (12, 8, 1, 8),
    "float8_e5m2fnuz": (13, 8, 1, 8), "float8_e8m0fnu": (14, 8, 1, 8),
    "float6_e2m3fn": (15, 6, 1, 8), "float6_e3m2fn": (16, 6, 1, 8),
    "float4_e2m1fn": (_FLOAT4, 4, 1, 8),          # ml_dtypes: one value per byte
    "float4_e2m1fn_x2": (_FLOAT4, 4, 2, 8),       # torch: two packed values per byte
}

_CUTLASS = "CUTLASS cute/arch/copy_sm90_desc.hpp to_CUtensorMapDataType"


def _error(message: str) -> SpecError:
    """A SpecError whose `field` is the message's prefix ("box: 3 values ..." -> "box")."""
    e = SpecError(message)
    e.field = message.split(":", 1)[0]
    return e


class _View:
    """What the protocols say about an array: everything for_tensor needs, in bytes."""

    def __init__(self) -> None:
        self.protocol = ""
        self.address = 0
        self.device = ""
        self.device_type = 0
        self.shape: Tuple[int, ...] = ()
        self.strides_bits: Optional[Tuple[int, ...]] = None  # None: C-contiguous
        self.type_name = ""      # "bfloat16", "float8_e4m3fn", "uint8", ...
        self.code = -1           # DLPack code, -1 unknown (opaque)
        self.value_bits = 0      # bits of one value
        self.lanes = 1           # values per stored element (torch float4_e2m1fn_x2: 2)
        self.stored_bits = 0     # bits of one stored element (lanes x value bits, or padded)


def _type_name(code: int, bits: int, lanes: int) -> str:
    if code in _FLOAT8_NAMES:
        return _FLOAT8_NAMES[code]
    if code in _FLOAT6_NAMES:
        return _FLOAT6_NAMES[code]
    base = {_INT: "int", _UINT: "uint", _FLOAT: "float", _BFLOAT: "bfloat", _COMPLEX: "complex", _BOOL: "bool",
            _FLOAT4: "float4_e2m1fn"}.get(code, f"dlpack-code-{code}-")
    name = base if code in (_BOOL, _FLOAT4) else f"{base}{bits}"
    return name + (f"x{lanes}" if lanes != 1 else "")


def _framework_dtype_name(tensor: Any) -> str:
    """The array's own dtype name, without the framework prefix ("torch.float8_e4m3fn" -> "float8_e4m3fn")."""
    dt = getattr(tensor, "dtype", None)
    if dt is None:
        return ""
    name = getattr(dt, "name", None)
    if not isinstance(name, str):
        name = str(dt)
    return name.rsplit(".", 1)[-1]


def _from_dlpack(tensor: Any) -> _View:
    dev = tensor.__dlpack_device__() if hasattr(tensor, "__dlpack_device__") else (1, 0)
    device_type = int(dev[0])
    # stream=-1: "no synchronization" (array API): only metadata is read, never the data.
    attempts = []
    if device_type in _CUDA_DEVICES:
        attempts += [dict(stream=-1, max_version=(1, 1)), dict(stream=-1)]
    attempts += [dict(max_version=(1, 1)), dict()]
    capsule = None
    last: Optional[BaseException] = None
    for kw in attempts:
        try:
            capsule = tensor.__dlpack__(**kw)
            break
        except Exception as e:  # noqa: BLE001 - an older producer without these keywords, or one refusing -1
            last = e
    if capsule is None:
        raise last if last is not None else TypeError("__dlpack__ failed")
    info = _tmapgen._dlpack_info(capsule)
    v = _View()
    v.protocol = "DLPack %d.%d" % tuple(info["version"]) if info["version"] != (0, 0) else "DLPack (unversioned)"
    v.device_type = int(info["device_type"])
    v.device = "%s:%d" % (_DEVICES.get(v.device_type, "device-type-%d" % v.device_type), info["device_id"])
    v.address = int(info["data"]) + int(info["byte_offset"])
    v.shape = tuple(int(x) for x in info["shape"])
    v.code, v.value_bits, v.lanes = int(info["code"]), int(info["bits"]), int(info["lanes"]) or 1
    v.stored_bits = v.value_bits * v.lanes
    v.type_name = _type_name(v.code, v.value_bits, v.lanes)
    if info["strides"] is not None:
        v.strides_bits = tuple(int(s) * v.stored_bits for s in info["strides"])
    return v


_TYPESTR = re.compile(r"^([<>|=])([biufcmMOSUV])(\d+)$")


def _from_array_interface(tensor: Any, cai: dict, protocol: str) -> _View:
    v = _View()
    v.protocol = protocol
    if cai.get("mask") is not None:
        raise _error("tensor: masked arrays have no tensor map")
    m = _TYPESTR.match(str(cai.get("typestr", "")))
    if not m:
        raise _error("tensor: %s typestr %r is not understood" % (protocol, cai.get("typestr")))
    order, kind, size = m.group(1), m.group(2), int(m.group(3))
    if order == ">" and size > 1:
        raise _error("tensor: big-endian data (typestr %r) has no tensor map" % cai["typestr"])
    kinds = {"b": _BOOL, "i": _INT, "u": _UINT, "f": _FLOAT, "c": _COMPLEX}
    if kind in kinds:
        v.code, v.value_bits = kinds[kind], 8 * size
    elif kind == "V":  # opaque: the dtype's own name says what it is (bfloat16, float8_*, ...)
        named = _NAMED.get(_framework_dtype_name(tensor))
        if named and named[3] == 8 * size:
            v.code, v.value_bits, v.lanes, v.stored_bits = named
    else:
        raise _error("tensor: %s typestr %r has no tensor-map type" % (protocol, cai["typestr"]))
    if v.stored_bits == 0:
        v.stored_bits = 8 * size
    v.type_name = _framework_dtype_name(tensor) if kind == "V" else _type_name(v.code, v.value_bits, 1)
    if kind == "V" and v.code < 0:
        v.type_name = v.type_name or ("void%d" % (8 * size))
    data = cai.get("data")
    v.address = int(data[0]) if data else 0
    v.shape = tuple(int(x) for x in cai["shape"])
    st = cai.get("strides")
    v.strides_bits = None if st is None else tuple(8 * int(x) for x in st)
    v.device = "cuda" if protocol == "__cuda_array_interface__" else "cpu"
    v.device_type = 2 if protocol == "__cuda_array_interface__" else 1
    return v


def _from_torch(tensor: Any) -> _View:
    v = _View()
    v.protocol = "torch data_ptr()/stride() (its dtype has no DLPack code in this torch)"
    name = _framework_dtype_name(tensor)
    size = int(tensor.element_size())
    named = _NAMED.get(name)
    if named is None or named[3] != 8 * size:
        raise _error("tensor: torch dtype %s is not carried by DLPack here and is not a known TMA-able type" % name)
    v.code, v.value_bits, v.lanes, v.stored_bits = named
    v.type_name = name
    v.address = int(tensor.data_ptr())
    v.shape = tuple(int(x) for x in tensor.shape)
    v.strides_bits = tuple(8 * int(s) * size for s in tensor.stride())
    dev = tensor.device
    v.device = str(dev)
    v.device_type = 2 if getattr(dev, "type", "") == "cuda" else 1
    return v


def _view(tensor: Any) -> _View:
    errors = []
    if hasattr(tensor, "__dlpack__"):
        try:
            return _from_dlpack(tensor)
        except SpecError:
            raise
        except Exception as e:  # noqa: BLE001 - the producer refused (a dtype DLPack lacks, a readonly array)
            errors.append("__dlpack__: %s: %s" % (type(e).__name__, e))
    for attr in ("__cuda_array_interface__", "__array_interface__"):
        try:
            cai = getattr(tensor, attr, None)
        except Exception as e:  # noqa: BLE001 - torch raises for dtypes numpy has no typestr for
            errors.append("%s: %s: %s" % (attr, type(e).__name__, e))
            continue
        if cai is not None:
            return _from_array_interface(tensor, cai, attr)
    if callable(getattr(tensor, "data_ptr", None)) and callable(getattr(tensor, "element_size", None)):
        return _from_torch(tensor)
    why = "; ".join(errors) if errors else "it has neither __dlpack__ nor __cuda_array_interface__"
    raise _error("tensor: cannot read a %s as an array (%s)" % (type(tensor).__name__, why))


def _map_dtype(v: _View, override: Optional[str]) -> Tuple[str, str]:
    """(cuda.h short name, origin line) for the array's dtype."""
    code, bits, stored = v.code, v.value_bits, v.stored_bits // v.lanes
    carried = None
    why = ""
    if code == _FLOAT and bits in (16, 32, 64):
        carried = {16: "f16", 32: "f32", 64: "f64"}[bits]
    elif code == _BFLOAT and bits == 16:
        carried = "bf16"
    elif code == _UINT and bits in (8, 16, 32, 64):
        carried = {8: "u8", 16: "u16", 32: "u32", 64: "u64"}[bits]
    elif code == _INT and bits in (32, 64):
        carried = {32: "s32", 64: "s64"}[bits]
    elif code == _INT and bits in (8, 16):
        carried = {8: "u8", 16: "u16"}[bits]
        why = ("cuda.h has no signed %d-bit type; the copy moves the bits unchanged (%s maps int8_t to UINT8)"
               % (bits, _CUTLASS))
    elif code == _BOOL and stored == 8:
        carried, why = "u8", "one byte per value; the copy moves it unchanged"
    elif code in _FLOAT8_NAMES and bits == 8:
        carried = "u8"
        why = ("cuda.h has no 8-bit float type; the copy moves the bytes unchanged (%s maps float_e4m3_t, "
               "float_e5m2_t and float_ue8m0_t to UINT8); oob_fill nan needs a float type" % _CUTLASS)
    elif code == _FLOAT4 and bits == 4 and stored == 4:
        carried = "16U4_ALIGN8B"
        why = ("packed 4-bit values, packed in shared memory too (%s: float_e2m1_t); dtype=\"16U4_ALIGN16B\" "
               "gives one byte per value in shared memory, the layout tcgen05 .kind::f8f6f4/mxf8f6f4 read "
               "(float_e2m1_unpacksmem_t)" % _CUTLASS)
    elif code in _FLOAT6_NAMES and bits == 6 and stored == 6:
        carried = "16U6_ALIGN16B"
        why = "packed 6-bit values, one byte each in shared memory (%s: float_e2m3_t, float_e3m2_t)" % _CUTLASS
    elif code in (_FLOAT4,) + tuple(_FLOAT6_NAMES) and stored == 8:
        carried = "u8"
        why = ("%d-bit values stored one per byte: to TMA they are bytes (its 4- and 6-bit types need packed data)"
               % bits)
    elif code == _COMPLEX:
        raise _error("tensor: %s has no tensor-map type: view it as real pairs (e.g. torch.view_as_real) "
                        "and map that" % v.type_name)
    if override is not None:
        short, full, obits = _tmapgen._data_type_info(override)
        if obits != stored:
            raise _error("dtype: %s has %d bits per element in global memory; the tensor's %s has %d"
                            % (full, obits, v.type_name, stored))
        return short, "dtype %s given for the tensor's %s" % (full, v.type_name)
    if carried is None:
        raise _error("tensor: dtype %s (%d bits) has no tensor-map type; pass dtype=\"...\" with a cuda.h type "
                        "of the same width to map its bits" % (v.type_name or "unknown", v.value_bits))
    full = _tmapgen._data_type_info(carried)[1]
    line = "dtype %s -> %s" % (v.type_name, full) + (": " + why if why else "")
    return carried, line


def _round16(x: int) -> int:
    return (x + 15) // 16 * 16


def for_tensor(tensor: Any, box: Optional[Sequence[int]] = None, *, swizzle: Optional[str] = None,
               dtype: Optional[str] = None, element_strides: Optional[Sequence[int]] = None,
               **fields: Any) -> TensorMapSpec:
    """The tensor map of an array: torch, cupy, jax, numpy, or anything with DLPack or
    __cuda_array_interface__.

    `box` is the box in the array's own dimension order (outermost first, like ``tensor.shape`` and
    Triton's block_shape); the map's box_dim is its reverse. `element_strides`, when given, is in the same
    order. `swizzle` and every other keyword are spec fields (TensorMapSpec names: mode, direction,
    interleave, l2_promotion, oob_fill, target, smem_address, name, the im2col fields, ...); global_dim,
    global_strides and box_dim come from the array and cannot be given. `dtype` overrides the data-type
    mapping with a cuda.h type of the same width.

    The map's global_address is the data pointer, global_dim the shape reversed, global_strides the
    strides in bytes; every choice made (the protocol, the cuda.h type that carries the dtype, strides of
    size-1 dimensions) is listed in the spec's `origin` and printed in its report.

        >>> x = torch.empty(4096, 4096, dtype=torch.bfloat16, device="cuda")
        >>> spec = tmapgen.for_tensor(x, (128, 64), swizzle="128B")
        >>> spec.global_dim, spec.box_dim
        ((4096, 4096), (64, 128))

    Raises SpecError when the array cannot be a tensor map as it is (more than 5 dimensions, an
    innermost dimension that is not contiguous, negative strides, a dtype with no cuda.h type) or a
    field is malformed. A map the driver would reject is not an error: validate() explains it.
    """
    for k in ("global_dim", "global_strides", "box_dim", "tensor_rank", "rank", "tensor_data_type"):
        if k in fields:
            what = "dtype" if k == "tensor_data_type" else "box (in the tensor's order)" if k == "box_dim" else None
            raise _error("%s: comes from the tensor%s" % (k, "; give " + what if what else ""))
    v = _view(tensor)
    rank = len(v.shape)
    if rank == 0:
        raise _error("tensor: a 0-dimensional array has no tensor map (rank 1 to 5)")
    if rank > 5:
        raise _error("tensor: %d dimensions; a tensor map has at most 5 (merge contiguous dimensions with a "
                        "reshape/view first)" % rank)
    carried, dtype_line = _map_dtype(v, dtype)
    origin = ["%s, %s on %s, shape %s" % (type(tensor).__module__.split(".")[0] + "." + type(tensor).__name__,
                                          v.type_name, v.device, list(v.shape)),
              "read through %s" % v.protocol, dtype_line]
    if v.device_type not in _CUDA_DEVICES:
        origin.append("the data is in host memory (%s): global_address is a host address; a kernel needs device "
                      "memory (or a mapped pinned allocation's device pointer)" % v.device)

    # Dims innermost first; the innermost dimension counts values (two per byte for packed 4-bit pairs).
    dims = [int(x) for x in reversed(v.shape)]
    dims[0] *= v.lanes
    origin.append("global_dim %s (innermost first) is the shape %s (outermost first) reversed%s"
                  % (dims, list(v.shape), " (dimension 0 counts %d values per element)" % v.lanes if v.lanes > 1 else ""))
    if v.strides_bits is None:  # C-contiguous
        acc, sb = v.stored_bits, []
        for i in range(rank - 1, -1, -1):
            sb.append(acc)
            acc *= max(1, v.shape[i])
        strides_bits = tuple(reversed(sb))
    else:
        strides_bits = v.strides_bits
        if any(x < 0 for x in strides_bits):
            raise _error("tensor: negative strides: a tensor map walks each dimension upward (flip the view, or "
                            "copy it)")
    if v.shape[-1] > 1 and strides_bits[-1] != v.stored_bits:
        raise _error("tensor: the innermost dimension has a stride of %g bytes, not one element (%g B): a tensor "
                        "map reads dimension 0 contiguously (use .contiguous(), or a view whose last dimension is the "
                        "contiguous one)" % (strides_bits[-1] / 8, v.stored_bits / 8))
    # Size-1 dimensions: only index 0 exists, so the stride is free; use the dense value.
    dense = _round16((dims[0] * (v.stored_bits // v.lanes) + 7) // 8)
    global_strides = []
    for j in range(rank - 1):  # global_strides[j] is the stride of dimension j + 1 (innermost first)
        bits = strides_bits[rank - 2 - j]
        if dims[j + 1] == 1:
            if bits != 8 * dense:
                origin.append("global_strides[%d]: dimension %d has size 1 (only index 0 exists): stride %g B "
                              "replaced by the dense %d B" % (j, j + 1, bits / 8, dense))
            bits = 8 * dense
        if bits % 8:
            raise _error("tensor: the stride of dimension %d (%g bytes) does not fall on a byte boundary"
                            % (j + 1, bits / 8))
        global_strides.append(bits // 8)
        dense = _round16(bits // 8 * dims[j + 1])

    spec_fields = dict(fields)
    spec_fields["tensor_data_type"] = carried
    spec_fields["global_dim"] = dims
    spec_fields["global_strides"] = global_strides
    spec_fields.setdefault("global_address", v.address)
    if swizzle is not None:
        spec_fields["swizzle"] = swizzle
    if box is not None:
        b = [int(x) for x in box]
        if len(b) != rank:
            raise _error("box: %d values for a %d-dimensional tensor (the box is in the tensor's order, like "
                            "its shape %s)" % (len(b), rank, list(v.shape)))
        spec_fields["box_dim"] = list(reversed(b))
        origin.append("box_dim %s (innermost first) is the box %s given in the tensor's order (outermost first) "
                      "reversed: box_dim[i] = box[%d - i]" % (spec_fields["box_dim"], b, rank - 1))
    if element_strides is not None:
        e = [int(x) for x in element_strides]
        if len(e) != rank:
            raise _error("element_strides: %d values for a %d-dimensional tensor (in the tensor's order)"
                            % (len(e), rank))
        spec_fields["element_strides"] = list(reversed(e))
        origin.append("element_strides %s (innermost first) are the element_strides %s given in the tensor's order reversed"
                      % (spec_fields["element_strides"], e))
    return TensorMapSpec._with_origin(spec_fields, origin, box is not None)
