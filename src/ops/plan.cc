// plan.cc: see plan.h.
#include "src/ops/plan.h"

namespace tmapgen::ops {

absl::StatusOr<plan::GemmPlan> RunPlanGemm(const plan::GemmRequest& req) {
  if (absl::Status s = plan::CheckGemmRequest(req); !s.ok()) return s;
  plan::GemmPlan out;
  plan::RunGemmPlan(req, &out);
  return out;
}

absl::StatusOr<plan::ConvPlan> RunPlanConv(const plan::ConvRequest& req) {
  if (absl::Status s = plan::CheckConvRequest(req); !s.ok()) return s;
  plan::ConvPlan out;
  plan::RunConvPlan(req, &out);
  return out;
}

}  // namespace tmapgen::ops
