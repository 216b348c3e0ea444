// model_test_util.h: spec and instruction builders shared by the model tests.
#ifndef TMAPGEN_TESTS_MODEL_MODEL_TEST_UTIL_H_
#define TMAPGEN_TESTS_MODEL_MODEL_TEST_UTIL_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::model::testing {

inline TensorMapSpec Tiled(DataType t, std::vector<uint64_t> dims, std::vector<uint32_t> box, Swizzle sw = Swizzle::kNone) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.global_dim[i] = dims[i];
  for (size_t i = 0; i < box.size(); ++i) s.box_dim[i] = box[i];
  s.swizzle = sw;
  FillPaddedStrides(&s);
  return s;
}

inline TensorMapSpec Im2col(DataType t, std::vector<uint64_t> dims, std::vector<int> lo, std::vector<int> hi, uint32_t cpp,
                            uint32_t ppc, Swizzle sw = Swizzle::kNone) {
  TensorMapSpec s;
  s.mode = Mode::kIm2col;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.global_dim[i] = dims[i];
  for (size_t i = 0; i < lo.size(); ++i) {
    s.pixel_box_lower_corner[i] = lo[i];
    s.pixel_box_upper_corner[i] = hi[i];
  }
  s.channels_per_pixel = cpp;
  s.pixels_per_column = ppc;
  s.swizzle = sw;
  FillPaddedStrides(&s);
  return s;
}

inline TensorMapSpec Wide(Mode m, DataType t, std::vector<uint64_t> dims, int lo, int hi, uint32_t cpp, uint32_t ppc,
                          Swizzle sw = Swizzle::k128B) {
  TensorMapSpec s;
  s.mode = m;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.global_dim[i] = dims[i];
  s.pixel_box_lower_corner_width = lo;
  s.pixel_box_upper_corner_width = hi;
  s.channels_per_pixel = cpp;
  s.pixels_per_column = ppc;
  s.wide_mode = m == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  s.swizzle = sw;
  FillPaddedStrides(&s);
  return s;
}

inline CopyInstruction Instr(CopyMode m, std::vector<int> coords, uint64_t smem = 0) {
  CopyInstruction in;
  in.mode = m;
  for (size_t i = 0; i < coords.size(); ++i) in.coords[i] = coords[i];
  in.smem_address = smem;
  return in;
}

// A global buffer whose 16-bit words hold their own element index (for 16-bit types): element e of a dense
// tensor reads back as e.
inline std::vector<uint8_t> IotaU16(size_t elements) {
  std::vector<uint8_t> g(elements * 2);
  for (size_t i = 0; i < elements; ++i) {
    const uint16_t v = static_cast<uint16_t>(i);
    std::memcpy(&g[2 * i], &v, 2);
  }
  return g;
}

inline uint16_t U16At(const std::vector<uint8_t>& b, size_t byte) {
  uint16_t v;
  std::memcpy(&v, &b[byte], 2);
  return v;
}

}  // namespace tmapgen::model::testing

#endif  // TMAPGEN_TESTS_MODEL_MODEL_TEST_UTIL_H_
