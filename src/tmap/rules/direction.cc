// direction.cc: messages, fixes, patches and field paths of the rules about the declared use: modes per
//   direction, the 8-byte flip, reduction operations (direction.h).
#include "src/tmap/rules/direction.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- mode and direction ----
void MsgModeDirection(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const char* allowed = s.mode == Mode::kScatter4 ? "store only (cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4)"
                                                   : "loads and prefetch only";
  return TextAppend(&o, Name(s.mode), " is ", allowed, "; direction ", Name(s.direction), " does not exist for it");
}
void FixModeDirection(const TensorMapSpec& s, const Finding&, TextOut& o) {
  switch (s.mode) {
    case Mode::kGather4: return TextAppend(&o, "store rows with scatter4 (mode scatter4, direction store)");
    case Mode::kScatter4: return TextAppend(&o, "load rows with gather4 (mode gather4, direction load)");
    default: return TextAppend(&o, "store through an im2col::w or im2col map (.im2col_no_offs)");
  }
}
bool PatchModeDirection(const Finding&, TensorMapSpec* s) {
  s->direction = s->mode == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta;
  return true;
}
void MsgFlip8bLoadOnly(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B is legal only for copies into shared memory, not for ",
             Name(s.direction));
}
void FixFlip8bLoadOnly(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "store with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (the same layout without the 8-byte flip)");
}
bool PatchSwizzleAtom32(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k128BAtom32B;
  return true;
}
void MsgReduceOpType(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const bool bitwise = s.reduce_op == ReduceOp::kAnd || s.reduce_op == ReduceOp::kOr || s.reduce_op == ReduceOp::kXor;
  const int bits = DataTypeBits(s.data_type);
  return TextAppend(&o, "cp.reduce.async.bulk.tensor .", Name(s.reduce_op), " does not support ", PtxElemType(s.data_type),
             " (", FullName(s.data_type), ")",
             When(bitwise && (bits == 32 || bits == 64),
                  "; PTX lists .b32/.b64, but on an H200 the bitwise reductions of float and s64 tensors raise an "
                  "illegal instruction (docs/hardware.md, GPU checks)"));
}
void FixReduceOpType(const TensorMapSpec& s, const Finding&, TextOut& o) {
  RuleText ops;
  for (int i = 0; i < kNumReduceOps; ++i) {
    if (ReduceAllowed(static_cast<ReduceOp>(i), s.data_type)) {
      if (!ops.empty()) ops += ", ";
      ops += Name(static_cast<ReduceOp>(i));
    }
  }
  if (ops.empty()) return TextAppend(&o, "no reduction supports ", ShortName(s.data_type), "; reduce in f32, f16, bf16, u32, s32 or u64");
  return TextAppend(&o, "operations that support ", ShortName(s.data_type), ": ", ops);
}

}  // namespace tmapgen::rules
