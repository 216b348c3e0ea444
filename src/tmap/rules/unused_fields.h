// unused_fields.h: the rules about fields the chosen mode or direction ignores.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in unused_fields.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_UNUSED_FIELDS_H_
#define TMAPGEN_SRC_TMAP_RULES_UNUSED_FIELDS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- unused fields ----
// The given fields the mode or direction ignores (the field table's FieldUse, spec_fields.h).
inline uint32_t UnusedFields(const TensorMapSpec& s) { return s.set_fields & IgnoredFields(s.mode, s.direction); }
inline void CheckUnusedFields(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t u = UnusedFields(c.spec);
  for (uint32_t bit = 1; bit != 0 && bit <= u; bit <<= 1)
    if (u & bit) o->Add(r, -1, bit, 0);
}
void MsgUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o);

// ---- field paths that depend on the spec ----
std::string_view FieldOfUnused(const TensorMapSpec&, const Finding& f);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_UNUSED_FIELDS_H_
