// box_elements.cc: messages, fixes, patches and field paths of the rules about the box and the element strides
//   (box_elements.h).
#include "src/tmap/rules/box_elements.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- box ----
void MsgBoxRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.value == 0)
    return TextAppend(&o, "box_dim[", f.index, "] ", BoxOrder(s, f.index), " = 0: a box has at least one element per dimension");
  return TextAppend(&o, "box_dim[", f.index, "] ", BoxOrder(s, f.index), " = ", f.value,
                    " exceeds 256 elements, the largest box extent");
}
namespace {
// Whether box_dim[i] > 256 becomes the whole dimension: when the tensor has at most 256 elements along it (so that
// the fix, the nearest valid configuration and box-exceeds-tensor name one value); else 256.
bool WholeDimension(const TensorMapSpec& s, int i) { return s.global_dim[i] >= 1 && s.global_dim[i] <= 256; }
uint64_t BoxRangeTarget(const TensorMapSpec& s, int i) { return WholeDimension(s, i) ? s.global_dim[i] : 256; }
}  // namespace
void FixBoxRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.value == 0) return TextAppend(&o, "set box_dim[", f.index, "] to at least 1");
  if (WholeDimension(s, f.index))
    return TextAppend(&o, "use box_dim[", f.index, "] = ", s.global_dim[f.index], ", the whole of global_dim[", f.index,
                      "]: one copy covers the dimension");
  const uint64_t d = s.global_dim[f.index];
  const uint64_t covered = d != 0 && d < static_cast<uint64_t>(f.value) ? d : static_cast<uint64_t>(f.value);
  return TextAppend(&o, "use box_dim[", f.index, "] = 256 and ", (covered + 255) / 256, " copies along dimension ", f.index);
}
bool PatchBoxRange(const Finding& f, TensorMapSpec* s) {
  s->box_dim[f.index] = f.value == 0 ? 1 : static_cast<uint32_t>(BoxRangeTarget(*s, f.index));
  return true;
}
void MsgBoxInner16(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "box_dim[0] ", BoxOrder(s, 0), " = ", s.box_dim[0], " x ", DT(s), " = ", Bits(f.value),
             " is not a multiple of 16 bytes, as every box row must be");
}
namespace {
uint32_t NearestInner16(const TensorMapSpec& s) {
  const uint32_t step = Inner16Step(DataTypeBits(s.data_type));
  uint32_t up = (s.box_dim[0] + step - 1) / step * step;
  if (up == 0) up = step;
  const uint32_t down = s.box_dim[0] / step * step;
  if (up > 256 && down > 0) return down;
  return up;
}
}  // namespace
void FixBoxInner16(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const uint32_t n = NearestInner16(s);
  return TextAppend(&o, "use box_dim[0] = ", n, " (", Bits(static_cast<int64_t>(n) * DataTypeBits(s.data_type)),
             "); elements past the tensor's edge are filled, not read");
}
bool PatchBoxInner16(const Finding&, TensorMapSpec* s) {
  s->box_dim[0] = NearestInner16(*s);
  return true;
}
void MsgBoxPacked128(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "box_dim[0] ", BoxOrder(s, 0), " = ", f.value, ": ", FullName(s.data_type),
                    " copies rows of exactly 128 elements");
}
void FixBoxPacked128(const TensorMapSpec&, const Finding&, TextOut& o) { return TextAppend(&o, "set box_dim[0] = 128"); }
bool PatchBoxPacked128(const Finding&, TensorMapSpec* s) {
  s->box_dim[0] = 128;
  return true;
}
void MsgBoxExceedsTensor(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  // What one step of dimension i is in the box: an element of a row (0), a row (1), a slice of rows (2 and up).
  const int i = f.index;
  const int64_t n = f.value - f.limit;
  return TextAppend(&o, "box_dim[", i, "] ", BoxOrder(s, f.index), " = ", f.value, " is larger than global_dim[", i,
             "] = ", f.limit, ": every copy fills ", n, When(i == 0, " element"), When(i == 1, " row"),
             When(i >= 2, " slice"), When(n != 1, 's'), When(i == 0, " per row"), When(i >= 2, " along dimension ", i),
             " with ",
             s.oob_fill == OobFill::kNone ? "zeros" : "OOB-NaN", " and still counts them in the transaction bytes");
}
void FixBoxExceedsTensor(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "box_dim[", f.index, "] = ", f.limit, " moves only real data, if the consumer allows it");
}
void MsgGather4BoxRows(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "box_dim[1] ", BoxOrder(s, 1), " = ", f.value, ": in ", Name(s.mode),
                    " mode each of the four rows is its own box, "
             "so the box is one row high");
}
void FixGather4BoxRows(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "set box_dim[1] = 1; the instruction's four row indices choose the rows");
}
bool PatchGather4BoxRows(const Finding&, TensorMapSpec* s) {
  s->box_dim[1] = 1;
  return true;
}

// ---- element strides ----
void MsgElementStrideRange(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "element_strides[", f.index, "] = ", f.value, " is outside 1..8");
}
void FixElementStrideRange(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "use element_strides[", f.index, "] = ", f.value == 0 ? 1 : 8,
             f.value > 8 ? "; for larger steps describe a coarser dimension with a larger global stride" : "");
}
bool PatchElementStrideRange(const Finding& f, TensorMapSpec* s) {
  s->element_strides[f.index] = f.value == 0 ? 1 : 8;
  return true;
}
void MsgElementStrideDim0(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "element_strides[0] = ", f.value,
             " is ignored without interleave: the innermost dimension is always copied contiguously (cuda.h: "
             "\"the first element of this array is ignored\"; PTX ISA 5.5.3.2: it \"must always be 1\")");
}
void FixElementStrideDim0(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "set element_strides[0] = 1; to skip elements of dimension 0, use an interleaved layout or copy and "
         "discard");
}
bool PatchElementStrideDim0(const Finding&, TensorMapSpec* s) {
  s->element_strides[0] = 1;
  return true;
}

}  // namespace tmapgen::rules
