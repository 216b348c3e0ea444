// plan_render.h: the text and JSON reports of a GEMM plan (docs/plan.md describes both).
//
// Contract
// - RenderGemmText() is the human report (sections: problem, verdict, maps, shared memory, per CTA, descriptors,
//   MMA, edges, issues); RenderGemmJson() one JSON object (one line, or indented with `pretty`). Both end in '\n'.
// - The JSON fields are only ever added, never renamed or removed, as for validate's report.
// - No I/O.
#ifndef TMAPGEN_SRC_PLAN_PLAN_RENDER_H_
#define TMAPGEN_SRC_PLAN_PLAN_RENDER_H_

#include <string>

#include "src/plan/gemm_plan.h"

namespace tmapgen::plan {

std::string RenderGemmText(const GemmPlan& p);
std::string RenderGemmJson(const GemmPlan& p, bool pretty = false);

}  // namespace tmapgen::plan

#endif  // TMAPGEN_SRC_PLAN_PLAN_RENDER_H_
