// emit_ptx.h: a plan as PTX tensormap.replace sequences (PTX ISA 9.7.9.26) that build each map in shared
// memory on the device (docs/codegen.md).
//
// Contract
// - Deterministic: the same plan and options give the same bytes. No I/O. Thread-safe.
#ifndef TMAPGEN_SRC_CODEGEN_EMIT_PTX_H_
#define TMAPGEN_SRC_CODEGEN_EMIT_PTX_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "src/codegen/plan.h"

namespace tmapgen::codegen {

// kFailedPrecondition for an invalid plan; kInvalidArgument for a map that tensormap.replace cannot build
// (only tiled maps: tiled, gather4, scatter4 can be modified on the device) or a map valid for no target on
// which the sequence assembles. Each map's comment lists the targets it assembles for (PtxTargets).
absl::StatusOr<std::string> GeneratePtx(const Plan& plan, const Options& opt);
// The targets ptxas (CUDA 13.0) accepts tensormap.replace on: the architecture-specific ("a") and family
// ("f") targets, sm_90a and later; with .swizzle_atomicity (set for Blackwell targets and the atomicity
// swizzles) sm_100a/f and later. Plain targets (sm_90, sm_100, ...) reject the instruction. Checked per target
// by tests/codegen/ptx_targets_check.sh.
uint32_t PtxReplaceTargets(bool atomicity);
// The targets the generated sequence of one map is for: the map's target (or valid targets) that
// PtxReplaceTargets() allows.
uint32_t PtxTargets(const PlannedMap& m);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_EMIT_PTX_H_
