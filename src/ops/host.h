// host.h: the machine an operation runs on, as the operations see it: whether it has a GPU, the GPU's
// target (which fills in specs that name none) and its driver, which encodes a built map. The command
// line and tmapd detect it once (src/ops/gpu_host.h, through the CUDA driver); the Python package and
// GPU-less callers pass NoGpu().
//
// Contract
// - `encode` is set only when `gpu` is: it encodes a spec the validator accepted with the real driver
//   (at the spec's global_address, or a placeholder) and fills the Encoding the reports show. It is
//   safe to call from several threads (calls are serialized: the driver's current context is per thread).
#ifndef TMAPGEN_SRC_OPS_HOST_H_
#define TMAPGEN_SRC_OPS_HOST_H_

#include <string>

#include "src/report/report.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen::ops {

struct Host {
  bool gpu = false;
  bool has_target = false;    // the GPU's compute capability is a known target
  Target target = Target::kSm90a;
  std::string description;    // "NVIDIA H200 (sm_90a), driver 13000"
  int driver_version = 0;
  void (*encode)(const Host& host, const TensorMapSpec& spec, Encoding* out) = nullptr;
};

inline const Host& NoGpu() {
  static const Host kNone;
  return kNone;
}

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_HOST_H_
