// plan_codegen.h: one C++ header from a valid GEMM (or convolution) plan: every map through the codegen machinery
// (src/codegen/codegen.h: validated constants, Encode(), the offline 128 bytes) and a `plan` namespace with every
// constant a kernel needs (docs/plan.md, "The generated header").
//
// Contract
// - GeneratePlanHeader() returns the header. kFailedPrecondition for an invalid plan or one whose maps the
//   codegen machinery refuses (the message is its rejection report); the codegen's own status for options it
//   refuses. Deterministic; no I/O.
// - The plan namespace holds only constexpr data and TMAPGEN_GEN_HD constexpr functions (usable on the host,
//   in device code and under NVRTC); static_asserts guard the relations the plan checked (the stage bytes
//   equal what each CTA's barrier expects, the layout fits the target).
#ifndef TMAPGEN_SRC_PLAN_PLAN_CODEGEN_H_
#define TMAPGEN_SRC_PLAN_PLAN_CODEGEN_H_

#include <string>

#include "absl/status/statusor.h"
#include "src/plan/conv_plan.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::plan {

absl::StatusOr<std::string> GeneratePlanHeader(const GemmPlan& p, const std::string& name_space);
// The same with the convolution's taps and tile origin added.
absl::StatusOr<std::string> GenerateConvHeader(const ConvPlan& p, const std::string& name_space);

}  // namespace tmapgen::plan

#endif  // TMAPGEN_SRC_PLAN_PLAN_CODEGEN_H_
