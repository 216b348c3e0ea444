#include "src/report/diagnostics.h"

#include <algorithm>

#include "src/util/strings.h"

namespace tmapgen {
namespace {
// Replaces *out's text, reusing its capacity (clear + append is cheaper than assign's general replace).
void Set(std::string* out, const RuleText& t) {
  out->clear();
  out->append(t.data(), t.size());
}
}  // namespace

void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, std::vector<Diagnostic>* out) {
  const Rule* rules = Rules();
  // Errors first, then warnings, then notes; within a severity, in table order (the order of the findings).
  // One pass: each finding goes to the next free slot of its severity.
  int next[3] = {0, 0, 0};
  for (const Finding& f : v.findings) ++next[static_cast<int>(rules[f.rule].severity)];
  const int n = v.findings.size();
  next[2] = next[0] + next[1];
  next[1] = next[0];
  next[0] = 0;
  out->resize(static_cast<size_t>(n));
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    Diagnostic& d = (*out)[static_cast<size_t>(next[static_cast<int>(r.severity)]++)];
    d.rule = r.id;
    d.severity = r.severity;
    // Each text is made on the stack (RuleText) and copied once into the reused string.
    std::string_view field;
    if (ConstantField(r, &field)) d.field.assign(field.data(), field.size());
    else Set(&d.field, FieldText(r, spec, f));
    Set(&d.message, r.message(spec, f));
    Set(&d.fix, r.fix(spec, f));
    d.source = r.source;
    d.target = r.per_target ? Name(static_cast<Target>(f.target)) : std::string_view();
    d.value = f.value;
    d.limit = f.limit;
    d.value_unsigned = f.value_unsigned;
  }
}

std::vector<Diagnostic> MakeDiagnostics(const TensorMapSpec& spec, const Validation& v) {
  std::vector<Diagnostic> out;
  MakeDiagnostics(spec, v, &out);
  return out;
}

std::vector<TargetFailure> TargetFailures(const TensorMapSpec& spec, const Validation& v) {
  std::vector<TargetFailure> out;
  ForEachTargetFailure(spec, v, [&out](std::string_view target, const Rule& r, const RuleText& field, const RuleText& message) {
    TargetFailure tf;
    tf.target = target;
    tf.rule = r.id;
    tf.field = field.str();
    tf.message = message.str();
    out.push_back(std::move(tf));
  });
  return out;
}

std::vector<std::string> DescribeChanges(const TensorMapSpec& a, const TensorMapSpec& b) {
  std::vector<std::string> out;
  ForEachChange(a, b, [&out](const RuleText& line) { out.push_back(line.str()); });
  return out;
}

std::string_view InputErrorMessage(const InputError& e) {
  std::string_view m = e.message;
  // "line L, column C: " or "line L: "
  if (m.substr(0, 5) != "line ") return m;
  size_t i = 5;
  auto digits = [&]() {
    const size_t b = i;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9') ++i;
    return i > b;
  };
  if (!digits()) return m;
  if (m.substr(i, 9) == ", column ") {
    i += 9;
    if (!digits()) return m;
  }
  if (m.substr(i, 2) != ": ") return m;
  return m.substr(i + 2);
}

}  // namespace tmapgen
