// per_target.cc: messages, fixes, patches and field paths of the rules checked once per target:
//   Blackwell-only features, shared-memory capacity, the driver's box limit (per_target.h).
#include "src/tmap/rules/per_target.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- targets ----
void MsgTargetAtomicity(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, SW(s.swizzle), " needs compute capability 10.0 or later; ", Name(static_cast<Target>(f.target)),
             " is ", f.value / 10, ".", f.value % 10, " (the sm_90 driver rejects it: ", kMeasured, ")");
}
void FixTargetAtomicity(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "on sm_90 use CU_TENSOR_MAP_SWIZZLE_128B (16-byte atomicity)");
}
void MsgTargetSubByte(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, FullName(s.data_type), " needs compute capability 10.0 or later; ", Name(static_cast<Target>(f.target)),
             " does not have sub-byte tensor copies (the sm_90 driver rejects the 16U4 types: ", kMeasured, ")");
}
void FixTargetSubByte(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "on sm_90 copy packed data as CU_TENSOR_MAP_DATA_TYPE_UINT8 (two 4-bit values per byte) and unpack in registers");
}
void MsgTargetMode(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const Target t = static_cast<Target>(f.target);
  // Views of the literals (a const char* chosen first would be measured by strlen), and the tail appended in
  // place (no RuleText, and std::string, for it).
  const std::string_view need =
      (s.mode == Mode::kScatter4 || s.mode == Mode::kIm2colW128 || s.direction == Direction::kLoadCluster ||
       s.direction == Direction::kPrefetch)
          ? std::string_view("sm_100a, sm_101a, sm_103a, sm_110a or their family targets (sm_100f, sm_103f, sm_110f)")
          : std::string_view("compute capability 10.0 or later");
  TextAppend(&o, Name(s.mode), " (", Name(s.direction), ") needs ", need, "; not ", Name(t));
  if (IsWideMode(s.mode) && Info(t).cc < 100)
    TextAppend(&o, "; the sm_90 driver encodes Im2colWide maps although cuda.h says compute capability "
               "10.0 or higher (", kMeasured, "), but no sm_90 instruction can use them");
}
void FixTargetMode(const TensorMapSpec& s, const Finding&, TextOut& o) {
  switch (s.mode) {
    case Mode::kGather4: return TextAppend(&o, "on this target load the four rows with four tiled copies of box [cols, 1]");
    case Mode::kScatter4: return TextAppend(&o, "on this target store the four rows with four tiled copies");
    default: return TextAppend(&o, "on this target use mode im2col (cuTensorMapEncodeIm2col), or compile for sm_100a");
  }
}
void MsgTargetSm120Cluster(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "on ", Name(static_cast<Target>(f.target)), " copies to .shared::cluster support neither sub-byte types nor "
             "swizzle atomicity (", IsSubByte(s.data_type) ? FullName(s.data_type) : FullName(s.swizzle), ")");
}
void FixTargetSm120Cluster(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "load to .shared::cta (direction load) instead");
}
void MsgTargetSmemCapacity(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const Target t = static_cast<Target>(f.target);
  TextAppend(&o, "one copy needs ", f.uvalue(), " B of shared memory, more than the ", f.limit,
                          " B a block can have on ", Name(t), ": no kernel can receive it");
  if (s.mode == Mode::kIm2colW128) {
    const uint64_t driver_box = DriverBoxBytes(s);
    TextAppend(&o, " (im2col::w::128 always moves 128 pixels x ", s.channels_per_pixel, " channels, PTX ISA 5.5.5); ");
    if (driver_box <= static_cast<uint64_t>(DriverBoxLimit(t)))
      TextAppend(&o, "the driver accepts the map, because it sizes the box from pixels_per_column = ",
                 s.pixels_per_column, " (", driver_box, " B; docs/hardware.md B5)");
    else
      TextAppend(&o, "the driver rejects the map as well (box-driver-size-limit)");
  }
}
// One TextAppend each (the parts that depend on the mode and the direction as When pieces): a report explains
// these for every target that a box too large fails.
void MsgBoxDriverLimit(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const bool im2col = IsIm2colMode(s.mode);
  return TextAppend(
      &o, "the box the driver checks (",
      When(im2col, "channels_per_pixel x pixels_per_column = ", s.channels_per_pixel, " x ", s.pixels_per_column),
      When(s.mode == Mode::kIm2colW128,
           " (the driver counts pixels_per_column even in im2col::w::128 mode, docs/hardware.md B5)"),
      When(!im2col, "the box"), ") is ", f.uvalue(), " B, more than the ", f.limit, " B of shared memory per SM on ",
      Name(static_cast<Target>(f.target)), ": the driver rejects such a map for every use",
      When(s.direction == Direction::kPrefetch, ", prefetch included"), " (", kMeasured,
      ": 233,472 B accepted, 234,496 B rejected; docs/hardware.md B1, B5)");
}
void FixTargetSmemCapacity(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const bool im2col = IsIm2colMode(s.mode);
  const uint32_t outer = s.rank > 1 ? s.rank - 1 : 0;
  return TextAppend(&o, "split the box: at most ", f.limit, " B per copy, for example halve ",
                    When(im2col, "pixels_per_column"), When(!im2col, "box_dim[", outer, "]"));
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfBoxSize(const TensorMapSpec& s, const Finding&) {
  return IsIm2colMode(s.mode) ? "pixels_per_column" : "box_dim";
}

}  // namespace tmapgen::rules
