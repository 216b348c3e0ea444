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

// ---- the GEMM kernel, the same text for every GEMM header (inside its namespace: plan:: is that header's).
#define TMAPGEN_SM100_GEMM_KERNEL                                                                                       \
  static_assert(plan::kMap_D < 8u, "the maps fit sm100::Maps");                                                         \
  /* The per-CTA tables as device constants (constant-initialised from the header's constexpr arrays). */               \
  struct Tables {                                                                                                       \
    plan::Copy copies[plan::kClusterSize][plan::kMaxCopies];                                                            \
    unsigned num[plan::kClusterSize], expect_tx[plan::kClusterSize], full[plan::kClusterSize],                          \
        empty[plan::kClusterSize], release[plan::kClusterSize];                                                         \
    unsigned long long desc_a[plan::kNumDescA], desc_b[plan::kNumDescB];                                                \
    unsigned desc_a_start[plan::kNumDescA], desc_b_start[plan::kNumDescB];                                              \
  };                                                                                                                    \
  constexpr Tables MakeTables() {                                                                                       \
    Tables t{};                                                                                                         \
    for (unsigned r = 0; r < plan::kClusterSize; ++r) {                                                                 \
      for (unsigned i = 0; i < plan::kMaxCopies; ++i) t.copies[r][i] = plan::kCopies[r][i];                             \
      t.num[r] = plan::kNumCopies[r];                                                                                   \
      t.expect_tx[r] = plan::kExpectTx[r];                                                                              \
      t.full[r] = plan::kFullArrivals[r];                                                                               \
      t.empty[r] = plan::kEmptyArrivals[r];                                                                             \
      t.release[r] = plan::kReleaseMask[r];                                                                             \
    }                                                                                                                   \
    for (unsigned i = 0; i < plan::kNumDescA; ++i) {                                                                    \
      t.desc_a[i] = plan::kDescA[i];                                                                                    \
      t.desc_a_start[i] = plan::kDescAStart[i];                                                                         \
    }                                                                                                                   \
    for (unsigned i = 0; i < plan::kNumDescB; ++i) {                                                                    \
      t.desc_b[i] = plan::kDescB[i];                                                                                    \
      t.desc_b_start[i] = plan::kDescBStart[i];                                                                         \
    }                                                                                                                   \
    return t;                                                                                                           \
  }                                                                                                                     \
  __constant__ Tables kTables = MakeTables();                                                                           \
  /* plan::DescA/DescB with the tables above (the header's functions index namespace-scope constexpr arrays, which   \
     nvcc does not allow at run time in device code). */                                                               \
  __device__ inline unsigned long long DevDescA(uint32_t base, uint32_t stage, uint32_t i) {                            \
    return kTables.desc_a[i] |                                                                                          \
           (((uint64_t{base} + kTables.desc_a_start[i] + uint64_t{stage} * plan::kSmemAStageStride) >> 4) & 0x3FFFull); \
  }                                                                                                                     \
  __device__ inline unsigned long long DevDescB(uint32_t base, uint32_t stage, uint32_t i) {                            \
    return kTables.desc_b[i] |                                                                                          \
           (((uint64_t{base} + kTables.desc_b_start[i] + uint64_t{stage} * plan::kSmemBStageStride) >> 4) & 0x3FFFull); \
  }                                                                                                                     \
                                                                                                                        \
  /* Warp 0 lane 0: the producer. Warp 1: tensor memory and (lane 0) the MMAs. blockIdx.x is the M tile, y the N tile. */\
  __global__ void __launch_bounds__(128) Gemm(const __grid_constant__ sm100::Maps maps) {                              \
    extern __shared__ __align__(1024) unsigned char smem[];                                                             \
    const uint32_t base = sm100::Smem(smem);                                                                            \
    const uint32_t rank = sm100::ClusterRank();                                                                         \
    const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;                                                    \
    const int32_t m0 = static_cast<int32_t>(blockIdx.x * plan::kBM), n0 = static_cast<int32_t>(blockIdx.y * plan::kBN); \
    constexpr uint32_t kColumns = sm100::TmemColumns(plan::kMmaN);                                                      \
    const bool leader = plan::kCtaGroup == 1 || (rank % 2u) == 0u;                                                      \
    if (threadIdx.x == 0) {                                                                                             \
      for (uint32_t s = 0; s < plan::kStages; ++s) {                                                                    \
        if (kTables.full[rank] != 0) sm100::BarrierInit(base + plan::FullBarrier(s), kTables.full[rank]);               \
        sm100::BarrierInit(base + plan::EmptyBarrier(s), kTables.empty[rank]);                                          \
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
        if (kTables.expect_tx[rank] != 0)                                                                               \
          sm100::ExpectTx(full, kTables.expect_tx[rank]);                                                               \
        else                                                                                                            \
          sm100::ArriveRemote(leader_full); /* the pair's odd CTA: one arrival, its bytes counted by the leader */      \
        for (uint32_t i = 0; i < kTables.num[rank]; ++i) {                                                              \
          const plan::Copy c = kTables.copies[rank][i];                                                                 \
          const bool is_a = c.map == plan::kMap_A;                                                                      \
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
    } else if (warp == 1 && lane == 0 && leader) {                                                                      \
      uint32_t tmem;                                                                                                    \
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(tmem) : "r"(base + plan::kTmemAddress));                            \
      for (uint32_t j = 0; j < plan::kKTiles; ++j) {                                                                    \
        const uint32_t s = j % plan::kStages, parity = (j / plan::kStages) & 1u;                                        \
        sm100::Wait(base + plan::FullBarrier(s), parity);                                                               \
        sm100::FenceAfterSync();                                                                                        \
        for (uint32_t k = 0; k < plan::kKSteps; ++k)                                                                    \
          sm100::Mma<plan::kCtaGroup>(tmem, DevDescA(base, s, k), DevDescB(base, s, k), plan::kIdesc,                   \
                                      (j | k) != 0u);                                                                   \
        sm100::Commit<plan::kCtaGroup>(base + plan::EmptyBarrier(s), static_cast<uint16_t>(kTables.release[rank]));     \
      }                                                                                                                 \
      sm100::Commit<plan::kCtaGroup>(base + plan::kTmemFullBarrier, static_cast<uint16_t>(1u << rank));                 \
      sm100::Wait(base + plan::kTmemFullBarrier, 0);                                                                    \
    }                                                                                                                   \
    __syncwarp();                                                                                                       \
    sm100::ClusterSync();                                                                                               \
    if (warp == 1) sm100::TmemFree<plan::kCtaGroup>(0, kColumns);                                                       \
  }                                                                                                                     \
                                                                                                                        \
  /* Encodes the maps (the header's Encode, zero tensors of the planned sizes) and launches one cluster grid. */       \
  inline int Run(void* a, void* b, void* d) {                                                                           \
    sm100::Maps maps{};                                                                                                 \
    if (A::Encode(&maps.m[plan::kMap_A], a) != CUDA_SUCCESS || B::Encode(&maps.m[plan::kMap_B], b) != CUDA_SUCCESS ||   \
        D::Encode(&maps.m[plan::kMap_D], d) != CUDA_SUCCESS)                                                            \
      return 1;                                                                                                         \
    TMAPGEN_SM100_EXTRA_MAPS                                                                                            \
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
#define TMAPGEN_SM100_EXTRA_MAPS \
  if (B_slice::Encode(&maps.m[plan::kMap_B_slice], b) != CUDA_SUCCESS) return 1;
TMAPGEN_SM100_GEMM_KERNEL
#undef TMAPGEN_SM100_EXTRA_MAPS
}  // namespace g1

namespace g2 {
#define TMAPGEN_SM100_EXTRA_MAPS
static_assert(plan::kCtaGroup == 2u, "the 2-CTA plan");
TMAPGEN_SM100_GEMM_KERNEL
#undef TMAPGEN_SM100_EXTRA_MAPS
}  // namespace g2

// ---- the convolution through one im2col::w form (namespace cv::conv::<Form>): one CTA per tile of kBM pixels of one
// output row (blockIdx.x = q tile, y = p, z = n), blockIdx of the N tile folded into a loop of one (kTilesN = 1 here).
namespace cv {
static_assert(conv::kSpatial == 2u, "a 2D convolution");
static_assert(plan::kTilesN == 1u, "one N tile");

// The form's run-time-indexed tables as device constants (see DevDescA above), and B's descriptors of the GEMM.
struct ConvTables {
  uint16_t w_offset[8], w_halo[8];
  uint32_t buffer_offset[8], slab_pitch[8];
  unsigned long long desc_b[plan::kNumDescB];
  uint32_t desc_b_start[plan::kNumDescB];
};
#define TMAPGEN_CONV_TABLES(F)                                                      \
  [] {                                                                              \
    ConvTables t{};                                                                 \
    static_assert(F::kNumBuffers <= 8u, "at most 8 W phases (stride <= 8)");       \
    for (unsigned b = 0; b < F::kNumBuffers; ++b) {                                 \
      t.w_offset[b] = F::kWOffset[b];                                               \
      t.w_halo[b] = F::kWHalo[b];                                                   \
      t.buffer_offset[b] = F::kBufferOffset[b];                                     \
      t.slab_pitch[b] = F::kSlabPitch[b];                                           \
    }                                                                               \
    for (unsigned i = 0; i < plan::kNumDescB; ++i) {                                \
      t.desc_b[i] = plan::kDescB[i];                                                \
      t.desc_b_start[i] = plan::kDescBStart[i];                                     \
    }                                                                               \
    return t;                                                                       \
  }()
__constant__ ConvTables kTablesW = TMAPGEN_CONV_TABLES(conv::im2col_w);
__constant__ ConvTables kTablesW128 = TMAPGEN_CONV_TABLES(conv::im2col_w128);

template <bool kW128>
__global__ void __launch_bounds__(128) Conv(const __grid_constant__ sm100::Maps maps) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const uint32_t base = sm100::Smem(smem);
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int32_t q0 = static_cast<int32_t>(blockIdx.x * plan::kBM), p = static_cast<int32_t>(blockIdx.y),
                n = static_cast<int32_t>(blockIdx.z);
#define TMAPGEN_FORM(x) (kW128 ? conv::im2col_w128::x : conv::im2col_w::x)
  const ConvTables& t = kW128 ? kTablesW128 : kTablesW;
  constexpr uint32_t kStages = TMAPGEN_FORM(kStages);
  constexpr uint32_t kColumns = sm100::TmemColumns(plan::kMmaN * (kW128 ? 4u : 1u));
  const uint32_t full0 = TMAPGEN_FORM(kFullBarrier), empty0 = TMAPGEN_FORM(kEmptyBarrier);
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      sm100::BarrierInit(base + full0 + 8u * s, 1);
      sm100::BarrierInit(base + empty0 + 8u * s, 1);
    }
    sm100::BarrierInit(base + TMAPGEN_FORM(kTmemFullBarrier), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (warp == 1) sm100::TmemAlloc<1>(base + TMAPGEN_FORM(kTmemAddress), kColumns);
  sm100::ClusterSync();
  if (warp == 0 && lane == 0) {
    for (uint32_t j = 0; j < TMAPGEN_FORM(kKIterations); ++j) {
      const uint32_t s = j % kStages, parity = (j / kStages) & 1u;
      const uint32_t r = j / conv::kChannelBlocks, c0 = (j % conv::kChannelBlocks) * plan::kBK;
      sm100::Wait(base + empty0 + 8u * s, parity ^ 1u);
      const uint32_t full = base + full0 + 8u * s;
      sm100::ExpectTx(full, TMAPGEN_FORM(kExpectTx));
      const int32_t w = q0 * static_cast<int32_t>(conv::kStrideW) - static_cast<int32_t>(conv::kPadW);
      const int32_t h = p * static_cast<int32_t>(conv::kStrideH) - static_cast<int32_t>(conv::kPadH) + static_cast<int32_t>(r);
      for (uint32_t b = 0; b < TMAPGEN_FORM(kNumBuffers); ++b)
        for (uint32_t sl = 0; sl < TMAPGEN_FORM(kSlabs); ++sl) {
          const uint32_t dst = base + TMAPGEN_FORM(SmemA(s)) + t.buffer_offset[b] + sl * t.slab_pitch[b];
          const int32_t c = static_cast<int32_t>(c0 + sl * TMAPGEN_FORM(kChannelsPerPixel));
          const uint16_t halo = t.w_halo[b], offset = t.w_offset[b];
          if constexpr (kW128)
            sm100::Tma4dIm2colW128(dst, &maps.m[plan::kMap_A_w128], c, w, h, n, full, halo, offset);
          else
            sm100::Tma4dIm2colW(dst, &maps.m[plan::kMap_A_w], c, w, h, n, full, halo, offset);
        }
      for (uint32_t tap = 0; tap < TMAPGEN_FORM(kNumTaps); ++tap)
        for (uint32_t sl = 0; sl < TMAPGEN_FORM(kSlabs); ++sl) {
          const uint32_t dst = base + TMAPGEN_FORM(SmemB(s)) + (tap * TMAPGEN_FORM(kSlabs) + sl) * TMAPGEN_FORM(kBTapSlabBytes);
          sm100::Tma4d(dst, &maps.m[plan::kMap_B], static_cast<int32_t>(c0 + sl * TMAPGEN_FORM(kChannelsPerPixel)),
                       static_cast<int32_t>(tap), static_cast<int32_t>(r), 0, full);
        }
    }
  } else if (warp == 1 && lane == 0) {
    uint32_t tmem;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(tmem) : "r"(base + TMAPGEN_FORM(kTmemAddress)));
    for (uint32_t j = 0; j < TMAPGEN_FORM(kKIterations); ++j) {
      const uint32_t s = j % kStages, parity = (j / kStages) & 1u;
      sm100::Wait(base + full0 + 8u * s, parity);
      sm100::FenceAfterSync();
      for (uint32_t tap = 0; tap < TMAPGEN_FORM(kNumTaps); ++tap)
        for (uint32_t i = 0; i < TMAPGEN_FORM(kDescsPerTap); ++i) {
          const uint32_t k = i % TMAPGEN_FORM(kKSteps), run = i / TMAPGEN_FORM(kKSteps);
          // B of tap `tap`, K step k: the GEMM's descriptor moved to this form's B buffer.
          const uint64_t bdesc =
              t.desc_b[k] | (((uint64_t{base} + TMAPGEN_FORM(SmemB(s)) + tap * TMAPGEN_FORM(kSlabs) * TMAPGEN_FORM(kBTapSlabBytes) +
                               (t.desc_b_start[k] - plan::kSmemB)) >> 4) & 0x3FFFull);
          const uint64_t adesc = kW128 ? conv::im2col_w128::DescA(base, s, tap, i) : conv::im2col_w::DescA(base, s, tap, i);
          const uint32_t accumulate = (j | tap | k) != 0u;
          if (kW128 && TMAPGEN_FORM(kRunsPerTap) == 4u)
            sm100::MmaWs(tmem + run * plan::kMmaN, adesc, bdesc, TMAPGEN_FORM(kIdesc), accumulate);
          else
            sm100::Mma<1>(tmem, adesc, bdesc, TMAPGEN_FORM(kIdesc), accumulate);
        }
      sm100::Commit<1>(base + empty0 + 8u * s, 1);
    }
    sm100::Commit<1>(base + TMAPGEN_FORM(kTmemFullBarrier), 1);
    sm100::Wait(base + TMAPGEN_FORM(kTmemFullBarrier), 0);
  }
  __syncwarp();
  sm100::ClusterSync();
  if (warp == 1) sm100::TmemFree<1>(0, kColumns);
#undef TMAPGEN_FORM
}

template <bool kW128>
int Run(void* x, void* filter) {
  sm100::Maps maps{};
  if (B::Encode(&maps.m[plan::kMap_B], filter) != CUDA_SUCCESS) return 1;
  if (kW128 ? A_w128::Encode(&maps.m[plan::kMap_A_w128], x) != CUDA_SUCCESS
            : A_w::Encode(&maps.m[plan::kMap_A_w], x) != CUDA_SUCCESS)
    return 1;
  const unsigned smem_bytes = kW128 ? conv::im2col_w128::kSmemBytes : conv::im2col_w::kSmemBytes;
  cudaFuncSetAttribute(Conv<kW128>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes));
  const dim3 grid(static_cast<unsigned>(kW128 ? conv::im2col_w128::kQTilesPerRow : conv::im2col_w::kQTilesPerRow),
                  static_cast<unsigned>(conv::kOutP), static_cast<unsigned>(plan::kM / (conv::kOutP * conv::kOutQ)));
  Conv<kW128><<<grid, 128, smem_bytes>>>(maps);
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
  fails += cv::Run<false>(buf[0], buf[1]);
  fails += cv::Run<true>(buf[0], buf[1]);
  std::printf("%s: %d of 4 kernels failed\n", fails ? "FAIL" : "OK", fails);
  return fails ? 1 : 0;
}
