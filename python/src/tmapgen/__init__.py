"""tmapgen: validate and build CUDA tensor maps (CUtensorMap) and tensor-core descriptors.

The same C++ core as the ``tmapgen`` command line, with Python types:

    >>> import tmapgen
    >>> r = tmapgen.validate(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")
    >>> r.valid, r.transaction_bytes, r.smem_alignment_recommended
    (True, 16384, 1024)

Specs:        TensorMapSpec, for_tensor (torch, cupy, jax, numpy: DLPack or __cuda_array_interface__)
Validation:   validate -> Report, validate_many -> ReportList
Descriptors:  wgmma_desc, tcgen05_desc, decode_desc, check_desc -> DescReport; idesc, decode_idesc -> IdescReport
Blobs:        decode(bytes) -> DecodedMap; encode(spec) -> MapBytes (the 128 bytes, offline)
Plans:        plan_gemm, plan_conv -> dict (every map, smem, barrier count and descriptor of a tile; docs/plan.md)
Errors:       SpecError (a ValueError) for a malformed spec or argument; an invalid spec is a Report with
              valid=False, and encode() of one raises InvalidMapError (a SpecError) naming the broken rules

docs/python.md in the repository has the whole API; every function has a docstring (help(tmapgen.validate)).
"""

import collections.abc as _abc

from ._tmapgen import (
    Diagnostic,
    Report,
    ReportList,
    SpecError,
    TensorMapSpec,
    __version__,
    validate,
    validate_many,
)
from ._tensor import for_tensor

_abc.Sequence.register(ReportList)

from ._tmapgen import (  # noqa: E402
    DescDiagnostic, DescField, DescReport, IdescReport, check_desc, decode_desc, decode_idesc, idesc,
    tcgen05_desc, wgmma_desc,
)
from ._tmapgen import DecodedMap, MapField, UnexplainedBit, decode  # noqa: E402
from ._blob import InvalidMapError, MapBytes, encode  # noqa: E402
from ._plan import plan_conv, plan_gemm  # noqa: E402

__all__ = [
    "Diagnostic",
    "Report",
    "ReportList",
    "SpecError",
    "TensorMapSpec",
    "for_tensor",
    "validate",
    "validate_many",
    "DecodedMap",
    "InvalidMapError",
    "MapBytes",
    "MapField",
    "UnexplainedBit",
    "decode",
    "encode",
    "plan_conv",
    "plan_gemm",
    "__version__",
    "DescDiagnostic",
    "DescField",
    "DescReport",
    "IdescReport",
    "check_desc",
    "decode_desc",
    "decode_idesc",
    "idesc",
    "tcgen05_desc",
    "wgmma_desc",
]
