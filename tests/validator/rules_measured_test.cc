// Rules that come from the real driver (H200, sm_90, driver 580.159.04), measured by
// tools/driver_agreement and recorded in docs/hardware.md (sections B1-B3). The expected verdicts are
// the driver's answers recorded there, not the code's.
#include "tests/validator/test_specs.h"

namespace tmapgen {
namespace {

using namespace test_specs;

// B1: "Largest box the driver accepted: 220,560 B ... smallest it rejected: 235,008 B"; the limit is the
// device's 232,448 B, for every direction. Shrunk BAD spec: f32_ftz prefetch, box [256,1,256,1] = 256 KiB.
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

}  // namespace
}  // namespace tmapgen
