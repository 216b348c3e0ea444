// decode.h: decode, the one pipeline behind `tmapgen decode`, tmapd's Decode and Python's decode(): each
// 128-byte CUtensorMap read back into its fields (src/blob), its recovered spec validated, and a verdict.
// The front ends render each map (src/report/decode_report.h, src/rpc/decode.h) as it comes.
//
// Contract
// - The inputs are already read and parsed (the command line reads files, hex and JSON Lines; tmapd
//   receives the bytes): only 128-byte maps and their labels are in the request. labels[i] names
//   maps[i]; a missing label is "map I".
// - RunDecode hands each map, in order, to `each` and stops at the first error `each` returns (tmapd
//   stops at its message limit), returning it. Otherwise it answers whether every map decoded cleanly
//   (no unexplained bit, no finding other than notes) and is valid.
// - A map's `valid`: the spec was recovered and, when options.validate, it validates (for
//   options.target, or every target), as the rendered reports say.
#ifndef TMAPGEN_SRC_OPS_DECODE_H_
#define TMAPGEN_SRC_OPS_DECODE_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/blob/blob.h"
#include "src/report/decode_report.h"

namespace tmapgen::ops {

struct DecodeRequest {
  std::vector<blob::MapBytes> maps;
  std::vector<std::string> labels;
  blob::DecodeOptions options;
};

struct DecodedMap {
  int index = 0;
  std::string_view label;
  const blob::MapBytes* bytes = nullptr;
  blob::Decoded decoded;
  bool valid = false;
  bool clean = false;
};

struct DecodeSummary {
  bool all_clean_and_valid = true;
};

absl::StatusOr<DecodeSummary> RunDecode(const DecodeRequest& req,
                                        const std::function<absl::Status(const DecodedMap&)>& each);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_DECODE_H_
