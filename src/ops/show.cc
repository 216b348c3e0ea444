// show.cc: see show.h.
#include "src/ops/show.h"

namespace tmapgen::ops {

absl::StatusOr<model::ShowData> RunShow(const ShowRequest& req) {
  model::ShowData out;
  if (absl::Status st = model::BuildShow(req.spec, req.instruction, &out); !st.ok()) return st;
  return out;
}

}  // namespace tmapgen::ops
