// data_type.h: the rules about the element type: packed sub-byte types and the NaN fill.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in data_type.cc; they run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_DATA_TYPE_H_
#define TMAPGEN_SRC_TMAP_RULES_DATA_TYPE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- helpers ----
inline bool SwizzleAllowedForPacked(const TensorMapSpec& s, Swizzle w) {
  const bool wide = IsWideMode(s.mode);
  switch (s.data_type) {
    case DataType::k16U6Align16B:
      if (wide) return w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
      return w == Swizzle::kNone || w == Swizzle::k128B || w == Swizzle::k128BAtom32B || w == Swizzle::k128BAtom64B;
    case DataType::k16U4Align16B:
      if (wide) return w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
      return w == Swizzle::kNone || w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
    default:
      return true;
  }
}

// ---- packed (sub-byte) types ----
inline void CheckPackedU6Interleave(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.data_type == DataType::k16U6Align16B && c.spec.interleave != Interleave::kNone)
    o->Add(r, -1, static_cast<int>(c.spec.interleave), 0);
}
void MsgPackedU6Interleave(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckPackedSwizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAlign16BPacked(c.spec.data_type) && !SwizzleAllowedForPacked(c.spec, c.spec.swizzle))
    o->Add(r, -1, static_cast<int>(c.spec.swizzle), 0);
}
void MsgPackedSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixPackedSwizzle(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchSwizzle128(const Finding&, TensorMapSpec* s);
// value: 1 = 16U4_ALIGN16B store/reduce, 2 = 16U6 + 128B_ATOM_64B load, 3 = sub-byte reduce
inline void CheckPackedDirection(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (!IsSubByte(s.data_type)) return;
  if (s.direction == Direction::kReduce) { o->Add(r, -1, 3, 0); return; }
  if (s.data_type == DataType::k16U4Align16B && s.direction == Direction::kStore) o->Add(r, -1, 1, 0);
  if (s.data_type == DataType::k16U6Align16B && s.swizzle == Swizzle::k128BAtom64B && IsLoad(s.direction))
    o->Add(r, -1, 2, 0);
}
void MsgPackedDirection(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixPackedDirection(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchPackedDirection(const Finding& f, TensorMapSpec* s);
inline void CheckOobNanFloat(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.oob_fill == OobFill::kNanRequestZeroFma && !IsFloat(c.spec.data_type))
    o->Add(r, -1, static_cast<int>(c.spec.data_type), 0);
}
void MsgOobNanFloat(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixOobNanFloat(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchOobNone(const Finding&, TensorMapSpec* s);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_DATA_TYPE_H_
