// fake_caller.cc: a "framework" library that encodes tensor maps (the caller `tmapgen trace` must name).
#include <cstdint>

extern "C" int cuTensorMapEncodeTiled(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const uint32_t*,
                                      const uint32_t*, int, int, int, int);

extern "C" __attribute__((visibility("default"))) int framework_encode_2d(void* map, int dt, void* addr, uint64_t d0,
                                                                         uint64_t d1, uint64_t stride, uint32_t b0,
                                                                         uint32_t b1, int swizzle) {
  const uint64_t dims[2] = {d0, d1};
  const uint64_t strides[1] = {stride};
  const uint32_t box[2] = {b0, b1};
  const uint32_t es[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, dt, 2, addr, dims, strides, box, es, 0, swizzle, 2, 0);
}
