// strides_address.h: the rules about global strides and the global address.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in strides_address.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_STRIDES_ADDRESS_H_
#define TMAPGEN_SRC_TMAP_RULES_STRIDES_ADDRESS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- global strides ----
inline bool NeedsStride32(const TensorMapSpec& s) {
  return s.interleave == Interleave::k32B || IsAlign16BPacked(s.data_type);
}
inline void CheckStrideAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 != 0) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st), 16);
  }
}
std::string MsgStrideAlign16(const TensorMapSpec&, const Finding& f);
std::string FixStrideAlign16(const TensorMapSpec& s, const Finding& f);
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s);
inline void CheckStrideAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!NeedsStride32(c.spec)) return;
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 == 0 && st % 32 != 0) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st), 32);
  }
}
std::string MsgStrideAlign32(const TensorMapSpec& s, const Finding& f);
std::string FixStrideAlign32(const TensorMapSpec&, const Finding& f);
inline void CheckStrideMax(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st >= k2Pow40) o->Add(r, static_cast<int>(i), static_cast<int64_t>(std::min<uint64_t>(st, INT64_MAX)),
                              static_cast<int64_t>(k2Pow40));
  }
}
std::string MsgStrideMax(const TensorMapSpec&, const Finding& f);
std::string FixStrideMax(const TensorMapSpec&, const Finding& f);
inline uint64_t RequiredStride(const TensorMapSpec& s, uint32_t i) {
  if (i == 0) return RowBytes(s);
  const uint64_t prev = s.global_strides[i - 1];
  const uint64_t d = s.global_dim[i];
  if (d != 0 && prev > UINT64_MAX / d) return UINT64_MAX;
  return prev * d;
}
inline void CheckStrideOverlap(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t need = RequiredStride(c.spec, i);
    const uint64_t st = c.spec.global_strides[i];
    if (st < need) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st),
                          static_cast<int64_t>(std::min<uint64_t>(need, INT64_MAX)));
  }
}
std::string MsgStrideOverlap(const TensorMapSpec& s, const Finding& f);
std::string FixStrideOverlap(const TensorMapSpec&, const Finding& f);

// ---- global address ----
inline void CheckAddrAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldGlobalAddress) && c.spec.global_address % 16 != 0)
    o->Add(r, -1, static_cast<int64_t>(c.spec.global_address % 16), 16);
}
std::string MsgAddrAlign16(const TensorMapSpec& s, const Finding&);
std::string FixAddrAlign(const TensorMapSpec& s, const Finding& f);
inline void CheckAddrAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && NeedsStride32(s) && s.global_address % 16 == 0 && s.global_address % 32 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 32), 32);
}
std::string MsgAddrAlign32(const TensorMapSpec& s, const Finding&);
inline void CheckAddrAlign128Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && s.swizzle != Swizzle::kNone && s.global_address % 16 == 0 &&
      s.global_address % 128 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 128), 128);
}
std::string MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_STRIDES_ADDRESS_H_
