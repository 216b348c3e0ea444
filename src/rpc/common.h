// common.h: what every conversion of src/rpc shares: the request limits tmapd sets, the field path of a
// conversion error, and the helpers the per-operation files use (enum numbers, targets, specs,
// descriptor diagnostics and bit fields as messages).
//
// Contract
// - Conversion errors are INVALID_ARGUMENT (RESOURCE_EXHAUSTED for a limit) whose message starts with the
//   field path ("layout.swizzle: ...", "specs[3].global_dim: ..."); FieldOf() extracts it.
// - Proto enums are the core's + 1 (0 = unspecified); EnumFromProto refuses numbers outside the schema
//   (binary Protobuf keeps unknown numbers).
#ifndef TMAPGEN_SRC_RPC_COMMON_H_
#define TMAPGEN_SRC_RPC_COMMON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/desc/desc_rules.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen::rpc {

struct RequestLimits {
  uint32_t max_specs = 10000;       // specs in one Codegen request
  uint32_t max_descriptors = 1000;  // descriptors in one Codegen request
  uint32_t max_check_specs = 64;    // specs in one Check request
  uint32_t max_decode_maps = 10000; // maps in one Decode request
  uint32_t max_plan_taps = 65536;   // filter taps of one PlanConv request (a plan lists every tap)
};

// The field path at the start of a conversion error's message ("" when there is none).
std::string FieldOf(const absl::Status& s);

namespace detail {

absl::Status Bad(std::string_view field, std::string_view what);
absl::Status TooMany(std::string_view field, size_t n, uint32_t max);
absl::Status BadEnum(std::string_view field, int v);

template <typename Core>
bool EnumFromProto(int v, int count, Core* out) {
  if (v < 1 || v > count) return false;
  *out = static_cast<Core>(v - 1);
  return true;
}
template <typename Core>
int EnumToProto(Core v) {
  return static_cast<int>(v) + 1;
}

// "" is no target; anything else must name one.
absl::Status TargetFromProto(const std::string& s, std::string_view field, bool* has, Target* t);
// The spec of a message; errors get `prefix` in front of their field path.
absl::Status SpecFromMessage(const v1::TensorMapSpec& m, const std::string& prefix, TensorMapSpec* s);
void DiagnosticToProto(const desc::DescDiagnostic& d, v1::Diagnostic* p);
void FieldToProto(const desc::BitField& f, uint64_t v, std::string meaning, v2::BitField* p);

}  // namespace detail
}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_COMMON_H_
