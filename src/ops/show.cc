// show.cc: see show.h.
#include "src/ops/show.h"

#include <string>

#include "src/util/strings.h"

namespace tmapgen::ops {

absl::StatusOr<model::ShowData> RunShow(const ShowRequest& req) {
  model::ShowData out;
  std::string err;
  if (!model::BuildShow(req.spec, req.instruction, &out, &err)) return absl::InvalidArgumentError(ToAbsl(err));
  return out;
}

}  // namespace tmapgen::ops
