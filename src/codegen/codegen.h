// codegen.h: turn validated tensor-map specs (and the descriptors that read their boxes) into code a
// kernel author compiles: a self-contained C++ header, a JSON record, or a PTX tensormap.replace
// sequence (docs/codegen.md). This is the front door that `tmapgen codegen` and tmapd's Codegen call;
// the plan (plan.h) and the three emitters (emit_cpp.h, emit_json.h, emit_ptx.h) have headers of their own.
//
// Contract
// - Generate() plans first (MakePlan: everything resolved and validated) and emits only from a valid plan.
// - Deterministic: the same plan and options give the same bytes (no time stamps, no paths other than
//   what Options::sources says, no iteration over unordered containers).
// - No I/O. Thread-safe (no shared state).
#ifndef TMAPGEN_SRC_CODEGEN_CODEGEN_H_
#define TMAPGEN_SRC_CODEGEN_CODEGEN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "src/codegen/emit_cpp.h"
#include "src/codegen/emit_json.h"
#include "src/codegen/emit_ptx.h"
#include "src/codegen/plan.h"

namespace tmapgen::codegen {

enum class Lang : uint8_t { kCpp = 0, kJson = 1, kPtx = 2 };
bool ParseLang(std::string_view s, Lang* out);  // "cpp" (also "c++", "h"), "json", "ptx"
std::string_view Name(Lang l);

// What `tmapgen codegen` (and tmapd's Codegen) makes of its inputs. An error (kInvalidArgument, the message
// naming the flag) when the request cannot be resolved or `lang` cannot express the plan (a usage error:
// nothing generated); otherwise fills *plan and *out: out->generated and out->text when the plan is valid,
// else out->rejection (RenderRejection).
struct Output {
  bool generated = false;
  std::string text;
  std::string rejection;
};
absl::Status Generate(const Input& in, const Options& opt, Lang lang, Plan* plan, Output* out);
// The name the generated text goes by when nobody chose one: the namespace with .h, .json or .ptx.
std::string DefaultFileName(const Plan& plan, Lang lang);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_CODEGEN_H_
