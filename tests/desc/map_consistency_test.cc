// Map consistency tests: the descriptor a tensor map calls for, every map-* rule at its boundary, and a
// property check that the derived descriptor reads every 16-byte chunk of every K slice exactly where the
// TMA wrote it ([PTX-SW] swizzle on the absolute address; canonical layouts of [PTX-WGMMA]/[PTX-TC]).
#include <gtest/gtest.h>

#include <string>

#include "src/desc/map_consistency.h"
#include "tests/desc/desc_test_util.h"

namespace tmapgen::desc {
namespace {

using test::Has;
using test::Map2d;
using test::RunMap;

MapUse Use(DescArch a = DescArch::kTcgen05, Major m = Major::kK) {
  MapUse u;
  u.arch = a;
  u.major = m;
  return u;
}

std::string MessageOf(const test::MapRun& r, const SmemDesc& user, std::string_view id) {
  SmemCheck c;
  c.desc = user;
  c.user_value = true;
  c.layout = &r.d.layout;
  c.facts = &r.d.facts;
  c.map = &r.d;
  DescContext ctx;
  ctx.smem = &c;
  for (const DescDiagnostic& d : MakeDescDiagnostics(ctx, r.v))
    if (d.rule == id) return d.message;
  return "";
}

// ============================== worked cases ==============================
// A 128B-swizzled bf16 K-major box [64, 128] at 0x400: rows of 64 x 2 = 128 B (one swizzle atom along K),
// 8 rows per atom: SBO = 1024 B; 0x400 is on the 1024-byte repeat: base offset 0 ([PTX-TC] Table 41).
// tcgen05 value: start 0x40 | LBO 1 << 16 | SBO 64 << 32 | 0b001 << 46 | 128B (2) << 61.
TEST(MapDerive, Bf16KMajor128BAt0x400) {
  const auto r = RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400), Use());
  DescSwizzle s;
  ASSERT_TRUE(r.d.desc.swizzle(&s));
  EXPECT_EQ(s, DescSwizzle::k128B);
  EXPECT_EQ(r.d.desc.sbo_bytes(), 1024u);
  EXPECT_EQ(r.d.desc.base_offset(), 0u);
  EXPECT_EQ(r.d.desc.start_bytes(), 0x400u);
  EXPECT_EQ(r.d.desc.bits(), 0x4000404000010040ull);
  EXPECT_TRUE(r.v.valid);
  EXPECT_EQ(r.v.findings.size(), 0);
  // wgmma: the same fields, no bit 46, 128B = 1 at bits 62-63 ([PTX-WGMMA]).
  const auto w = RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400), Use(DescArch::kWgmma));
  EXPECT_EQ(w.d.desc.bits(), 0x40ull | (1ull << 16) | (64ull << 32) | (1ull << 62));
}

// The same at 0x480: (0x480 >> 7) & 7 = 1.
TEST(MapDerive, Bf16KMajor128BAt0x480) {
  const auto r = RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x480), Use());
  EXPECT_EQ(r.d.desc.base_offset(), 1u);
  EXPECT_EQ(r.d.desc.sbo_bytes(), 1024u);
  EXPECT_TRUE(r.v.valid);
  EXPECT_TRUE(Has(r.v, "map-dst-phase"));  // a warning: every descriptor of the buffer needs it
}

// A 64B-swizzled map read by a 128B descriptor.
TEST(MapCheck, SwizzleMismatch) {
  const TensorMapSpec map = Map2d(DataType::kBfloat16, 32, 128, Swizzle::k64B, 0x400);
  const SmemDesc user(DescArch::kTcgen05, 0x4000404000010040ull);  // 128B, SBO 1024
  const auto r = RunMap(map, Use(), &user);
  EXPECT_FALSE(r.v.valid);
  EXPECT_TRUE(Has(r.v, "map-swizzle-mismatch"));
  EXPECT_TRUE(Has(r.v, "map-chunks-disagree"));
  const auto ok = RunMap(map, Use(), &r.d.desc);
  EXPECT_FALSE(Has(ok.v, "map-swizzle-mismatch"));
  EXPECT_TRUE(ok.v.valid);
}

// ============================== derivations ==============================
// [PTX-TC] Table 54 / [SPEC] 4.3: MN-major tf32 uses 128B with 32-byte atomicity (layout type 1), atoms of
// 4 K rows x 128 B: SBO = 512 B; the next 128-byte atom along M/N is the next box slab (8 rows x 128 B).
TEST(MapDerive, MnMajorTf32Atom32) {
  const auto r = RunMap(Map2d(DataType::kTfloat32, 32, 8, Swizzle::k128BAtom32B, 0x800), Use(DescArch::kTcgen05, Major::kMN));
  EXPECT_EQ(r.d.desc.layout_type(), 1u);
  EXPECT_EQ(r.d.desc.sbo_bytes(), 512u);
  EXPECT_EQ(r.d.desc.lbo_bytes(), 8u * 128);
  EXPECT_TRUE(r.v.valid) << r.v.errors;
}

// im2col: channels are the contiguous (K) dimension of operand A; 64 bf16 channels = 128 B rows.
TEST(MapDerive, Im2colFeedsKMajorA) {
  TensorMapSpec s = DefaultSpec(Mode::kIm2col);
  s.smem_address = 0x1000;
  s.set_fields |= kFieldSmemAddress;
  const auto r = RunMap(s, Use());
  EXPECT_EQ(r.d.rows, s.pixels_per_column);
  EXPECT_EQ(r.d.desc.sbo_bytes(), 1024u);
  EXPECT_TRUE(r.v.valid);
}

// Packed fp4 (16U4_ALIGN8B, two per byte): 256 values = 128 B rows; one MMA reads 64 of them (32 B).
TEST(MapDerive, PackedFp4) {
  const auto r = RunMap(Map2d(DataType::k16U4Align8B, 256, 128, Swizzle::k128B, 0), Use());
  EXPECT_EQ(r.d.layout.type, ElemType::kE2M1);
  EXPECT_FALSE(r.d.layout.padded);
  EXPECT_EQ(r.d.facts.mma_k, 64u);
  EXPECT_EQ(r.d.desc.sbo_bytes(), 1024u);
  EXPECT_TRUE(r.v.valid);
}

// Property: the derived descriptor, and its K-slice advances, read every chunk where the TMA wrote it.
struct Case {
  DataType dtype;
  uint32_t box0, box1, box2;
  Swizzle sw;
  Major major;
  uint64_t dst;
};
TEST(MapDerive, EveryChunkOfEveryKSliceAgrees) {
  const Case cases[] = {
      {DataType::kBfloat16, 64, 128, 0, Swizzle::k128B, Major::kK, 0x400},
      {DataType::kBfloat16, 64, 64, 0, Swizzle::k128B, Major::kK, 0x480},
      {DataType::kBfloat16, 64, 64, 2, Swizzle::k128B, Major::kK, 0x800},
      {DataType::kBfloat16, 32, 64, 0, Swizzle::k64B, Major::kK, 0x280},
      {DataType::kBfloat16, 16, 64, 0, Swizzle::k32B, Major::kK, 0x100},
      {DataType::kBfloat16, 8, 64, 4, Swizzle::kNone, Major::kK, 0x80},
      {DataType::kTfloat32, 32, 64, 0, Swizzle::k128B, Major::kK, 0x0},
      {DataType::kUint8, 128, 128, 0, Swizzle::k128B, Major::kK, 0xC00},
      {DataType::kBfloat16, 64, 64, 2, Swizzle::k128B, Major::kMN, 0x400},
      {DataType::kFloat16, 32, 32, 2, Swizzle::k64B, Major::kMN, 0x200},
      {DataType::kFloat16, 16, 32, 0, Swizzle::k32B, Major::kMN, 0x300},
      {DataType::kBfloat16, 8, 32, 4, Swizzle::kNone, Major::kMN, 0x0},
      {DataType::kTfloat32, 32, 16, 2, Swizzle::k128BAtom32B, Major::kMN, 0x200},
  };
  for (const Case& c : cases) {
    TensorMapSpec map = Map2d(c.dtype, c.box0, c.box1, c.sw, c.dst);
    if (c.box2 != 0) {
      map.rank = 3;
      map.global_dim = {4096, 4096, 16, 0, 0};
      map.global_strides = {map.global_strides[0], map.global_strides[0] * 4096, 0, 0};
      map.box_dim[2] = c.box2;
    }
    const auto r = RunMap(map, Use(DescArch::kTcgen05, c.major));
    ASSERT_TRUE(r.v.valid) << ShortName(c.dtype) << " " << ShortName(c.sw) << " errors " << r.v.errors;
    const MapDerivation& d = r.d;
    const ChunkGrid g = FirstSliceGrid(d.layout, d.facts);
    const uint32_t slices = d.facts.k_slices;
    ASSERT_GT(slices, 0u);
    const uint64_t pitch = (d.layout.mn + 7) / 8 * d.desc.sbo_bytes();
    for (uint32_t k = 0; k < slices; ++k) {
      const Advance a = AdvanceKSlice(d.layout, d.facts, d.desc, k);
      for (uint32_t row = 0; row < g.rows; ++row)
        for (uint32_t col = 0; col < g.cols; ++col) {
          const uint32_t trow = c.major == Major::kK ? row : row + k * d.facts.kstep_rows;
          const uint32_t tcol = c.major == Major::kK ? col + k * d.facts.kstep_bytes / 16 : col;
          ASSERT_EQ(MmaChunkAddress(a.desc, c.major, d.layout.swizzle, pitch, row, col), TmaChunkAddress(d, trow, tcol))
              << ShortName(c.dtype) << " " << ShortName(c.sw) << " major " << Name(c.major) << " k " << k << " row "
              << row << " col " << col;
        }
    }
  }
}

// ============================== map rules ==============================
TEST(MapRules, Interleave) {
  TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400);
  EXPECT_FALSE(Has(RunMap(m, Use()).v, "map-interleave"));
  m.interleave = Interleave::k16B;
  EXPECT_TRUE(Has(RunMap(m, Use()).v, "map-interleave"));
}

// Descriptors name none, 32B, 64B, 128B (and, tcgen05 only, 128B with 32-byte atomicity).
TEST(MapRules, SwizzleUnsupported) {
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128BAtom64B, 0x400), Use()).v,
                  "map-swizzle-unsupported"));
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128BAtom32BFlip8B, 0x400), Use()).v,
                  "map-swizzle-unsupported"));
  const TensorMapSpec atom32 = Map2d(DataType::kTfloat32, 32, 8, Swizzle::k128BAtom32B, 0x400);
  EXPECT_TRUE(Has(RunMap(atom32, Use(DescArch::kWgmma, Major::kMN)).v, "map-swizzle-unsupported"));
  EXPECT_FALSE(Has(RunMap(atom32, Use(DescArch::kTcgen05, Major::kMN)).v, "map-swizzle-unsupported"));
}

TEST(MapRules, DtypeAndTypeBits) {
  TensorMapSpec m = Map2d(DataType::kUint32, 32, 128, Swizzle::k128B, 0x400);
  EXPECT_TRUE(Has(RunMap(m, Use()).v, "map-dtype"));
  MapUse u = Use();
  u.has_type = true;
  u.type = ElemType::kTF32;  // 32-bit data read as tf32
  const auto r = RunMap(m, u);
  EXPECT_FALSE(Has(r.v, "map-dtype"));
  EXPECT_FALSE(Has(r.v, "map-type-bits"));
  const TensorMapSpec f16 = Map2d(DataType::kFloat16, 64, 128, Swizzle::k128B, 0x400);
  EXPECT_TRUE(Has(RunMap(f16, u).v, "map-type-bits"));
  u.type = ElemType::kBF16;
  EXPECT_FALSE(Has(RunMap(f16, u).v, "map-type-bits"));
}

// No swizzle: the canonical core matrix row is 16 B; a 128-byte box row does not fit it. With 128B
// swizzle a 64-byte row is narrower than the atom.
TEST(MapRules, BoxRowVersusAtom) {
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::kNone, 0x400), Use()).v, "map-box-wider-than-atom"));
  EXPECT_FALSE(Has(RunMap(Map2d(DataType::kBfloat16, 8, 128, Swizzle::kNone, 0x400), Use()).v, "map-box-wider-than-atom"));
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 32, 128, Swizzle::k128B, 0x400), Use()).v, "map-box-narrower-than-atom"));
  EXPECT_FALSE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400), Use()).v, "map-box-narrower-than-atom"));
}

// Programming Guide: the shared-memory destination of a tensor copy is 128-byte aligned.
TEST(MapRules, Destination) {
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x440), Use()).v, "map-dst-align-128"));
  EXPECT_FALSE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x480), Use()).v, "map-dst-align-128"));
  EXPECT_FALSE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400), Use()).v, "map-dst-phase"));
  EXPECT_TRUE(Has(RunMap(Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x480), Use()).v, "map-dst-phase"));
}

// wgmma 128B = 1, tcgen05 128B = 2 and 1 = 128B with 32-byte atomicity ([PTX-WGMMA], [PTX-TC] Table 40):
// a tcgen05 descriptor carrying wgmma's 1 is read with 32-byte atomicity.
TEST(MapRules, LayoutEncodingAndAtomicity) {
  const TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400);
  const SmemDesc wrong(DescArch::kTcgen05, (0x4000404000010040ull & ~(7ull << 61)) | (1ull << 61));
  const auto r = RunMap(m, Use(), &wrong);
  EXPECT_TRUE(Has(r.v, "map-layout-encoding"));
  EXPECT_TRUE(Has(r.v, "map-atomicity-mismatch"));
  EXPECT_FALSE(Has(r.v, "map-swizzle-mismatch"));
  EXPECT_TRUE(Has(r.v, "desc-k-major-atom32"));
  // wgmma descriptor carrying tcgen05's 2 (which wgmma reads as 64B).
  const SmemDesc wg(DescArch::kWgmma, 0x40ull | (1ull << 16) | (64ull << 32) | (2ull << 62));
  const auto w = RunMap(m, Use(DescArch::kWgmma), &wg);
  EXPECT_TRUE(Has(w.v, "map-layout-encoding"));
  EXPECT_TRUE(Has(w.v, "map-swizzle-mismatch"));
  const auto ok = RunMap(m, Use(), &r.d.desc);
  EXPECT_FALSE(Has(ok.v, "map-layout-encoding"));
  EXPECT_FALSE(Has(ok.v, "map-atomicity-mismatch"));
  // A 128B map read with tcgen05's 32B-atom code by an MN-major tf32 operand: atomicity differs.
  const TensorMapSpec atom = Map2d(DataType::kTfloat32, 32, 8, Swizzle::k128BAtom32B, 0x400);
  const auto base = RunMap(atom, Use(DescArch::kTcgen05, Major::kMN));
  SmemDesc d128 = base.d.desc;
  d128.set_swizzle(DescSwizzle::k128B);
  EXPECT_TRUE(Has(RunMap(atom, Use(DescArch::kTcgen05, Major::kMN), &d128).v, "map-atomicity-mismatch"));
}

// K-major, no swizzle, 3D box [8, 128, 8] of bf16: 16-byte K slabs of 128 rows: LBO = 128 x 16 = 2048 B,
// SBO = 8 x 16 = 128 B ([PTX-WGMMA] K-major no-swizzle definitions).
TEST(MapRules, LboSbo) {
  TensorMapSpec m = Map2d(DataType::kBfloat16, 8, 128, Swizzle::kNone, 0x400);
  m.rank = 3;
  m.global_dim = {4096, 4096, 8, 0, 0};
  m.global_strides = {8192, 8192ull * 4096, 0, 0};
  m.box_dim[2] = 8;
  const auto base = RunMap(m, Use());
  EXPECT_EQ(base.d.desc.lbo_bytes(), 2048u);
  EXPECT_EQ(base.d.desc.sbo_bytes(), 128u);
  EXPECT_TRUE(base.v.valid);
  SmemDesc swapped = base.d.desc;
  swapped.set_lbo_bytes(128);
  swapped.set_sbo_bytes(2048);
  const auto r = RunMap(m, Use(), &swapped);
  EXPECT_TRUE(Has(r.v, "map-lbo-mismatch"));
  EXPECT_TRUE(Has(r.v, "map-sbo-mismatch"));
  EXPECT_NE(MessageOf(r, swapped, "map-lbo-mismatch").find("swapped"), std::string::npos);
  EXPECT_TRUE(Has(r.v, "map-chunks-disagree"));
  // Bytes written into the 16-byte-unit field: SBO 128 encoded as 128 (= 2048 B).
  SmemDesc raw = base.d.desc;
  raw.set_sbo_enc(128);
  EXPECT_NE(MessageOf(RunMap(m, Use(), &raw), raw, "map-sbo-mismatch").find("16-byte units"), std::string::npos);
}

// [PTX-WGMMA]: LBO of swizzled K-major layouts is not used: any LBO agrees with the map.
TEST(MapRules, LboIgnoredForSwizzledKMajor) {
  const TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400);
  SmemDesc d(DescArch::kTcgen05, 0x4000404000010040ull);
  d.set_lbo_enc(0);
  EXPECT_FALSE(Has(RunMap(m, Use(), &d).v, "map-lbo-mismatch"));
}

TEST(MapRules, BaseOffset) {
  const TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x480);
  SmemDesc d = RunMap(m, Use()).d.desc;
  EXPECT_FALSE(Has(RunMap(m, Use(), &d).v, "map-base-offset-mismatch"));
  d.set_base_offset(0);
  const auto r = RunMap(m, Use(), &d);
  EXPECT_TRUE(Has(r.v, "map-base-offset-mismatch"));
  EXPECT_TRUE(Has(r.v, "map-chunks-disagree"));
}

// K slices of the 128B bf16 box start 32 B apart within the rows.
TEST(MapRules, StartInsideAndOutside) {
  const TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400);
  SmemDesc d(DescArch::kTcgen05, 0x4000404000010040ull);
  d.set_start_bytes(0x420);  // K slice 1
  auto r = RunMap(m, Use(), &d);
  EXPECT_FALSE(Has(r.v, "map-start-offset"));
  EXPECT_FALSE(Has(r.v, "map-start-outside"));
  EXPECT_TRUE(r.v.valid);
  d.set_start_bytes(0x410);
  EXPECT_TRUE(Has(RunMap(m, Use(), &d).v, "map-start-offset"));
  d.set_start_bytes(0x0);
  EXPECT_TRUE(Has(RunMap(m, Use(), &d).v, "map-start-outside"));
  d.set_start_bytes(0x400 + 16384);  // just past the 16 KiB box
  EXPECT_TRUE(Has(RunMap(m, Use(), &d).v, "map-start-outside"));
}

TEST(MapRules, ChunksDisagree) {
  const TensorMapSpec m = Map2d(DataType::kBfloat16, 64, 128, Swizzle::k128B, 0x400);
  SmemDesc d = RunMap(m, Use()).d.desc;
  EXPECT_FALSE(Has(RunMap(m, Use(), &d).v, "map-chunks-disagree"));
  d.set_sbo_bytes(2048);
  EXPECT_TRUE(Has(RunMap(m, Use(), &d).v, "map-chunks-disagree"));
}

}  // namespace
}  // namespace tmapgen::desc
