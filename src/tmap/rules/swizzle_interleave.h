// swizzle_interleave.h: the rules about the swizzle span and interleaved layouts.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in swizzle_interleave.cc; they
//   run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_SWIZZLE_INTERLEAVE_H_
#define TMAPGEN_SRC_TMAP_RULES_SWIZZLE_INTERLEAVE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- swizzle ----
inline void CheckSwizzleSpan(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.interleave != Interleave::kNone || s.swizzle == Swizzle::kNone) return;
  if (c.facts.inner_box_bytes > c.facts.swizzle_span)
    o->Add(r, -1, static_cast<int64_t>(c.facts.inner_box_bytes), c.facts.swizzle_span);
}
void MsgSwizzleSpan(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixSwizzleSpan(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchSwizzleSpan(const Finding& f, TensorMapSpec* s);
inline void CheckSwizzleBelowSpan(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.interleave != Interleave::kNone || s.swizzle == Swizzle::kNone) return;
  const uint64_t inner = c.facts.inner_box_bytes;
  if (inner > 0 && inner % 16 == 0 && inner < c.facts.swizzle_span)
    o->Add(r, -1, static_cast<int64_t>(inner), c.facts.swizzle_span);
}
void MsgSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f, TextOut& o);
inline void CheckInterleave32Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave == Interleave::k32B && c.spec.swizzle != Swizzle::k32B)
    o->Add(r, -1, static_cast<int>(c.spec.swizzle), static_cast<int>(Swizzle::k32B));
}
void MsgInterleave32Swizzle(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixInterleave32Swizzle(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchSwizzle32(const Finding&, TensorMapSpec* s);
inline void CheckInterleaveMode(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave != Interleave::kNone) o->Add(r, -1, static_cast<int>(c.spec.interleave), 0);
}
void MsgInterleaveMode(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixInterleaveMode(const TensorMapSpec&, const Finding&, TextOut& o);

// ---- field paths that depend on the spec ----
std::string_view FieldOfInnerBox(const TensorMapSpec& s, const Finding&);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_SWIZZLE_INTERLEAVE_H_
