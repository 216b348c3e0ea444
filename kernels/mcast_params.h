// mcast_params.h: the launch parameters of the multicast kernels (kernels/mcast_check.cuh), shared by the kernels
// and the host (src/gpu/check/mcast_check.h, src/gpu/bandwidth/mcast_bandwidth.h). Plain C types only.
#ifndef TMAPGEN_KERNELS_MCAST_PARAMS_H_
#define TMAPGEN_KERNELS_MCAST_PARAMS_H_

#include <stdint.h>

enum { kMcastMaxRounds = 16, kMcastMaxCluster = 8 };

// One tiled load a CTA issues: cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// with .multicast::cluster and `mask` as ctaMask when mask != 0 (else into the issuing CTA only).
struct McastCopy {
  int32_t map;          // index into McastCheckParams::maps
  int32_t rank;         // 1..5
  int32_t coords[5];
  uint32_t dst_offset;  // from the 1024-aligned window base (the same CTA-relative offset in every receiver)
  uint32_t mask;        // ctaMask (bit r: the CTA of %cluster_ctarank r receives the box); 0: no multicast
  uint32_t pad;
};

// tmapgen_mcast_check: one cluster (grid = cluster size). For each round j, every CTA fills its window with the
// sentinel 0xA5, the cluster synchronises, every CTA arms its own barrier of round j with expect_tx[j][rank]
// (when not 0), issues its copies of round j, waits for the barrier with a clock64 bound, the cluster
// synchronises again and every CTA copies its window out. A fresh mbarrier per round: a timeout in one round
// leaves the others' phases intact.
struct McastCheckParams {
  int32_t rounds;          // 1..kMcastMaxRounds
  int32_t pad0;
  uint32_t window;         // bytes of shared memory per CTA compared (from the 1024-aligned base)
  uint32_t pad1;
  int64_t timeout_cycles;  // clock64 cycles to wait on a barrier
  uint64_t maps;           // device address of the CUtensorMap array (global memory, 64-byte aligned)
  uint64_t copies;         // McastCopy[]
  uint64_t begin;          // int32[rounds x cluster + 1]: copies of (round j, rank r) are [begin[j*C+r], begin[j*C+r+1])
  uint64_t expect_tx;      // uint32[rounds x cluster]: what CTA r arms its barrier of round j with (0: not armed)
  uint64_t out;            // rounds x cluster x window bytes: the windows after each round
  uint64_t status;         // int32[rounds x cluster]: TmaCheckStatus (kTmaStatusDone when not armed)
};

// tmapgen_mcast_bandwidth: clusters of C CTAs each load the boxes b = c, c + clusters, ... of a tiles_x x
// tiles_y grid of boxes through a `stages`-deep ring; every CTA of a cluster receives every box of its cluster.
// Multicast (kMcastBandwidthMulticast): CTA r issues rows [r x box_y / C, (r + 1) x box_y / C) of each box (the
// slice map) to the whole cluster, and a stage is refilled once every CTA of the cluster has released it (its empty barrier
// counts C arrivals, one remote arrive from each CTA); else every CTA loads each whole box itself (the same bytes
// delivered to the same CTAs, C times the reads) through the same ring, its own CTA releasing its stages.
enum McastBandwidthFlags { kMcastBandwidthMulticast = 1 };
struct McastBandwidthParams {
  uint32_t tiles_x, tiles_y;  // boxes along dimensions 0 and 1
  uint32_t box_x, box_y;      // box_dim[0], box_dim[1] (of the whole box)
  uint32_t box_bytes;         // bytes of one whole box (what each CTA receives per box)
  uint32_t slice_offset;      // multicast: shared-memory bytes between the slices of consecutive ranks
  uint32_t stage_stride;      // shared-memory bytes between stages (a multiple of 1024)
  uint32_t stages;            // 2..8
  uint32_t flags;             // McastBandwidthFlags
  uint32_t pad;
  int64_t timeout_cycles;     // bound on each wait (a timeout sets the status and ends the CTA's loop)
  uint64_t status;            // int32 per block: 0 done, kTmaStatusTimeout
};

#endif  // TMAPGEN_KERNELS_MCAST_PARAMS_H_
