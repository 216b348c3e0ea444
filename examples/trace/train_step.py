# train_step.py (examples/trace/): training steps of a small bf16 MLP in PyTorch (forward, backward, AdamW),
# whose matmuls cuBLAS runs with TMA kernels on Hopper (its nvjet_sm90 kernels receive tensor maps in their
# parameter struct). Prints the steady-state time per step, for the launch-check cost under `tmapgen trace`.
#   usage: python3 train_step.py [steps] [warmup]
import sys, time
import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
torch.manual_seed(0)
width, batch = 2048, 4096
model = torch.nn.Sequential(*[m for _ in range(4) for m in (torch.nn.Linear(width, width), torch.nn.GELU())],
                            torch.nn.Linear(width, 10)).to("cuda", torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(batch, width, device="cuda", dtype=torch.bfloat16)
y = torch.randint(0, 10, (batch,), device="cuda")

def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x).float(), y)
    loss.backward()
    opt.step()
    return loss

for _ in range(warmup):
    step()
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(steps):
    loss = step()
torch.cuda.synchronize()
dt = time.perf_counter() - t0
print(f"train_step: {steps} steps, {dt / steps * 1e3:.3f} ms per step, loss {loss.item():.4f}", file=sys.stderr)
