// agreement_shrink.h: shrinking a spec on which the validator and the driver disagree to a smallest
// spec that still disagrees, so that the fields that matter stand out (docs/hardware.md).
//
// Contract
// - Mutations(): simplifying edits (drop the address, dense strides, no swizzle, smaller box, ...); each
//   returns false when it has nothing to change.
// - Shrink(s, keep): applies every mutation that keeps `keep` true, round after round (at most 4); returns
//   the names of the mutations that applied but would have broken it (the essential fields).
#ifndef TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_SHRINK_H_
#define TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_SHRINK_H_

#include <functional>
#include <string>
#include <vector>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct Mutation {
  std::string name;
  std::function<bool(TensorMapSpec*)> apply;  // false: nothing to change
};

std::vector<Mutation> Mutations();
std::vector<std::string> Shrink(TensorMapSpec* s, const std::function<bool(const TensorMapSpec&)>& keep);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_SHRINK_H_
