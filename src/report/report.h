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
  bool value_unsigned = false;  // `value` holds a uint64_t (written unsigned in JSON)
};

std::vector<Diagnostic> MakeDiagnostics(const TensorMapSpec& spec, const Validation& v);

// For a spec without a target: every known target it is not valid for, with the first per-target rule that
// fails it there, in target order. Empty with a target.
struct TargetFailure {
  std::string_view target;
  std::string_view rule;
  std::string field;
  std::string message;
};
std::vector<TargetFailure> TargetFailures(const TensorMapSpec& spec, const Validation& v);

// What a data-type alias the user wrote stood for (`fp8` -> UINT8): the report says which cuda.h type was
// used. Empty when the spec's type was named directly.
struct TypeAlias {
  std::string written;  // as given ("e4m3")
  std::string note;     // "e4m3 is not a tensor-map type: ... copied as CU_TENSOR_MAP_DATA_TYPE_UINT8"
};

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
  TypeAlias alias;            // set when the data type came from an alias (--dtype fp8)
};

// Changes from `from` to `to`, one "field: old -> new" line each.
std::vector<std::string> DescribeChanges(const TensorMapSpec& from, const TensorMapSpec& to);

void WriteReportJson(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc,
                     const ReportOptions& opt, json::Writer* w);
// `file`, when given, is written as "file" (the input's name as the user gave it).
void WriteInputErrorJson(int index, const InputError& e, json::Writer* w, std::string_view file = "");

// The message of an input error without a leading "line L, column C: " (the place is printed compiler
// style, in front). Accepts messages with or without that prefix, whatever parser made them.
std::string_view InputErrorMessage(const InputError& e);

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
