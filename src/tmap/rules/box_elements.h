// box_elements.h: the rules about the box and the element strides.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in box_elements.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_BOX_ELEMENTS_H_
#define TMAPGEN_SRC_TMAP_RULES_BOX_ELEMENTS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- box ----
inline void CheckBoxRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint32_t b = c.spec.box_dim[i];
    if (b == 0 || b > 256) o->Add(r, static_cast<int>(i), b, 256);
  }
}
void MsgBoxRange(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixBoxRange(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchBoxRange(const Finding& f, TensorMapSpec* s);
inline void CheckBoxInner16(const CheckContext& c, uint16_t r, FindingList* o) {
  const int64_t bits = static_cast<int64_t>(c.spec.box_dim[0]) * c.facts.element_bits;
  if (bits % 128 != 0) o->Add(r, 0, bits, 128);
}
void MsgBoxInner16(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixBoxInner16(const TensorMapSpec& s, const Finding&, TextOut& o);
bool PatchBoxInner16(const Finding&, TensorMapSpec* s);
inline void CheckBoxPacked128(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAlign16BPacked(c.spec.data_type) && c.spec.box_dim[0] != 128) o->Add(r, 0, c.spec.box_dim[0], 128);
}
void MsgBoxPacked128(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixBoxPacked128(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchBoxPacked128(const Finding&, TensorMapSpec* s);
inline void CheckBoxExceedsTensor(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint64_t d = c.spec.global_dim[i];
    if (d != 0 && c.spec.box_dim[i] > d) o->Add(r, static_cast<int>(i), c.spec.box_dim[i], static_cast<int64_t>(d));
  }
}
void MsgBoxExceedsTensor(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixBoxExceedsTensor(const TensorMapSpec&, const Finding& f, TextOut& o);
inline void CheckGather4BoxRows(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.box_dim[1] != 1) o->Add(r, 1, c.spec.box_dim[1], 1);
}
void MsgGather4BoxRows(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixGather4BoxRows(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchGather4BoxRows(const Finding&, TensorMapSpec* s);

// ---- element strides ----
inline void CheckElementStrideRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint32_t e = c.spec.element_strides[i];
    if (e == 0 || e > 8) o->Add(r, static_cast<int>(i), e, 8);
  }
}
void MsgElementStrideRange(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixElementStrideRange(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchElementStrideRange(const Finding& f, TensorMapSpec* s);
inline void CheckElementStrideDim0(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t e = c.spec.element_strides[0];
  if (c.spec.interleave == Interleave::kNone && Rank(c.spec) >= 1 && e >= 2 && e <= 8) o->Add(r, 0, e, 1);
}
void MsgElementStrideDim0(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixElementStrideDim0(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchElementStrideDim0(const Finding&, TensorMapSpec* s);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_BOX_ELEMENTS_H_
