// The field table (src/tmap/spec_fields.h): its rows are consistent, cover cuda.h's parameters, are documented,
// and every front end that iterates it reads and writes every row.
#include "src/tmap/spec_fields.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {
namespace {

TEST(SpecFields, RowsAreConsistent) {
  std::set<std::string_view> keys, flags, keywords;
  for (size_t i = 0; i < kNumSpecFields; ++i) {
    const FieldInfo& f = kSpecFields[i];
    EXPECT_EQ(f.bit, 1u << i) << f.key;
    EXPECT_EQ(FieldIndexOf(f.bit), i) << f.key;
    EXPECT_EQ(FieldKey(f.bit), f.key);
    EXPECT_TRUE(keys.insert(f.key).second) << "key twice: " << f.key;
    EXPECT_TRUE(flags.insert(f.flag).second) << "flag twice: " << f.flag;
    EXPECT_TRUE(keywords.insert(f.key).second) << f.key;
    if (!f.py_alias.empty()) {
      EXPECT_TRUE(keywords.insert(f.py_alias).second) << "Python keyword twice: " << f.py_alias;
    }
    for (const char c : f.key) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << f.key;
    for (const char c : f.flag) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << f.flag;
    EXPECT_FALSE(f.help.empty()) << f.key;
  }
  // The array rows are numbered in table order, as FinishSpec's counts are.
  EXPECT_EQ(kArrGlobalDim, 0);
  EXPECT_EQ(kArrUpperCorner, kNumSpecArrays - 1);
  EXPECT_EQ(ArrayNumber(kFieldIndexName), -1);
}

// The parameters of cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide (cuda.h,
// CUDA 13.0) other than the output, in snake_case: each is a row of the table (and its kind is the one cuda.h's
// type needs; the wide mode is the `mode` parameter of cuTensorMapEncodeIm2colWide, CUtensorMapIm2ColWideMode).
TEST(SpecFields, EveryDriverParameterIsARow) {
  const struct {
    std::string_view key;
    FieldKind kind;
  } params[] = {
      {"tensor_data_type", FieldKind::kDataType}, {"tensor_rank", FieldKind::kU32},
      {"global_address", FieldKind::kAddress},    {"global_dim", FieldKind::kArray},
      {"global_strides", FieldKind::kArray},      {"box_dim", FieldKind::kArray},
      {"element_strides", FieldKind::kArray},     {"interleave", FieldKind::kEnum},
      {"swizzle", FieldKind::kEnum},              {"l2_promotion", FieldKind::kEnum},
      {"oob_fill", FieldKind::kEnum},             {"pixel_box_lower_corner", FieldKind::kArray},
      {"pixel_box_upper_corner", FieldKind::kArray}, {"channels_per_pixel", FieldKind::kU32},
      {"pixels_per_column", FieldKind::kU32},     {"pixel_box_lower_corner_width", FieldKind::kI32},
      {"pixel_box_upper_corner_width", FieldKind::kI32}, {"wide_mode", FieldKind::kEnum},
  };
  for (const auto& p : params) {
    size_t row = kNumSpecFields;
    for (size_t i = 0; i < kNumSpecFields; ++i)
      if (kSpecFields[i].key == p.key) row = i;
    ASSERT_LT(row, kNumSpecFields) << p.key;
    EXPECT_EQ(kSpecFields[row].kind, p.kind) << p.key;
  }
}

std::string ReadSourceFile(const std::string& path) {
  std::ifstream in(std::string(TMAPGEN_SOURCE_DIR) + "/" + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// docs/schema.md has a row for every field (a field added to the table and not to the user's page fails here).
TEST(SpecFields, EveryRowIsInTheSchemaDoc) {
  const std::string doc = ReadSourceFile("docs/schema.md");
  ASSERT_FALSE(doc.empty());
  for (const FieldInfo& f : kSpecFields)
    EXPECT_NE(doc.find("| `" + std::string(f.key) + "` |"), std::string::npos) << f.key << " is not in docs/schema.md";
}

// A value for every row that differs from the struct's default, in the JSON form the readers take.
std::string AllFieldsJson() {
  std::string o = "{";
  for (const FieldInfo& f : kSpecFields) {
    if (o.size() > 1) o += ",";
    o += "\"" + std::string(f.key) + "\":";
    switch (f.bit) {  // the values that depend on the field, not only its kind
      case kFieldMode: o += "\"im2col::w\""; continue;
      case kFieldDirection: o += "\"reduce\""; continue;
      case kFieldReduceOp: o += "\"max\""; continue;
      case kFieldTarget: o += "\"sm_100a\""; continue;
      case kFieldRank: o += "3"; continue;
      case kFieldGlobalStrides: o += "[256,4096]"; continue;
      case kFieldLowerCorner: case kFieldUpperCorner: o += "[-1]"; continue;
      default: break;
    }
    switch (f.kind) {
      case FieldKind::kText: o += "\"m\""; break;
      case FieldKind::kDataType: o += "\"bf16\""; break;
      case FieldKind::kEnum: o += "1"; break;
      case FieldKind::kU32: o += "7"; break;
      case FieldKind::kI32: o += "-2"; break;
      case FieldKind::kAddress: o += "\"0x10000\""; break;
      case FieldKind::kDriverVersion: o += "\"12.8\""; break;
      case FieldKind::kArray: o += "[64,16,2]"; break;
      case FieldKind::kName: ADD_FAILURE() << "no value for " << f.key; break;
    }
  }
  return o + "}";
}

// Every row is read by both JSON readers, written back by the canonical writer and read again unchanged.
TEST(SpecFields, EveryRowRoundTripsThroughJson) {
  const std::string text = AllFieldsJson();
  SpecJsonParser fast, full;
  full.set_fast_path(false);
  TensorMapSpec a, b;
  ASSERT_TRUE(fast.Parse(text, json::TextPos(), false, &a).ok()) << text;
  ASSERT_TRUE(full.Parse(text, json::TextPos(), false, &b).ok()) << text;
  EXPECT_EQ(fast.fast_reads(), 1u) << "the common form takes the fast path";
  EXPECT_TRUE(SameSpec(a, b));
  uint32_t all = 0;
  for (const FieldInfo& f : kSpecFields) all |= f.bit;
  EXPECT_EQ(a.set_fields, all);
  EXPECT_EQ(a.name, "m");
  EXPECT_EQ(a.wide_mode, Im2colWideMode::kW128);
  EXPECT_EQ(a.pixel_box_upper_corner_width, -2);
  EXPECT_EQ(a.driver_version, 12080u);
  EXPECT_EQ(a.smem_address, 0x10000u);
  json::Writer w;
  WriteSpecJson(a, &w);
  TensorMapSpec c;
  ASSERT_TRUE(full.Parse(w.str(), json::TextPos(), false, &c).ok()) << w.str();
  EXPECT_TRUE(SameSpec(a, c)) << w.str();
  // Every row given is written, in table order.
  size_t at = 0;
  for (const FieldInfo& f : kSpecFields) {
    const size_t p = w.str().find("\"" + std::string(f.key) + "\":");
    ASSERT_NE(p, std::string::npos) << f.key << " not written: " << w.str();
    EXPECT_GT(p + 1, at) << f.key << " out of order";
    at = p;
  }
}

TEST(SpecFields, SameSpecComparesEveryRow) {
  const absl::StatusOr<TensorMapSpec> base = ParseSpecJson(AllFieldsJson());
  ASSERT_TRUE(base.ok()) << base.status();
  EXPECT_TRUE(SameSpec(*base, *base));
  ForEachField(*base, [&](auto tag, const auto&) {
    TensorMapSpec other = *base;
    auto& m = Member<decltype(tag)::value>(other);
    using M = std::remove_reference_t<decltype(m)>;
    if constexpr (std::is_enum_v<M>) m = static_cast<M>(static_cast<int>(m) + 1);
    else if constexpr (std::is_same_v<M, std::string>) m += "x";
    else if constexpr (std::is_integral_v<M>) m = m + 1;
    else m[0] = m[0] + 1;
    EXPECT_FALSE(SameSpec(*base, other)) << kSpecFields[decltype(tag)::value].key;
  });
}

// The fields the mode ignores (cuda.h: cuTensorMapEncodeTiled takes a box and no corners; the im2col encoders
// take corners, channels and pixels and no box; only cuTensorMapEncodeIm2colWide takes the W corners and a wide
// mode; the reduction operation is an operand of cp.reduce.async.bulk.tensor only, PTX ISA 9.7.9.25.5.2).
TEST(SpecFields, IgnoredFieldsFollowTheEncoders) {
  EXPECT_EQ(IgnoredFields(Mode::kTiled, Direction::kLoadCta),
            uint32_t{kFieldReduceOp | kFieldLowerCorner | kFieldUpperCorner | kFieldLowerCornerWidth |
                     kFieldUpperCornerWidth | kFieldChannelsPerPixel | kFieldPixelsPerColumn | kFieldWideMode});
  EXPECT_EQ(IgnoredFields(Mode::kIm2col, Direction::kReduce),
            uint32_t{kFieldBoxDim | kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode});
  EXPECT_EQ(IgnoredFields(Mode::kIm2colW128, Direction::kStore),
            uint32_t{kFieldReduceOp | kFieldBoxDim | kFieldLowerCorner | kFieldUpperCorner});
  EXPECT_EQ(IgnoredFields(Mode::kGather4, Direction::kReduce),
            uint32_t{kFieldLowerCorner | kFieldUpperCorner | kFieldLowerCornerWidth | kFieldUpperCornerWidth |
                     kFieldChannelsPerPixel | kFieldPixelsPerColumn | kFieldWideMode});
}

}  // namespace
}  // namespace tmapgen
