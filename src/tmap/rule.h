// rule.h: the tensor-map rule table. Each rule is one row: stable id, severity, the modes it applies to,
// whether its verdict depends on the target, the field it is about, a one-line statement, the check, the
// message, the fix, an optional automatic patch toward the nearest valid spec, and its source. Id, severity,
// field, statement and source come from the rule's row of the catalogue of every rule family
// (src/tmap/rule_catalogue.h), which also holds its example and, for a withdrawn id, what it became.
//
// Contract
// - Rule ids are stable: tests, documentation and users' scripts refer to them. Never renumber or
//   rename a rule; retire it in the catalogue instead (docs/dev/add-a-rule.md).
// - A check appends Findings (rule index, array index, value, limit); it never allocates and never
//   formats text. Text is made only when a report is rendered (the rule's message, fix and field path
//   write into a TextOut: a diagnostics arena, or a RuleText through MessageText / FixText), so
//   validating a valid spec costs no string work.
// - Severity: as the catalogue defines it (src/tmap/rule_catalogue.h).
#ifndef TMAPGEN_SRC_TMAP_RULE_H_
#define TMAPGEN_SRC_TMAP_RULE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/tmap/derived_facts.h"
#include "src/tmap/rule_catalogue.h"
#include "src/tmap/rule_text.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen {

// Trivially constructible on purpose: a FindingList holds kMaxFindings of them and must cost nothing to
// create. FindingList::Add sets every field.
struct Finding {
  uint16_t rule;   // index into Rules()
  int8_t index;    // array index the finding is about (dimension, corner), -1 for none
  uint8_t target;  // Target the finding was evaluated for (meaningful for per-target rules)
  int64_t value;   // the offending value (rule-specific meaning); see value_unsigned
  int64_t limit;   // the limit it broke (rule-specific meaning)
  bool value_unsigned;  // `value` holds the bits of a uint64_t (dims, strides, byte counts up to 2^64 - 1)
  uint64_t uvalue() const { return static_cast<uint64_t>(value); }  // messages print this where value_unsigned
};

inline constexpr int kMaxFindings = 96;

// A bounded, allocation-free list of findings.
class FindingList {
 public:
  void Clear() { size_ = 0; dropped_ = 0; }
  void Add(uint16_t rule, int index, int64_t value, int64_t limit, Target target = Target::kSm90) {
    if (size_ == kMaxFindings) { ++dropped_; return; }
    items_[size_++] = Finding{rule, static_cast<int8_t>(index), static_cast<uint8_t>(target), value, limit, false};
  }
  // For values that are unsigned 64-bit quantities (dims, strides, byte counts).
  void AddU(uint16_t rule, int index, uint64_t value, int64_t limit, Target target = Target::kSm90) {
    if (size_ == kMaxFindings) { ++dropped_; return; }
    items_[size_++] = Finding{rule, static_cast<int8_t>(index), static_cast<uint8_t>(target),
                              static_cast<int64_t>(value), limit, true};
  }
  int size() const { return size_; }
  int dropped() const { return dropped_; }
  const Finding& operator[](int i) const { return items_[i]; }
  const Finding* begin() const { return items_; }
  const Finding* end() const { return items_ + size_; }
  void Truncate(int n) { if (n < size_) size_ = n; }

 private:
  int size_ = 0;
  int dropped_ = 0;
  Finding items_[kMaxFindings];
};

// What a check sees.
struct CheckContext {
  const TensorMapSpec& spec;
  const DerivedFacts& facts;
  Target target;  // the target being checked (per-target rules only)
};

using CheckFn = void (*)(const CheckContext& ctx, uint16_t rule, FindingList* out);
// Writes a text of the finding (message, fix or field path) into *out (rule_text.h), appending.
using TextFn = void (*)(const TensorMapSpec& spec, const Finding& f, TextOut& out);
// The field path of a finding when it depends on the spec or the finding (static text: a path of the table).
using FieldFn = std::string_view (*)(const TensorMapSpec& spec, const Finding& f);
// Moves `spec` toward validity for this finding; returns false when no automatic change is known.
using PatchFn = bool (*)(const Finding& f, TensorMapSpec* spec);

inline constexpr uint8_t kAllModes = 0x3f;
constexpr uint8_t ModeBit(Mode m) { return static_cast<uint8_t>(1u << static_cast<int>(m)); }

struct Rule {
  std::string_view id;
  Severity severity;
  uint8_t modes;     // ModeBit()s the rule applies to
  bool per_target;   // verdict depends on the target; checked once per target
  std::string_view field;    // field path; "[i]" stands for the finding's index
  std::string_view summary;  // the requirement in one sentence
  CheckFn check;
  TextFn message;   // what is wrong and why, with the values
  TextFn fix;       // the nearest valid value or an alternative configuration
  PatchFn patch;    // may be null
  std::string_view source;   // cuda.h function doc, PTX ISA section, Programming Guide, or measurement
  FieldFn field_path = nullptr;  // the field path when it depends on the spec or the finding; else `field`
};

// The table. Index = Finding::rule.
const Rule* Rules();
int NumRules();
// Index of a rule by id, or -1.
int FindRule(std::string_view id);
// The findings of each severity: counts[static_cast<int>(Severity)] (errors, warnings, notes).
void CountBySeverity(const FindingList& findings, int counts[3]);

// How many findings of each severity a run of the rules added (those a full FindingList dropped not counted,
// as CountBySeverity does not see them either).
struct SeverityCounts {
  int errors = 0, warnings = 0, notes = 0;
};
// Runs every rule of one kind (target-independent, or per-target for ctx.target) that applies to the
// spec's mode, appending findings to *out. Returns the counts of the findings added, by severity (the table's
// severities are compile-time constants, so counting costs one addition per rule that found something). The
// checks are called directly, not through the table's pointers, so that they can be inlined.
SeverityCounts RunRules(const CheckContext& ctx, bool per_target, FindingList* out);

// Rendering helpers.
std::string FieldPath(const Rule& r, const TensorMapSpec& s, const Finding& f);  // "global_strides[0]"
RuleText FieldText(const Rule& r, const TensorMapSpec& s, const Finding& f);     // the same, on the stack
void WriteField(const Rule& r, const TensorMapSpec& s, const Finding& f, TextOut& out);  // the same, appended
RuleText MessageText(const Rule& r, const TensorMapSpec& s, const Finding& f);   // r.message, on the stack
RuleText FixText(const Rule& r, const TensorMapSpec& s, const Finding& f);       // r.fix, on the stack

namespace rule_internal {
// Each rule's field path by the finding's index: at[index + 1] for the indices -1 to 7, for a path with "[i]"
// the path with the index written in (its text before "[i]" for index -1); at[9] for index 8 and over: none
// (a view without data: WriteField writes it). A path without "[i]" is at every position.
struct StaticFieldPaths {
  std::string_view at[10];
};
extern const StaticFieldPaths* const kStaticFieldPaths;  // index = Finding::rule (rules.cc)
}  // namespace rule_internal

// The field path of finding f as static text (the table's, or one made at compile time for each "[i]" path and
// index 0-7), so a report can point at it without writing it: true, with *out set, for every finding of the
// table (an index outside 0-7 is written by WriteField instead). r is Rules()[f.rule]. Inline, a lookup in the
// table above, because a report calls it for every finding it explains.
inline bool StaticField(const Rule& r, const TensorMapSpec& s, const Finding& f, std::string_view* out) {
  if (r.field_path != nullptr) {
    *out = r.field_path(s, f);
    return true;
  }
  unsigned at = static_cast<unsigned>(f.index + 1);
  if (at > 9) at = f.index < 0 ? 0 : 9;  // below -1 as -1 (the path before "[i]"), above 8 as 8
  *out = rule_internal::kStaticFieldPaths[f.rule].at[at];
  return out->data() != nullptr;
}

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_RULE_H_
