// agreement_util.h: what the validator-vs-driver comparisons share (src/gpu/agreement_*.cc,
// src/gpu/driver_agreement.cc, tools/boundary_probes.cc): the target they validate for, saturating
// arithmetic for sizes, the natural direction and wide mode of a mode, and joining names.
#ifndef TMAPGEN_SRC_GPU_AGREEMENT_UTIL_H_
#define TMAPGEN_SRC_GPU_AGREEMENT_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/tmap/types.h"

namespace tmapgen::gpu {

// The comparisons validate for sm_90a, the target of the H200 they ran on (docs/hardware.md).
inline constexpr Target kAgreementTarget = Target::kSm90a;
inline constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
inline constexpr uint64_t k2Pow40 = uint64_t{1} << 40;

inline uint64_t RoundUp(uint64_t v, uint64_t m) { return m == 0 ? v : (v + m - 1) / m * m; }
inline uint64_t SatMul(uint64_t a, uint64_t b) { return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b; }

inline Direction NaturalDirection(Mode m) { return m == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta; }
inline Im2colWideMode NaturalWideMode(Mode m) { return m == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW; }

inline std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const std::string& x : v) {
    if (!out.empty()) out += sep;
    out += x;
  }
  return out;
}

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_AGREEMENT_UTIL_H_
