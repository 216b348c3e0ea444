// offline.h: what src/blob (the 128-byte layout, decode and encode without a driver) adds to a trace,
// used by `tmapgen trace` when it merges the streams (not by the injection library, which stays free of
// the blob code's dependencies):
//
// - CheckOffline(): the bytes the driver wrote for a traced call, next to the bytes tmapgen's offline
//   encoder computes for the same parameters. Equal is evidence for the measured layout on a real program's
//   map; a difference is a driver whose layout differs from the one measured (a finding, with the bits);
//   a map outside the measured evidence (a target other than sm_90, data types 13-15, ...) is said so.
// - DecodeSource(): a cuTensorMapReplaceAddress on a map the process never encoded through the driver gets
//   the parameters decoded from the map passed in (kDecodedSource), so that it becomes a replayable record.
//
// Contract: pure (no I/O); thread-safe.
#ifndef TMAPGEN_SRC_TRACE_OFFLINE_H_
#define TMAPGEN_SRC_TRACE_OFFLINE_H_

#include <string>
#include <vector>

#include "src/trace/call.h"

namespace tmapgen::trace {

struct OfflineCheck {
  enum Kind { kEqual, kDiffers, kNotCovered } kind = kNotCovered;
  std::vector<int> differing_bits;  // kDiffers: the bit positions (0 = bit 0 of byte 0)
  std::string why;                  // kNotCovered: why the offline encoder has no bytes for it
};

// False when there is nothing to compare: the call wrote no map, or carries no parameters.
bool CheckOffline(const EncodeCall& call, OfflineCheck* out);

// True when the parameters were recovered (then the call is replayable).
bool DecodeSource(EncodeCall* call);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_OFFLINE_H_
