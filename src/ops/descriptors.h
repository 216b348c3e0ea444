// descriptors.h: desc and idesc, the one pipeline behind `tmapgen desc`, `tmapgen idesc`, tmapd's
// MatrixDescriptor and InstructionDescriptor, and Python's wgmma_desc, tcgen05_desc, derive_desc,
// check_desc, decode_desc, idesc and decode_idesc. The requests are src/desc/desc_request.h's plain values
// (the command line parses flags into them, tmapd converts messages into them: src/rpc, Python its
// arguments); the reports are rendered by src/desc (RenderMatrixReport, RenderIdescResult, DrawSvg).
//
// Contract
// - Each runner checks its request first (desc::Check*Request: INVALID_ARGUMENT naming the request field,
//   "layout.swizzle: ..."), then runs it: a well-formed request always gets its report, validated by every
//   rule. An invalid descriptor is an OK answer (validation.valid / valid is false).
// - No I/O: a map travels in the request, already read.
#ifndef TMAPGEN_SRC_OPS_DESCRIPTORS_H_
#define TMAPGEN_SRC_OPS_DESCRIPTORS_H_

#include "absl/status/statusor.h"
#include "src/desc/desc_request.h"

namespace tmapgen::ops {

absl::StatusOr<desc::SmemDescReport> RunMatrixDescriptor(const desc::MatrixRequest& req);
absl::StatusOr<desc::IdescResult> RunInstructionDescriptor(const desc::IdescRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_DESCRIPTORS_H_
