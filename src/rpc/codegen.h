// codegen.h: tmapd's Codegen messages <-> codegen's request and result (src/ops/codegen.h). No gRPC, no I/O.
//
// Contract
// - FromProto validates the message (at least one spec, the limits of `limits`, enum numbers, a
//   namespace that is a plain C++ identifier, descriptors that name their map and family); errors name
//   the field (common.h). FromProto(ToProto(x)) == x for every request the command line can produce.
// - ToProto(plan, output) answers the generated file (named as the command names it) or the rejection,
//   and one item per map and descriptor with its diagnostics.
#ifndef TMAPGEN_SRC_RPC_CODEGEN_H_
#define TMAPGEN_SRC_RPC_CODEGEN_H_

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/codegen/codegen.h"
#include "src/ops/codegen.h"
#include "src/rpc/common.h"

namespace tmapgen::rpc {

void ToProto(const ops::CodegenRequest& r, v2::CodegenRequest* m);
absl::Status FromProto(const v2::CodegenRequest& m, const RequestLimits& limits, ops::CodegenRequest* r);
void ToProto(const ops::CodegenResult& r, codegen::Lang lang, v2::CodegenResponse* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_CODEGEN_H_
