// emit_json.h: a plan as one JSON record (docs/codegen.md): the generator, the sources, and per map its
// identifier, spec, valid targets, derived facts and descriptors; the instruction descriptors.
//
// Contract
// - Deterministic: the same plan and options give the same bytes. No I/O. Thread-safe.
#ifndef TMAPGEN_SRC_CODEGEN_EMIT_JSON_H_
#define TMAPGEN_SRC_CODEGEN_EMIT_JSON_H_

#include <string>

#include "src/codegen/plan.h"

namespace tmapgen::codegen {

// Pretty-printed, ending in a newline; "" for an invalid plan.
std::string GenerateJson(const Plan& plan, const Options& opt);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_EMIT_JSON_H_
