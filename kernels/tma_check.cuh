// tma_check.cuh: the on-GPU checks of tmapgen. Built by cmake/kernels.cmake for sm_90a and
// sm_100a into one fatbin that is embedded in the tmapgen binary and loaded through the driver API
// (src/gpu/runtime/gpu_api.h); nothing links against CUDA.
//
// Kernels (extern "C", looked up by name; the bandwidth kernel of `tmapgen bench` is in copy_bandwidth.cuh):
//   tmapgen_tma_check        one copy; the tensor map is a const __grid_constant__ parameter.
//   tmapgen_tma_check_batch  one copy per block; maps and parameters in global memory (the sweeps).
//
// Each check block: fills its shared-memory window (a sentinel before loads, the given bytes before
// stores), issues the copy, and for loads waits on an mbarrier armed with the model's transaction bytes,
// with a clock64 timeout (a wrong count is reported as kTmaStatusTimeout, never a hang), then copies the
// window out for the host to compare byte by byte with src/model. Forms that only sm_100a executes
// (gather4, scatter4, im2col::w, im2col::w::128) are compiled for sm_100a only (ptxas checks them there);
// the sm_90a image answers kTmaStatusUnsupported for them.
//
// Adapted from the model's hand-built probe (tests/model/gpu/tma_probe.cu): same sentinel, same
// 1024-aligned base plus destination offset, same timeout scheme. docs/model.md M2/M4: a dim-0 start that
// is not 16-byte aligned, or an im2col base point outside the bounding box, traps (illegal instruction);
// the host runs checks in a child process so such a fault is a finding, not a crash.
#pragma once
#include <cuda.h>
#include <stdint.h>

#include "check_params.h"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM101_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
#define TMAPGEN_SM100_FORMS 1
#endif

namespace {

constexpr uint8_t kSentinel = 0xA5;

__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Load operands: %0 dst, %1 map, %2..%6 coords, %7 mbar, %8..%10 im2col offsets.
#define LC1 "{%2}"
#define LC2 "{%2, %3}"
#define LC3 "{%2, %3, %4}"
#define LC4 "{%2, %3, %4, %5}"
#define LC5 "{%2, %3, %4, %5, %6}"
#define LOAD_OPS                                                                                        \
  : : "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(mbar), "h"(o[0]), \
      "h"(o[1]), "h"(o[2])                                                                              \
  : "memory"
#define TILE_LOAD(D, DST, CO)                                                                    \
  asm volatile("cp.async.bulk.tensor." #D "d." DST ".global.tile.mbarrier::complete_tx::bytes" \
               " [%0], [%1, " CO "], [%7];" LOAD_OPS)
#define IM2COL_LOAD(D, DST, CO, OF)                                                                \
  asm volatile("cp.async.bulk.tensor." #D "d." DST ".global.im2col.mbarrier::complete_tx::bytes" \
               " [%0], [%1, " CO "], [%7], " OF ";" LOAD_OPS)

__device__ void IssueTileLoad(int rank, bool cluster, uint32_t dst, uint64_t m, const int32_t* c, uint32_t mbar) {
  const uint16_t o[3] = {0, 0, 0};
  if (cluster) {
    switch (rank) {
      case 1: TILE_LOAD(1, "shared::cluster", LC1); break;
      case 2: TILE_LOAD(2, "shared::cluster", LC2); break;
      case 3: TILE_LOAD(3, "shared::cluster", LC3); break;
      case 4: TILE_LOAD(4, "shared::cluster", LC4); break;
      case 5: TILE_LOAD(5, "shared::cluster", LC5); break;
    }
  } else {
    switch (rank) {
      case 1: TILE_LOAD(1, "shared::cta", LC1); break;
      case 2: TILE_LOAD(2, "shared::cta", LC2); break;
      case 3: TILE_LOAD(3, "shared::cta", LC3); break;
      case 4: TILE_LOAD(4, "shared::cta", LC4); break;
      case 5: TILE_LOAD(5, "shared::cta", LC5); break;
    }
  }
}

__device__ void IssueIm2colLoad(int rank, bool cluster, uint32_t dst, uint64_t m, const int32_t* c, uint32_t mbar,
                                const uint16_t* o) {
  if (cluster) {
    switch (rank) {
      case 3: IM2COL_LOAD(3, "shared::cluster", LC3, "{%8}"); break;
      case 4: IM2COL_LOAD(4, "shared::cluster", LC4, "{%8, %9}"); break;
      case 5: IM2COL_LOAD(5, "shared::cluster", LC5, "{%8, %9, %10}"); break;
    }
  } else {
    switch (rank) {
      case 3: IM2COL_LOAD(3, "shared::cta", LC3, "{%8}"); break;
      case 4: IM2COL_LOAD(4, "shared::cta", LC4, "{%8, %9}"); break;
      case 5: IM2COL_LOAD(5, "shared::cta", LC5, "{%8, %9, %10}"); break;
    }
  }
}

#define PREFETCH(D, CO)                                                                            \
  asm volatile("cp.async.bulk.prefetch.tensor." #D "d.L2.global.tile [%0, " CO "];" ::"l"(m), \
               "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])                             \
               : "memory")
#define SC1 "{%1}"
#define SC2 "{%1, %2}"
#define SC3 "{%1, %2, %3}"
#define SC4 "{%1, %2, %3, %4}"
#define SC5 "{%1, %2, %3, %4, %5}"

__device__ void IssuePrefetch(int rank, uint64_t m, const int32_t* c) {
  switch (rank) {
    case 1: PREFETCH(1, SC1); break;
    case 2: PREFETCH(2, SC2); break;
    case 3: PREFETCH(3, SC3); break;
    case 4: PREFETCH(4, SC4); break;
    case 5: PREFETCH(5, SC5); break;
  }
}

// Store operands: %0 map, %1..%5 coords, %6 src.
#define STORE_OPS \
  ::"l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory"
#define STORE(D, MODE, CO) \
  asm volatile("cp.async.bulk.tensor." #D "d.global.shared::cta." MODE ".bulk_group [%0, " CO "], [%6];" STORE_OPS)
#define RED(D, OP, MODE, CO)                                                                                \
  asm volatile("cp.reduce.async.bulk.tensor." #D "d.global.shared::cta." OP "." MODE ".bulk_group [%0, " CO \
               "], [%6];" STORE_OPS)

#define RED_TILE_RANKS(OP)                   \
  switch (rank) {                            \
    case 1: RED(1, OP, "tile", SC1); break;  \
    case 2: RED(2, OP, "tile", SC2); break;  \
    case 3: RED(3, OP, "tile", SC3); break;  \
    case 4: RED(4, OP, "tile", SC4); break;  \
    case 5: RED(5, OP, "tile", SC5); break;  \
  }
#define RED_I2C_RANKS(OP)                              \
  switch (rank) {                                      \
    case 3: RED(3, OP, "im2col_no_offs", SC3); break;  \
    case 4: RED(4, OP, "im2col_no_offs", SC4); break;  \
    case 5: RED(5, OP, "im2col_no_offs", SC5); break;  \
  }
#define RED_OPS(RANKS)           \
  switch (op) {                  \
    case 0: RANKS("add"); break; \
    case 1: RANKS("min"); break; \
    case 2: RANKS("max"); break; \
    case 3: RANKS("inc"); break; \
    case 4: RANKS("dec"); break; \
    case 5: RANKS("and"); break; \
    case 6: RANKS("or"); break;  \
    case 7: RANKS("xor"); break; \
  }

// Returns false when the form is not available on this architecture.
__device__ bool IssueStore(int kind, int rank, int op, uint64_t m, const int32_t* c, const int32_t* rows,
                           uint32_t src) {
  switch (kind) {
    case kTmaKindTileStore:
      switch (rank) {
        case 1: STORE(1, "tile", SC1); break;
        case 2: STORE(2, "tile", SC2); break;
        case 3: STORE(3, "tile", SC3); break;
        case 4: STORE(4, "tile", SC4); break;
        case 5: STORE(5, "tile", SC5); break;
      }
      break;
    case kTmaKindIm2colNoOffsStore:
      switch (rank) {
        case 3: STORE(3, "im2col_no_offs", SC3); break;
        case 4: STORE(4, "im2col_no_offs", SC4); break;
        case 5: STORE(5, "im2col_no_offs", SC5); break;
      }
      break;
    case kTmaKindTileReduce: RED_OPS(RED_TILE_RANKS) break;
    case kTmaKindIm2colNoOffsReduce: RED_OPS(RED_I2C_RANKS) break;
    case kTmaKindScatter4Store:
#ifdef TMAPGEN_SM100_FORMS
      asm volatile(
          "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" ::"l"(m),
          "r"(c[0]), "r"(rows[0]), "r"(rows[1]), "r"(rows[2]), "r"(rows[3]), "r"(src)
          : "memory");
      break;
#else
      (void)rows;
      return false;
#endif
    default: return false;
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  return true;
}

// sm_100a loads: gather4, im2col::w, im2col::w::128. Returns false where not compiled.
__device__ bool IssueSm100Load(int kind, int rank, uint32_t dst, uint64_t m, const int32_t* c, const int32_t* rows,
                               uint32_t mbar, uint16_t w_halo, uint16_t w_offset) {
#ifdef TMAPGEN_SM100_FORMS
  if (kind == kTmaKindGather4Load) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst),
        "l"(m), "r"(c[0]), "r"(rows[0]), "r"(rows[1]), "r"(rows[2]), "r"(rows[3]), "r"(mbar)
        : "memory");
    return true;
  }
  const uint16_t o[3] = {w_halo, w_offset, 0};
#define W_LOAD(D, MODE, CO)                                                                    \
  asm volatile("cp.async.bulk.tensor." #D "d.shared::cluster.global." MODE                      \
               ".mbarrier::complete_tx::bytes [%0], [%1, " CO "], [%7], {%8, %9};" LOAD_OPS)
  if (kind == kTmaKindIm2colWLoad) {
    switch (rank) {
      case 3: W_LOAD(3, "im2col::w", LC3); break;
      case 4: W_LOAD(4, "im2col::w", LC4); break;
      case 5: W_LOAD(5, "im2col::w", LC5); break;
    }
    return true;
  }
  if (kind == kTmaKindIm2colW128Load) {
    switch (rank) {
      case 3: W_LOAD(3, "im2col::w::128", LC3); break;
      case 4: W_LOAD(4, "im2col::w::128", LC4); break;
      case 5: W_LOAD(5, "im2col::w::128", LC5); break;
    }
    return true;
  }
  return false;
#else
  (void)kind; (void)rank; (void)dst; (void)m; (void)c; (void)rows; (void)mbar; (void)w_halo; (void)w_offset;
  return false;
#endif
}

__device__ bool IsLoadKind(int kind) {
  return kind == kTmaKindTileLoad || kind == kTmaKindIm2colLoad || kind == kTmaKindPrefetchTileLoad ||
         kind == kTmaKindGather4Load || kind == kTmaKindIm2colWLoad || kind == kTmaKindIm2colW128Load;
}

__device__ void RunOne(const CUtensorMap* map, const TmaCheckParams& p, uint8_t* raw, uint64_t* mbar_slot) {
  uint8_t* base = raw + ((1024 - (SmemAddr(raw) & 1023)) & 1023);
  uint8_t* buf = base + p.dst_offset;
  const bool load = IsLoadKind(p.kind);
  const uint8_t* smem_in = reinterpret_cast<const uint8_t*>(p.smem_in);
  uint8_t* out = reinterpret_cast<uint8_t*>(p.out);
  int32_t* status = reinterpret_cast<int32_t*>(p.status);
  for (uint32_t i = threadIdx.x; i < p.footprint; i += blockDim.x) buf[i] = load ? kSentinel : smem_in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint64_t m = reinterpret_cast<uint64_t>(map);
    const int32_t* c = p.coords;
    if (load) {
      const uint32_t mb = SmemAddr(mbar_slot);
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(p.tx_bytes) : "memory");
      bool issued = true;
      const bool cluster = (p.flags & kTmaFlagCluster) != 0;
      switch (p.kind) {
        case kTmaKindTileLoad: IssueTileLoad(p.rank, cluster, SmemAddr(buf), m, c, mb); break;
        case kTmaKindPrefetchTileLoad:
          IssuePrefetch(p.rank, m, c);
          IssueTileLoad(p.rank, cluster, SmemAddr(buf), m, c, mb);
          break;
        case kTmaKindIm2colLoad: IssueIm2colLoad(p.rank, cluster, SmemAddr(buf), m, c, mb, p.offs); break;
        default: issued = IssueSm100Load(p.kind, p.rank, SmemAddr(buf), m, c, p.rows, mb, p.w_halo, p.w_offset);
      }
      if (!issued) {
        *status = kTmaStatusUnsupported;
      } else {
        const long long t0 = clock64();
        uint32_t done = 0;
        while (!done) {
          asm volatile(
              "{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
              : "=r"(done)
              : "r"(mb)
              : "memory");
          if (clock64() - t0 > p.timeout_cycles) break;
        }
        *status = done ? kTmaStatusDone : kTmaStatusTimeout;
      }
    } else {
      *status = IssueStore(p.kind, p.rank, p.op, m, c, p.rows, SmemAddr(buf)) ? kTmaStatusDone
                                                                              : kTmaStatusUnsupported;
    }
  }
  __syncthreads();
  if (load)
    for (uint32_t i = threadIdx.x; i < p.footprint; i += blockDim.x) out[i] = buf[i];
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128) tmapgen_tma_check(const __grid_constant__ CUtensorMap map,
                                                                     TmaCheckParams p) {
  extern __shared__ __align__(1024) uint8_t raw[];
  __shared__ __align__(8) uint64_t mbar;
  RunOne(&map, p, raw, &mbar);
}

extern "C" __global__ void __launch_bounds__(128) tmapgen_tma_check_batch(const TmaCheckParams* params, int n) {
  extern __shared__ __align__(1024) uint8_t raw[];
  __shared__ __align__(8) uint64_t mbar;
  if (static_cast<int>(blockIdx.x) >= n) return;
  const TmaCheckParams p = params[blockIdx.x];
  const CUtensorMap* map = reinterpret_cast<const CUtensorMap*>(p.map);
  if (threadIdx.x == 0)
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map) : "memory");
  RunOne(map, p, raw, &mbar);
}
