// diagnostics.h: findings explained (rule id, field, message, fix, source, value), the targets a spec without
// a target fails, the changes a repair made, and the message of an input error without its position.
//
// Contract
// - Pure functions of the spec and its Validation; they allocate (texts), the validator does not.
// - Kept apart from the report writers (report.h) so that code that explains findings without writing reports
//   (the trace injection library, src/trace) does not link what the reports use (the offline bytes, src/blob).
#ifndef TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_
#define TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/schema/spec_json.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {

// One finding, explained. The views point at static data (the rule table, target names) and, for the
// field, message and fix, into the Diagnostics that holds it: valid while that lives and is not remade.
struct Diagnostic {
  std::string_view rule;
  Severity severity = Severity::kError;
  std::string_view field;
  std::string_view message;
  std::string_view fix;
  std::string_view source;
  std::string_view target;  // for per-target rules: the target the finding is about
  int64_t value = 0;        // the offending value and the limit it broke, as the rule defines them
  int64_t limit = 0;        //   (docs/rules.md); the message says the same in words
  bool value_unsigned = false;  // `value` holds a uint64_t (written unsigned in JSON)
};

// The explained findings of one spec, errors, then warnings, then notes (each in table order), with the memory
// their texts are written in: every text of every finding goes into one buffer (a TextArena), written there by
// the rule itself, so explaining a spec costs no allocation once the buffer has grown, and no copy of a text.
// Movable and copyable (a copy has texts of its own).
class Diagnostics {
 public:
  Diagnostics() = default;
  Diagnostics(Diagnostics&&) noexcept = default;
  Diagnostics& operator=(Diagnostics&&) noexcept = default;
  Diagnostics(const Diagnostics& o) { *this = o; }
  Diagnostics& operator=(const Diagnostics& o);

  const Diagnostic* begin() const { return items_.data(); }
  const Diagnostic* end() const { return items_.data() + items_.size(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const Diagnostic& operator[](size_t i) const { return items_[i]; }

 private:
  friend void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, Diagnostics* out);
  bool Fill(const TensorMapSpec& spec, const Validation& v, int next[3]);
  std::vector<Diagnostic> items_;
  TextArena text_;
};

Diagnostics MakeDiagnostics(const TensorMapSpec& spec, const Validation& v);
// The same into *out, whose memory is reused: a caller explaining many specs keeps one Diagnostics and each
// text is written into memory it already holds.
void MakeDiagnostics(const TensorMapSpec& spec, const Validation& v, Diagnostics* out);

// For a spec without a target: every known target it is not valid for, with the first per-target rule that
// fails it there, in target order. Empty with a target.
struct TargetFailure {
  std::string_view target;
  std::string_view rule;
  std::string field;
  std::string message;
};
std::vector<TargetFailure> TargetFailures(const TensorMapSpec& spec, const Validation& v);
// The same, each failure handed to fn(target name, rule, field path, message) with its texts on the stack
// (no allocation; the report writers' path). TargetFailures is built on it.
template <typename F>
void ForEachTargetFailure(const TensorMapSpec& spec, const Validation& v, F&& fn) {
  if (spec.has_target()) return;
  const Rule* rules = Rules();
  for (int t = 0; t < kNumTargets; ++t) {
    if (!(v.failed_targets & (1u << t))) continue;
    Finding f;
    if (!FailedTargetFinding(spec, v.facts, static_cast<Target>(t), &f)) continue;
    const Rule& r = rules[f.rule];
    fn(Name(static_cast<Target>(t)), r, FieldText(r, spec, f), MessageText(r, spec, f));
  }
}

// Changes from `from` to `to`, one "field: old -> new" line each.
std::vector<std::string> DescribeChanges(const TensorMapSpec& from, const TensorMapSpec& to);
// The same, each line handed to fn(const RuleText&), built on the stack. DescribeChanges is built on it.
template <typename F>
void ForEachChange(const TensorMapSpec& a, const TensorMapSpec& b, F&& fn) {
  const uint32_t r = b.rank > kMaxRank ? kMaxRank : b.rank;
  // Strides that were the dense default and change are a padded tensor: the allocation has to change too.
  const bool padded = HasDenseDefaultStrides(a);
  for (uint32_t i = 0; i < r; ++i) {
    if (a.global_dim[i] != b.global_dim[i]) fn(TextCat("global_dim[", i, "]: ", a.global_dim[i], " -> ", b.global_dim[i]));
    if (a.box_dim[i] != b.box_dim[i]) fn(TextCat("box_dim[", i, "]: ", a.box_dim[i], " -> ", b.box_dim[i]));
    if (a.element_strides[i] != b.element_strides[i])
      fn(TextCat("element_strides[", i, "]: ", a.element_strides[i], " -> ", b.element_strides[i]));
    if (i + 1 < r && a.global_strides[i] != b.global_strides[i])
      fn(TextCat("global_strides[", i, "]: ", a.global_strides[i], " -> ", b.global_strides[i],
                 When(padded && i == 0, " (the dense default was not given; this means padding the allocation's rows to ",
                      b.global_strides[0], " B and passing the strides)")));
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (a.pixel_box_lower_corner[i] != b.pixel_box_lower_corner[i])
      fn(TextCat("pixel_box_lower_corner[", i, "]: ", a.pixel_box_lower_corner[i], " -> ", b.pixel_box_lower_corner[i]));
    if (a.pixel_box_upper_corner[i] != b.pixel_box_upper_corner[i])
      fn(TextCat("pixel_box_upper_corner[", i, "]: ", a.pixel_box_upper_corner[i], " -> ", b.pixel_box_upper_corner[i]));
  }
  if (a.pixel_box_lower_corner_width != b.pixel_box_lower_corner_width)
    fn(TextCat("pixel_box_lower_corner_width: ", a.pixel_box_lower_corner_width, " -> ", b.pixel_box_lower_corner_width));
  if (a.pixel_box_upper_corner_width != b.pixel_box_upper_corner_width)
    fn(TextCat("pixel_box_upper_corner_width: ", a.pixel_box_upper_corner_width, " -> ", b.pixel_box_upper_corner_width));
  if (a.channels_per_pixel != b.channels_per_pixel)
    fn(TextCat("channels_per_pixel: ", a.channels_per_pixel, " -> ", b.channels_per_pixel));
  if (a.pixels_per_column != b.pixels_per_column)
    fn(TextCat("pixels_per_column: ", a.pixels_per_column, " -> ", b.pixels_per_column));
  if (a.swizzle != b.swizzle) fn(TextCat("swizzle: ", ShortName(a.swizzle), " -> ", ShortName(b.swizzle)));
  if (a.interleave != b.interleave) fn(TextCat("interleave: ", ShortName(a.interleave), " -> ", ShortName(b.interleave)));
  if (a.oob_fill != b.oob_fill) fn(TextCat("oob_fill: ", ShortName(a.oob_fill), " -> ", ShortName(b.oob_fill)));
  if (a.wide_mode != b.wide_mode) fn(TextCat("wide_mode: ", ShortName(a.wide_mode), " -> ", ShortName(b.wide_mode)));
  if (a.direction != b.direction) fn(TextCat("direction: ", Name(a.direction), " -> ", Name(b.direction)));
}

// The message of an input error without a leading "line L, column C: " (the place is printed compiler
// style, in front). Accepts messages with or without that prefix, whatever parser made them.
std::string_view InputErrorMessage(const InputError& e);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_DIAGNOSTICS_H_
