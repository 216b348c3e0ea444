// The JSON report written compact (the derived facts and the specs through json::RawText) and pretty
// (Writer calls only) must be the same JSON: with the pretty layout's whitespace removed, the same bytes.
#include "src/report/report.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/json/without_layout.h"

namespace tmapgen {
namespace {

using json_test::WithoutLayout;

TEST(ReportJson, CompactAndPrettyAreTheSameJson) {
  int checked = 0;
  for (int m = 0; m < kNumModes; ++m) {
    for (int variant = 0; variant < 4; ++variant) {
      TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
      if (variant == 1) {  // rejected, without a target: failed targets, diagnostics, nearest valid spec
        s.global_strides[0] = 1000;
        s.box_dim[0] = 300;
        s.channels_per_pixel = 300;
        s.set_fields &= ~kFieldTarget;
      }
      if (variant == 2) {  // a store with a name to escape
        s.direction = Direction::kStore;
        s.name = "quote \" and tab \t";
        s.set_fields |= kFieldName;
      }
      if (variant == 3) s.direction = Direction::kLoadCluster;  // two PTX forms
      Validation v;
      Validate(s, &v);
      json::Writer compact;
      WriteReportJson(7, s, v, Encoding(), ReportOptions(), &compact);
      json::Writer pretty(json::WriterOptions{true});
      WriteReportJson(7, s, v, Encoding(), ReportOptions(), &pretty);
      ASSERT_TRUE(compact.complete()) << compact.error();
      EXPECT_EQ(compact.str(), WithoutLayout(pretty.str())) << "mode " << m << " variant " << variant;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * kNumModes);
}

// The rest of the report around the compact members: a valid spec (the offline bytes, written by Writer
// calls after the members), a data-type alias, a driver encoding, several reports as JSON Lines in one writer
// (the buffer grows while the members are written), and a report as an element of an array.
TEST(ReportJson, CompactAndPrettyAgreeAroundTheMembers) {
  Encoding enc;
  enc.attempted = true;
  enc.cu_result = 0;
  enc.error_name = "CUDA_SUCCESS";
  enc.device = "NVIDIA H200 (sm_90a), driver 13000";
  enc.note = "global_address not given";
  for (int i = 0; i < 16; ++i) enc.map[i] = 0x1111111111111111ull * static_cast<uint64_t>(i);
  json::Writer lines;
  json::Writer pretty_lines(json::WriterOptions{true});
  std::string want;
  int n = 0;
  for (int m = 0; m < kNumModes; ++m) {
    for (int variant = 0; variant < 3; ++variant) {
      TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
      if (variant == 1) s.box_dim[0] = 300;  // rejected, with the target set
      if (variant == 2) {                     // a data alias: the data_type_alias member
        ASSERT_TRUE(ParseDataType("e4m3", &s.data_type, &s.data_type_alias));
      }
      const ReportOptions opt;
      Validation v;
      Validate(s, &v);
      const Encoding& e = variant == 0 ? enc : Encoding();
      WriteReportJson(n, s, v, e, opt, &lines);
      ASSERT_TRUE(lines.complete()) << lines.error();
      lines.EndLine();
      json::Writer pretty(json::WriterOptions{true});
      WriteReportJson(n, s, v, e, opt, &pretty);
      want += WithoutLayout(pretty.str()) + "\n";
      ++n;
    }
  }
  EXPECT_EQ(lines.str(), want);
  EXPECT_NE(want.find("\"bytes\":"), std::string::npos);  // the variants reach every part
  EXPECT_NE(want.find("\"data_type_alias\":"), std::string::npos);
  EXPECT_NE(want.find("\"encoding\":"), std::string::npos);
  EXPECT_NE(want.find("\"nearest_valid\":"), std::string::npos);

  TensorMapSpec s = DefaultSpec(Mode::kTiled);
  s.box_dim[0] = 300;
  Validation v;
  Validate(s, &v);
  json::Writer in_array;
  in_array.BeginArray();
  WriteReportJson(1, s, v, Encoding(), ReportOptions(), &in_array);
  WriteReportJson(2, s, v, Encoding(), ReportOptions(), &in_array);
  in_array.EndArray();
  ASSERT_TRUE(in_array.complete()) << in_array.error();
  json::Writer pretty(json::WriterOptions{true});
  pretty.BeginArray();
  WriteReportJson(1, s, v, Encoding(), ReportOptions(), &pretty);
  WriteReportJson(2, s, v, Encoding(), ReportOptions(), &pretty);
  pretty.EndArray();
  EXPECT_EQ(in_array.str(), WithoutLayout(pretty.str()));
}

// A misused writer (a report where no value may go) records the misuse as the Writer calls did, and the
// compact report adds nothing the Writer calls would not.
TEST(ReportJson, MisuseIsRecordedAsBefore) {
  TensorMapSpec s = DefaultSpec(Mode::kTiled);
  Validation v;
  Validate(s, &v);
  json::Writer w;
  w.BeginObject();  // a report as a member without a Key
  WriteReportJson(0, s, v, Encoding(), ReportOptions(), &w);
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "BeginObject inside an object without a Key");
  json::Writer pretty(json::WriterOptions{true});
  pretty.BeginObject();
  WriteReportJson(0, s, v, Encoding(), ReportOptions(), &pretty);
  EXPECT_EQ(pretty.error(), w.error());
  EXPECT_EQ(w.str(), WithoutLayout(pretty.str()));
}

// The compact report copies these without escaping (json::RawText::Plain): the rules' ids, the severity and
// encoder names, and the PTX forms (made of literals, digits and the reduce op's name). None may hold a byte
// that JSON escapes, or one outside ASCII. (The target names: tests/schema, TableNamesNeedNoEscaping.)
void ExpectPlain(std::string_view t) {
  EXPECT_FALSE(t.empty());
  for (const char c : t) EXPECT_TRUE(c >= 0x20 && c < 0x7f && c != '"' && c != '\\') << t;
}

TEST(ReportJson, WhatTheCompactReportCopiesNeedsNoEscaping) {
  for (int i = 0; i < NumRules(); ++i) ExpectPlain(Rules()[i].id);
  for (const Severity sev : {Severity::kError, Severity::kWarning, Severity::kNote}) ExpectPlain(Name(sev));
  for (const Encoder e : {Encoder::kTiled, Encoder::kIm2col, Encoder::kIm2colWide}) ExpectPlain(Name(e));
  int forms = 0;
  for (int m = 0; m < kNumModes; ++m) {
    for (int d = 0; d < kNumDirections; ++d) {
      for (int op = 0; op < kNumReduceOps; ++op) {
        for (uint32_t rank = 0; rank <= kMaxRank + 1; ++rank) {
          TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
          s.direction = static_cast<Direction>(d);
          s.reduce_op = static_cast<ReduceOp>(op);
          s.rank = rank;
          RuleText out[2];
          const int n = PtxForms(s, out);
          for (int i = 0; i < n; ++i, ++forms) ExpectPlain(out[i]);
        }
      }
    }
  }
  EXPECT_GT(forms, kNumModes * kNumDirections * kNumReduceOps * 5);
}

}  // namespace
}  // namespace tmapgen
