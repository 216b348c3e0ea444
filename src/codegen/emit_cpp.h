// emit_cpp.h: a plan as a self-contained C++ header (docs/codegen.md): per map its validated parameters and
// derived facts as constants checked by static_asserts, the whole 128-byte map computed offline, and the host
// calls that encode it (cuTensorMapEncode*, cuTensorMapReplaceAddress); the planned descriptors as constants.
//
// Contract
// - Deterministic: the same plan and options give the same bytes (no time stamps, no paths other than
//   what Options::sources says, no iteration over unordered containers).
// - No I/O. Thread-safe (no shared state).
#ifndef TMAPGEN_SRC_CODEGEN_EMIT_CPP_H_
#define TMAPGEN_SRC_CODEGEN_EMIT_CPP_H_

#include <string>

#include "src/codegen/plan.h"

namespace tmapgen::codegen {

// "" for an invalid plan. Options::max_output_bytes may cut the text short (see there).
std::string GenerateCpp(const Plan& plan, const Options& opt);

// Convenience: plan + generate in one call; "" when the plan is invalid or unresolvable.
std::string GenerateCpp(const Input& in, const Options& opt);

// Whether the header of this map holds kMap and PatchedMap(): its 128 bytes can be computed offline (only for the
// layout measured on the device of src/blob's evidence; other targets get Encode() only).
bool EmitsOfflineMap(const TensorMapSpec& spec);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_EMIT_CPP_H_
