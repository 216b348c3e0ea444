#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

uint64_t RowBytes(const TensorMapSpec& spec) {
  return (spec.global_dim[0] * static_cast<uint64_t>(DataTypeBits(spec.data_type)) + 7) / 8;
}

void FillDenseStrides(TensorMapSpec* spec) {
  if (spec->rank < 2) return;
  uint64_t stride = (RowBytes(*spec) + 15) / 16 * 16;
  for (uint32_t i = 0; i + 1 < spec->rank && i < kMaxRank - 1; ++i) {
    spec->global_strides[i] = stride;
    stride *= spec->global_dim[i + 1];
  }
}

TensorMapSpec DefaultSpec(Mode mode) {
  TensorMapSpec s;
  s.mode = mode;
  s.data_type = DataType::kFloat16;
  s.swizzle = Swizzle::k128B;
  s.l2_promotion = L2Promotion::k128B;
  switch (mode) {
    case Mode::kTiled:
      s.rank = 2;
      s.global_dim = {4096, 4096, 0, 0, 0};
      s.box_dim = {64, 128, 0, 0, 0};
      break;
    case Mode::kGather4:
    case Mode::kScatter4:
      s.rank = 2;
      s.global_dim = {4096, 4096, 0, 0, 0};
      s.box_dim = {64, 1, 0, 0, 0};
      if (mode == Mode::kScatter4) s.direction = Direction::kStore;
      break;
    case Mode::kIm2col:
    case Mode::kIm2colW:
    case Mode::kIm2colW128:
      s.rank = 4;
      s.global_dim = {64, 56, 56, 32, 0};  // C, W, H, N
      s.channels_per_pixel = 64;
      s.pixels_per_column = 128;
      if (mode == Mode::kIm2col) {
        s.pixel_box_lower_corner = {-1, -1, 0};
        s.pixel_box_upper_corner = {-1, -1, 0};
      } else {
        s.pixel_box_lower_corner_width = -1;
        s.pixel_box_upper_corner_width = -1;
        s.wide_mode = mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
      }
      break;
  }
  FillDenseStrides(&s);
  return s;
}

}  // namespace tmapgen
