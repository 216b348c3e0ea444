// Rendering tests: chunk placements against the documented 128B pattern, complete JSON, SVG, colors.
#include <gtest/gtest.h>

#include <string>

#include "src/desc/desc_render.h"
#include "src/json/json_writer.h"
#include "tests/util/json_check.h"
#include "tests/desc/desc_test_util.h"

namespace tmapgen::desc {
namespace {

SmemDescReport MapReport(Swizzle sw, uint32_t box0, uint64_t smem, const SmemDesc* user = nullptr) {
  SmemDescReport r;
  MapUse use;
  DeriveFromMap(test::Map2d(DataType::kBfloat16, box0, 128, sw, smem), use, &r.map);
  r.has_map = true;
  r.has_layout = true;
  r.layout = r.map.layout;
  r.facts = r.map.facts;
  r.desc = user ? *user : r.map.desc;
  r.user_value = user != nullptr;
  r.draw = true;
  FinishSmemReport(&r);
  return r;
}

// [PTX-SW] 128B: row r holds chunk c at position c ^ r. Row 1 of a tile at 0x400 is the 128 bytes at
// 0x480; its K chunks 0 and 1 sit at positions 1 and 0: 0x490 and 0x480.
TEST(Placements, FollowThe128BPattern) {
  const SmemDescReport r = MapReport(Swizzle::k128B, 64, 0x400);
  bool seen0 = false, seen1 = false;
  for (const ChunkPlace& p : MmaPlacements(r)) {
    if (p.row == 1 && p.col == 0) { EXPECT_EQ(p.address, 0x490u); seen0 = true; }
    if (p.row == 1 && p.col == 1) { EXPECT_EQ(p.address, 0x480u); seen1 = true; }
  }
  EXPECT_TRUE(seen0 && seen1);
  EXPECT_EQ(MmaPlacements(r).size(), 128u * 2);   // 128 rows x 32 B of K
  EXPECT_EQ(TmaPlacements(r).size(), 128u * 8);   // 128 rows x 128 B
  for (const ChunkPlace& p : TmaPlacements(r))
    if (p.row == 7 && p.col == 3) {
      EXPECT_EQ(p.address, 0x400u + 7 * 128 + (3 ^ 7) * 16);
    }
}

TEST(DrawText, AgreementAndDisagreement) {
  const SmemDescReport ok = MapReport(Swizzle::k128B, 64, 0x400);
  const std::string t = DrawText(ok);
  EXPECT_NE(t.find("every chunk the MMA reads is where the TMA put it"), std::string::npos);
  EXPECT_NE(t.find("core matrices"), std::string::npos);
  SmemDesc bad = ok.desc;
  bad.set_base_offset(3);
  const SmemDescReport wrong = MapReport(Swizzle::k128B, 64, 0x400, &bad);
  EXPECT_NE(DrawText(wrong).find("differ"), std::string::npos);
  EXPECT_FALSE(wrong.validation.valid);
}

TEST(Json, CompleteDocuments) {
  const SmemDescReport r = MapReport(Swizzle::k64B, 32, 0x400);
  json::Writer w;
  WriteSmemJson(r, &w);
  EXPECT_TRUE(w.complete()) << w.error();
  EXPECT_TRUE(testing_json::IsValidJson(w.str())) << w.str();
  EXPECT_NE(w.str().find("\"kind\":\"smem_descriptor\""), std::string::npos);
  EXPECT_NE(w.str().find("\"drawing\""), std::string::npos);

  IdescReport ir;
  ir.check.spec.kind = MmaKind::kF16;
  ir.check.fields = DecodeIdescFields(EncodeIdesc(ir.check.spec), MmaKind::kF16);
  FinishIdescReport(&ir);
  json::Writer w2;
  WriteIdescJson(ir, &w2);
  EXPECT_TRUE(w2.complete());
  EXPECT_NE(w2.str().find("\"value\":\"0x08400490\""), std::string::npos);
  json::Writer w3;
  WriteIdescAllKindsJson(0x08400490u, IdescSpec(), &w3);
  EXPECT_TRUE(w3.complete());
}

TEST(Svg, OneRectPerCellAndClosed) {
  const SmemDescReport r = MapReport(Swizzle::k128B, 64, 0x400);
  const std::string svg = DrawSvg(r);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("MMA reads"), std::string::npos);
  EXPECT_NE(svg.find("TMA wrote"), std::string::npos);
  EXPECT_EQ(svg.find("#d00"), std::string::npos);  // nothing marked as misplaced
}

TEST(Text, ColorsOnlyWhenAsked) {
  const SmemDescReport r = MapReport(Swizzle::k128B, 64, 0x400);
  EXPECT_EQ(RenderSmemText(r, false).find('\033'), std::string::npos);
  EXPECT_NE(RenderSmemText(r, true).find('\033'), std::string::npos);
}

// A UINT8 map (cuda.h CU_TENSOR_MAP_DATA_TYPE_UINT8) says only that its elements are 8 bits: what they hold is the
// MMA's choice (PTX ISA 9.2 section 9.7.15.5.1: wgmma .atype/.btype .e4m3/.e5m2, or .u8/.s8 for integer wgmma;
// section 9.7.16.4.2, Tables 42-44: the tcgen05 instruction descriptor's A/B type fields, e4m3/e5m2/e2m3/e3m2/e2m1
// under .kind::f8f6f4, u8/s8 under .kind::i8). The report names the map's type and what decides the rest.
TEST(Text, AU8MapIsCalledU8AndTheMmaDecidesWhatItHolds) {
  for (DescArch arch : {DescArch::kTcgen05, DescArch::kWgmma}) {
    SmemDescReport r;
    MapUse use;
    use.arch = arch;
    DeriveFromMap(test::Map2d(DataType::kUint8, 128, 128, Swizzle::k128B, 0x400), use, &r.map);
    r.has_map = true;
    r.has_layout = true;
    r.layout = r.map.layout;
    r.facts = r.map.facts;
    r.desc = r.map.desc;
    FinishSmemReport(&r);
    const std::string t = RenderSmemText(r, false);
    SCOPED_TRACE(t);
    EXPECT_EQ(t.find("e4m3 (from the map's data type)"), std::string::npos);
    EXPECT_NE(t.find("K-major, u8 (the map says u8: 8-bit elements whose type the "), std::string::npos);
    if (arch == DescArch::kWgmma) {
      EXPECT_NE(t.find("wgmma .atype/.btype e4m3 or e5m2, or u8 or s8 for integer wgmma"), std::string::npos);
    } else {
      EXPECT_NE(t.find("A/B type fields, e4m3, e5m2, ... under .kind::f8f6f4, u8 or s8 under .kind::i8"), std::string::npos);
    }
    json::Writer w;
    WriteSmemJson(r, &w);
    EXPECT_NE(w.str().find("\"dtype\":\"u8\",\"dtype_inferred\":true,\"map_dtype\":\"u8\",\"dtype_note\":\"the map says u8"),
              std::string::npos) << w.str();
  }
  // A bf16 map decides its operand type: no note.
  const SmemDescReport b = MapReport(Swizzle::k128B, 64, 0x400);
  EXPECT_NE(RenderSmemText(b, false).find("bf16 (from the map's data type)"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::desc
