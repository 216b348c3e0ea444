// descriptors.cc: see descriptors.h.
#include "src/ops/descriptors.h"

namespace tmapgen::ops {

absl::StatusOr<desc::SmemDescReport> RunMatrixDescriptor(const desc::MatrixRequest& req) {
  if (absl::Status s = desc::CheckMatrixRequest(req); !s.ok()) return s;
  desc::SmemDescReport out;
  desc::RunMatrixRequest(req, &out);
  return out;
}

absl::StatusOr<desc::IdescResult> RunInstructionDescriptor(const desc::IdescRequest& req) {
  if (absl::Status s = desc::CheckIdescRequest(req); !s.ok()) return s;
  desc::IdescResult out;
  desc::RunIdescRequest(req, &out);
  return out;
}

}  // namespace tmapgen::ops
