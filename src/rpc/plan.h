// plan.h: tmapd's PlanGemm and PlanConv messages <-> the plan requests (src/plan, run by src/ops/plan.h) and the
// plans back. No gRPC, no I/O.
//
// Contract
// - ToProto(request) writes every field (the client's request travels whole); FromProto(ToProto(r)) == r for
//   every request the command line can make.
// - FromProto takes an unset field as the command's default (the comments of proto/tmapd_v2.proto), refuses enum
//   numbers outside the schema, D fields of a 2D convolution, a convolution with more filter taps than
//   limits.max_plan_taps (RESOURCE_EXHAUSTED: every valid plan has fewer), and everything the planner's own
//   request check refuses (plan::CheckGemmRequest, CheckConvRequest). Every error starts with the message's
//   field ("cluster_n: ...", "output.render.format: ...").
// - ToProto(plan) is the structured plan (maps with their diagnostics, shared memory, per-CTA copies and
//   barrier counts, descriptors, MMA, edges; for a convolution its taps and the sm_100 wide forms); the rendering
//   is the engine's.
#ifndef TMAPGEN_SRC_RPC_PLAN_H_
#define TMAPGEN_SRC_RPC_PLAN_H_

#include <string>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/plan/conv_plan.h"
#include "src/plan/gemm_plan.h"
#include "src/rpc/common.h"

namespace tmapgen::rpc {

// What the caller wants printed besides the plan (PlanOutput): the command's --format, --pretty and --namespace.
struct PlanOutputOptions {
  enum class Render { kNone, kText, kJson };
  Render render = Render::kNone;
  bool pretty = false;
  bool header = false;         // the generated C++ header (--format cpp)
  std::string name_space;      // "" = the default
};

void ToProto(const plan::GemmRequest& r, const PlanOutputOptions& o, v2::PlanGemmRequest* m);
absl::Status FromProto(const v2::PlanGemmRequest& m, const RequestLimits& limits, plan::GemmRequest* r,
                       PlanOutputOptions* o);
void ToProto(const plan::ConvRequest& r, const PlanOutputOptions& o, v2::PlanConvRequest* m);
absl::Status FromProto(const v2::PlanConvRequest& m, const RequestLimits& limits, plan::ConvRequest* r,
                       PlanOutputOptions* o);

void ToProto(const plan::GemmPlan& p, v2::PlanResponse* m);
void ToProto(const plan::ConvPlan& p, v2::PlanResponse* m);  // the GEMM's plan and the convolution's facts

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_PLAN_H_
