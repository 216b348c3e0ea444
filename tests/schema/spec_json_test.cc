// The JSON form of a spec: accepted spellings, defaults, strict errors naming the field, round trip.
#include "src/schema/spec_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/tmap/rule.h"

namespace tmapgen {
namespace {

TensorMapSpec MustParse(const std::string& text) {
  TensorMapSpec s;
  InputError e;
  EXPECT_TRUE(ParseSpecJson(text, 1, &s, &e)) << text << "\n" << e.message;
  return s;
}

InputError MustFail(const std::string& text) {
  TensorMapSpec s;
  InputError e;
  EXPECT_FALSE(ParseSpecJson(text, 1, &s, &e)) << text;
  return e;
}

TEST(SpecJson, ShortAndFullEnumNamesAndIntegersAreTheSame) {
  const TensorMapSpec a = MustParse(
      R"({"tensor_data_type":"bf16","global_dim":[64,64],"box_dim":[64,8],"swizzle":"128B_atom_32B","interleave":"none","l2_promotion":"256B","oob_fill":"nan"})");
  const TensorMapSpec b = MustParse(
      R"({"tensor_data_type":"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16","global_dim":[64,64],"box_dim":[64,8],"swizzle":"CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B","interleave":"CU_TENSOR_MAP_INTERLEAVE_NONE","l2_promotion":"CU_TENSOR_MAP_L2_PROMOTION_L2_256B","oob_fill":"CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"})");
  // cuda.h values: BFLOAT16 = 9, SWIZZLE_128B_ATOM_32B = 4, L2_256B = 3, NAN_REQUEST_ZERO_FMA = 1.
  const TensorMapSpec c = MustParse(
      R"({"tensor_data_type":9,"global_dim":[64,64],"box_dim":[64,8],"swizzle":4,"interleave":0,"l2_promotion":3,"oob_fill":1})");
  for (const TensorMapSpec* s : {&a, &b, &c}) {
    EXPECT_EQ(s->data_type, DataType::kBfloat16);
    EXPECT_EQ(s->swizzle, Swizzle::k128BAtom32B);
    EXPECT_EQ(s->l2_promotion, L2Promotion::k256B);
    EXPECT_EQ(s->oob_fill, OobFill::kNanRequestZeroFma);
  }
}

TEST(SpecJson, DefaultsAreFilled) {
  const TensorMapSpec s = MustParse(R"({"tensor_data_type":"f16","global_dim":[100,7,3],"box_dim":[8,1,1]})");
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.mode, Mode::kTiled);
  EXPECT_EQ(s.direction, Direction::kLoadCta);
  // Dense strides: 100 x 2 B = 200 B padded to 208 B; then 208 x 7 = 1456 B.
  EXPECT_EQ(s.global_strides[0], 208u);
  EXPECT_EQ(s.global_strides[1], 1456u);
  EXPECT_EQ(s.element_strides[0], 1u);
  EXPECT_EQ(s.element_strides[2], 1u);
}

TEST(SpecJson, AddressesAndDriverVersions) {
  const TensorMapSpec s = MustParse(
      R"({"tensor_data_type":"u8","global_dim":[64],"box_dim":[64],"global_address":"0x7f0000000400","smem_address":1024,"driver_version":"12.8"})");
  EXPECT_EQ(s.global_address, 0x7f0000000400u);
  EXPECT_EQ(s.smem_address, 1024u);
  EXPECT_EQ(s.driver_version, 12080u);
  uint32_t v = 0;
  EXPECT_TRUE(ParseDriverVersion("13000", &v));
  EXPECT_EQ(v, 13000u);
  EXPECT_TRUE(ParseDriverVersion("13.1", &v));
  EXPECT_EQ(v, 13010u);
  EXPECT_FALSE(ParseDriverVersion("13.x", &v));
  EXPECT_FALSE(ParseDriverVersion("", &v));
}

TEST(SpecJson, ErrorsNameTheField) {
  struct Case { const char* text; const char* field; const char* contains; } cases[] = {
      {R"({"tensor_data_type":"bf17","global_dim":[8],"box_dim":[8]})", "tensor_data_type", "unknown value \"bf17\""},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"swizzle":7})", "swizzle", "out of range"},
      {R"({"tensor_data_type":"bf16","global_dim":[8,"x"],"box_dim":[8,1]})", "global_dim[1]", "expected"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[-8]})", "box_dim[0]", "got -8"},
      {R"({"tensor_data_type":"bf16","global_dim":[1,2,3,4,5,6],"box_dim":[1]})", "global_dim[5]", "more than 5"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"box_dim":[8]})", "box_dim", "twice"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box":[8]})", "box", "did you mean \"box_dim\""},
      {R"({"global_dim":[8],"box_dim":[8]})", "tensor_data_type", "missing"},
      {R"({"tensor_data_type":"bf16","box_dim":[8]})", "global_dim", "missing"},
      {R"({"tensor_data_type":"bf16","global_dim":[8]})", "box_dim", "missing"},
      {R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,8,8,8],"pixels_per_column":8})", "channels_per_pixel", "missing"},
      {R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,8,8,8],"channels_per_pixel":8,"pixels_per_column":8,"pixel_box_lower_corner":[1,2,3]})", "pixel_box_lower_corner", "needs 2"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"pixel_box_lower_corner_width":2147483648})", "pixel_box_lower_corner_width", "32-bit"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"global_address":"0xzz"})", "global_address", "expected an address"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"target":"sm_89"})", "target", "unknown value"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8]} x)", "", "line 1"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],)", "", "line 1"},
  };
  for (const Case& c : cases) {
    const InputError e = MustFail(c.text);
    EXPECT_EQ(e.field, c.field) << c.text << "\n" << e.message;
    EXPECT_NE(e.message.find(c.contains), std::string::npos) << c.text << "\n" << e.message;
  }
}

TEST(SpecJson, WriteThenReadIsTheSameSpec) {
  for (int m = 0; m < kNumModes; ++m) {
    TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
    s.name = "t\"x";
    s.set_fields |= kFieldName | kFieldTarget | kFieldSmemAddress;
    s.target = Target::kSm100a;
    s.smem_address = 0x480;
    json::Writer w;
    WriteSpecJson(s, &w);
    const TensorMapSpec r = MustParse(w.str());
    EXPECT_EQ(r.mode, s.mode);
    EXPECT_EQ(r.name, s.name);
    EXPECT_EQ(r.rank, s.rank);
    EXPECT_EQ(r.global_dim, s.global_dim);
    EXPECT_EQ(r.global_strides, s.global_strides);
    if (!IsIm2colMode(s.mode)) {
      EXPECT_EQ(r.box_dim, s.box_dim);
    }
    EXPECT_EQ(r.pixel_box_lower_corner_width, s.pixel_box_lower_corner_width);
    EXPECT_EQ(r.channels_per_pixel, s.channels_per_pixel);
    EXPECT_EQ(r.swizzle, s.swizzle);
    EXPECT_EQ(r.target, s.target);
    EXPECT_EQ(r.smem_address, s.smem_address);
  }
}

TEST(Docs, RulesDocumentListsEveryRule) {
  std::ifstream in(std::string(TMAPGEN_SOURCE_DIR) + "/docs/rules.md");
  ASSERT_TRUE(in) << "docs/rules.md missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (int i = 0; i < NumRules(); ++i) {
    const std::string id = "`" + std::string(Rules()[i].id) + "`";
    EXPECT_NE(doc.find(id), std::string::npos) << id << " is not in docs/rules.md: run scripts/gen-rules-doc.sh";
  }
}

}  // namespace
}  // namespace tmapgen
