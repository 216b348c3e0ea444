// advance.cc: checks, messages and fixes of the descriptor rules about a descriptor advanced to a K slice or
//   sub-tile (advance.h).
#include "src/desc/rules/advance.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/common.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

namespace {
const Advance* A(const DescContext& c) { return c.smem ? c.smem->advance : nullptr; }
}  // namespace
namespace {
std::string What(const DescContext& c) {
  const SmemCheck* s = S(c);
  return s->advance_is_sub_tile ? StrCat("sub-tile (", s->advance_mn, ", ", s->advance_k, ")")
                                : StrCat("K slice ", s->advance_k_slice);
}
}  // namespace
void CheckAdvAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (A(c) && !A(c)->aligned_16) o->Add(r, -1, A(c)->delta_bytes, 16);
}
std::string MsgAdvAlign(const DescContext& c, const Finding& f) {
  return StrCat("the ", What(c), " starts ", f.value, " B into the tile (or at a fraction of a byte), not a multiple of 16 "
             "bytes: the start-address field cannot express it");
}
std::string FixAdvAlign(const DescContext&, const Finding&) {
  return "advance in whole core matrices: K-major by 16-byte K columns, MN-major by 8-row K groups";
}
void CheckAdvBase(const DescContext& c, uint16_t r, FindingList* o) {
  if (A(c) && A(c)->base_offset_changed) o->Add(r, -1, A(c)->base_offset, c.smem->desc.base_offset());
}
std::string MsgAdvBase(const DescContext& c, const Finding& f) {
  return StrCat("the ", What(c), " moves the start by ", A(c)->delta_bytes, " B, into another row of the swizzle pattern: "
             "its descriptor needs base offset ", f.value, " (was ", f.limit,
             "); a loop that only adds delta / 16 to the descriptor misses it");
}
std::string FixAdvBase(const DescContext& c, const Finding&) {
  return StrCat("use the descriptor printed here (", H(A(c)->desc.bits()), "), or advance in steps that keep the "
             "pattern row (whole 8-row groups)");
}
void CheckAdvRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (A(c) && A(c)->field_overflow) o->Add(r, -1, static_cast<int64_t>(A(c)->start_bytes), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgAdvRange(const DescContext& c, const Finding& f) {
  return StrCat("the ", What(c), " starts at ", H(static_cast<uint64_t>(f.value)), ", beyond the 14-bit start field (262128 B); "
             "adding the step to the raw descriptor would also carry into reserved bit 14");
}
std::string FixAdvRange(const DescContext&, const Finding&) { return "place the tile lower in shared memory"; }
void CheckAdvOutside(const DescContext& c, uint16_t r, FindingList* o) {
  if (A(c) && F(c) && !A(c)->inside_tile) o->Add(r, -1, A(c)->delta_bytes, static_cast<int64_t>(F(c)->footprint_bytes));
}
std::string MsgAdvOutside(const DescContext& c, const Finding& f) {
  return StrCat("the ", What(c), " starts ", f.value, " B into a tile of ", f.limit, " B: outside the tile",
             S(c)->advance_is_sub_tile ? "" : StrCat(" (the tile has ", F(c)->k_slices, " K slices of ", F(c)->mma_k, ")"));
}
std::string FixAdvOutside(const DescContext&, const Finding&) { return "stay within the tile"; }

}  // namespace tmapgen::desc::rules
