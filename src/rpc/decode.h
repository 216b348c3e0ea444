// decode.h: tmapd's Decode messages <-> `tmapgen decode`'s maps and options (src/blob/decode_report.h),
// and one decoded map back. Only the 128-byte maps and their labels travel: the client reads and parses
// its inputs. No gRPC, no I/O.
//
// Contract
// - FromProto: at least one map, at most limits.max_decode_maps, each exactly 128 bytes, no more labels
//   than maps (a missing label is "map I"), a known target and rendering. Errors name the field
//   (common.h).
// - ToProto(one map) sets *valid as blob::RenderDecoded does, and the validation report of the recovered
//   spec when it validates it.
#ifndef TMAPGEN_SRC_RPC_DECODE_H_
#define TMAPGEN_SRC_RPC_DECODE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/blob/decode_report.h"
#include "src/rpc/common.h"

namespace tmapgen::rpc {

void ToProto(const std::vector<blob::MapBytes>& maps, const std::vector<std::string>& labels, const blob::DecodeOptions& o,
             v2::DecodeRequest* m);
absl::Status FromProto(const v2::DecodeRequest& m, const RequestLimits& limits, std::vector<blob::MapBytes>* maps,
                       std::vector<std::string>* labels, blob::DecodeOptions* o);
void ToProto(int index, const std::string& label, const blob::Decoded& d, const blob::DecodeOptions& o, bool* valid,
             v2::DecodedMap* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_DECODE_H_
