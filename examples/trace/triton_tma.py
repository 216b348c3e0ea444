# triton_tma.py (examples/trace/): a Triton matmul whose operands are host-side TensorDescriptors (Triton 3.6,
# triton.tools.tensor_descriptor), in bf16, f16, f32 (tf32 dot) and fp8 (e4m3); each result checked
# against torch.matmul. Then a kernel with a device-side descriptor (tl.make_tensor_descriptor), which
# tmapgen trace cannot see (no driver call).  usage: python3 triton_tma.py [reps] [device]
import sys, time
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

@triton.jit
def matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([pn * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))

@triton.jit
def copy_device_desc(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    yd.store([pm * BM, pn * BN], xd.load([pm * BM, pn * BN]))

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
M = N = 1024
K = 512
torch.manual_seed(0)
t0 = time.time()
cases = [("bf16", torch.bfloat16, torch.bfloat16, 64), ("f16", torch.float16, torch.float16, 64),
         ("f32", torch.float32, torch.float32, 32), ("fp8e4m3", torch.float8_e4m3fn, torch.float16, 128)]
for name, dt, out_dt, BK in cases:
    BM, BN = 128, 128
    a32 = torch.randn(M, K, device="cuda") / 4
    b32 = torch.randn(N, K, device="cuda") / 4
    a = a32.to(dt)
    b = b32.to(dt)
    c = torch.empty(M, N, device="cuda", dtype=out_dt)
    ad = TensorDescriptor.from_tensor(a, [BM, BK])
    bd = TensorDescriptor.from_tensor(b, [BN, BK])
    cd = TensorDescriptor.from_tensor(c, [BM, BN])
    for _ in range(reps):
        matmul[(M // BM, N // BN)](ad, bd, cd, K, BM=BM, BN=BN, BK=BK)
    torch.cuda.synchronize()
    ref = a.to(torch.float32) @ b.to(torch.float32).T
    err = (c.to(torch.float32) - ref).abs().max().item()
    tol = 0.05 * ref.abs().max().item()
    print(f"triton_tma: {name:8s} {M}x{N}x{K} block [{BM},{BN},{BK}]: max |err| {err:.4g} (tol {tol:.3g}) "
          f"{'OK' if err <= tol else 'WRONG'}", file=sys.stderr)
try:
    def alloc(size, alignment, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)
    triton.set_allocator(alloc)
    x = torch.randn(256, 256, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    copy_device_desc[(2, 2)](x, y, 256, 256, BM=128, BN=128)
    torch.cuda.synchronize()
    print(f"triton_tma: device-side descriptor copy: {'OK' if torch.equal(x, y) else 'WRONG'}", file=sys.stderr)
except Exception as e:
    print(f"triton_tma: device-side descriptor copy failed: {type(e).__name__}: {e}", file=sys.stderr)
print(f"triton_tma: done in {time.time() - t0:.1f} s (triton {triton.__version__}, torch {torch.__version__})", file=sys.stderr)
