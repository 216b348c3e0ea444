// Tests of the GEMM plan (src/plan/gemm_plan.h). Every expected value comes from a cited source:
//   [CUTLASS]  NVIDIA/cutlass @ 7107b05535f8977f5ecb9d01ee203205b1fd9bc4
//              include/cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.hpp (TmaTransactionBytes, the
//              multicast masks of load()), include/cutlass/pipeline/sm90_pipeline.hpp (init_barriers:
//              multicast_consumer_arrival_count), include/cute/atom/copy_traits_sm90_tma.hpp (make_tma_copy_desc: the
//              box truncated by the multicast count), include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl
//              (compute_stage_count_or_override) and sm90_common.inl (sm90_smem_capacity_bytes = 232448),
//              include/cutlass/gemm/collective/sm100_mma_warpspecialized.hpp (TmaTransactionBytes x AtomThrShapeMNK),
//              include/cute/atom/mma_traits_sm90_gmma.hpp (make_gmma_desc: LBO 1 for swizzled K-major).
//   [DeepGEMM] deepseek-ai/DeepGEMM @ 54e22612409371d6364144b69086735beb54e98b
//              deep_gemm/include/deep_gemm/common/tma_copy.cuh (leader issues with mask (1 << n) - 1),
//              deep_gemm/include/deep_gemm/mma/sm90.cuh (make_smem_desc: SBO 1024 B), impls/sm90_bf16_gemm.cuh
//              (arrive_and_expect_tx(SMEM_A_SIZE_PER_STAGE + SMEM_B_SIZE_PER_STAGE); A advanced by k * WGMMA::K
//              elements), impls/sm100_bf16_gemm.cuh (leader: arrive_and_expect_tx(kNumArrivalBytes * 2)).
//   [PTX]      PTX ISA 9.2: 9.7.15.2 (wgmma shapes), 9.7.15.5.1 (imm-trans: f16/bf16 only),
//              9.7.15.5.1.2.2 (descriptor bits: start 0-13, LBO 16-29, SBO 32-45, layout 62-63 with 1 = 128B),
//              9.7.16.4.2 Table 42 (tcgen05 instruction descriptor), cp.async.bulk .multicast::cluster.
//   [cuda.h]   cuTensorMapEncodeTiled: globalStrides multiples of 16.
#include "src/plan/gemm_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "src/plan/plan_render.h"

namespace tmapgen::plan {
namespace {

GemmRequest Base() {
  GemmRequest r;  // 4096^3 bf16, K-major, 128x128x64, sm_90a
  return r;
}

GemmPlan Plan(const GemmRequest& r) {
  EXPECT_TRUE(CheckGemmRequest(r).ok()) << CheckGemmRequest(r).message();
  GemmPlan p;
  RunGemmPlan(r, &p);
  return p;
}

bool HasIssue(const GemmPlan& p, const std::string& id) {
  for (const PlanIssue& i : p.issues)
    if (i.id == id) return true;
  return false;
}

TEST(GemmPlan, Bf16TileBytesAndExpectTxAsCutlass) {
  const GemmPlan p = Plan(Base());
  ASSERT_TRUE(p.valid);
  // [CUTLASS] TmaTransactionBytesMK = 128 x 64 x 16 bits / 8 = 16384; NK the same; TmaTransactionBytes = 32768.
  EXPECT_EQ(p.a.stage_bytes, 16384u);
  EXPECT_EQ(p.b.stage_bytes, 16384u);
  ASSERT_EQ(p.ctas.size(), 1u);
  EXPECT_EQ(p.ctas[0].expect_tx, 32768u);
  EXPECT_EQ(p.ctas[0].issued_bytes, 32768u);
  // One 64 x 128 box per operand ([DeepGEMM] tma::copy: BLOCK_INNER / BLOCK_INNER_ATOM = 64 / (128 B / 2 B) = 1).
  ASSERT_EQ(p.ctas[0].copies.size(), 2u);
  EXPECT_EQ(p.maps[p.a.map].spec.box_dim[0], 64u);
  EXPECT_EQ(p.maps[p.a.map].spec.box_dim[1], 128u);
  EXPECT_EQ(p.maps[p.a.map].spec.swizzle, Swizzle::k128B);
  // The validator's own transaction count of the map agrees ([PTX] complete_tx::bytes of the box).
  EXPECT_EQ(p.maps[p.a.map].validation.facts.transaction_bytes, 16384u);
}

TEST(GemmPlan, StageCountAsCutlass) {
  // [CUTLASS] compute_stage_count_or_override: (232448 - carveout) / (A + B + 16 pipeline bytes):
  // no epilogue carveout: 232448 / 32784 = 7; with a 128 x 128 bf16 epilogue (32768 B): 199680 / 32784 = 6.
  GemmRequest r = Base();
  r.epilogue = false;
  EXPECT_EQ(Plan(r).max_stages, 7u);
  r.epilogue = true;
  const GemmPlan p = Plan(r);
  EXPECT_EQ(p.max_stages, 6u);
  EXPECT_EQ(p.stages, 6u);
  EXPECT_EQ(p.smem_limit, 232448u);
  EXPECT_LE(p.smem_total, p.smem_limit);
  // Buffers on the 1024-byte swizzle repeat (PTX 128B swizzle: base offset 0 at a 1024-byte boundary).
  for (const SmemBuffer& b : p.smem)
    if (b.name[0] == 'A' || b.name[0] == 'B') {
      EXPECT_EQ(b.offset % 1024, 0u) << b.name;
    }
}

TEST(GemmPlan, TooManyStagesIsAnError) {
  GemmRequest r = Base();
  r.stages = 8;  // 8 x 32768 + 32768 > 232448
  const GemmPlan p = Plan(r);
  EXPECT_FALSE(p.valid);
  EXPECT_TRUE(HasIssue(p, "plan-smem-limit"));
}

TEST(GemmPlan, DescriptorsOfEveryKStepAsCutlassAndDeepGemm) {
  const GemmPlan p = Plan(Base());
  // [PTX] bits: layout 1 (128B) at 62-63, SBO 1024 B -> 64 at 32-45, LBO 1 at 16-29 ([CUTLASS] make_gmma_desc:
  // 1 for swizzled K-major; [DeepGEMM] SBO 1024). A at offset 0.
  ASSERT_EQ(p.a.steps.size(), 8u);  // 2 warpgroups x 1 m64 x 4 K steps
  EXPECT_EQ(p.a.steps[0].desc.bits(), 0x4000004000010000ull);
  EXPECT_EQ(p.a.facts.sbo, 1024u);
  // [DeepGEMM] the k-th WGMMA reads smem_a + k * WGMMA::K (16 bf16 = 32 B): start + 2 per K step.
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(p.a.steps[k].start_offset, 32u * k);
    EXPECT_EQ(p.a.steps[k].base_offset, 0u);
    EXPECT_TRUE(p.a.steps[k].validation.valid) << k;
  }
  // The second warpgroup's m64 slice: 64 rows x 128 B = 8192 B further.
  EXPECT_EQ(p.a.steps[4].mn_offset, 64u);
  EXPECT_EQ(p.a.steps[4].start_offset, 8192u);
  // B's K steps, from its buffer.
  ASSERT_EQ(p.b.steps.size(), 4u);
  const uint64_t b0 = p.b.steps[0].start_offset;
  EXPECT_EQ(p.b.steps[3].start_offset, b0 + 96);
  EXPECT_EQ(p.mma.instruction, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16");
}

TEST(GemmPlan, MulticastMasksAndCountsAsCutlass) {
  GemmRequest r = Base();
  r.cluster_m = 2;
  r.cluster_n = 2;
  r.multicast_a = r.multicast_b = true;
  const GemmPlan p = Plan(r);
  ASSERT_TRUE(p.valid);
  ASSERT_EQ(p.ctas.size(), 4u);
  // [CUTLASS] block_layout = Layout<ClusterShape> (column-major): rank = x + 2y. mcast_mask_a over n of
  // block_layout(x, n); mcast_mask_b over m of block_layout(m, y).
  EXPECT_EQ(p.ctas[1].mask_a, 0xA);  // x 1: ranks 1, 3
  EXPECT_EQ(p.ctas[1].mask_b, 0x3);  // y 0: ranks 0, 1
  EXPECT_EQ(p.ctas[2].mask_a, 0x5);  // x 0: ranks 0, 2
  EXPECT_EQ(p.ctas[2].mask_b, 0xC);  // y 1: ranks 2, 3
  for (const CtaPlan& c : p.ctas) {
    // [CUTLASS] every receiving CTA's barrier expects the whole stage: TmaTransactionBytes.
    EXPECT_EQ(c.expect_tx, 32768u);
    // [CUTLASS] the box is truncated by the multicast count: each CTA issues half of each tile.
    EXPECT_EQ(c.issued_bytes, 16384u);
    // [CUTLASS] multicast_consumer_arrival_count = (2 + 2 - 1) x 2 consumer warpgroups.
    EXPECT_EQ(c.empty_arrivals, 6u);
  }
  ASSERT_GE(p.a.slice_map, 0);
  EXPECT_EQ(p.maps[p.a.slice_map].spec.box_dim[1], 64u);
  EXPECT_EQ(p.maps[p.a.slice_map].spec.direction, Direction::kLoadCluster);
  // CTA 2 (y 1) issues the second half of A's rows, 64 rows x 128 B into its group's buffers.
  EXPECT_EQ(p.ctas[2].copies[0].coord1_offset, 64u);
  EXPECT_EQ(p.ctas[2].copies[0].smem_offset, 8192u);
}

TEST(GemmPlan, LeaderMulticastAsDeepGemm) {
  GemmRequest r = Base();
  r.cluster_n = 2;
  r.multicast_a = true;
  r.mcast_issue = McastIssue::kLeader;
  const GemmPlan p = Plan(r);
  ASSERT_TRUE(p.valid);
  // [DeepGEMM] rank 0 issues the whole box with mask (1 << 2) - 1; both arm SMEM_A + SMEM_B.
  ASSERT_EQ(p.ctas[0].copies.size(), 2u);
  EXPECT_EQ(p.ctas[0].copies[0].mask, 0x3);
  EXPECT_EQ(p.ctas[0].copies[0].bytes, 16384u);
  ASSERT_EQ(p.ctas[1].copies.size(), 1u);  // only its own B
  EXPECT_EQ(p.ctas[0].expect_tx, 32768u);
  EXPECT_EQ(p.ctas[1].expect_tx, 32768u);
  // Both CTAs' consumers release the leader's stage (it writes into both); CTA 1's only its own.
  EXPECT_EQ(p.ctas[1].release_mask, 0x3);
  EXPECT_EQ(p.ctas[0].empty_arrivals, 4u);
  EXPECT_EQ(p.ctas[1].empty_arrivals, 2u);
}

TEST(GemmPlan, TwoCtaTcgen05AsCutlassSm100) {
  GemmRequest r = Base();
  r.target = Target::kSm100a;
  r.cta_group = 2;
  r.cluster_m = 2;
  r.bn = 256;
  const GemmPlan p = Plan(r);
  ASSERT_TRUE(p.valid);
  // [CUTLASS] sm100 TmaTransactionBytes = size(AtomThrShapeMNK) (2) x per-CTA (A 128 x 64 + B 128 x 64 bf16);
  // [DeepGEMM] the leader arms kNumArrivalBytes x 2, the other CTA only arrives.
  EXPECT_EQ(p.ctas[0].expect_tx, 65536u);
  EXPECT_EQ(p.ctas[0].full_arrivals, 2u);
  EXPECT_EQ(p.ctas[1].expect_tx, 0u);
  EXPECT_EQ(p.b.rows, 128u);
  EXPECT_EQ(p.ctas[1].copies[1].coord1_offset, 128u);  // the odd CTA's half of N
  // [PTX] Table 42: d f32 (1 << 4), a bf16 (1 << 7), b bf16 (1 << 10), N >> 3 = 32 at 17, M >> 4 = 16 at 24.
  EXPECT_EQ(p.mma.idesc, (1u << 4) | (1u << 7) | (1u << 10) | (32u << 17) | (16u << 24));
}

TEST(GemmPlan, WgmmaShapesFromPtx) {
  GemmRequest r = Base();
  r.bn = 200;  // m64n200k16 is listed for bf16
  EXPECT_TRUE(Plan(r).valid);
  r.a_type = r.b_type = desc::ElemType::kS8;
  r.bn = 40;  // s8 lists 8, 16, 24, 32, 48, ...: no n40
  r.bk = 128;
  GemmPlan p = Plan(r);
  EXPECT_TRUE(HasIssue(p, "plan-mma-n"));
  r.bn = 48;
  EXPECT_FALSE(HasIssue(Plan(r), "plan-mma-n"));
  // An MN-major operand only for f16/bf16.
  GemmRequest f = Base();
  f.a_type = f.b_type = desc::ElemType::kE4M3;
  f.bk = 128;
  f.b_major = desc::Major::kMN;
  EXPECT_TRUE(HasIssue(Plan(f), "plan-mma-major"));
  // bf16 accumulates in f32 only.
  GemmRequest a = Base();
  a.accumulator = desc::DType::kF16;
  a.has_accumulator = true;
  EXPECT_TRUE(HasIssue(Plan(a), "plan-mma-accumulator"));
  // BK must hold whole instructions (k16 for bf16).
  GemmRequest k = Base();
  k.bk = 40;
  k.has_swizzle_a = k.has_swizzle_b = true;
  k.swizzle_a = k.swizzle_b = desc::DescSwizzle::kNone;
  EXPECT_TRUE(HasIssue(Plan(k), "plan-mma-k"));
}

TEST(GemmPlan, MapErrorsComeFromTheValidator) {
  GemmRequest r = Base();
  r.k = 4100;  // bf16 row pitch 8200 B: [cuda.h] globalStrides must be multiples of 16
  const GemmPlan p = Plan(r);
  EXPECT_FALSE(p.valid);
  EXPECT_FALSE(p.maps[p.a.map].validation.valid);
  bool named = false;
  for (const std::string& m : p.maps[p.a.map].messages) named |= m.find("global-stride-align-16") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(GemmPlan, EdgeTiles) {
  GemmRequest r = Base();
  r.m = 4000;  // ceil(4000 / 128) = 32 tiles, the last 4000 - 31 x 128 = 32 rows
  r.k = 4064;  // ceil(4064 / 64) = 64 K tiles, the last 4064 - 63 x 64 = 32
  const GemmPlan p = Plan(r);
  EXPECT_EQ(p.edges.tiles_m, 32u);
  EXPECT_EQ(p.edges.last_m, 32u);
  EXPECT_EQ(p.edges.k_tiles, 64u);
  EXPECT_EQ(p.edges.last_k, 32u);
  // Zero fill for loads past the edge (NaN fill would poison the sums).
  EXPECT_EQ(p.maps[p.a.map].spec.oob_fill, OobFill::kNone);
  // Clusters that overrun the tiles: 33 N tiles in clusters of 2 leave idle CTAs that multicast peers wait for.
  GemmRequest c = Base();
  c.n = 33 * 128;
  c.cluster_m = 2;
  c.multicast_b = true;
  c.cluster_n = 2;
  const GemmPlan q = Plan(c);
  EXPECT_EQ(q.edges.grid_n, 34u);
  EXPECT_EQ(q.edges.idle_ctas, 32u * 1);  // 32 M tiles x 1 extra N column
  EXPECT_TRUE(HasIssue(q, "plan-edge-idle-cta"));
}

TEST(GemmPlan, BadRequestsNameTheField) {
  GemmRequest r = Base();
  r.bn = 264;
  EXPECT_EQ(std::string(CheckGemmRequest(r).message()).rfind("bn:", 0), 0u);
  r = Base();
  r.target = Target::kSm120a;
  EXPECT_EQ(std::string(CheckGemmRequest(r).message()).rfind("target:", 0), 0u);
  r = Base();
  r.cta_group = 2;
  EXPECT_EQ(std::string(CheckGemmRequest(r).message()).rfind("cta_group:", 0), 0u);
  r = Base();
  r.cluster_m = 4;
  r.cluster_n = 8;
  EXPECT_FALSE(CheckGemmRequest(r).ok());
  // 65536 x 65536 CTAs is 2^32: zero in 32 bits, and no cluster at all (a cluster holds at most 16 CTAs: the
  // ctaMask of .multicast::cluster has 16 bits, PTX ISA cp.async.bulk.tensor).
  r.cluster_m = 65536;
  r.cluster_n = 65536;
  EXPECT_EQ(std::string(CheckGemmRequest(r).message()).rfind("cluster:", 0), 0u);
}

TEST(GemmPlan, JsonIsOneObject) {
  const std::string j = RenderGemmJson(Plan(Base()));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.find('\n'), j.size() - 1);
  EXPECT_NE(j.find("\"expect_tx\":32768"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::plan
