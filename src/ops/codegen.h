// codegen.h: codegen, the one pipeline behind `tmapgen codegen` and tmapd's Codegen: specs (and
// descriptors) planned, validated, and, when every one is valid, generated as C++, JSON or PTX
// (src/codegen). The command line reads the spec files and writes -o; tmapd converts messages (src/rpc).
//
// Contract
// - A request that cannot be resolved (a descriptor naming no map, PTX for an im2col map) is
//   INVALID_ARGUMENT with the generator's message, which names the option ("--desc x: no spec has this
//   name").
// - An invalid spec or descriptor is an OK answer: output.generated is false and output.rejection holds
//   the validator's report; the plan says what each item is and its diagnostics.
// - options.max_output_bytes bounds the generated text (tmapd sets its message limit).
#ifndef TMAPGEN_SRC_OPS_CODEGEN_H_
#define TMAPGEN_SRC_OPS_CODEGEN_H_

#include "absl/status/statusor.h"
#include "src/codegen/codegen.h"

namespace tmapgen::ops {

struct CodegenRequest {
  codegen::Input input;
  codegen::Options options;
  codegen::Lang lang = codegen::Lang::kCpp;
};

struct CodegenResult {
  codegen::Plan plan;
  codegen::Output output;
};

absl::StatusOr<CodegenResult> RunCodegen(const CodegenRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_CODEGEN_H_
