#!/usr/bin/env python3
"""Throughput of the library kernels PyTorch calls for the plan proof's shapes (cuBLAS, cuBLASLt, cuDNN).

    python3 torch_bench.py gemm:M:N:K:DTYPE ... conv:N:C:K:H:W:R:S:PAD:STRIDE:DILATION:DTYPE ...

DTYPE: bf16, f16 (matmul, D in the same type) or e4m3 (torch._scaled_mm, scales 1, D bf16); convolutions run
torch.nn.functional.conv2d on channels-last tensors with cudnn.benchmark on. Prints one line per shape: the
time per call (CUDA events over ITERS calls after a warm-up) and TFLOP/s counted as 2 x M x N x K (for a
convolution M = N x P x Q output pixels, N = K filters, K = C x R x S). Speed is reported, not checked.
"""
import os
import sys

import torch

ITERS = int(os.environ.get("ITERS", "20"))
TYPES = {"bf16": torch.bfloat16, "f16": torch.float16}


def timed(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(ITERS):
        fn()
    e1.record()
    torch.cuda.synchronize()
    return e0.elapsed_time(e1) / ITERS / 1e3


def gemm(m, n, k, dtype):
    if dtype == "e4m3":
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device="cuda")
        fn = lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)  # noqa: E731
        lib = "torch._scaled_mm (cuBLASLt)"
    else:
        a = torch.randn(m, k, device="cuda", dtype=TYPES[dtype])
        b = torch.randn(n, k, device="cuda", dtype=TYPES[dtype])
        fn = lambda: torch.matmul(a, b.t())  # noqa: E731
        lib = "torch.matmul (cuBLAS)"
    s = timed(fn)
    return lib, s, 2.0 * m * n * k / s / 1e12


def conv(n, c, k, h, w, r, s, pad, stride, dil, dtype):
    torch.backends.cudnn.benchmark = True
    x = torch.randn(n, c, h, w, device="cuda", dtype=TYPES[dtype]).to(memory_format=torch.channels_last)
    f = torch.randn(k, c, r, s, device="cuda", dtype=TYPES[dtype]).to(memory_format=torch.channels_last)
    fn = lambda: torch.nn.functional.conv2d(x, f, padding=pad, stride=stride, dilation=dil)  # noqa: E731
    out = fn()
    p, q = out.shape[2], out.shape[3]
    t = timed(fn)
    return "torch conv2d (cuDNN), channels last", t, 2.0 * n * p * q * k * c * r * s / t / 1e12


def main():
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}, "
          f"{torch.cuda.get_device_name()}")
    status = 0
    for arg in sys.argv[1:]:
        kind, *v = arg.split(":")
        try:
            if kind == "gemm":
                lib, t, tf = gemm(int(v[0]), int(v[1]), int(v[2]), v[3])
            else:
                lib, t, tf = conv(*[int(x) for x in v[:10]], v[10])
            print(f"{arg}: {lib}: {t * 1e3:.3f} ms per call, {tf:.1f} TFLOP/s")
        except Exception as e:  # one shape's failure does not hide the others
            print(f"{arg}: ERROR {type(e).__name__}: {e}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
