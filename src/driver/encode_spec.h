// encode_spec.h: encode a TensorMapSpec with the real CUDA driver (opened at run time).
//
// Contract
// - Picks the encoder the spec's mode needs and passes every parameter as cuda.h defines it. The spec
//   is not validated here: callers validate first (the driver's verdict is reported as it is, which is
//   how the driver-agreement checks compare the two).
// - `global_address` overrides spec.global_address (pass the spec's own when it has one).
// - Needs a current context on the calling thread (CudaDriver::MakeCurrent).
#ifndef TMAPGEN_SRC_DRIVER_ENCODE_SPEC_H_
#define TMAPGEN_SRC_DRIVER_ENCODE_SPEC_H_

#include <cstdint>

#include "src/driver/cuda_driver.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

// The address used to encode a map whose spec gives none: 2 MiB, aligned for every rule. The driver
// does not check that it is allocated; replace it with cuTensorMapReplaceAddress before use.
inline constexpr uint64_t kPlaceholderAddress = uint64_t{1} << 21;

driver::CudaDriver::EncodeResult EncodeSpec(const driver::CudaDriver& drv, const TensorMapSpec& spec,
                                            uint64_t global_address);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_DRIVER_ENCODE_SPEC_H_
