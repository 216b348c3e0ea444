// agreement_util.h: what the validator-vs-driver comparisons share (src/gpu/agreement/agreement_*.cc,
// src/gpu/agreement/random_sweep.cc, tools/boundary_probes.cc): the target they validate for, and the size
// helpers of the random specs (src/specgen/spec_bounds.h), by their names here; joining names.
#ifndef TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_UTIL_H_
#define TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/specgen/spec_bounds.h"
#include "src/tmap/types.h"

namespace tmapgen::gpu {

// The comparisons validate for the random specs' target, sm_90a (docs/hardware.md).
inline constexpr Target kAgreementTarget = specgen::kRandomSpecTarget;
using specgen::k2Pow32;
using specgen::k2Pow40;
using specgen::NaturalDirection;
using specgen::NaturalWideMode;
using specgen::RoundUp;
using specgen::SatMul;

inline std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const std::string& x : v) {
    if (!out.empty()) out += sep;
    out += x;
  }
  return out;
}

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_UTIL_H_
