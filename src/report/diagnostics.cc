#include "src/report/diagnostics.h"

#include <algorithm>
#include <functional>

#include "src/util/strings.h"

namespace tmapgen {
void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, Diagnostics* out) {
  const Rule* rules = Rules();
  // Errors first, then warnings, then notes; within a severity, in table order (the order of the findings).
  // One pass: each finding goes to the next free slot of its severity.
  int next[3] = {0, 0, 0};
  for (const Finding& f : v.findings) ++next[static_cast<int>(rules[f.rule].severity)];
  const int n = v.findings.size();
  next[2] = next[0] + next[1];
  next[1] = next[0];
  next[0] = 0;
  out->items_.resize(static_cast<size_t>(n));
  TextArena& text = out->text_;
  text.Clear();
  // Each rule writes its texts straight into the arena; the views are made once every text is written (the
  // arena may move while it grows). at[k] = where slot k's field starts and its field, message and fix end.
  uint32_t at[kMaxFindings][4];
  bool constant_field[kMaxFindings];
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    const int k = next[static_cast<int>(r.severity)]++;
    Diagnostic& d = out->items_[static_cast<size_t>(k)];
    d.rule = r.id;
    d.severity = r.severity;
    at[k][0] = static_cast<uint32_t>(text.size());
    constant_field[k] = ConstantField(r, &d.field);
    if (!constant_field[k]) WriteField(r, spec, f, text);
    at[k][1] = static_cast<uint32_t>(text.size());
    r.message(spec, f, text);
    at[k][2] = static_cast<uint32_t>(text.size());
    r.fix(spec, f, text);
    at[k][3] = static_cast<uint32_t>(text.size());
    d.source = r.source;
    d.target = r.per_target ? Name(static_cast<Target>(f.target)) : std::string_view();
    d.value = f.value;
    d.limit = f.limit;
    d.value_unsigned = f.value_unsigned;
  }
  for (int k = 0; k < n; ++k) {
    Diagnostic& d = out->items_[static_cast<size_t>(k)];
    if (!constant_field[k]) d.field = text.Range(at[k][0], at[k][1]);
    d.message = text.Range(at[k][1], at[k][2]);
    d.fix = text.Range(at[k][2], at[k][3]);
  }
}

Diagnostics MakeDiagnostics(const TensorMapSpec& spec, const Validation& v) {
  Diagnostics out;
  MakeDiagnostics(spec, v, &out);
  return out;
}

Diagnostics& Diagnostics::operator=(const Diagnostics& o) {
  if (this == &o) return *this;
  items_ = o.items_;
  text_.Clear();
  text_.Append(o.text_.data(), o.text_.size());
  // Views into o's texts move to the same offsets in this copy's; the others (static data) stay.
  const char* from = o.text_.data();
  const size_t size = o.text_.size();
  const std::less<const char*> before;  // a total order over pointers, also into unrelated memory
  auto rebase = [&](std::string_view* sv) {
    if (size != 0 && !before(sv->data(), from) && !before(from + size, sv->data()))
      *sv = std::string_view(text_.data() + (sv->data() - from), sv->size());
  };
  for (Diagnostic& d : items_) {
    rebase(&d.field);
    rebase(&d.message);
    rebase(&d.fix);
  }
  return *this;
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
