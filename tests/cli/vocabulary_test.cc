// One vocabulary on every input: the data-type names (docs/schema.md "Data types") and the orders of the
// arrays (docs/schema.md "Orders"), as the command line prints them. Expected values: cuda.h (CUDA 13.0)
// CUtensorMapDataType (no signed 8-bit or 8-bit float type: UINT8 = 0 carries them) and the limits of
// cuTensorMapEncodeTiled (boxDim[i] <= 256); the PTX ISA for the MMA types (wgmma .e4m3 and .e5m2 are two
// types, 9.7.15; .s8 for signed 8-bit integers).
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_test_util.h"

namespace {

using namespace tmapgen::cli_test;  // NOLINT

bool Has(const std::string& s, const std::string& x) { return s.find(x) != std::string::npos; }

// A JSON spec takes the names --dtype takes, and the report says what an alias was read as.
TEST(Vocabulary, JsonSpecsTakeDataAliasesAndTheReportSaysWhatTheyWereReadAs) {
  const std::string f = WriteFile("aliases.jsonl",
                                  R"({"tensor_data_type":"e4m3","global_dim":[4096,64],"box_dim":[128,64]})" "\n"
                                  R"({"tensor_data_type":"int8","global_dim":[4096,64],"box_dim":[128,64]})" "\n"
                                  R"({"tensor_data_type":"fp8","global_dim":[4096,64],"box_dim":[128,64]})" "\n");
  const Result t = RunTool("validate --color never " + f);
  EXPECT_EQ(t.code, 0) << t.out;
  EXPECT_TRUE(Has(t.out, "tensor_data_type      CU_TENSOR_MAP_DATA_TYPE_UINT8 (u8, 8 bits)")) << t.out;
  EXPECT_TRUE(Has(t.out, "data type             e4m3 is an 8-bit float (FP8 E4M3), not a tensor-map type: the map "
                         "uses CU_TENSOR_MAP_DATA_TYPE_UINT8")) << t.out;
  EXPECT_TRUE(Has(t.out, "int8 is a signed 8-bit integer, not a tensor-map type: the map uses "
                         "CU_TENSOR_MAP_DATA_TYPE_UINT8 (TMA moves the bytes unchanged: the signedness matters only")) << t.out;
  EXPECT_TRUE(Has(t.out, "fp8 is an 8-bit float (FP8: E4M3 or E5M2)")) << t.out;
  const Result j = RunTool("validate --format json " + f);
  EXPECT_EQ(j.code, 0) << j.out;
  EXPECT_TRUE(Has(j.out, R"("data_type_alias":{"written":"e4m3","cuda_type":"CU_TENSOR_MAP_DATA_TYPE_UINT8",)"
                         R"x("holds":"an 8-bit float (FP8 E4M3)")x")) << j.out;
  EXPECT_TRUE(Has(j.out, R"("spec":{"mode":"tiled","direction":"load","tensor_data_type":"CU_TENSOR_MAP_DATA_TYPE_UINT8")"))
      << j.out;
  // A name of the map type itself is no alias.
  const Result u = RunTool("--dtype uint8 --box 128,64 --format json");
  EXPECT_FALSE(Has(u.out, "data_type_alias")) << u.out;
  // With a --spec base, a --dtype that names the map type drops the base's alias.
  const std::string base = WriteFile("alias_base.json", R"({"tensor_data_type":"e5m2","global_dim":[4096,64],"box_dim":[128,64]})");
  EXPECT_FALSE(Has(RunTool("--spec " + base + " --dtype u8 --format json").out, "data_type_alias"));
  EXPECT_TRUE(Has(RunTool("--spec " + base + " --format json").out, R"("written":"e5m2")"));
}

#if TMAPGEN_HAVE_PROTOBUF
// The text format's enum holds cuda.h enumerators only; a name of the table gets the enumerator to write.
TEST(Vocabulary, TextFormatNamesTheEnumeratorOfATableName) {
  const std::string f = WriteFile("alias.textproto", "tensor_data_type: e4m3\nglobal_dim: [4096, 64]\nbox_dim: [128, 64]\n");
  const Result r = RunTool("validate " + f);
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "(the text format takes the cuda.h enumerator: e4m3 is an 8-bit float (FP8 E4M3), carried by "
                         "CU_TENSOR_MAP_DATA_TYPE_UINT8)")) << r.out;
}
#endif

// desc and idesc read their types through the same table: a name that stands for one MMA type is that type;
// one that does not is refused with the reason.
TEST(Vocabulary, DescTypesComeFromTheSameTable) {
  const Result s8 = RunToolArgs("desc tcgen05 --dtype int8 --tile 128,128 --smem-address 0x400 --format json");
  EXPECT_EQ(s8.code, 0) << s8.out;
  EXPECT_TRUE(Has(s8.out, R"("dtype":"s8")")) << s8.out;
  const Result e4 = RunToolArgs("desc wgmma --dtype float8_e4m3fn --smem-address 0x400 --format json");
  EXPECT_EQ(e4.code, 0) << e4.out;
  EXPECT_TRUE(Has(e4.out, R"("dtype":"e4m3")")) << e4.out;
  const Result bf = RunToolArgs("desc wgmma --dtype CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 --smem-address 0x400 --format json");
  EXPECT_EQ(bf.code, 0) << bf.out;
  EXPECT_TRUE(Has(bf.out, R"("dtype":"bf16")")) << bf.out;
  const Result f8 = RunToolArgs("desc wgmma --dtype fp8 --smem-address 0x400");
  EXPECT_EQ(f8.code, 2) << f8.out;
  EXPECT_TRUE(Has(f8.out, "--dtype: fp8 is an 8-bit float (FP8: E4M3 or E5M2) and does not say which")) << f8.out;
  EXPECT_TRUE(Has(f8.out, "give e4m3 or e5m2")) << f8.out;
  const Result u16 = RunToolArgs("desc wgmma --dtype u16 --smem-address 0x400");
  EXPECT_EQ(u16.code, 2) << u16.out;
  EXPECT_TRUE(Has(u16.out, "--dtype: u16 names the tensor-map type CU_TENSOR_MAP_DATA_TYPE_UINT16, which is not an MMA "
                           "operand type")) << u16.out;
  const Result ia = RunToolArgs("idesc --kind f8f6f4 --a-type e5m2 --b-type fp8_e4m3 --format json");
  EXPECT_EQ(ia.code, 0) << ia.out;
  EXPECT_TRUE(Has(ia.out, R"("a_type":"e5m2")")) << ia.out;
  EXPECT_TRUE(Has(ia.out, R"("b_type":"e4m3")")) << ia.out;
}

// Reports show the order of the arrays; an error on a box dimension says which value it was.
TEST(Vocabulary, ReportsShowTheOrderAndBoxErrorsWhichValue) {
  const Result r = RunTool("--dims 500,64 --box 3,300 --dtype bf16 --target sm_90a --color never");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(Has(r.out, "global_dim            [500, 64] (innermost first)")) << r.out;
  EXPECT_TRUE(Has(r.out, "box_dim               [3, 300] (innermost first)")) << r.out;
  EXPECT_TRUE(Has(r.out, "element_strides       [1, 1] (innermost first)")) << r.out;
  // cuTensorMapEncodeTiled: boxDim[i] <= 256. The 300 is the second value of --box.
  EXPECT_TRUE(Has(r.out, "box_dim[1] (innermost first: the 2nd value) = 300 exceeds 256 elements")) << r.out;
  // 3 bf16 = 6 bytes: not a multiple of 16 (cuTensorMapEncodeTiled: boxDim[0] x element size).
  EXPECT_TRUE(Has(r.out, "box_dim[0] (innermost first: the 1st value) = 3 x bf16 = 6 B")) << r.out;
  const Result j = RunTool("--dims 500,64 --box 3,300 --dtype bf16 --target sm_90a --format json");
  EXPECT_TRUE(Has(j.out, R"("dim_order":"innermost_first","spec":)")) << j.out;
  EXPECT_FALSE(Has(j.out, "box_given_order")) << j.out;
  EXPECT_TRUE(Has(j.out, R"(box_dim[1] (innermost first: the 2nd value) = 300 exceeds 256 elements)")) << j.out;
  // desc: the tile is (MN, K), and the JSON says so.
  const Result d = RunToolArgs("desc wgmma --operand B --dtype bf16 --tile 64,64 --smem-address 0x400 --format json");
  EXPECT_TRUE(Has(d.out, R"("tile":[64,64],"tile_order":"N,K")")) << d.out;
}

}  // namespace
