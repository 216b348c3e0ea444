// codegen.cc: see codegen.h.
#include "src/ops/codegen.h"

#include <string>

#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::ops {

absl::StatusOr<CodegenResult> RunCodegen(const CodegenRequest& req) {
  CodegenResult out;
  if (absl::Status st = codegen::Generate(req.input, req.options, req.lang, &out.plan, &out.output); !st.ok())
    return st;
  return out;
}

}  // namespace tmapgen::ops
