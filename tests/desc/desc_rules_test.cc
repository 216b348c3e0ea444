// Descriptor rule tests (desc-*): every rule trips just past its boundary and stays quiet at it. Each
// case starts from a clean baseline and changes one thing; the expectation comes from the document
// named above it (short names in desc_test_util.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "src/desc/desc_rules.h"
#include "tests/desc/desc_test_util.h"

namespace tmapgen::desc {
namespace {

using test::Has;
using test::RunLayout;
using test::RunValue;
using test::Tile;

SmemDesc Tc(uint64_t bits) { return SmemDesc(DescArch::kTcgen05, bits); }
SmemDesc Wg(uint64_t bits) { return SmemDesc(DescArch::kWgmma, bits); }
// A clean tcgen05 value: 128B, SBO 1024, LBO 16, at 0x400.
constexpr uint64_t kClean = 0x4000404000010040ull;

std::string MessageOf(const DescValidation& v, const SmemCheck& c, std::string_view id) {
  DescContext ctx;
  ctx.smem = &c;
  for (const DescDiagnostic& d : MakeDescDiagnostics(ctx, v))
    if (d.rule == id) return d.message;
  return "";
}

TEST(Baselines, CleanTilesAreSpotless) {
  for (DescArch a : {DescArch::kWgmma, DescArch::kTcgen05}) {
    OperandLayout l = Tile();
    l.arch = a;
    const auto r = RunLayout(l, true, a == DescArch::kWgmma ? Target::kSm90a : Target::kSm100a);
    EXPECT_EQ(r.v.findings.size(), 0) << Name(a);
  }
  EXPECT_EQ(RunValue(Tc(kClean)).findings.size(), 0);
  EXPECT_EQ(RunValue(Wg(0x4000004000010040ull)).findings.size(), 0);
}

// ============================== value rules ==============================
// [PTX-TC] Table 40: "Values 3, 5 and 7 are invalid".
TEST(LayoutTypeInvalid, ThreeFiveSevenFail) {
  for (uint64_t t : {3ull, 5ull, 7ull}) EXPECT_TRUE(Has(RunValue(Tc((kClean & ~(7ull << 61)) | (t << 61))), "desc-layout-type-invalid"));
  for (uint64_t t : {0ull, 1ull, 2ull, 4ull, 6ull})
    EXPECT_FALSE(Has(RunValue(Tc((kClean & ~(7ull << 61)) | (t << 61))), "desc-layout-type-invalid"));
  EXPECT_FALSE(Has(RunValue(Wg(3ull << 62)), "desc-layout-type-invalid"));  // wgmma's 3 is 32B
}

// [PTX-TC] Table 40: bits 46-48 "Fixed constant value of 0b001".
TEST(Tcgen05Version, MustBe001) {
  EXPECT_TRUE(Has(RunValue(Tc(kClean & ~(1ull << 46))), "desc-tcgen05-version"));
  EXPECT_TRUE(Has(RunValue(Tc(kClean | (1ull << 47))), "desc-tcgen05-version"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean)), "desc-tcgen05-version"));
}

// [PTX-TC] Table 40: bits 53-60 fixed 0 (printed "0xb00000000").
TEST(Tcgen05FixedZero, BitsFiftyThreeToSixty) {
  EXPECT_TRUE(Has(RunValue(Tc(kClean | (1ull << 53))), "desc-tcgen05-fixed-zero"));
  EXPECT_TRUE(Has(RunValue(Tc(kClean | (1ull << 60))), "desc-tcgen05-fixed-zero"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean)), "desc-tcgen05-fixed-zero"));
  SmemCheck c;
  c.desc = Tc(kClean | (0xb0ull << 53));
  DescValidation v;
  ValidateSmem(c, &v);
  EXPECT_NE(MessageOf(v, c, "desc-tcgen05-fixed-zero").find("0xb0"), std::string::npos);
}

// [PTX-TC] Table 40 reserves 14-15 and 30-31; [PTX-WGMMA] defines no field at 46-48 and 52-61.
TEST(ReservedBits, EachFamily) {
  EXPECT_TRUE(Has(RunValue(Tc(kClean | (1ull << 14))), "desc-reserved-bits"));
  EXPECT_TRUE(Has(RunValue(Tc(kClean | (1ull << 31))), "desc-reserved-bits"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean | (1ull << 13))), "desc-reserved-bits"));  // start address bit
  SmemCheck c;
  c.desc = Wg(0x4000004000010040ull | (1ull << 46));  // a tcgen05 descriptor given to wgmma
  c.user_value = true;
  DescValidation v;
  ValidateSmem(c, &v);
  EXPECT_TRUE(Has(v, "desc-reserved-bits"));
  EXPECT_NE(MessageOf(v, c, "desc-reserved-bits").find("tcgen05"), std::string::npos);
  EXPECT_FALSE(Has(RunValue(Wg(0x4000004000010040ull | (1ull << 45))), "desc-reserved-bits"));  // SBO bit
}

// [PTX-WGMMA]: base offset "valid for all swizzling modes except the no-swizzle mode".
TEST(BaseOffsetNoSwizzle, NonZeroWithoutSwizzle) {
  const uint64_t none = kClean & ~(7ull << 61);
  EXPECT_TRUE(Has(RunValue(Tc(none | (1ull << 49))), "desc-base-offset-no-swizzle"));
  EXPECT_FALSE(Has(RunValue(Tc(none)), "desc-base-offset-no-swizzle"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean | (1ull << 49))), "desc-base-offset-no-swizzle"));
}

// [PTX-TC] Table 41: the patterns repeat every 512 B (64B) and 256 B (32B): rows 0..3 and 0..1.
TEST(BaseOffsetRange, PerMode) {
  const uint64_t sw64 = (kClean & ~(7ull << 61)) | (4ull << 61);
  EXPECT_TRUE(Has(RunValue(Tc(sw64 | (4ull << 49))), "desc-base-offset-range"));
  EXPECT_FALSE(Has(RunValue(Tc(sw64 | (3ull << 49))), "desc-base-offset-range"));
  const uint64_t sw32 = (kClean & ~(7ull << 61)) | (6ull << 61);
  EXPECT_TRUE(Has(RunValue(Tc(sw32 | (2ull << 49))), "desc-base-offset-range"));
  EXPECT_FALSE(Has(RunValue(Tc(sw32 | (1ull << 49))), "desc-base-offset-range"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean | (7ull << 49))), "desc-base-offset-range"));  // 128B: 0..7
}

// [SPEC] 3.1 (wgmma.mma_async requires sm_90a) and 4.4 (tcgen05.mma: sm_100a, sm_101a/sm_110a, family).
TEST(ArchTarget, FamilyAndTarget) {
  EXPECT_TRUE(Has(RunValue(Wg(0x4000004000010040ull), true, Target::kSm100a), "desc-arch-target"));
  EXPECT_FALSE(Has(RunValue(Wg(0x4000004000010040ull), true, Target::kSm90a), "desc-arch-target"));
  EXPECT_TRUE(Has(RunValue(Tc(kClean), true, Target::kSm90a), "desc-arch-target"));
  EXPECT_TRUE(Has(RunValue(Tc(kClean), true, Target::kSm120a), "desc-arch-target"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean), true, Target::kSm100a), "desc-arch-target"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean), true, Target::kSm103f), "desc-arch-target"));
}

// [PTX-TC] 9.7.16.4.1.1: "The byte address mode for the leading dimension stride is supported on sm_103a";
// 9.7.16.3.1.2.1: only 128B swizzle with 16-byte atomicity, base offset 0.
TEST(LboAbsolute, TargetSwizzleBaseOffset) {
  const uint64_t abs = kClean | (1ull << 52);
  EXPECT_TRUE(Has(RunValue(Tc(abs), true, Target::kSm100a), "desc-lbo-absolute-target"));
  EXPECT_FALSE(Has(RunValue(Tc(abs), true, Target::kSm103a), "desc-lbo-absolute-target"));
  EXPECT_FALSE(Has(RunValue(Tc(abs)), "desc-lbo-absolute-target"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean), true, Target::kSm100a), "desc-lbo-absolute-target"));

  EXPECT_TRUE(Has(RunValue(Tc((abs & ~(7ull << 61)) | (4ull << 61))), "desc-lbo-absolute-swizzle"));
  EXPECT_TRUE(Has(RunValue(Tc((abs & ~(7ull << 61)) | (1ull << 61))), "desc-lbo-absolute-swizzle"));
  EXPECT_FALSE(Has(RunValue(Tc(abs)), "desc-lbo-absolute-swizzle"));

  EXPECT_TRUE(Has(RunValue(Tc(abs | (1ull << 49))), "desc-lbo-absolute-base-offset"));
  EXPECT_FALSE(Has(RunValue(Tc(abs)), "desc-lbo-absolute-base-offset"));
  EXPECT_FALSE(Has(RunValue(Tc(kClean | (1ull << 49))), "desc-lbo-absolute-base-offset"));
}

// [PTX-WGMMA] SBO "the offset from the first 8 rows to the next 8 rows": 0 makes them overlap.
TEST(SboZero, DecodedValue) {
  EXPECT_TRUE(Has(RunValue(Tc(kClean & ~(0x3FFFull << 32))), "desc-sbo-zero"));
  EXPECT_FALSE(Has(RunValue(Tc((kClean & ~(0x3FFFull << 32)) | (1ull << 32))), "desc-sbo-zero"));
}

// ============================== layout rules ==============================
// [PTX-TC] 9.7.16.4.1: "The following must be 16-byte aligned: Matrix start address, Leading dimension
// byte offset, Stride dimension byte offset".
TEST(StartAlign16, SixteenBytes) {
  OperandLayout l = Tile();
  l.smem_address = 0x408;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-start-align-16"));
  l.smem_address = 0x410;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-start-align-16"));
}

TEST(LboSboAlign16, SixteenBytes) {
  OperandLayout l = Tile();
  l.swizzle = DescSwizzle::kNone;
  l.k = 16;
  l.has_lbo = true;
  l.lbo = 2056;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-lbo-align-16"));
  l.lbo = 2048;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-lbo-align-16"));
  l = Tile();
  l.has_sbo = true;
  l.sbo = 1032;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-sbo-align-16"));
  l.sbo = 1024;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-sbo-align-16"));
}

// [PTX-TC] matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4 in 14 bits: at most 0x3FFF0 = 262128 B.
TEST(FieldRanges, FourteenBitsOfSixteenBytes) {
  OperandLayout l = Tile();
  l.smem_address = 0x3FFF0;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-start-range"));
  l.smem_address = 0x40000;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-start-range"));
  l = Tile();
  l.swizzle = DescSwizzle::kNone;
  l.k = 16;
  l.has_lbo = true;
  l.lbo = 262128;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-lbo-range"));
  l.lbo = 262144;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-lbo-range"));
  l = Tile();
  l.has_sbo = true;
  l.sbo = 262128;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-sbo-range"));
  l.sbo = 262144;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-sbo-range"));
}

// [PTX-TC] Table 41 + formula: at 0x480 the base offset is (0x480 >> 7) & 7 = 1.
TEST(BaseOffsetMismatch, GivenValue) {
  OperandLayout l = Tile();
  l.smem_address = 0x480;
  l.has_base_offset = true;
  l.base_offset = 0;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-base-offset-mismatch"));
  l.base_offset = 1;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-base-offset-mismatch"));
}

// [PTX-TC] Table 41: base offset 0 when the pattern starts on 1024 (128B), 512 (64B), 256 (32B).
TEST(StartSwizzlePhase, OnAndOffTheRepeat) {
  OperandLayout l = Tile();
  l.smem_address = 0x480;
  const auto r = RunLayout(l);
  EXPECT_TRUE(Has(r.v, "desc-start-swizzle-phase"));
  EXPECT_TRUE(r.v.valid);  // a warning: the base offset is set
  l.smem_address = 0x400;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-start-swizzle-phase"));
  l.swizzle = DescSwizzle::k64B;
  l.k = 32;
  l.smem_address = 0x200;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-start-swizzle-phase"));
  l.smem_address = 0x280;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-start-swizzle-phase"));
  l.swizzle = DescSwizzle::kNone;
  l.k = 16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-start-swizzle-phase"));
}

// [PTX-WGMMA] layout types: none, 128B, 64B, 32B only.
TEST(WgmmaSwizzle, NoAtom32) {
  OperandLayout l = Tile();
  l.arch = DescArch::kWgmma;
  l.major = Major::kMN;
  l.type = ElemType::kTF32;
  l.swizzle = DescSwizzle::k128BAtom32B;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-wgmma-swizzle"));
  l.swizzle = DescSwizzle::k128B;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-wgmma-swizzle"));
}

// [SPEC] 3.1: wgmma element types (no 6- or 4-bit); transpose only for .f16/.bf16.
TEST(WgmmaTypes, SubByteAndMnMajor) {
  OperandLayout l = Tile();
  l.arch = DescArch::kWgmma;
  l.type = ElemType::kE2M1;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-wgmma-type"));
  l.type = ElemType::kE4M3;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-wgmma-type"));
  l.major = Major::kMN;
  l.type = ElemType::kTF32;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-wgmma-mn-major-type"));
  l.type = ElemType::kE4M3;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-wgmma-mn-major-type"));
  l.type = ElemType::kBF16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-wgmma-mn-major-type"));
  l.type = ElemType::kF16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-wgmma-mn-major-type"));
  l.major = Major::kK;
  l.type = ElemType::kTF32;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-wgmma-mn-major-type"));
}

// [PTX-TC] Tables 54-55: K-major has no 32B-atom layout; MN-major: 8/16-bit all but 128B_atom_32B,
// 32-bit only 128B_atom_32B; no MN-major 4/6-bit row.
TEST(Tcgen05Table54, Combinations) {
  OperandLayout l = Tile();
  l.type = ElemType::kTF32;
  l.swizzle = DescSwizzle::k128BAtom32B;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-k-major-atom32"));
  l.major = Major::kMN;
  l.k = 8;
  const auto ok = RunLayout(l);
  EXPECT_FALSE(Has(ok.v, "desc-k-major-atom32"));
  EXPECT_FALSE(Has(ok.v, "desc-mn-major-tf32-swizzle"));
  EXPECT_FALSE(Has(ok.v, "desc-atom32-type"));
  l.swizzle = DescSwizzle::k128B;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-mn-major-tf32-swizzle"));
  l.type = ElemType::kBF16;
  l.k = 16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-atom32-type"));
  l.swizzle = DescSwizzle::k128BAtom32B;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-atom32-type"));
  l.swizzle = DescSwizzle::k128B;
  l.type = ElemType::kE2M3;
  l.k = 32;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-mn-major-sub-byte"));
  l.type = ElemType::kE4M3;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-mn-major-sub-byte"));
  l.major = Major::kK;
  l.type = ElemType::kE2M3;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-mn-major-sub-byte"));
}

// [PTX-WGMMA] core matrices are 8 rows x 16 bytes.
TEST(TileShape, MnAndK) {
  OperandLayout l = Tile();
  l.mn = 120;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-mn"));
  l.mn = 124;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-mn"));
  l = Tile();
  l.major = Major::kMN;
  l.mn = 8;  // 16 B of bf16
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-mn"));
  l.mn = 4;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-mn"));
  l = Tile();
  l.k = 24;  // 48 B
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-k"));
  l.k = 20;  // 40 B
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-k"));
  l = Tile();
  l.major = Major::kMN;
  l.k = 24;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-k"));
  l.k = 20;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-k"));
}

// [PTX-ID] Table 39: .kind::f16 has K = 16.
TEST(TileKStep, AtLeastOneMma) {
  OperandLayout l = Tile();
  l.k = 16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-k-step"));
  l.k = 8;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-k-step"));
}

// [PTX-WGMMA] Table 38: a 128B K-major atom is 8 x 128 bytes.
TEST(TileKAtoms, WiderThanOneAtom) {
  OperandLayout l = Tile();
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-tile-k-atoms"));  // 64 bf16 = 128 B
  l.k = 72;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-tile-k-atoms"));
}

// [PTX-WGMMA] LBO, K-major, swizzled: "not used, assumed to be 1".
TEST(LboUnused, SwizzledKMajor) {
  OperandLayout l = Tile();
  l.has_lbo = true;
  l.lbo = 16;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-lbo-unused"));
  l.lbo = 32;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-lbo-unused"));
}

// Dense TMA order (smem_descriptor.h) of a K-major no-swizzle 128 x 16 bf16 tile: two 16-byte K slabs of
// 128 rows: LBO = 128 x 16 = 2048 B, SBO = 8 x 16 = 128 B ([PTX-WGMMA] K-major no-swizzle definitions).
TEST(LboSboCanonical, DenseTile) {
  OperandLayout l = Tile();
  l.swizzle = DescSwizzle::kNone;
  l.k = 16;
  l.has_lbo = true;
  l.lbo = 2048;
  l.has_sbo = true;
  l.sbo = 128;
  auto r = RunLayout(l);
  EXPECT_FALSE(Has(r.v, "desc-lbo-canonical"));
  EXPECT_FALSE(Has(r.v, "desc-sbo-canonical"));
  l.lbo = 4096;
  l.sbo = 256;
  r = RunLayout(l);
  EXPECT_TRUE(Has(r.v, "desc-lbo-canonical"));
  EXPECT_TRUE(Has(r.v, "desc-sbo-canonical"));
  l.lbo = 128;  // swapped
  l.sbo = 2048;
  r = RunLayout(l);
  SmemCheck c;
  c.desc = r.desc;
  c.layout = &r.layout;
  c.facts = &r.facts;
  EXPECT_NE(MessageOf(r.v, c, "desc-lbo-canonical").find("swapped"), std::string::npos);
}

// [PTX-TC] 9.7.16.3.1.2.1: "Only K-Major mode is supported".
TEST(LboAbsoluteMajor, KMajorOnly) {
  OperandLayout l = Tile();
  l.lbo_absolute = true;
  l.has_lbo = true;
  l.lbo = 0x800;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-lbo-absolute-major"));
  l.major = Major::kMN;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-lbo-absolute-major"));
}

// Programming Guide: 227 KiB (232448 B) of shared memory per block on sm_90/sm_100.
TEST(SmemCapacity, TileEnd) {
  OperandLayout l = Tile();  // 16384 B
  l.smem_address = 232448 - 16384;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-smem-capacity"));
  l.smem_address += 1024;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-smem-capacity"));
}

// [PTX-WGMMA] LBO/SBO definitions: a zero stride where the tile has two core matrices in that
// direction makes them overlap.
TEST(StrideZero, NeededStrides) {
  OperandLayout l = Tile();
  l.has_sbo = true;
  l.sbo = 0;
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-stride-zero"));
  l.mn = 8;  // one 8-row group: SBO is never used
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-stride-zero"));
  l = Tile();
  l.swizzle = DescSwizzle::kNone;
  l.k = 16;
  l.has_lbo = true;
  l.lbo = 0;  // the two 16-byte K columns would overlap
  EXPECT_TRUE(Has(RunLayout(l).v, "desc-stride-zero"));
  l.lbo = 2048;
  EXPECT_FALSE(Has(RunLayout(l).v, "desc-stride-zero"));
}

// ============================== advance rules ==============================
TEST(AdvanceAlign16, OddStep) {
  OperandLayout l = Tile();
  l.type = ElemType::kE4M3;
  l.k = 128;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  Advance a = AdvanceSubTile(l, f, d, 0, 8);
  EXPECT_TRUE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-align-16"));
  a = AdvanceSubTile(l, f, d, 0, 16);
  EXPECT_FALSE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-align-16"));
}

// [PTX-SW] 32B pattern repeats every 256 B = 8 rows of 32 B; row 4 is in the second 128-byte row.
TEST(AdvanceBaseOffset, IntoAnotherPatternRow) {
  OperandLayout l = Tile();
  l.swizzle = DescSwizzle::k32B;
  l.mn = 64;
  l.k = 16;
  l.smem_address = 0;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  Advance a = AdvanceSubTile(l, f, d, 4, 0);
  const auto r = RunLayout(l, false, Target::kSm100a, &a);
  EXPECT_TRUE(Has(r.v, "desc-advance-base-offset"));
  EXPECT_TRUE(r.v.valid);
  a = AdvanceSubTile(l, f, d, 8, 0);
  EXPECT_FALSE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-base-offset"));
}

TEST(AdvanceRange, PastTheStartField) {
  OperandLayout l = Tile();
  l.smem_address = 0x3F000;
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  Advance a = AdvanceSubTile(l, f, d, 64, 0);  // + 8 x 1024 B
  EXPECT_TRUE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-range"));
  a = AdvanceSubTile(l, f, d, 24, 0);  // + 3 x 1024 B = 0x3FC00
  EXPECT_FALSE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-range"));
}

TEST(AdvanceOutsideTile, KSlices) {
  const OperandLayout l = Tile();  // K = 64 bf16: 4 slices of 16
  const LayoutFacts f = ComputeLayoutFacts(l);
  const SmemDesc d = BuildSmemDesc(l, f);
  Advance a = AdvanceKSlice(l, f, d, 3);
  EXPECT_FALSE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-outside-tile"));
  a = AdvanceKSlice(l, f, d, 4);
  EXPECT_TRUE(Has(RunLayout(l, false, Target::kSm100a, &a).v, "desc-advance-outside-tile"));
}

// ============================== the table ==============================
// Every rule of the table has a test (this file, map_consistency_test.cc, instr_descriptor_test.cc),
// and ids are unique. Add the id here when adding a rule and its test.
TEST(RuleTable, EveryRuleIsTestedAndUnique) {
  const std::set<std::string> tested = {
      "desc-layout-type-invalid", "desc-tcgen05-version", "desc-tcgen05-fixed-zero", "desc-reserved-bits",
      "desc-base-offset-no-swizzle", "desc-base-offset-range", "desc-arch-target", "desc-lbo-absolute-target",
      "desc-lbo-absolute-swizzle", "desc-lbo-absolute-base-offset", "desc-sbo-zero", "desc-start-align-16",
      "desc-lbo-align-16", "desc-sbo-align-16", "desc-start-range", "desc-lbo-range", "desc-sbo-range",
      "desc-base-offset-mismatch", "desc-start-swizzle-phase", "desc-wgmma-swizzle", "desc-wgmma-type",
      "desc-wgmma-mn-major-type", "desc-k-major-atom32", "desc-mn-major-sub-byte", "desc-mn-major-tf32-swizzle",
      "desc-atom32-type", "desc-tile-mn", "desc-tile-k", "desc-tile-k-step", "desc-tile-k-atoms", "desc-lbo-unused",
      "desc-lbo-canonical", "desc-sbo-canonical", "desc-lbo-absolute-major", "desc-smem-capacity", "desc-stride-zero",
      "desc-advance-align-16", "desc-advance-base-offset", "desc-advance-range", "desc-advance-outside-tile",
      "map-interleave", "map-swizzle-unsupported", "map-dtype", "map-type-bits", "map-box-wider-than-atom",
      "map-box-narrower-than-atom", "map-dst-align-128", "map-dst-phase", "map-layout-encoding",
      "map-swizzle-mismatch", "map-atomicity-mismatch", "map-lbo-mismatch", "map-sbo-mismatch",
      "map-base-offset-mismatch", "map-start-outside", "map-start-offset", "map-chunks-disagree", "idesc-variant",
      "idesc-m", "idesc-n", "idesc-a-tmem-transpose", "idesc-k96", "idesc-d-type", "idesc-ab-type", "idesc-ab-type-match", "idesc-negate-i8",
      "idesc-saturate", "idesc-transpose-kind", "idesc-transpose-type", "idesc-transpose-n", "idesc-sparse-selector",
      "idesc-max-shift", "idesc-scale-type", "idesc-sf-id", "idesc-reserved", "idesc-target",
  };
  std::set<std::string> table;
  for (int i = 0; i < NumDescRules(); ++i) {
    const DescRule& r = DescRules()[i];
    EXPECT_TRUE(table.insert(std::string(r.id)).second) << "duplicate id " << r.id;
    EXPECT_FALSE(r.summary.empty()) << r.id;
    EXPECT_FALSE(r.source.empty()) << r.id;
    EXPECT_EQ(FindDescRule(r.id), i);
  }
  EXPECT_EQ(table, tested);
  EXPECT_EQ(FindDescRule("no-such-rule"), -1);
}

}  // namespace
}  // namespace tmapgen::desc
