// random_spec.h: random tensor-map specs biased to the rules' boundaries, for the validator-vs-driver
// sweep (`tmapgen sweep --random`, tools/driver_agreement.cc) and the core's randomized tests. Needs only
// the core (tmap, util).
//
// Contract
// - Rng: splitmix64 from a seed; the same seed gives the same specs on every platform.
// - RandomSpec: a spec of any mode the encoders serve (tiled, gather4, scatter4, im2col, im2col::w,
//   im2col::w::128), sizes, strides, boxes, corners and enums drawn near their limits; it may be valid or
//   not. Tame: the same spec pulled back inside the common limits (for a share of valid specs).
//   PerturbOne: one field moved across a boundary.
#ifndef TMAPGEN_SRC_SPECGEN_RANDOM_SPEC_H_
#define TMAPGEN_SRC_SPECGEN_RANDOM_SPEC_H_

#include <cstddef>
#include <cstdint>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::specgen {

// ============================== random numbers ==============================
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  uint64_t Next() {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  int64_t Range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Below(static_cast<uint64_t>(hi - lo + 1))); }
  bool Chance(int percent) { return Below(100) < static_cast<uint64_t>(percent); }
  template <typename T, size_t N>
  T Pick(const T (&a)[N]) { return a[Below(N)]; }
};


TensorMapSpec RandomSpec(Rng& r);
void PerturbOne(Rng& r, TensorMapSpec* s);
TensorMapSpec Tame(Rng& r, const TensorMapSpec& wild);

}  // namespace tmapgen::specgen

#endif  // TMAPGEN_SRC_SPECGEN_RANDOM_SPEC_H_
