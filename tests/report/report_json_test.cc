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

}  // namespace
}  // namespace tmapgen
