#include "src/codegen/codegen.h"

#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::codegen {

bool ParseLang(std::string_view s, Lang* out) {
  if (s == "cpp" || s == "c++" || s == "h" || s == "hpp") { *out = Lang::kCpp; return true; }
  if (s == "json") { *out = Lang::kJson; return true; }
  if (s == "ptx") { *out = Lang::kPtx; return true; }
  return false;
}

std::string_view Name(Lang l) {
  switch (l) {
    case Lang::kCpp: return "cpp";
    case Lang::kJson: return "json";
    case Lang::kPtx: return "ptx";
  }
  return "cpp";
}

absl::Status Generate(const Input& in, const Options& opt, Lang lang, Plan* plan, Output* out) {
  *out = Output();
  absl::StatusOr<Plan> planned = MakePlan(in, opt);
  if (!planned.ok()) return planned.status();
  *plan = *std::move(planned);
  if (!plan->valid) {
    out->rejection = RenderRejection(*plan);
    return absl::OkStatus();
  }
  switch (lang) {
    case Lang::kCpp: out->text = GenerateCpp(*plan, opt); break;
    case Lang::kJson: out->text = GenerateJson(*plan, opt); break;
    case Lang::kPtx: {
      absl::StatusOr<std::string> text = GeneratePtx(*plan, opt);
      if (!text.ok()) return Annotate(text.status(), "--lang ptx");
      out->text = *std::move(text);
      break;
    }
  }
  out->generated = true;
  return absl::OkStatus();
}

std::string DefaultFileName(const Plan& plan, Lang lang) {
  return StrCat(plan.name_space, lang == Lang::kCpp ? ".h" : lang == Lang::kJson ? ".json" : ".ptx");
}

}  // namespace tmapgen::codegen
