// report.h: what a validation says, as text for people and as stable JSON for tools.
//
// Contract
// - One report per spec. The JSON form (docs/json-report.md) is stable: fields are only ever added.
//   It always has `valid` (bool), `diagnostics` (each with `rule`, `severity`, `field`, `message`, `fix`,
//   `source`) and `derived` (the derived facts), plus `index` (0-based position in the input).
// - A spec that could not be parsed gets a report with valid = false and one diagnostic with rule
//   "input-error" naming the field.
// - Rendering allocates; validation does not. Nothing here does I/O.
#ifndef TMAPGEN_SRC_REPORT_REPORT_H_
#define TMAPGEN_SRC_REPORT_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/json/json_writer.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {

// One finding, explained. The views point at static data (the rule table, target names).
struct Diagnostic {
  std::string_view rule;
  Severity severity = Severity::kError;
  std::string field;
  std::string message;
  std::string fix;
  std::string_view source;
  std::string_view target;  // for per-target rules: the target the finding is about
  int64_t value = 0;        // the offending value and the limit it broke, as the rule defines them
  int64_t limit = 0;        //   (docs/rules.md); the message says the same in words
};

// The findings of `v`, explained: errors, then warnings, then notes (each in table order).
std::vector<Diagnostic> MakeDiagnostics(const TensorMapSpec& spec, const Validation& v);
// The same into *out, whose elements (and their strings' capacity) are reused: a caller explaining many
// specs keeps one vector and formats each text into memory it already holds.
void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, std::vector<Diagnostic>* out);

// The PTX instructions the map can be used with, in its declared direction (one line each).
std::vector<std::string> PtxForms(const TensorMapSpec& spec);

// C++ for the host: the cuTensorMapEncode* call with these exact parameters.
std::string HostEncodeSnippet(const TensorMapSpec& spec);

// The driver's encoding, when one was made.
struct Encoding {
  bool attempted = false;
  int cu_result = 0;
  std::string error_name;
  std::string device;       // "NVIDIA H200 (sm_90a), driver 13000"
  std::string note;         // e.g. "global_address not given: encoded at 0x... ; replace it with cuTensorMapReplaceAddress"
  uint64_t map[16] = {};
};

struct ReportOptions {
  bool color = false;
  bool show_spec = true;
  bool show_code = true;      // PTX forms and the host call in text reports
  bool nearest_valid = true;  // compute and show the nearest valid configuration
};

// Changes from `from` to `to`, one "field: old -> new" line each.
std::vector<std::string> DescribeChanges(const TensorMapSpec& from, const TensorMapSpec& to);

void WriteReportJson(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc,
                     const ReportOptions& opt, json::Writer* w);
void WriteInputErrorJson(int index, const InputError& e, json::Writer* w);

std::string RenderReportText(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc,
                             const ReportOptions& opt);
std::string RenderInputErrorText(int index, const std::string& where, const InputError& e, bool color);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_REPORT_H_
