// Rules that come from the real driver (H200, sm_90, driver 580.159.04), measured by
// tools/driver_agreement and recorded in docs/hardware.md (sections B1-B3). The expected verdicts are
// the driver's answers recorded there, not the code's.
#include "tests/tmap/test_specs.h"

namespace tmapgen {
namespace {

using namespace test_specs;

// B1: the smallest box the driver rejected is 235,008 B, and a 232,960 B box (s64 [20, 28, 52], random sweep
// seed 1) was accepted, for every direction. Shrunk BAD spec: f32_ftz prefetch, box [256,1,256,1] = 256 KiB.
TEST(BoxDriverSizeLimit, PrefetchOfA256KiBBoxIsRejected) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.direction = Direction::kPrefetch;
  s.data_type = DataType::kFloat32Ftz;
  s.rank = 4;
  s.global_dim = {64, 64, 64, 64, 0};
  s.global_strides = {256, 16384, 1048576, 0};
  s.box_dim = {256, 1, 256, 1, 0};
  s.element_strides = {1, 1, 1, 1, 1};
  s.swizzle = Swizzle::kNone;
  SetTarget(s, Target::kSm90a);
  EXPECT_TRUE(TripsError(s, "box-driver-size-limit"));
  // 220,560 B im2col (bf16, 120 channels x 919 pixels) was accepted.
  TensorMapSpec i = Im2colF16NoSwizzle();
  i.data_type = DataType::kBfloat16;
  i.channels_per_pixel = 120;
  i.pixels_per_column = 919;
  EXPECT_FALSE(HasRule(ValidateSpec(i), "box-driver-size-limit")) << Dump(i, ValidateSpec(i));
  // 232,960 B (s64 box [20, 28, 52]) was accepted by the driver; a kernel still cannot receive it.
  TensorMapSpec b = TiledF16NoSwizzle();
  b.data_type = DataType::kInt64;
  b.rank = 3;
  b.global_dim = {6016, 188, 52, 0, 0};
  b.global_strides = {48208 + 16, 9063104 + 3008, 0, 0};
  b.box_dim = {20, 28, 52, 0, 0};
  const Validation vb = ValidateSpec(b);
  EXPECT_FALSE(HasRule(vb, "box-driver-size-limit")) << Dump(b, vb);
  EXPECT_TRUE(HasRule(vb, "target-smem-capacity")) << Dump(b, vb);
}

// B3 + B2: interleaved, dims [86, 2^31, 1], corners -32768 / 0 were accepted (random sweep): the driver
// checks corner 0 against global_dim[0] = 86, so no int32 overflow there.
TEST(Im2colSpatialDimInt32, InterleavedUsesTheShiftedDim) {
  TensorMapSpec s = Im2colRank3();
  s.interleave = Interleave::k16B;
  s.swizzle = Swizzle::kNone;
  s.global_dim = {86, 2147483648ull, 1, 0, 0};
  s.pixel_box_lower_corner = {-32768, 0, 0};
  s.pixel_box_upper_corner = {0, 0, 0};
  EXPECT_FALSE(HasRule(ValidateSpec(s), "im2col-spatial-dim-int32")) << Dump(s, ValidateSpec(s));
}

// B5: im2col::w::128 always loads 128 pixels and ignores pixels_per_column (PTX ISA 5.5.5), but the
// driver sizes the box from pixels_per_column: an H200 sweep accepted im2col::w::128 maps whose 128-pixel box is
// over the shared-memory limit (docs/hardware.md B5). f64, 256 channels, no swizzle: 2048 B per pixel.
//   pixels_per_column = 64: the driver's box 131,072 B (accepted); the hardware's 128 x 2048 = 262,144 B > 232,448
//   pixels_per_column = 128: both 262,144 B: the driver rejects it.
TEST(BoxDriverSizeLimit, Im2colW128DriverCountsPixelsPerColumnHardwareMoves128) {
  TensorMapSpec s = WideW128();
  s.data_type = DataType::kFloat64;
  s.swizzle = Swizzle::kNone;  // the driver accepts it for the wide modes (docs/hardware.md); wide-swizzle fires
  s.global_dim = {256, 56, 56, 2, 0};
  s.global_strides = {2048, 2048 * 56, 2048ull * 56 * 56, 0};
  s.channels_per_pixel = 256;
  s.pixels_per_column = 64;
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(HasRule(v, "box-driver-size-limit")) << Dump(s, v);
  ASSERT_TRUE(HasRule(v, "target-smem-capacity")) << Dump(s, v);
  EXPECT_EQ(FindingOf(v, "target-smem-capacity")->value, 262144);
  const std::string msg = MessageOf(s, v, "target-smem-capacity");
  EXPECT_NE(msg.find("128 pixels"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the driver accepts the map"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("rejects"), std::string::npos) << msg;

  s.pixels_per_column = 128;
  const Validation w = ValidateSpec(s);
  ASSERT_TRUE(HasRule(w, "box-driver-size-limit")) << Dump(s, w);
  EXPECT_EQ(FindingOf(w, "box-driver-size-limit")->value, 262144);
  EXPECT_NE(MessageOf(s, w, "target-smem-capacity").find("rejects the map as well"), std::string::npos);
}

// B1: the driver counts floor(box_dim / element_strides) per dimension.
TEST(BoxDriverSizeLimit, ElementStridesShrinkTheBox) {
  TensorMapSpec s = TiledF16NoSwizzle();
  s.rank = 3;
  s.global_dim = {256, 256, 256, 0, 0};
  s.global_strides = {512, 131072, 0, 0};
  s.box_dim = {256, 256, 4, 0, 0};  // 256 x 256 x 4 x 2 B = 512 KiB
  s.direction = Direction::kPrefetch;
  EXPECT_TRUE(TripsError(s, "box-driver-size-limit"));
  s.element_strides = {1, 4, 1, 1, 1};  // 256 x 64 x 4 x 2 B = 128 KiB
  EXPECT_FALSE(HasRule(ValidateSpec(s), "box-driver-size-limit")) << Dump(s, ValidateSpec(s));
}

// B2: "rank3 lower=-32768 upper=32767: W = 2,147,450,880 accepted (W + upper = 2^31 - 1), 2,147,450,881
// rejected"; im2col::w with corners 0: W = 2^31 - 1 accepted, 2^31 rejected.
TEST(Im2colSpatialDimInt32, WPlusUpperCornerMustFitInt32) {
  TensorMapSpec s = Im2colRank3();
  s.swizzle = Swizzle::kNone;
  s.pixel_box_lower_corner = {-32768, 0, 0};
  s.pixel_box_upper_corner = {32767, 0, 0};
  s.global_dim = {64, 2147450880ull, 2, 0, 0};
  s.global_strides = {128, 128ull * 2147450880ull, 0, 0};
  EXPECT_FALSE(HasRule(ValidateSpec(s), "im2col-spatial-dim-int32")) << Dump(s, ValidateSpec(s));
  s.global_dim[1] = 2147450881ull;
  s.global_strides[1] = 128ull * 2147450881ull;
  EXPECT_TRUE(TripsError(s, "im2col-spatial-dim-int32"));

  TensorMapSpec w = WideW();
  w.pixel_box_lower_corner_width = 0;
  w.pixel_box_upper_corner_width = 0;
  w.global_dim[1] = 2147483647ull;
  w.global_strides = {128, 128ull * 2147483647ull, 128ull * 2147483647ull * 56, 0};
  EXPECT_FALSE(HasRule(ValidateSpec(w), "im2col-spatial-dim-int32")) << Dump(w, ValidateSpec(w));
  w.global_dim[1] = 2147483648ull;
  EXPECT_TRUE(HasRule(ValidateSpec(w), "im2col-spatial-dim-int32"));
  // Tiled maps: 2^32 accepted (tma-spec.md section 6, B2) - no such rule.
  TensorMapSpec t = TiledF16NoSwizzle();
  t.global_dim[1] = k2Pow32;
  EXPECT_FALSE(HasRule(ValidateSpec(t), "im2col-spatial-dim-int32"));
}

// B3: shrunk BAD spec: f16 dims [1,64,64], INTERLEAVE_16B, lower 1, upper -1: the driver checks
// 1 + (-1) - 1 = -1 and rejects it.
TEST(Im2colInterleaveBoxArea, InterleavedCornersUseTheShiftedDim) {
  TensorMapSpec s = Im2colRank3();
  s.interleave = Interleave::k16B;
  s.swizzle = Swizzle::kNone;
  s.channels_per_pixel = 8;
  s.global_dim = {1, 64, 64, 0, 0};
  s.global_strides = {16, 1024, 0, 0};
  s.pixel_box_lower_corner = {1, 0, 0};
  s.pixel_box_upper_corner = {-1, 0, 0};
  EXPECT_TRUE(TripsError(s, "im2col-interleave-box-area"));
  s.pixel_box_lower_corner = {0, 0, 0};
  s.pixel_box_upper_corner = {0, 0, 0};  // 1 + 0 - 0 = 1: accepted
  EXPECT_FALSE(HasRule(ValidateSpec(s), "im2col-interleave-box-area")) << Dump(s, ValidateSpec(s));
  // Not interleaved: the documented meaning only.
  TensorMapSpec n = Im2colRank3();
  n.global_dim[0] = 64;
  n.pixel_box_lower_corner = {1, 0, 0};
  n.pixel_box_upper_corner = {-1, 0, 0};
  EXPECT_FALSE(HasRule(ValidateSpec(n), "im2col-interleave-box-area"));
}

// Random sweep, seed 3 (docs/hardware.md): f32 box [256, 256] with element_strides [7, 1] was accepted by the
// driver (it divides dimension 0 too: 36 x 256 x 4 B), while the hardware, which ignores element_strides[0]
// without interleave, would move 256 x 256 x 4 = 262144 B: more than a block's shared memory.
TEST(BoxDriverSizeLimit, DriverDividesDimensionZero) {
  TensorMapSpec s = TiledF32();
  s.swizzle = Swizzle::kNone;
  s.global_dim = {4096, 4096, 0, 0, 0};
  s.global_strides = {16384, 0, 0, 0};
  s.box_dim = {256, 256, 0, 0, 0};
  s.element_strides = {7, 1, 1, 1, 1};
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(HasRule(v, "box-driver-size-limit")) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "target-smem-capacity")) << Dump(s, v);
}

// Random sweep, seed 3: dims [3968, 2^32, 2^32], corners -1 / 1 were accepted by the driver (its int32 sum
// wraps to 1 > -1). The box is meaningless, so the rule still rejects it, and says the driver accepts it.
TEST(Im2colSpatialDimInt32, WrapAroundIsStillAnErrorAndSaysSo) {
  TensorMapSpec s = Im2colRank3();
  s.swizzle = Swizzle::kNone;
  s.global_dim = {64, k2Pow32, 32, 0, 0};
  s.pixel_box_lower_corner = {-1, 0, 0};
  s.pixel_box_upper_corner = {1, 0, 0};
  const Validation v = ValidateSpec(s);
  const Finding* f = FindingOf(v, "im2col-spatial-dim-int32");
  ASSERT_NE(f, nullptr) << Dump(s, v);
  const std::string msg = MessageText(Rules()[f->rule], s, *f).str();
  EXPECT_NE(msg.find("wraps around"), std::string::npos) << msg;
}

// docs/model.md M1 (H200): "64-byte rows under the 128B swizzle sit at a 128-byte pitch", so a box of 16
// rows of 32 f16 needs 16 x 128 = 2048 B, not 1024.
TEST(DerivedFactsMeasured, NarrowRowsOccupyWholeSwizzleSpans) {
  TensorMapSpec s = TiledF16();  // SWIZZLE_128B
  s.box_dim = {32, 16, 0, 0, 0};
  const Validation v = ValidateSpec(s);
  EXPECT_EQ(v.facts.transaction_bytes, 1024u);
  EXPECT_EQ(v.facts.smem_row_pitch, 128u);
  EXPECT_EQ(v.facts.smem_footprint_bytes, 2048u);
  s.swizzle = Swizzle::kNone;  // no swizzle: rows are packed
  EXPECT_EQ(ValidateSpec(s).facts.smem_footprint_bytes, 1024u);
}

// docs/model.md M2 (H200): a start along dimension 0 that is not 16-byte aligned faults; PTX ISA
// 9.7.9.25.5.1: the first coordinate of the ALIGN16B packed types is a multiple of 128.
TEST(DerivedFactsMeasured, FirstCoordinateMultiple) {
  TensorMapSpec s = TiledF16();
  EXPECT_EQ(ValidateSpec(s).facts.coord0_multiple, 8u);
  s.data_type = DataType::kFloat32;
  EXPECT_EQ(ValidateSpec(s).facts.coord0_multiple, 4u);
  s.data_type = DataType::kUint8;
  EXPECT_EQ(ValidateSpec(s).facts.coord0_multiple, 16u);
  s.data_type = DataType::kFloat64;
  EXPECT_EQ(ValidateSpec(s).facts.coord0_multiple, 2u);
  EXPECT_EQ(ValidateSpec(PackedU4Align16()).facts.coord0_multiple, 128u);
  EXPECT_EQ(ValidateSpec(PackedU4Align8()).facts.coord0_multiple, 32u);
}

}  // namespace
}  // namespace tmapgen
