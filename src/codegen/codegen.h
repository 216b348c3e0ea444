// codegen.h: turn validated tensor-map specs (and the descriptors that read their boxes) into code a
// kernel author compiles: a self-contained C++ header, a JSON record, or a PTX tensormap.replace
// sequence (docs/codegen.md).
//
// Contract
// - MakePlan() resolves and validates everything first: every spec with the tensor-map validator
//   (src/tmap/validator.h), every matrix descriptor with the descriptor rules (DeriveFromMap + ValidateSmem),
//   every instruction descriptor with ValidateIdesc. Generation happens only from a plan whose `valid`
//   is true; the Generate* functions return "" (GeneratePtx: false) for an invalid plan.
// - Identifiers come from each spec's `name` (SanitizeIdentifier): characters outside [A-Za-z0-9_]
//   become '_', runs of '_' collapse (a double underscore is reserved in C++), leading '_' is dropped,
//   a leading digit gets a "map_" prefix, C++ keywords and alternative tokens get a '_' suffix, an
//   empty name becomes map<i> (the spec's 0-based position), and collisions get _2, _3, ... in input
//   order. Maps, instruction descriptors and the namespace share one identifier space.
// - Deterministic: the same plan and options give the same bytes (no time stamps, no paths other than
//   what Options::sources says, no iteration over unordered containers).
// - No I/O. Thread-safe (no shared state).
#ifndef TMAPGEN_SRC_CODEGEN_CODEGEN_H_
#define TMAPGEN_SRC_CODEGEN_CODEGEN_H_

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

enum class Lang : uint8_t { kCpp = 0, kJson = 1, kPtx = 2 };
bool ParseLang(std::string_view s, Lang* out);  // "cpp" (also "c++", "h"), "json", "ptx"
std::string_view Name(Lang l);

// The tmapgen version compiled into this library ("0.1.0").
const char* ToolVersion();

// A shared-memory matrix descriptor derived from one map's box: "MAP:ARCH:OPERAND:MAJOR[:TYPE]", e.g.
// "tile_a:wgmma:A:K" or "tile_b:tcgen05:B:MN:bf16". MAP is the spec's name (as written in the spec,
// or its identifier) or "#i" for the i-th spec (0-based). TYPE defaults to the map's data type.
struct DescRequest {
  std::string map;
  desc::DescArch arch = desc::DescArch::kWgmma;
  desc::Operand operand = desc::Operand::kA;
  desc::Major major = desc::Major::kK;
  bool has_type = false;
  desc::ElemType type = desc::ElemType::kBF16;
};
// A bad request is kInvalidArgument naming the flag ("--desc: ...").
absl::StatusOr<DescRequest> ParseDescRequest(std::string_view text);

// A tcgen05 instruction descriptor: comma-separated key=value pairs, keys as the flags of
// `tmapgen idesc`: kind, m, n, a-type, b-type, d-type, a-major, b-major, cta-group, negate-a, negate-b
// (0/1), sparse (0/1), saturate (0/1), target, plus name (the identifier; default "idesc").
struct IdescRequest {
  std::string name;
  desc::IdescSpec spec;
};
absl::StatusOr<IdescRequest> ParseIdescRequest(std::string_view text);

struct Input {
  std::vector<TensorMapSpec> specs;
  std::vector<DescRequest> descs;
  std::vector<IdescRequest> idescs;
};

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
  DescRequest request;
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

// Returns false (and *err) when a request cannot be resolved at all (a --desc naming no map, two
// descriptors with the same identifier); validation failures leave plan->valid false.
bool MakePlan(const Input& in, const Options& opt, Plan* plan, std::string* err);

// The validator's report (text) of every invalid item of the plan; "" when the plan is valid.
std::string RenderRejection(const Plan& plan);

std::string SanitizeIdentifier(std::string_view name, std::string_view fallback);

std::string GenerateCpp(const Plan& plan, const Options& opt);
std::string GenerateJson(const Plan& plan, const Options& opt);
// False (and *err) for an invalid plan, a map that tensormap.replace cannot build (only tiled maps:
// tiled, gather4, scatter4 can be modified on the device), or a map valid for no target on which the
// sequence assembles. Each map's comment lists the targets it assembles for (PtxTargets).
bool GeneratePtx(const Plan& plan, const Options& opt, std::string* out, std::string* err);
// The targets ptxas (CUDA 13.0) accepts tensormap.replace on: the architecture-specific ("a") and family
// ("f") targets, sm_90a and later; with .swizzle_atomicity (set for Blackwell targets and the atomicity
// swizzles) sm_100a/f and later. Plain targets (sm_90, sm_100, ...) reject the instruction. Checked per target
// by tests/codegen/ptx_targets_check.sh.
uint32_t PtxReplaceTargets(bool atomicity);
// The targets the generated sequence of one map is for: the map's target (or valid targets) that
// PtxReplaceTargets() allows.
uint32_t PtxTargets(const PlannedMap& m);

// Convenience: plan + generate in one call; "" when the plan is invalid or unresolvable.
std::string GenerateCpp(const Input& in, const Options& opt);

// What `tmapgen codegen` (and tmapd's Codegen) makes of its inputs. Returns false with *err when the
// request cannot be resolved or `lang` cannot express the plan (a usage error: nothing generated);
// otherwise fills *plan and *out: out->generated and out->text when the plan is valid, else
// out->rejection (RenderRejection).
struct Output {
  bool generated = false;
  std::string text;
  std::string rejection;
};
bool Generate(const Input& in, const Options& opt, Lang lang, Plan* plan, Output* out, std::string* err);
// Every diagnostic of a planned descriptor (RenderRejection shows the errors).
std::vector<desc::DescDiagnostic> Diagnostics(const PlannedDesc& d);
std::vector<desc::DescDiagnostic> Diagnostics(const PlannedIdesc& d);
// The name the generated text goes by when nobody chose one: the namespace with .h, .json or .ptx.
std::string DefaultFileName(const Plan& plan, Lang lang);

}  // namespace tmapgen::codegen

#endif  // TMAPGEN_SRC_CODEGEN_CODEGEN_H_
