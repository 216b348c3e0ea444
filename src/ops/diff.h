// diff.h: diff, the pipeline behind `tmapgen diff A B`: two 128-byte CUtensorMaps compared field by field
// (src/blob's layout table), and the set bits no field explains. The command line reads the two sides
// (maps, or specs it encodes offline) and prints the result as text or JSON.
//
// Contract
// - Rows follow the layout table's order, one per field name that either map has and whose raw value (or
//   field) differs; a field one map lacks reads "(beyond rank R)" or "(not in this layout)". A differing
//   layout comes first. raw_bits are the differing bits that no field of either map covers.
// - `equal` is byte equality of the two maps.
#ifndef TMAPGEN_SRC_OPS_DIFF_H_
#define TMAPGEN_SRC_OPS_DIFF_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/blob/blob.h"

namespace tmapgen::ops {

struct DiffRequest {
  blob::MapBytes a{}, b{};
};

struct DiffRow {
  std::string name, bits, a, b;  // the field, its bits ("64, 68-70"), its value in each map
};

struct DiffResult {
  bool equal = false;
  std::vector<DiffRow> rows;
  std::vector<int> raw_bits;
};

absl::StatusOr<DiffResult> RunDiff(const DiffRequest& req);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_DIFF_H_
