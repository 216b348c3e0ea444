// tmapgen plan: exit status, usage errors that name the flag, and the two formats (cli/plan_cmd.h).
#include "cli/plan_cmd.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

namespace tmapgen::cli {
namespace {

int RunPlan(const std::vector<std::string>& args, std::string* out, std::string* err) {
  out->clear();
  err->clear();
  return RunPlanCommandTo(args, out, err);
}

TEST(PlanCmd, ValidInvalidAndBadUsage) {
  std::string out, err;
  EXPECT_EQ(RunPlan({"gemm", "--m", "4096", "--n", "4096", "--k", "4096"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("verdict: valid"), std::string::npos);
  // K = 4100 bf16: a row pitch of 8200 B, not a multiple of 16 (cuda.h): the plan is invalid.
  EXPECT_EQ(RunPlan({"gemm", "--k", "4100"}, &out, &err), 1);
  EXPECT_NE(out.find("global-stride-align-16"), std::string::npos);
  EXPECT_EQ(RunPlan({"gemm", "--tile", "128x264x64"}, &out, &err), 2);
  EXPECT_NE(err.find("--bn:"), std::string::npos) << err;
  EXPECT_EQ(RunPlan({"gemm", "--tiles", "128x128x64"}, &out, &err), 2);
  EXPECT_NE(err.find("did you mean \"--tile\""), std::string::npos) << err;
  EXPECT_EQ(RunPlan({"gemm", "--dtype", "fp8"}, &out, &err), 2);
  EXPECT_NE(err.find("--dtype:"), std::string::npos) << err;
  EXPECT_EQ(RunPlan({"gemm", "--cta-group", "2"}, &out, &err), 2);
  EXPECT_NE(err.find("--cta-group:"), std::string::npos) << err;
  EXPECT_EQ(RunPlan({"conv", "--bogus"}, &out, &err), 2);
  EXPECT_EQ(RunPlan({"fft"}, &out, &err), 2);
  EXPECT_EQ(RunPlan({"conv", "--n", "8", "--c", "64", "--k", "64", "--h", "28", "--w", "28", "--r", "3", "--s", "3", "--pad", "1"}, &out, &err), 0) << err;
  EXPECT_EQ(RunPlan({}, &out, &err), 2);
  EXPECT_EQ(RunPlan({"--help"}, &out, &err), 0);
  EXPECT_EQ(RunPlan({"gemm", "--help"}, &out, &err), 0);
  EXPECT_NE(out.find("--multicast"), std::string::npos);
}

TEST(PlanCmd, AnErrorNamesTheFlagTheUserTyped) {
  // The planner names request fields; each message must name a flag `plan gemm|conv --help` lists.
  std::string out, err;
  EXPECT_EQ(RunPlan({"gemm", "--warpgroups", "5"}, &out, &err), 2);
  EXPECT_NE(err.find("--warpgroups: 5 is more than 4"), std::string::npos) << err;
  // 2-CTA MMA pairs CTAs along M (PTX: .cta_group::2): a 1x2 cluster cannot hold the pair.
  EXPECT_EQ(RunPlan({"gemm", "--target", "sm_100a", "--cta-group", "2", "--cluster", "1x2"}, &out, &err), 2);
  EXPECT_NE(err.find("--cluster: "), std::string::npos) << err;
  EXPECT_EQ(err.find("--cluster-m"), std::string::npos) << err;
  // A box dimension holds at most 256 elements (cuda.h boxDim), BN here: conv sets it through --tile only.
  EXPECT_EQ(RunPlan({"conv", "--n", "8", "--c", "64", "--k", "64", "--h", "28", "--w", "28", "--r", "3", "--s", "3",
                     "--tile", "128x512x64"}, &out, &err), 2);
  EXPECT_NE(err.find("--tile: "), std::string::npos) << err;
}

TEST(PlanCmd, JsonFormat) {
  std::string out, err;
  EXPECT_EQ(RunPlan({"gemm", "--cluster", "2x1", "--multicast", "b", "--format", "json"}, &out, &err), 0) << err;
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.front(), '{');
  EXPECT_EQ(out.find('\n'), out.size() - 1);  // one line
  // CUTLASS: B is multicast over the cluster's M: both CTAs' B mask is 0b11, each barrier expects 32768 B.
  EXPECT_NE(out.find("\"mask_b\":3"), std::string::npos);
  EXPECT_NE(out.find("\"expect_tx\":32768"), std::string::npos);
  EXPECT_EQ(RunPlan({"gemm", "--format", "json", "--pretty"}, &out, &err), 0);
  EXPECT_GT(std::count(out.begin(), out.end(), '\n'), 10);
}

TEST(PlanCmd, HeaderFormat) {
  std::string out, err;
  EXPECT_EQ(RunPlan({"gemm", "--format", "cpp", "--namespace", "my_gemm"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("namespace my_gemm {"), std::string::npos);
  EXPECT_NE(out.find("constexpr unsigned kExpectTx[1] = {32768u};"), std::string::npos);  // CUTLASS TmaTransactionBytes
  // An invalid plan generates nothing: exit 1, the report on standard error.
  EXPECT_EQ(RunPlan({"gemm", "--k", "4100", "--format", "cpp"}, &out, &err), 1);
  EXPECT_TRUE(out.empty());
  EXPECT_NE(err.find("global-stride-align-16"), std::string::npos);
  EXPECT_EQ(RunPlan({"conv", "--format", "cpp"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("kTapOffsets[9][3]"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::cli
