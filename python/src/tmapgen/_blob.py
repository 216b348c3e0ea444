"""encode: a spec's 128-byte CUtensorMap without a GPU or a driver (src/blob/blob.h)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from . import _tmapgen
from ._tmapgen import Report, SpecError, TensorMapSpec


class InvalidMapError(SpecError):
    """encode() of a spec the validator rejects: the 128 bytes would be a map the driver refuses or one
    the hardware cannot use as declared, so none are returned (the command line shows bytes only for valid
    specs). A SpecError (so a ValueError): `field` is the field of the first error, `rules` the ids of
    every error rule (docs/rules.md), `report` the whole Report (its diagnostics give each fix).
    encode(..., allow_invalid=True) returns the bytes anyway, with the rejection attached."""

    rules: Tuple[str, ...] = ()
    report: Optional[Report] = None


class MapBytes(bytes):
    """The 128 bytes of a CUtensorMap (a bytes object: pass it where a map is expected), with
    `caveats`: what the bytes rest on (a global address not given, a wide mode the measured sm_90
    driver does not write, ...); () when nothing needs saying."""

    caveats: Tuple[str, ...] = ()
    #: The ids of the error rules that reject the map; () for a valid map. Only encode(..., allow_invalid=True)
    #: returns bytes with a rejection, and its caveats then begin with it.
    rejected_by: Tuple[str, ...] = ()
    #: The validation of the spec the bytes were encoded from (rejected_by comes from it).
    report: Optional[Report] = None

    @property
    def words(self) -> Tuple[int, ...]:
        """The 16 little-endian 64-bit words, word 0 first (as CUTLASS-style dumps print them)."""
        return tuple(int.from_bytes(self[i:i + 8], "little") for i in range(0, 128, 8))


def _errors(report: Report) -> Tuple[Tuple[str, str], ...]:
    return tuple((d.rule, d.field) for d in report.diagnostics if d.severity == "error")


def encode(spec: Optional[Any] = None, /, *, allow_invalid: bool = False, **fields: Any) -> MapBytes:
    """The 128 bytes the CUDA driver writes for the spec's cuTensorMapEncode* call, computed offline from
    the layout measured on the real driver (docs/tensormap-layout.md), as the reports' `bytes` are.

    `spec` is a TensorMapSpec or a dict; keyword arguments give or replace fields (TensorMapSpec names).
    A value that does not fit its field, or a spec outside the measured evidence (the sub-byte types and
    128B_ATOM_* swizzles the sm_90 driver rejects, a Blackwell target), raises SpecError naming the field.

    The spec is validated first (for its target, or for every target when it names none), as the command
    line does before it shows bytes: a spec the validator rejects raises InvalidMapError (a SpecError)
    naming the broken rules. allow_invalid=True returns the bytes anyway; they then carry the rejection
    (`rejected_by`, the rule ids, first in `caveats`) and `report` says why.
    """
    if isinstance(spec, TensorMapSpec) and not fields:
        s = spec
    else:
        s = TensorMapSpec(spec, **fields)
    report = _tmapgen.validate(s)
    errors = () if report.valid else _errors(report)
    if errors and not allow_invalid:
        where = " for %s" % report.target if report.target else " for any target"
        listed = ", ".join("%s (%s)" % (r, f) if f else r for r, f in errors)
        e = InvalidMapError("the map is not valid%s: %s; validate() gives each fix, and "
                            "encode(..., allow_invalid=True) returns the bytes anyway, with the rejection"
                            % (where, listed))
        e.field = errors[0][1]
        e.rules = tuple(r for r, _ in errors)
        e.report = report
        raise e
    raw, caveats = _tmapgen._encode(s)
    out = MapBytes(raw)
    out.report = report
    if errors:
        out.rejected_by = tuple(r for r, _ in errors)
        caveats = ["not a valid map (rejected by %s): the driver may refuse it, or the copy fail or read "
                   "the wrong bytes" % ", ".join(out.rejected_by)] + list(caveats)
    out.caveats = tuple(caveats)
    return out
