// matrix_descriptor.h: tmapd's MatrixDescriptor messages <-> `tmapgen desc`'s request and report
// (src/desc/desc_request.h). The --remote client sends ToProto(request); tmapd runs FromProto(message)
// and answers with ToProto(report). No gRPC, no I/O.
//
// Contract
// - FromProto validates everything the message can hold that the request cannot (enum numbers outside
//   the schema, a map name without a map, the drawing without a tile, max_lines over 100000) and then
//   desc::CheckMatrixRequest; errors name the field (common.h). A request it accepts runs as is.
// - FromProto(ToProto(r)) == r for every request the command line can produce.
// - The response carries every field of the command's JSON report (not the rendered text: the caller
//   renders, as it is asked to).
#ifndef TMAPGEN_SRC_RPC_MATRIX_DESCRIPTOR_H_
#define TMAPGEN_SRC_RPC_MATRIX_DESCRIPTOR_H_

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/desc/desc_request.h"

namespace tmapgen::rpc {

void ToProto(const desc::MatrixRequest& r, v2::MatrixDescriptorRequest* m);
absl::Status FromProto(const v2::MatrixDescriptorRequest& m, desc::MatrixRequest* r);
void ToProto(const desc::SmemDescReport& r, v2::MatrixDescriptorResponse* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_MATRIX_DESCRIPTOR_H_
