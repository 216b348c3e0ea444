// unused_fields.cc: messages, fixes, patches and field paths of the rules about fields the chosen mode or
//   direction ignores (unused_fields.h).
#include "src/tmap/rules/unused_fields.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- unused fields ----
namespace {
std::string_view FieldName(uint32_t bit) { return FieldKey(bit); }
}  // namespace
void MsgUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint32_t bit = static_cast<uint32_t>(f.value);
  const bool op = bit == kFieldReduceOp;
  return TextAppend(&o, FieldName(bit), " is ignored with ", When(op, "direction ", Name(s.direction)),
                    When(!op, "mode ", Name(s.mode)));
}
void FixUnusedFields(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "remove ", FieldName(static_cast<uint32_t>(f.value)), ", or check that mode ", Name(s.mode), " is the one meant");
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfUnused(const TensorMapSpec&, const Finding& f) { return FieldName(static_cast<uint32_t>(f.value)); }

}  // namespace tmapgen::rules
