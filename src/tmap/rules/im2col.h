// im2col.h: the rules about im2col, im2col::w and im2col::w::128 maps: corners, channels, pixels, the wide
//   modes.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in im2col.cc; they run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_IM2COL_H_
#define TMAPGEN_SRC_TMAP_RULES_IM2COL_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- im2col ----
inline int CornerLimit(uint32_t rank) { return rank == 3 ? 32768 : rank == 4 ? 128 : 16; }
inline void CheckCorner(const CheckContext& c, uint16_t r, FindingList* o, const std::array<int32_t, 3>& v) {
  const uint32_t rank = Rank(c.spec);
  if (rank < 3) return;
  const int lim = CornerLimit(rank);
  for (uint32_t i = 0; i + 2 < rank; ++i)
    if (v[i] < -lim || v[i] > lim - 1) o->Add(r, static_cast<int>(i), v[i], lim);
}
inline void CheckLowerCorner(const CheckContext& c, uint16_t r, FindingList* o) { CheckCorner(c, r, o, c.spec.pixel_box_lower_corner); }
inline void CheckUpperCorner(const CheckContext& c, uint16_t r, FindingList* o) { CheckCorner(c, r, o, c.spec.pixel_box_upper_corner); }
RuleText MsgCorner(const TensorMapSpec& s, const Finding& f, std::string_view which);
void MsgLowerCorner(const TensorMapSpec& s, const Finding& f, TextOut& o);
void MsgUpperCorner(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixCorner(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchLowerCorner(const Finding& f, TensorMapSpec* s);
bool PatchUpperCorner(const Finding& f, TensorMapSpec* s);
inline void CheckIm2colBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t rank = Rank(c.spec);
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[i + 1], k2Pow32)) +
                           c.spec.pixel_box_upper_corner[i] - c.spec.pixel_box_lower_corner[i];
    if (extent <= 0) o->Add(r, static_cast<int>(i), extent, 1);
  }
}
void MsgIm2colBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o);
// Measured (docs/hardware.md B3): for INTERLEAVE_16B/32B im2col maps the driver checks corner i against
// global_dim[i], not global_dim[i + 1].
inline void CheckIm2colInterleaveBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave == Interleave::kNone) return;
  const uint32_t rank = Rank(c.spec);
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[i], k2Pow32)) +
                           c.spec.pixel_box_upper_corner[i] - c.spec.pixel_box_lower_corner[i];
    if (extent <= 0) o->Add(r, static_cast<int>(i), extent, 1);
  }
}
void MsgIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o);
// Measured (docs/hardware.md B2): the driver computes the pixel box in signed 32-bit arithmetic, so
// global_dim + upper corner must stay <= 2^31 - 1 along every spatial dimension (W, H, D); in the wide
// modes H and D carry corner 0. Tiled maps are not affected (2^32 accepted).
constexpr int64_t kInt32Max = 2147483647;
inline void AddIfOver(uint16_t r, FindingList* o, int dim, uint64_t d, int64_t upper) {
  const int64_t sum = static_cast<int64_t>(std::min<uint64_t>(d, k2Pow32 * 2)) + upper;
  if (sum > kInt32Max) o->Add(r, dim, sum, kInt32Max);
}
inline void CheckIm2colSpatialInt32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  const uint32_t rank = Rank(s);
  if (rank < 3) return;
  const bool interleaved = s.interleave != Interleave::kNone;
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t upper = s.mode == Mode::kIm2col ? s.pixel_box_upper_corner[i]
                          : (i == 0 ? s.pixel_box_upper_corner_width : 0);
    // With interleave the driver checks corner i against global_dim[i] (docs/hardware.md B3).
    const uint32_t d = interleaved ? i : i + 1;
    AddIfOver(r, o, static_cast<int>(d), s.global_dim[d], upper);
  }
}
void MsgIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixIm2colBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchIm2colBoxArea(const Finding& f, TensorMapSpec* s);
inline void CheckChannelsRange(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t ch = c.spec.channels_per_pixel;
  if (IsAlign16BPacked(c.spec.data_type)) {
    if (ch != 128) o->Add(r, -1, ch, 128);
  } else if (ch == 0 || ch > 256) {
    o->Add(r, -1, ch, 256);
  }
}
void MsgChannelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixChannelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchChannelsRange(const Finding& f, TensorMapSpec* s);
inline void CheckChannelsBytes16(const CheckContext& c, uint16_t r, FindingList* o) {
  const int64_t bits = static_cast<int64_t>(c.spec.channels_per_pixel) * c.facts.element_bits;
  if (c.spec.channels_per_pixel != 0 && bits % 128 != 0) o->Add(r, -1, bits, 128);
}
void MsgChannelsBytes16(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixChannelsBytes16(const TensorMapSpec& s, const Finding&, TextOut& o);
bool PatchChannelsBytes16(const Finding&, TensorMapSpec* s);
inline void CheckPixelsRange(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t p = c.spec.pixels_per_column;
  if (p == 0 || p > 1024) o->Add(r, -1, p, 1024);
}
void MsgPixelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixPixelsRange(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchPixelsRange(const Finding& f, TensorMapSpec* s);

// ---- im2col wide ----
// cuda.h allows [-32768, 32767] at every rank, but the tested driver applies the im2col ranges of the
// rank (measured: rank 4 [-128, 127] bisected for both wide modes; docs/hardware.md D8 and
// docs/hardware.md B4). The stricter range wins: the validator never calls valid what the driver rejects.
inline void CheckWideCorner(const CheckContext& c, uint16_t r, FindingList* o, int32_t v) {
  const int lim = Rank(c.spec) >= 3 ? CornerLimit(Rank(c.spec)) : 32768;
  if (v < -lim || v > lim - 1) o->Add(r, -1, v, lim);
}
inline void CheckWideLower(const CheckContext& c, uint16_t r, FindingList* o) { CheckWideCorner(c, r, o, c.spec.pixel_box_lower_corner_width); }
inline void CheckWideUpper(const CheckContext& c, uint16_t r, FindingList* o) { CheckWideCorner(c, r, o, c.spec.pixel_box_upper_corner_width); }
void MsgWideLower(const TensorMapSpec& s, const Finding& f, TextOut& o);
void MsgWideUpper(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixWideCorner(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchWideLower(const Finding& f, TensorMapSpec* s);
bool PatchWideUpper(const Finding& f, TensorMapSpec* s);
inline void CheckWideBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  if (Rank(c.spec) < 2) return;
  const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[1], k2Pow32)) +
                         c.spec.pixel_box_upper_corner_width - c.spec.pixel_box_lower_corner_width;
  if (extent <= 0) o->Add(r, -1, extent, 1);
}
void MsgWideBoxArea(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixWideBoxArea(const TensorMapSpec& s, const Finding&, TextOut& o);
bool PatchWideBoxArea(const Finding&, TensorMapSpec* s);
inline void CheckWideSwizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const Swizzle w = c.spec.swizzle;
  if (w != Swizzle::k64B && w != Swizzle::k128B && w != Swizzle::k128BAtom32B) o->Add(r, -1, static_cast<int>(w), 0);
}
void MsgWideSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixWideSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckWideModeMismatch(const CheckContext& c, uint16_t r, FindingList* o) {
  const Im2colWideMode want = c.spec.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  if (c.spec.Has(kFieldWideMode) && c.spec.wide_mode != want)
    o->Add(r, -1, static_cast<int>(c.spec.wide_mode), static_cast<int>(want));
}
void MsgWideModeMismatch(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixWideModeMismatch(const TensorMapSpec& s, const Finding&, TextOut& o);
bool PatchWideModeMismatch(const Finding& f, TensorMapSpec* s);
inline void CheckW128Pixels(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldPixelsPerColumn) && c.spec.pixels_per_column != 128 && c.spec.pixels_per_column >= 1 &&
      c.spec.pixels_per_column <= 1024)
    o->Add(r, -1, c.spec.pixels_per_column, 128);
}
void MsgW128Pixels(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixW128Pixels(const TensorMapSpec&, const Finding&, TextOut& o);
inline void CheckIm2colStoreCorners(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (!IsStoreLike(s.direction)) return;
  if (IsWideMode(s.mode)) {
    if (s.pixel_box_lower_corner_width < 0) o->Add(r, 0, s.pixel_box_lower_corner_width, 0);
    if (s.pixel_box_upper_corner_width > 0) o->Add(r, 1, s.pixel_box_upper_corner_width, 0);
    return;
  }
  for (uint32_t i = 0; i + 2 < Rank(s); ++i) {
    if (s.pixel_box_lower_corner[i] < 0) o->Add(r, static_cast<int>(i), s.pixel_box_lower_corner[i], 0);
    if (s.pixel_box_upper_corner[i] > 0) o->Add(r, static_cast<int>(i) + 4, s.pixel_box_upper_corner[i], 0);
  }
}
void MsgIm2colStoreCorners(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixIm2colStoreCorners(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchIm2colStoreCorners(const Finding& f, TensorMapSpec* s);

// ---- field paths that depend on the spec ----
std::string_view FieldOfStoreCorner(const TensorMapSpec& s, const Finding& f);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_IM2COL_H_
