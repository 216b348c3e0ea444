"""tmapgen: validate and build CUDA tensor maps (CUtensorMap) and tensor-core descriptors.

The same C++ core as the ``tmapgen`` command line, with Python types:

    >>> import tmapgen
    >>> r = tmapgen.validate(dtype="bf16", global_dim=[4096, 4096], box_dim=[64, 128], swizzle="128B")
    >>> r.valid, r.transaction_bytes, r.smem_alignment_recommended
    (True, 16384, 1024)

Specs:        TensorMapSpec, for_tensor (torch, cupy, jax, numpy: DLPack or __cuda_array_interface__)
Validation:   validate -> Report, validate_many -> ReportList
Errors:       SpecError (a ValueError) for a malformed spec; an invalid spec is a Report with valid=False

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

__all__ = [
    "Diagnostic",
    "Report",
    "ReportList",
    "SpecError",
    "TensorMapSpec",
    "for_tensor",
    "validate",
    "validate_many",
    "__version__",
]
