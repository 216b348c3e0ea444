// instruction_descriptor.h: tmapd's InstructionDescriptor messages <-> `tmapgen idesc`'s request and
// result (src/desc/desc_request.h). The spec's conversion is also codegen's (src/rpc/codegen.h). No gRPC,
// no I/O.
//
// Contract
// - FromProto(spec, build, prefix, ...): `build` applies the kind's defaults to what is unspecified and
//   checks k; decode takes only kind, cta_group, ws, a_tmem and target and refuses the other fields.
//   `prefix` starts the field paths of errors ("spec.").
// - FromProto(request) also runs desc::CheckIdescRequest; FromProto(ToProto(r)) == r for every request
//   the command line can produce.
// - ToProto(result) carries every field of the command's JSON report; a decode without a kind answers
//   one report per kind (by_kind).
#ifndef TMAPGEN_SRC_RPC_INSTRUCTION_DESCRIPTOR_H_
#define TMAPGEN_SRC_RPC_INSTRUCTION_DESCRIPTOR_H_

#include <string>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/desc/desc_request.h"

namespace tmapgen::rpc {

void ToProto(const desc::IdescSpec& s, v2::InstructionDescriptorSpec* m);
absl::Status FromProto(const v2::InstructionDescriptorSpec& m, bool build, const std::string& prefix,
                       desc::IdescSpec* s, bool* kind_given);
void ToProto(const desc::IdescRequest& r, v2::InstructionDescriptorRequest* m);
absl::Status FromProto(const v2::InstructionDescriptorRequest& m, desc::IdescRequest* r);
void ToProto(const desc::IdescResult& r, v2::InstructionDescriptorResponse* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_INSTRUCTION_DESCRIPTOR_H_
