// Records are spec-schema JSON: they parse back (with the spec reader `tmapgen validate` uses) to the
// spec of the call; their extra members are what the driver returned and wrote.
#include "src/trace/record_json.h"

#include <gtest/gtest.h>

#include "src/schema/spec_json.h"
#include "src/trace/call_spec.h"
#include "src/trace/explain.h"
#include "tests/trace/trace_test_util.h"

namespace tmapgen::trace {
namespace {

using testing::GoodTiled;

void ExpectSameSpec(const TensorMapSpec& a, const TensorMapSpec& b) {
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.data_type, b.data_type);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.global_address, b.global_address);
  EXPECT_EQ(a.global_dim, b.global_dim);
  EXPECT_EQ(a.global_strides, b.global_strides);
  EXPECT_EQ(a.box_dim, b.box_dim);
  EXPECT_EQ(a.element_strides, b.element_strides);
  EXPECT_EQ(a.interleave, b.interleave);
  EXPECT_EQ(a.swizzle, b.swizzle);
  EXPECT_EQ(a.l2_promotion, b.l2_promotion);
  EXPECT_EQ(a.oob_fill, b.oob_fill);
  EXPECT_EQ(a.pixel_box_lower_corner, b.pixel_box_lower_corner);
  EXPECT_EQ(a.pixel_box_upper_corner, b.pixel_box_upper_corner);
  EXPECT_EQ(a.pixel_box_lower_corner_width, b.pixel_box_lower_corner_width);
  EXPECT_EQ(a.pixel_box_upper_corner_width, b.pixel_box_upper_corner_width);
  EXPECT_EQ(a.channels_per_pixel, b.channels_per_pixel);
  EXPECT_EQ(a.pixels_per_column, b.pixels_per_column);
  EXPECT_EQ(a.wide_mode, b.wide_mode);
  EXPECT_EQ(a.has_target(), b.has_target());
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.driver_version, b.driver_version);
}

TEST(RecordJson, ATiledRecordParsesBackToTheSpecOfTheCall) {
  EncodeCall c = GoodTiled();
  std::string line;
  AppendRecordJson(c, 42, &line);
  TensorMapSpec want, got;
  ASSERT_EQ(CallToSpec(c, &want), 0u);
  InputError e;
  ASSERT_TRUE(ParseSpecJson(line, 1, &got, &e)) << e.message << "\n" << line;
  ExpectSameSpec(got, want);
  EXPECT_EQ(got.mode, Mode::kTiled);
  EXPECT_EQ(got.data_type, DataType::kBfloat16);
  EXPECT_EQ(got.target, Target::kSm90a);
  EXPECT_NE(line.find("\"count\":42"), std::string::npos) << line;
  EXPECT_NE(line.find("\"call\":\"cuTensorMapEncodeTiled\""), std::string::npos);
  EXPECT_NE(line.find("\"result\":\"CUDA_SUCCESS\""), std::string::npos);
  EXPECT_NE(line.find("\"bytes\":\""), std::string::npos);
}

TEST(RecordJson, Im2colAndWideRecordsParseBack) {
  EncodeCall c = GoodTiled();
  c.kind = c.encoder = CallKind::kEncodeIm2col;
  c.data_type = 6;
  c.rank = 4;
  const uint64_t dims[4] = {64, 56, 56, 8};
  for (int i = 0; i < 4; ++i) c.global_dim[i] = dims[i];
  c.global_strides[0] = 128;
  c.global_strides[1] = 128 * 56;
  c.global_strides[2] = 128 * 56 * 56;
  c.box_dim[0] = c.box_dim[1] = 0;
  for (int i = 0; i < 4; ++i) c.element_strides[i] = 1;
  c.lower_corner[0] = c.lower_corner[1] = -1;
  c.upper_corner[0] = c.upper_corner[1] = -1;
  c.channels_per_pixel = 64;
  c.pixels_per_column = 128;
  for (const CallKind k : {CallKind::kEncodeIm2col, CallKind::kEncodeIm2colWide}) {
    for (uint32_t wide : {0u, 1u}) {
      EncodeCall d = c;
      d.kind = d.encoder = k;
      d.wide_mode = wide;
      if (k == CallKind::kEncodeIm2colWide) {
        d.lower_corner[0] = d.lower_corner[1] = d.upper_corner[0] = d.upper_corner[1] = 0;
        d.lower_corner_width = -1;
        d.upper_corner_width = -1;
      }
      std::string line;
      AppendRecordJson(d, 1, &line);
      TensorMapSpec want, got;
      ASSERT_EQ(CallToSpec(d, &want), 0u);
      InputError e;
      ASSERT_TRUE(ParseSpecJson(line, 1, &got, &e)) << e.message << "\n" << line;
      ExpectSameSpec(got, want);
      if (k == CallKind::kEncodeIm2colWide)
        EXPECT_EQ(got.mode, wide == 1 ? Mode::kIm2colW128 : Mode::kIm2colW) << line;
      else
        EXPECT_EQ(got.mode, Mode::kIm2col);
    }
  }
}

TEST(RecordJson, BytesAreHexInMemoryOrder) {
  uint64_t w[16] = {};
  w[0] = 0x0706050403020100ull;  // little-endian: byte 0 is 0x00, byte 7 is 0x07
  w[15] = 0xff00000000000000ull;
  const std::string h = BytesHex(w);
  ASSERT_EQ(h.size(), 256u);
  EXPECT_EQ(h.substr(0, 16), "0001020304050607");
  EXPECT_EQ(h.substr(240, 16), "00000000000000ff");
}

TEST(RecordJson, AValueTheSpecCannotHoldIsWrittenRawAndAReplayNamesIt) {
  EncodeCall c = GoodTiled();
  c.data_type = 99;
  c.result = 1;
  c.flags &= ~kHasBytes;
  std::string line;
  AppendRecordJson(c, 1, &line);
  EXPECT_NE(line.find("\"tensor_data_type\":99"), std::string::npos) << line;
  EXPECT_EQ(line.find("\"bytes\""), std::string::npos) << "a rejected call wrote no map";
  TensorMapSpec s;
  InputError e;
  EXPECT_FALSE(ParseSpecJson(line, 1, &s, &e));
  EXPECT_EQ(e.field, "tensor_data_type") << e.message;
}

TEST(RecordJson, AReplaceOfAMapNeverSeenEncodedCarriesOnlyItsBytes) {
  EncodeCall c;
  c.kind = CallKind::kReplaceAddress;
  c.global_address = 0x1000;
  c.flags = kHasBytesBefore;
  EXPECT_FALSE(IsReplayable(c));
  std::string line;
  AppendRecordJson(c, 1, &line);
  EXPECT_EQ(line.find("tensor_data_type"), std::string::npos) << line;
  EXPECT_NE(line.find("\"bytes_before\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"new_address\":\"0x1000\""), std::string::npos) << line;
}

TEST(RecordJson, CallerAndSymbolAreRecorded) {
  EncodeCall c = GoodTiled();
  CopyTail("/home/u/.triton/cache/ab/cuda_utils.so", c.caller, kCallerMax);
  CopyTail("fillTMADescriptor+0x4c", c.caller_symbol, kSymbolMax);
  c.caller_offset = 0x1234;
  std::string line;
  AppendRecordJson(c, 1, &line);
  EXPECT_NE(line.find("\"caller\":\"/home/u/.triton/cache/ab/cuda_utils.so\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"caller_symbol\":\"fillTMADescriptor+0x4c\""), std::string::npos);
  EXPECT_NE(line.find("\"caller_offset\":\"0x1234\""), std::string::npos);
  // A path longer than the field keeps its tail (the file name).
  const std::string longp = "/" + std::string(300, 'd') + "/libx.so";
  CopyTail(longp, c.caller, kCallerMax);
  EXPECT_EQ(FieldView(c.caller, kCallerMax).size(), static_cast<size_t>(kCallerMax - 1));
  EXPECT_EQ(FieldView(c.caller, kCallerMax).substr(kCallerMax - 1 - 8), "/libx.so");
}

}  // namespace
}  // namespace tmapgen::trace

namespace tmapgen::trace {
namespace {

// Seen on the H200: a null globalStrides made the placeholder 0 look like a stride (a spurious
// "overlap" warning). An unreadable array is no value at all: written as null, not validated.
TEST(RecordJson, AnUnreadableArrayIsNullAndNotValidated) {
  EncodeCall c = testing::GoodTiled();
  c.unreadable = kUnreadableGlobalStrides;
  c.global_strides[0] = 0;
  c.result = 1;
  c.flags &= ~kHasBytes;
  std::string line;
  AppendRecordJson(c, 1, &line);
  EXPECT_NE(line.find("\"global_strides\":null"), std::string::npos) << line;
  TensorMapSpec s;
  InputError e;
  EXPECT_FALSE(ParseSpecJson(line, 1, &s, &e));
  EXPECT_EQ(e.field, "global_strides") << e.message;
  Verdict v;
  JudgeCall(c, &v);
  EXPECT_EQ(v.outcome, Outcome::kRejected);
  EXPECT_NE(v.unrepresentable & kFieldGlobalStrides, 0u);
  const std::string text = ExplainCall(c, v, 1);
  EXPECT_EQ(text.find("global-stride-overlap"), std::string::npos) << text;
  EXPECT_NE(text.find("error global_strides: a null pointer"), std::string::npos) << text;
}

}  // namespace
}  // namespace tmapgen::trace
