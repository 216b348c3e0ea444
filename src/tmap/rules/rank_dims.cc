// rank_dims.cc: messages, fixes, patches and field paths of the rules about tensor rank and global dimensions
//   (rank_dims.h).
#include "src/tmap/rules/rank_dims.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- rank ----
RuleText MsgRankRange(const TensorMapSpec& s, const Finding&) {
  return TextCat("tensor_rank = ", s.rank, " is outside 1..5: a ", Name(s.mode), " map has 1 to 5 dimensions");
}
RuleText FixRankRange(const TensorMapSpec& s, const Finding&) {
  return s.rank == 0 ? std::string("give at least one dimension")
                     : std::string("merge contiguous dimensions until at most 5 remain");
}
RuleText MsgIm2colRank(const TensorMapSpec& s, const Finding&) {
  return TextCat("tensor_rank = ", s.rank, ": ", Name(s.mode),
             " maps describe NWC, NHWC or NDHWC tensors, so the rank must be 3, 4 or 5");
}
RuleText FixIm2colRank(const TensorMapSpec& s, const Finding&) {
  return s.rank < 3 ? std::string("add the missing N or W dimension (size 1 if absent)")
                    : std::string("fold extra dimensions into N");
}
RuleText MsgInterleaveRank(const TensorMapSpec& s, const Finding&) {
  return TextCat("tensor_rank = ", s.rank, " with ", FullName(s.interleave),
             ": interleaved layouts need rank 3, 4 or 5");
}
RuleText FixInterleaveRank(const TensorMapSpec&, const Finding&) {
  return "use CU_TENSOR_MAP_INTERLEAVE_NONE, or describe the tensor with at least 3 dimensions";
}
bool PatchInterleaveNone(const Finding&, TensorMapSpec* s) {
  s->interleave = Interleave::kNone;
  return true;
}
RuleText MsgGather4Rank(const TensorMapSpec& s, const Finding&) {
  return TextCat("tensor_rank = ", s.rank, ": ", Name(s.mode), " works on 2D tensors only (a tiled map of rank 2)");
}
RuleText FixGather4Rank(const TensorMapSpec&, const Finding&) {
  return "describe the tensor as 2D: rows (dim 1) of contiguous columns (dim 0)";
}

// ---- global dims ----
RuleText MsgGlobalDimRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return TextCat("global_dim[", f.index, "] = 0: every dimension needs at least one element");
  return TextCat("global_dim[", f.index, "] = ", f.value, " exceeds the limit of 2^32 = 4294967296 elements");
}
RuleText FixGlobalDimRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return TextCat("set global_dim[", f.index, "] to at least 1");
  return TextCat("split dimension ", f.index, " into two dimensions of at most 2^32 elements each");
}
bool PatchGlobalDimRange(const Finding& f, TensorMapSpec* s) {
  s->global_dim[f.index] = f.value == 0 ? 1 : k2Pow32;
  return true;
}
RuleText MsgGlobalDimPacked(const TensorMapSpec& s, const Finding& f) {
  return TextCat("global_dim[0] = ", f.value, " is not a multiple of ", f.limit, ": ", FullName(s.data_type),
             " packs ", f.limit == 128 ? "16 values per 8 or 12 bytes and copies 128-element rows"
                                       : "two 4-bit values per byte");
}
RuleText FixGlobalDimPacked(const TensorMapSpec&, const Finding& f) {
  return TextCat("pad global_dim[0] from ", f.value, " to ", RoundUpTo(static_cast<uint64_t>(f.value), f.limit),
             " elements");
}
bool PatchGlobalDimPacked(const Finding& f, TensorMapSpec* s) {
  s->global_dim[0] = RoundUpTo(static_cast<uint64_t>(f.value), static_cast<uint64_t>(f.limit));
  return true;
}

}  // namespace tmapgen::rules
