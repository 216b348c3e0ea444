#!/usr/bin/env python3
"""gen-specs.py: generate a JSON Lines file of tensor-map specs for benchmarks and soak tests.

usage: scripts/dev/gen-specs.py N OUT.jsonl [--seed S] [--invalid-frac F] [--no-target-frac F]
                            [--input-error-frac F]

Writes N specs, one JSON object per line, in the schema of src/schema/spec_json.h (docs/schema.md): field
names are the cuda.h parameter names in snake_case, enums are short names ("bf16", "128B", "sm_90a").
All six modes appear in equal shares (tiled, im2col, im2col::w, im2col::w::128, gather4, scatter4).

- A spec is built valid by construction (shapes, boxes, swizzles, corners and targets chosen inside
  the rules' limits), then, with probability --invalid-frac (default 0.3), 1 to 3 violations are
  injected (misaligned stride, box above 256, inner box beyond the swizzle span, element stride 9,
  a zero dimension, NaN fill on an integer type, too many channels or pixels, corner out of range,
  misaligned address, a direction or target the mode does not support, a box too large for shared
  memory, ...). The validator decides what is valid: `tmapgen validate OUT.jsonl` prints the split.
- With probability --no-target-frac (default 0.2) the "target" field is left out, so the spec is
  validated against all 16 targets (unless the command line gives --target).
- With probability --input-error-frac (default 0) a line is made unreadable on purpose (unknown key,
  negative dimension, missing data type): the CLI then reports an input error and exits with 2.

The output depends only on N and the seed (Python's random.Random), so runs are reproducible. Progress
is shown on stderr only when stderr is a terminal.
"""

import argparse
import json
import random
import sys

MODES = ["tiled", "im2col", "im2col::w", "im2col::w::128", "gather4", "scatter4"]
# (short name, bytes per element, is float)
DTYPES = [("f16", 2, True), ("bf16", 2, True), ("f32", 4, True), ("tf32", 4, True), ("u8", 1, False),
          ("s32", 4, False), ("u16", 2, False)]
INT_OF_SIZE = {1: "u8", 2: "u16", 4: "u32", 8: "u64"}
SWIZZLE_SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
L2 = ["none", "64B", "128B", "256B"]
SMEM_BUDGET = 64 * 1024  # bytes per copy kept by valid specs: fits every target (sm_120 has 99 KiB)


def round_up(v, m):
    return (v + m - 1) // m * m


def _prod(v):
    p = 1
    for x in v:
        p *= x
    return p


def dense_strides(dims, esize, pad=16):
    strides = []
    s = round_up(dims[0] * esize, pad)
    for d in dims[1:]:
        strides.append(s)
        s *= d
    return strides


def pick_dtype(rng):
    return rng.choices(DTYPES, weights=[30, 25, 15, 5, 10, 10, 5])[0]


def pick_target(rng, blackwell_only):
    if blackwell_only:
        return rng.choices(["sm_100a", "sm_103a", "sm_100f"], weights=[70, 20, 10])[0]
    return rng.choices(["sm_90a", "sm_100a", "sm_90", "sm_120a"], weights=[50, 30, 10, 10])[0]


def inner_bytes_for(rng, span, esize, max_elems=256):
    """Bytes of the inner box row: a multiple of 16, within the swizzle span (or 256 elements)."""
    if span:
        choices = [b for b in (16, 32, 64, 128) if b <= span]
        weights = [1] * (len(choices) - 1) + [6]  # mostly exactly the span
        return rng.choices(choices, weights=weights)[0]
    limit = min(max_elems * esize, 512)
    return 16 * rng.randint(1, limit // 16)


def common_fields(rng, spec, esize, is_float):
    spec["l2_promotion"] = rng.choice(L2)
    if is_float and rng.random() < 0.1:
        spec["oob_fill"] = "nan"
    if rng.random() < 0.2:
        spec["global_address"] = hex(0x7F0000000000 + 1024 * rng.randint(0, 1 << 20))


def gen_tiled_like(rng, mode):
    dname, esize, is_float = pick_dtype(rng)
    if mode == "tiled":
        rank = rng.choices([1, 2, 3, 4, 5], weights=[5, 50, 25, 12, 8])[0]
    else:
        rank = 2
    swz = rng.choices(list(SWIZZLE_SPAN), weights=[20, 10, 15, 55])[0]
    span = SWIZZLE_SPAN[swz]
    box0 = inner_bytes_for(rng, span, esize) // esize
    box = [box0]
    dims = [box0 * rng.choice([1, 2, 4, 8, 16, 32, 64])]
    for i in range(1, rank):
        if mode != "tiled":
            b = 1
        else:
            b = rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256])
        box.append(b)
        dims.append(max(b, rng.choice([1, 2, 3, 7, 16, 64, 100, 256, 1000, 4096])) if i < 4 else rng.randint(1, 8))
    # Keep the tensor below 2^39 bytes (strides must stay below 2^40) by shrinking outer dimensions.
    while esize * _prod(dims) >= 1 << 39:
        j = max(range(1, rank), key=lambda k: dims[k])
        dims[j] = max(1, dims[j] // 4)
        box[j] = min(box[j], dims[j])
    # Keep one copy inside the shared-memory budget by shrinking outer boxes.
    while True:
        total = esize
        for b in box:
            total *= b
        if total <= SMEM_BUDGET:
            break
        j = max(range(1, rank), key=lambda k: box[k])
        box[j] = max(1, box[j] // 2)
    spec = {}
    if rng.random() < 0.5:
        spec["name"] = "t%d" % rng.randint(0, 999999)
    spec["mode"] = mode
    if mode == "tiled":
        dirs = ["load", "load_cluster", "store", "prefetch", "reduce"]
        d = rng.choices(dirs, weights=[70, 10, 10, 5, 5])[0]
        if d == "reduce" and dname not in ("f16", "bf16", "f32", "s32"):
            d = "store"
        if d != "load":
            spec["direction"] = d
        if d == "reduce":
            spec["reduce_op"] = "add"
    elif mode == "gather4":
        d = rng.choices(["load", "load_cluster", "prefetch"], weights=[80, 10, 10])[0]
        if d != "load":
            spec["direction"] = d
    else:
        spec["direction"] = "store"
    spec["tensor_data_type"] = dname
    if rng.random() < 0.3:
        spec["tensor_rank"] = rank
    spec["global_dim"] = dims
    if rank > 1 and rng.random() < 0.8:  # else left to the parser's dense default
        spec["global_strides"] = dense_strides(dims, esize, rng.choice([16, 16, 128]))
    spec["box_dim"] = box
    if rng.random() < 0.2:
        spec["element_strides"] = [1] * rank
    if swz != "none" or rng.random() < 0.5:
        spec["swizzle"] = swz
    common_fields(rng, spec, esize, is_float)
    spec["target"] = pick_target(rng, mode != "tiled")
    return spec


def gen_im2col_like(rng, mode):
    dname, esize, is_float = pick_dtype(rng)
    rank = rng.choices([3, 4, 5], weights=[15, 70, 15])[0]
    wide = mode != "im2col"
    if wide:
        swz = rng.choices(["64B", "128B"], weights=[30, 70])[0]
    else:
        swz = rng.choices(list(SWIZZLE_SPAN), weights=[20, 10, 15, 55])[0]
    span = SWIZZLE_SPAN[swz]
    cbytes = inner_bytes_for(rng, span, esize)
    channels = cbytes // esize
    c_dim = channels * rng.choice([1, 1, 2, 4])
    spatial = [rng.choice([7, 14, 28, 56, 112, 224]) for _ in range(rank - 2)]
    n = rng.choice([1, 2, 8, 32, 64])
    dims = [c_dim] + spatial + [n]
    if mode == "im2col::w::128":
        pixels = 128
    else:
        pixels = rng.choice([16, 32, 64, 128, 256, 512])
    while pixels * channels * esize > SMEM_BUDGET:
        pixels //= 2
    if mode == "im2col::w::128":
        pixels = 128
        while 128 * channels * esize > SMEM_BUDGET:  # cannot shrink pixels: shrink channels
            channels //= 2
    spec = {}
    if rng.random() < 0.5:
        spec["name"] = "c%d" % rng.randint(0, 999999)
    spec["mode"] = mode
    if mode == "im2col::w::128":
        d = rng.choices(["load", "load_cluster", "prefetch"], weights=[85, 10, 5])[0]
    else:
        d = rng.choices(["load", "load_cluster", "store", "prefetch"], weights=[75, 10, 10, 5])[0]
    if d != "load":
        spec["direction"] = d
    spec["tensor_data_type"] = dname
    spec["global_dim"] = dims
    if rng.random() < 0.8:
        spec["global_strides"] = dense_strides(dims, esize)
    store = d == "store"
    if not wide:
        limit = {3: 32768, 4: 128, 5: 16}[rank]
        half = 0 if store else rng.choice([0, 1, 1, 2])  # filter 1, 3 or 5 with "same" padding
        half = min(half, limit - 1)
        spec["pixel_box_lower_corner"] = [-half] * (rank - 2)
        spec["pixel_box_upper_corner"] = [-half] * (rank - 2)
    else:
        half = 0 if store else rng.choice([0, 1, 1, 2])
        spec["pixel_box_lower_corner_width"] = -half
        spec["pixel_box_upper_corner_width"] = -half
        if rng.random() < 0.2:
            spec["wide_mode"] = "w128" if mode == "im2col::w::128" else "w"
    spec["channels_per_pixel"] = channels
    if mode != "im2col::w::128" or rng.random() < 0.5:
        spec["pixels_per_column"] = pixels
    if swz != "none" or rng.random() < 0.5:
        spec["swizzle"] = swz
    common_fields(rng, spec, esize, is_float)
    spec["target"] = pick_target(rng, wide)
    return spec


# ---- violations -----------------------------------------------------------------------------------

def v_stride(rng, s):
    st = s.get("global_strides")
    if not st:
        return False
    i = rng.randrange(len(st))
    st[i] += 8
    return True


def v_box_range(rng, s):
    if "box_dim" not in s:
        return False
    s["box_dim"][rng.randrange(len(s["box_dim"]))] = rng.choice([300, 0, 512])
    return True


def v_swizzle_span(rng, s):
    esize = {n: e for n, e, _ in DTYPES}.get(s["tensor_data_type"], 4)
    key = "box_dim" if "box_dim" in s else "channels_per_pixel"
    swz = s.get("swizzle", "none")
    if swz == "none":
        swz = "32B"
        s["swizzle"] = swz if s["mode"] not in ("im2col::w", "im2col::w::128") else "64B"
        swz = s["swizzle"]
    elems = 2 * SWIZZLE_SPAN[swz] // esize
    if key == "box_dim":
        s["box_dim"][0] = elems
    else:
        s["channels_per_pixel"] = elems
    return True


def v_elem_stride(rng, s):
    rank = len(s["global_dim"])
    es = s.get("element_strides") or [1] * rank
    es[rng.randrange(rank)] = 9
    s["element_strides"] = es
    return True


def v_dim_zero(rng, s):
    s["global_dim"][-1] = 0
    if "global_strides" in s:
        del s["global_strides"]
    return True


def v_oob_nan_int(rng, s):
    esize = {n: e for n, e, _ in DTYPES}.get(s["tensor_data_type"], 4)
    s["tensor_data_type"] = INT_OF_SIZE[esize]
    s["oob_fill"] = "nan"
    return True


def v_channels(rng, s):
    if "channels_per_pixel" not in s:
        return False
    s["channels_per_pixel"] = rng.choice([300, 0, 1000])
    return True


def v_pixels(rng, s):
    if "channels_per_pixel" not in s:
        return False
    s["pixels_per_column"] = rng.choice([2000, 0, 1025])
    return True


def v_corner(rng, s):
    if "pixel_box_lower_corner" in s and s["pixel_box_lower_corner"]:
        s["pixel_box_lower_corner"][0] = -40000
        return True
    if "pixel_box_lower_corner_width" in s:
        s["pixel_box_lower_corner_width"] = -40000
        return True
    return False


def v_address(rng, s):
    s["global_address"] = hex(0x7F0000000000 + 8 + 1024 * rng.randint(0, 1000))
    return True


def v_direction(rng, s):
    m = s["mode"]
    if m == "scatter4":
        s["direction"] = "load"
    elif m in ("gather4", "im2col::w::128"):
        s["direction"] = "store"
    else:
        return False
    return True


def v_target(rng, s):
    if s["mode"] in ("tiled", "im2col"):
        return False
    s["target"] = "sm_90a"
    return True


def v_smem(rng, s):
    if s.get("direction") == "prefetch":  # a prefetch writes no shared memory
        return False
    if s["mode"] == "tiled" and len(s["box_dim"]) >= 2:
        s["box_dim"][1] = 256
        s["box_dim"][-1] = 256
        s["tensor_data_type"] = "f32"
        s["swizzle"] = "none"
        s["box_dim"][0] = 256
        s.pop("oob_fill", None)
        if "global_strides" in s:
            del s["global_strides"]
        s["global_dim"] = [max(d, 256) for d in s["global_dim"]]
        return True
    if "channels_per_pixel" in s and s["mode"] != "im2col::w::128":
        s["pixels_per_column"] = 1024
        s["channels_per_pixel"] = 256
        s["swizzle"] = "none" if s["mode"] == "im2col" else s.get("swizzle", "128B")
        return True
    return False


def v_gather_rows(rng, s):
    if s["mode"] not in ("gather4", "scatter4"):
        return False
    s["box_dim"][1] = 4
    return True


def v_wide_swizzle(rng, s):
    if s["mode"] not in ("im2col::w", "im2col::w::128"):
        return False
    s["swizzle"] = "none"
    return True


VIOLATIONS = [v_stride, v_box_range, v_swizzle_span, v_elem_stride, v_dim_zero, v_oob_nan_int, v_channels,
              v_pixels, v_corner, v_address, v_direction, v_target, v_smem, v_gather_rows, v_wide_swizzle]


def make_invalid(rng, s):
    want = rng.choices([1, 2, 3], weights=[40, 35, 25])[0]
    done = 0
    for _ in range(20):
        if done >= want:
            break
        if rng.choice(VIOLATIONS)(rng, s):
            done += 1
    if done == 0:
        v_dim_zero(rng, s)
    s["name"] = "bad%d" % rng.randint(0, 999999)


def input_error_line(rng, s):
    kind = rng.randrange(3)
    if kind == 0:
        s["swizle"] = s.pop("swizzle", "none")
    elif kind == 1:
        s["global_dim"][0] = -4
    else:
        del s["tensor_data_type"]
    return json.dumps(s, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="number of specs")
    ap.add_argument("out", help="output .jsonl file ('-' for stdout)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--invalid-frac", type=float, default=0.3)
    ap.add_argument("--no-target-frac", type=float, default=0.2)
    ap.add_argument("--input-error-frac", type=float, default=0.0)
    args = ap.parse_args()
    if args.n < 0:
        ap.error("N must be >= 0")

    rng = random.Random(args.seed)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8", newline="\n")
    progress = sys.stderr.isatty()
    buf = []
    for i in range(args.n):
        mode = MODES[i % len(MODES)]
        spec = gen_im2col_like(rng, mode) if mode.startswith("im2col") else gen_tiled_like(rng, mode)
        if rng.random() < args.no_target_frac:
            spec.pop("target", None)
        if rng.random() < args.invalid_frac:
            make_invalid(rng, spec)
        if rng.random() < args.input_error_frac:
            buf.append(input_error_line(rng, spec))
        else:
            buf.append(json.dumps(spec, separators=(",", ":")))
        if len(buf) >= 10000:
            out.write("\n".join(buf) + "\n")
            buf.clear()
            if progress:
                sys.stderr.write("\rgen-specs: %d / %d" % (i + 1, args.n))
                sys.stderr.flush()
    if buf:
        out.write("\n".join(buf) + "\n")
    if progress:
        sys.stderr.write("\rgen-specs: %d / %d\n" % (args.n, args.n))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
