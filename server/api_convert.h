// api_convert.h: the tmapd v2 messages (proto/tmapd_v2.proto) <-> the requests and reports of the
// commands (src/desc/desc_request.h, src/codegen/codegen.h, src/gpu/check_report.h). The --remote client
// turns its parsed flags into messages with *ToProto; tmapd turns messages back into requests with
// *FromProto, runs them, and answers with the report's *ToProto. No gRPC, no I/O.
//
// Contract
// - *FromProto validates everything a message can hold that a request cannot: enum numbers outside the
//   schema (binary Protobuf keeps them), fields that do not belong to the operation, values out of
//   range, list sizes over `limits`. Errors are INVALID_ARGUMENT (RESOURCE_EXHAUSTED for a limit) whose
//   message starts with the field path ("layout.swizzle: ...", "specs[3].global_dim: ..."); FieldOf()
//   extracts it. A request they accept runs without further checks.
// - FromProto(ToProto(x)) == x for every request the command line can produce, so that a remote run
//   computes what the local run computes (tests/server compare the bytes).
// - Report conversions carry every field the command's JSON form has, plus the rendered text.
#ifndef TMAPGEN_SERVER_API_CONVERT_H_
#define TMAPGEN_SERVER_API_CONVERT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/blob/decode_report.h"
#include "src/codegen/codegen.h"
#include "src/desc/desc_request.h"
#include "src/gpu/check_report.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::server {

struct RequestLimits {
  uint32_t max_specs = 10000;       // specs in one Codegen request
  uint32_t max_descriptors = 1000;  // descriptors in one Codegen request
  uint32_t max_check_specs = 64;    // specs in one Check request
  uint32_t max_decode_maps = 10000; // maps in one Decode request
};

// The field path at the start of a conversion error's message ("" when there is none).
std::string FieldOf(const absl::Status& s);

// Matrix descriptors.
void ToProto(const desc::MatrixRequest& r, v2::MatrixDescriptorRequest* m);
absl::Status FromProto(const v2::MatrixDescriptorRequest& m, desc::MatrixRequest* r);
void ToProto(const desc::SmemDescReport& r, v2::MatrixDescriptorResponse* m);

// Instruction descriptors.
void ToProto(const desc::IdescSpec& s, v2::InstructionDescriptorSpec* m);
// `build` applies the kind's defaults to what is unspecified and checks k; decode takes only kind,
// cta_group, ws, a_tmem and target. `prefix` starts the field paths of errors ("spec.").
absl::Status FromProto(const v2::InstructionDescriptorSpec& m, bool build, const std::string& prefix,
                       desc::IdescSpec* s, bool* kind_given);
void ToProto(const desc::IdescRequest& r, v2::InstructionDescriptorRequest* m);
absl::Status FromProto(const v2::InstructionDescriptorRequest& m, desc::IdescRequest* r);
void ToProto(const desc::IdescResult& r, v2::InstructionDescriptorResponse* m);

// Codegen.
void ToProto(const codegen::Input& in, const codegen::Options& opt, codegen::Lang lang, v2::CodegenRequest* m);
absl::Status FromProto(const v2::CodegenRequest& m, const RequestLimits& limits, codegen::Input* in,
                       codegen::Options* opt, codegen::Lang* lang);
void ToProto(const codegen::Plan& plan, const codegen::Output& out, codegen::Lang lang, v2::CodegenResponse* m);

// Check.
void ToProto(const std::vector<TensorMapSpec>& specs, const std::vector<std::string>& names, uint64_t seed, bool verbose,
             v2::CheckRequest* m);
absl::Status FromProto(const v2::CheckRequest& m, const RequestLimits& limits, std::vector<TensorMapSpec>* specs,
                       std::vector<std::string>* names, uint64_t* seed);
void ToProto(const gpu::CheckReport& r, v2::CheckResponse* m);

// Decode.
void ToProto(const std::vector<blob::MapBytes>& maps, const std::vector<std::string>& labels, const blob::DecodeOptions& o,
             v2::DecodeRequest* m);
absl::Status FromProto(const v2::DecodeRequest& m, const RequestLimits& limits, std::vector<blob::MapBytes>* maps,
                       std::vector<std::string>* labels, blob::DecodeOptions* o);
// One map: *valid as blob::RenderDecoded says.
void ToProto(int index, const std::string& label, const blob::Decoded& d, const blob::DecodeOptions& o, bool* valid,
             v2::DecodedMap* m);

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_API_CONVERT_H_
