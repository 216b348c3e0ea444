// mcast_check.cuh: the multicast kernels of tmapgen (sm_90a and sm_100a images).
//
//   tmapgen_mcast_check  `tmapgen check --multicast` / `--plan gemm`: per round, every CTA of one cluster issues
//                        its planned loads (.multicast::cluster with a ctaMask, or into itself), arms its own
//                        barrier with the planned transaction count, waits with a clock64 bound (a wrong count is
//                        kTmaStatusTimeout, never a hang) and copies its shared-memory window out; the host
//                        compares every receiving CTA's window with the copy model (src/gpu/check/mcast_check.h).
//   tmapgen_mcast_bandwidth
//                        `tmapgen bench --multicast C`: boxes delivered to every CTA of a cluster, by multicast
//                        slices or by each CTA loading every box itself (src/gpu/bandwidth/mcast_bandwidth.h).
//
// PTX ISA 9.7.9.25.5.2 (cp.async.bulk.tensor): with .multicast::cluster the data and the mbarrier signal land at
// the same CTA-relative offsets as dstMem and mbar in every CTA of ctaMask, so every CTA's window starts at the
// same 1024-aligned offset of its dynamic shared memory and every CTA's round-j barrier is at the same offset. A
// peer's complete_tx may reach a barrier before its own CTA armed it: the phase cannot complete while the CTA's
// own arrival is pending (PTX ISA 9.7.13.15: phase completion needs the pending arrival count and the tx-count
// to reach zero), which is how CUTLASS's multicast pipelines work too.
#pragma once
#include <cuda.h>
#include <stdint.h>

#include "check_params.h"
#include "mcast_params.h"

namespace mcast {

__device__ __forceinline__ uint32_t Smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ uint32_t ClusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t ClusterSize() {
  uint32_t n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  return n;
}
// Every thread of every CTA of the cluster (release / acquire: shared-memory writes before it are visible to the
// cluster after it).
__device__ __forceinline__ void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Bounded wait on phase `parity`; false after `budget` clock64 cycles.
__device__ __forceinline__ bool WaitParity(uint32_t mbar, uint32_t parity, int64_t budget) {
  const long long t0 = clock64();
  uint32_t done = 0;
  while (true) {
    asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2; selp.u32 %0, 1, 0, P; }"
                 : "=r"(done)
                 : "r"(mbar), "r"(parity)
                 : "memory");
    if (done) return true;
    if (clock64() - t0 > budget) return false;
  }
}

// %0 dst, %1 map, %2..%6 coords, %7 mbar, %8 ctaMask.
#define MC_C1 "{%2}"
#define MC_C2 "{%2, %3}"
#define MC_C3 "{%2, %3, %4}"
#define MC_C4 "{%2, %3, %4, %5}"
#define MC_C5 "{%2, %3, %4, %5, %6}"
#define MC_OPS                                                                                                      \
  : : "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(mbar), "h"(mask) : "memory"
#define MC_LOAD(D, CO)                                                                                    \
  asm volatile("cp.async.bulk.tensor." #D "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" \
               ".multicast::cluster [%0], [%1, " CO "], [%7], %8;" MC_OPS)
#define UC_LOAD(D, CO)                                                                                    \
  asm volatile("cp.async.bulk.tensor." #D "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" \
               " [%0], [%1, " CO "], [%7];" MC_OPS)

__device__ void IssueLoad(int rank, uint32_t dst, uint64_t map, const int32_t* c, uint32_t mbar, uint16_t mask) {
  if (mask != 0) {
    switch (rank) {
      case 1: MC_LOAD(1, MC_C1); break;
      case 2: MC_LOAD(2, MC_C2); break;
      case 3: MC_LOAD(3, MC_C3); break;
      case 4: MC_LOAD(4, MC_C4); break;
      case 5: MC_LOAD(5, MC_C5); break;
    }
  } else {
    switch (rank) {
      case 1: UC_LOAD(1, MC_C1); break;
      case 2: UC_LOAD(2, MC_C2); break;
      case 3: UC_LOAD(3, MC_C3); break;
      case 4: UC_LOAD(4, MC_C4); break;
      case 5: UC_LOAD(5, MC_C5); break;
    }
  }
}

}  // namespace mcast

extern "C" __global__ void __launch_bounds__(128) tmapgen_mcast_check(McastCheckParams p) {
  extern __shared__ __align__(1024) uint8_t mc_raw[];
  __shared__ __align__(8) uint64_t bars[kMcastMaxRounds];
  uint8_t* base = mc_raw + ((1024 - (mcast::Smem(mc_raw) & 1023)) & 1023);
  const uint32_t rank = mcast::ClusterRank(), csize = mcast::ClusterSize();
  const int32_t* begin = reinterpret_cast<const int32_t*>(p.begin);
  const McastCopy* copies = reinterpret_cast<const McastCopy*>(p.copies);
  const uint32_t* expect = reinterpret_cast<const uint32_t*>(p.expect_tx);
  int32_t* status = reinterpret_cast<int32_t*>(p.status);
  const uint8_t* maps = reinterpret_cast<const uint8_t*>(p.maps);
  const int rounds = p.rounds < kMcastMaxRounds ? p.rounds : kMcastMaxRounds;
  if (threadIdx.x == 0) {
    for (int j = 0; j < rounds; ++j)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mcast::Smem(&bars[j])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    // The maps were written by the host (generic proxy); the copies read them through the tensormap proxy.
    for (int j = begin[0]; j < begin[rounds * csize]; ++j) {
      const uint8_t* m = maps + 128 * copies[j].map;
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(m) : "memory");
    }
  }
  for (int j = 0; j < rounds; ++j) {
    for (uint32_t i = threadIdx.x; i < p.window; i += blockDim.x) base[i] = 0xA5;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    mcast::ClusterSync();  // every window filled and every barrier initialised before any copy of round j
    const int slot = j * static_cast<int>(csize) + static_cast<int>(rank);
    if (threadIdx.x == 0) {
      const uint32_t mb = mcast::Smem(&bars[j]);
      const uint32_t tx = expect[slot];
      if (tx != 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(tx) : "memory");
      for (int k = begin[slot]; k < begin[slot + 1]; ++k) {
        const McastCopy& c = copies[k];
        mcast::IssueLoad(c.rank, mcast::Smem(base + c.dst_offset), reinterpret_cast<uint64_t>(maps + 128 * c.map),
                         c.coords, mb, static_cast<uint16_t>(c.mask));
      }
      status[slot] = tx == 0 || mcast::WaitParity(mb, 0, p.timeout_cycles) ? kTmaStatusDone : kTmaStatusTimeout;
    }
    __syncthreads();
    mcast::ClusterSync();  // every CTA's barrier done (or timed out) before any window is read
    uint8_t* out = reinterpret_cast<uint8_t*>(p.out) + static_cast<uint64_t>(slot) * p.window;
    for (uint32_t i = threadIdx.x; i < p.window; i += blockDim.x) out[i] = base[i];
    __syncthreads();
  }
  mcast::ClusterSync();  // no CTA leaves while a peer may still write into it
}

// The ring of tmapgen_mcast_bandwidth (see mcast_params.h). One thread per CTA issues, waits and releases.
extern "C" __global__ void __launch_bounds__(32) tmapgen_mcast_bandwidth(const __grid_constant__ CUtensorMap whole,
                                                                         const __grid_constant__ CUtensorMap slice,
                                                                         McastBandwidthParams p) {
  extern __shared__ __align__(1024) uint8_t mb_raw[];
  __shared__ __align__(8) uint64_t full[8];
  __shared__ __align__(8) uint64_t empty[8];
  uint8_t* base = mb_raw + ((1024 - (mcast::Smem(mb_raw) & 1023)) & 1023);
  const uint32_t rank = mcast::ClusterRank(), csize = mcast::ClusterSize();
  const bool multicast = (p.flags & kMcastBandwidthMulticast) != 0;
  const uint32_t stages = p.stages < 2 ? 2 : (p.stages > 8 ? 8 : p.stages);
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < stages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mcast::Smem(&full[s])) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mcast::Smem(&empty[s])), "r"(multicast ? csize : 1u)
                   : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  mcast::ClusterSync();
  if (threadIdx.x == 0) {
    const uint32_t clusters = gridDim.x / csize, cluster = blockIdx.x / csize;
    const uint32_t total = p.tiles_x * p.tiles_y;
    const uint32_t n = total > cluster ? (total - cluster + clusters - 1) / clusters : 0;
    const uint64_t whole_map = reinterpret_cast<uint64_t>(&whole), slice_map = reinterpret_cast<uint64_t>(&slice);
    const uint32_t slice_rows = p.box_y / csize;
    const uint16_t all = static_cast<uint16_t>((1u << csize) - 1);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; ++i) {
      const uint32_t s = i % stages;
      if (i >= stages) {
        const uint32_t parity = ((i / stages) - 1) & 1;
        // Consume box i - stages, then release stage s in every CTA that writes into it.
        ok = mcast::WaitParity(mcast::Smem(&full[s]), parity, p.timeout_cycles);
        if (!ok) break;
        if (multicast) {
          for (uint32_t q = 0; q < csize; ++q) {
            uint32_t remote;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(mcast::Smem(&empty[s])), "r"(q));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
          }
        } else {
          asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(mcast::Smem(&empty[s])) : "memory");
        }
        ok = mcast::WaitParity(mcast::Smem(&empty[s]), parity, p.timeout_cycles);
        if (!ok) break;
      }
      const uint32_t b = cluster + i * clusters;
      const int32_t x = static_cast<int32_t>((b % p.tiles_x) * p.box_x), y = static_cast<int32_t>((b / p.tiles_x) * p.box_y);
      const uint32_t mbar = mcast::Smem(&full[s]);
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(p.box_bytes) : "memory");
      uint8_t* stage = base + static_cast<uint64_t>(s) * p.stage_stride;
      if (multicast) {
        const int32_t c[5] = {x, y + static_cast<int32_t>(rank * slice_rows), 0, 0, 0};
        mcast::IssueLoad(2, mcast::Smem(stage + rank * p.slice_offset), slice_map, c, mbar, all);
      } else {
        const int32_t c[5] = {x, y, 0, 0, 0};
        mcast::IssueLoad(2, mcast::Smem(stage), whole_map, c, mbar, 0);
      }
    }
    // Drain: the last boxes of the ring.
    const uint32_t first = n > stages ? n - stages : 0;
    for (uint32_t i = first; i < n && ok; ++i)
      ok = mcast::WaitParity(mcast::Smem(&full[i % stages]), (i / stages) & 1, p.timeout_cycles);
    reinterpret_cast<int32_t*>(p.status)[blockIdx.x] = ok ? 0 : kTmaStatusTimeout;
  }
  __syncthreads();
  mcast::ClusterSync();  // no CTA leaves while a peer may still write into it or arrive on its barriers
}
