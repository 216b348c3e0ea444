// py_report.h: tmapgen.Report and tmapgen.Diagnostic: what one validation says, in Python.
//
// Contract
// - A Result is the outcome of validating one spec (src/tmap/validator.h), kept compactly (the findings
//   that were made, not the fixed-size list; the derived facts are recomputed from the spec when asked
//   for, as Validate computes them: ComputeDerivedFacts plus the valid targets) so that millions of
//   them fit in memory (about 330 bytes each); or, for bulk input,
//   the input error that took the place of a spec. Reports are rendered from it by the same functions as
//   the command line's (src/report/report.h): to_json() is the JSON report `tmapgen validate --format
//   json` prints for the same spec and index; str() is its text report (without colors).
// - Validate() never allocates on the Python heap and may run without the GIL.
#ifndef TMAPGEN_PYTHON_EXT_PY_REPORT_H_
#define TMAPGEN_PYTHON_EXT_PY_REPORT_H_

#include <nanobind/nanobind.h>

#include <memory>
#include <string>
#include <vector>

#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"

namespace tmapgen::py {

struct Result {
  TensorMapSpec spec;
  std::vector<Finding> findings;
  int dropped = 0;
  bool valid = false;
  uint32_t valid_targets = 0;
  Target reported_target = Target::kSm90a;
  int errors = 0, warnings = 0, notes = 0;
  int index = 0;
  std::shared_ptr<const InputError> input_error;        // set: this result is an input error, spec unused
  std::shared_ptr<const std::vector<std::string>> origin;  // for_tensor's notes, or null
};

// Validates `spec` (with `target` when has_target) into *out. No Python calls: safe without the GIL.
void ValidateInto(const TensorMapSpec& spec, bool has_target, Target target, int index, Result* out);
Result InputErrorResult(const InputError& e, int index);

// The Validation the renderers take, rebuilt from a Result.
void ToValidation(const Result& r, Validation* v);
// The derived facts of a Result (what Validate put in Validation::facts).
DerivedFacts Facts(const Result& r);

// JSON and text exactly as the command line renders them (no driver encoding, no colors).
// Appends the JSON report to *out (w is scratch, reused between calls).
void AppendResultJson(const Result& r, json::Writer* w, std::string* out);
std::string ResultText(const Result& r, bool color);

// target=None -> (false, _); a name -> (true, target). Raises SpecError for an unknown target.
bool TargetArg(nanobind::handle target, Target* out);

void BindReport(nanobind::module_& m);

}  // namespace tmapgen::py

#endif  // TMAPGEN_PYTHON_EXT_PY_REPORT_H_
