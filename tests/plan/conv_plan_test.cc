// Tests of the convolution plan (src/plan/conv_plan.h). Expected values from cited sources:
//   [CUTLASS] NVIDIA/cutlass @ 7107b05535f8977f5ecb9d01ee203205b1fd9bc4: include/cutlass/conv/collective/detail.hpp
//             (fprop: lower corner = -lower_padding, upper corner = upper_padding - (filter - 1) x dilation, W, H, D
//             order; lower_srt = 0), sm90_implicit_gemm_gmma_ss_warpspecialized.hpp (traversal stride = the conv
//             stride; can_implement: filter offsets (filter - 1) x dilation < (1 << (16 / spatial dims)) - 1).
//   [cuDNN]   the output size of a convolution: (in + 2 pad - dilation (filter - 1) - 1) / stride + 1.
//   [cuda.h]  cuTensorMapEncodeIm2col: the tensor's dims innermost first {C, W, H, (D,) N}; elementStrides.
#include "src/plan/conv_plan.h"

#include <gtest/gtest.h>

#include <string>

namespace tmapgen::plan {
namespace {

ConvPlan PlanOf(const ConvRequest& r) {
  EXPECT_TRUE(CheckConvRequest(r).ok()) << CheckConvRequest(r).message();
  ConvPlan p;
  RunConvPlan(r, &p);
  return p;
}

TEST(ConvPlan, ResNet3x3) {
  ConvRequest r;  // N 32, 56 x 56 x 64, K 128, 3 x 3, pad 1, stride 1, bf16, 128 x 128 x 64
  const ConvPlan p = PlanOf(r);
  ASSERT_TRUE(p.valid) << RenderConvText(p);
  // [cuDNN] (56 + 2 - 2 - 1) / 1 + 1 = 56.
  EXPECT_EQ(p.out[0], 56u);
  EXPECT_EQ(p.out[1], 56u);
  EXPECT_EQ(p.gemm_m, 32u * 56 * 56);
  EXPECT_EQ(p.gemm_n, 128u);
  EXPECT_EQ(p.gemm_k, 9u * 64);
  const TensorMapSpec& a = p.gemm.maps[p.gemm.a.map].spec;
  EXPECT_EQ(a.mode, Mode::kIm2col);
  EXPECT_EQ(a.rank, 4u);
  EXPECT_EQ(a.global_dim[0], 64u);  // [cuda.h] C first
  EXPECT_EQ(a.global_dim[3], 32u);  // N last
  // [CUTLASS] corners: -1 and 1 - 2 x 1 = -1.
  EXPECT_EQ(a.pixel_box_lower_corner[0], -1);
  EXPECT_EQ(a.pixel_box_upper_corner[0], -1);
  EXPECT_EQ(a.pixels_per_column, 128u);
  EXPECT_EQ(a.channels_per_pixel, 64u);
  // 9 taps, S fastest: tap 5 = (s 2, r 1): offsets {2, 1}.
  ASSERT_EQ(p.taps.size(), 9u);
  EXPECT_EQ(p.taps[5].offsets[0], 2u);
  EXPECT_EQ(p.taps[5].offsets[1], 1u);
  // 128 pixels x 64 channels x 2 B of activations + 128 x 64 x 2 B of filter per stage.
  EXPECT_EQ(p.gemm.ctas[0].expect_tx, 32768u);
  const TensorMapSpec& b = p.gemm.maps[p.gemm.b.map].spec;
  EXPECT_EQ(b.rank, 4u);
  EXPECT_EQ(b.box_dim[3], 128u);  // BN output channels
  EXPECT_EQ(b.global_dim[1], 3u);  // S
  EXPECT_EQ(p.gemm.edges.k_tiles, 9u);
}

TEST(ConvPlan, StrideDilationAndPadding) {
  ConvRequest r;
  r.stride = {2, 2, 1};
  r.dilation = {2, 2, 1};
  r.pad = {2, 2, 0};
  const ConvPlan p = PlanOf(r);
  // [cuDNN] (56 + 4 - 2 x 2 - 1) / 2 + 1 = 28.
  EXPECT_EQ(p.out[0], 28u);
  const TensorMapSpec& a = p.gemm.maps[p.gemm.a.map].spec;
  EXPECT_EQ(a.element_strides[1], 2u);  // [CUTLASS] traversal stride = the conv stride
  EXPECT_EQ(a.element_strides[2], 2u);
  EXPECT_EQ(a.pixel_box_lower_corner[1], -2);
  EXPECT_EQ(a.pixel_box_upper_corner[1], 2 - 2 * 2);
  EXPECT_EQ(p.taps[8].offsets[0], 4u);  // (s 2) x dilation 2
  EXPECT_TRUE(p.valid) << RenderConvText(p);
}

TEST(ConvPlan, ThreeDimensionalAndTheOffsetLimit) {
  ConvRequest r;
  r.spatial = 3;
  r.in = {16, 16, 8};
  r.filter = {3, 3, 3};
  r.pad = {1, 1, 1};
  ConvPlan p = PlanOf(r);
  const TensorMapSpec& a = p.gemm.maps[p.gemm.a.map].spec;
  EXPECT_EQ(a.rank, 5u);
  EXPECT_EQ(p.taps.size(), 27u);
  EXPECT_TRUE(p.valid) << RenderConvText(p);
  // [CUTLASS] 3D: offsets below (1 << 5) - 1 = 31; a 5-tap filter with dilation 8 reaches 32.
  r.filter = {5, 3, 3};
  r.dilation = {8, 1, 1};
  r.pad = {16, 1, 1};
  r.in = {64, 16, 8};
  p = PlanOf(r);
  EXPECT_FALSE(p.valid);
  bool found = false;
  for (const PlanIssue& i : p.gemm.issues) found |= i.id == "plan-conv-offset";
  EXPECT_TRUE(found);
}

TEST(ConvPlan, ChannelsNotAMultipleOfTheTile) {
  ConvRequest r;
  r.c = 96;  // two channel blocks of 64 per tap, the second holds 32
  const ConvPlan p = PlanOf(r);
  EXPECT_EQ(p.channel_blocks, 2u);
  EXPECT_EQ(p.gemm.edges.k_tiles, 18u);
  EXPECT_EQ(p.gemm.edges.last_k, 32u);
}

TEST(ConvPlan, BadRequests) {
  ConvRequest r;
  r.filter = {60, 3, 1};  // larger than the padded input (58)
  EXPECT_FALSE(CheckConvRequest(r).ok());
  r = ConvRequest();
  r.stride = {9, 1, 1};  // element strides are 1..8 (cuda.h)
  EXPECT_EQ(std::string(CheckConvRequest(r).message()).rfind("stride:", 0), 0u);
  r = ConvRequest();
  r.cluster_m = r.cluster_n = 65536;  // 2^32 CTAs, zero in 32 bits; a cluster holds at most 16
  EXPECT_EQ(std::string(CheckConvRequest(r).message()).rfind("cluster:", 0), 0u);
  r = ConvRequest();
  r.stages = 4294967295u;  // the GEMM's bound: one buffer per stage is planned and listed
  EXPECT_EQ(std::string(CheckConvRequest(r).message()).rfind("stages:", 0), 0u);
}

TEST(ConvPlan, AFilterNoValidPlanCanHaveIsRefusedBeforeItsTapsAreListed) {
  // [CUTLASS] can_implement: (filter - 1) x dilation < (1 << (16 / spatial)) - 1, so at most 255 x 255 taps in 2D
  // (255 - 1 < 255) and 31^3 in 3D: every valid plan has at most 65,025 taps.
  ConvRequest r;
  r.in = {300, 300, 1};
  r.filter = {255, 255, 1};  // 65,025 taps: checked and planned (its offsets are in range)
  EXPECT_TRUE(CheckConvRequest(r).ok()) << CheckConvRequest(r).message();
  r.spatial = 3;
  r.in = {300, 300, 300};
  r.filter = {41, 41, 41};  // 68,921 taps, more than any valid plan
  const std::string m(CheckConvRequest(r).message());
  EXPECT_EQ(m.rfind("s: the filter has 68921 taps", 0), 0u) << m;
  r.filter = {31, 31, 31};  // 29,791 taps: the largest valid 3D filter
  EXPECT_TRUE(CheckConvRequest(r).ok()) << CheckConvRequest(r).message();
}

TEST(ConvPlan, JsonCarriesTheGemm) {
  const std::string j = RenderConvJson(PlanOf(ConvRequest()));
  EXPECT_EQ(j.rfind("{\"plan\":\"conv\"", 0), 0u);
  EXPECT_NE(j.find("\"gemm\":{\"plan\":\"gemm\""), std::string::npos);
  EXPECT_EQ(j.find('\n'), j.size() - 1);
}

}  // namespace
}  // namespace tmapgen::plan
