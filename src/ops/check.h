// check.h: check, the one pipeline behind `tmapgen check` and tmapd's Check (run by its worker process,
// server/check_worker_main.cc): every copy of each spec run on this host's GPU and compared byte for byte
// with the reference model (src/gpu/check/check_report.h). Rendering is gpu::RenderCheckText.
//
// Contract
// - names[i] names specs[i]; spec i is planned with seed `seed + i`. The caller must not have opened CUDA
//   (the copies run in child processes).
// - No usable GPU (no driver, no device, no kernels for it) is UNAVAILABLE whose message says why.
// - An invalid spec is reported in the report, not run; a failed copy is data (report.failed).
#ifndef TMAPGEN_SRC_OPS_CHECK_H_
#define TMAPGEN_SRC_OPS_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/gpu/check/check_report.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::ops {

struct CheckRequest {
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  uint64_t seed = 1;
};

absl::StatusOr<gpu::CheckReport> RunCheck(const CheckRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_CHECK_H_
