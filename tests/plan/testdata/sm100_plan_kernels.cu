// Kernels built only from the constants of generated plan headers (tmapgen plan ... --target sm_100a --format cpp):
// a tcgen05 GEMM with 1-CTA MMA and .multicast::cluster copies (namespace g1), one with 2-CTA MMA and .cta_group::2
// copies (g2), and an implicit-GEMM convolution through the .im2col::w and .im2col::w::128 forms (cv). Each has a
// TMA producer (mbarrier pipeline armed with the plan's kExpectTx, the plan's copies) and an MMA issuer (the plan's
// descriptors and instruction descriptor into tensor memory). tests/plan/sm100_compile_check.sh compiles this file
// for sm_100a and checks the PTX and SASS hold the instructions. NOT RUN: there is no Blackwell GPU here; main()
// is what a run on a B200 would do (zero inputs, every kernel must finish; no result is compared yet).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "conv.gen.h"
#include "gemm1.gen.h"
#include "gemm2.gen.h"

namespace sm100 {

__device__ inline uint32_t Smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ inline uint32_t ClusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ inline void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ inline void BarrierInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ inline void ExpectTx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

// The address of the same shared-memory offset in CTA `rank` of the cluster.
__device__ inline uint32_t MapToRank(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

__device__ inline void ArriveRemote(uint32_t cluster_addr) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}

// Waits for the phase with this parity; traps after about 2^28 polls so a wrong count cannot hang a run.
__device__ inline void Wait(uint32_t bar, uint32_t parity) {
  for (uint32_t i = 0;; ++i) {
    uint32_t done;
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
    if (done) return;
    if (i > (1u << 28)) __trap();
  }
}

__device__ inline void Tma2d(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

__device__ inline void Tma2dMulticast(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1, uint32_t bar, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
      : "memory");
}

// .cta_group::2: `bar` is a shared::cluster address, the pair's even CTA's barrier.
__device__ inline void Tma2dPair(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

__device__ inline void Tma4d(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1, int32_t c2, int32_t c3, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar)
      : "memory");
}

// .im2col::w with {wHalo, wOffset}.
__device__ inline void Tma4dIm2colW(uint32_t dst, const CUtensorMap* map, int32_t c, int32_t w, int32_t h, int32_t n, uint32_t bar,
                                    uint16_t halo, uint16_t offset) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(dst),
      "l"(map), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(halo), "h"(offset)
      : "memory");
}

// .im2col::w::128: ptxas 13.0 takes {wHalo, wOffset} here too (and rejects the copy without them).
__device__ inline void Tma4dIm2colW128(uint32_t dst, const CUtensorMap* map, int32_t c, int32_t w, int32_t h, int32_t n,
                                       uint32_t bar, uint16_t halo, uint16_t offset) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(dst),
      "l"(map), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(halo), "h"(offset)
      : "memory");
}

template <int kGroup>
__device__ inline void TmemAlloc(uint32_t slot, uint32_t columns) {
  if constexpr (kGroup == 1) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(slot), "r"(columns) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  } else {
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(slot), "r"(columns) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
  }
}

template <int kGroup>
__device__ inline void TmemFree(uint32_t tmem, uint32_t columns) {
  if constexpr (kGroup == 1)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(columns) : "memory");
  else
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(columns) : "memory");
}

template <int kGroup>
__device__ inline void Mma(uint32_t tmem, uint64_t adesc, uint64_t bdesc, uint32_t idesc, uint32_t accumulate) {
  if constexpr (kGroup == 1)
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
        "l"(adesc), "l"(bdesc), "r"(idesc), "r"(accumulate)
        : "memory");
  else
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
        "l"(adesc), "l"(bdesc), "r"(idesc), "r"(accumulate)
        : "memory");
}

// tcgen05.mma.ws (M = 32 for a run of ::w::128's pixels).
__device__ inline void MmaWs(uint32_t tmem, uint64_t adesc, uint64_t bdesc, uint32_t idesc, uint32_t accumulate) {
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma.ws.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
      "l"(adesc), "l"(bdesc), "r"(idesc), "r"(accumulate)
      : "memory");
}

// The MMAs issued so far arrive on `bar` (a shared::cluster address) of every CTA in `mask` when done.
template <int kGroup>
__device__ inline void Commit(uint32_t bar, uint16_t mask) {
  if constexpr (kGroup == 1)
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(bar),
                 "h"(mask)
                 : "memory");
  else
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(bar),
                 "h"(mask)
                 : "memory");
}

__device__ inline void FenceAfterSync() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }

// Tensor-memory columns of an f32 accumulator N wide: a power of two, at least 32 (PTX tcgen05.alloc).
__host__ __device__ constexpr uint32_t TmemColumns(uint32_t n) {
  uint32_t c = 32;
  while (c < n) c *= 2;
  return c;
}

// Up to 8 maps per kernel, passed as one __grid_constant__ parameter (their ids are the header's MapId).
struct Maps {
  CUtensorMap m[8];
};

}  // namespace sm100

// ---- the GEMM kernel, the same text for every GEMM header (inside its namespace: plan:: is that header's). The
// per-CTA tables are read through the header's device accessors (CopyOf, ExpectTx, ...), the descriptors through
// DescA/DescB.
#define TMAPGEN_SM100_GEMM_KERNEL                                                                                       \
  static_assert(plan::kNumMaps <= 8u, "the maps fit sm100::Maps");                                                      \
  /* Warp 0 lane 0: the producer. Warp 1: tensor memory and (lane 0) the MMAs. blockIdx.x is the M tile, y the N tile. */\
  __global__ void __launch_bounds__(128) Gemm(const __grid_constant__ sm100::Maps maps) {                              \
    extern __shared__ __align__(1024) unsigned char smem[];                                                             \
    const uint32_t base = sm100::Smem(smem);                                                                            \
    const uint32_t rank = sm100::ClusterRank();                                                                         \
    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;                                                    \
    const int32_t m0 = static_cast<int32_t>(blockIdx.x * plan::kBM), n0 = static_cast<int32_t>(blockIdx.y * plan::kBN); \
    constexpr uint32_t kColumns = sm100::TmemColumns(plan::kMmaN);                                                      \
    const bool mma_cta = plan::kCtaGroup == 1 || (rank % 2u) == 0u;                                                     \
    if (threadIdx.x == 0) {                                                                                             \
      for (uint32_t s = 0; s < plan::kStages; ++s) {                                                                    \
        if (plan::FullArrivals(rank) != 0) sm100::BarrierInit(base + plan::FullBarrier(s), plan::FullArrivals(rank));   \
        sm100::BarrierInit(base + plan::EmptyBarrier(s), plan::EmptyArrivals(rank));                                    \
      }                                                                                                                 \
      sm100::BarrierInit(base + plan::kTmemFullBarrier, 1);                                                             \
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");                                                \
    }                                                                                                                   \
    if (warp == 1) sm100::TmemAlloc<plan::kCtaGroup>(base + plan::kTmemAddress, kColumns);                              \
    sm100::ClusterSync();                                                                                               \
    if (warp == 0 && lane == 0) {                                                                                       \
      for (uint32_t j = 0; j < plan::kKTiles; ++j) {                                                                    \
        const uint32_t s = j % plan::kStages, parity = (j / plan::kStages) & 1u;                                        \
        sm100::Wait(base + plan::EmptyBarrier(s), parity ^ 1u);                                                         \
        const uint32_t full = base + plan::FullBarrier(s);                                                              \
        const uint32_t leader_full = sm100::MapToRank(full, rank & ~1u);                                                \
        if (plan::ExpectTx(rank) != 0)                                                                                  \
          sm100::ExpectTx(full, plan::ExpectTx(rank));                                                                  \
        else                                                                                                            \
          sm100::ArriveRemote(leader_full); /* the pair's odd CTA: one arrival, its bytes counted by the leader */      \
        for (uint32_t i = 0; i < plan::NumCopies(rank); ++i) {                                                          \
          const plan::Copy c = plan::CopyOf(rank, i);                                                                   \
          const bool is_a = plan::MapOperand(c.map) == 'A';                                                             \
          const uint32_t dst = base + (is_a ? plan::SmemA(s) : plan::SmemB(s)) + c.smem_offset;                         \
          const int32_t k = static_cast<int32_t>(j * plan::kBK + c.coord0);                                            \
          const int32_t row = (is_a ? m0 : n0) + static_cast<int32_t>(c.coord1);                                        \
          const CUtensorMap* map = &maps.m[c.map];                                                                      \
          if (c.to_leader_barrier)                                                                                      \
            sm100::Tma2dPair(dst, map, k, row, leader_full);                                                            \
          else if (c.mask != 0)                                                                                         \
            sm100::Tma2dMulticast(dst, map, k, row, full, static_cast<uint16_t>(c.mask));                               \
          else                                                                                                          \
            sm100::Tma2d(dst, map, k, row, full);                                                                       \
        }                                                                                                               \
      }                                                                                                                 \
    } else if (warp == 1 && lane == 0 && mma_cta) {                                                                     \
      uint32_t tmem;                                                                                                    \
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(tmem) : "r"(base + plan::kTmemAddress));                            \
      for (uint32_t j = 0; j < plan::kKTiles; ++j) {                                                                    \
        const uint32_t s = j % plan::kStages, parity = (j / plan::kStages) & 1u;                                        \
        sm100::Wait(base + plan::FullBarrier(s), parity);                                                               \
        sm100::FenceAfterSync();                                                                                        \
        for (uint32_t k = 0; k < plan::kKSteps; ++k)                                                                    \
          sm100::Mma<plan::kCtaGroup>(tmem, plan::DescA(base, s, k), plan::DescB(base, s, k), plan::kIdesc,            \
                                      (j | k) != 0u);                                                                   \
        sm100::Commit<plan::kCtaGroup>(base + plan::EmptyBarrier(s), static_cast<uint16_t>(plan::ReleaseMask(rank)));   \
      }                                                                                                                 \
      sm100::Commit<plan::kCtaGroup>(base + plan::kTmemFullBarrier, static_cast<uint16_t>(1u << rank));                 \
      sm100::Wait(base + plan::kTmemFullBarrier, 0);                                                                    \
    }                                                                                                                   \
    __syncwarp();                                                                                                       \
    sm100::ClusterSync();                                                                                               \
    if (warp == 1) sm100::TmemFree<plan::kCtaGroup>(0, kColumns);                                                       \
  }                                                                                                                     \
                                                                                                                        \
  /* Encodes every map (the header's EncodeMap) over zero tensors and launches one cluster grid. */                    \
  inline int Run(void* a, void* b, void* d) {                                                                           \
    sm100::Maps maps{};                                                                                                 \
    for (unsigned id = 0; id < plan::kNumMaps; ++id) {                                                                  \
      const char op = plan::MapOperand(id);                                                                             \
      if (plan::EncodeMap(id, &maps.m[id], op == 'A' ? a : op == 'B' ? b : d) != CUDA_SUCCESS) return 1;                \
    }                                                                                                                   \
    cudaFuncSetAttribute(Gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(plan::kSmemBytes));        \
    cudaLaunchConfig_t cfg{};                                                                                           \
    cfg.gridDim = dim3(static_cast<unsigned>(plan::kTilesM), static_cast<unsigned>(plan::kTilesN), 1);                  \
    cfg.blockDim = dim3(128, 1, 1);                                                                                     \
    cfg.dynamicSmemBytes = plan::kSmemBytes;                                                                            \
    cudaLaunchAttribute attr[1];                                                                                        \
    attr[0].id = cudaLaunchAttributeClusterDimension;                                                                   \
    attr[0].val.clusterDim.x = plan::kClusterM;                                                                         \
    attr[0].val.clusterDim.y = plan::kClusterN;                                                                         \
    attr[0].val.clusterDim.z = 1;                                                                                       \
    cfg.attrs = attr;                                                                                                   \
    cfg.numAttrs = 1;                                                                                                   \
    if (cudaLaunchKernelEx(&cfg, Gemm, maps) != cudaSuccess) return 1;                                                  \
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;                                                              \
  }

namespace g1 {
static_assert(plan::kCtaGroup == 1u && plan::kClusterSize == 2u, "the 1-CTA multicast plan");
TMAPGEN_SM100_GEMM_KERNEL
}  // namespace g1

namespace g2 {
static_assert(plan::kCtaGroup == 2u, "the 2-CTA plan");
TMAPGEN_SM100_GEMM_KERNEL
}  // namespace g2

// ---- the convolution through one im2col::w form (namespace cv::conv::im2col_w or im2col_w128, template argument F):
// one CTA per tile of kBM pixels of one output row (blockIdx.x = q tile, y = p, z = n); one N tile.
namespace cv {
static_assert(conv::kSpatial == 2u, "a 2D convolution");
static_assert(plan::kTilesN == 1u, "one N tile");

#define TMAPGEN_SM100_CONV_KERNEL(NAME, F, MAP, COPY, WS)                                                              \
  __global__ void __launch_bounds__(128) NAME(const __grid_constant__ sm100::Maps maps) {                              \
    extern __shared__ __align__(1024) unsigned char smem[];                                                             \
    const uint32_t base = sm100::Smem(smem);                                                                            \
    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;                                                    \
    const int32_t q0 = static_cast<int32_t>(blockIdx.x * plan::kBM), p = static_cast<int32_t>(blockIdx.y),              \
                  n = static_cast<int32_t>(blockIdx.z);                                                                 \
    constexpr uint32_t kColumns = sm100::TmemColumns(plan::kMmaN * F::kRunsPerTap);                                     \
    if (threadIdx.x == 0) {                                                                                             \
      for (uint32_t s = 0; s < F::kStages; ++s) {                                                                       \
        sm100::BarrierInit(base + F::kFullBarrier + 8u * s, 1);                                                         \
        sm100::BarrierInit(base + F::kEmptyBarrier + 8u * s, 1);                                                        \
      }                                                                                                                 \
      sm100::BarrierInit(base + F::kTmemFullBarrier, 1);                                                                \
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");                                                \
    }                                                                                                                   \
    if (warp == 1) sm100::TmemAlloc<1>(base + F::kTmemAddress, kColumns);                                               \
    sm100::ClusterSync();                                                                                               \
    if (warp == 0 && lane == 0) {                                                                                       \
      for (uint32_t j = 0; j < F::kKIterations; ++j) {                                                                  \
        const uint32_t s = j % F::kStages, parity = (j / F::kStages) & 1u;                                              \
        const uint32_t r = j / conv::kChannelBlocks, c0 = (j % conv::kChannelBlocks) * plan::kBK;                       \
        sm100::Wait(base + F::kEmptyBarrier + 8u * s, parity ^ 1u);                                                     \
        const uint32_t full = base + F::kFullBarrier + 8u * s;                                                          \
        sm100::ExpectTx(full, F::kExpectTx);                                                                            \
        const int32_t w = q0 * static_cast<int32_t>(conv::kStrideW) - static_cast<int32_t>(conv::kPadW);               \
        const int32_t h = p * static_cast<int32_t>(conv::kStrideH) - static_cast<int32_t>(conv::kPadH) +                \
                          static_cast<int32_t>(r * conv::kDilationH);                                                   \
        for (uint32_t b = 0; b < F::kNumBuffers; ++b)                                                                   \
          for (uint32_t sl = 0; sl < F::kSlabs; ++sl)                                                                   \
            sm100::COPY(base + F::SmemA(s) + F::BufferOffset(b) + sl * F::SlabPitch(b), &maps.m[plan::MAP],             \
                        static_cast<int32_t>(c0 + sl * F::kChannelsPerPixel), w, h, n, full, F::WHalo(b), F::WOffset(b)); \
        for (uint32_t tap = 0; tap < F::kNumTaps; ++tap)                                                                \
          for (uint32_t sl = 0; sl < F::kSlabs; ++sl)                                                                   \
            sm100::Tma4d(base + F::SmemB(s) + (tap * F::kSlabs + sl) * F::kBTapSlabBytes, &maps.m[plan::kMap_B],        \
                         static_cast<int32_t>(c0 + sl * F::kChannelsPerPixel), static_cast<int32_t>(tap),               \
                         static_cast<int32_t>(r), 0, full);                                                             \
      }                                                                                                                 \
    } else if (warp == 1 && lane == 0) {                                                                                \
      uint32_t tmem;                                                                                                    \
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(tmem) : "r"(base + F::kTmemAddress));                              \
      for (uint32_t j = 0; j < F::kKIterations; ++j) {                                                                  \
        const uint32_t s = j % F::kStages, parity = (j / F::kStages) & 1u;                                              \
        sm100::Wait(base + F::kFullBarrier + 8u * s, parity);                                                           \
        sm100::FenceAfterSync();                                                                                        \
        for (uint32_t tap = 0; tap < F::kNumTaps; ++tap)                                                                \
          for (uint32_t i = 0; i < F::kDescsPerTap; ++i) {                                                              \
            const uint32_t k = i % F::kKSteps, run = i / F::kKSteps;                                                    \
            /* B of this tap, K step k: the GEMM's DescB moved from its B buffer to this form's. */                     \
            const uint64_t bdesc = plan::DescB(base + F::SmemB(s) + tap * F::kSlabs * F::kBTapSlabBytes - plan::kSmemB, \
                                               0, k);                                                                   \
            const uint32_t accumulate = (j | tap | k) != 0u;                                                            \
            if (WS)                                                                                                     \
              sm100::MmaWs(tmem + run * plan::kMmaN, F::DescA(base, s, tap, i), bdesc, F::kIdesc, accumulate);          \
            else                                                                                                        \
              sm100::Mma<1>(tmem, F::DescA(base, s, tap, i), bdesc, F::kIdesc, accumulate);                             \
          }                                                                                                             \
        sm100::Commit<1>(base + F::kEmptyBarrier + 8u * s, 1);                                                          \
      }                                                                                                                 \
      sm100::Commit<1>(base + F::kTmemFullBarrier, 1);                                                                  \
      sm100::Wait(base + F::kTmemFullBarrier, 0);                                                                       \
    }                                                                                                                   \
    __syncwarp();                                                                                                       \
    sm100::ClusterSync();                                                                                               \
    if (warp == 1) sm100::TmemFree<1>(0, kColumns);                                                                     \
  }

namespace W = conv::im2col_w;
namespace W128 = conv::im2col_w128;
TMAPGEN_SM100_CONV_KERNEL(ConvW, W, kMap_A_w, Tma4dIm2colW, false)
TMAPGEN_SM100_CONV_KERNEL(ConvW128, W128, kMap_A_w128, Tma4dIm2colW128, W128::kRunsPerTap == 4u)

// Encodes every map of the header over zero tensors (activations for A maps, the filter for B, the output for D) and
// launches one form's kernel.
template <typename Kernel>
int Launch(Kernel kernel, unsigned smem_bytes, unsigned long long q_tiles, void* x, void* filter, void* out) {
  sm100::Maps maps{};
  for (unsigned id = 0; id < plan::kNumMaps; ++id) {
    const char op = plan::MapOperand(id);
    if (plan::EncodeMap(id, &maps.m[id], op == 'A' ? x : op == 'B' ? filter : out) != CUDA_SUCCESS) return 1;
  }
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes));
  const dim3 grid(static_cast<unsigned>(q_tiles), static_cast<unsigned>(conv::kOutP), static_cast<unsigned>(conv::kBatch));
  kernel<<<grid, 128, smem_bytes>>>(maps);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
}  // namespace cv

int main() {
  // Zero tensors of the planned sizes (the largest of the maps' extents, rounded up generously).
  void* buf[3] = {nullptr, nullptr, nullptr};
  const size_t bytes = size_t{64} << 20;
  for (void*& p : buf)
    if (cudaMalloc(&p, bytes) != cudaSuccess || cudaMemset(p, 0, bytes) != cudaSuccess) {
      std::printf("SKIP: no device memory (no GPU)\n");
      return 0;
    }
  int fails = 0;
  fails += g1::Run(buf[0], buf[1], buf[2]);
  fails += g2::Run(buf[0], buf[1], buf[2]);
  fails += cv::Launch(cv::ConvW, cv::W::kSmemBytes, cv::W::kQTilesPerRow, buf[0], buf[1], buf[2]);
  fails += cv::Launch(cv::ConvW128, cv::W128::kSmemBytes, cv::W128::kQTilesPerRow, buf[0], buf[1], buf[2]);
  std::printf("%s: %d of 4 kernels failed\n", fails ? "FAIL" : "OK", fails);
  return fails ? 1 : 0;
}
