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
#include "src/report/diagnostics.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {

// The PTX instructions the map can be used with, in its declared direction (one line each).
std::vector<std::string> PtxForms(const TensorMapSpec& spec);
// The same on the stack (the JSON report's path, no allocation): into out[0..n), returns n (1 or 2).
int PtxForms(const TensorMapSpec& spec, RuleText out[2]);

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


void WriteReportJson(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc,
                     const ReportOptions& opt, json::Writer* w);
// `file`, when given, is written as "file" (the input's name as the user gave it).
void WriteInputErrorJson(int index, const InputError& e, json::Writer* w, std::string_view file = "");



std::string RenderReportText(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc,
                             const ReportOptions& opt);
// "WHERE: error[input-error] MESSAGE (spec N)", WHERE being "FILE:LINE:COLUMN" (cli/spec_input.h SpecPlace).
std::string RenderInputErrorText(int index, const std::string& where, const InputError& e, bool color);

// --format short, for CI logs and editors: one line per diagnostic, "PLACE: SEVERITY[RULE] FIELD: MESSAGE",
// PLACE being "FILE:LINE" of the spec (per-target rules end with " (target T)"); without a target, one note
// per target the spec is not valid for. Nothing for a spec without findings. Input errors:
// "FILE:LINE:COLUMN: error[input-error] MESSAGE".
std::string RenderReportShort(std::string_view place, const TensorMapSpec& spec, const Validation& v);
std::string RenderInputErrorShort(std::string_view where, const InputError& e);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_REPORT_H_
