// show.h: show, the pipeline behind `tmapgen show`: one copy of a map run through the copy-engine model
// (src/model) and reduced to what lands where in shared memory. The command line reads the spec and
// decides the instruction from its flags; rendering is src/model/show_render.h (text, JSON, SVG).
//
// Contract
// - A copy the model refuses (coordinates out of range, a mode the map cannot do) is INVALID_ARGUMENT
//   with the model's reason.
#ifndef TMAPGEN_SRC_OPS_SHOW_H_
#define TMAPGEN_SRC_OPS_SHOW_H_

#include "absl/status/statusor.h"
#include "src/model/copy_model.h"
#include "src/model/show_render.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::ops {

struct ShowRequest {
  TensorMapSpec spec;
  model::CopyInstruction instruction;  // model::DefaultInstruction(spec) and what the flags change
};

absl::StatusOr<model::ShowData> RunShow(const ShowRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_SHOW_H_
