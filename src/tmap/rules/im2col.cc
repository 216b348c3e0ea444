// im2col.cc: messages, fixes, patches and field paths of the rules about im2col, im2col::w and im2col::w::128
//   maps: corners, channels, pixels, the wide modes (im2col.h).
#include "src/tmap/rules/im2col.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- im2col ----
RuleText MsgCorner(const TensorMapSpec& s, const Finding& f, std::string_view which) {
  return TextCat("pixel_box_", which, "_corner[", f.index, "] = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1,
             "], the range of a rank-", s.rank, " im2col corner");
}
void MsgLowerCorner(const TensorMapSpec& s, const Finding& f, TextOut& o) { return TextAppend(&o, MsgCorner(s, f, "lower")); }
void MsgUpperCorner(const TensorMapSpec& s, const Finding& f, TextOut& o) { return TextAppend(&o, MsgCorner(s, f, "upper")); }
void FixCorner(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "use ", f.value < 0 ? -f.limit : f.limit - 1,
             " (the nearest legal value); larger padding needs a smaller rank or explicit padding in memory");
}
bool PatchLowerCorner(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner[f.index] = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
bool PatchUpperCorner(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_upper_corner[f.index] = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
void MsgIm2colBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const int i = f.index;
  TextAppend(&o, "the bounding box along global_dim[", i + 1, "] spans global_dim[", i + 1, "] + upper - lower = ",
             s.global_dim[i + 1], " + (", s.pixel_box_upper_corner[i], ") - (", s.pixel_box_lower_corner[i], ") = ",
             f.value, " positions: it must have non-zero area");
  if (s.interleave != Interleave::kNone)  // appended in place: no RuleText (and std::string) for the tail
    TextAppend(&o, "; with an interleaved layout the tested driver checks this corner against global_dim[", i,
               "] instead and does not enforce the documented meaning (", kMeasured, "; docs/hardware.md B3)");
}
void MsgIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const int i = f.index;
  return TextAppend(&o, "with ", FullName(s.interleave), " the driver checks corner ", i, " against global_dim[", i, "]: ",
             s.global_dim[i], " + (", s.pixel_box_upper_corner[i], ") - (", s.pixel_box_lower_corner[i], ") = ", f.value,
             " is not positive, so it rejects the map (", kMeasured, "; docs/hardware.md B3; undocumented)");
}
void FixIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "make global_dim[", f.index, "] + pixel_box_upper_corner[", f.index, "] - pixel_box_lower_corner[", f.index,
             "] at least 1, or use CU_TENSOR_MAP_INTERLEAVE_NONE (", ShortName(s.interleave), " im2col layouts are not "
             "proven on hardware)");
}
void MsgIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  // The driver's check is int32(dim + upper) > lower: past 2^32 the sum wraps and the driver accepts
  // again (measured), with a pixel box that no longer describes the tensor.
  const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(f.value)));
  int32_t lower = 0;
  if (s.mode == Mode::kIm2col) {
    const int c = (s.interleave != Interleave::kNone && f.index < 3) ? f.index : f.index - 1;
    if (c >= 0 && c < 3) lower = s.pixel_box_lower_corner[static_cast<size_t>(c)];
  } else if (f.index <= 1) {
    lower = s.pixel_box_lower_corner_width;
  }
  const bool accepted = wrapped > lower;
  return TextAppend(&o, "global_dim[", f.index, "] = ", s.global_dim[f.index], " plus its upper corner is ", f.value,
             ", above 2^31 - 1: the driver computes the ", Name(s.mode), " pixel box in signed 32-bit arithmetic and ",
             When(accepted, "the driver's 32-bit check wraps around to ", wrapped,
                  " and accepts the map, but the pixel box it encodes does not describe this tensor"),
             When(!accepted, "the driver rejects it"), " (", kMeasured, "; docs/hardware.md B2; undocumented)");
}
void FixIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "keep global_dim[", f.index, "] + upper corner <= 2147483647: split the ", Name(s.mode),
             " tensor along that dimension into pieces with their own global_address");
}
void FixIm2colBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const int i = f.index;
  return TextAppend(&o, "make global_dim[", i + 1, "] + pixel_box_upper_corner[", i, "] - pixel_box_lower_corner[", i,
             "] at least 1, for example lower = ", std::min(0, s.pixel_box_lower_corner[i]), " and upper = 0");
}
bool PatchIm2colBoxArea(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner[f.index] = std::min(0, s->pixel_box_lower_corner[f.index]);
  s->pixel_box_upper_corner[f.index] = 0;
  return true;
}
void MsgChannelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (IsAlign16BPacked(s.data_type))
    return TextAppend(&o, "channels_per_pixel = ", f.value, ": ", FullName(s.data_type), " needs exactly 128 channels per pixel");
  if (f.value == 0) return TextAppend(&o, "channels_per_pixel = 0: a copy moves at least one channel (the driver rejects 0, ", kMeasured, ")");
  return TextAppend(&o, "channels_per_pixel = ", f.value, " exceeds 256");
}
void FixChannelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (IsAlign16BPacked(s.data_type)) return TextAppend(&o, "set channels_per_pixel = 128");
  if (f.value == 0) return TextAppend(&o, "set channels_per_pixel to the channels one copy should move (1..256)");
  return TextAppend(&o, "use channels_per_pixel = 256 and ", (f.value + 255) / 256, " copies along C");
}
bool PatchChannelsRange(const Finding& f, TensorMapSpec* s) {
  s->channels_per_pixel = IsAlign16BPacked(s->data_type) ? 128 : (f.value == 0 ? 16 : 256);
  return true;
}
void MsgChannelsBytes16(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "channels_per_pixel = ", s.channels_per_pixel, " x ", DT(s), " = ", Bits(f.value),
             " is not a multiple of 16 bytes: the driver rejects this although cuda.h does not say so (",
             kMeasured, ": 60 x f16 = 120 B rejected), and PTX ISA 5.5.3.1 asks every box row to be a multiple "
             "of 16 bytes");
}
namespace {
uint32_t NearestChannels16(const TensorMapSpec& s) {
  const uint32_t step = Inner16Step(DataTypeBits(s.data_type));
  uint32_t up = (s.channels_per_pixel + step - 1) / step * step;
  if (up > 256) up = s.channels_per_pixel / step * step;
  return up == 0 ? step : up;
}
}  // namespace
void FixChannelsBytes16(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "use channels_per_pixel = ", NearestChannels16(s), " (pad C in memory if the tensor has fewer channels)");
}
bool PatchChannelsBytes16(const Finding&, TensorMapSpec* s) {
  s->channels_per_pixel = NearestChannels16(*s);
  return true;
}
void MsgPixelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.value == 0)
    TextAppend(&o, "pixels_per_column = 0: a copy moves at least one pixel");
  else
    TextAppend(&o, "pixels_per_column = ", f.value, " exceeds 1024");
  if (s.mode == Mode::kIm2colW128)  // appended in place: no RuleText (and std::string) for the tail
    TextAppend(&o, "; im2col::w::128 ignores the value but the driver still range-checks it (", kMeasured, ")");
}
void FixPixelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (s.mode == Mode::kIm2colW128) return TextAppend(&o, "set pixels_per_column = 128");
  if (f.value == 0) return TextAppend(&o, "set pixels_per_column to the pixels one copy should move (1..1024)");
  return TextAppend(&o, "use pixels_per_column = 1024 and ", (f.value + 1023) / 1024, " copies");
}
bool PatchPixelsRange(const Finding& f, TensorMapSpec* s) {
  s->pixels_per_column = s->mode == Mode::kIm2colW128 ? 128 : (f.value == 0 ? 1 : 1024);
  return true;
}

// ---- im2col wide ----
namespace {
void WideCornerWhy(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.limit == 32768) return;
  return TextAppend(&o, ": cuda.h allows [-32768, 32767] at any rank, but the tested driver rejects values outside the rank-",
             s.rank, " im2col range (", kMeasured, "; docs/hardware.md B4)");
}
}  // namespace
void MsgWideLower(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  TextAppend(&o, "pixel_box_lower_corner_width = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1, "]");
  WideCornerWhy(s, f, o);
}
void MsgWideUpper(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  TextAppend(&o, "pixel_box_upper_corner_width = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1, "]");
  WideCornerWhy(s, f, o);
}
void FixWideCorner(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "use ", f.value < 0 ? -f.limit : f.limit - 1, " (the nearest legal value)");
}
bool PatchWideLower(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner_width = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
bool PatchWideUpper(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_upper_corner_width = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
void MsgWideBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  TextAppend(&o, "the bounding box along W spans global_dim[1] + upper - lower = ", s.global_dim[1], " + (",
             s.pixel_box_upper_corner_width, ") - (", s.pixel_box_lower_corner_width, ") = ", f.value,
             " positions: it must have non-zero area");
  if (s.interleave != Interleave::kNone)  // appended in place: no RuleText (and std::string) for the tail
    TextAppend(&o, "; with an interleaved layout the tested driver checks against global_dim[0] instead and does not "
               "enforce this (", kMeasured, "; docs/hardware.md B3)");
}
void FixWideBoxArea(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "for example pixel_box_lower_corner_width = ", std::min(0, s.pixel_box_lower_corner_width),
             " and pixel_box_upper_corner_width = 0");
}
bool PatchWideBoxArea(const Finding&, TensorMapSpec* s) {
  s->pixel_box_lower_corner_width = std::min(0, s->pixel_box_lower_corner_width);
  s->pixel_box_upper_corner_width = 0;
  return true;
}
void MsgWideSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const std::string_view why = s.swizzle == Swizzle::kNone ? "PTX ISA 5.5.5 requires a swizzle in these modes"
                    : s.swizzle == Swizzle::k128BAtom32BFlip8B ? "PTX ISA 5.5.5 forbids the 8-byte flip in these modes"
                                                               : "cuda.h lists only 64B, 128B and 128B_ATOM_32B";
  const bool encoded = s.swizzle == Swizzle::kNone || s.swizzle == Swizzle::k32B;
  return TextAppend(&o, Name(s.mode), " maps support CU_TENSOR_MAP_SWIZZLE_64B, _128B and _128B_ATOM_32B only, not ",
             SW(s.swizzle), ": ", why, When(encoded, "; the tested driver encodes it anyway (", kMeasured, ")"));
}
void FixWideSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const uint64_t inner = (static_cast<uint64_t>(s.channels_per_pixel) * static_cast<uint64_t>(DataTypeSmemBits(s.data_type)) + 7) / 8;
  o += inner <= 64 ? "use CU_TENSOR_MAP_SWIZZLE_64B or CU_TENSOR_MAP_SWIZZLE_128B" : "use CU_TENSOR_MAP_SWIZZLE_128B";
}
void MsgWideModeMismatch(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "wide_mode = ", FullName(s.wide_mode), " does not match mode ", Name(s.mode));
}
void FixWideModeMismatch(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "drop wide_mode (it follows the mode) or set it to ",
             FullName(s.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW));
}
bool PatchWideModeMismatch(const Finding& f, TensorMapSpec* s) {
  s->wide_mode = static_cast<Im2colWideMode>(f.limit);
  return true;
}
void MsgW128Pixels(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "pixels_per_column = ", f.value, " is ignored in im2col::w::128 mode: every copy moves 128 pixels");
}
void FixW128Pixels(const TensorMapSpec&, const Finding&, TextOut& o) { return TextAppend(&o, "set pixels_per_column = 128 to say what happens"); }
namespace {
// Index 0-2: pixel_box_lower_corner[index]; 4-6: pixel_box_upper_corner[index - 4]; in the wide modes 0 and 1: the
// lower and upper corner width.
std::string_view CornerFieldName(const TensorMapSpec& s, int index) {
  static constexpr std::string_view kCorners[8] = {
      "pixel_box_lower_corner[0]", "pixel_box_lower_corner[1]", "pixel_box_lower_corner[2]", "pixel_box_lower_corner",
      "pixel_box_upper_corner[0]", "pixel_box_upper_corner[1]", "pixel_box_upper_corner[2]", "pixel_box_upper_corner"};
  if (IsWideMode(s.mode)) return index == 0 ? "pixel_box_lower_corner_width" : "pixel_box_upper_corner_width";
  return index >= 0 && index < 8 ? kCorners[index] : std::string_view("pixel_box_lower_corner");
}
}  // namespace
void MsgIm2colStoreCorners(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, CornerFieldName(s, f.index), " = ", f.value, ": a ", Name(s.direction),
             " through an im2col map (.im2col_no_offs) must keep the bounding box inside the tensor, so lower "
             "corners must be >= 0 and upper corners <= 0");
}
void FixIm2colStoreCorners(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "set ", CornerFieldName(s, f.index), " = 0 for the map used to store");
}
bool PatchIm2colStoreCorners(const Finding& f, TensorMapSpec* s) {
  if (IsWideMode(s->mode)) {
    (f.index == 0 ? s->pixel_box_lower_corner_width : s->pixel_box_upper_corner_width) = 0;
  } else if (f.index >= 4) {
    s->pixel_box_upper_corner[f.index - 4] = 0;
  } else {
    s->pixel_box_lower_corner[f.index] = 0;
  }
  return true;
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfStoreCorner(const TensorMapSpec& s, const Finding& f) { return CornerFieldName(s, f.index); }

}  // namespace tmapgen::rules
