// codegen_example.cuh: the codegen example run through the GPU-check machinery (`tmapgen check
// --codegen-example`, src/gpu/check/codegen_example.h). The kernel takes its shapes from the generated header
// examples/codegen/tile_a.gen.h (`tmapgen codegen examples/codegen/tile.json`), device part only
// (TMAPGEN_GEN_NO_HOST): the shared buffer is kSmemFootprintBytes at kSmemAlignmentRecommended, the mbarrier is armed
// with kTransactionBytes, the copy is a rank-kRank tiled load. It does ONE load at the given coordinates into
// a sentinel-filled buffer, waits with a bounded spin (kTmaStatusTimeout when the transaction count never
// completes) and copies the raw shared-memory window out, swizzled as it landed: the host compares it byte
// for byte with the model's shared-memory image (ModelLoad), which is swizzled too.
#pragma once
#include <cuda.h>
#include <stdint.h>

#include "check_params.h"
#include "tma_check.cuh"  // SmemAddr, IssueTileLoad, kSentinel

#define TMAPGEN_GEN_NO_HOST 1
#include "examples/codegen/tile_a.gen.h"

extern "C" __global__ void __launch_bounds__(128) tmapgen_codegen_example(const __grid_constant__ CUtensorMap map,
                                                                           CodegenExampleParams p) {
  namespace g = tmapgen_gen::tile_a;
  __shared__ __align__(g::kSmemAlignmentRecommended) uint8_t tile[g::kSmemFootprintBytes];
  __shared__ __align__(8) uint64_t mbar;
  int32_t* status = reinterpret_cast<int32_t*>(p.status);
  uint8_t* out = reinterpret_cast<uint8_t*>(p.out);
  for (uint32_t i = threadIdx.x; i < g::kSmemFootprintBytes; i += blockDim.x) tile[i] = kSentinel;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    if (SmemAddr(tile) % g::kSmemAlignmentRecommended != 0) {
      *status = kTmaStatusMisaligned;  // the swizzle phase would differ from the header's promise
    } else {
      const uint32_t mb = SmemAddr(&mbar);
      const int32_t c[5] = {p.coords[0], p.coords[1], 0, 0, 0};
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(g::kTransactionBytes)
                   : "memory");
      IssueTileLoad(static_cast<int>(g::kRank), false, SmemAddr(tile), reinterpret_cast<uint64_t>(&map), c, mb);
      const long long t0 = clock64();
      uint32_t done = 0;
      while (!done) {
        asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
                     : "=r"(done)
                     : "r"(mb)
                     : "memory");
        if (clock64() - t0 > p.timeout_cycles) break;
      }
      *status = done ? kTmaStatusDone : kTmaStatusTimeout;
    }
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < g::kSmemFootprintBytes; i += blockDim.x) out[i] = tile[i];
}
