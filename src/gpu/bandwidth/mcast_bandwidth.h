// mcast_bandwidth.h: `tmapgen bench SPEC --multicast C`: what .multicast::cluster buys. Clusters of C CTAs load every
// box of a 2D tensor (the spec's data type, box and swizzle; rows of CopyBandwidthOptions::row_bytes,
// about CopyBandwidthOptions::bytes in all), each box delivered into the shared memory of every CTA of its
// cluster, timed two ways in alternating rounds of the same run:
//   multicast  every CTA issues 1/C of each box's rows with the slice map (box_dim[1] / C rows) and
//              .multicast::cluster to the whole cluster (CUTLASS's way of issuing a multicast operand); a stage is
//              refilled when every CTA of the cluster has released it (remote mbarrier arrives);
//   per CTA    every CTA loads every whole box itself (the same bytes delivered to the same CTAs; C times the
//              reads from L2), through the same ring.
// Reported: bytes delivered into shared memory per second (all CTAs, and per CTA), the tensor's bytes read per
// second, and the multicast's ratio to the per-CTA loads. Every wait is bounded (clock64): a run whose barriers
// do not complete is reported (exit 1), never a hang; a completed run delivered every byte its barriers counted.
//
// Contract: runs in the calling process (no fork), like RunCopyBandwidth; 0 success, 1 a run timed out, 2 no
// GPU or the spec cannot run here (not a tiled map, box rows not divisible by C, a slice the validator or the
// model refuses, the ring does not fit shared memory).
#ifndef TMAPGEN_SRC_GPU_BANDWIDTH_MCAST_BANDWIDTH_H_
#define TMAPGEN_SRC_GPU_BANDWIDTH_MCAST_BANDWIDTH_H_

#include <cstdint>
#include <cstdio>

#include "src/gpu/bandwidth/copy_bandwidth.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct McastBandwidthResult {
  double mcast_delivered_gbs = 0, plain_delivered_gbs = 0;  // 1e9 bytes per second into shared memory, all CTAs
  double mcast_per_cta_gbs = 0, plain_per_cta_gbs = 0;
  int clusters = 0, stages = 0;
};

int RunMcastBandwidth(const TensorMapSpec& spec, uint32_t cluster, const CopyBandwidthOptions& opt,
                      FILE* out, McastBandwidthResult* result = nullptr);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_BANDWIDTH_MCAST_BANDWIDTH_H_
