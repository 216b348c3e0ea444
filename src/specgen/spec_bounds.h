// spec_bounds.h: what random specs and the validator-vs-driver comparisons built on them share: the target
// they validate for, the 2^32 and 2^40 limits the rules test, saturating arithmetic for sizes, and the
// natural direction and wide mode of a mode.
#ifndef TMAPGEN_SRC_SPECGEN_SPEC_BOUNDS_H_
#define TMAPGEN_SRC_SPECGEN_SPEC_BOUNDS_H_

#include <cstdint>

#include "src/tmap/types.h"

namespace tmapgen::specgen {

// Random specs are for sm_90a, the target of the H200 the comparisons ran on (docs/hardware.md).
inline constexpr Target kRandomSpecTarget = Target::kSm90a;
inline constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
inline constexpr uint64_t k2Pow40 = uint64_t{1} << 40;

inline uint64_t RoundUp(uint64_t v, uint64_t m) { return m == 0 ? v : (v + m - 1) / m * m; }
inline uint64_t SatMul(uint64_t a, uint64_t b) { return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b; }

inline Direction NaturalDirection(Mode m) { return m == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta; }
inline Im2colWideMode NaturalWideMode(Mode m) { return m == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW; }

}  // namespace tmapgen::specgen

#endif  // TMAPGEN_SRC_SPECGEN_SPEC_BOUNDS_H_
