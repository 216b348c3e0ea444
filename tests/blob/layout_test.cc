// The field table itself: well-formed, no overlaps inside a layout, and the facts that come from
// documents other than the corpora (tma-spec.md section 6: the swizzle at bits 13-14 of word 1; CUTLASS and
// Triton: bit 85 is bit 21 of word 1).
#include <gtest/gtest.h>

#include <set>

#include "src/blob/blob.h"
#include "src/blob/layout.h"

namespace tmapgen::blob {
namespace {

TEST(BlobLayout, FieldsFitTheMapAndDoNotOverlapWithinALayout) {
  int n = 0;
  const MapField* f = Fields(&n);
  ASSERT_GT(n, 30);
  for (uint8_t layout : {kLayoutTiled, kLayoutIm2col3, kLayoutIm2col4, kLayoutIm2col5}) {
    std::set<int> used;
    for (int k = 0; k < n; ++k) {
      if (!(f[k].layouts & layout)) continue;
      for (const Piece& p : f[k].pieces) {
        EXPECT_LE(p.lo + p.width, kMapBits) << f[k].name;
        for (int b = p.lo; b < p.lo + p.width; ++b)
          EXPECT_TRUE(used.insert(b).second) << f[k].name << " overlaps at bit " << b << " in " << LayoutName(layout);
      }
      EXPECT_GT(FieldWidth(f[k]), 0) << f[k].name;
      EXPECT_LE(FieldWidth(f[k]), 64) << f[k].name;
    }
  }
}

TEST(BlobLayout, GatherScatterRoundTripAcrossWordBoundaries) {
  int n = 0;
  const MapField* f = Fields(&n);
  for (int k = 0; k < n; ++k) {
    MapBytes m{};
    const int w = FieldWidth(f[k]);
    const uint64_t all = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    for (uint64_t v : {uint64_t{1}, all, all & uint64_t{0x5555555555555555}, all ^ uint64_t{1}}) {
      Scatter(&m, f[k], v);
      EXPECT_EQ(Gather(m, f[k]), v) << f[k].name;
    }
  }
}

// tma-spec.md section 6 (measured 2026-11-29): word 1 of fp16 rank-2 tiled maps is 0x0310, 0x2310,
// 0x4310, 0x6310 for swizzle NONE/32B/64B/128B (low 16 bits, with L2 promotion NONE).
TEST(BlobLayout, Word1MatchesTheMeasuredSwizzleExamples) {
  const uint16_t want[4] = {0x0310, 0x2310, 0x4310, 0x6310};
  for (int sw = 0; sw < 4; ++sw) {
    TensorMapSpec s;
    s.data_type = DataType::kFloat16;
    s.rank = 2;
    s.global_dim = {64, 64};
    s.global_strides = {128};
    s.box_dim = {64, 8};
    if (sw > 0) s.box_dim[0] = static_cast<uint32_t>(16 << sw) / 2;
    s.swizzle = static_cast<Swizzle>(sw);
    s.l2_promotion = L2Promotion::kNone;
    MapBytes m;
    ASSERT_EQ(EncodeInto(s, &m), absl::OkStatus());
    uint64_t w[16];
    ToWords(m, w);
    EXPECT_EQ(w[1] & 0xffff, want[sw]) << "swizzle " << sw;
  }
}

// Bit 85 is bit 21 of word 1 (triton-lang/triton#10442 quoting the 595.71.05 release notes; CUTLASS commit
// b7ecaa605): a recognised bit, never part of a parameter.
TEST(BlobLayout, Bit85IsRecognisedNotUnexplained) {
  uint64_t w[16] = {};
  w[1] = uint64_t{1} << 21;
  const Decoded d = Decode(FromWords(w));
  ASSERT_EQ(d.recognised.size(), 1u);
  EXPECT_EQ(d.recognised[0].field->name, "bit85");
  EXPECT_EQ(d.recognised[0].field->pieces[0].lo, 85);
  for (const UnexplainedBit& u : d.unexplained) EXPECT_NE(u.bit, 85);
}

TEST(BlobLayout, DataTypeCodesAreABijectionOnTheMeasuredTypes) {
  std::set<std::pair<uint32_t, bool>> seen;
  for (uint8_t v = 0; v < 13; ++v) {
    uint32_t code = 0;
    bool tf32 = false;
    ASSERT_TRUE(DataTypeCode(v, &code, &tf32)) << int(v);
    EXPECT_TRUE(seen.insert({code, tf32}).second) << int(v);
    uint8_t back = 99;
    ASSERT_TRUE(DataTypeFromCode(code, tf32, &back));
    EXPECT_EQ(back, v);
  }
  uint32_t code = 0;
  bool tf32 = false;
  for (uint8_t v = 13; v < 16; ++v) EXPECT_FALSE(DataTypeCode(v, &code, &tf32)) << "no evidence for " << int(v);
}

}  // namespace
}  // namespace tmapgen::blob
