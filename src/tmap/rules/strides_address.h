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
RuleText MsgStrideAlign16(const TensorMapSpec&, const Finding& f);
RuleText FixStrideAlign16(const TensorMapSpec& s, const Finding& f);
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s);
inline void CheckStrideAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!NeedsStride32(c.spec)) return;
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 == 0 && st % 32 != 0) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st), 32);
  }
}
RuleText MsgStrideAlign32(const TensorMapSpec& s, const Finding& f);
RuleText FixStrideAlign32(const TensorMapSpec&, const Finding& f);
inline void CheckStrideMax(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st >= k2Pow40) o->Add(r, static_cast<int>(i), static_cast<int64_t>(std::min<uint64_t>(st, INT64_MAX)),
                              static_cast<int64_t>(k2Pow40));
  }
}
RuleText MsgStrideMax(const TensorMapSpec&, const Finding& f);
RuleText FixStrideMax(const TensorMapSpec&, const Finding& f);
// Whether two positions of the tensor share a byte, decided on the address sets: a position is a row of
// dimension 0 (RowBytes contiguous bytes) at offset sum(x_i * global_strides[i-1]) over the other dimensions.
// Dimensions of size 1 contribute nothing (their stride is never used, whatever it is); the others are sorted
// by stride. A dimension whose stride covers the span of the dimensions below it (the extent of their
// addresses) cannot collide with them. When it does not, a collision is searched for exactly: a step of d
// along it collides when d x stride lies within RowBytes of some sum of whole steps of the dimensions below
// (in a nested set only the two nearest multiples of each stride can be within reach, so at most 2^4 sums
// per step are tried; steps are tried up to kOverlapMaxSteps). Production layouts that this decides:
// flash-attention's (seqlen, d, head, batch) over BSHD memory, ThunderKittens' 5D swizzled maps, size-1
// dimensions with any stride (docs/hardware.md, "From production code").
enum class OverlapKind : uint8_t { kNone = 0, kCollision = 1, kBroadcast = 2, kUnproven = 3 };
struct Overlap {
  OverlapKind kind = OverlapKind::kNone;
  uint8_t dim = 0;    // the dimension whose steps collide (its stride is global_strides[dim - 1])
  uint8_t other = 0;  // the dimension it collides with (0: the rows of dimension 0; == dim for a broadcast)
  uint64_t step = 0;  // collision: the number of steps along `dim` that lands on `other`
  uint64_t span = 0;  // bytes the dimensions below `dim` (in stride order) extend over
};
inline constexpr uint64_t kOverlapMaxSteps = 256;

namespace internal_overlap {
inline uint64_t SatMulAdd(uint64_t a, uint64_t b, uint64_t c) {  // a * b + c, saturating
  uint64_t m, r;
  if (__builtin_mul_overflow(a, b, &m) || __builtin_add_overflow(m, c, &r)) return UINT64_MAX;
  return r;
}
struct Dim { uint64_t stride, size; uint8_t index; };
// Whether `v` lies within `row` bytes of a sum of whole steps (each between -(size-1) and size-1) of
// dims[0..level], which are nested (each stride >= the span below it): -1 when not; else 0 when the sum is 0
// (v falls in the rows of dimension 0) or 1 + the position of the highest dimension with a non-zero step.
// Only the two multiples of each stride nearest to the remainder can be in reach; the sums below are symmetric.
inline int Reach(const Dim* dims, int level, uint64_t v, uint64_t row, int top) {
  if (level < 0) return v < row ? top + 1 : -1;
  const Dim& d = dims[level];
  const uint64_t q = v / d.stride;
  const uint64_t max_q = d.size - 1;
  const uint64_t qf = q < max_q ? q : max_q;
  int r = Reach(dims, level - 1, v - qf * d.stride, row, top < 0 && qf > 0 ? level : top);
  if (r >= 0 || q >= max_q) return r;
  return Reach(dims, level - 1, (q + 1) * d.stride - v, row, top < 0 ? level : top);
}
}  // namespace internal_overlap

inline Overlap FindOverlap(const TensorMapSpec& s) {
  using internal_overlap::Dim;
  Overlap out;
  const uint32_t rank = Rank(s);
  Dim dims[kMaxRank];
  int n = 0;
  for (uint32_t i = 1; i < rank; ++i) {
    const uint64_t size = s.global_dim[i];
    if (size <= 1) continue;  // a size-1 dimension has one position: its stride moves nothing
    const uint64_t stride = s.global_strides[i - 1];
    if (stride == 0) {
      out.kind = OverlapKind::kBroadcast;
      out.dim = out.other = static_cast<uint8_t>(i);
      return out;
    }
    int j = n++;
    while (j > 0 && dims[j - 1].stride > stride) { dims[j] = dims[j - 1]; --j; }
    dims[j] = Dim{stride, size, static_cast<uint8_t>(i)};
  }
  const uint64_t row = RowBytes(s);
  uint64_t span = row;
  bool nested = true;
  for (int k = 0; k < n; ++k) {
    const Dim& d = dims[k];
    if (d.stride < span) {
      out.dim = d.index;
      out.span = span;
      if (!nested) { out.kind = OverlapKind::kUnproven; return out; }
      const uint64_t reach = (span - 1) / d.stride;  // steps whose offset stays below the span
      const uint64_t steps = reach < d.size - 1 ? reach : d.size - 1;
      if (steps > kOverlapMaxSteps) { out.kind = OverlapKind::kUnproven; return out; }
      for (uint64_t step = 1; step <= steps; ++step) {
        const int hit = internal_overlap::Reach(dims, k - 1, step * d.stride, row, -1);
        if (hit >= 0) {
          out.kind = OverlapKind::kCollision;
          out.other = hit > 0 ? dims[hit - 1].index : 0;
          out.step = step;
          return out;
        }
      }
      nested = false;  // disjoint, but interleaved with the dimensions below: later ones need the full span
    }
    span = internal_overlap::SatMulAdd(d.stride, d.size - 1, span);
  }
  return Overlap{};
}
inline void CheckStrideOverlap(const CheckContext& c, uint16_t r, FindingList* o) {
  if (Rank(c.spec) < 2) return;
  const Overlap ov = FindOverlap(c.spec);
  if (ov.kind != OverlapKind::kNone)
    o->Add(r, ov.dim - 1, static_cast<int64_t>(std::min<uint64_t>(c.spec.global_strides[ov.dim - 1], INT64_MAX)),
           ov.other);
}
RuleText MsgStrideOverlap(const TensorMapSpec& s, const Finding& f);
RuleText FixStrideOverlap(const TensorMapSpec& s, const Finding& f);

// ---- global address ----
inline void CheckAddrAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldGlobalAddress) && c.spec.global_address % 16 != 0)
    o->Add(r, -1, static_cast<int64_t>(c.spec.global_address % 16), 16);
}
RuleText MsgAddrAlign16(const TensorMapSpec& s, const Finding&);
RuleText FixAddrAlign(const TensorMapSpec& s, const Finding& f);
inline void CheckAddrAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && NeedsStride32(s) && s.global_address % 16 == 0 && s.global_address % 32 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 32), 32);
}
RuleText MsgAddrAlign32(const TensorMapSpec& s, const Finding&);
inline void CheckAddrAlign128Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && s.swizzle != Swizzle::kNone && s.global_address % 16 == 0 &&
      s.global_address % 128 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 128), 128);
}
RuleText MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_STRIDES_ADDRESS_H_
