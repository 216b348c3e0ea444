// codegen.h: tmapd's Codegen messages <-> `tmapgen codegen`'s input and options (src/codegen/codegen.h),
// and the plan and output back. No gRPC, no I/O.
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
#include "src/rpc/common.h"

namespace tmapgen::rpc {

void ToProto(const codegen::Input& in, const codegen::Options& opt, codegen::Lang lang, v2::CodegenRequest* m);
absl::Status FromProto(const v2::CodegenRequest& m, const RequestLimits& limits, codegen::Input* in,
                       codegen::Options* opt, codegen::Lang* lang);
void ToProto(const codegen::Plan& plan, const codegen::Output& out, codegen::Lang lang, v2::CodegenResponse* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_CODEGEN_H_
