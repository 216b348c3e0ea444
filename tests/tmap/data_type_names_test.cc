// The one table of data-type names (src/tmap/types.h, DataTypeName) and the spec readers that use it.
// Expected values: cuda.h (CUDA 13.0) CUtensorMapDataType numbers (UINT8 = 0, UINT16 = 1, INT32 = 3,
// FLOAT16 = 6, FLOAT32 = 7, BFLOAT16 = 9, TFLOAT32 = 11, 16U4_ALIGN8B = 13, 16U6_ALIGN16B = 15); the MMA types
// are the PTX ISA's (9.7.15 wgmma .atype: .f16 .bf16 .tf32 .e4m3 .e5m2 .s8 .u8; 9.7.16 tcgen05.mma
// .kind::f8f6f4: .e4m3 .e5m2 .e2m3 .e3m2 .e2m1).
#include <gtest/gtest.h>

#include <string>

#include "src/schema/spec_json.h"
#include "src/tmap/types.h"
#include "src/util/text_util.h"

namespace tmapgen {
namespace {

struct Want {
  const char* name;
  int cuda;         // the CUtensorMapDataType number of cuda.h
  bool data_alias;  // names what the bytes hold, not a map type
  MmaOperandType mma;
};

// Names of the brief's trial (--dtype e4m3/fp8/int8) and their neighbours, with the cuda.h type each stands for.
constexpr Want kWant[] = {
    {"e4m3", 0, true, MmaOperandType::kE4M3},   {"E4M3", 0, true, MmaOperandType::kE4M3},
    {"float8_e4m3fn", 0, true, MmaOperandType::kE4M3},
    {"e5m2", 0, true, MmaOperandType::kE5M2},   {"fp8", 0, true, MmaOperandType::kAmbiguous},
    {"int8", 0, true, MmaOperandType::kS8},     {"s8", 0, true, MmaOperandType::kS8},
    {"ue8m0", 0, true, MmaOperandType::kNone},  {"int16", 1, true, MmaOperandType::kNone},
    {"e2m1", 13, true, MmaOperandType::kE2M1},  {"e3m2", 15, true, MmaOperandType::kE3M2},
    {"fp6", 15, true, MmaOperandType::kAmbiguous},
    {"u8", 0, false, MmaOperandType::kU8},      {"uint8", 0, false, MmaOperandType::kU8},
    {"s32", 3, false, MmaOperandType::kNone},   {"half", 6, false, MmaOperandType::kF16},
    {"f32", 7, false, MmaOperandType::kTF32},   {"bf16", 9, false, MmaOperandType::kBF16},
    {"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 9, false, MmaOperandType::kBF16},
    {"tf32", 11, false, MmaOperandType::kTF32}, {"16u4_align8b", 13, false, MmaOperandType::kNone},
};

TEST(DataTypeNames, EachNameStandsForOneCudaType) {
  for (const Want& w : kWant) {
    DataType t = DataType::kFloat64;
    uint8_t alias = 77;
    ASSERT_TRUE(ParseDataType(w.name, &t, &alias)) << w.name;
    EXPECT_EQ(static_cast<int>(t), w.cuda) << w.name;
    EXPECT_EQ(alias != kNoDataAlias, w.data_alias) << w.name;
    const int row = FindDataTypeName(w.name);
    ASSERT_GE(row, 0) << w.name;
    EXPECT_EQ(DataTypeNameRow(row).mma, w.mma) << w.name;
    // Parse(DataType) reads the names of map types only: a data alias is never merged into u8 silently.
    DataType strict = DataType::kFloat64;
    EXPECT_EQ(Parse(w.name, &strict), !w.data_alias) << w.name;
    if (!w.data_alias) EXPECT_EQ(static_cast<int>(strict), w.cuda) << w.name;
  }
  DataType t;
  uint8_t alias;
  EXPECT_FALSE(ParseDataType("e9m9", &t, &alias));
  EXPECT_FALSE(ParseDataType("", &t, &alias));
}

// No name is in the table twice with different meanings (the index keeps the first of names equal ignoring
// case), and every row is found as itself.
TEST(DataTypeNames, NoNameHasTwoMeanings) {
  int n = 0;
  const DataTypeName* rows = DataTypeNames(&n);
  ASSERT_GT(n, kNumDataTypes);
  for (int i = 0; i < n; ++i) {
    const int found = FindDataTypeName(rows[i].name);
    ASSERT_GE(found, 0) << rows[i].name;
    const DataTypeName& f = DataTypeNameRow(found);
    EXPECT_EQ(f.type, rows[i].type) << rows[i].name;
    EXPECT_EQ(f.mma, rows[i].mma) << rows[i].name;
    EXPECT_EQ(f.holds, rows[i].holds) << rows[i].name;
    for (int j = i + 1; j < n; ++j) EXPECT_FALSE(EqualsIgnoreCase(rows[i].name, rows[j].name)) << rows[i].name;
  }
}

TEST(DataTypeNames, TheNoteSaysWhatTheAliasWasReadAs) {
  DataType t;
  uint8_t alias = kNoDataAlias;
  ASSERT_TRUE(ParseDataType("int8", &t, &alias));
  const std::string note(DataAliasNote(alias));
  EXPECT_EQ(note.rfind("int8 is a signed 8-bit integer, not a tensor-map type: the map uses CU_TENSOR_MAP_DATA_TYPE_UINT8", 0), 0u)
      << note;
  EXPECT_NE(note.find("the signedness matters only to the code that reads them"), std::string::npos) << note;
  EXPECT_TRUE(DataAliasNote(kNoDataAlias).empty());
}

// Both JSON readers (the fast path and simdjson) take every name and keep the data alias in the spec.
TEST(DataTypeNames, JsonSpecsTakeTheSameNames) {
  SpecJsonParser fast, full;
  full.set_fast_path(false);
  for (const Want& w : kWant) {
    const std::string text = std::string(R"({"tensor_data_type":")") + w.name + R"(","global_dim":[256,64],"box_dim":[64,64]})";
    for (SpecJsonParser* p : {&fast, &full}) {
      TensorMapSpec s;
      ASSERT_TRUE(p->Parse(text, json::TextPos(), false, &s).ok()) << text;
      EXPECT_EQ(static_cast<int>(s.data_type), w.cuda) << text;
      EXPECT_EQ(s.data_type_alias != kNoDataAlias, w.data_alias) << text;
      if (w.data_alias) EXPECT_TRUE(EqualsIgnoreCase(DataTypeNameRow(s.data_type_alias).name, w.name)) << text;
    }
  }
  // The same reader, a data alias then a map type's name: the alias does not stay behind.
  TensorMapSpec s;
  ASSERT_TRUE(fast.Parse(R"({"tensor_data_type":"e5m2","global_dim":[256],"box_dim":[64]})", json::TextPos(), false, &s).ok());
  EXPECT_NE(s.data_type_alias, kNoDataAlias);
  ASSERT_TRUE(fast.Parse(R"({"tensor_data_type":0,"global_dim":[256],"box_dim":[64]})", json::TextPos(), false, &s).ok());
  EXPECT_EQ(s.data_type_alias, kNoDataAlias);
  EXPECT_EQ(s.data_type, DataType::kUint8);
}

}  // namespace
}  // namespace tmapgen
