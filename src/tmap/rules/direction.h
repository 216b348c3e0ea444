// direction.h: the rules about the declared use: modes per direction, the 8-byte flip, reduction operations,
//   stores past the end of a row.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in direction.cc; they run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_DIRECTION_H_
#define TMAPGEN_SRC_TMAP_RULES_DIRECTION_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- mode and direction ----
inline bool DirectionAllowed(Mode m, Direction d) {
  switch (m) {
    case Mode::kGather4: case Mode::kIm2colW128: return IsLoad(d) || d == Direction::kPrefetch;
    case Mode::kScatter4: return d == Direction::kStore;
    default: return true;
  }
}
inline void CheckModeDirection(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!DirectionAllowed(c.spec.mode, c.spec.direction)) o->Add(r, -1, static_cast<int>(c.spec.direction), 0);
}
void MsgModeDirection(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixModeDirection(const TensorMapSpec& s, const Finding&, TextOut& o);
bool PatchModeDirection(const Finding&, TensorMapSpec* s);
inline void CheckFlip8bLoadOnly(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.swizzle == Swizzle::k128BAtom32BFlip8B && IsStoreLike(c.spec.direction))
    o->Add(r, -1, static_cast<int>(c.spec.direction), 0);
}
void MsgFlip8bLoadOnly(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixFlip8bLoadOnly(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchSwizzleAtom32(const Finding&, TensorMapSpec* s);
inline bool ReduceAllowed(ReduceOp op, DataType t) {
  const int bits = DataTypeBits(t);
  switch (op) {
    case ReduceOp::kAdd:
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64 || t == DataType::kFloat32 ||
             t == DataType::kFloat16 || t == DataType::kBfloat16;
    case ReduceOp::kMin: case ReduceOp::kMax:
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64 || t == DataType::kInt64 ||
             t == DataType::kFloat16 || t == DataType::kBfloat16;
    case ReduceOp::kInc: case ReduceOp::kDec:
      return t == DataType::kUint32;
    case ReduceOp::kAnd: case ReduceOp::kOr: case ReduceOp::kXor:
      // PTX lists .b32 and .b64; on an H200 the bitwise reductions of f32, f32_ftz, f64, tf32, tf32_ftz and
      // s64 tensors raise an illegal instruction, while u32, s32 and u64 work (docs/hardware.md, GPU checks).
      (void)bits;
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64;
  }
  return false;
}
inline void CheckReduceOpType(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.direction == Direction::kReduce && !IsSubByte(s.data_type) && !ReduceAllowed(s.reduce_op, s.data_type))
    o->Add(r, -1, static_cast<int>(s.reduce_op), 0);
}
void MsgReduceOpType(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixReduceOpType(const TensorMapSpec& s, const Finding&, TextOut& o);

// ---- stores past the end of a row ----
// Measured on an H200 (docs/model.md M7): along dimension 0 a store or a reduction writes the whole 16-byte
// chunk that holds a row's last element, so a row whose bytes (global_dim[0] x element size) are not a multiple
// of 16 gets the rest of that chunk written past its end. Interleaved maps count dimension 0 in whole 16- or
// 32-byte slices (M6): their rows end on a chunk. Value: the row's bytes; limit: the row rounded up to 16 bytes.
// Stores and reductions only: the rest is out of line (direction.cc), so that the check costs loads one test.
void CheckStorePastRowEndOfStore(const CheckContext& c, uint16_t r, FindingList* o);
inline void CheckStorePastRowEnd(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsStoreLike(c.spec.direction)) CheckStorePastRowEndOfStore(c, r, o);
}
void MsgStorePastRowEnd(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixStorePastRowEnd(const TensorMapSpec& s, const Finding& f, TextOut& o);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_DIRECTION_H_
