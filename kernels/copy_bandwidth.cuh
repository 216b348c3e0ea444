// copy_bandwidth.cuh: the bandwidth kernel of `tmapgen bench` (src/gpu/bandwidth/copy_bandwidth.h): a TMA
// load-then-store copy of a 2D tensor through shared memory, with the source and destination maps as const
// __grid_constant__ parameters.
//
// Contract
// - The tensor is a tiles_x x tiles_y grid of groups (row-major; a group is `boxes` boxes adjacent along
//   dimension 0, loaded on one mbarrier and stored together). Block b copies groups b, b + gridDim.x, ...
//   (static order), or (kCopyBandwidthTaken) the groups a grid-wide counter hands out in order (atomicAdd on
//   sched_addr, asked one group ahead; the last block to finish zeroes the counter for the next launch).
//   Both start with the blocks on neighbouring rows; over a long copy the static order lets each block's
//   progress drift from the others', the counter does not. Every box is loaded once and stored once; the
//   host checks the copy byte for byte.
// - Two issue schemes (CopyBandwidthParams::flags): one thread issues loads and stores and refills a stage
//   `lag` stores after it was stored (wait_group.read), or (kCopyBandwidthStoreWarp) lane 0 of warp 0 issues
//   loads and lane 0 of warp 1 issues stores, handing stages back through "empty" mbarriers once the store
//   that read them is `lag` groups old. The block has 32 threads in the first scheme, 64 in the second.
// - Cache hint: kCopyBandwidthLoadEvictLast adds .L2::cache_hint with createpolicy.fractional.L2::evict_last
//   (fraction 1.0) to the loads. (Policies on the stores, and evict_first / evict_normal / evict_unchanged
//   or half-fraction policies on the loads, were measured and helped none of the maps:
//   docs/lab/perf-history.md, section 8.)
// - One way (timing only, `tmapgen bench --one-way`): kCopyBandwidthLoadOnly loads every group and stores
//   none (a stage is loaded again once its last load landed); kCopyBandwidthStoreOnly stores every group from
//   shared memory as it is (no loads), at most stages - 1 store groups (and at most 3) reading shared memory
//   at once. Nothing they move is checked: they tell the load side's cost from the store side's.
// - kCopyBandwidthLinear: the same pipeline without a map: group i is one contiguous piece of the buffers
//   (stage bytes long), loaded by one cp.async.bulk and stored by one (the TMA unit's bulk copy of linear memory), so
//   the bench can tell the cost of the map's boxes from the cost of the path through the TMA unit.
// - Shared memory: `stages` x `boxes` x box_bytes after the dynamic window is rounded up to 1024 bytes
//   (the 128B swizzle repeat); at most kCopyBandwidthMaxStages stages.
//
// What the shapes do on an H200 (measured, docs/lab/perf-history.md section 8): grouping boxes so that one SM asks for
// 256 contiguous bytes of each row, and the evict_last hint on loads, bring the 128B-swizzled maps from
// 87 % to about 93 % of cuMemcpyDtoD in static order, and the counter's order from there to about 100 %
// (the static order's fraction fell with the tensor's size: 95.8 % at 1 GiB, 93 % at 16 GiB); more bytes in
// flight per SM beyond ~128 KiB, L2 prefetches ahead of the loads and column-major or chunked tile orders
// all made it slower.
#pragma once
#include <cuda.h>
#include <stdint.h>

#include "check_params.h"

namespace copy_bandwidth {

__device__ __forceinline__ uint32_t Smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void WaitParity(uint32_t mbar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2; selp.u32 %0, 1, 0, P; }"
                 : "=r"(done)
                 : "r"(mbar), "r"(parity)
                 : "memory");
  } while (!done);
}

// Waits until at most n bulk store groups of this thread still read shared memory (n is an immediate).
__device__ __forceinline__ void WaitRead(uint32_t n) {
  switch (n) {
    case 0: asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); break;
    case 1: asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory"); break;
    case 2: asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory"); break;
    default: asm volatile("cp.async.bulk.wait_group.read 3;" ::: "memory"); break;
  }
}

struct Copier {
  CopyBandwidthParams p;
  uint64_t src, dst;  // generic addresses of the __grid_constant__ maps
  uint8_t* base;      // 1024-aligned start of the stages
  uint64_t* full;
  uint64_t* empty;
  uint64_t load_policy;
  uint32_t total;     // groups of the tensor
  uint32_t taken = 0;      // static order: the groups this block has taken so far
  uint32_t pending = 0;    // kCopyBandwidthTaken: the counter's answer for the next Next(), asked one group ahead

  __device__ unsigned* Counter() const { return reinterpret_cast<unsigned*>(p.sched_addr); }
  // The next group this block copies; total or more when there is none left. Static order: block b takes
  // groups b, b + gridDim.x, ...; kCopyBandwidthTaken: the grid-wide counter hands out groups in order, so that the
  // blocks stay on neighbouring rows however far each one's own progress drifts over a long copy.
  __device__ uint32_t Next() {
    if (p.flags & kCopyBandwidthTaken) {
      const uint32_t t = pending;
      if (t < total) pending = atomicAdd(Counter(), 1u);
      return t;
    }
    const uint64_t t = blockIdx.x + static_cast<uint64_t>(taken++) * gridDim.x;
    return t < total ? static_cast<uint32_t>(t) : total;
  }
  __device__ void Start() {
    if (p.flags & kCopyBandwidthTaken) pending = atomicAdd(Counter(), 1u);
  }
  // Called once per block by the thread that called Next() after its last call: the last block of the launch
  // zeroes the counter and the done count for the next launch (every block has taken its last group by then).
  __device__ void Finish() const {
    if (!(p.flags & kCopyBandwidthTaken)) return;
    if (atomicAdd(Counter() + 1, 1u) == gridDim.x - 1) {
      atomicExch(Counter(), 0u);
      atomicExch(Counter() + 1, 0u);
    }
  }
  __device__ void Origin(uint32_t t, int32_t* x, int32_t* y) const {
    *x = static_cast<int32_t>((t % p.tiles_x) * p.boxes * p.box_x);
    *y = static_cast<int32_t>((t / p.tiles_x) * p.box_y);
  }
  __device__ uint32_t StageAddr(uint32_t s, uint32_t k) const {
    return Smem(base + (s * p.boxes + k) * p.box_bytes);
  }
  // kCopyBandwidthLinear: group t is the contiguous piece at this byte offset of the buffers.
  __device__ uint64_t LinearOffset(uint32_t t) const { return static_cast<uint64_t>(t) * (p.boxes * p.box_bytes); }
  // Loads group t into stage s (one mbarrier, the group's bytes expected).
  __device__ void Load(uint32_t t, uint32_t s) const {
    const uint32_t mb = Smem(&full[s]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(p.boxes * p.box_bytes)
                 : "memory");
    if (p.flags & kCopyBandwidthLinear) {  // one bulk copy of the whole group, no tensor map
      const uint64_t from = p.src_addr + LinearOffset(t);
      if (p.flags & kCopyBandwidthLoadEvictLast)
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
            ::"r"(StageAddr(s, 0)), "l"(from), "r"(p.boxes * p.box_bytes), "r"(mb), "l"(load_policy)
            : "memory");
      else
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(StageAddr(s, 0)), "l"(from), "r"(p.boxes * p.box_bytes), "r"(mb)
                     : "memory");
      return;
    }
    int32_t x, y;
    Origin(t, &x, &y);
    for (uint32_t k = 0; k < p.boxes; ++k) {
      const int32_t xk = x + static_cast<int32_t>(k * p.box_x);
      if (p.flags & kCopyBandwidthLoadEvictLast)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
            " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(StageAddr(s, k)),
            "l"(src), "r"(xk), "r"(y), "r"(mb), "l"(load_policy)
            : "memory");
      else
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            " [%0], [%1, {%2, %3}], [%4];" ::"r"(StageAddr(s, k)),
            "l"(src), "r"(xk), "r"(y), "r"(mb)
            : "memory");
    }
  }
  // Stores stage s to group t's place, as one bulk group.
  __device__ void Store(uint32_t t, uint32_t s) const {
    if (p.flags & kCopyBandwidthLinear) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(p.dst_addr + LinearOffset(t)),
                   "r"(StageAddr(s, 0)), "r"(p.boxes * p.box_bytes)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      return;
    }
    int32_t x, y;
    Origin(t, &x, &y);
    for (uint32_t k = 0; k < p.boxes; ++k) {
      const int32_t xk = x + static_cast<int32_t>(k * p.box_x);
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(dst),
                   "r"(xk), "r"(y), "r"(StageAddr(s, k))
                   : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  }
};

}  // namespace copy_bandwidth

extern "C" __global__ void __launch_bounds__(64) tmapgen_copy_bandwidth(const __grid_constant__ CUtensorMap src,
                                                                    const __grid_constant__ CUtensorMap dst,
                                                                    CopyBandwidthParams p) {
  using namespace copy_bandwidth;
  // Dynamic shared memory. The other kernels of the module declare theirs __align__(1024), which makes every
  // kernel of the module reserve 1024 bytes of static shared memory (ptxas -v: 1024 bytes smem); the base is
  // aligned to 1024 here all the same (the window has 1024 spare bytes).
  extern __shared__ __align__(1024) uint8_t bench_smem[];
  __shared__ __align__(8) uint64_t full[kCopyBandwidthMaxStages];
  __shared__ __align__(8) uint64_t empty[kCopyBandwidthMaxStages];
  __shared__ uint32_t group_of[kCopyBandwidthMaxStages];  // the group each stage holds (written before its load)
  const uint32_t stages = p.stages < kCopyBandwidthMaxStages ? p.stages : kCopyBandwidthMaxStages;
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < stages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(Smem(&full[s])) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(Smem(&empty[s])) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  Copier c{p, reinterpret_cast<uint64_t>(&src), reinterpret_cast<uint64_t>(&dst),
           bench_smem + ((1024 - (Smem(bench_smem) & 1023)) & 1023), full, empty, 0, p.tiles_x * p.tiles_y};
  if (p.flags & kCopyBandwidthLoadEvictLast)
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(c.load_policy));
  const uint32_t total = c.total;
  const uint32_t lag = p.lag < stages ? p.lag : stages - 1;  // the host keeps 1 <= lag < stages
  // Thread 0 takes the groups (Next) in every scheme and calls Finish after its last one.
  if (threadIdx.x == 0) c.Start();
  if (p.flags & kCopyBandwidthLoadOnly) {  // one thread: every group loaded, none stored; a stage is reused once full
    if (threadIdx.x != 0) return;
    uint32_t issued = 0;
    for (; issued < stages; ++issued) {
      const uint32_t t = c.Next();
      if (t >= total) break;
      c.Load(t, issued);
    }
    bool more = issued == stages;
    for (uint32_t i = 0; i < issued; ++i) {  // group i sits in stage i % stages; group i + stages refills it
      const uint32_t s = i % stages;
      WaitParity(Smem(&full[s]), (i / stages) & 1);
      if (!more) continue;
      const uint32_t t = c.Next();
      if (t >= total) {
        more = false;
      } else {
        c.Load(t, s);
        ++issued;
      }
    }
    c.Finish();
    return;
  }
  if (p.flags & kCopyBandwidthStoreOnly) {  // one thread: every group stored from shared memory as it is, none loaded
    if (threadIdx.x != 0) return;
    for (uint32_t i = 0;; ++i) {
      const uint32_t t = c.Next();
      if (t >= total) break;
      c.Store(t, i % stages);
      WaitRead(stages - 1);  // at most stages - 1 groups (WaitRead: up to 3) still reading shared memory
    }
    c.Finish();
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    return;
  }
  if (!(p.flags & kCopyBandwidthStoreWarp)) {
    if (threadIdx.x != 0) return;
    uint32_t issued = 0;  // groups loaded so far; group g sits in stage g % stages
    for (; issued < stages; ++issued) {
      const uint32_t t = c.Next();
      if (t >= total) break;
      group_of[issued] = t;
      c.Load(t, issued);
    }
    bool more = issued == stages;
    for (uint32_t i = 0; i < issued; ++i) {
      const uint32_t s = i % stages;
      WaitParity(Smem(&full[s]), (i / stages) & 1);
      c.Store(group_of[s], s);
      // Refill the stage stored `lag` groups ago (group i - lag + stages, which is `issued` here) once that
      // store has read shared memory.
      if (more && i >= lag) {
        const uint32_t t = c.Next();
        if (t >= total) {
          more = false;
        } else {
          const uint32_t r = (i - lag) % stages;
          WaitRead(lag);
          group_of[r] = t;
          c.Load(t, r);
          ++issued;
        }
      }
    }
    c.Finish();
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  } else if (threadIdx.x == 0) {
    // The load warp: the group goes to group_of[s] before the load's arrive (release) on full[s]; the end is
    // a group number of `total` with a plain arrive, which the store warp reads after its wait (acquire).
    for (uint32_t i = 0;; ++i) {
      const uint32_t s = i % stages;
      if (i >= stages) WaitParity(Smem(&empty[s]), ((i / stages) - 1) & 1);
      const uint32_t t = c.Next();
      group_of[s] = t < total ? t : total;
      if (t >= total) {
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(Smem(&full[s])) : "memory");
        break;
      }
      c.Load(t, s);
    }
    c.Finish();
  } else if (threadIdx.x == 32) {
    for (uint32_t i = 0;; ++i) {
      const uint32_t s = i % stages;
      WaitParity(Smem(&full[s]), (i / stages) & 1);
      const uint32_t t = group_of[s];
      if (t >= total) break;
      c.Store(t, s);
      if (i >= lag) {
        WaitRead(lag);
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(Smem(&empty[(i - lag) % stages])) : "memory");
      }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// The second partner of `tmapgen bench`: the same bytes copied by the grid's threads with 16-byte loads and
// stores, four independent words per thread in flight (grid-stride), what a copy kernel without TMA gets.
extern "C" __global__ void __launch_bounds__(1024) tmapgen_sm_copy(SmCopyParams p) {
  const uint4* __restrict__ src = reinterpret_cast<const uint4*>(p.src_addr);
  uint4* __restrict__ dst = reinterpret_cast<uint4*>(p.dst_addr);
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  constexpr int kUnroll = 4;
  const bool streaming = p.flags & kSmCopyStreaming;
  for (; i + (kUnroll - 1) * stride < p.count; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = streaming ? __ldcs(src + i + u * stride) : src[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (streaming)
        __stcs(dst + i + u * stride, v[u]);
      else
        dst[i + u * stride] = v[u];
    }
  }
  for (; i < p.count; i += stride) dst[i] = src[i];
}
