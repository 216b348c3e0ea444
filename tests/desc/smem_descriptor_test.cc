// Shared-memory descriptor tests: bit positions from the field tables, the PTX worked examples,
// encode/decode round trips, the swizzle patterns, advancing. Every expected value is written from the
// documents named in desc_test_util.h, never produced by running the code.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/desc/smem_descriptor.h"
#include "tests/desc/desc_test_util.h"

namespace tmapgen::desc {
namespace {

using test::Tile;

// ============================== field tables ==============================
// [PTX-WGMMA] 9.7.15.5.1.2.2: start 13-0, LBO 29-16, SBO 45-32, base offset 51-49, swizzle 63-62.
TEST(WgmmaFields, BitPositions) {
  SmemDesc d(DescArch::kWgmma, 0);
  d.set_start_enc(0x3FFF);
  EXPECT_EQ(d.bits(), 0x0000000000003FFFull);
  d = SmemDesc(DescArch::kWgmma, 0);
  d.set_lbo_enc(0x3FFF);
  EXPECT_EQ(d.bits(), 0x000000003FFF0000ull);
  d = SmemDesc(DescArch::kWgmma, 0);
  d.set_sbo_enc(0x3FFF);
  EXPECT_EQ(d.bits(), 0x00003FFF00000000ull);
  d = SmemDesc(DescArch::kWgmma, 0);
  d.set_base_offset(7);
  EXPECT_EQ(d.bits(), 0x000E000000000000ull);
  d = SmemDesc(DescArch::kWgmma, 0);
  d.set_layout_type(3);
  EXPECT_EQ(d.bits(), 0xC000000000000000ull);
}

// [PTX-WGMMA] swizzle: 0 = no swizzle, 1 = 128-Byte, 2 = 64-Byte, 3 = 32-Byte.
TEST(WgmmaFields, LayoutTypes) {
  EXPECT_EQ(LayoutTypeValue(DescArch::kWgmma, DescSwizzle::kNone), 0);
  EXPECT_EQ(LayoutTypeValue(DescArch::kWgmma, DescSwizzle::k128B), 1);
  EXPECT_EQ(LayoutTypeValue(DescArch::kWgmma, DescSwizzle::k64B), 2);
  EXPECT_EQ(LayoutTypeValue(DescArch::kWgmma, DescSwizzle::k32B), 3);
  EXPECT_EQ(LayoutTypeValue(DescArch::kWgmma, DescSwizzle::k128BAtom32B), -1);
}

// [PTX-TC] Table 40: fixed 0b001 at 46-48, base offset 49-51, LBO mode 52, fixed 0 at 53-60, swizzle
// 61-63 with 0 none, 1 128B/32B atomic, 2 128B, 4 64B, 6 32B; 3, 5, 7 invalid.
TEST(Tcgen05Fields, BitPositions) {
  EXPECT_EQ(SmemDesc::Empty(DescArch::kTcgen05).bits(), 0x0000400000000000ull);  // bit 46
  EXPECT_EQ(SmemDesc::Empty(DescArch::kWgmma).bits(), 0u);
  SmemDesc d(DescArch::kTcgen05, 0);
  d.set_lbo_absolute(true);
  EXPECT_EQ(d.bits(), 0x0010000000000000ull);  // bit 52
  d = SmemDesc(DescArch::kTcgen05, 0);
  d.set_layout_type(7);
  EXPECT_EQ(d.bits(), 0xE000000000000000ull);
  EXPECT_EQ(LayoutTypeValue(DescArch::kTcgen05, DescSwizzle::kNone), 0);
  EXPECT_EQ(LayoutTypeValue(DescArch::kTcgen05, DescSwizzle::k128BAtom32B), 1);
  EXPECT_EQ(LayoutTypeValue(DescArch::kTcgen05, DescSwizzle::k128B), 2);
  EXPECT_EQ(LayoutTypeValue(DescArch::kTcgen05, DescSwizzle::k64B), 4);
  EXPECT_EQ(LayoutTypeValue(DescArch::kTcgen05, DescSwizzle::k32B), 6);
  DescSwizzle s;
  for (uint32_t bad : {3u, 5u, 7u}) EXPECT_FALSE(SwizzleFromLayoutType(DescArch::kTcgen05, bad, &s)) << bad;
}

// [PTX-TC] Table 40 leaves 14-15 and 30-31 reserved; [PTX-WGMMA] additionally lists no field at 46-48
// and 52-61 ([SPEC] 3.1).
TEST(Fields, ReservedMasks) {
  EXPECT_EQ(ReservedMask(DescArch::kTcgen05), 0x00000000C000C000ull);
  EXPECT_EQ(ReservedMask(DescArch::kWgmma), 0x3FF1C000C000C000ull);
}

// [PTX-TC] matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4.
TEST(Fields, MatrixDescriptorEncode) {
  EXPECT_EQ(MatrixDescriptorEncode(0x400), 0x40u);
  EXPECT_EQ(MatrixDescriptorEncode(16), 1u);
  EXPECT_EQ(MatrixDescriptorEncode(0x3FFFF), 0x3FFFu);
  EXPECT_EQ(MatrixDescriptorEncode(0x40000), 0u);  // 256 KiB wraps to 0
  EXPECT_EQ(MatrixDescriptorEncode(0x40400), 0x40u);
  EXPECT_EQ(kMaxFieldBytes, 262128u);
}

// ============================== PTX worked examples ==============================
// [PTX-WGMMA] 9.7.15.5.1.2.1.3 examples (and their copies in [PTX-TC] 9.7.16.3.3). Each gives the exact
// layout in elements and the LBO/SBO encodings. The tests check (1) the encodings of the example's LBO
// and SBO, (2) that the canonical offset function reproduces the exact layout for every element, and
// (3) where the example's layout is the dense TMA order, that the builder derives the same values.

// K-major, no swizzle, tf32: Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64)); T = 4, m = 2, k = 2;
// LBO = 64*sizeof(tf32), SBO = 32*sizeof(tf32); encodings 16 and 8.
TEST(PtxExamples, KMajorNoSwizzleTf32) {
  OperandLayout l = Tile();
  l.type = ElemType::kTF32;
  l.swizzle = DescSwizzle::kNone;
  l.mn = 16;
  l.k = 16;
  l.smem_address = 0;
  const SmemDesc d = BuildSmemDesc(l);  // the example is the dense order: 16-byte K slabs of 16 rows
  EXPECT_EQ(d.lbo_enc(), 16u);
  EXPECT_EQ(d.sbo_enc(), 8u);
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t exact = (m % 8) * 4 + (m / 8) * 32 + (k % 4) * 1 + (k / 4) * 64;
      EXPECT_EQ(CanonicalOffset(Major::kK, DescSwizzle::kNone, 64 * 4, 32 * 4, 0, m, k * 4), exact * 4) << m << "," << k;
    }
}

// K-major, 32B swizzle, tf32: Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4)); LBO "1 (assumed)";
// SBO = 64*sizeof(tf32), encoded 16. (The example's K extent of 16 tf32 = 64 B runs past the 32-byte
// row; one MMA reads K = 8 tf32 = 32 B, which is what is compared.)
TEST(PtxExamples, KMajor32BTf32) {
  OperandLayout l = Tile();
  l.type = ElemType::kTF32;
  l.swizzle = DescSwizzle::k32B;
  l.mn = 16;
  l.k = 16;
  l.smem_address = 0;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.lbo_enc(), 1u);
  EXPECT_EQ(d.sbo_enc(), 16u);
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t k = 0; k < 8; ++k) {
      const uint64_t exact = (m % 8) * 8 + (m / 8) * 64 + (k % 4) * 1 + (k / 4) * 4;
      EXPECT_EQ(CanonicalOffset(Major::kK, DescSwizzle::k32B, 16, 64 * 4, 0, m, k * 4), exact * 4) << m << "," << k;
    }
}

// MN-major, no swizzle, bf16: Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128)); T = 8;
// LBO = 128*sizeof(bf16) -> 16; SBO = 64*sizeof(bf16) -> 8.
TEST(PtxExamples, MnMajorNoSwizzleBf16) {
  OperandLayout l = Tile();
  l.major = Major::kMN;
  l.swizzle = DescSwizzle::kNone;
  l.mn = 16;
  l.k = 16;
  l.smem_address = 0;
  l.has_lbo = true;
  l.lbo = 128 * 2;
  l.has_sbo = true;
  l.sbo = 64 * 2;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.lbo_enc(), 16u);
  EXPECT_EQ(d.sbo_enc(), 8u);
  for (uint32_t mn = 0; mn < 16; ++mn)
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t exact = (mn % 8) * 1 + (mn / 8) * 64 + (k % 8) * 8 + (k / 8) * 128;
      EXPECT_EQ(CanonicalOffset(Major::kMN, DescSwizzle::kNone, 256, 128, 0, k, mn * 2), exact * 2) << mn << "," << k;
    }
}

// MN-major, 32B swizzle, bf16: Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256));
// LBO = 128*sizeof(bf16) -> 16; SBO = 256*sizeof(bf16) -> 32.
TEST(PtxExamples, MnMajor32BBf16) {
  OperandLayout l = Tile();
  l.major = Major::kMN;
  l.swizzle = DescSwizzle::k32B;
  l.mn = 32;
  l.k = 16;
  l.smem_address = 0;
  l.has_lbo = true;
  l.lbo = 128 * 2;
  l.has_sbo = true;
  l.sbo = 256 * 2;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.lbo_enc(), 16u);
  EXPECT_EQ(d.sbo_enc(), 32u);
  for (uint32_t mn = 0; mn < 32; ++mn)
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t exact = (mn % 8) * 1 + ((mn / 8) % 2) * 8 + (mn / 16) * 128 + (k % 8) * 16 + (k / 8) * 256;
      EXPECT_EQ(CanonicalOffset(Major::kMN, DescSwizzle::k32B, 256, 512, 0, k, mn * 2), exact * 2) << mn << "," << k;
    }
}

// MN-major, 64B swizzle, bf16: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512));
// LBO = 256*sizeof(bf16) -> 32; SBO = 512*sizeof(bf16) -> 64.
TEST(PtxExamples, MnMajor64BBf16) {
  OperandLayout l = Tile();
  l.major = Major::kMN;
  l.swizzle = DescSwizzle::k64B;
  l.mn = 64;
  l.k = 16;
  l.smem_address = 0;
  l.has_lbo = true;
  l.lbo = 256 * 2;
  l.has_sbo = true;
  l.sbo = 512 * 2;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.lbo_enc(), 32u);
  EXPECT_EQ(d.sbo_enc(), 64u);
  for (uint32_t mn = 0; mn < 64; ++mn)
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t exact = (mn % 8) * 1 + ((mn / 8) % 4) * 8 + (mn / 32) * 256 + (k % 8) * 32 + (k / 8) * 512;
      EXPECT_EQ(CanonicalOffset(Major::kMN, DescSwizzle::k64B, 512, 1024, 0, k, mn * 2), exact * 2) << mn << "," << k;
    }
}

// ============================== building ==============================
// [PTX-TC] Table 40 + canonical K-major 128B layout ((8,m),(T,2k)):((8T,SBO),(1,T)): a dense bf16
// K-major tile with 128-byte rows has SBO = 8 rows x 128 B = 1024 B; LBO unused (1). At 0x400 the start
// field is 0x40; 0x400 is on the 1024-byte boundary, base offset 0. Value, field by field:
// 0x40 | 1 << 16 | 64 << 32 | 1 << 46 | 2 << 61.
TEST(Build, Tcgen05KMajor128B) {
  const SmemDesc d = BuildSmemDesc(Tile());
  EXPECT_EQ(d.bits(), 0x40ull | (1ull << 16) | (64ull << 32) | (1ull << 46) | (2ull << 61));
  EXPECT_EQ(d.bits(), 0x4000404000010040ull);
}

// [PTX-WGMMA]: the same tile for wgmma: no bit 46; 128B swizzle = 1 at bits 62-63.
TEST(Build, WgmmaKMajor128B) {
  OperandLayout l = Tile();
  l.arch = DescArch::kWgmma;
  EXPECT_EQ(BuildSmemDesc(l).bits(), 0x40ull | (1ull << 16) | (64ull << 32) | (1ull << 62));
}

// [PTX-TC] Table 41 and the base-offset formula: (0x480 >> 7) & 7 = 9 & 7 = 1.
TEST(Build, BaseOffsetOffRepeat) {
  OperandLayout l = Tile();
  l.smem_address = 0x480;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.base_offset(), 1u);
  EXPECT_EQ(d.start_enc(), 0x48u);
  l.smem_address = 0x800;  // 2048: on the 1024-byte boundary
  EXPECT_EQ(BuildSmemDesc(l).base_offset(), 0u);
  l.swizzle = DescSwizzle::kNone;  // no base offset without swizzle
  l.smem_address = 0x480;
  EXPECT_EQ(BuildSmemDesc(l).base_offset(), 0u);
}

// [PTX-TC] Table 41: 64B repeats every 512 B, 32B every 256 B: 0x600 is on the 512-byte boundary (base 0),
// 0x680 is one 128-byte row into it (base 1); for 32B, 0x180 is row 1 of a 256-byte pattern.
TEST(Build, BaseOffsetPerMode) {
  OperandLayout l = Tile();
  l.swizzle = DescSwizzle::k64B;
  l.k = 32;
  l.smem_address = 0x600;
  EXPECT_EQ(BuildSmemDesc(l).base_offset(), 0u);
  l.smem_address = 0x680;
  EXPECT_EQ(BuildSmemDesc(l).base_offset(), 1u);
  l.swizzle = DescSwizzle::k32B;
  l.k = 16;
  l.smem_address = 0x180;
  EXPECT_EQ(BuildSmemDesc(l).base_offset(), 1u);
}

// [PTX-TC] Table 54 / [SPEC] 4.3: MN-major tf32 with 128B swizzle and 32-byte atomicity: atom 8x4 of
// 128-bit elements: 128 B along M/N, 4 K rows; SBO = 4 rows x 128 B = 512 B; layout type 1.
TEST(Build, Tcgen05MnMajorTf32Atom32) {
  OperandLayout l = Tile();
  l.major = Major::kMN;
  l.type = ElemType::kTF32;
  l.swizzle = DescSwizzle::k128BAtom32B;
  l.mn = 64;  // 256 B: two 128-byte atoms
  l.k = 8;
  l.smem_address = 0;
  const SmemDesc d = BuildSmemDesc(l);
  EXPECT_EQ(d.layout_type(), 1u);
  EXPECT_EQ(d.sbo_bytes(), 512u);
  EXPECT_EQ(d.lbo_bytes(), 8u * 128);  // next 128-byte atom along M/N: after the 8 K rows of the first
}

// ============================== round trips ==============================
TEST(RoundTrip, DecodeEncodeEveryField) {
  const uint64_t values[] = {0x4000404000010040ull, 0xC002401000010008ull, 0x0000000000000000ull,
                             0xFFFFFFFFFFFFFFFFull, 0x2000402000200123ull, 0x8010404000213FFFull};
  for (DescArch a : {DescArch::kWgmma, DescArch::kTcgen05}) {
    for (uint64_t v : values) {
      const SmemDesc d(a, v);
      SmemDesc e(a, 0);
      e.set_start_enc(d.start_enc());
      e.set_lbo_enc(d.lbo_enc());
      e.set_sbo_enc(d.sbo_enc());
      e.set_base_offset(d.base_offset());
      e.set_layout_type(d.layout_type());
      if (a == DescArch::kTcgen05) {
        e.set_version(d.version());
        e.set_lbo_absolute(d.lbo_absolute());
        e = SmemDesc(a, e.bits() | (static_cast<uint64_t>(d.fixed_zero()) << 53));
      }
      EXPECT_EQ(e.bits(), v & ~ReservedMask(a)) << std::hex << v;
    }
  }
}

TEST(RoundTrip, BuildThenDecodeGivesTheLayoutBack) {
  for (DescArch a : {DescArch::kWgmma, DescArch::kTcgen05}) {
    for (DescSwizzle s : {DescSwizzle::kNone, DescSwizzle::k32B, DescSwizzle::k64B, DescSwizzle::k128B}) {
      for (uint64_t addr : {0x0ull, 0x400ull, 0x480ull, 0x1f380ull}) {
        OperandLayout l = Tile();
        l.arch = a;
        l.swizzle = s;
        l.smem_address = addr;
        l.k = static_cast<uint32_t>(RowBytes(s) / 2 < 16 ? 16 : RowBytes(s) / 2);
        const LayoutFacts f = ComputeLayoutFacts(l);
        const SmemDesc d = BuildSmemDesc(l, f);
        DescSwizzle back;
        ASSERT_TRUE(d.swizzle(&back));
        EXPECT_EQ(back, s);
        EXPECT_EQ(d.start_bytes(), addr);
        EXPECT_EQ(d.lbo_bytes(), f.lbo);
        EXPECT_EQ(d.sbo_bytes(), f.sbo);
        EXPECT_EQ(static_cast<int>(d.base_offset()), s == DescSwizzle::kNone ? 0 : f.base_offset);
        EXPECT_EQ(d.reserved_bits(), 0u);
      }
    }
  }
}

// ============================== swizzle patterns ==============================
// [PTX-SW] 128B: row r of 128 bytes holds chunk c at position c ^ r (8-row pattern).
TEST(Swizzle, Map128B) {
  for (uint64_t r = 0; r < 8; ++r)
    for (uint64_t c = 0; c < 8; ++c) EXPECT_EQ(ApplyMapSwizzle(Swizzle::k128B, r * 128 + c * 16), r * 128 + (c ^ r) * 16);
}
// [PTX-SW] 32B: rows 0 1 2 3 4 5 6 7 / 1 0 3 2 5 4 7 6 (2-row pattern).
TEST(Swizzle, Map32B) {
  const uint64_t row1[8] = {1, 0, 3, 2, 5, 4, 7, 6};
  for (uint64_t c = 0; c < 8; ++c) {
    EXPECT_EQ(ApplyMapSwizzle(Swizzle::k32B, c * 16), c * 16);
    EXPECT_EQ(ApplyMapSwizzle(Swizzle::k32B, 128 + c * 16), 128 + row1[c] * 16);
  }
}
// [PTX-SW] 128B with 32-byte atomicity: [0 1|2 3|4 5|6 7], [2 3|0 1|6 7|4 5], [4 5|6 7|0 1|2 3],
// [6 7|4 5|2 3|0 1].
TEST(Swizzle, Map128BAtom32B) {
  const uint64_t rows[4][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 6, 7, 4, 5}, {4, 5, 6, 7, 0, 1, 2, 3},
                               {6, 7, 4, 5, 2, 3, 0, 1}};
  for (uint64_t r = 0; r < 4; ++r)
    for (uint64_t c = 0; c < 8; ++c)
      EXPECT_EQ(ApplyMapSwizzle(Swizzle::k128BAtom32B, r * 128 + c * 16), r * 128 + rows[r][c] * 16) << r << "," << c;
}
// The descriptor side equals the absolute-address swizzle when the base offset is the documented one
// (the reason the base offset exists, [PTX-TC] Table 41), and differs when it is not.
TEST(Swizzle, DescMatchesMapWithTheDocumentedBaseOffset) {
  for (uint64_t start : {0x400ull, 0x480ull, 0x700ull}) {
    const uint32_t bo = static_cast<uint32_t>((start % 1024) / 128);
    for (uint64_t off = 0; off < 2048; off += 16) {
      EXPECT_EQ(ApplyDescSwizzle(DescSwizzle::k128B, start + off, start & ~127ull, bo),
                ApplyMapSwizzle(Swizzle::k128B, start + off));
    }
  }
  EXPECT_NE(ApplyDescSwizzle(DescSwizzle::k128B, 0x480, 0x480, 0), ApplyMapSwizzle(Swizzle::k128B, 0x480));
}

// ============================== advancing ==============================
// Canonical K-major 128B layout: K has stride 1 element inside the 128-byte row, so K slice k of a bf16
// tile (16 elements = 32 B per MMA) starts 32k bytes in, and the row phase (base offset) is unchanged.
TEST(Advance, KSlicesInsideTheRow) {
  const OperandLayout l = Tile();
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  for (uint32_t k = 0; k < 4; ++k) {
    const Advance a = AdvanceKSlice(l, f, d, k);
    EXPECT_EQ(a.start_bytes, 0x400u + 32 * k);
    EXPECT_EQ(a.desc.start_enc(), 0x40u + 2 * k);
    EXPECT_EQ(a.desc.base_offset(), 0u);
    EXPECT_FALSE(a.base_offset_changed);
    EXPECT_TRUE(a.aligned_16);
    EXPECT_TRUE(a.inside_tile);
  }
}

// A 128-wide bf16 K (256 B) spans two 128-byte atoms; slice 4 starts in the second slab, 128 rows x
// 128 B = 16 KiB after the first.
TEST(Advance, KSliceInTheNextAtom) {
  OperandLayout l = Tile();
  l.k = 128;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const Advance a = AdvanceKSlice(l, f, BuildSmemDesc(l, f), 4);
  EXPECT_EQ(a.start_bytes, 0x400u + 16384);
}

// MN-major: K slice k starts k * K rows down: bf16 K = 16 rows = two 8-row groups = 2 x SBO.
TEST(Advance, MnMajorKSlice) {
  OperandLayout l = Tile();
  l.major = Major::kMN;
  l.k = 64;
  l.smem_address = 0;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  const Advance a = AdvanceKSlice(l, f, d, 1);
  EXPECT_EQ(a.start_bytes, 2 * d.sbo_bytes());
  EXPECT_EQ(a.base_offset, 0u);
}

// 32B swizzle, K-major: rows are 32 B, so the sub-tile at row 4 starts 128 B in, the second row of the
// 256-byte pattern: base offset 1 ((0x80 >> 7) & 1).
TEST(Advance, SubTileNeedsBaseOffset) {
  OperandLayout l = Tile();
  l.swizzle = DescSwizzle::k32B;
  l.mn = 64;
  l.k = 16;
  l.smem_address = 0;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const Advance a = AdvanceSubTile(l, f, BuildSmemDesc(l, f), 4, 0);
  EXPECT_EQ(a.delta_bytes, 128);
  EXPECT_EQ(a.base_offset, 1u);
  EXPECT_TRUE(a.base_offset_changed);
  const Advance b = AdvanceSubTile(l, f, BuildSmemDesc(l, f), 8, 0);  // a whole 8-row group: 256 B
  EXPECT_EQ(b.delta_bytes, 256);
  EXPECT_FALSE(b.base_offset_changed);
}

TEST(Advance, OddStepIsNotAligned) {
  OperandLayout l = Tile();
  l.type = ElemType::kE4M3;
  l.k = 128;
  const LayoutFacts f = ComputeLayoutFacts(l);
  EXPECT_FALSE(AdvanceSubTile(l, f, BuildSmemDesc(l, f), 0, 8).aligned_16);  // 8 bytes
  EXPECT_TRUE(AdvanceSubTile(l, f, BuildSmemDesc(l, f), 0, 16).aligned_16);
}

// ============================== canonical layout text ==============================
TEST(Canonical, GenericForms) {
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kK, DescSwizzle::k128B, 0, 16, 1024, 0, 0).generic,
            "((8,m),(T,2k)):((8T,SBO),(1,T))");
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kK, DescSwizzle::kNone, 0, 16, 1024, 0, 0).generic,
            "((8,m),(T,2k)):((1T,SBO),(1,LBO))");
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kMN, DescSwizzle::k64B, 0, 16, 1024, 0, 0).generic,
            "((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))");
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kMN, DescSwizzle::kNone, 0, 16, 1024, 0, 0).generic,
            "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))");
  EXPECT_FALSE(DescribeCanonical(DescArch::kTcgen05, Major::kK, DescSwizzle::k128BAtom32B, 0, 0, 0, 0, 0).defined);
  // The MN-major 64B bf16 example instantiated: ((8,4,2),(8,2)):((1,8,256),(32,512)).
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kMN, DescSwizzle::k64B, 16, 512, 1024, 2, 2).instantiated,
            "((8,4,2),(8,2)):((1,8,256),(32,512))");
  // The K-major no-swizzle tf32 example: ((8,2),(4,4)):((4,32),(1,64)).
  EXPECT_EQ(DescribeCanonical(DescArch::kWgmma, Major::kK, DescSwizzle::kNone, 32, 256, 128, 2, 2).instantiated,
            "((8,2),(4,4)):((4,32),(1,64))");
}

}  // namespace
}  // namespace tmapgen::desc
