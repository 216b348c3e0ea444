// driver_version.h: the rules about the driver version: what each version encodes, and a known driver bug.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in driver_version.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_
#define TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- driver version ----
inline bool NeedsDriver12080(const TensorMapSpec& s) {
  return IsSubByte(s.data_type) || IsAtomicitySwizzle(s.swizzle) || IsWideMode(s.mode);
}
inline void CheckDriverVersion(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t v = c.spec.driver_version;
  if (v == 0) return;
  if (v < 12000) o->Add(r, -1, v, 12000);
  else if (v < 12080 && NeedsDriver12080(c.spec)) o->Add(r, -1, v, 12080);
}
void MsgDriverVersion(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixDriverVersion(const TensorMapSpec&, const Finding& f, TextOut& o);
inline void CheckDriverOobBug(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t v = c.spec.driver_version;
  if (v == 0 || v >= 13020 || Info(c.target).cc < 100 || IsWideMode(c.spec.mode)) return;
  if (c.facts.global_extent_bytes < 131072) o->Add(r, -1, static_cast<int64_t>(c.facts.global_extent_bytes), 131072, c.target);
}
void MsgDriverOobBug(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixDriverOobBug(const TensorMapSpec&, const Finding&, TextOut& o);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_
