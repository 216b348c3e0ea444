// The summary merges the streams of several processes and groups by calling library.
#include "src/trace/summary.h"

#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"

namespace tmapgen::trace {
namespace {

using testing::GoodTiled;

TEST(Summary, MergesProcessesAndGroupsByLibrary) {
  Summary s;
  ProcessInfo p1, p2, p3;
  p1.pid = 1;
  p1.state = ProcessState::kTracing;
  p2.pid = 2;
  p2.state = ProcessState::kTracing;
  p3.pid = 3;
  p3.state = ProcessState::kNotTracing;
  p3.message = "cuptiSubscribe failed: another tool already holds CUPTI";
  s.AddProcess(p1);
  s.AddProcess(p2);
  s.AddProcess(p3);
  EncodeCall a = GoodTiled();
  CopyTail("/lib/liba.so", a.caller, kCallerMax);
  a.pid = 1;
  s.AddRecord(a, 5);
  a.pid = 2;
  a.seq = 3;
  s.AddRecord(a, 7);  // the same configuration in another process
  EncodeCall b = GoodTiled();
  CopyTail("/lib/libb.so", b.caller, kCallerMax);
  b.box_dim[1] = 300;
  b.result = 1;
  b.pid = 2;
  s.AddRecord(b, 2);
  EXPECT_EQ(s.configurations(), 2u);
  EXPECT_EQ(s.calls(), 14u);
  EXPECT_EQ(s.configs_with(Outcome::kRejected), 1u);
  EXPECT_EQ(s.calls_with(Outcome::kClean), 12u);
  EXPECT_EQ(s.Worst(), Outcome::kRejected);
  const std::string t = s.RenderText(SummaryOptions{});
  EXPECT_NE(t.find("3 processes loaded the driver (2 traced)"), std::string::npos) << t;
  EXPECT_NE(t.find("driver rejections:                          1 configuration (2 calls)"), std::string::npos) << t;
  EXPECT_NE(t.find("/lib/liba.so: 12 calls, 1 configuration: 0 rejected"), std::string::npos) << t;
  EXPECT_NE(t.find("/lib/libb.so: 2 calls, 1 configuration: 1 rejected"), std::string::npos) << t;
  EXPECT_NE(t.find("[box-dim-range]"), std::string::npos) << t;
  EXPECT_NE(t.find("pid 3"), std::string::npos) << t;
  EXPECT_NE(t.find("another tool already holds CUPTI"), std::string::npos) << t;
  json::Writer w;
  s.WriteJson(&w);
  EXPECT_TRUE(w.complete()) << w.error();
  EXPECT_NE(w.str().find("\"outcome\":\"rejected\""), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::trace
