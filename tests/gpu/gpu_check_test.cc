// GPU tests: run a few copies on the GPU through the child-process runner. Skipped, with the reason, where
// there is no usable GPU (no driver, no device, or a build without nvcc).
#include <gtest/gtest.h>

#include "src/gpu/check/check_plan.h"
#include "src/gpu/check/check_runner.h"

namespace tmapgen::gpu {
namespace {

RunSummary Probe() {
  static RunSummary s = [] {
    RunSummary r;
    ProbeGpu(&r);
    return r;
  }();
  return s;
}

TEST(GpuCheck, TiledSpecPassesEveryCopyOnHardware) {
  const RunSummary p = Probe();
  if (!p.gpu_available) GTEST_SKIP() << "no usable GPU: " << p.why_no_gpu;
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = DataType::kBfloat16;
  s.rank = 2;
  s.global_dim = {200, 70, 0, 0, 0};
  s.box_dim = {64, 32, 0, 0, 0};
  s.swizzle = Swizzle::k128B;
  FillPaddedStrides(&s);
  Plan plan;
  PlanChecks(s, 0, 1, &plan);
  ASSERT_FALSE(plan.cases.empty());
  std::vector<CaseResult> res;
  RunSummary sum;
  RunChecks(plan.cases, RunOptions{}, &res, &sum);
  ASSERT_TRUE(sum.gpu_available) << sum.why_no_gpu;
  for (size_t i = 0; i < res.size(); ++i)
    EXPECT_EQ(res[i].outcome, Outcome::kPass) << plan.cases[i].label << "\n" << res[i].detail;
}

TEST(GpuCheck, WrongTransactionCountIsATimeoutAndAFaultIsIsolated) {
  const RunSummary p = Probe();
  if (!p.gpu_available) GTEST_SKIP() << "no usable GPU: " << p.why_no_gpu;
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = DataType::kFloat16;
  s.rank = 2;
  s.global_dim = {40, 20, 0, 0, 0};
  s.box_dim = {32, 8, 0, 0, 0};
  FillPaddedStrides(&s);
  CheckCase good;
  good.spec = s;
  good.in.smem_address = 1024;
  good.label = "good";
  good.seed = 5;
  // A misaligned dimension-0 start traps (docs/model.md M2): the child dies, the next case still runs.
  CheckCase trap = good;
  trap.in.coords = {-3, 16, 0, 0, 0};
  trap.label = "trap";
  trap.force_run = true;
  CheckCase wrong_count = good;
  wrong_count.tx_delta = 16;
  wrong_count.label = "wrong count";
  std::vector<CheckCase> cases = {good, trap, good, wrong_count, good};
  std::vector<CaseResult> res;
  RunSummary sum;
  RunChecks(cases, RunOptions{}, &res, &sum);
  ASSERT_EQ(res.size(), 5u);
  EXPECT_EQ(res[0].outcome, Outcome::kPass) << res[0].detail;
  EXPECT_EQ(res[1].outcome, Outcome::kFault) << res[1].detail;
  EXPECT_EQ(res[2].outcome, Outcome::kPass) << res[2].detail;
  EXPECT_EQ(res[3].outcome, Outcome::kTimeout) << res[3].detail;
  EXPECT_EQ(res[4].outcome, Outcome::kPass) << res[4].detail;
  EXPECT_GE(sum.children, 2);
}

}  // namespace
}  // namespace tmapgen::gpu
