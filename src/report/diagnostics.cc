#include "src/report/diagnostics.h"

#include <algorithm>
#include <functional>

#include "src/util/strings.h"

namespace tmapgen {
// Fills *out with the findings of v, each severity from its slot next[severity] on (errors, then warnings, then
// notes; within a severity, in table order, the order of the findings). False, leaving *out to be filled again,
// when a severity has more findings than its slots (next[] made from counts that do not match the findings).
bool Diagnostics::Fill(const TensorMapSpec& spec, const Validation& v, int next[3]) {
  const Rule* rules = Rules();
  const int n = v.findings.size();
  const int end[3] = {next[1], next[2], n};
  const int first[3] = {next[0], next[1], next[2]};
  items_.resize(static_cast<size_t>(n));
  // Each rule writes its texts straight into the arena, one after the other, and each Diagnostic's views are
  // made as soon as its texts are written. Should the arena move while it grows (rarely: it keeps its memory
  // from spec to spec), the views made before the move point into memory it left: the texts are written
  // again, into the memory it now has, which the same texts fit (the second round does not grow it, or
  // seldom: a text reserves room for its longest form before writing; the rounds end when none moves it).
  // Nothing is kept to remake the views from: a round costs no bookkeeping beyond the views themselves, each
  // made from where the arena's end was before and after its text.
  text_.Reserve(1);  // a new arena takes its first block now, not under the first text
  for (;;) {
    text_.Clear();
    const char* const start = text_.data();
    const char* pos = start;  // the end of the texts written so far
    for (const Finding& f : v.findings) {
      const Rule& r = rules[f.rule];
      const int sev = static_cast<int>(r.severity);
      if (next[sev] >= end[sev]) return false;
      Diagnostic& d = items_[static_cast<size_t>(next[sev]++)];
      d.rule = r.id;
      d.severity = r.severity;
      d.source = r.source;
      d.target = r.per_target ? Name(static_cast<Target>(f.target)) : std::string_view();
      d.value = f.value;
      d.limit = f.limit;
      d.value_unsigned = f.value_unsigned;
      if (!StaticField(r, spec, f, &d.field)) {
        WriteField(r, spec, f, text_);
        d.field = std::string_view(pos, static_cast<size_t>(text_.end() - pos));
        pos = text_.end();
      }
      r.message(spec, f, text_);
      const char* const message_end = text_.end();
      r.fix(spec, f, text_);
      const char* const fix_end = text_.end();
      d.message = std::string_view(pos, static_cast<size_t>(message_end - pos));
      d.fix = std::string_view(message_end, static_cast<size_t>(fix_end - message_end));
      pos = fix_end;
    }
    if (text_.data() == start) return true;
    for (int s = 0; s < 3; ++s) next[s] = first[s];
  }
}

void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, Diagnostics* out) {
  // The Validation's counts say where each severity starts; should they not match its findings (a Validation
  // made by hand), the findings are counted.
  const int n = v.findings.size();
  if (v.errors >= 0 && v.warnings >= 0 && v.notes >= 0 && v.errors + v.warnings + v.notes == n) {
    int next[3] = {0, v.errors, v.errors + v.warnings};
    if (out->Fill(spec, v, next)) return;
  }
  int counts[3];
  CountBySeverity(v.findings, counts);
  int next[3] = {0, counts[0], counts[0] + counts[1]};
  out->Fill(spec, v, next);
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
