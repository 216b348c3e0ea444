// decode.h: tmapd's Decode messages <-> decode's request (src/ops/decode.h), and one decoded map back.
// Only the 128-byte maps and their labels travel: the client reads and parses its inputs. No gRPC, no I/O.
//
// Contract
// - FromProto: at least one map, at most limits.max_decode_maps, each exactly 128 bytes, no more labels
//   than maps (a missing label is "map I"), a known target and rendering. Errors name the field
//   (common.h).
// - ToProto(one map) carries the runner's verdict (valid, clean), every field, and the validation report
//   of the recovered spec when the options validate it.
#ifndef TMAPGEN_SRC_RPC_DECODE_H_
#define TMAPGEN_SRC_RPC_DECODE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/ops/decode.h"
#include "src/report/decode_report.h"
#include "src/rpc/common.h"

namespace tmapgen::rpc {

void ToProto(const ops::DecodeRequest& r, v2::DecodeRequest* m);
absl::Status FromProto(const v2::DecodeRequest& m, const RequestLimits& limits, ops::DecodeRequest* r);
void ToProto(const ops::DecodedMap& map, const blob::DecodeOptions& o, v2::DecodedMap* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_DECODE_H_
