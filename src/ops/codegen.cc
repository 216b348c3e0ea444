// codegen.cc: see codegen.h.
#include "src/ops/codegen.h"

#include <string>

#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::ops {

absl::StatusOr<CodegenResult> RunCodegen(const CodegenRequest& req) {
  CodegenResult out;
  std::string err;
  if (!codegen::Generate(req.input, req.options, req.lang, &out.plan, &out.output, &err))
    return absl::InvalidArgumentError(ToAbsl(err));
  return out;
}

}  // namespace tmapgen::ops
