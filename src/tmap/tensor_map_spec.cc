#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

bool SameSpec(const TensorMapSpec& a, const TensorMapSpec& b) {
  bool same = a.data_type_alias == b.data_type_alias && a.box_given_outermost_first == b.box_given_outermost_first &&
              a.set_fields == b.set_fields;
  ForEachField(a, [&](auto tag, const auto& member) { same = same && member == Member<decltype(tag)::value>(b); });
  return same;
}

uint64_t RowBytes(const TensorMapSpec& spec) {
  uint64_t bits;
  if (__builtin_mul_overflow(spec.global_dim[0], static_cast<uint64_t>(DataTypeBits(spec.data_type)), &bits))
    return UINT64_MAX;
  return bits / 8 + (bits % 8 != 0);
}

namespace {
// Strides of a row-major tensor whose rows are `row` bytes apart: global_strides[i] is the stride of
// dimension i + 1, the one of dimension i times global_dim[i]. Checked arithmetic (see the header).
bool FillRowMajorStrides(TensorMapSpec* spec, bool row_ok, uint64_t row, uint32_t* overflow_dim) {
  bool ok = row_ok;
  uint64_t stride = ok ? row : UINT64_MAX;
  if (!ok && overflow_dim != nullptr) *overflow_dim = 1;
  for (uint32_t i = 0; i + 1 < spec->rank && i < kMaxRank - 1; ++i) {
    if (i > 0 && ok && __builtin_mul_overflow(stride, spec->global_dim[i], &stride)) {
      ok = false;
      if (overflow_dim != nullptr) *overflow_dim = i + 1;
    }
    spec->global_strides[i] = ok ? stride : UINT64_MAX;
  }
  return ok;
}
}  // namespace

bool FillDenseStrides(TensorMapSpec* spec, uint32_t* overflow_dim) {
  if (spec->rank < 2) return true;
  const uint64_t row = RowBytes(*spec);
  return FillRowMajorStrides(spec, row != UINT64_MAX, row, overflow_dim);
}

bool FillPaddedStrides(TensorMapSpec* spec, uint32_t* overflow_dim) {
  if (spec->rank < 2) return true;
  const uint64_t row = RowBytes(*spec);
  const bool ok = row <= UINT64_MAX - 15;
  return FillRowMajorStrides(spec, ok, ok ? (row + 15) / 16 * 16 : UINT64_MAX, overflow_dim);
}

bool HasDenseDefaultStrides(const TensorMapSpec& spec) {
  if (spec.Has(kFieldGlobalStrides) || spec.rank < 2 || spec.rank > kMaxRank) return false;
  TensorMapSpec dense = spec;
  FillDenseStrides(&dense);
  return dense.global_strides == spec.global_strides;
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
