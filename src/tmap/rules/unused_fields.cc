// unused_fields.cc: messages, fixes, patches and field paths of the rules about fields the chosen mode or
//   direction ignores (unused_fields.h).
#include "src/tmap/rules/unused_fields.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- unused fields ----
namespace {
std::string_view FieldName(uint32_t bit) {
  switch (bit) {
    case kFieldBoxDim: return "box_dim";
    case kFieldChannelsPerPixel: return "channels_per_pixel";
    case kFieldPixelsPerColumn: return "pixels_per_column";
    case kFieldLowerCorner: return "pixel_box_lower_corner";
    case kFieldUpperCorner: return "pixel_box_upper_corner";
    case kFieldLowerCornerWidth: return "pixel_box_lower_corner_width";
    case kFieldUpperCornerWidth: return "pixel_box_upper_corner_width";
    case kFieldWideMode: return "wide_mode";
    case kFieldReduceOp: return "reduce_op";
    default: return "field";
  }
}
}  // namespace
void MsgUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint32_t bit = static_cast<uint32_t>(f.value);
  const bool op = bit == kFieldReduceOp;
  return TextAppend(&o, FieldName(bit), " is ignored with ", When(op, "direction ", Name(s.direction)),
                    When(!op, "mode ", Name(s.mode)));
}
void FixUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "remove ", FieldName(static_cast<uint32_t>(f.value)), ", or check that mode ", Name(s.mode), " is the one meant");
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfUnused(const TensorMapSpec&, const Finding& f) { return FieldName(static_cast<uint32_t>(f.value)); }

}  // namespace tmapgen::rules
