// swizzle_interleave.cc: messages, fixes, patches and field paths of the rules about the swizzle span and
//   interleaved layouts (swizzle_interleave.h).
#include "src/tmap/rules/swizzle_interleave.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- swizzle ----
namespace {
// The field that holds the inner box dimension: channels_per_pixel in the im2col modes, box_dim[0] otherwise.
std::string_view InnerName(const TensorMapSpec& s) {
  return IsIm2colMode(s.mode) ? "channels_per_pixel" : "box_dim[0]";
}
uint32_t InnerCount(const TensorMapSpec& s) { return IsIm2colMode(s.mode) ? s.channels_per_pixel : s.box_dim[0]; }
}  // namespace
void MsgSwizzleSpan(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, InnerName(s), " = ", InnerCount(s), " x ", DT(s), " = ", f.value, " B exceeds the ", f.limit,
             " B swizzle span of ", SW(s.swizzle), ": the inner box dimension must fit in one span");
}
void FixSwizzleSpan(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint64_t fit = static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(DataTypeSmemBits(s.data_type));
  const uint64_t copies = (static_cast<uint64_t>(f.value) + static_cast<uint64_t>(f.limit) - 1) / static_cast<uint64_t>(f.limit);
  return TextAppend(&o, "use ", InnerName(s), " = ", fit, " and ", copies, " copies",
                    When(f.limit < 128, ", a wider swizzle (CU_TENSOR_MAP_SWIZZLE_128B holds 128 B)"),
                    ", or CU_TENSOR_MAP_SWIZZLE_NONE");
}
bool PatchSwizzleSpan(const Finding& f, TensorMapSpec* s) {
  const uint32_t fit = static_cast<uint32_t>(static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(DataTypeSmemBits(s->data_type)));
  if (IsIm2colMode(s->mode)) s->channels_per_pixel = fit; else s->box_dim[0] = fit;
  return true;
}
void MsgSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "the inner box dimension (", f.value, " B) is narrower than the ", f.limit, " B span of ",
             SW(s.swizzle), ": the swizzle still permutes 16-byte chunks across the whole span, so readers must "
             "use the same swizzle and the buffer must cover whole spans");
}
void FixSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "allocate shared memory in whole ", f.limit, " B spans (the footprint in this report does)",
             When(f.value == 32, ", or use CU_TENSOR_MAP_SWIZZLE_32B, whose span equals the row"),
             When(f.value == 64, ", or use CU_TENSOR_MAP_SWIZZLE_64B, whose span equals the row"),
             "; readers of ", InnerName(s), " rows must apply ", SW(s.swizzle));
}
void MsgInterleave32Swizzle(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "CU_TENSOR_MAP_INTERLEAVE_32B requires CU_TENSOR_MAP_SWIZZLE_32B, not ", SW(s.swizzle),
             " (cuda.h); the tested driver does not enforce this and encodes the map anyway (", kMeasured,
             "), so the layout in shared memory is undocumented");
}
void FixInterleave32Swizzle(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "set swizzle = CU_TENSOR_MAP_SWIZZLE_32B, or use CU_TENSOR_MAP_INTERLEAVE_16B");
}
bool PatchSwizzle32(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k32B;
  return true;
}
void MsgInterleaveMode(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, Name(s.mode), " does not support interleaved layouts (", FullName(s.interleave), ")",
                    When(IsWideMode(s.mode), "; the tested driver encodes it anyway (", kMeasured, ")"));
}
void FixInterleaveMode(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "use CU_TENSOR_MAP_INTERLEAVE_NONE with the channels innermost (NHWC)");
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfInnerBox(const TensorMapSpec& s, const Finding&) { return InnerName(s); }

}  // namespace tmapgen::rules
