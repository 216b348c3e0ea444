// plan.h: plan gemm and plan conv, the one pipeline behind `tmapgen plan gemm|conv` and Python's plan_gemm and
// plan_conv. The requests are src/plan's plain values (the command line parses flags into them, Python its
// arguments); the plans are rendered by src/plan (RenderGemmText/Json, RenderConvText/Json, the generated header).
//
// Contract
// - Each runner checks its request first (plan::Check*Request: INVALID_ARGUMENT naming the request field,
//   "bn: ..."), then plans it: a well-formed request always gets its plan, every map, descriptor and plan rule
//   checked. A plan that breaks a rule is an OK answer (valid is false).
// - No I/O.
#ifndef TMAPGEN_SRC_OPS_PLAN_H_
#define TMAPGEN_SRC_OPS_PLAN_H_

#include "absl/status/statusor.h"
#include "src/plan/conv_plan.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::ops {

absl::StatusOr<plan::GemmPlan> RunPlanGemm(const plan::GemmRequest& req);
absl::StatusOr<plan::ConvPlan> RunPlanConv(const plan::ConvRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_PLAN_H_
