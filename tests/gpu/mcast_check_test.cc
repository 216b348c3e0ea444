// The multicast check (src/gpu/check/mcast_check.h, mcast_plan.h): GEMM plans and single maps as per-CTA load lists over a
// cluster, modelled on the CPU; the hardware run skips, with the reason, without a usable GPU. Expected values:
//   [CUTLASS]  NVIDIA/cutlass include/cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.hpp:
//              TmaTransactionBytes = (BM x BK + BN x BK) x sizeof(element) for every CTA of the cluster, multicast or
//              not; load(): mcast_mask_a has the CTAs of the same m (block_layout(m, n) over n), mcast_mask_b those of
//              the same n; include/cute/atom/copy_traits_sm90_tma.hpp make_tma_copy_desc: each of the multicast
//              CTAs issues 1/(multicast count) of the box.
//   [DeepGEMM] deepseek-ai/DeepGEMM deep_gemm/include/deep_gemm/common/tma_copy.cuh: with multicast the leader CTA
//              of the group issues the whole box with mask (1 << n) - 1; impls/sm90_bf16_gemm.cuh arms every CTA's
//              full barrier with SMEM_A_SIZE_PER_STAGE + SMEM_B_SIZE_PER_STAGE.
//   [PTX]      PTX ISA 9.2, cp.async.bulk.tensor: with .multicast::cluster the data and the complete_tx signal reach
//              the same CTA-relative offsets in every CTA of ctaMask; out-of-bounds elements are filled (zero with
//              OOB fill NONE) and the whole box counts toward complete_tx.
//   [cuda.h]   cuTensorMapEncodeTiled: a box of boxDim[0] x boxDim[1] elements of elementSize bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "src/gpu/check/check_runner.h"
#include "src/gpu/check/mcast_check.h"
#include "src/gpu/check/mcast_plan.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::gpu {
namespace {

plan::GemmPlan Plan(uint64_t m, uint64_t n, uint64_t k, uint32_t cm, uint32_t cn, bool mca, bool mcb,
                    plan::McastIssue issue = plan::McastIssue::kSlice) {
  plan::GemmRequest r;
  r.m = m;
  r.n = n;
  r.k = k;
  r.stages = 4;
  r.cluster_m = cm;
  r.cluster_n = cn;
  r.multicast_a = mca;
  r.multicast_b = mcb;
  r.mcast_issue = issue;
  EXPECT_TRUE(plan::CheckGemmRequest(r).ok());
  plan::GemmPlan p;
  plan::RunGemmPlan(r, &p);
  EXPECT_TRUE(p.valid);
  return p;
}

std::vector<std::vector<uint8_t>> Zeros(const McastJob& job) {
  std::vector<std::vector<uint8_t>> g;
  for (uint64_t b : job.tensor_bytes) g.emplace_back(b, 0x11);
  return g;
}

TEST(McastPlan, Cluster2x2SliceGivesEveryCtaItsWholeStage) {
  const plan::GemmPlan p = Plan(512, 512, 512, 2, 2, true, true);
  const absl::StatusOr<std::vector<McastJob>> jobs = PlanMcastJobs(p, 4);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  // First cluster, last cluster (the grid has 2 x 2 clusters), negative control.
  ASSERT_EQ(jobs->size(), 3u);
  const McastJob& first = (*jobs)[0];
  EXPECT_EQ(first.cluster, 4u);
  ASSERT_EQ(first.rounds.size(), 4u);
  EXPECT_TRUE(CheckMcastJob(first, 1).empty());
  EXPECT_TRUE(CheckMcastJob((*jobs)[1], 2).empty());
  const auto g = Zeros(first);
  for (uint32_t r = 0; r < 4; ++r) {
    // [CUTLASS] TmaTransactionBytes = (128 x 64 + 128 x 64) x 2 = 32768 for every CTA.
    EXPECT_EQ(first.rounds[0].expect_tx[r], 32768u);
    McastWindow w;
    ASSERT_TRUE(ModelWindow(first, g, 0, r, &w).ok());
    EXPECT_EQ(w.received_tx, 32768u) << r;
    EXPECT_EQ(w.loads_received, 4u) << r;  // two A slices and two B slices ([CUTLASS] make_tma_copy_desc)
    EXPECT_EQ(w.overlap_bytes, 0u) << r;
    // Each CTA issues one 64-row slice of each tile: 64 x 128 B = 8192 B each.
    ASSERT_EQ(first.rounds[0].loads[r].size(), 2u);
  }
  // [CUTLASS] load(): CTA 0 (m 0, n 0) sends A to the CTAs of m 0 (ranks 0, 2: 0x5) and B to those of n 0 (0x3);
  // CTA 3 (m 1, n 1) sends A to 0xA and B to 0xC.
  EXPECT_EQ(first.rounds[0].loads[0][0].mask, 0x5);
  EXPECT_EQ(first.rounds[0].loads[0][1].mask, 0x3);
  EXPECT_EQ(first.rounds[0].loads[3][0].mask, 0xA);
  EXPECT_EQ(first.rounds[0].loads[3][1].mask, 0xC);
  // K tile 1 lands in stage 1: 32768 B (one A and one B stage, each on its 1024-byte repeat) after stage 0.
  EXPECT_EQ(first.rounds[1].loads[0][0].in.smem_address, first.rounds[0].loads[0][0].in.smem_address + 16384);
  EXPECT_EQ(first.rounds[1].loads[0][0].in.coords[0], 64);  // k0 = 64 (K-major A: {k, m})
}

TEST(McastPlan, LeaderIssueAsDeepGemm) {
  const plan::GemmPlan p = Plan(512, 512, 256, 2, 2, true, true, plan::McastIssue::kLeader);
  const absl::StatusOr<std::vector<McastJob>> jobs = PlanMcastJobs(p, 2);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  const McastJob& first = (*jobs)[0];
  EXPECT_TRUE(CheckMcastJob(first, 3).empty());
  // [DeepGEMM] the group's first CTA issues the whole box: CTA 0 leads both groups, CTA 3 leads none.
  EXPECT_EQ(first.rounds[0].loads[0].size(), 2u);
  EXPECT_EQ(first.rounds[0].loads[3].size(), 0u);
  const auto g = Zeros(first);
  McastWindow w;
  ASSERT_TRUE(ModelWindow(first, g, 0, 3, &w).ok());
  EXPECT_EQ(w.received_tx, 32768u);  // [DeepGEMM] SMEM_A_SIZE_PER_STAGE + SMEM_B_SIZE_PER_STAGE
  EXPECT_EQ(w.loads_received, 2u);
}

TEST(McastPlan, ACountOfOnlyTheIssuedBytesIsFound) {
  const plan::GemmPlan p = Plan(256, 256, 128, 2, 1, false, true);
  absl::StatusOr<std::vector<McastJob>> jobs = PlanMcastJobs(p, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  McastJob job = (*jobs)[0];
  EXPECT_TRUE(CheckMcastJob(job, 1).empty());
  // The classic mistake: arming CTA 1 with the bytes it issues itself (its A tile, 16384, and its half of B, 8192)
  // instead of what lands in it ([PTX]: every multicast slice signals every receiver's barrier).
  job.rounds[0].expect_tx[1] = 16384 + 8192;
  const std::vector<std::string> f = CheckMcastJob(job, 1);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("CTA 1: its barrier is armed with 24576 bytes; the model delivers 32768"), std::string::npos) << f[0];
}

TEST(McastPlan, OverlapAndWrongTilesAreFound) {
  const plan::GemmPlan p = Plan(256, 256, 128, 2, 1, false, true);
  absl::StatusOr<std::vector<McastJob>> jobs = PlanMcastJobs(p, 1);
  ASSERT_TRUE(jobs.ok());
  McastJob twice = (*jobs)[0];
  twice.rounds[0].loads[0].push_back(twice.rounds[0].loads[0].back());
  bool overlap = false;
  for (const std::string& s : CheckMcastJob(twice, 1)) overlap |= s.find("written by more than one load") != std::string::npos;
  EXPECT_TRUE(overlap);
  McastJob shifted = (*jobs)[0];
  shifted.rounds[0].loads[1].back().in.coords[1] += 8;  // CTA 1's B slice from the wrong rows
  bool differs = false;
  for (const std::string& s : CheckMcastJob(shifted, 1))
    differs |= s.find("differ from the whole tiles loaded without multicast") != std::string::npos;
  EXPECT_TRUE(differs);
}

TEST(McastPlan, RaggedEdgesAndIdleCtasInTheLastCluster) {
  // M 700, N 328, K 1000 with 128 x 128 x 64 tiles: 6 x 3 tiles, 16 K tiles (the last one 40 wide); clusters of 2 x 2
  // make a 3 x 2 grid of clusters whose last one holds m tiles 4-5 and n tiles 2-3 (n tile 3 starts at 384 > 328).
  const plan::GemmPlan p = Plan(700, 328, 1000, 2, 2, true, true);
  const absl::StatusOr<std::vector<McastJob>> jobs = PlanMcastJobs(p, 4);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 3u);
  const McastJob& last = (*jobs)[1];
  EXPECT_NE(last.label.find("m tiles 4-5, n tiles 2-3"), std::string::npos) << last.label;
  EXPECT_NE(last.label.find("K tiles 12-15 of 16"), std::string::npos) << last.label;
  EXPECT_TRUE(CheckMcastJob(last, 5).empty());
  const auto g = Zeros(last);
  // CTA 2 (x 0, y 1) has n tile 3: its whole B tile is out of bounds, zero-filled, and still counted ([PTX]).
  McastWindow w;
  ASSERT_TRUE(ModelWindow(last, g, 0, 2, &w).ok());
  EXPECT_EQ(w.received_tx, 32768u);
  uint64_t fill = 0, data = 0;
  for (size_t i = 0; i < w.state.size(); ++i) {
    fill += w.state[i] == model::kFill;
    data += w.state[i] == model::kData;
  }
  // A: m tile 4 (rows 512-639, all inside) x K 768-831: 16384 data bytes; B: 16384 fill bytes.
  EXPECT_EQ(data, 16384u);
  EXPECT_EQ(fill, 16384u);
}

TEST(McastPlan, PlansNotRunHereAreRefusedNamingTheField) {
  plan::GemmRequest r;
  r.target = Target::kSm100a;
  plan::GemmPlan p;
  plan::RunGemmPlan(r, &p);
  const auto jobs = PlanMcastJobs(p, 4);
  ASSERT_FALSE(jobs.ok());
  EXPECT_EQ(jobs.status().message().substr(0, 7), "target:");
  const plan::GemmPlan ok = Plan(256, 256, 256, 1, 1, false, false);
  const auto zero = PlanMcastJobs(ok, 0);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().message().substr(0, 8), "k-tiles:");
}

TEST(McastSingleMap, MaskedReceiversAreArmedWithTheBoxAndTheControlIsTooHigh) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = DataType::kBfloat16;
  s.rank = 2;
  s.global_dim = {512, 384, 0, 0, 0};
  s.box_dim = {64, 128, 0, 0, 0};
  s.swizzle = Swizzle::k128B;
  s.target = Target::kSm90a;
  FillPaddedStrides(&s);
  const auto jobs = SingleMapJobs(s, 4, 0xb);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_GE(jobs->size(), 2u);
  const McastJob& j = jobs->front();
  for (size_t k = 0; k < j.rounds.size(); ++k) {
    // [cuda.h] 64 x 128 x 2 B = 16384 bytes per box, in CTAs 0, 1 and 3 of mask 0xb; CTA 2 is not armed.
    EXPECT_EQ(j.rounds[k].expect_tx[0], 16384u);
    EXPECT_EQ(j.rounds[k].expect_tx[1], 16384u);
    EXPECT_EQ(j.rounds[k].expect_tx[2], 0u);
    EXPECT_EQ(j.rounds[k].expect_tx[3], 16384u);
    // The issuer rotates over the cluster (CTA 2 too: a CTA may multicast to others only).
    EXPECT_EQ(j.rounds[k].loads[k % 4].size(), 1u);
  }
  EXPECT_TRUE(CheckMcastJob(j, 9).empty());
  const McastJob& c = jobs->back();
  EXPECT_TRUE(c.control);
  EXPECT_EQ(c.control_rank, 3u);
  EXPECT_EQ(c.rounds.size(), 1u);
  EXPECT_EQ(c.rounds[0].expect_tx[3], 16384u + 16);
  EXPECT_FALSE(SingleMapJobs(s, 4, 0x10).ok());  // a CTA beyond the cluster
  EXPECT_FALSE(SingleMapJobs(s, 9, 0).ok());
}

TEST(McastCheck, RunsOnHardwareOrSaysWhyNot) {
  RunSummary probe;
  ProbeGpu(&probe);
  if (!probe.gpu_available) GTEST_SKIP() << "no usable GPU: " << probe.why_no_gpu;
  const plan::GemmPlan p = Plan(256, 256, 256, 2, 2, true, true);
  const auto jobs = PlanMcastJobs(p, 2);
  ASSERT_TRUE(jobs.ok());
  McastReport rep;
  RunMcastJobs(*jobs, 1, 60, &rep);
  ASSERT_TRUE(rep.ran) << rep.why_not;
  for (size_t i = 0; i < jobs->size(); ++i) EXPECT_TRUE(rep.jobs[i].passed) << (*jobs)[i].label;
}

TEST(McastCheck, WithoutAGpuTheReportSaysNotRun) {
  McastReport rep;
  rep.why_not = "no CUDA driver";
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(PrintMcastReport("t", {}, rep, f), 2);
  std::rewind(f);
  char buf[256] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  EXPECT_NE(std::string(buf, n).find("not run on hardware: no CUDA driver"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::gpu
