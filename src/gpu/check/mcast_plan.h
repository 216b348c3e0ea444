// mcast_plan.h: `tmapgen check --plan gemm ...`: a GEMM tile plan (src/plan/gemm_plan.h) as multicast check
// launches (mcast_check.h).
//
// Contract
// - PlanMcastJobs() turns an sm_90a plan (cta_group 1, any cluster shape of at most 8 CTAs) into launches of one
//   cluster each: the first cluster of the grid for its first `k_tiles` K tiles, and (when the grid has more than
//   one cluster, or more K tiles) the last cluster for the last `k_tiles` K tiles, so that ragged M, N and K edges
//   (zero fill past the end) and idle CTAs run too. Round j is K tile k of stage k mod stages: every CTA issues
//   exactly the plan's copies (kCopies: map, coordinate offsets from its tile origin, smem offset from the stage's
//   buffer, ctaMask) and arms its barrier with the plan's expect_tx. The tile origin of CTA rank r = x + y x
//   cluster_m (x = r mod cluster_m) is (m0, n0) = ((cluster's first m tile + x) x BM, (first n tile + y) x BN) and
//   the copy's coordinates are {k0, m0} (K-major A) or {m0, k0} (MN-major A), likewise for B with n0, plus the
//   copy's offsets: the plan's own convention (docs/plan.md, "the kernel interface").
// - Each round carries a reference: the whole A and B tiles of the CTA loaded slab by slab with the whole-tile maps
//   and no multicast (the model's tile). CheckMcastJob() then says, without a GPU, whether the copies the plan
//   spreads over the cluster give every CTA exactly its tiles, with exact expect_tx counts and no byte twice.
// - Ends with a negative control (NegativeControl): the first round with the last CTA's count 16 bytes too high.
// - Error (INVALID_ARGUMENT, naming the request field) for a plan that is not valid, targets sm_100a, uses
//   cta_group 2, has no copies, or has more than 8 CTAs per cluster.
#ifndef TMAPGEN_SRC_GPU_CHECK_MCAST_PLAN_H_
#define TMAPGEN_SRC_GPU_CHECK_MCAST_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/gpu/check/mcast_check.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::gpu {

absl::StatusOr<std::vector<McastJob>> PlanMcastJobs(const plan::GemmPlan& p, uint32_t k_tiles);

// "plan gemm 256x256x512 bf16 tile 128x128x64, cluster 2x2, A multicast (slice), B multicast (slice), 4 stages"
std::string PlanMcastTitle(const plan::GemmPlan& p);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_MCAST_PLAN_H_
