// rank_dims.cc: messages, fixes, patches and field paths of the rules about tensor rank and global dimensions
//   (rank_dims.h).
#include "src/tmap/rules/rank_dims.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- rank ----
void MsgRankRange(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "tensor_rank = ", s.rank, " is outside 1..5: a ", Name(s.mode), " map has 1 to 5 dimensions");
}
void FixRankRange(const TensorMapSpec& s, const Finding&, TextOut& o) {
  o += s.rank == 0 ? "give at least one dimension" : "merge contiguous dimensions until at most 5 remain";
}
void MsgIm2colRank(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "tensor_rank = ", s.rank, ": ", Name(s.mode),
             " maps describe NWC, NHWC or NDHWC tensors, so the rank must be 3, 4 or 5");
}
void FixIm2colRank(const TensorMapSpec& s, const Finding&, TextOut& o) {
  o += s.rank < 3 ? "add the missing N or W dimension (size 1 if absent)" : "fold extra dimensions into N";
}
void MsgInterleaveRank(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "tensor_rank = ", s.rank, " with ", FullName(s.interleave),
             ": interleaved layouts need rank 3, 4 or 5");
}
void FixInterleaveRank(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "use CU_TENSOR_MAP_INTERLEAVE_NONE, or describe the tensor with at least 3 dimensions");
}
bool PatchInterleaveNone(const Finding&, TensorMapSpec* s) {
  s->interleave = Interleave::kNone;
  return true;
}
void MsgGather4Rank(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "tensor_rank = ", s.rank, ": ", Name(s.mode), " works on 2D tensors only (a tiled map of rank 2)");
}
void FixGather4Rank(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "describe the tensor as 2D: rows (dim 1) of contiguous columns (dim 0)");
}

// ---- global dims ----
void MsgGlobalDimRange(const TensorMapSpec&, const Finding& f, TextOut& o) {
  if (f.value == 0)
    return TextAppend(&o, "global_dim[", f.index, "] = 0: the tensor is empty (an empty batch, say), and a map needs at least "
                      "one element per dimension");
  return TextAppend(&o, "global_dim[", f.index, "] = ", f.uvalue(), " exceeds the limit of 2^32 = 4294967296 elements");
}
void FixGlobalDimRange(const TensorMapSpec&, const Finding& f, TextOut& o) {
  // Extent 1 would be a map of a row that does not exist: its copies would read or write memory past the
  // empty tensor. So no patch either: the nearest valid configuration would invent that row.
  if (f.value == 0)
    return TextAppend(&o, "there is nothing to copy: skip the launch (or the copy) while global_dim[", f.index,
                      "] is 0; do not encode the map with extent 1, which describes a row that does not exist");
  return TextAppend(&o, "split dimension ", f.index, " into two dimensions of at most 2^32 elements each");
}
bool PatchGlobalDimRange(const Finding& f, TensorMapSpec* s) {
  if (f.value == 0) return false;  // an empty tensor has no valid map (FixGlobalDimRange)
  s->global_dim[f.index] = k2Pow32;
  return true;
}
void MsgGlobalDimPacked(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "global_dim[0] = ", f.uvalue(), " is not a multiple of ", f.limit, ": ", FullName(s.data_type),
             " packs ", f.limit == 128 ? "16 values per 8 or 12 bytes and copies 128-element rows"
                                       : "two 4-bit values per byte");
}
void FixGlobalDimPacked(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "pad global_dim[0] from ", f.uvalue(), " to ", RoundUpTo(f.uvalue(), f.limit),
             " elements");
}
bool PatchGlobalDimPacked(const Finding& f, TensorMapSpec* s) {
  s->global_dim[0] = RoundUpTo(static_cast<uint64_t>(f.value), static_cast<uint64_t>(f.limit));
  return true;
}

}  // namespace tmapgen::rules
