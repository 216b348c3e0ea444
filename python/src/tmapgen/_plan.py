"""tmapgen.plan_gemm and tmapgen.plan_conv: the plans of `tmapgen plan gemm|conv` (docs/plan.md) as dicts."""

import json as _json
from typing import Any, Dict, Optional, Sequence, Tuple, Union

from . import _tmapgen

_PerDim = Union[int, Sequence[int]]


def _three(v: _PerDim, spatial: int, name: str) -> Tuple[int, int, int]:
    """One value for every spatial dimension, or one per dimension outermost first; returned W, H, D."""
    vals = [int(v)] * spatial if isinstance(v, int) else [int(x) for x in v]
    if len(vals) != spatial:
        raise _tmapgen.SpecError("%s: expected one value or %d (outermost first), got %d" % (name, spatial, len(vals)))
    w_first = list(reversed(vals)) + [1, 1, 1]
    return w_first[0], w_first[1], (w_first[2] if spatial == 3 else 1)


def _out(text: str, format: str) -> Union[Dict[str, Any], str]:
    if format == "dict":
        out: Dict[str, Any] = _json.loads(text)
        return out
    return text


def plan_gemm(m: int, n: int, k: int, *, dtype: str = "bf16", a_type: Optional[str] = None,
              b_type: Optional[str] = None, a_major: str = "k", b_major: str = "k", lda: int = 0, ldb: int = 0,
              ldc: int = 0, ldd: int = 0, d_type: str = "bf16", c_type: Optional[str] = None, cd_layout: str = "row",
              accumulator: Optional[str] = None, tile: Sequence[int] = (128, 128, 64), stages: Optional[int] = None,
              cluster: Sequence[int] = (1, 1), multicast: str = "none", multicast_issue: str = "slice",
              target: str = "sm_90a", cta_group: int = 1, swizzle_a: Optional[str] = None,
              swizzle_b: Optional[str] = None, swizzle_cd: Optional[str] = None, warpgroups: int = 0,
              epilogue: bool = True, format: str = "dict") -> Union[Dict[str, Any], str]:
    """Plans a GEMM tile D = A x B (+ C), as `tmapgen plan gemm` does (docs/plan.md).

    A is M x K and B is N x K; ``a_major``/``b_major`` "k" (K contiguous) or "mn". ``tile`` is (BM, BN, BK) per
    CTA, ``cluster`` (cluster_m, cluster_n), ``multicast`` "a", "b", "ab" or "none", ``stages`` None for as many
    as fit. Returns the JSON report as a dict (``format="dict"``), or its text (``"json"``, ``"text"``): every map
    validated, the shared-memory plan, each CTA's copies, masks and barrier counts, the descriptors of every K
    step, the MMA and the edges; ``valid`` says whether every check passed. Raises SpecError naming the argument
    for a malformed request.
    """
    if format not in ("dict", "json", "text"):
        raise _tmapgen.SpecError("format: expected \"dict\", \"json\" or \"text\", got %r" % (format,))
    if multicast not in ("a", "b", "ab", "none"):
        raise _tmapgen.SpecError("multicast: expected \"a\", \"b\", \"ab\" or \"none\", got %r" % (multicast,))
    bm, bn, bk = (int(x) for x in tile)
    cm, cn = (int(x) for x in cluster)
    text = _tmapgen._plan_gemm(
        m, n, k, a_type or dtype, b_type or dtype, a_major, b_major, lda, ldb, ldc, ldd, d_type, c_type or "",
        cd_layout, accumulator or "", bm, bn, bk, stages or 0, cm, cn, "a" in multicast, "b" in multicast,
        multicast_issue, target, cta_group, swizzle_a or "", swizzle_b or "", swizzle_cd or "", warpgroups,
        epilogue, "text" if format == "text" else "json")
    return _out(text, format)


def plan_conv(n: int, c: int, k: int, *, h: int, w: int, d: Optional[int] = None, r: int = 3, s: int = 3,
              t: Optional[int] = None, pad: _PerDim = 0, stride: _PerDim = 1, dilation: _PerDim = 1,
              dtype: str = "bf16", out_type: str = "bf16", tile: Sequence[int] = (128, 128, 64),
              stages: Optional[int] = None, cluster: Sequence[int] = (1, 1), multicast: bool = False,
              multicast_issue: str = "slice", target: str = "sm_90a", swizzle: Optional[str] = None,
              format: str = "dict") -> Union[Dict[str, Any], str]:
    """Plans a forward convolution as an implicit GEMM, as `tmapgen plan conv` does (docs/plan.md).

    Channels last: NHWC (NDHWC when ``d`` or ``t`` is given) activations, KRSC filter, NPQK output. ``pad``,
    ``stride`` and ``dilation`` are one int or one per dimension outermost first ((h, w) or (d, h, w)); padding is
    the same before and after. ``tile`` is (output pixels, output channels, channels of one tap). ``multicast``
    shares the filter tile along the cluster's M. Returns the JSON report as a dict (or its text): the im2col and
    filter maps, a tile's coordinates, every tap's im2col offsets and the plan of the equivalent GEMM.
    """
    if format not in ("dict", "json", "text"):
        raise _tmapgen.SpecError("format: expected \"dict\", \"json\" or \"text\", got %r" % (format,))
    spatial = 3 if (d is not None or t is not None) else 2
    pw, ph, pd = _three(pad, spatial, "pad")
    sw, sh, sd = _three(stride, spatial, "stride")
    dw, dh, dd = _three(dilation, spatial, "dilation")
    if spatial == 2:
        pd = 0
    bm, bn, bk = (int(x) for x in tile)
    cm, cn = (int(x) for x in cluster)
    text = _tmapgen._plan_conv(
        spatial, n, c, k, w, h, d if d is not None else 1, s, r, t if t is not None else 1, pw, ph, pd, sw, sh, sd,
        dw, dh, dd, dtype, out_type, bm, bn, bk, stages or 0, cm, cn, bool(multicast), multicast_issue, target,
        swizzle or "", "text" if format == "text" else "json")
    return _out(text, format)
