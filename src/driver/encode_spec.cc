#include "src/driver/encode_spec.h"

#include <algorithm>

namespace tmapgen {
namespace {

// The parameters the three encoders share; their structs name them alike.
template <typename Params>
void FillCommon(const TensorMapSpec& s, uint64_t global_address, Params* p) {
  const uint32_t n = std::min<uint32_t>(s.rank, kMaxRank);
  p->data_type = static_cast<uint32_t>(s.data_type);
  p->rank = s.rank;
  p->global_address = global_address;
  std::copy_n(s.global_dim.begin(), n, p->global_dim);
  std::copy_n(s.global_strides.begin(), n > 0 ? n - 1 : 0, p->global_strides);
  std::copy_n(s.element_strides.begin(), n, p->element_strides);
  p->interleave = static_cast<uint32_t>(s.interleave);
  p->swizzle = static_cast<uint32_t>(s.swizzle);
  p->l2_promotion = static_cast<uint32_t>(s.l2_promotion);
  p->oob_fill = static_cast<uint32_t>(s.oob_fill);
}

}  // namespace

driver::CudaDriver::EncodeResult EncodeSpec(const driver::CudaDriver& drv, const TensorMapSpec& s,
                                            uint64_t global_address) {
  const uint32_t n = std::min<uint32_t>(s.rank, kMaxRank);
  switch (EncoderFor(s.mode)) {
    case Encoder::kTiled: {
      driver::CudaDriver::TiledParams p;
      FillCommon(s, global_address, &p);
      std::copy_n(s.box_dim.begin(), n, p.box_dim);
      return drv.EncodeTiled(p);
    }
    case Encoder::kIm2col: {
      driver::CudaDriver::Im2colParams p;
      FillCommon(s, global_address, &p);
      std::copy_n(s.pixel_box_lower_corner.begin(), 3, p.lower_corner);
      std::copy_n(s.pixel_box_upper_corner.begin(), 3, p.upper_corner);
      p.channels_per_pixel = s.channels_per_pixel;
      p.pixels_per_column = s.pixels_per_column;
      return drv.EncodeIm2col(p);
    }
    case Encoder::kIm2colWide: {
      driver::CudaDriver::Im2colWideParams p;
      FillCommon(s, global_address, &p);
      p.lower_corner_width = s.pixel_box_lower_corner_width;
      p.upper_corner_width = s.pixel_box_upper_corner_width;
      p.channels_per_pixel = s.channels_per_pixel;
      p.pixels_per_column = s.pixels_per_column;
      p.wide_mode = static_cast<uint32_t>(s.wide_mode);
      return drv.EncodeIm2colWide(p);
    }
  }
  return drv.EncodeTiled(driver::CudaDriver::TiledParams());
}

}  // namespace tmapgen
