// check.cc: see check.h.
#include "src/ops/check.h"

#include "src/util/strings.h"

namespace tmapgen::ops {

absl::StatusOr<gpu::CheckReport> RunCheck(const CheckRequest& req) {
  gpu::CheckReport rep;
  gpu::RunSpecChecks(req.specs, req.names, req.seed, &rep);
  if (!rep.gpu_available) return absl::UnavailableError(ToAbsl(rep.why_no_gpu));
  return rep;
}

}  // namespace tmapgen::ops
