# jax_prog.py: a JAX bf16 matmul and a small MLP step on the GPU, for tmapgen trace: does XLA (or the
# libraries it calls: cuBLAS, its Triton fusions) encode tensor maps through the driver?
import sys, time
t0 = time.time()
import jax, jax.numpy as jnp
x = jnp.ones((2048, 2048), jnp.bfloat16)
w = jnp.ones((2048, 2048), jnp.bfloat16)
f = jax.jit(lambda a, b: jnp.tanh(a @ b) @ b)
for _ in range(3):
    y = f(x, w).block_until_ready()
print(f"jax_prog: jax {jax.__version__} on {jax.devices()[0].device_kind}: out {y.shape} {y.dtype}; {time.time()-t0:.1f} s", file=sys.stderr)
