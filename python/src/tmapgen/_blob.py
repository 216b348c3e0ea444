"""encode: a spec's 128-byte CUtensorMap without a GPU or a driver (src/blob/blob.h)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from . import _tmapgen
from ._tmapgen import TensorMapSpec


class MapBytes(bytes):
    """The 128 bytes of a CUtensorMap (a bytes object: pass it where a map is expected), with
    `caveats`: what the bytes rest on (a global address not given, a wide mode the measured sm_90
    driver does not write, ...); () when nothing needs saying."""

    caveats: Tuple[str, ...] = ()

    @property
    def words(self) -> Tuple[int, ...]:
        """The 16 little-endian 64-bit words, word 0 first (as CUTLASS-style dumps print them)."""
        return tuple(int.from_bytes(self[i:i + 8], "little") for i in range(0, 128, 8))


def encode(spec: Optional[Any] = None, /, **fields: Any) -> MapBytes:
    """The 128 bytes the CUDA driver writes for the spec's cuTensorMapEncode* call, computed offline from
    the layout measured on the real driver (docs/tensormap-layout.md), as the reports' `bytes` are.

    `spec` is a TensorMapSpec or a dict; keyword arguments give or replace fields (TensorMapSpec names).
    A value that does not fit its field, or a spec outside the measured evidence (the sub-byte types and
    128B_ATOM_* swizzles the sm_90 driver rejects, a Blackwell target), raises SpecError naming the field.
    Encoding does not validate: validate() first if the driver must accept the map.
    """
    if isinstance(spec, TensorMapSpec) and not fields:
        s = spec
    else:
        s = TensorMapSpec(spec, **fields)
    raw, caveats = _tmapgen._encode(s)
    out = MapBytes(raw)
    out.caveats = tuple(caveats)
    return out
