// common.h: what the descriptor rule files share: accessors of the check context and small text helpers.
//
// Contract: header only, pure functions; no I/O.
#ifndef TMAPGEN_SRC_DESC_RULES_COMMON_H_
#define TMAPGEN_SRC_DESC_RULES_COMMON_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

// ---- helpers ------------------------------------------------------------------------------------------
inline const SmemCheck* S(const DescContext& c) { return c.smem; }
inline const OperandLayout* L(const DescContext& c) { return c.smem ? c.smem->layout : nullptr; }
inline const LayoutFacts* F(const DescContext& c) { return c.smem ? c.smem->facts : nullptr; }
inline const MapDerivation* M(const DescContext& c) { return c.smem ? c.smem->map : nullptr; }
inline bool DescSw(const SmemDesc& d, DescSwizzle* out) { return d.swizzle(out); }
// The swizzle the layout rules judge: the user's descriptor's when one is checked, else the layout's.
inline DescSwizzle EffSw(const DescContext& c) {
  DescSwizzle s = c.smem->layout->swizzle;
  if (c.smem->user_value && c.smem->desc.swizzle(&s)) return s;
  return c.smem->layout->swizzle;
}
inline DescSwizzle SwOr(const SmemDesc& d, DescSwizzle fallback) {
  DescSwizzle s = fallback;
  return d.swizzle(&s) ? s : fallback;
}
inline std::string H(uint64_t v) { return Hex(v); }
inline std::string U16(uint64_t bytes) { return StrCat(bytes, " B (", bytes >> 4, " x 16 B)"); }
inline uint64_t RoundUp(uint64_t v, uint64_t m) { return m == 0 ? v : (v + m - 1) / m * m; }
inline std::string FamilyName(DescArch a) { return a == DescArch::kWgmma ? "wgmma" : "tcgen05"; }
inline std::string Bin3(uint32_t v) { return StrCat("0b", (v >> 2) & 1, (v >> 1) & 1, v & 1); }
// The positions of the set bits, "3, 14, 15".
inline std::string BitList(uint64_t m) {
  std::string s;
  for (int b = 0; b < 64; ++b)
    if (m & (uint64_t{1} << b)) s += StrCat(s.empty() ? "" : ", ", b);
  return s;
}

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_COMMON_H_
