// diagnostics.h: a validation's findings explained (rule id, field, message, fix, source), and the
// difference between a spec and its repaired form: the part of a report that has no layout, shared by the
// reports (report.h) and by what must not pull in the rest of them (the trace injection library, which
// links the core into other people's processes and so avoids the report writers' dependencies).
//
// Contract
// - MakeDiagnostics: one Diagnostic per finding, errors first, then warnings, then notes; within a
//   severity in rule-table order. Texts are made here (validation never formats).
// - DescribeChanges: "field: old -> new" for every field that differs, in schema order.
// - No I/O.
#ifndef TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_
#define TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/tmap/rule.h"
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

// Changes from `from` to `to`, one "field: old -> new" line each.
std::vector<std::string> DescribeChanges(const TensorMapSpec& from, const TensorMapSpec& to);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_
