#include "src/report/diagnostics.h"

#include <algorithm>

#include "src/util/strings.h"

namespace tmapgen {
namespace {
uint32_t ClampRank(const TensorMapSpec& s) { return s.rank > kMaxRank ? kMaxRank : s.rank; }
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
  if (spec.has_target()) return out;
  const Rule* rules = Rules();
  for (int t = 0; t < kNumTargets; ++t) {
    if (!(v.failed_targets & (1u << t))) continue;
    Finding f;
    if (!FailedTargetFinding(spec, v.facts, static_cast<Target>(t), &f)) continue;
    const Rule& r = rules[f.rule];
    TargetFailure tf;
    tf.target = Name(static_cast<Target>(t));
    tf.rule = r.id;
    tf.field = FieldPath(r, spec, f);
    tf.message = r.message(spec, f).str();
    out.push_back(std::move(tf));
  }
  return out;
}


std::vector<std::string> DescribeChanges(const TensorMapSpec& a, const TensorMapSpec& b) {
  std::vector<std::string> out;
  const uint32_t r = ClampRank(b);
  for (uint32_t i = 0; i < r; ++i) {
    if (a.global_dim[i] != b.global_dim[i]) out.push_back(StrCat("global_dim[", i, "]: ", a.global_dim[i], " -> ", b.global_dim[i]));
    if (a.box_dim[i] != b.box_dim[i]) out.push_back(StrCat("box_dim[", i, "]: ", a.box_dim[i], " -> ", b.box_dim[i]));
    if (a.element_strides[i] != b.element_strides[i])
      out.push_back(StrCat("element_strides[", i, "]: ", a.element_strides[i], " -> ", b.element_strides[i]));
    if (i + 1 < r && a.global_strides[i] != b.global_strides[i])
      out.push_back(StrCat("global_strides[", i, "]: ", a.global_strides[i], " -> ", b.global_strides[i]));
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (a.pixel_box_lower_corner[i] != b.pixel_box_lower_corner[i])
      out.push_back(StrCat("pixel_box_lower_corner[", i, "]: ", a.pixel_box_lower_corner[i], " -> ", b.pixel_box_lower_corner[i]));
    if (a.pixel_box_upper_corner[i] != b.pixel_box_upper_corner[i])
      out.push_back(StrCat("pixel_box_upper_corner[", i, "]: ", a.pixel_box_upper_corner[i], " -> ", b.pixel_box_upper_corner[i]));
  }
  if (a.pixel_box_lower_corner_width != b.pixel_box_lower_corner_width)
    out.push_back(StrCat("pixel_box_lower_corner_width: ", a.pixel_box_lower_corner_width, " -> ", b.pixel_box_lower_corner_width));
  if (a.pixel_box_upper_corner_width != b.pixel_box_upper_corner_width)
    out.push_back(StrCat("pixel_box_upper_corner_width: ", a.pixel_box_upper_corner_width, " -> ", b.pixel_box_upper_corner_width));
  if (a.channels_per_pixel != b.channels_per_pixel)
    out.push_back(StrCat("channels_per_pixel: ", a.channels_per_pixel, " -> ", b.channels_per_pixel));
  if (a.pixels_per_column != b.pixels_per_column)
    out.push_back(StrCat("pixels_per_column: ", a.pixels_per_column, " -> ", b.pixels_per_column));
  if (a.swizzle != b.swizzle) out.push_back(StrCat("swizzle: ", ShortName(a.swizzle), " -> ", ShortName(b.swizzle)));
  if (a.interleave != b.interleave) out.push_back(StrCat("interleave: ", ShortName(a.interleave), " -> ", ShortName(b.interleave)));
  if (a.oob_fill != b.oob_fill) out.push_back(StrCat("oob_fill: ", ShortName(a.oob_fill), " -> ", ShortName(b.oob_fill)));
  if (a.wide_mode != b.wide_mode) out.push_back(StrCat("wide_mode: ", ShortName(a.wide_mode), " -> ", ShortName(b.wide_mode)));
  if (a.direction != b.direction) out.push_back(StrCat("direction: ", Name(a.direction), " -> ", Name(b.direction)));
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
