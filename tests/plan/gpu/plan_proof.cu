// plan_proof.cu: a GEMM (or, with -DPROOF_CONV=1, a forward convolution) whose kernel is built only from a header
// that `tmapgen plan gemm|conv --format cpp` generated (docs/plan.md, "The proof"). Every shape, map, offset,
// barrier count, transaction count, descriptor and the MMA instruction come from that header; this file holds
// only what a header cannot: the PTX of each operation and the order of the pipeline.
//
//   nvcc -std=c++17 -O2 -arch=sm_90a -DPROOF_PLAN_HEADER='"gen.h"' [-DPROOF_CONV=1] plan_proof.cu -lcuda -o proof
//   ./proof [--bench ITERATIONS]
//
// The kernel (one CTA per output tile, the cluster the plan says, kConsumerWarpgroups + 1 warpgroups):
// - the last warpgroup is the producer: one thread walks the K tiles; for K tile j (stage s = j % kStages) it
//   waits on EmptyBarrier(s), arms FullBarrier(s) with kExpectTx[rank] and issues kCopies[rank][*] at the tile
//   origin plus each copy's offsets, .multicast::cluster with the copy's mask when it has one;
// - each consumer warpgroup waits on FullBarrier(s), issues kKSteps x kMmaPerKStep wgmma with DescA/DescB,
//   waits for them, and one elected thread arrives on EmptyBarrier(s) of every CTA in kReleaseMask[rank]
//   (the plan counts one arrival per consumer warpgroup: kEmptyArrivals);
// - epilogue: the accumulators go to kSmemD in the D map's swizzled box layout, then kEpilogueCopies are TMA
//   stores (a bulk group).
// The host fills A and B with small multiples of 1/2 (exact in every input type, products and f32 sums exact),
// computes the reference with a plain f32 GPU kernel from the same values, and compares D element by element.
// A wait that lasts more than 4 s stops the kernel and reports where it hung (a wrong count hangs): every wait
// then gives up, the loops end and the kernel leaves without storing.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include PROOF_PLAN_HEADER
#include "wgmma_ops.cuh"

namespace NS = tmapgen_plan;
namespace P = tmapgen_plan::plan;

#ifndef PROOF_CONV
#define PROOF_CONV 0
#endif
// The negative control only: bytes added to every expect_tx (a barrier that expects more than arrives never
// completes, and the kernel must report the hang).
#ifndef PROOF_EXPECT_TX_DELTA
#define PROOF_EXPECT_TX_DELTA 0u
#endif
// The other negative control: 16-byte units added to every A descriptor's start address (2: the MMAs read the
// next K step's columns), which the comparison must catch.
#ifndef PROOF_DESC_A_START_DELTA
#define PROOF_DESC_A_START_DELTA 0u
#endif

// ---- compile-time consequences of the header: a plan this kernel cannot run stops the build here.
constexpr int kOpIndex = proof::FindWgmmaOp(P::kMmaInstruction);
static_assert(kOpIndex >= 0, "no wrapper in wgmma_ops.cuh spells the plan's kMmaInstruction (make_wgmma_ops.py)");
using Op = proof::WgmmaOp<kOpIndex < 0 ? 0 : kOpIndex>;
static_assert(P::kCtaGroup == 1u, "the proof runs wgmma plans (sm_90a)");
static_assert(P::kMmaM == 64u && Op::kN == P::kMmaN && Op::kK == P::kMmaK, "the wrapper's shape is the plan's");
static_assert(P::kMmaN == P::kBN, "one wgmma covers the tile's N");
static_assert(P::kConsumerWarpgroups * P::kRowsPerWarpgroup == P::kBM, "the warpgroups split BM");
static_assert(P::kRowsPerWarpgroup == 64u * P::kMmaPerKStep, "each warpgroup issues one wgmma per m64 slice");
static_assert(P::kNumDescA == (P::kBM / 64u) * P::kKSteps && P::kNumDescB == P::kKSteps, "descriptor tables");
static_assert(Op::kHasTranspose || (!P::kTransA && !P::kTransB), "8-bit operands are K-major");
static_assert(P::kNumEpilogueCopies >= 1u, "the proof stores D through the plan's D map");

constexpr unsigned kConsumers = P::kConsumerWarpgroups;
constexpr unsigned kThreads = (kConsumers + 1u) * 128u;
constexpr unsigned kSlices = P::kMmaPerKStep;
constexpr unsigned kAcc = Op::kAccumulators;

constexpr bool EpilogueIsSlabs() {
  for (unsigned i = 0; i < P::kNumEpilogueCopies; ++i) {
    const P::Copy& c = P::kEpilogueCopies[i];
    if (c.map != P::kMap_D || c.coord0 != i * NS::D::kBoxDim0 || c.coord1 != 0u) return false;
  }
  return NS::D::kBoxDim1 == P::kBM && P::kNumEpilogueCopies * NS::D::kBoxDim0 == P::kBN;
}
static_assert(EpilogueIsSlabs(), "the epilogue copies are the D box's slabs along N, BM rows each");
static_assert(NS::D::kRank == 2u, "D is a 2D map");
constexpr bool NoPairCopies() {
  for (unsigned r = 0; r < P::kClusterSize; ++r)
    for (unsigned i = 0; i < P::kNumCopies[r]; ++i)
      if (P::kCopies[r][i].to_leader_barrier) return false;
  return true;
}
static_assert(NoPairCopies(), ".cta_group::2 copies are tcgen05 only");
#if PROOF_CONV
static_assert(NS::conv::kSpatial == 2u, "the proof runs 2D convolutions (a 4D im2col map)");
static_assert(NS::A::kRank == 4u && NS::B::kRank == 4u, "im2col A {C, W, H, N}, filter B {C, S, R, K}");
#else
static_assert(NS::A::kRank == 2u && NS::B::kRank == 2u, "GEMM operands are 2D maps");
#endif

struct Maps {
  CUtensorMap m[P::kNumMaps];
};

struct Diag {
  int abort;      // set once by the first wait that timed out
  int block_x, block_y, rank, role;  // role: 0 producer (empty barrier), 1 consumer (full barrier)
  int stage, parity, k_tile, pad;
  int misaligned_smem;
};

// ---- PTX
__device__ __forceinline__ uint32_t SmemU32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t ClusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ bool TryWait(uint32_t bar, uint32_t parity) {
  uint32_t ok;
  asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2; selp.u32 %0, 1, 0, P; }"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}
__device__ __forceinline__ uint64_t GlobalTimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// Waits for the phase of `parity` to complete; false when it took more than 4 s (or another wait did).
__device__ bool Wait(uint32_t bar, uint32_t parity, Diag* diag, int role, unsigned stage, unsigned long long j) {
  if (TryWait(bar, parity)) return true;
  const uint64_t t0 = GlobalTimer();
  for (unsigned tries = 1; !TryWait(bar, parity); ++tries) {
    if (tries % 64u != 0u) continue;  // the flag and the clock every 64 tries: the spin stays off the memory system
    if (*reinterpret_cast<volatile int*>(&diag->abort) != 0) return false;
    if (GlobalTimer() - t0 > 4000000000ull) {
      if (atomicCAS(&diag->abort, 0, 1) == 0) {
        diag->block_x = static_cast<int>(blockIdx.x);
        diag->block_y = static_cast<int>(blockIdx.y);
        diag->rank = static_cast<int>(ClusterRank());
        diag->role = role;
        diag->stage = static_cast<int>(stage);
        diag->parity = static_cast<int>(parity);
        diag->k_tile = static_cast<int>(j);
        __threadfence();
      }
      return false;
    }
  }
  return true;
}
__device__ __forceinline__ void ArriveExpectTx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// Arrives on the barrier at the same offset in CTA `cta` of the cluster (mapa, PTX ISA 9.7.9.20).
__device__ __forceinline__ void ArriveCluster(uint32_t bar, uint32_t cta) {
  asm volatile("{ .reg .b32 a; mapa.shared::cluster.u32 a, %0, %1;\n"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [a]; }" ::"r"(bar), "r"(cta) : "memory");
}
__device__ __forceinline__ void Load2d(const CUtensorMap* map, uint32_t dst, uint32_t bar, int c0, int c1, uint16_t mask) {
  if (mask == 0)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;"
                 ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask) : "memory");
}
__device__ __forceinline__ void Load4d(const CUtensorMap* map, uint32_t dst, uint32_t bar, int c0, int c1, int c2, int c3,
                                       uint16_t mask) {
  if (mask == 0)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6], %7;"
                 ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar), "h"(mask) : "memory");
}
__device__ __forceinline__ void LoadIm2col4d(const CUtensorMap* map, uint32_t dst, uint32_t bar, int c, int w, int h, int n,
                                             uint16_t off_w, uint16_t off_h) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
               ::"r"(dst), "l"(map), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(off_w), "h"(off_h) : "memory");
}
__device__ __forceinline__ void Store2d(const CUtensorMap* map, uint32_t src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];"
               ::"l"(map), "r"(src), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void NamedBarrier(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

static_assert(NS::D::kDataType == 9u || NS::D::kDataType == 6u || NS::D::kDataType == 7u, "D is bf16, f16 or f32");
// D's element from an f32 accumulator, by the D map's data type (cuda.h CUtensorMapDataType values).
__device__ __forceinline__ void PutD(uint8_t* p, float v) {
  if constexpr (NS::D::kDataType == 9u) {
    *reinterpret_cast<__nv_bfloat16*>(p) = __float2bfloat16_rn(v);
  } else if constexpr (NS::D::kDataType == 6u) {
    *reinterpret_cast<__half*>(p) = __float2half_rn(v);
  } else {
    *reinterpret_cast<float*>(p) = v;
  }
}
// Byte offset of box element (row, col) in a box stored with the map's swizzle: the 16-byte chunk index (bits
// 4..) is XORed with the row within the repeat (bits 7..), Swizzle<B,4,3> for B = 1, 2, 3 (32B, 64B, 128B).
__device__ __forceinline__ uint32_t SwizzledD(uint32_t row, uint32_t col_bytes) {
  uint32_t o = row * NS::D::kSmemRowPitch + col_bytes;
  if constexpr (NS::D::kSwizzle != 0u) o ^= ((o >> 7) & ((1u << NS::D::kSwizzle) - 1u)) << 4;
  return o;
}

// The warpgroup is done reading stage s: one thread arrives on that stage's empty barrier in every CTA whose
// producers write into this CTA (ReleaseMask), the plan's one arrival per consumer warpgroup.
template <unsigned kWg>
__device__ __forceinline__ void Release(uint32_t base, uint32_t rank, unsigned s) {
  NamedBarrier(1u + kWg, 128u);
  if (threadIdx.x % 128u == 0u) {
    for (uint32_t c = 0; c < P::kClusterSize; ++c)
      if (P::ReleaseMask(rank) & (1u << c)) ArriveCluster(base + P::EmptyBarrier(s), c);
  }
  __syncwarp();
}
// One consumer warpgroup: the main loop, then its rows of the tile into kSmemD (the D box layout).
template <unsigned kWg>
__device__ __forceinline__ void Consumer(uint8_t* smem, uint32_t base, uint32_t rank, Diag* diag) {
  float acc[kSlices][kAcc];
#pragma unroll
  for (unsigned i = 0; i < kSlices; ++i)
#pragma unroll
    for (unsigned a = 0; a < kAcc; ++a) acc[i][a] = 0.0f;
  unsigned long long released = ~0ull;  // the last K tile whose MMAs were issued (its release may be pending)
  for (unsigned long long j = 0; j < P::kKTiles; ++j) {
    const unsigned s = static_cast<unsigned>(j % P::kStages);
    const uint32_t parity = static_cast<uint32_t>((j / P::kStages) & 1ull);
    if (!Wait(base + P::FullBarrier(s), parity, diag, 1, s, j)) {
      released = ~0ull;  // hung: release nothing more
      break;
    }
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (unsigned k = 0; k < P::kKSteps; ++k) {
#pragma unroll
      for (unsigned i = 0; i < kSlices; ++i) {
        const unsigned slice = kWg * kSlices + i;
        Op::Run<P::kTransA, P::kTransB>(acc[i], P::DescA(base, s, slice * P::kKSteps + k) + PROOF_DESC_A_START_DELTA,
                                        P::DescB(base, s, k), 1u);
      }
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    // One group stays in flight (CUTLASS's K_PIPE_MMAS = 1): when the previous stage's MMAs are done, that
    // stage goes back to the producers while this one computes.
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    if (j > 0) Release<kWg>(base, rank, static_cast<unsigned>((j - 1) % P::kStages));
    released = j;
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  if (released + 1 == P::kKTiles) Release<kWg>(base, rank, static_cast<unsigned>(released % P::kStages));
  // ---- epilogue: accumulator fragment of m64nNk*: thread t of the warpgroup holds rows w x 16 + l / 4 (+8)
  // and columns 8 x q + 2 x (l % 4) (+1) (PTX ISA 9.7.15.5.1, wgmma D fragment), w = t / 32, l = t % 32.
  constexpr uint32_t kEb = NS::D::kElementBits / 8u;
  const unsigned t = threadIdx.x % 128u, w = t / 32u, l = t % 32u;
#pragma unroll
  for (unsigned i = 0; i < kSlices; ++i) {
#pragma unroll
    for (unsigned a = 0; a < kAcc; ++a) {
      const unsigned q = a / 4u, h = (a / 2u) % 2u, e = a % 2u;
      const unsigned row = kWg * P::kRowsPerWarpgroup + i * 64u + w * 16u + l / 4u + 8u * h;
      const unsigned col = 8u * q + 2u * (l % 4u) + e;
      const unsigned slab = col / NS::D::kBoxDim0;
      PutD(smem + P::kSmemD + P::EpilogueCopy(slab).smem_offset + SwizzledD(row, (col % NS::D::kBoxDim0) * kEb),
           acc[i][a]);
    }
  }
}
template <unsigned kWg>
__device__ __forceinline__ void DispatchConsumer(unsigned wg, uint8_t* smem, uint32_t base, uint32_t rank, Diag* diag) {
  if constexpr (kWg < kConsumers) {
    if (wg == kWg)
      Consumer<kWg>(smem, base, rank, diag);
    else
      DispatchConsumer<kWg + 1>(wg, smem, base, rank, diag);
  }
}

__global__ void __launch_bounds__(kThreads, 1) PlanProofKernel(const __grid_constant__ Maps maps, Diag* diag) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // The plan's offsets are from a base aligned to kSmemBaseAlignment; the host adds the slack when it fits.
  const uint32_t raw = SmemU32(smem_raw);
  const uint32_t base = (raw + P::kSmemBaseAlignment - 1u) & ~(P::kSmemBaseAlignment - 1u);
  uint8_t* const smem = smem_raw + (base - raw);
  if constexpr (P::kSmemBytes + P::kSmemBaseAlignment > 232448u) {
    if (base != raw) {  // no room for the slack: the window itself must be aligned
      if (threadIdx.x == 0) diag->misaligned_smem = 1;
      return;
    }
  }
  const uint32_t rank = ClusterRank();
  const unsigned wg = threadIdx.x / 128u;
  const unsigned long long tile_m = blockIdx.x, tile_n = blockIdx.y;
  const unsigned long long m0 = tile_m * P::kBM, n0 = tile_n * P::kBN;

  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < P::kStages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(base + P::FullBarrier(s)), "r"(P::FullArrivals(rank)));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(base + P::EmptyBarrier(s)), "r"(P::EmptyArrivals(rank)));
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  ClusterSync();  // every CTA's barriers exist before any copy or arrival can reach them

  if (wg == kConsumers) {
    // ---- producer
    if (threadIdx.x == kConsumers * 128u) {
#if PROOF_CONV
      // Tile origin in im2col terms: output pixel m0 = (n x P + p) x Q + q.
      const unsigned long long pq = NS::conv::kOutP * NS::conv::kOutQ;
      const int img = static_cast<int>(m0 / pq);
      const int op = static_cast<int>((m0 % pq) / NS::conv::kOutQ), oq = static_cast<int>(m0 % NS::conv::kOutQ);
      const int base_w = oq * static_cast<int>(NS::conv::kStrideW) - static_cast<int>(NS::conv::kPadW);
      const int base_h = op * static_cast<int>(NS::conv::kStrideH) - static_cast<int>(NS::conv::kPadH);
#endif
      for (unsigned long long j = 0; j < P::kKTiles; ++j) {
        const unsigned s = static_cast<unsigned>(j % P::kStages);
        const uint32_t parity = static_cast<uint32_t>((j / P::kStages) & 1ull);
        if (!Wait(base + P::EmptyBarrier(s), parity ^ 1u, diag, 0, s, j)) break;  // hung: stop arriving
        const uint32_t full = base + P::FullBarrier(s);
        ArriveExpectTx(full, P::ExpectTx(rank) + PROOF_EXPECT_TX_DELTA);
#if PROOF_CONV
        const unsigned tap = static_cast<unsigned>(j / NS::conv::kChannelBlocks);
        const int c0 = static_cast<int>((j % NS::conv::kChannelBlocks) * P::kBK);
#else
        const int k0 = static_cast<int>(j * P::kBK);
#endif
        for (unsigned i = 0; i < P::NumCopies(rank); ++i) {
          const P::Copy c = P::CopyOf(rank, i);
          const CUtensorMap* map = &maps.m[c.map];
          const bool is_a = P::MapOperand(c.map) == 'A';
          const uint32_t dst = base + (is_a ? P::SmemA(s) : P::SmemB(s)) + c.smem_offset;
          const uint16_t mask = static_cast<uint16_t>(c.mask);
#if PROOF_CONV
          if (is_a) {
            LoadIm2col4d(map, dst, full, c0 + static_cast<int>(c.coord0), base_w, base_h, img,
                         NS::conv::TapOffset(tap, 0), NS::conv::TapOffset(tap, 1));
          } else {
            Load4d(map, dst, full, c0 + static_cast<int>(c.coord0), NS::conv::TapFilter(tap, 0), NS::conv::TapFilter(tap, 1),
                   static_cast<int>(n0 + c.coord1), mask);
          }
#else
          // K-major (no transpose): coord0 runs along K and coord1 along M (N); MN-major the other way round.
          const bool trans = is_a ? P::kTransA : P::kTransB;
          const int mn = static_cast<int>((is_a ? m0 : n0) + (trans ? c.coord0 : c.coord1));
          const int kk = k0 + static_cast<int>(trans ? c.coord1 : c.coord0);
          if (trans)
            Load2d(map, dst, full, mn, kk, mask);
          else
            Load2d(map, dst, full, kk, mn, mask);
#endif
        }
      }
    }
  } else {
    // ---- consumers (the warpgroup index as a template argument: every descriptor index is then a constant and
    // DescA/DescB fold to arithmetic on the stage instead of a table in local memory)
    DispatchConsumer<0>(wg, smem, base, rank, diag);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the stores read what the threads wrote
    NamedBarrier(8u, kConsumers * 128u);
    // After a hang the kernel only leaves: no store, and no barrier whose phase never completed is arrived on
    // again (more arrivals than the count are undefined; going on after the timeout ended in a launch failure).
    if (threadIdx.x == 0 && *reinterpret_cast<volatile int*>(&diag->abort) == 0) {
      for (unsigned i = 0; i < P::kNumEpilogueCopies; ++i) {
        const P::Copy c = P::EpilogueCopy(i);
        Store2d(&maps.m[c.map], base + P::kSmemD + c.smem_offset, static_cast<int>(n0 + c.coord0), static_cast<int>(m0 + c.coord1));
      }
      asm volatile("cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;" ::: "memory");
    }
  }
  __syncwarp();
  ClusterSync();  // no CTA leaves while a peer may still write into it or arrive on its barriers
}

// ---- reference: plain f32 from the same values
#if PROOF_CONV
// out[(n, p, q), k] = sum over r, s, c of in[n, p sh - ph + r dh, q sw - pw + s dw, c] x f[k, r, s, c] (zero outside).
__global__ void ReferenceKernel(const float* in, const float* f, float* out, float* abs_out) {
  using namespace NS::conv;
  const unsigned long long npq = kBatch * kOutP * kOutQ;
  const unsigned long long idx = blockIdx.x * 1ull * blockDim.x + threadIdx.x;
  if (idx >= npq * kFilters) return;
  const unsigned long long k = idx % kFilters, m = idx / kFilters;
  const long long n = static_cast<long long>(m / (kOutP * kOutQ));
  const long long p = static_cast<long long>((m / kOutQ) % kOutP), q = static_cast<long long>(m % kOutQ);
  float sum = 0.0f, abs_sum = 0.0f;
  for (unsigned r = 0; r < kFilterR; ++r)
    for (unsigned s = 0; s < kFilterS; ++s) {
      const long long h = p * kStrideH - kPadH + r * kDilationH, w = q * kStrideW - kPadW + s * kDilationW;
      if (h < 0 || w < 0 || h >= static_cast<long long>(kInH) || w >= static_cast<long long>(kInW)) continue;
      const float* x = in + ((n * kInH + h) * kInW + w) * kChannels;
      const float* y = f + ((k * kFilterR + r) * kFilterS + s) * kChannels;
      for (unsigned long long c = 0; c < kChannels; ++c) {
        sum += x[c] * y[c];
        abs_sum += fabsf(x[c] * y[c]);
      }
    }
  out[idx] = sum;
  abs_out[idx] = abs_sum;
}
#else
// D[m][n] = sum over k of A[m][k] x B[n][k] (both given logically, K contiguous), 16 x 16 tiles in shared memory.
__global__ void ReferenceKernel(const float* a, const float* b, float* out, float* abs_out) {
  __shared__ float ta[16][17], tb[16][17];
  const unsigned long long m = blockIdx.y * 16ull + threadIdx.y, n = blockIdx.x * 16ull + threadIdx.x;
  float sum = 0.0f, abs_sum = 0.0f;
  for (unsigned long long k0 = 0; k0 < P::kK; k0 += 16) {
    const unsigned long long am = blockIdx.y * 16ull + threadIdx.y, ak = k0 + threadIdx.x;
    const unsigned long long bn = blockIdx.x * 16ull + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = (am < P::kM && ak < P::kK) ? a[am * P::kK + ak] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = (bn < P::kN && ak < P::kK) ? b[bn * P::kK + ak] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) {
      const float x = ta[threadIdx.y][kk] * tb[threadIdx.x][kk];
      sum += x;
      abs_sum += fabsf(x);
    }
    __syncthreads();
  }
  if (m < P::kM && n < P::kN) {
    out[m * P::kN + n] = sum;
    abs_out[m * P::kN + n] = abs_sum;
  }
}
#endif

// ---- host
#define CHECK_CUDA(x)                                                                      \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("FAIL: %s: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

using InElem = Op::Elem;

// Host conversion to the input type and back (the value set is exact in every input type).
InElem ToIn(float v) { return InElem(v); }
float FromD(const uint8_t* p) {
  if constexpr (NS::D::kDataType == 9u) {
    __nv_bfloat16 x;
    std::memcpy(&x, p, 2);
    return __bfloat162float(x);
  } else if constexpr (NS::D::kDataType == 6u) {
    __half x;
    std::memcpy(&x, p, 2);
    return __half2float(x);
  } else {
    float x;
    std::memcpy(&x, p, 4);
    return x;
  }
}
// Unit roundoff of D's type (round to nearest): bf16 8 significant bits, f16 11, f32 24.
constexpr double OutputRoundoff() {
  return NS::D::kDataType == 9u ? 1.0 / 256 : NS::D::kDataType == 6u ? 1.0 / 2048 : 1.0 / 16777216;
}

uint64_t rng = 0x9E3779B97F4A7C15ull;
// A multiple of 1/2 in [-2, 2]: exact in bf16, f16, e4m3 and e5m2; products are multiples of 1/4.
float SmallValue() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return static_cast<float>(static_cast<int>(rng % 9u) - 4) * 0.5f;
}

size_t MapBytesSpan(const unsigned long long* dims, const unsigned long long* strides, unsigned rank, unsigned elem_bits) {
  // The last dimension's stride times its extent (dense dimension 0 when rank is 1).
  (void)elem_bits;
  return static_cast<size_t>(strides[rank - 2] * dims[rank - 1]);
}

}  // namespace

int main(int argc, char** argv) {
  int bench = 0;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--bench") == 0 && i + 1 < argc) bench = std::atoi(argv[++i]);
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaFree(nullptr));
  std::printf("plan: %s, M %llu N %llu K %llu, tile %ux%ux%u, cluster %ux%u, %u stages, %u B smem, %u consumer warpgroup(s)\n",
              P::kMmaInstruction, P::kM, P::kN, P::kK, P::kBM, P::kBN, P::kBK, P::kClusterM, P::kClusterN, P::kStages,
              P::kSmemBytes, P::kConsumerWarpgroups);
  std::printf("maps:");
  for (unsigned i = 0; i < P::kNumMaps; ++i) std::printf(" %c", P::kMapOperand[i]);
  std::printf(" (operand of each map id)\n");

  // Operand buffers as the maps describe them (strides from the maps), logical f32 copies for the reference.
  const size_t a_bytes = MapBytesSpan(NS::A::kGlobalDim, NS::A::kGlobalStrides, NS::A::kRank, NS::A::kElementBits);
  const size_t b_bytes = MapBytesSpan(NS::B::kGlobalDim, NS::B::kGlobalStrides, NS::B::kRank, NS::B::kElementBits);
  const size_t d_bytes = MapBytesSpan(NS::D::kGlobalDim, NS::D::kGlobalStrides, NS::D::kRank, NS::D::kElementBits);
  std::vector<InElem> a_h(a_bytes / sizeof(InElem), ToIn(0.0f)), b_h(b_bytes / sizeof(InElem), ToIn(0.0f));
#if PROOF_CONV
  using namespace NS::conv;
  static_assert(sizeof(InElem) * 8u == NS::A::kElementBits, "element size");
  const size_t in_n = kBatch * kInH * kInW * kChannels, f_n = kFilters * kFilterR * kFilterS * kChannels;
  std::vector<float> a_f(in_n), b_f(f_n);
  // Dense NHWC and KRSC: the maps' strides must say the same.
  static_assert(NS::A::kGlobalStrides[0] == kChannels * sizeof(InElem) && NS::A::kGlobalDim[1] == kInW, "NHWC");
  static_assert(NS::B::kGlobalStrides[0] == kChannels * sizeof(InElem) && NS::B::kGlobalDim[1] == kFilterS, "KRSC");
  for (size_t i = 0; i < in_n; ++i) { a_f[i] = SmallValue(); a_h[i] = ToIn(a_f[i]); }
  for (size_t i = 0; i < f_n; ++i) { b_f[i] = SmallValue(); b_h[i] = ToIn(b_f[i]); }
  const unsigned long long out_m = kBatch * kOutP * kOutQ, out_n = kFilters;
  const unsigned long long reduction = kChannels * kFilterR * kFilterS;
  std::printf("conv: N %llu C %llu K %llu, input %llux%llu, filter %ux%u, pad %u,%u stride %u,%u dilation %u,%u -> output %llux%llu\n",
              kBatch, kChannels, kFilters, kInH, kInW, kFilterR, kFilterS, kPadH, kPadW, kStrideH, kStrideW, kDilationH,
              kDilationW, kOutP, kOutQ);
#else
  const unsigned long long out_m = P::kM, out_n = P::kN, reduction = P::kK;
  std::vector<float> a_f(P::kM * P::kK), b_f(P::kN * P::kK);
  // A is M x K, B is N x K; K-major (no transpose): element (x, k) at x * ld + k; MN-major: at k * ld + x.
  const size_t lda = NS::A::kGlobalStrides[0] / sizeof(InElem), ldb = NS::B::kGlobalStrides[0] / sizeof(InElem);
  for (unsigned long long m = 0; m < P::kM; ++m)
    for (unsigned long long k = 0; k < P::kK; ++k) {
      const float v = SmallValue();
      a_f[m * P::kK + k] = v;
      a_h[P::kTransA ? k * lda + m : m * lda + k] = ToIn(v);
    }
  for (unsigned long long n = 0; n < P::kN; ++n)
    for (unsigned long long k = 0; k < P::kK; ++k) {
      const float v = SmallValue();
      b_f[n * P::kK + k] = v;
      b_h[P::kTransB ? k * ldb + n : n * ldb + k] = ToIn(v);
    }
#endif
  static_assert(NS::D::kGlobalDim[0] >= 1u, "D");
  const size_t ldd = NS::D::kGlobalStrides[0];
  if (NS::D::kGlobalDim[0] != out_n || NS::D::kGlobalDim[1] != out_m) {
    std::printf("FAIL: the D map is %llu x %llu, the product %llu x %llu (row-major D expected)\n", NS::D::kGlobalDim[1],
                NS::D::kGlobalDim[0], out_m, out_n);
    return 1;
  }
  constexpr size_t kGuard = 65536;  // after D: a TMA store that writes past the tensor would change it
  void *a_d, *b_d, *d_d;
  float *af_d, *bf_d, *ref_d, *abs_d;
  Diag* diag_d;
  CHECK_CUDA(cudaMalloc(&a_d, a_bytes));
  CHECK_CUDA(cudaMalloc(&b_d, b_bytes));
  CHECK_CUDA(cudaMalloc(&d_d, d_bytes + kGuard));
  CHECK_CUDA(cudaMalloc(&af_d, a_f.size() * 4));
  CHECK_CUDA(cudaMalloc(&bf_d, b_f.size() * 4));
  CHECK_CUDA(cudaMalloc(&ref_d, out_m * out_n * 4));
  CHECK_CUDA(cudaMalloc(&abs_d, out_m * out_n * 4));
  CHECK_CUDA(cudaMalloc(&diag_d, sizeof(Diag)));
  CHECK_CUDA(cudaMemcpy(a_d, a_h.data(), a_bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b_d, b_h.data(), b_bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(af_d, a_f.data(), a_f.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(bf_d, b_f.data(), b_f.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_d, 0xFF, d_bytes + kGuard));  // NaN in bf16, f16 and f32: an element never stored shows
  CHECK_CUDA(cudaMemset(diag_d, 0, sizeof(Diag)));

  // Every map through the header's encoder; the offline bytes (PatchedMap) must be the driver's.
  Maps maps;
  int maps_same = 0;
  for (unsigned id = 0; id < P::kNumMaps; ++id) {
    const char op = P::kMapOperand[id];
    void* g = op == 'A' ? a_d : op == 'B' ? b_d : d_d;
    CUresult r = P::EncodeMap(id, &maps.m[id], g);
    if (r != CUDA_SUCCESS) {
      std::printf("FAIL: EncodeMap(%u) = %d\n", id, static_cast<int>(r));
      return 1;
    }
    CUtensorMap patched;
    r = P::PatchedMapById(id, &patched, g);
    if (r == CUDA_SUCCESS && std::memcmp(&patched, &maps.m[id], sizeof(CUtensorMap)) == 0) ++maps_same;
  }
  std::printf("maps: %d of %u offline maps (kMap + cuTensorMapReplaceAddress) equal the driver's encoding\n", maps_same,
              P::kNumMaps);

  // Launch: one CTA per tile, the grid rounded up to whole clusters (the CTAs past the tiles load zeros and store
  // nothing; they stay in the pipeline because their peers multicast into them).
  size_t smem = P::kSmemBytes;
  if (smem + P::kSmemBaseAlignment <= 232448u) smem += P::kSmemBaseAlignment;
  CHECK_CUDA(cudaFuncSetAttribute(PlanProofKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  if (P::kClusterSize > 8u) CHECK_CUDA(cudaFuncSetAttribute(PlanProofKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>((P::kTilesM + P::kClusterM - 1) / P::kClusterM * P::kClusterM),
                     static_cast<unsigned>((P::kTilesN + P::kClusterN - 1) / P::kClusterN * P::kClusterN), 1);
  cfg.blockDim = dim3(kThreads, 1, 1);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = P::kClusterM;
  attr[0].val.clusterDim.y = P::kClusterN;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  std::printf("launch: grid %u x %u, %u threads, %zu B dynamic shared memory\n", cfg.gridDim.x, cfg.gridDim.y, kThreads, smem);
  CHECK_CUDA(cudaLaunchKernelEx(&cfg, PlanProofKernel, maps, diag_d));
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  Diag diag;
  CHECK_CUDA(cudaMemcpy(&diag, diag_d, sizeof(Diag), cudaMemcpyDeviceToHost));
  if (diag.misaligned_smem) std::printf("FAIL: the dynamic shared memory is not aligned to kSmemBaseAlignment\n");
  if (diag.abort) {
    std::printf("FAIL: HANG: CTA (%d, %d) rank %d: the %s waited 4 s on stage %d parity %d at K tile %d\n", diag.block_x,
                diag.block_y, diag.rank, diag.role == 0 ? "producer (empty barrier)" : "consumer (full barrier)", diag.stage,
                diag.parity, diag.k_tile);
  }

#if PROOF_CONV
  const unsigned long long ref_n = out_m * out_n;
  ReferenceKernel<<<static_cast<unsigned>((ref_n + 255) / 256), 256>>>(af_d, bf_d, ref_d, abs_d);
#else
  ReferenceKernel<<<dim3(static_cast<unsigned>((P::kN + 15) / 16), static_cast<unsigned>((P::kM + 15) / 16)), dim3(16, 16)>>>(
      af_d, bf_d, ref_d, abs_d);
#endif
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint8_t> d_h(d_bytes + kGuard);
  std::vector<float> ref_h(out_m * out_n), abs_h(out_m * out_n);
  CHECK_CUDA(cudaMemcpy(d_h.data(), d_d, d_bytes + kGuard, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(ref_h.data(), ref_d, ref_h.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(abs_h.data(), abs_d, abs_h.size() * 4, cudaMemcpyDeviceToHost));

  // Tolerance: D's rounding (half an ulp: u |ref|) plus, for 8-bit inputs, the tensor cores' reduced-precision
  // accumulation of fp8 products (2^-13 of the sum of |products|: Hopper adds fp8 products with about 14 bits after
  // aligning them, DeepSeek-V3 technical report section 3.5.2); bf16/f16 products and sums here are exact in f32.
  const bool fp8 = sizeof(InElem) == 1;
  const double u = OutputRoundoff(), acc_rel = fp8 ? 1.0 / 8192 : 0.0;
  unsigned long long bad = 0, exact = 0, nan = 0;
  double max_err = 0, max_ratio = 0;
  for (unsigned long long m = 0; m < out_m; ++m)
    for (unsigned long long n = 0; n < out_n; ++n) {
      const float got = FromD(d_h.data() + m * ldd + n * (NS::D::kElementBits / 8u));
      const double want = ref_h[m * out_n + n];
      const double err = std::fabs(static_cast<double>(got) - want);
      const double tol = u * std::fabs(want) + acc_rel * abs_h[m * out_n + n];
      if (std::isnan(got)) ++nan;
      if (got == static_cast<float>(want)) ++exact;
      if (!(err <= tol)) {
        if (bad < 8)
          std::printf("  mismatch D[%llu][%llu] = %.6g, reference %.6g (tolerance %.3g)\n", m, n, static_cast<double>(got),
                      want, tol);
        ++bad;
      }
      if (err > max_err) max_err = err;
      if (tol > 0 && err / tol > max_ratio) max_ratio = err / tol;
    }
  size_t guard_changed = 0;
  for (size_t i = d_bytes; i < d_bytes + kGuard; ++i) guard_changed += d_h[i] != 0xFF;
  const bool ok = bad == 0 && guard_changed == 0 && !diag.abort && !diag.misaligned_smem;
  std::printf("compare: %llu x %llu elements (reduction %llu): %llu outside the tolerance (%llu never written), %llu equal "
              "the f32 reference after rounding, max |err| %.3g (%.3f of its tolerance); guard bytes changed: %zu\n",
              out_m, out_n, reduction, bad, nan, exact, max_err, max_ratio, guard_changed);

  if (ok && bench > 0) {
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    for (int i = 0; i < 3; ++i) CHECK_CUDA(cudaLaunchKernelEx(&cfg, PlanProofKernel, maps, diag_d));
    CHECK_CUDA(cudaEventRecord(e0));
    for (int i = 0; i < bench; ++i) CHECK_CUDA(cudaLaunchKernelEx(&cfg, PlanProofKernel, maps, diag_d));
    CHECK_CUDA(cudaEventRecord(e1));
    CHECK_CUDA(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    const double s = ms / 1e3 / bench;
    std::printf("bench: %.3f ms per launch, %.1f TFLOP/s (2 x %llu x %llu x %llu)\n", s * 1e3,
                2.0 * out_m * out_n * reduction / s / 1e12, out_m, out_n, reduction);
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
