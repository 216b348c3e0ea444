// rank_dims.h: the rules about tensor rank and global dimensions.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in rank_dims.cc; they run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_RANK_DIMS_H_
#define TMAPGEN_SRC_TMAP_RULES_RANK_DIMS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- rank ----
inline void CheckRankRange(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank < 1 || c.spec.rank > 5) o->Add(r, -1, c.spec.rank, 5);
}
void MsgRankRange(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixRankRange(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckIm2colRank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank < 3 || c.spec.rank > 5) o->Add(r, -1, c.spec.rank, 3);
}
void MsgIm2colRank(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixIm2colRank(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckInterleaveRank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave != Interleave::kNone && c.spec.rank < 3) o->Add(r, -1, c.spec.rank, 3);
}
void MsgInterleaveRank(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixInterleaveRank(const TensorMapSpec&, const Finding&, TextOut& o);
bool PatchInterleaveNone(const Finding&, TensorMapSpec* s);
inline void CheckGather4Rank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank != 2) o->Add(r, -1, c.spec.rank, 2);
}
void MsgGather4Rank(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixGather4Rank(const TensorMapSpec&, const Finding&, TextOut& o);

// ---- global dims ----
inline void CheckGlobalDimRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint64_t d = c.spec.global_dim[i];
    if (d == 0 || d > k2Pow32) o->AddU(r, static_cast<int>(i), d, static_cast<int64_t>(k2Pow32));
  }
}
void MsgGlobalDimRange(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixGlobalDimRange(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchGlobalDimRange(const Finding& f, TensorMapSpec* s);
inline void CheckGlobalDimPacked(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint64_t d = c.spec.global_dim[0];
  if (IsAlign16BPacked(c.spec.data_type) && d % 128 != 0) o->AddU(r, 0, d, 128);
  if (c.spec.data_type == DataType::k16U4Align8B && d % 2 != 0) o->AddU(r, 0, d, 2);
}
void MsgGlobalDimPacked(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixGlobalDimPacked(const TensorMapSpec&, const Finding& f, TextOut& o);
bool PatchGlobalDimPacked(const Finding& f, TensorMapSpec* s);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_RANK_DIMS_H_
