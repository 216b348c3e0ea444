// smem_address.h: the rules about the shared-memory destination: alignment and swizzle phase.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in smem_address.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_SMEM_ADDRESS_H_
#define TMAPGEN_SRC_TMAP_RULES_SMEM_ADDRESS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- shared memory ----
inline void CheckSmemAlign128(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.direction == Direction::kPrefetch) return;
  if (s.Has(kFieldSmemAddress) && s.smem_address % 128 != 0) o->Add(r, 0, static_cast<int64_t>(s.smem_address % 128), 128);
  else if (s.Has(kFieldSmemAlignment) && s.smem_alignment < 128) o->Add(r, 1, s.smem_alignment, 128);
}
void MsgSmemAlign128(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixSmemAlign128(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckSmemSwizzlePhase(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  const uint32_t rep = c.facts.swizzle_repeat;
  if (rep <= 128 || s.direction == Direction::kPrefetch) return;
  if (s.Has(kFieldSmemAddress)) {
    if (s.smem_address % 128 == 0 && s.smem_address % rep != 0) o->Add(r, 0, static_cast<int64_t>(s.smem_address % rep), rep);
  } else if (s.Has(kFieldSmemAlignment) && s.smem_alignment >= 128 && s.smem_alignment < rep) {
    o->Add(r, 1, s.smem_alignment, rep);
  }
}
void MsgSmemSwizzlePhase(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixSmemSwizzlePhase(const TensorMapSpec&, const Finding& f, TextOut& o);

// ---- field paths that depend on the spec ----
std::string_view FieldOfSmem(const TensorMapSpec&, const Finding& f);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_SMEM_ADDRESS_H_
