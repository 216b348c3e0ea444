// direction.cc: messages, fixes, patches and field paths of the rules about the declared use: modes per
//   direction, the 8-byte flip, reduction operations, stores past the end of a row (direction.h).
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

// ---- stores past the end of a row ----
namespace {
// The dimension that steps from one row to the next: the first one after dimension 0 with more than one
// position (0 when the tensor is a single row: rank 1, or every other dimension of extent 1).
uint32_t NextRowDim(const TensorMapSpec& s) {
  for (uint32_t i = 1; i < Rank(s); ++i)
    if (s.global_dim[i] > 1) return i;
  return 0;
}
}  // namespace

void CheckStorePastRowEndOfStore(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.interleave != Interleave::kNone) return;
  const uint64_t d0 = s.global_dim[0];
  if (d0 - 1 >= k2Pow32) return;  // 0 or over 2^32: global-dim-range reports those
  const uint64_t row = (d0 * static_cast<uint64_t>(DataTypeBits(s.data_type)) + 7) / 8;  // RowBytes: no overflow here
  if ((row & 15) != 0) o->AddU(r, 0, row, static_cast<int64_t>(RoundUpTo(row, 16)));
}

void MsgStorePastRowEnd(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint64_t row = f.uvalue(), chunked = static_cast<uint64_t>(f.limit), past = chunked - row;
  const bool store = s.direction == Direction::kStore;
  const uint32_t next = NextRowDim(s);
  TextAppend(&o, store ? "a store writes" : "a reduction combines into", " whole 16-byte chunks along dimension 0 (measured "
             "on an H200, docs/model.md M7): global_dim[0] = ", s.global_dim[0], " ", DT(s), " elements make a row of ", row,
             " bytes, so a copy that reaches the end of a row also ", store ? "writes" : "reduces into", " bytes ", row,
             "-", chunked - 1, " of it, ", past, " byte", past == 1 ? "" : "s", " past its end");
  if (next == 0)
    return TextAppend(&o, ": the tensor is one row, so they land past its last element, on whatever follows the tensor "
                      "in memory");
  const uint64_t pitch = s.global_strides[next - 1];
  if (pitch >= chunked)
    return TextAppend(&o, ": before the next row they land in the ", pitch - row, " bytes that the row pitch global_strides[",
                      next - 1, "] = ", pitch, " B leaves after each row (padding, or the next columns of a wider tensor "
                      "this map is a view of); after the tensor's last row they land past its last element, on whatever "
                      "follows the tensor in memory");
  return TextAppend(&o, ": the row pitch global_strides[", next - 1, "] = ", pitch, " B is shorter than the ", chunked,
                    " bytes of whole chunks, so they land on the next row's first bytes; after the tensor's last row they "
                    "land past its last element, on whatever follows the tensor in memory");
}
void FixStorePastRowEnd(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint64_t row = f.uvalue(), chunked = static_cast<uint64_t>(f.limit), past = chunked - row;
  const uint64_t bits = static_cast<uint64_t>(DataTypeBits(s.data_type));
  const uint64_t whole = row & ~uint64_t{15};  // bytes of the row's whole chunks
  const uint64_t whole_elements = whole * 8 / bits, chunked_elements = chunked * 8 / bits;
  const uint64_t rest = s.global_dim[0] - whole_elements;
  TextAppend(&o, "if the ", past, " bytes after each row are yours to overwrite, keep the map and give the allocation ",
             past, " bytes of slack after the tensor's last row (or say so in the map: global_dim[0] = ", chunked_elements,
             ", a whole number of chunks); if they are not (the next columns of a wider tensor, other data after the "
             "tensor), ");
  if (whole == 0)
    return TextAppend(&o, "write the rows by other means (st.global from registers): a row of ", row,
                      " bytes is shorter than one 16-byte chunk");
  return TextAppend(&o, "store through a map with global_dim[0] = ", whole_elements, " (the row's whole 16-byte chunks) and "
                    "write the last ", rest, " element", rest == 1 ? "" : "s", " of each row by other means (st.global "
                    "from registers)");
}

}  // namespace tmapgen::rules
