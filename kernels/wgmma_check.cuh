// wgmma_check.cuh: the wgmma proof (sm_90a): A and B tiles are loaded through tensor maps (TMA, one box per
// swizzle-row-wide slab, the "TMA order" of src/desc/smem_descriptor.h), then one warpgroup runs
// wgmma.mma_async m64n64 with the shared-memory descriptors the host built with BuildSmemDesc /
// AdvanceKSlice; the host compares D with a float64 product (src/gpu/check/wgmma_check.h). wgmma exists on
// sm_90a only: the sm_100a image reports kTmaStatusUnsupported.
#include <cuda.h>
#include <stdint.h>

#include "check_params.h"

namespace {

__device__ __forceinline__ uint32_t Smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

#define D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define DREGS                                                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
  "%23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define MMA16(TYPE, TA, TB)                                                                       \
  asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n"                                           \
               "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " " DREGS ", %32, %33, p, 1, 1, " #TA \
               ", " #TB "; }"                                                                     \
               : D8(0), D8(8), D8(16), D8(24)                                                     \
               : "l"(da), "l"(db))
#define MMA_NT(SHAPE, TYPE)                                                                         \
  asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n"                                             \
               "wgmma.mma_async.sync.aligned." SHAPE ".f32." TYPE "." TYPE " " DREGS ", %32, %33, p, 1, 1; }" \
               : D8(0), D8(8), D8(16), D8(24)                                                       \
               : "l"(da), "l"(db))

}  // namespace

extern "C" __global__ void __launch_bounds__(128) tmapgen_wgmma_check(const __grid_constant__ CUtensorMap map_a,
                                                                       const __grid_constant__ CUtensorMap map_b,
                                                                       WgmmaParams p) {
  extern __shared__ __align__(1024) uint8_t raw[];
  int32_t* status = reinterpret_cast<int32_t*>(p.status);
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ __align__(8) uint64_t mbar;
  __shared__ int ok;
  uint8_t* base = raw + ((1024 - (Smem(raw) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    const uint32_t mb = Smem(&mbar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(p.tx_bytes) : "memory");
    const uint64_t ma = reinterpret_cast<uint64_t>(&map_a), mbm = reinterpret_cast<uint64_t>(&map_b);
    for (int s = 0; s < p.a_slabs; ++s)
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
              Smem(base + p.a_off + s * p.a_slab_bytes)),
          "l"(ma), "r"(s * p.a_row_elems), "r"(0), "r"(mb)
          : "memory");
    for (int s = 0; s < p.b_slabs; ++s)
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
              Smem(base + p.b_off + s * p.b_slab_bytes)),
          "l"(mbm), "r"(s * p.b_row_elems), "r"(0), "r"(mb)
          : "memory");
    const long long t0 = clock64();
    uint32_t done = 0;
    while (!done) {
      asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
                   : "=r"(done)
                   : "r"(mb)
                   : "memory");
      if (clock64() - t0 > p.timeout_cycles) break;
    }
    ok = done;
    *status = done ? kTmaStatusDone : kTmaStatusTimeout;
  }
  __syncthreads();
  if (!ok) return;
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  const uint64_t add = (Smem(base) & 0x3FFFF) >> 4;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int k = 0; k < p.k_slices; ++k) {
    const uint64_t da = p.desc_a[k] + add, db = p.desc_b[k] + add;
    switch (p.variant) {
      case 0: MMA16("bf16", 0, 0); break;
      case 1: MMA16("bf16", 0, 1); break;
      case 2: MMA16("bf16", 1, 0); break;
      case 3: MMA16("bf16", 1, 1); break;
      case 4: MMA16("f16", 0, 0); break;
      case 5: MMA16("f16", 0, 1); break;
      case 6: MMA16("f16", 1, 0); break;
      case 7: MMA16("f16", 1, 1); break;
      case kWgmmaTf32: MMA_NT("m64n64k8", "tf32"); break;
      case kWgmmaE4m3: MMA_NT("m64n64k32", "e4m3"); break;
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  float* out = reinterpret_cast<float*>(p.out);
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < 32; ++i) {
    const int row = 16 * w + l / 4 + 8 * ((i / 2) % 2);
    const int col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
    out[row * 64 + col] = d[i];
  }
#else
  (void)map_a; (void)map_b; (void)raw;
  if (threadIdx.x == 0) *status = kTmaStatusUnsupported;
#endif
}
