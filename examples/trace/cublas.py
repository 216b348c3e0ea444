# cublas.py: torch.matmul (cuBLAS / cuBLASLt) in bf16, f16, fp8 (torch._scaled_mm): do the vendor libraries
# encode tensor maps through the driver API?
import sys, torch
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
for dt in (torch.bfloat16, torch.float16):
    x = a.to(dt)
    for _ in range(3):
        y = x @ x
torch.cuda.synchronize()
try:
    x8 = a.to(torch.float8_e4m3fn)
    s = torch.tensor(1.0, device="cuda")
    y8 = torch._scaled_mm(x8, x8.t(), scale_a=s, scale_b=s, out_dtype=torch.bfloat16)
    torch.cuda.synchronize()
    print("cublas: _scaled_mm fp8 ok", file=sys.stderr)
except Exception as e:
    print(f"cublas: _scaled_mm failed: {e}", file=sys.stderr)
print(f"cublas: torch {torch.__version__}, cuda {torch.version.cuda}: matmuls done", file=sys.stderr)
