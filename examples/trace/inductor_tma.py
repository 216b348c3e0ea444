# inductor_tma.py: a PyTorch Inductor bf16 matmul with max-autotune and the TMA templates switched on
# (if this PyTorch has them); reports which config flags exist and whether the generated code uses
# host-side TensorDescriptors or device-side tl.make_tensor_descriptor.
import os, sys, time, glob
import torch
import torch._inductor.config as cfg
t0 = time.time()
flags = {}
for name in ["enable_persistent_tma_matmul"]:
    flags[name] = hasattr(cfg.triton, name)
    if flags[name]:
        setattr(cfg.triton, name, True)
cfg.max_autotune_gemm_backends = "TRITON"
print(f"inductor_tma: torch {torch.__version__}; config flags present: {flags}", file=sys.stderr)
a = torch.randn(2048, 2048, device="cuda", dtype=torch.bfloat16)
b = torch.randn(2048, 2048, device="cuda", dtype=torch.bfloat16)
f = torch.compile(lambda x, y: x @ y, mode="max-autotune-no-cudagraphs")
for _ in range(3):
    c = f(a, b)
torch.cuda.synchronize()
err = (c.float() - (a.float() @ b.float())).abs().max().item()
print(f"inductor_tma: bf16 2048^3 max |err| {err:.3g}; {time.time() - t0:.1f} s", file=sys.stderr)
root = os.environ.get("TORCHINDUCTOR_CACHE_DIR", "")
host = dev = 0
for p in glob.glob(os.path.join(root, "**", "*.py"), recursive=True):
    try:
        s = open(p).read()
    except Exception:
        continue
    host += s.count("TensorDescriptor")
    dev += s.count("make_tensor_descriptor") + s.count("_experimental_make_tensor_descriptor")
print(f"inductor_tma: generated code under {root}: 'TensorDescriptor' x{host}, 'make_tensor_descriptor' x{dev}", file=sys.stderr)
