// common.h: what the rule files share: limits, the measurement source, small helpers for checks and texts.
//
// Contract
// - Header only; constants and pure functions. The checks use Rank() and RoundUpTo(); the texts use
//   Bits(), DT() and SW().
#ifndef TMAPGEN_SRC_TMAP_RULES_COMMON_H_
#define TMAPGEN_SRC_TMAP_RULES_COMMON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/tmap/rule_text.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/util/strings.h"

namespace tmapgen::rules {

constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
constexpr uint64_t k2Pow40 = uint64_t{1} << 40;
// The project's record of what the driver was measured to do (docs/hardware.md, "Driver observations").
constexpr std::string_view kMeasured = "measured: H200 sm_90, driver 580.159.04, docs/hardware.md D1-D9";
inline uint32_t Rank(const TensorMapSpec& s) { return s.rank > kMaxRank ? kMaxRank : s.rank; }
inline uint64_t RoundUpTo(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
inline Bytes Bits(int64_t bits) { return Bytes{bits}; }  // "600 B", "0.500 B" (rule_text.h)
inline std::string_view DT(const TensorMapSpec& s) { return ShortName(s.data_type); }
inline std::string_view SW(Swizzle w) { return FullName(w); }
// The order box_dim[i] was read in, written after "box_dim[i] " in the box rules' messages, so that a value typed
// in the other order is recognised: "(innermost first: the 2nd value)" for a box given as box_dim is (JSON,
// --box, Python box_dim), or, for a box given in the tensor's order and reversed (Python for_tensor), which
// value of that box it was. Constant texts, no allocation; the usual ones are at most 32 bytes, which a rule
// text copies inline (rule_text.h).
inline std::string_view BoxOrder(const TensorMapSpec& s, uint32_t i) {
  static constexpr std::string_view kInner[kMaxRank] = {
      "(innermost first: the 1st value)", "(innermost first: the 2nd value)", "(innermost first: the 3rd value)",
      "(innermost first: the 4th value)", "(innermost first: the 5th value)"};
  static constexpr std::string_view kGiven[kMaxRank] = {
      "(innermost first: box[0] of for_tensor's box, which is outermost first)",
      "(innermost first: box[1] of for_tensor's box, which is outermost first)",
      "(innermost first: box[2] of for_tensor's box, which is outermost first)",
      "(innermost first: box[3] of for_tensor's box, which is outermost first)",
      "(innermost first: box[4] of for_tensor's box, which is outermost first)"};
  const uint32_t r = Rank(s);
  if (i >= r) return "(innermost first)";
  return s.box_given_outermost_first ? kGiven[r - 1 - i] : kInner[i];
}
// Elements along dim 0 that make a multiple of 16 bytes: 128 / gcd(bits, 128).
inline uint32_t Inner16Step(int bits) {
  int a = bits, b = 128;
  while (b != 0) { int t = a % b; a = b; b = t; }
  return static_cast<uint32_t>(128 / a);
}

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_COMMON_H_
