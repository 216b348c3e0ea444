// Tests of the sm_100 im2col::w and im2col::w::128 forms of the convolution plan (src/plan/conv_plan.h).
// Expected values from cited sources:
//   [PTX]     PTX ISA 9.2: 5.5.5 (im2col::w modes: W only, pixels per column, ::w::128 always 128 pixels, a swizzle
//             required), 5.5.5.3 (wHalo: "wHalo in the instruction = 2 (as 3x3 convolution filter is used)", the
//             halo pixels follow the main pixels; ::w::128: wHalo pixels after every 32), 5.5.5.4 (wOffset examples 1
//             and 2: stride 2 -> buffer 1 wHalo 1 wOffset 0, buffer 2 wHalo 0 wOffset 1; stride 3 -> three buffers,
//             wOffset 0, 1, 2, wHalo 0; lower corner W -1), 9.7.9.25.5.2 (im2colInfo: wHalo below 512 for ::w,
//             below 32 for ::w::128; targets), 9.7.16.2.1 Table 39 (tcgen05.mma.ws: 32xNxK with N 64, 128, 256),
//             9.7.16.4.1 Tables 40 and 41 (shared-memory descriptor bits; base offset = (pattern start >> 7) & 7
//             off the 1024-byte boundary of 128B swizzle).
//   [cuda.h]  cuTensorMapEncodeIm2colWide: SWIZZLE_64B, SWIZZLE_128B or SWIZZLE_128B_ATOM_32B only.
//   [CUTLASS] NVIDIA/cutlass @ 7107b05535f8977f5ecb9d01ee203205b1fd9bc4:
//             include/cutlass/conv/collective/builders/sm100_common.inl picks SM100_TMA_2SM_LOAD_IM2COL(_MULTICAST) or
//             SM90_TMA_LOAD_IM2COL(_MULTICAST) for every filter and stride; no .im2col::w anywhere in the tree.
//   [cuDNN]   the output size: (in + 2 pad - dilation (filter - 1) - 1) / stride + 1.
#include <gtest/gtest.h>

#include <string>

#include "src/plan/conv_plan.h"
#include "src/plan/plan_codegen.h"

namespace tmapgen::plan {
namespace {

ConvRequest Sm100(uint32_t s, uint32_t stride_w, uint32_t pad_w, uint32_t dilation_w = 1) {
  ConvRequest r;  // N 8, 28 x 28 x 64, K 128, bf16, 128 x 128 x 64
  r.n = 8;
  r.in = {28, 28, 1};
  r.filter = {s, 3, 1};
  r.pad = {pad_w, 1, 0};
  r.stride = {stride_w, 1, 1};
  r.dilation = {dilation_w, 1, 1};
  r.target = Target::kSm100a;
  return r;
}

ConvPlan PlanOf(const ConvRequest& r) {
  EXPECT_TRUE(CheckConvRequest(r).ok()) << CheckConvRequest(r).message();
  ConvPlan p;
  RunConvPlan(r, &p);
  return p;
}

const WideForm& Form(const ConvPlan& p, Mode m) {
  for (const WideForm& f : p.wide)
    if (f.mode == m) return f;
  ADD_FAILURE() << "no form";
  return p.wide.front();
}

TEST(ConvWide, Sm90aHasNoWideForms) {
  ConvRequest r = Sm100(3, 1, 1);
  r.target = Target::kSm90a;
  const ConvPlan p = PlanOf(r);
  EXPECT_TRUE(p.wide.empty());
  EXPECT_EQ(RenderConvText(p).find("im2col::w"), std::string::npos);
  EXPECT_EQ(RenderConvJson(p).find("wide_forms"), std::string::npos);
}

TEST(ConvWide, TheGemmKeepsIm2colAsCutlassDoes) {
  const ConvPlan p = PlanOf(Sm100(3, 1, 1));
  ASSERT_TRUE(p.valid) << RenderConvText(p);
  // [CUTLASS] sm100_common.inl: .im2col for every filter and stride.
  EXPECT_EQ(p.gemm.maps[p.gemm.a.map].spec.mode, Mode::kIm2col);
  ASSERT_EQ(p.wide.size(), 2u);
  EXPECT_NE(RenderConvJson(p).find("\"wide_forms\""), std::string::npos);
}

TEST(ConvWide, ThreeByThreeStrideOneIsPtxsWHaloExample) {
  const ConvPlan p = PlanOf(Sm100(3, 1, 1));
  const WideForm& f = Form(p, Mode::kIm2colW);
  ASSERT_TRUE(f.applies) << RenderConvText(p);
  // [PTX] 5.5.5.3: a 3x3 filter, wHalo 2; one buffer (stride 1: every tap has phase 0).
  ASSERT_EQ(f.buffers.size(), 1u);
  EXPECT_EQ(f.buffers[0].w_halo, 2u);
  EXPECT_EQ(f.buffers[0].w_offset, 0u);
  // [PTX] 5.5.5.3: 128 pixels and the 2 halo pixels, 64 channels of 2 bytes.
  EXPECT_EQ(f.buffers[0].rows, 130u);
  EXPECT_EQ(f.buffers[0].copy_bytes, 130u * 64 * 2);
  // Tap s reads rows s .. s + 127: the halo pixels follow the main pixels ([PTX] 5.5.5.3).
  ASSERT_EQ(f.taps.size(), 3u);
  for (uint32_t s = 0; s < 3; ++s) {
    EXPECT_EQ(f.taps[s].buffer, 0u);
    EXPECT_EQ(f.taps[s].row, s);
    EXPECT_EQ(f.taps[s].start_offset, s * 128u);  // one 128-byte swizzle row per pixel
  }
  // The map: [PTX] 5.5.5.1 W corners; [cuda.h] pixels per column.
  const TensorMapSpec& a = f.map.spec;
  EXPECT_EQ(a.mode, Mode::kIm2colW);
  EXPECT_EQ(a.pixel_box_lower_corner_width, -1);
  EXPECT_EQ(a.pixels_per_column, 128u);
  EXPECT_EQ(a.channels_per_pixel, 64u);
  EXPECT_TRUE(f.map.validation.valid);
  // Per stage: the A copy plus the 3 taps' filter tiles (128 x 64 x 2 B each).
  EXPECT_EQ(f.expect_tx, 130u * 64 * 2 + 3u * 128 * 64 * 2);
  // The M tiles: one output row of Q = 28 ([cuDNN]) per tile: N x P = 8 x 28 tiles.
  EXPECT_EQ(f.q_tiles, 1u);
  EXPECT_EQ(f.m_tiles, 8u * 28);
}

TEST(ConvWide, StrideTwoIsPtxsWOffsetExampleOne) {
  const ConvPlan p = PlanOf(Sm100(3, 2, 1));
  const WideForm& f = Form(p, Mode::kIm2colW);
  ASSERT_TRUE(f.applies) << RenderConvText(p);
  // [PTX] 5.5.5.4 example 1 (lower corner W -1, traversal stride 2): buffer 1 wHalo 1 wOffset 0, buffer 2 wHalo 0
  // wOffset 1.
  ASSERT_EQ(f.buffers.size(), 2u);
  EXPECT_EQ(f.buffers[0].w_offset, 0u);
  EXPECT_EQ(f.buffers[0].w_halo, 1u);
  EXPECT_EQ(f.buffers[1].w_offset, 1u);
  EXPECT_EQ(f.buffers[1].w_halo, 0u);
  EXPECT_EQ(f.map.spec.pixel_box_lower_corner_width, -1);
  EXPECT_EQ(f.map.spec.element_strides[1], 2u);
  // Tap s reads column 2q - 1 + s: s 0 and 2 from buffer 0 (rows 0 and 1), s 1 from buffer 1.
  EXPECT_EQ(f.taps[0].buffer, 0u);
  EXPECT_EQ(f.taps[0].row, 0u);
  EXPECT_EQ(f.taps[1].buffer, 1u);
  EXPECT_EQ(f.taps[1].row, 0u);
  EXPECT_EQ(f.taps[2].buffer, 0u);
  EXPECT_EQ(f.taps[2].row, 1u);
  // Buffer 1 starts after buffer 0's 129 rows, rounded up to the 8-row 128B swizzle repeat: 136 x 128 B.
  EXPECT_EQ(f.buffers[1].smem_offset, 136u * 128);
}

TEST(ConvWide, StrideThreeIsPtxsWOffsetExampleTwo) {
  const ConvPlan p = PlanOf(Sm100(3, 3, 1));
  const WideForm& f = Form(p, Mode::kIm2colW);
  ASSERT_TRUE(f.applies) << RenderConvText(p);
  // [PTX] 5.5.5.4 example 2 (traversal stride 3): three buffers, wOffset 0, 1, 2, wHalo 0.
  ASSERT_EQ(f.buffers.size(), 3u);
  for (uint32_t b = 0; b < 3; ++b) {
    EXPECT_EQ(f.buffers[b].w_offset, b);
    EXPECT_EQ(f.buffers[b].w_halo, 0u);
    EXPECT_EQ(f.taps[b].buffer, b);
  }
  // No reuse: as many pixel rows as .im2col loads for the three taps.
  EXPECT_EQ(f.rows_wide, f.rows_im2col);
}

TEST(ConvWide, W128LoadsFourRunsAndNeedsTheWsMma) {
  const ConvPlan p = PlanOf(Sm100(3, 1, 1));
  const WideForm& f = Form(p, Mode::kIm2colW128);
  ASSERT_TRUE(f.applies) << RenderConvText(p);
  // [PTX] 5.5.5.3: 128 pixels, wHalo 2 after every 32: 128 + 4 x 2 rows.
  EXPECT_EQ(f.buffers[0].rows, 136u);
  EXPECT_EQ(f.buffers[0].copy_bytes, 136u * 64 * 2);
  // Tap s = 1: runs of 32 from rows g x (32 + 2) + 1.
  ASSERT_EQ(f.taps[1].runs.size(), 4u);
  EXPECT_EQ(f.taps[1].runs[0], 1u);
  EXPECT_EQ(f.taps[1].runs[1], 35u);
  EXPECT_EQ(f.taps[1].runs[2], 69u);
  EXPECT_EQ(f.taps[1].runs[3], 103u);
  // [PTX] Table 39: tcgen05.mma.ws with M = 32 (one per run).
  EXPECT_EQ(f.runs_per_tap, 4u);
  EXPECT_TRUE(f.idesc_valid);
  EXPECT_NE(f.mma.find(".ws"), std::string::npos);
  EXPECT_EQ(f.taps[1].steps.size(), 4u * 4);  // 4 runs x 4 K steps of 16 bf16
}

TEST(ConvWide, W128WithoutHaloIsOneDescriptor) {
  const ConvPlan p = PlanOf(Sm100(1, 1, 0));  // a 1 x S = 1 filter: no halo
  const WideForm& f = Form(p, Mode::kIm2colW128);
  ASSERT_TRUE(f.applies) << RenderConvText(p);
  EXPECT_EQ(f.buffers[0].w_halo, 0u);
  EXPECT_EQ(f.buffers[0].rows, 128u);
  EXPECT_EQ(f.runs_per_tap, 1u);
}

TEST(ConvWide, W128NeedsBm128) {
  ConvRequest r = Sm100(3, 1, 1);
  r.bm = 64;
  const ConvPlan p = PlanOf(r);
  // [PTX] 5.5.5.1: ::w::128 always loads 128 pixels.
  EXPECT_FALSE(Form(p, Mode::kIm2colW128).applies);
  EXPECT_TRUE(Form(p, Mode::kIm2colW).applies) << RenderConvText(p);
  EXPECT_EQ(Form(p, Mode::kIm2colW).buffers[0].rows, 66u);
}

TEST(ConvWide, HaloLimits) {
  ConvRequest r = Sm100(3, 1, 16, 16);  // taps at 0, 16, 32: wHalo 32
  r.in = {64, 28, 1};
  const ConvPlan p = PlanOf(r);
  // [PTX] 9.7.9.25.5.2: wHalo below 32 for ::w::128, below 512 for ::w.
  EXPECT_EQ(Form(p, Mode::kIm2colW).buffers[0].w_halo, 32u);
  EXPECT_TRUE(Form(p, Mode::kIm2colW).applies) << RenderConvText(p);
  EXPECT_FALSE(Form(p, Mode::kIm2colW128).applies);
}

TEST(ConvWide, NeedsA64Or128ByteSwizzle) {
  ConvRequest r = Sm100(3, 1, 1);
  r.bk = 16;  // 16 bf16 channels: 32-byte rows, SWIZZLE_32B
  const ConvPlan p = PlanOf(r);
  // [cuda.h] cuTensorMapEncodeIm2colWide: SWIZZLE_64B, 128B, 128B_ATOM_32B only.
  EXPECT_FALSE(Form(p, Mode::kIm2colW).applies);
  EXPECT_FALSE(Form(p, Mode::kIm2colW128).applies);
}

TEST(ConvWide, TapDescriptorsCarryTheBaseOffset) {
  const ConvPlan p = PlanOf(Sm100(3, 1, 1));
  const WideForm& f = Form(p, Mode::kIm2colW);
  ASSERT_TRUE(f.applies);
  // [PTX] Tables 40 and 41: start >> 4 in bits 0-13, LBO 16 B (unused by swizzled K-major, 1) in 16-29, SBO 1024 B
  // (8 rows of 128 B) in 32-45, 0b001 in 46-48, base offset in 49-51, 128B swizzle = 2 in 61-63. Tap s = 2, K step 1
  // starts 2 rows + 32 bytes into the buffer (at the 1024-byte boundary): base offset 2.
  const KStepDesc& d = f.taps[2].steps[1];
  const uint64_t start = 2 * 128 + 32;
  const uint64_t want = (start >> 4) | (uint64_t{1} << 16) | (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 46) |
                        (uint64_t{2} << 49) | (uint64_t{2} << 61);
  EXPECT_EQ(d.desc.bits(), want);
  EXPECT_EQ(d.base_offset, 2u);
  EXPECT_TRUE(d.validation.valid);
}

TEST(ConvWide, HeaderCarriesTheFormsThatApply) {
  const ConvPlan p = PlanOf(Sm100(3, 1, 1));
  const absl::StatusOr<std::string> gen = GenerateConvHeader(p, "wide_gen");
  ASSERT_TRUE(gen.ok()) << gen.status().message();
  const std::string& h = *gen;
  EXPECT_NE(h.find("namespace im2col_w {"), std::string::npos);
  EXPECT_NE(h.find("namespace im2col_w128 {"), std::string::npos);
  EXPECT_NE(h.find("constexpr unsigned short kWHalo[1] = {2};"), std::string::npos);
  EXPECT_NE(h.find("CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128"), std::string::npos);
  ConvRequest r = Sm100(3, 1, 1);
  r.bm = 64;
  const absl::StatusOr<std::string> gen64 = GenerateConvHeader(PlanOf(r), "wide_gen");
  ASSERT_TRUE(gen64.ok()) << gen64.status().message();
  const std::string& h64 = *gen64;
  EXPECT_EQ(h64.find("namespace im2col_w128 {"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::plan
