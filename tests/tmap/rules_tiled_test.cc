// Rule tests for tiled-like maps (tiled, gather4, scatter4) and the rules shared by every mode: rank,
// global dims / strides / address, box, element strides, swizzle, interleave, packed types, OOB fill,
// direction, reduction, shared-memory destination, driver version, unused fields.
//
// Every expectation comes from a document, named in the comment above it (see test_specs.h for the
// short names). Each case starts from a baseline of test_specs.h that BaselinesAreClean proves spotless,
// and changes one thing.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/tmap/test_specs.h"

namespace tmapgen {
namespace {

using namespace test_specs;  // NOLINT

TEST(TiledBaselines, BaselinesAreClean) {
  EXPECT_TRUE(Spotless(TiledF16()));
  EXPECT_TRUE(Spotless(TiledF16NoSwizzle()));
  EXPECT_TRUE(Spotless(TiledF16Pitch1008()));
  EXPECT_TRUE(Spotless(Tiled3dF16()));
  EXPECT_TRUE(Spotless(TiledF32()));
  EXPECT_TRUE(Spotless(Interleave16Rank3()));
  EXPECT_TRUE(Spotless(Interleave32Rank3()));
  EXPECT_TRUE(Spotless(PackedU4Align8()));
  EXPECT_TRUE(Spotless(PackedU4Align16()));
  EXPECT_TRUE(Spotless(PackedU6Align16()));
  EXPECT_TRUE(Spotless(PackedU6Rank3()));
  EXPECT_TRUE(Spotless(Gather4F16()));
  EXPECT_TRUE(Spotless(Scatter4F16()));
}

// ============================== rank ==============================
// [CUDA_H] Tiled: "tensorRank must be non-zero and less than or equal to the maximum supported
// dimensionality of 5."
TEST(RankRange, ZeroAndSixFailOneAndFivePass) {
  TensorMapSpec s = TiledF16();
  s.rank = 0;
  EXPECT_TRUE(TripsError(s, "rank-range"));
  s = TiledF16();
  s.rank = 6;
  EXPECT_TRUE(TripsError(s, "rank-range"));

  TensorMapSpec one = TiledF16();  // rank 1: a single row of 4096 f16, box [64]
  one.rank = 1;
  one.global_dim = {4096, 0, 0, 0, 0};
  one.global_strides = {0, 0, 0, 0};
  one.box_dim = {64, 0, 0, 0, 0};
  EXPECT_TRUE(Clear(one, "rank-range"));

  TensorMapSpec five = TiledF16();  // rank 5: dense [64, 4, 4, 4, 4], box [64, 4, 4, 4, 4]
  five.rank = 5;
  five.global_dim = {64, 4, 4, 4, 4};
  five.global_strides = {128, 512, 2048, 8192};
  five.box_dim = {64, 4, 4, 4, 4};
  EXPECT_TRUE(Clear(five, "rank-range"));
}

// [CUDA_H] Tiled: "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally
// be greater than or equal to 3." "Other interleave modes can have any swizzling pattern."
TEST(InterleaveRank, Rank2InterleavedFailsRank3Passes) {
  TensorMapSpec s = TiledF16();
  s.interleave = Interleave::k16B;
  EXPECT_TRUE(TripsError(s, "interleave-rank"));

  TensorMapSpec t = Tiled3dF16();
  t.interleave = Interleave::k16B;
  EXPECT_TRUE(Clear(t, "interleave-rank"));
}

// [PTX-CN] 5.5.3.4: ".tile::scatter4 and .tile::gather4 ... only operate on 2D tensor data";
// [SPEC] 2.1: "2D tensors only".
TEST(Gather4Rank, OnlyRank2) {
  TensorMapSpec s = Gather4F16();  // made 3D, with the extra dimension filled in consistently
  s.rank = 3;
  s.global_dim = {4096, 4096, 2, 0, 0};
  s.global_strides = {8192, 8192ull * 4096, 0, 0};
  s.box_dim = {64, 1, 1, 0, 0};
  EXPECT_TRUE(TripsError(s, "gather4-rank"));

  TensorMapSpec t = Scatter4F16();
  t.rank = 1;
  t.global_dim = {4096, 0, 0, 0, 0};
  t.global_strides = {0, 0, 0, 0};
  EXPECT_TRUE(TripsError(t, "gather4-rank"));

  EXPECT_TRUE(Clear(Gather4F16(), "gather4-rank"));
  EXPECT_TRUE(Clear(Scatter4F16(), "gather4-rank"));
}

// ============================== global dims ==============================
// [CUDA_H] "globalDim array ... must be non-zero and less than or equal to 2^32."
TEST(GlobalDimRange, Boundaries) {
  TensorMapSpec s = TiledF16();
  s.global_dim[1] = k2Pow32;
  EXPECT_TRUE(Clear(s, "global-dim-range"));
  s.global_dim[1] = k2Pow32 + 1;
  EXPECT_TRUE(TripsError(s, "global-dim-range"));
  const Validation v = ValidateSpec(s);
  ASSERT_NE(FindingOf(v, "global-dim-range"), nullptr);
  EXPECT_EQ(FindingOf(v, "global-dim-range")->index, 1);

  s = TiledF16();
  s.global_dim[0] = 0;
  EXPECT_TRUE(TripsError(s, "global-dim-range"));
  s.global_dim[0] = 1;  // the smallest legal dimension (the box may exceed it: only a note)
  EXPECT_TRUE(Clear(s, "global-dim-range"));
}

// An empty tensor (an empty batch) has no map: [CUDA_H] wants every globalDim non-zero, and extent 1 would
// describe a row that does not exist. So the fix says to skip the launch, and no nearest valid configuration
// invents that row.
TEST(GlobalDimRange, AnEmptyDimensionMeansNothingToCopy) {
  TensorMapSpec s = TiledF16();
  s.global_dim[1] = 0;
  const Validation v = ValidateSpec(s);
  EXPECT_NE(MessageOf(s, v, "global-dim-range").find("the tensor is empty"), std::string::npos) << Dump(s, v);
  const std::string fix = FixOf(s, v, "global-dim-range");
  EXPECT_NE(fix.find("nothing to copy: skip the launch (or the copy)"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("at least 1"), std::string::npos) << fix;
  TensorMapSpec repaired;
  EXPECT_FALSE(NearestValid(s, &repaired));
  // Too large a dimension still has its repair (split in two; the nearest valid spec takes 2^32).
  s.global_dim[1] = k2Pow32 + 1;
  s.global_strides[0] = 8192;
  ASSERT_TRUE(NearestValid(s, &repaired));
  EXPECT_EQ(repaired.global_dim[1], k2Pow32);
}

// [CUDA_H] "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or
// CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, globalDim[0] must be a multiple of 128." / "When tensorDataType
// is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, globalDim[0] must be a multiple of 2."
TEST(GlobalDimPacked, MultiplesOf2And128) {
  TensorMapSpec s = PackedU4Align8();
  s.global_dim[0] = 4095;
  EXPECT_TRUE(TripsError(s, "global-dim-packed"));
  s.global_dim[0] = 4094;
  EXPECT_TRUE(Clear(s, "global-dim-packed"));

  s = PackedU4Align16();
  s.global_dim[0] = 4000;  // 2000 B packed, still within the 2048-byte pitch
  EXPECT_TRUE(TripsError(s, "global-dim-packed"));
  s.global_dim[0] = 4032;  // 63 x 64: a multiple of 64, not of 128
  EXPECT_TRUE(TripsError(s, "global-dim-packed"));
  s.global_dim[0] = 3968;  // 31 x 128
  EXPECT_TRUE(Clear(s, "global-dim-packed"));

  s = PackedU6Align16();
  s.global_dim[0] = 4000;
  EXPECT_TRUE(TripsError(s, "global-dim-packed"));

  // The rule is about packed types only: an f16 tensor of 4095 columns is fine.
  s = TiledF16();
  s.global_dim[0] = 4095;
  EXPECT_TRUE(Clear(s, "global-dim-packed"));
}

// ============================== global strides ==============================
// [CUDA_H] "globalStrides array ... must be a multiple of 16 and less than 2^40."
// (/work/shared/reference/pitfalls.md #1: the most common mistake people make.)
TEST(GlobalStrideAlign16, Stride1000FailsStride1008Passes) {
  TensorMapSpec s = TiledF16Pitch1008();
  s.global_strides[0] = 1000;
  EXPECT_TRUE(TripsError(s, "global-stride-align-16"));
  s.global_strides[0] = 1008;
  EXPECT_TRUE(Clear(s, "global-stride-align-16"));
}

// [CUDA_H] cuTensorMapEncodeTiled: globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) +
// padding[0]; globalStrides[i] = globalStrides[i - 1] * (globalDim[i] + padding[i]). The dense tensor has no
// padding: 4100 bf16 (2 B) = 8200 B rows, 8200 x 8192 = 67174400 B planes. Rows padded to a multiple of 16 B:
// 8208 B, 8208 x 8192 = 67239936 B.
TEST(DenseStrides, DefaultIsTheDenseTensorPaddedOnlyWhenAskedFor) {
  TensorMapSpec s = TiledF16();
  s.data_type = DataType::kBfloat16;
  s.rank = 3;
  s.global_dim = {4100, 8192, 3, 0, 0};
  s.box_dim = {64, 128, 1, 0, 0};
  ASSERT_TRUE(FillDenseStrides(&s));
  EXPECT_EQ(s.global_strides[0], 8200u);
  EXPECT_EQ(s.global_strides[1], 67174400u);
  EXPECT_TRUE(HasDenseDefaultStrides(s));
  TensorMapSpec padded = s;
  ASSERT_TRUE(FillPaddedStrides(&padded));
  EXPECT_EQ(padded.global_strides[0], 8208u);
  EXPECT_EQ(padded.global_strides[1], 67239936u);
  EXPECT_FALSE(HasDenseDefaultStrides(padded));
  // [CUDA_H] "must be a multiple of 16": 8200 is not, so the dense default is an error naming global_strides[0],
  // whose fix names the padded allocation and the narrower tensor (4096: 8 bf16 per 16 B, the largest below 4100).
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(v.valid);
  const Finding* f = FindingOf(v, "global-stride-align-16");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->index, 0);
  const std::string fix = FixOf(s, v, "global-stride-align-16");
  EXPECT_NE(fix.find("dense"), std::string::npos) << fix;
  EXPECT_NE(fix.find("pad the allocation's rows to 8208 B"), std::string::npos) << fix;
  EXPECT_NE(fix.find("global_strides [8208, 67239936]"), std::string::npos) << fix;
  EXPECT_NE(fix.find("global_dim[0] = 4096"), std::string::npos) << fix;
  // The repair is the padded tensor, all strides, given explicitly.
  TensorMapSpec fixed;
  ASSERT_TRUE(NearestValid(s, &fixed));
  EXPECT_EQ(fixed.global_strides[0], 8208u);
  EXPECT_EQ(fixed.global_strides[1], 67239936u);
  EXPECT_TRUE(fixed.Has(kFieldGlobalStrides));
  // The same values given explicitly are the user's: the fix stays the plain one.
  s.set_fields |= kFieldGlobalStrides;
  EXPECT_FALSE(HasDenseDefaultStrides(s));
  const Validation e = ValidateSpec(s);
  EXPECT_EQ(FixOf(s, e, "global-stride-align-16"), "pad global_strides[0] from 8200 to 8208 bytes");
}

// [CUDA_H] "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32." /
// "When tensorDataType is ... 16U6_ALIGN16B or ... 16U4_ALIGN16B, the strides must be a multiple of 32."
TEST(GlobalStrideAlign32, PackedAndInterleave32) {
  TensorMapSpec s = PackedU4Align16();
  s.global_strides[0] = 2064;  // a multiple of 16, not of 32
  EXPECT_TRUE(TripsError(s, "global-stride-align-32"));
  s.global_strides[0] = 2080;
  EXPECT_TRUE(Clear(s, "global-stride-align-32"));

  s = PackedU6Align16();
  s.global_strides[0] = 3088;
  EXPECT_TRUE(TripsError(s, "global-stride-align-32"));

  s = Interleave32Rank3();
  s.global_strides[1] = 2064;
  EXPECT_TRUE(TripsError(s, "global-stride-align-32"));
  s.global_strides[1] = 2080;
  EXPECT_TRUE(Clear(s, "global-stride-align-32"));

  // Without INTERLEAVE_32B or a packed ALIGN16B type, 16 is enough.
  s = TiledF16();
  s.global_strides[0] = 8208;
  EXPECT_TRUE(Clear(s, "global-stride-align-32"));
  s = Interleave16Rank3();
  s.global_strides[1] = 1040;
  EXPECT_TRUE(Clear(s, "global-stride-align-32"));
}

// [CUDA_H] "... must be a multiple of 16 and less than 2^40."
TEST(GlobalStrideMax, Below2Pow40) {
  TensorMapSpec s = TiledF16();
  s.global_strides[0] = k2Pow40 - 16;
  EXPECT_TRUE(Clear(s, "global-stride-max"));
  s.global_strides[0] = k2Pow40;
  EXPECT_TRUE(TripsError(s, "global-stride-max"));
}

// The stride of an extent-1 dimension is never used (coordinate 0 is the only one inside the tensor), but the
// driver checks it: in the driver corpus (/work/shared/data/driver-encodings, H200, driver 580.159.04) the 12
// tiled maps whose only broken rule is a stride >= 2^40 on an extent-1 dimension were all rejected, e.g.
// drv_3.jsonl.gz line 27954 (below); and drv_2.jsonl.gz line 20272, with stride 0 on its extent-1 dimension,
// was accepted (docs/hardware.md D1: "a stride of 0 ... accepted"). So the fix gives a legal value, not "map the
// tensor in pieces": the dense value where it is a legal stride ([CUDA_H]: a multiple of 16 below 2^40), else 0.
TEST(GlobalStrideMax, UnusedStrideOfAnExtentOneDimension) {
  TensorMapSpec s = TiledF16NoSwizzle();  // drv_3.jsonl.gz line 27954, rejected by the driver
  s.data_type = DataType::kBfloat16;
  s.rank = 3;
  s.global_dim = {6, 262, 1, 0, 0};
  s.global_strides = {3390016, k2Pow40, 0, 0};
  s.box_dim = {16, 111, 108, 0, 0};
  s.element_strides = {3, 3, 3, 1, 1};
  s.swizzle = Swizzle::k32B;
  s.l2_promotion = L2Promotion::k64B;
  s.global_address = 139637976761344ull;
  s.set_fields |= kFieldGlobalAddress;
  const Validation v = ValidateSpec(s);
  EXPECT_TRUE(TripsError(s, "global-stride-max"));
  const std::string fix = FixOf(s, v, "global-stride-max");
  EXPECT_EQ(fix.find("in pieces"), std::string::npos) << fix;
  EXPECT_NE(fix.find("never addresses anything"), std::string::npos) << fix;
  EXPECT_NE(fix.find("global_strides[1] = 888184192 (the dense value) or 0"), std::string::npos) << fix;
  TensorMapSpec repaired;
  ASSERT_TRUE(NearestValid(s, &repaired)) << Dump(s, v);
  EXPECT_EQ(repaired.global_strides[1], 3390016ull * 262);  // global_strides[0] x global_dim[1]

  // drv_2.jsonl.gz line 20272 (accepted) with its unused stride overflowed: the dense value 2^33 x 2^32 is no
  // legal stride, so the fix and the repair give 0, the value the driver accepted.
  TensorMapSpec z = TiledF16NoSwizzle();
  z.rank = 3;
  z.global_dim = {k2Pow32, k2Pow32, 1, 0, 0};
  z.global_strides = {uint64_t{1} << 33, 0, 0, 0};
  z.box_dim = {32, 228, 206, 0, 0};
  z.element_strides = {1, 8, 3, 1, 1};
  z.l2_promotion = L2Promotion::kNone;
  z.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(Clear(z, "global-stride-max"));  // as the driver accepted it
  z.global_strides[1] = uint64_t{1} << 41;
  const std::string zfix = FixOf(z, ValidateSpec(z), "global-stride-max");
  EXPECT_NE(zfix.find("global_strides[1] = 0 (the dense value is no legal stride here)"), std::string::npos) << zfix;
  TensorMapSpec zr = z;
  for (const Finding& f : ValidateSpec(z).findings) {
    if (Rules()[f.rule].id != "global-stride-max") continue;
    ASSERT_NE(Rules()[f.rule].patch, nullptr);
    EXPECT_TRUE(Rules()[f.rule].patch(f, &zr));
  }
  EXPECT_EQ(zr.global_strides[1], 0u);

  // A used dimension keeps the old advice: nothing can shrink the stride of a dimension that is stepped.
  TensorMapSpec u = TiledF16();
  u.global_strides[0] = k2Pow40;
  const Validation uv = ValidateSpec(u);
  EXPECT_NE(FixOf(u, uv, "global-stride-max").find("in pieces"), std::string::npos);
  EXPECT_FALSE(NearestValid(u, &repaired));
}

// Overlap is decided on the address sets: a stride smaller than the row, or a dimension whose
// steps land inside a row reached along another dimension, reads (loads) or writes (stores) the same bytes for
// two positions. [CUDA_H] describes the dense nested case ("Each following dimension specified includes previous
// dimension stride: globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0]; ...") but
// requires no order; [SPEC] 6: "stride smaller than the row ...: accepted. Stride 0: accepted. The driver does not
// check ordering or overlap." => a warning, the map stays valid.
TEST(GlobalStrideOverlap, SmallerThanTheRowWarnsButIsValid) {
  TensorMapSpec s = TiledF16();
  s.global_strides[0] = 8176;  // row is 4096 x 2 = 8192 B
  EXPECT_TRUE(TripsWarning(s, "global-stride-overlap"));
  s.global_strides[0] = 0;  // a broadcast over 4096 rows
  EXPECT_TRUE(TripsWarning(s, "global-stride-overlap"));
  s.global_strides[0] = 8192;  // exactly the row: no padding
  EXPECT_TRUE(Clear(s, "global-stride-overlap"));

  TensorMapSpec t = Tiled3dF16();  // dims 64 x 64 x 16, rows of 128 B, dimension 1 spans 64 x 128 = 8192 B
  t.global_strides[1] = 8176;      // one step along dimension 2 lands 112 B into row 63 of dimension 1
  EXPECT_TRUE(TripsWarning(t, "global-stride-overlap"));
  const Validation v = ValidateSpec(t);
  ASSERT_NE(FindingOf(v, "global-stride-overlap"), nullptr);
  EXPECT_EQ(FindingOf(v, "global-stride-overlap")->index, 1);
  EXPECT_EQ(FindingOf(v, "global-stride-overlap")->limit, 1);  // the dimension it collides with
  const std::string msg = MessageOf(t, v, "global-stride-overlap");
  EXPECT_NE(msg.find("dimensions 2 and 1 overlap"), std::string::npos) << msg;
  t.global_strides[1] = 8192;
  EXPECT_TRUE(Clear(t, "global-stride-overlap"));
}

// flash-attention 3 (hopper/mainloop_fwd_sm90_tma_gmma_ws.hpp l. 236-237, commit 0251105a): Q, K and V are CuTe
// tensors of shape (seqlen, d, head, batch) with strides (int64, _1, int64, int64), filled by hopper/flash_api.cpp
// l. 90-102 from q.stride(-3), q.stride(-2) and q.stride(0) of a (batch, seqlen, head, d) tensor (BSHD).
// flash-attention 4 (flash_attn/cute/flash_fwd_sm100.py l. 475-476) selects the same (s, d, h, b) modes from the
// BSHD tensor. CuTe's construct_tma_gbasis (cute/atom/copy_traits_sm90_tma.hpp, CUTLASS 7107b0553, l. 816-836)
// puts the box modes first in shared-memory order (d, seqlen) and appends the other modes in their order (head,
// batch). So the map is dims {d, seqlen, head, batch} with byte strides {h*d*2, d*2, s*h*d*2}: the head stride is
// smaller than the token stride, and no byte is reached twice.
TEST(GlobalStrideOverlap, FlashAttentionBshdHeadStrideBelowTokenStrideIsDisjoint) {
  TensorMapSpec s = TiledF16();
  s.data_type = DataType::kBfloat16;
  s.rank = 4;
  const uint64_t d = 128, seqlen = 4096, heads = 16, batch = 2;
  s.global_dim = {d, seqlen, heads, batch, 0};
  s.global_strides = {heads * d * 2, d * 2, seqlen * heads * d * 2, 0};
  s.box_dim = {64, 128, 1, 1, 0};
  EXPECT_TRUE(Clear(s, "global-stride-overlap"));
  EXPECT_TRUE(ValidateSpec(s).valid);
  // flash-attention 4 on Blackwell, d = 64, 32 heads, f16, one sequence (batch 1).
  TensorMapSpec f = s;
  f.data_type = DataType::kFloat16;
  f.global_dim = {64, 8192, 32, 1, 0};
  f.global_strides = {32 * 64 * 2, 64 * 2, 8192ull * 32 * 64 * 2, 0};
  EXPECT_TRUE(Clear(SetTarget(f, Target::kSm100a), "global-stride-overlap"));
  // The same order with a head stride too small for d: heads now overlap (real overlap still warns, naming
  // the two dimensions).
  TensorMapSpec bad = s;
  bad.global_strides[1] = 128;  // 64 elements apart, but a row is 128 elements
  const Validation v = ValidateSpec(bad);
  EXPECT_TRUE(TripsWarning(bad, "global-stride-overlap"));
  const std::string msg = MessageOf(bad, v, "global-stride-overlap");
  EXPECT_NE(msg.find("dimensions 2 and 0 overlap"), std::string::npos) << msg;
}

// ThunderKittens (include/types/global/tma.cuh l. 69-94, commit 0b55588d): a swizzled shared tile is loaded
// through a 5D map whose dimension 0 is one swizzle span of elements, dimension 2 the span-wide column chunks,
// with global stride = swizzle_bytes by construction: axis 2 (l. 73-82) dims {swizzle_elements, rows,
// ceil(cols / swizzle_elements), depth, batch}, strides {cols * size, swizzle_bytes, rows * cols * size,
// depth * rows * cols * size}; axis 1 (l. 85-94) dims {swizzle_elements, depth, chunks, rows, batch}, strides
// {rows * cols * size, swizzle_bytes, cols * size, depth * rows * cols * size}. The chunks tile each row
// exactly, so nothing overlaps, unless cols is not a multiple of the span (the round-up of l. 75, which the
// comment there flags): then the last chunk of a row reads the next row.
TEST(GlobalStrideOverlap, ThunderKittensSwizzled5dMapsAreDisjoint) {
  const uint64_t size = 2, swz_bytes = 128, swz = swz_bytes / size;  // bf16, 128-byte swizzle: 64 elements
  const uint64_t rows = 64, cols = 256, depth = 8, batch = 2;
  TensorMapSpec a = TiledF16();
  a.data_type = DataType::kBfloat16;
  a.rank = 5;
  a.global_dim = {swz, rows, cols / swz, depth, batch};
  a.global_strides = {cols * size, swz_bytes, rows * cols * size, depth * rows * cols * size};
  a.box_dim = {64, 64, 2, 1, 1};  // smem_shape {swizzle_elements, tile height, tile width / swizzle_elements, 1, 1}
  EXPECT_TRUE(Clear(a, "global-stride-overlap"));
  EXPECT_TRUE(ValidateSpec(a).valid);

  TensorMapSpec b = a;  // axis 1
  b.global_dim = {swz, depth, cols / swz, rows, batch};
  b.global_strides = {rows * cols * size, swz_bytes, cols * size, depth * rows * cols * size};
  b.box_dim = {64, 8, 2, 1, 1};
  EXPECT_TRUE(Clear(b, "global-stride-overlap"));

  TensorMapSpec round_up = a;  // cols = 200: 4 chunks of 64 = 256 elements per 200-element row
  round_up.global_dim[2] = (200 + swz - 1) / swz;
  round_up.global_strides = {200 * size, swz_bytes, rows * 200 * size, depth * rows * 200 * size};
  EXPECT_TRUE(TripsWarning(round_up, "global-stride-overlap"));
}

// Size-1 dimensions: one position, so their stride is never used. DeepGEMM's batched GEMMs map A as a 3D tensor
// {inner, outer, batch_size} with the batch stride a.stride(0) (csrc/jit_kernels/impls/sm100_fp8_fp4_gemm_1d1d.hpp
// l. 418-423, commit 54e2261), batch_size 1 for a plain GEMM; flashinfer's generated encoders pass torch's
// t.stride() of every dimension, size-1 ones included, with box (128, 32, 1, 1)
// (csrc/cake_selective_state_update/host/cake_selective_state_update_mtp_horizontal.cc l. 205-244, commit
// fb28d7242). torch gives a size-1 dimension any stride (0 after expand()).
TEST(GlobalStrideOverlap, SizeOneDimensionsContributeNothing) {
  TensorMapSpec s = Tiled3dF16();  // 64 x 64 x 16, strides {128, 8192}
  s.global_dim[2] = 1;
  for (const uint64_t stride : {uint64_t{0}, uint64_t{16}, uint64_t{128}, uint64_t{8192}}) {
    s.global_strides[1] = stride;
    EXPECT_TRUE(Clear(s, "global-stride-overlap")) << stride;
  }
  // DeepGEMM sm100_bf16_gemm.hpp l. 338-340: A (b, h, r) mapped as {r, b, h} with strides {stride(0) = h * r,
  // stride(1) = r}: the h stride is the smaller one.
  TensorMapSpec dg = Tiled3dF16();
  dg.data_type = DataType::kBfloat16;
  dg.global_dim = {512, 256, 8, 0, 0};
  dg.global_strides = {8 * 512 * 2, 512 * 2, 0, 0};
  dg.box_dim = {64, 128, 1, 0, 0};
  EXPECT_TRUE(Clear(dg, "global-stride-overlap"));
  dg.global_dim[1] = 1;  // b = 1
  dg.global_strides[0] = 0;
  EXPECT_TRUE(Clear(dg, "global-stride-overlap"));
  // A stride-0 broadcast over a dimension larger than 1 still warns, naming it.
  dg.global_dim[1] = 4;
  const Validation v = ValidateSpec(dg);
  EXPECT_TRUE(TripsWarning(dg, "global-stride-overlap"));
  EXPECT_NE(MessageOf(dg, v, "global-stride-overlap").find("broadcast"), std::string::npos);
}

// Strides that interleave without nesting are decided exactly when the dimensions below are nested: rows of 16 B
// (8 x f16) at {0, 32, 64} x {0, 48} are disjoint ([0,16) [32,48) [64,80) [48,64) [80,96) [112,128)); with rows of
// 32 B the step of 48 lands inside the row at 32. A third dimension over that interleaved set is not decided:
// the warning says it could not prove the layout disjoint.
TEST(GlobalStrideOverlap, InterleavedStridesAreDecidedOnTheAddresses) {
  TensorMapSpec s = Tiled3dF16();
  s.swizzle = Swizzle::kNone;
  s.global_dim = {8, 3, 2, 0, 0};
  s.global_strides = {32, 48, 0, 0};
  s.box_dim = {8, 3, 2, 0, 0};
  EXPECT_TRUE(Clear(s, "global-stride-overlap"));
  TensorMapSpec wide = s;
  wide.global_dim[0] = 16;
  wide.box_dim[0] = 16;
  EXPECT_TRUE(TripsWarning(wide, "global-stride-overlap"));
  EXPECT_NE(MessageOf(wide, ValidateSpec(wide), "global-stride-overlap").find("dimensions 2 and 1 overlap"),
            std::string::npos);
  TensorMapSpec third = s;
  third.rank = 4;
  third.global_dim = {8, 3, 2, 2, 0};
  third.global_strides = {32, 48, 96, 0};
  third.box_dim = {8, 3, 2, 2, 0};
  EXPECT_TRUE(TripsWarning(third, "global-stride-overlap"));
  EXPECT_NE(MessageOf(third, ValidateSpec(third), "global-stride-overlap").find("could not prove"), std::string::npos);
}

// ============================== global address ==============================
// [CUDA_H] "globalAddress ... must be 16 byte aligned". [SPEC] 6: "8-byte aligned: rejected".
TEST(GlobalAddressAlign16, EightFailsSixteenPasses) {
  EXPECT_TRUE(TripsError(WithGlobalAddress(TiledF16NoSwizzle(), 0x10008), "global-address-align-16"));
  EXPECT_TRUE(Clear(WithGlobalAddress(TiledF16NoSwizzle(), 0x10010), "global-address-align-16"));
  // [SPEC] 6: "Null address: accepted".
  EXPECT_TRUE(Clear(WithGlobalAddress(TiledF16NoSwizzle(), 0), "global-address-align-16"));
}

// The fix must not contradict the report: a tensor at 0x1008 cannot be mapped from 0x1000 with 8 B
// added to the coordinates, because x0 must be a multiple of 16 bytes (derived fact coord0_multiple, measured:
// docs/model.md M2) and 8 B is half of that. A 128-byte misalignment of 64 B (16-aligned, under a swizzle) can be:
// 64 B = 32 f16 elements, a multiple of the 8-element x0 step. Packed 16U4_ALIGN16B at 0x1010 (32-byte rule): 16 B
// is 32 elements, not a multiple of 128 (PTX 9.7.9.25.5.1 for .b4x16_p64).
TEST(GlobalAddressAlign16, FixAgreesWithTheCoordinateRule) {
  const TensorMapSpec a = WithGlobalAddress(TiledF16NoSwizzle(), 0x1008);
  const std::string fix = FixOf(a, ValidateSpec(a), "global-address-align-16");
  EXPECT_EQ(fix.find("add 8"), std::string::npos) << fix;
  EXPECT_NE(fix.find("no legal x0"), std::string::npos) << fix;
  EXPECT_NE(fix.find("multiple of 8 elements (16 B)"), std::string::npos) << fix;

  const TensorMapSpec w = WithGlobalAddress(TiledF16(), 0x1040);
  const std::string wfix = FixOf(w, ValidateSpec(w), "global-address-align-128-swizzle");
  EXPECT_NE(wfix.find("map from 0x1000 with global_dim[0] larger by 32 elements and add 32 to x0"), std::string::npos)
      << wfix;
  // Those 32 elements are inside the map now: where a negative x0 was filled (docs/model.md, "Out of bounds": loads
  // fill every element outside [0, global_dim), measured M3), it reads the 64 bytes before each row.
  EXPECT_NE(wfix.find("then x0 from -32 to -1 reads the 64 B before each row (neighbouring memory) instead of the OOB "
                      "fill, and stores there write it"),
            std::string::npos)
      << wfix;

  const TensorMapSpec p = WithGlobalAddress(PackedU4Align16(), 0x1010);
  const std::string pfix = FixOf(p, ValidateSpec(p), "global-address-align-32");
  EXPECT_NE(pfix.find("no legal x0"), std::string::npos) << pfix;
  EXPECT_NE(pfix.find("multiple of 128 elements (64 B)"), std::string::npos) << pfix;
}

// [CUDA_H] "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned." /
// "When tensorDataType is ... 16U6_ALIGN16B or ... 16U4_ALIGN16B, globalAddress must be 32 byte aligned."
TEST(GlobalAddressAlign32, Interleave32AndPacked) {
  EXPECT_TRUE(TripsError(WithGlobalAddress(Interleave32Rank3(), 0x10010), "global-address-align-32"));
  EXPECT_TRUE(Clear(WithGlobalAddress(Interleave32Rank3(), 0x10020), "global-address-align-32"));
  EXPECT_TRUE(TripsError(WithGlobalAddress(PackedU4Align16(), 0x10010), "global-address-align-32"));
  EXPECT_TRUE(TripsError(WithGlobalAddress(PackedU6Align16(), 0x10010), "global-address-align-32"));
  EXPECT_TRUE(Clear(WithGlobalAddress(PackedU4Align16(), 0x10080), "global-address-align-32"));
  // INTERLEAVE_16B and plain types need only 16.
  EXPECT_TRUE(Clear(WithGlobalAddress(Interleave16Rank3(), 0x10010), "global-address-align-32"));
  EXPECT_TRUE(Clear(WithGlobalAddress(PackedU4Align8(), 0x10080), "global-address-align-32"));
}

// [CPG] swizzle table (quoted in [SPEC] 1.8): "Global memory alignment: 128 bytes" for SWIZZLE_32B/64B/128B,
// 16 bytes for SWIZZLE_NONE; [SPEC] 6: "global address only 16-byte aligned with SWIZZLE_128B: accepted";
// [SPEC] 1.8 NOTE: "A validator should flag it as a warning, not an error".
TEST(GlobalAddressAlign128Swizzle, WarnsWhenSwizzledAndNot128Aligned) {
  EXPECT_TRUE(TripsWarning(WithGlobalAddress(TiledF16(), 0x10040), "global-address-align-128-swizzle"));
  EXPECT_TRUE(Clear(WithGlobalAddress(TiledF16(), 0x10080), "global-address-align-128-swizzle"));
  EXPECT_TRUE(Clear(WithGlobalAddress(TiledF16NoSwizzle(), 0x10010), "global-address-align-128-swizzle"));
}

// ============================== box ==============================
// [CUDA_H] "boxDim array ... must be non-zero and less than or equal to 256."
TEST(BoxDimRange, Boundaries) {
  TensorMapSpec s = TiledF16();
  s.box_dim[1] = 256;
  EXPECT_TRUE(Clear(s, "box-dim-range"));
  s.box_dim[1] = 257;
  EXPECT_TRUE(TripsError(s, "box-dim-range"));
  s.box_dim[1] = 0;
  EXPECT_TRUE(TripsError(s, "box-dim-range"));
  s.box_dim[1] = 1;
  EXPECT_TRUE(Clear(s, "box-dim-range"));
}

// One answer for a box over 256 along a dimension smaller than 256 (f16 [500, 64], box [3, 300]): the whole
// dimension, 64, in the box-dim-range fix, in the box-exceeds-tensor note and in the nearest valid configuration
// ([CUDA_H]: box_dim <= 256; docs/hardware.md D2: a box larger than the tensor is accepted, so 64 is the box that
// moves all of it in one copy). Along a dimension over 256 the fix stays 256 and the copies that cover the box.
TEST(BoxDimRange, OneAnswerWithBoxExceedsTensor) {
  TensorMapSpec s = TiledF16NoSwizzle();
  s.global_dim = {500, 64, 0, 0, 0};
  s.global_strides = {1008, 0, 0, 0};
  s.box_dim = {8, 300, 0, 0, 0};
  const Validation v = ValidateSpec(s);
  const std::string fix = FixOf(s, v, "box-dim-range");
  EXPECT_NE(fix.find("use box_dim[1] = 64, the whole of global_dim[1]"), std::string::npos) << fix;
  EXPECT_NE(FixOf(s, v, "box-exceeds-tensor").find("box_dim[1] = 64 "), std::string::npos);
  TensorMapSpec repaired;
  ASSERT_TRUE(NearestValid(s, &repaired)) << Dump(s, v);
  EXPECT_EQ(repaired.box_dim[1], 64u);
  EXPECT_FALSE(HasRule(ValidateSpec(repaired), "box-exceeds-tensor"));

  s.global_dim[1] = 256;  // the whole dimension is the largest box: one copy
  EXPECT_NE(FixOf(s, ValidateSpec(s), "box-dim-range").find("use box_dim[1] = 256, the whole of global_dim[1]"),
            std::string::npos);
  s.global_dim[1] = 1000;
  const Validation w = ValidateSpec(s);
  EXPECT_NE(FixOf(s, w, "box-dim-range").find("use box_dim[1] = 256 and 2 copies along dimension 1"), std::string::npos);
  ASSERT_TRUE(NearestValid(s, &repaired));
  EXPECT_EQ(repaired.box_dim[1], 256u);
}

// [CUDA_H] "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, { boxDim[0] * elementSizeInBytes(
// tensorDataType) } must be a multiple of 16 bytes." [SPEC] 6: "box[0] x element size = 120 B ... with
// interleave NONE: rejected"; "INTERLEAVE_16B, rank 3, fp16, box[0] = 8 (16 B): accepted; box[0] = 3
// (6 B): rejected" (and [PTX-CN] 5.5.3.1: "the size of each bounding box must be a multiple of 16 bytes").
TEST(BoxInnerBytes16, MultipleOf16) {
  TensorMapSpec s = TiledF16NoSwizzle();
  s.box_dim[0] = 60;  // 120 B
  EXPECT_TRUE(TripsError(s, "box-inner-bytes-16"));
  s.box_dim[0] = 64;  // 128 B
  EXPECT_TRUE(Clear(s, "box-inner-bytes-16"));
  s.box_dim[0] = 8;  // 16 B
  EXPECT_TRUE(Clear(s, "box-inner-bytes-16"));

  TensorMapSpec t = Interleave16Rank3();
  t.box_dim[0] = 3;
  EXPECT_TRUE(TripsError(t, "box-inner-bytes-16"));
  t.box_dim[0] = 8;
  EXPECT_TRUE(Clear(t, "box-inner-bytes-16"));

  // 16U4_ALIGN8B: 4 bits per element, so 32 elements = 16 B.
  TensorMapSpec u = PackedU4Align8();
  u.box_dim[0] = 32;
  EXPECT_TRUE(Clear(u, "box-inner-bytes-16"));
  u.box_dim[0] = 24;  // 12 B
  EXPECT_TRUE(TripsError(u, "box-inner-bytes-16"));
}

// [CUDA_H] "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or
// CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, boxDim[0] must be 128."
TEST(BoxPacked128, ExactlyOneHundredTwentyEight) {
  TensorMapSpec s = PackedU4Align16();
  s.box_dim[0] = 64;
  EXPECT_TRUE(TripsError(s, "box-packed-128"));
  s = PackedU6Align16();
  s.box_dim[0] = 64;
  EXPECT_TRUE(TripsError(s, "box-packed-128"));
  EXPECT_TRUE(Clear(PackedU4Align16(), "box-packed-128"));
  EXPECT_TRUE(Clear(PackedU6Align16(), "box-packed-128"));
  // Not a rule for 16U4_ALIGN8B.
  s = PackedU4Align8();
  s.box_dim[0] = 64;
  EXPECT_TRUE(Clear(s, "box-packed-128"));
}

// [SPEC] 6: "box larger than the tensor (box 64x8 on a 16x4 tensor): accepted." => a note at most.
TEST(BoxExceedsTensor, NoteOnly) {
  TensorMapSpec s = TiledF16();
  s.global_dim[1] = 100;  // box_dim[1] = 128
  EXPECT_TRUE(TripsNote(s, "box-exceeds-tensor"));
  const Validation v = ValidateSpec(s);
  ASSERT_NE(FindingOf(v, "box-exceeds-tensor"), nullptr);
  EXPECT_EQ(FindingOf(v, "box-exceeds-tensor")->index, 1);
  s.global_dim[1] = 127;  // one row short of the box
  EXPECT_TRUE(TripsNote(s, "box-exceeds-tensor"));
  s.global_dim[1] = 128;
  EXPECT_TRUE(Clear(s, "box-exceeds-tensor"));
}

// A box larger than the tensor is legal and runs (the H200: encoded, docs/hardware.md D2; 44,464 tiled copies
// with such a box in the 100,000-configuration matrix, byte-exact, no fault: docs/hardware.md, GPU checks), which
// some libraries deny (CCCL's cuda::make_tma_descriptor): the rule says so and names the measurement.
TEST(BoxExceedsTensor, StatementCarriesTheMeasurement) {
  const Rule& r = Rules()[RuleIndex("box-exceeds-tensor")];
  EXPECT_NE(r.summary.find("legal and runs"), std::string_view::npos) << r.summary;
  EXPECT_NE(r.summary.find("stores and reductions write only inside the tensor"), std::string_view::npos);
  EXPECT_NE(r.source.find("100,000 configurations byte-exact with no fault, 44,464 of them"), std::string_view::npos)
      << r.source;
}

// What the excess is, in the unit of its dimension: elements of a row along dimension 0, rows along dimension 1,
// slices along the others (a box of f16 [64, 128] on [40, 100]: 24 elements of every row, 28 rows).
TEST(BoxExceedsTensor, CountsInTheUnitOfTheDimension) {
  TensorMapSpec s = TiledF16();
  s.global_dim = {40, 100, 0, 0, 0};
  const Validation v = ValidateSpec(s);
  std::vector<std::string> messages;
  const int r = RuleIndex("box-exceeds-tensor");
  for (const Finding& f : v.findings)
    if (static_cast<int>(f.rule) == r) messages.push_back(MessageText(Rules()[r], s, f).str());
  ASSERT_EQ(messages.size(), 2u) << Dump(s, v);
  EXPECT_NE(messages[0].find("fills 24 elements per row"), std::string::npos) << messages[0];
  EXPECT_NE(messages[1].find("fills 28 rows with zeros"), std::string::npos) << messages[1];
  TensorMapSpec t = Tiled3dF16();
  t.global_dim[2] = 1;  // box_dim[2] = 2
  EXPECT_NE(MessageOf(t, ValidateSpec(t), "box-exceeds-tensor").find("fills 1 slice along dimension 2"),
            std::string::npos);
}

// [PTX-CN] 5.5.3.4.1: "For Tile::scatter4 and Tile::gather4 ... the size of the bounding box in dimension 1
// must be one."
TEST(Gather4BoxRows, BoxOneRowHigh) {
  TensorMapSpec s = Gather4F16();
  s.box_dim[1] = 2;
  EXPECT_TRUE(TripsError(s, "gather4-box-rows"));
  s = Scatter4F16();
  s.box_dim[1] = 4;
  EXPECT_TRUE(TripsError(s, "gather4-box-rows"));
  EXPECT_TRUE(Clear(Gather4F16(), "gather4-box-rows"));
  // A tiled map may have any box height.
  EXPECT_TRUE(Clear(TiledF16(), "gather4-box-rows"));
}

// ============================== element strides ==============================
// [CUDA_H] "elementStrides array ... must be non-zero and less than or equal to 8." [SPEC] 6:
// "elementStrides[0] = 9: rejected (range checked)".
TEST(ElementStrideRange, OneToEight) {
  TensorMapSpec s = TiledF16();
  s.element_strides[1] = 8;
  EXPECT_TRUE(Clear(s, "element-stride-range"));
  s.element_strides[1] = 9;
  EXPECT_TRUE(TripsError(s, "element-stride-range"));
  s.element_strides[1] = 0;
  EXPECT_TRUE(TripsError(s, "element-stride-range"));
  s = TiledF16();
  s.element_strides[0] = 9;
  EXPECT_TRUE(TripsError(s, "element-stride-range"));
}

// [CUDA_H] "when interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, the first element of this array is ignored";
// [PTX-CN] 5.5.3.2: "for non-interleaved layouts the traversal stride in dimension 0 must always be 1"
// and "the traversal stride in dimension 0 can be used for interleaved layouts"; [SPEC] 6:
// "elementStrides[0] = 3 with interleave NONE: accepted (ignored)". => a warning, valid.
TEST(ElementStrideDim0, IgnoredWithoutInterleave) {
  TensorMapSpec s = TiledF16();
  s.element_strides[0] = 3;
  EXPECT_TRUE(TripsWarning(s, "element-stride-dim0"));
  s.element_strides[0] = 1;
  EXPECT_TRUE(Clear(s, "element-stride-dim0"));
  TensorMapSpec t = Interleave16Rank3();
  t.element_strides[0] = 2;
  EXPECT_TRUE(Clear(t, "element-stride-dim0"));
}

// ============================== swizzle ==============================
// [CUDA_H] "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE,
// the bounding box inner dimension (computed as boxDim[0] multiplied by element size ...) must be less than
// or equal to the swizzle size. 32B <= 32, 64B <= 64, 128B* <= 128." [SPEC] 6: "SWIZZLE_64B with a
// 128-byte inner box: rejected."
TEST(SwizzleInnerSpan, TiledBoundaries) {
  TensorMapSpec s = TiledF16();
  s.swizzle = Swizzle::k64B;  // box_dim[0] = 64 f16 = 128 B
  EXPECT_TRUE(TripsError(s, "swizzle-inner-span"));
  s.box_dim[0] = 32;  // 64 B
  EXPECT_TRUE(Clear(s, "swizzle-inner-span"));

  s = TiledF16();
  s.box_dim[0] = 72;  // 144 B > 128
  EXPECT_TRUE(TripsError(s, "swizzle-inner-span"));
  EXPECT_TRUE(Clear(TiledF16(), "swizzle-inner-span"));  // exactly 128 B

  s = TiledF16();
  s.swizzle = Swizzle::k32B;
  s.box_dim[0] = 24;  // 48 B
  EXPECT_TRUE(TripsError(s, "swizzle-inner-span"));
  s.box_dim[0] = 16;  // 32 B
  EXPECT_TRUE(Clear(s, "swizzle-inner-span"));

  // "CU_TENSOR_MAP_SWIZZLE_128B* require ... <= 128": the atomicity variants too (sm_100a).
  s = WithTarget(TiledF16(), Target::kSm100a);
  s.swizzle = Swizzle::k128BAtom32B;
  s.box_dim[0] = 72;
  EXPECT_TRUE(TripsError(s, "swizzle-inner-span"));

  // Only with interleave NONE: an interleaved map with a 128B swizzle has no such limit.
  TensorMapSpec t = Tiled3dF16();
  t.interleave = Interleave::k16B;
  t.swizzle = Swizzle::k32B;  // inner box 128 B > 32
  EXPECT_TRUE(Clear(t, "swizzle-inner-span"));

  // gather4 is tiled in all other respects ([PTX-CN] 5.5.3.4: "all other constraints and rules of tiled
  // mode also apply").
  TensorMapSpec g = Gather4F16();
  g.swizzle = Swizzle::k64B;
  EXPECT_TRUE(TripsError(g, "swizzle-inner-span"));
}

// [CPG] (quoted in [SPEC] 1.8): "if the swizzle width exceeds the inner dimension, ensure that the shared
// memory is allocated to accommodate the full swizzle width" => worth a note, not an error (the box is
// legal per [CUDA_H]: the inner dimension need only be <= the swizzle size).
TEST(SwizzleInnerBelowSpan, NoteWhenNarrower) {
  TensorMapSpec s = TiledF16();
  s.box_dim[0] = 32;  // 64 B under a 128 B span
  EXPECT_TRUE(TripsNote(s, "swizzle-inner-below-span"));
  EXPECT_TRUE(Clear(TiledF16(), "swizzle-inner-below-span"));
  EXPECT_TRUE(Clear(TiledF16NoSwizzle(), "swizzle-inner-below-span"));
}

// [CUDA_H] "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B.
// Other interleave modes can have any swizzling pattern." [SPEC] 6: the driver accepted INTERLEAVE_32B with
// SWIZZLE_128B, and "where the driver accepts something the documentation ... forbids, the validator should
// still report it" => error.
TEST(Interleave32bSwizzle, RequiresSwizzle32B) {
  TensorMapSpec s = Interleave32Rank3();
  s.swizzle = Swizzle::k128B;
  EXPECT_TRUE(TripsError(s, "interleave-32b-swizzle"));
  s.swizzle = Swizzle::kNone;
  EXPECT_TRUE(TripsError(s, "interleave-32b-swizzle"));
  EXPECT_TRUE(Clear(Interleave32Rank3(), "interleave-32b-swizzle"));
  TensorMapSpec t = Interleave16Rank3();
  t.swizzle = Swizzle::k128B;
  EXPECT_TRUE(Clear(t, "interleave-32b-swizzle"));
}

// [PTX-CN] 5.5.3.4: "interleaved layouts are not supported by .tile::scatter4 and .tile::gather4";
// [PTX-CN] 5.5.6: ".im2col::w and .im2col::w::128 do not support interleaved layouts" (wide modes are in
// rules_im2col_test.cc).
TEST(InterleaveMode, Gather4AndScatter4) {
  TensorMapSpec s = Gather4F16();
  s.interleave = Interleave::k16B;
  EXPECT_TRUE(TripsError(s, "interleave-mode"));
  s = Scatter4F16();
  s.interleave = Interleave::k16B;
  EXPECT_TRUE(TripsError(s, "interleave-mode"));
  EXPECT_TRUE(Clear(Gather4F16(), "interleave-mode"));
  // Tiled maps may interleave.
  TensorMapSpec t = Tiled3dF16();
  t.interleave = Interleave::k16B;
  EXPECT_TRUE(Clear(t, "interleave-mode"));
}

// ============================== packed types ==============================
// [CUDA_H] "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be
// CU_TENSOR_MAP_INTERLEAVE_NONE."
TEST(PackedU6Interleave, RequiresNone) {
  TensorMapSpec s = PackedU6Rank3();
  s.interleave = Interleave::k16B;
  EXPECT_TRUE(TripsError(s, "packed-u6-interleave"));
  EXPECT_TRUE(Clear(PackedU6Rank3(), "packed-u6-interleave"));
  // The sentence is about 16U6 only.
  TensorMapSpec t = PackedU6Rank3();
  t.data_type = DataType::k16U4Align16B;
  t.global_strides = {2048, 32768, 0, 0};
  t.interleave = Interleave::k16B;
  EXPECT_TRUE(Clear(t, "packed-u6-interleave", Verdict::kAny));
}

// [CUDA_H] Tiled: "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following
// swizzle modes are supported: NONE, 128B, 128B_ATOM_32B (Load & Store), 128B_ATOM_64B (Store only)";
// "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only ... NONE, 128B, 128B_ATOM_32B
// (Load only)".
TEST(PackedSwizzle, TiledLists) {
  TensorMapSpec s = PackedU4Align16();
  s.swizzle = Swizzle::k64B;
  EXPECT_TRUE(TripsError(s, "packed-swizzle"));
  s.swizzle = Swizzle::k32B;
  EXPECT_TRUE(TripsError(s, "packed-swizzle"));
  s.swizzle = Swizzle::k128BAtom64B;
  EXPECT_TRUE(TripsError(s, "packed-swizzle"));
  s.swizzle = Swizzle::k128BAtom32BFlip8B;
  EXPECT_TRUE(TripsError(s, "packed-swizzle"));
  s.swizzle = Swizzle::k128BAtom32B;
  EXPECT_TRUE(Clear(s, "packed-swizzle"));
  s.swizzle = Swizzle::kNone;
  EXPECT_TRUE(Clear(s, "packed-swizzle"));

  TensorMapSpec u = PackedU6Align16();
  u.swizzle = Swizzle::k64B;
  EXPECT_TRUE(TripsError(u, "packed-swizzle"));
  u.swizzle = Swizzle::kNone;
  EXPECT_TRUE(Clear(u, "packed-swizzle"));
  u = PackedU6Align16();
  u.swizzle = Swizzle::k128BAtom64B;
  u.direction = Direction::kStore;
  EXPECT_TRUE(Clear(u, "packed-swizzle"));

  // 16U4_ALIGN8B: no swizzle restriction is documented.
  TensorMapSpec w = PackedU4Align8();
  w.swizzle = Swizzle::k32B;
  w.box_dim[0] = 64;  // 32 B
  EXPECT_TRUE(Clear(w, "packed-swizzle"));
}

// [CUDA_H]: 16U4_ALIGN16B swizzles are all "(Load only)"; 16U6_ALIGN16B with 128B_ATOM_64B "(Store only)".
// [SPEC] 2.3 (PTX 9.7.9.25.5.1): "cp.reduce.async.bulk does not support them [the sub-byte types]" and
// ".global.shared::cta (store) does not support .b4x16_p64".
TEST(PackedDirection, LoadOnlyStoreOnlyNoReduce) {
  TensorMapSpec s = PackedU4Align16();
  s.direction = Direction::kStore;
  EXPECT_TRUE(TripsError(s, "packed-direction"));
  EXPECT_TRUE(Clear(PackedU4Align16(), "packed-direction"));
  s = PackedU4Align16();
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(Clear(s, "packed-direction"));

  TensorMapSpec u = PackedU6Align16();
  u.swizzle = Swizzle::k128BAtom64B;  // store only
  EXPECT_TRUE(TripsError(u, "packed-direction"));
  u.direction = Direction::kStore;
  EXPECT_TRUE(Clear(u, "packed-direction"));

  TensorMapSpec w = PackedU4Align8();
  w.direction = Direction::kReduce;
  EXPECT_TRUE(TripsError(w, "packed-direction"));
  w.direction = Direction::kStore;  // .b4x16 (unpadded) may be stored
  EXPECT_TRUE(Clear(w, "packed-direction"));
  u = PackedU6Align16();
  u.direction = Direction::kReduce;
  EXPECT_TRUE(TripsError(u, "packed-direction"));
}

// [CUDA_H] "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType
// represents a floating-point data type, and when tensorDataType is not ..._16U4_ALIGN8B, ..._16U4_ALIGN16B,
// and ..._16U6_ALIGN16B." [SPEC] 6: "OOB NaN fill on INT32: rejected".
TEST(OobNanFloat, FloatTypesOnly) {
  TensorMapSpec s = TiledF32();
  s.data_type = DataType::kInt32;
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(TripsError(s, "oob-nan-float"));
  s = TiledF32();
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(Clear(s, "oob-nan-float"));
  s = TiledF16();
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(Clear(s, "oob-nan-float"));
  s = PackedU4Align8();
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(TripsError(s, "oob-nan-float"));
  s = PackedU6Align16();
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_TRUE(TripsError(s, "oob-nan-float"));
}

// ============================== mode and direction ==============================
// [SPEC] 2.4 (PTX 9.7.9.25.5.2): global -> shared .load_mode = {.tile, .tile::gather4, .im2col, .im2col::w,
// .im2col::w::128}; shared::cta -> global .load_mode = {.tile, .tile::scatter4, .im2col_no_offs};
// cp.reduce load_mode .tile / .im2col_no_offs; prefetch exists for .tile::gather4 (target table row
// "prefetch .tile::gather4, .im2col::w, .im2col::w::128").
TEST(ModeDirection, Gather4LoadsScatter4Stores) {
  TensorMapSpec s = Gather4F16();
  s.direction = Direction::kStore;
  EXPECT_TRUE(TripsError(s, "mode-direction"));
  s.direction = Direction::kReduce;
  EXPECT_TRUE(TripsError(s, "mode-direction"));
  s.direction = Direction::kPrefetch;
  EXPECT_TRUE(Clear(s, "mode-direction"));
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(Clear(s, "mode-direction"));

  TensorMapSpec t = Scatter4F16();
  t.direction = Direction::kLoadCta;
  EXPECT_TRUE(TripsError(t, "mode-direction"));
  t.direction = Direction::kReduce;
  EXPECT_TRUE(TripsError(t, "mode-direction"));
  t.direction = Direction::kPrefetch;
  EXPECT_TRUE(TripsError(t, "mode-direction"));
  EXPECT_TRUE(Clear(Scatter4F16(), "mode-direction"));
}

// [PTX-CN] 5.5.7: "128B swizzle with 32B atomicity and 8B flip ... is legal only when cp.async.bulk.tensor
// specifies the copy direction .shared::cluster.global or .shared::cta.global".
TEST(SwizzleFlip8bLoadOnly, StoresAndReductionsFail) {
  TensorMapSpec s = WithTarget(TiledF16(), Target::kSm100a);
  s.swizzle = Swizzle::k128BAtom32BFlip8B;
  EXPECT_TRUE(Clear(s, "swizzle-flip8b-load-only"));
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(Clear(s, "swizzle-flip8b-load-only"));
  s.direction = Direction::kStore;
  EXPECT_TRUE(TripsError(s, "swizzle-flip8b-load-only"));
  s.direction = Direction::kReduce;
  EXPECT_TRUE(TripsError(s, "swizzle-flip8b-load-only"));
  // The same store with 128B_ATOM_32B (no flip) is fine.
  s.swizzle = Swizzle::k128BAtom32B;
  s.direction = Direction::kStore;
  EXPECT_TRUE(Clear(s, "swizzle-flip8b-load-only"));
}

// [SPEC] 2.4 (cp.reduce.async.bulk.tensor): ".add: .u32 .s32 .u64 .f32 .f16 .bf16; .min/.max: .u32 .s32
// .u64 .s64 .f16 .bf16; .inc/.dec: .u32; .and/.or/.xor: .b32 .b64". The H200 (docs/hardware.md, GPU checks)
// raised an illegal instruction for and/or/xor on s64, f32, f64, f32_ftz, tf32 and tf32_ftz tensors, and ran
// them on u32, s32 and u64: those hardware verdicts are the expected ones for the 32- and 64-bit types.
TEST(ReduceOpType, PtxTypeTable) {
  struct Case {
    ReduceOp op;
    DataType type;
    bool allowed;
  };
  const Case cases[] = {
      {ReduceOp::kAdd, DataType::kFloat32, true},   {ReduceOp::kAdd, DataType::kFloat16, true},
      {ReduceOp::kAdd, DataType::kBfloat16, true},  {ReduceOp::kAdd, DataType::kUint32, true},
      {ReduceOp::kAdd, DataType::kInt32, true},     {ReduceOp::kAdd, DataType::kUint64, true},
      {ReduceOp::kAdd, DataType::kFloat64, false},  {ReduceOp::kAdd, DataType::kInt64, false},
      {ReduceOp::kAdd, DataType::kUint8, false},    {ReduceOp::kAdd, DataType::kUint16, false},
      {ReduceOp::kAdd, DataType::kTfloat32, false}, {ReduceOp::kAdd, DataType::kFloat32Ftz, false},
      {ReduceOp::kMin, DataType::kInt64, true},     {ReduceOp::kMax, DataType::kBfloat16, true},
      {ReduceOp::kMin, DataType::kFloat32, false},  {ReduceOp::kMax, DataType::kFloat64, false},
      {ReduceOp::kInc, DataType::kUint32, true},    {ReduceOp::kInc, DataType::kInt32, false},
      {ReduceOp::kDec, DataType::kUint32, true},    {ReduceOp::kDec, DataType::kUint64, false},
      {ReduceOp::kAnd, DataType::kUint32, true},    {ReduceOp::kOr, DataType::kUint64, true},
      {ReduceOp::kXor, DataType::kInt32, true},     {ReduceOp::kAnd, DataType::kUint16, false},
      {ReduceOp::kOr, DataType::kUint8, false},     {ReduceOp::kXor, DataType::kFloat16, false},
      {ReduceOp::kAnd, DataType::kInt64, false},    {ReduceOp::kOr, DataType::kInt64, false},
      {ReduceOp::kAnd, DataType::kFloat32, false},  {ReduceOp::kOr, DataType::kFloat32, false},
      {ReduceOp::kOr, DataType::kFloat64, false},   {ReduceOp::kAnd, DataType::kFloat32Ftz, false},
      {ReduceOp::kXor, DataType::kTfloat32, false}, {ReduceOp::kAnd, DataType::kTfloat32Ftz, false},
      {ReduceOp::kAnd, DataType::kInt32, true},     {ReduceOp::kXor, DataType::kUint64, true},
  };
  for (const Case& c : cases) {
    // A 2D tensor whose rows are 128 B for every element size: box [128 B / size, 8], no swizzle.
    TensorMapSpec s = TiledF16NoSwizzle();
    s.direction = Direction::kReduce;
    s.reduce_op = c.op;
    s.data_type = c.type;
    const uint32_t size = static_cast<uint32_t>(DataTypeBits(c.type) / 8);
    s.global_dim = {1024, 64, 0, 0, 0};
    s.global_strides = {1024ull * size, 0, 0, 0};
    s.box_dim = {128 / size, 8, 0, 0, 0};
    SCOPED_TRACE(std::string(Name(c.op)) + " " + std::string(ShortName(c.type)));
    if (c.allowed) {
      EXPECT_TRUE(Clear(s, "reduce-op-type"));
    } else {
      EXPECT_TRUE(TripsError(s, "reduce-op-type"));
    }
  }
  // Loads do not reduce.
  TensorMapSpec l = TiledF16();
  l.data_type = DataType::kFloat16;
  l.reduce_op = ReduceOp::kInc;
  EXPECT_TRUE(Clear(l, "reduce-op-type"));
}

// ============================== stores past the end of a row ==============================
// docs/model.md M7 (measured on an H200): along dimension 0 a store or reduction writes the whole 16-byte chunk
// that holds a row's last element. A u8 row of 466 bytes is written up to byte 479 (ceil16(466) = 480: 14 bytes
// past its end); an s32 row of 466 elements (1,864 bytes) up to 1,871 (ceil16 = 1,872: 8 bytes past).
TensorMapSpec StoreRows(DataType t, uint64_t dim0, uint64_t pitch, uint32_t box0) {
  TensorMapSpec s = TiledF16NoSwizzle();
  s.direction = Direction::kStore;
  s.data_type = t;
  s.global_dim = {dim0, 64, 0, 0, 0};
  s.global_strides = {pitch, 0, 0, 0};
  s.box_dim = {box0, 64, 0, 0, 0};
  return s;
}

TEST(StorePastRowEnd, U8RowOf466BytesWrites14BytesPastItsEnd) {
  const TensorMapSpec s = StoreRows(DataType::kUint8, 466, 480, 64);
  ASSERT_TRUE(TripsWarning(s, "store-past-row-end"));
  const Validation v = ValidateSpec(s);
  const Finding* f = FindingOf(v, "store-past-row-end");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->uvalue(), 466u);
  EXPECT_EQ(f->limit, 480);
  EXPECT_EQ(FieldPath(Rules()[f->rule], s, *f), "global_dim[0]");
  const std::string msg = MessageOf(s, v, "store-past-row-end");
  EXPECT_NE(msg.find("global_dim[0] = 466 u8 elements make a row of 466 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bytes 466-479 of it, 14 bytes past its end"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the 14 bytes that the row pitch global_strides[0] = 480 B leaves after each row"), std::string::npos) << msg;
  EXPECT_NE(msg.find("after the tensor's last row they land past its last element"), std::string::npos) << msg;
  const std::string fix = FixOf(s, v, "store-past-row-end");
  EXPECT_NE(fix.find("14 bytes of slack after the tensor's last row"), std::string::npos) << fix;
  EXPECT_NE(fix.find("global_dim[0] = 480, a whole number of chunks"), std::string::npos) << fix;
  EXPECT_NE(fix.find("global_dim[0] = 464 (the row's whole 16-byte chunks)"), std::string::npos) << fix;
  EXPECT_NE(fix.find("the last 2 elements of each row"), std::string::npos) << fix;
}

TEST(StorePastRowEnd, S32RowOf1864BytesWrites8BytesPastItsEnd) {
  TensorMapSpec s = StoreRows(DataType::kInt32, 466, 1872, 32);
  ASSERT_TRUE(TripsWarning(s, "store-past-row-end"));
  const Validation v = ValidateSpec(s);
  EXPECT_EQ(FindingOf(v, "store-past-row-end")->uvalue(), 1864u);
  EXPECT_EQ(FindingOf(v, "store-past-row-end")->limit, 1872);
  EXPECT_NE(MessageOf(s, v, "store-past-row-end").find("8 bytes past its end"), std::string::npos);
  EXPECT_NE(FixOf(s, v, "store-past-row-end").find("global_dim[0] = 464 (the row's whole"), std::string::npos);
  // A reduction writes the same chunks (M7).
  s.direction = Direction::kReduce;
  s.reduce_op = ReduceOp::kAdd;
  s.set_fields |= kFieldReduceOp;
  ASSERT_TRUE(TripsWarning(s, "store-past-row-end"));
  EXPECT_NE(MessageOf(s, ValidateSpec(s), "store-past-row-end").find("a reduction combines into whole 16-byte chunks"),
            std::string::npos);
}

TEST(StorePastRowEnd, WholeChunkRowsLoadsAndInterleavedMapsDoNotFire) {
  // Rows of exactly 30 and 29 chunks: nothing past the end.
  EXPECT_TRUE(Clear(StoreRows(DataType::kUint8, 480, 480, 64), "store-past-row-end"));
  EXPECT_TRUE(Clear(StoreRows(DataType::kUint8, 464, 480, 64), "store-past-row-end"));
  EXPECT_TRUE(Clear(StoreRows(DataType::kInt32, 468, 1872, 32), "store-past-row-end"));
  // Loads fill from exactly global_dim[0] (M7): no load direction fires.
  for (Direction d : {Direction::kLoadCta, Direction::kLoadCluster, Direction::kPrefetch}) {
    TensorMapSpec l = StoreRows(DataType::kUint8, 466, 480, 64);
    l.direction = d;
    EXPECT_TRUE(Clear(l, "store-past-row-end")) << Name(d);
  }
  // Interleaved stores write whole 16- or 32-byte slices (M6).
  TensorMapSpec il = Interleave16Rank3();
  il.direction = Direction::kStore;
  EXPECT_TRUE(Clear(il, "store-past-row-end", Verdict::kAny));
}

TEST(StorePastRowEnd, OneRowTensorsSpillPastTheTensorsEnd) {
  TensorMapSpec s = StoreRows(DataType::kUint8, 466, 480, 64);
  s.rank = 1;
  s.global_dim = {466, 0, 0, 0, 0};
  s.global_strides = {0, 0, 0, 0};
  s.box_dim = {64, 0, 0, 0, 0};
  ASSERT_TRUE(TripsWarning(s, "store-past-row-end"));
  EXPECT_NE(MessageOf(s, ValidateSpec(s), "store-past-row-end").find("the tensor is one row, so they land past its last "
                                                                     "element"), std::string::npos);
  // A row shorter than one chunk has no whole chunk to store through a map.
  s.global_dim = {11, 0, 0, 0, 0};
  s.box_dim = {16, 0, 0, 0, 0};
  const Validation v = ValidateSpec(s);
  EXPECT_NE(FixOf(s, v, "store-past-row-end").find("write the rows by other means"), std::string::npos) << Dump(s, v);
}

// The validator's fast path must not answer a spec the rule fires on (src/tmap/fast_path.h).
TEST(StorePastRowEnd, FastPathDefersToTheTable) {
  const TensorMapSpec s = StoreRows(DataType::kUint8, 466, 480, 64);
  Validation fast;
  EXPECT_FALSE(ValidateFastPath(s, &fast));
  EXPECT_FALSE(ValidateFastPath(WithoutTarget(s), &fast));
  Validation table;
  ValidateByTable(s, &table);
  EXPECT_TRUE(HasRule(table, "store-past-row-end"));
  TensorMapSpec whole = StoreRows(DataType::kUint8, 480, 480, 64);
  EXPECT_TRUE(ValidateFastPath(whole, &fast));
}

// ============================== shared memory ==============================
// [CPG] alignment table (quoted in [SPEC] 1.8): "Shared memory address: must be 128 byte aligned."
TEST(SmemAlign128, AddressAndAlignment) {
  EXPECT_TRUE(TripsError(WithSmemAddress(TiledF16NoSwizzle(), 0x440), "smem-align-128"));
  EXPECT_TRUE(Clear(WithSmemAddress(TiledF16NoSwizzle(), 0x480), "smem-align-128"));
  EXPECT_TRUE(TripsError(WithSmemAlignment(TiledF16NoSwizzle(), 64), "smem-align-128"));
  EXPECT_TRUE(Clear(WithSmemAlignment(TiledF16NoSwizzle(), 128), "smem-align-128"));
  // A prefetch goes to L2 and has no shared-memory destination ([SPEC] 2.4: "prefetch ... L2.global").
  TensorMapSpec p = WithSmemAddress(TiledF16NoSwizzle(), 0x440);
  p.direction = Direction::kPrefetch;
  EXPECT_TRUE(Clear(p, "smem-align-128"));
}

// [PTX-CN] 5.5.7 / [SPEC] 2.2: the swizzle pattern starts on a 256 (32B), 512 (64B), 1024 (128B) byte
// boundary, otherwise the base offset is non-zero; [CPG]: "shared memory should be aligned according to the
// number of bytes after which the swizzle pattern repeats". Legal (128 B is the hardware minimum) => a
// warning.
TEST(SmemSwizzlePhase, WarnsOffTheRepeat) {
  EXPECT_TRUE(TripsWarning(WithSmemAddress(TiledF16(), 0x480), "smem-swizzle-phase"));
  EXPECT_TRUE(Clear(WithSmemAddress(TiledF16(), 0x800), "smem-swizzle-phase"));

  TensorMapSpec s64 = TiledF16();
  s64.swizzle = Swizzle::k64B;
  s64.box_dim[0] = 32;
  EXPECT_TRUE(TripsWarning(WithSmemAddress(s64, 0x280), "smem-swizzle-phase"));
  EXPECT_TRUE(Clear(WithSmemAddress(s64, 0x200), "smem-swizzle-phase"));

  TensorMapSpec s32 = TiledF16();
  s32.swizzle = Swizzle::k32B;
  s32.box_dim[0] = 16;
  EXPECT_TRUE(TripsWarning(WithSmemAddress(s32, 0x80), "smem-swizzle-phase"));
  EXPECT_TRUE(Clear(WithSmemAddress(s32, 0x100), "smem-swizzle-phase"));

  EXPECT_TRUE(TripsWarning(WithSmemAlignment(TiledF16(), 512), "smem-swizzle-phase"));
  EXPECT_TRUE(Clear(WithSmemAlignment(TiledF16(), 1024), "smem-swizzle-phase"));
  // No swizzle, no phase.
  EXPECT_TRUE(Clear(WithSmemAddress(TiledF16NoSwizzle(), 0x80), "smem-swizzle-phase"));
}

// ============================== driver version ==============================
// [SPEC] 1.2: entry points PFN_cuTensorMapEncodeTiled_v12000 (tensor maps since the 12.0 driver API) and
// PFN_cuTensorMapEncodeIm2colWide_v12080; [SPEC] 1.9: 12.8 (r570) added dtypes 13-15, swizzles 4-6 and
// cuTensorMapEncodeIm2colWide.
TEST(DriverVersion, TwelveZeroAndTwelveEight) {
  TensorMapSpec s = TiledF16();
  s.driver_version = 11080;
  EXPECT_TRUE(TripsError(s, "driver-version"));
  s.driver_version = 12000;
  EXPECT_TRUE(Clear(s, "driver-version"));

  TensorMapSpec u = PackedU4Align8();
  u.driver_version = 12070;
  EXPECT_TRUE(TripsError(u, "driver-version"));
  u.driver_version = 12080;
  EXPECT_TRUE(Clear(u, "driver-version"));

  TensorMapSpec a = WithTarget(TiledF16(), Target::kSm100a);
  a.swizzle = Swizzle::k128BAtom32B;
  a.driver_version = 12060;
  EXPECT_TRUE(TripsError(a, "driver-version"));
  a.driver_version = 12080;
  EXPECT_TRUE(Clear(a, "driver-version"));

  // Wide maps: in rules_im2col_test.cc (WideNeedsDriver12080).
}

// ============================== unused fields ==============================
// [CUDA_H] signatures: cuTensorMapEncodeTiled has no channelsPerPixel / pixelsPerColumn / corners;
// cuTensorMapEncodeIm2col has no boxDim; the reduction operation belongs to cp.reduce only ([SPEC] 2.4).
// Ignoring a field is legal => a note.
TEST(UnusedField, NotesFieldsTheModeIgnores) {
  TensorMapSpec s = TiledF16();
  s.channels_per_pixel = 64;
  s.set_fields |= kFieldChannelsPerPixel;
  EXPECT_TRUE(TripsNote(s, "unused-field"));

  s = TiledF16();
  s.set_fields |= kFieldLowerCorner;
  EXPECT_TRUE(TripsNote(s, "unused-field"));

  s = TiledF16();
  s.set_fields |= kFieldReduceOp;  // direction is load
  EXPECT_TRUE(TripsNote(s, "unused-field"));
  s.direction = Direction::kReduce;
  EXPECT_TRUE(Clear(s, "unused-field"));

  s = TiledF16();
  s.set_fields |= kFieldBoxDim | kFieldGlobalDim | kFieldGlobalStrides | kFieldSwizzle | kFieldElementStrides;
  EXPECT_TRUE(Clear(s, "unused-field"));

  // One note per ignored field.
  s = TiledF16();
  s.set_fields |= kFieldChannelsPerPixel | kFieldPixelsPerColumn | kFieldWideMode;
  EXPECT_EQ(CountRule(ValidateSpec(s), "unused-field"), 3) << Dump(s, ValidateSpec(s));
}

}  // namespace
}  // namespace tmapgen
