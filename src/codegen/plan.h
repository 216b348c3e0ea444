// plan.h: what codegen generates from: the requests (specs, --desc, --idesc), resolved and validated into
// a Plan that the emitters (emit_cpp.h, emit_json.h, emit_ptx.h) turn into text.
//
// Contract
// - MakePlan() resolves and validates everything first: every spec with the tensor-map validator
//   (src/tmap/validator.h), every matrix descriptor with the descriptor rules (DeriveFromMap + ValidateSmem),
//   every instruction descriptor with ValidateIdesc. Generation happens only from a plan whose `valid`
//   is true.
// - Identifiers come from each spec's `name` (SanitizeIdentifier): characters outside [A-Za-z0-9_]
//   become '_', runs of '_' collapse (a double underscore is reserved in C++), leading '_' is dropped,
//   a leading digit gets a "map_" prefix, C++ keywords and alternative tokens get a '_' suffix, an
//   empty name becomes map<i> (the spec's 0-based position), and collisions get _2, _3, ... in input
//   order. Maps, instruction descriptors and the namespace share one identifier space.
// - No I/O. Thread-safe (no shared state).
#ifndef TMAPGEN_SRC_CODEGEN_PLAN_H_
#define TMAPGEN_SRC_CODEGEN_PLAN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/desc/desc_rules.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen::codegen {

// A shared-memory matrix descriptor derived from one map's box: "MAP:ARCH:OPERAND:MAJOR[:TYPE]", e.g.
// "tile_a:wgmma:A:K" or "tile_b:tcgen05:B:MN:bf16". MAP is the spec's name (as written in the spec,
// or its identifier) or "#i" for the i-th spec (0-based). TYPE defaults to the map's data type.
struct NamedDesc {
  std::string map;
  desc::DescArch arch = desc::DescArch::kWgmma;
  desc::Operand operand = desc::Operand::kA;
  desc::Major major = desc::Major::kK;
  bool has_type = false;
  desc::ElemType type = desc::ElemType::kBF16;
};
// A bad request is kInvalidArgument naming the flag ("--desc: ...").
absl::StatusOr<NamedDesc> ParseNamedDesc(std::string_view text);

// A tcgen05 instruction descriptor: comma-separated key=value pairs, keys as the flags of
// `tmapgen idesc`: kind, m, n, a-type, b-type, d-type, a-major, b-major, cta-group, negate-a, negate-b
// (0/1), sparse (0/1), saturate (0/1), target, plus name (the identifier; default "idesc").
struct NamedIdesc {
  std::string name;
  desc::IdescSpec spec;
};
absl::StatusOr<NamedIdesc> ParseNamedIdesc(std::string_view text);

struct Input {
  std::vector<TensorMapSpec> specs;
  std::vector<NamedDesc> descs;
  std::vector<NamedIdesc> idescs;
};

// The tmapgen version compiled into this library ("0.1.0").
const char* ToolVersion();

struct Options {
  std::string tool_version;        // "" = ToolVersion()
  std::vector<std::string> sources;  // where the specs came from (file names), for the header comment
  std::string name_space = "tmapgen_gen";  // C++ namespace of everything generated (sanitized)
  std::string guard;               // header guard; "" = TMAPGEN_GEN_<NAMESPACE>_<FIRST MAP>_H_
  bool has_target = false;         // applied to the specs that name no target
  Target target = Target::kSm90a;
  // C++ only: stop generating once the text passes this many bytes (0: no limit). The text is then
  // incomplete and longer than the limit; a caller that sets it refuses such a text (tmapd, whose
  // answers have a size limit, so that a request of many maps does not build a text it must refuse).
  size_t max_output_bytes = 0;
};

struct PlannedMap {
  TensorMapSpec spec;   // with Options::target applied
  std::string ident;
  Validation validation;
};
struct PlannedDesc {
  NamedDesc request;
  size_t map_index = 0;
  std::string ident;            // "kWgmmaDescA" (helper function: the same without the leading 'k')
  desc::MapDerivation derivation;
  uint64_t value = 0;           // the descriptor with the start-address field (bits 0-13) clear
  desc::DescValidation validation;
};
struct PlannedIdesc {
  std::string ident;
  desc::IdescSpec spec;
  uint32_t value = 0;
  uint32_t k = 0;
  desc::DescValidation validation;
};

struct Plan {
  std::vector<PlannedMap> maps;
  std::vector<PlannedDesc> descs;
  std::vector<PlannedIdesc> idescs;
  std::string name_space;
  bool valid = false;  // every map, descriptor and instruction descriptor validated without errors
};

// kInvalidArgument, naming the flag, when a request cannot be resolved at all (a --desc naming no map, two
// descriptors with the same identifier); validation failures are a plan whose `valid` is false.
absl::StatusOr<Plan> MakePlan(const Input& in, const Options& opt);

// The validator's report (text) of every invalid item of the plan; "" when the plan is valid.
std::string RenderRejection(const Plan& plan);

std::string SanitizeIdentifier(std::string_view name, std::string_view fallback);

// Every diagnostic of a planned descriptor (RenderRejection shows the errors).
std::vector<desc::DescDiagnostic> Diagnostics(const PlannedDesc& d);
std::vector<desc::DescDiagnostic> Diagnostics(const PlannedIdesc& d);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_PLAN_H_
