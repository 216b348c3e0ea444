// What tensormap.replace writes (tests/blob/gpu/replace_probe.cu on the H200, committed as
// tests/blob/data/replace_probe_h200.jsonl.gz) decoded with the driver's layout: each replaced field lands in
// the field of the same name, with the value PTX ISA 9.7.9.26 gives it (new_val; .rank is rank - 1; .elemtype
// in the PTX numbering of Table 33), and no other bit changes. So maps built or changed on the device decode too.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "src/blob/blob.h"
#include "src/json/json_reader.h"
#include "src/schema/corpus_json.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen::blob {
namespace {

struct Line {
  std::string probe, field, start;
  int ord = -1;
  uint64_t value = 0;
  std::string before, after, bytes, driver;
  int64_t load_result = -1, elements_wrong = -1;
};

bool ParseLine(const std::string& text, Line* l) {
  json::Reader r(text);
  if (!r.BeginObject()) return false;
  std::string_view key, sv;
  int64_t v = 0;
  while (r.NextKey(&key)) {
    if (key == "probe" || key == "field" || key == "start" || key == "before" || key == "after" || key == "bytes" ||
        key == "driver") {
      if (!r.ReadStringView(&sv)) return false;
      std::string* dst = key == "probe" ? &l->probe : key == "field" ? &l->field : key == "start" ? &l->start
                         : key == "before" ? &l->before : key == "after" ? &l->after : key == "bytes" ? &l->bytes : &l->driver;
      *dst = std::string(sv);
    } else if (key == "ord") { if (!r.ReadInt64(&v)) return false; l->ord = static_cast<int>(v); }
    else if (key == "value") { if (!r.ReadUint64(&l->value)) return false; }
    else if (key == "load_result") { if (!r.ReadInt64(&l->load_result)) return false; }
    else if (key == "elements_wrong") { if (!r.ReadInt64(&l->elements_wrong)) return false; }
  }
  return r.ok();
}

MapBytes FromHex(const std::string& hex) {
  std::array<uint8_t, 128> a{};
  EXPECT_TRUE(ParseHex128(hex, &a)) << hex;
  MapBytes m;
  std::copy(a.begin(), a.end(), m.begin());
  return m;
}

// PTX ISA Table 33 .elemtype -> CUtensorMapDataType (the PTX text: "do not correspond to the values of the
// CUtensorMapDataType enum"): .u8 .. .f32 are 0..7, .f32.ftz 8, .f64 9, .bf16 10, .tf32 11, .tf32.ftz 12.
int CudaTypeOfPtxElemtype(uint64_t v) {
  static const int k[13] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11, 12};
  return v < 13 ? k[v] : -1;
}

TEST(BlobReplaceProbe, EachTensormapReplaceLandsInItsField) {
  std::vector<Line> lines;
  testing::ForEachLine(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/replace_probe_h200.jsonl.gz",
                       [&](const std::string& text, size_t no) {
                         Line l;
                         ASSERT_TRUE(ParseLine(text, &l)) << no;
                         lines.push_back(l);
                       });
  size_t checked = 0;
  int n = 0;
  const MapField* fields = Fields(&n);
  for (const Line& l : lines) {
    if (l.probe != "replace") continue;
    const MapBytes before = FromHex(l.before), after = FromHex(l.after);
    // The table field the replace targets, and the value it must decode to.
    std::string name;
    int64_t want = static_cast<int64_t>(l.value);
    if (l.field == "global_address") name = "global_address";
    else if (l.field == "rank") { name = "tensor_rank"; want = static_cast<int64_t>(l.value) + 1; }
    else if (l.field == "box_dim") name = "box_dim[" + std::to_string(l.ord) + "]";
    else if (l.field == "global_dim") name = "global_dim[" + std::to_string(l.ord) + "]";
    else if (l.field == "global_stride") name = "global_strides[" + std::to_string(l.ord) + "]";
    else if (l.field == "element_stride") name = "element_strides[" + std::to_string(l.ord) + "]";
    else if (l.field == "elemtype") { name = "tensor_data_type"; want = CudaTypeOfPtxElemtype(l.value); }
    else if (l.field == "interleave_layout") name = "interleave";
    else if (l.field == "swizzle_mode") name = "swizzle";
    else if (l.field == "fill_mode") name = "oob_fill";
    ASSERT_FALSE(name.empty()) << l.field;
    // Decode the result as a rank-5 tiled map (so every dimension's field is active), and compare.
    MapBytes probe = after;
    const MapField* rank_field = &RankField();
    if (l.field != "rank") Scatter(&probe, *rank_field, 4);
    const Decoded d = Decode(probe);
    const FieldValue* got = nullptr;
    for (const FieldValue& fv : d.fields)
      if (fv.field->name == name) got = &fv;
    ASSERT_NE(got, nullptr) << name;
    EXPECT_EQ(got->value, want) << l.field << " ord " << l.ord << " value " << l.value << " start " << l.start;
    // No bit outside the field (and, for elemtype, the TF32 bit) changed.
    for (int bit : DifferingBits(before, after)) {
      bool inside = false;
      for (int k = 0; k < n; ++k) {
        if (fields[k].name != name && !(l.field == "elemtype" && fields[k].name == "tf32")) continue;
        for (const Piece& p : fields[k].pieces) inside = inside || (bit >= p.lo && bit < p.lo + p.width);
      }
      EXPECT_TRUE(inside) << l.field << ": bit " << bit << " changed outside " << name;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 156u);
}

// The map built on the device from zeros (every tensormap.replace field set, as cuda.h would pass them) equals
// the driver's map except L2 promotion (no replace field) and the two derived fields, which tensormap.replace
// never writes; the TMA load through it was correct. The decoder explains it with notes, not errors.
TEST(BlobReplaceProbe, AMapBuiltFromZerosDiffersOnlyInL2AndTheDerivedFields) {
  bool seen = false;
  testing::ForEachLine(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/replace_probe_h200.jsonl.gz",
                       [&](const std::string& text, size_t) {
                         Line l;
                         ASSERT_TRUE(ParseLine(text, &l));
                         if (l.probe != "device_built" || l.start != "zero") return;
                         seen = true;
                         EXPECT_EQ(l.load_result, 0);
                         EXPECT_EQ(l.elements_wrong, 0);
                         const MapBytes built = FromHex(l.bytes), driver = FromHex(l.driver);
                         EXPECT_EQ(DifferingBits(built, driver), (std::vector<int>{82, 524, 586}));
                         const Decoded d = Decode(built);
                         EXPECT_TRUE(d.spec_ok);
                         EXPECT_TRUE(d.unexplained.empty());
                         ASSERT_EQ(d.findings.size(), 2u);
                         for (const DecodeFinding& f : d.findings) {
                           EXPECT_TRUE(f.note) << f.message;
                           EXPECT_NE(f.message.find("tensormap.replace"), std::string::npos) << f.message;
                         }
                         EXPECT_EQ(d.spec.box_dim[0], 64u);
                         EXPECT_EQ(d.spec.global_strides[0], 512u);
                       });
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace tmapgen::blob
