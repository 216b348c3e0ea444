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
    if (st % 16 != 0) o->AddU(r, static_cast<int>(i), st, 16);
  }
}
void MsgStrideAlign16(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixStrideAlign16(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s);
inline void CheckStrideAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!NeedsStride32(c.spec)) return;
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 == 0 && st % 32 != 0) o->AddU(r, static_cast<int>(i), st, 32);
  }
}
void MsgStrideAlign32(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixStrideAlign32(const TensorMapSpec& s, const Finding& f, TextOut& o);
inline void CheckStrideMax(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st >= k2Pow40) o->AddU(r, static_cast<int>(i), st, static_cast<int64_t>(k2Pow40));
  }
}
void MsgStrideMax(const TensorMapSpec&, const Finding& f, TextOut& o);
void FixStrideMax(const TensorMapSpec& s, const Finding& f, TextOut& o);
bool PatchStrideMax(const Finding& f, TensorMapSpec* s);
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
// Reach() for v = q x dims[level].stride + rem (0 <= rem < stride), with the quotient and remainder already
// known: the step loop keeps them up to date by additions, so the top level costs no division.
inline int ReachKnown(const Dim* dims, int level, uint64_t q, uint64_t rem, uint64_t row) {
  const Dim& d = dims[level];
  const uint64_t max_q = d.size - 1;
  const uint64_t qf = q < max_q ? q : max_q;
  const uint64_t residual = q <= max_q ? rem : (q - max_q) * d.stride + rem;
  if (level == 0) {  // only the rows of dimension 0 below: no recursion
    if (residual < row) return qf > 0 ? 1 : 0;
    return q < max_q && d.stride - rem < row ? 1 : -1;
  }
  int r = Reach(dims, level - 1, residual, row, qf > 0 ? level : -1);
  if (r >= 0 || q >= max_q) return r;
  return Reach(dims, level - 1, d.stride - rem, row, level);
}
}  // namespace internal_overlap

inline Overlap FindOverlap(const TensorMapSpec& s) {
  using internal_overlap::Dim;
  Overlap out;
  const uint32_t rank = Rank(s);
  const uint64_t row = RowBytes(s);
  {
    // Fast path: the dimensions, in their own order and with none of size 0 or 1, each start at or past
    // the end of the ones before them (dense or padded row-major layouts): nothing overlaps.
    uint64_t end = row;
    uint32_t i = 1;
    for (; i < rank; ++i) {
      const uint64_t size = s.global_dim[i], stride = s.global_strides[i - 1];
      if (size <= 1 || stride < end) break;
      end = internal_overlap::SatMulAdd(stride, size - 1, end);
    }
    if (i == rank) return out;
  }
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
  uint64_t span = row;
  bool nested = true;
  for (int k = 0; k < n; ++k) {
    const Dim& d = dims[k];
    if (d.stride < span) {
      out.dim = d.index;
      out.span = span;
      if (!nested) { out.kind = OverlapKind::kUnproven; return out; }
      // Steps whose offset stays below the span (beyond it nothing below can be reached); at most
      // kOverlapMaxSteps are tried, else the layout is not decided. step x stride = q x top.stride + rem is
      // kept by additions, so a step costs no division.
      const uint64_t top_stride = k > 0 ? dims[k - 1].stride : 1;
      // dq, dr = d.stride / top_stride, d.stride % top_stride; a few subtractions cover the usual ratios
      // without a 64-bit division (the slow instruction of this check).
      uint64_t dq = 0, dr = k > 0 ? d.stride : 0;
      while (k > 0 && dr >= top_stride && dq < 8) { dr -= top_stride; ++dq; }
      if (k > 0 && dr >= top_stride) { dq += dr / top_stride; dr %= top_stride; }
      uint64_t q = 0, rem = 0, v = 0;
      for (uint64_t step = 1; step < d.size; ++step) {
        if (d.stride >= span - v) break;  // v + stride would reach the span (checked without overflow)
        v += d.stride;
        if (step > kOverlapMaxSteps) { out.kind = OverlapKind::kUnproven; return out; }
        q += dq;
        rem += dr;
        if (rem >= top_stride) { rem -= top_stride; ++q; }
        const int hit = k > 0 ? internal_overlap::ReachKnown(dims, k - 1, q, rem, row)
                              : internal_overlap::Reach(dims, -1, v, row, -1);
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
// The last overlap found on this thread and the inputs it was found for (the rank, the element type and the
// dims and strides, all that FindOverlap reads): the check remembers what it finds, so that the finding's message
// and fix, made right after by the report, do not search again. Per thread, so Validate stays thread-safe.
struct OverlapMemo {
  bool set = false;
  uint32_t rank = 0;
  DataType data_type = DataType::kUint8;
  std::array<uint64_t, kMaxRank> global_dim{};
  std::array<uint64_t, kMaxRank - 1> global_strides{};
  Overlap found;
};
inline OverlapMemo& ThreadOverlapMemo() {
  static thread_local OverlapMemo memo;
  return memo;
}
inline void RememberOverlap(const TensorMapSpec& s, const Overlap& ov) {
  OverlapMemo& m = ThreadOverlapMemo();
  m.set = true;
  m.rank = s.rank;
  m.data_type = s.data_type;
  m.global_dim = s.global_dim;
  m.global_strides = s.global_strides;
  m.found = ov;
}
// FindOverlap(s), from the memo when it holds the same inputs.
inline Overlap FindOverlapRemembered(const TensorMapSpec& s) {
  const OverlapMemo& m = ThreadOverlapMemo();
  if (m.set && m.rank == s.rank && m.data_type == s.data_type && m.global_dim == s.global_dim &&
      m.global_strides == s.global_strides)
    return m.found;
  const Overlap ov = FindOverlap(s);
  RememberOverlap(s, ov);
  return ov;
}
inline void CheckStrideOverlap(const CheckContext& c, uint16_t r, FindingList* o) {
  if (Rank(c.spec) < 2) return;
  const Overlap ov = FindOverlap(c.spec);
  if (ov.kind != OverlapKind::kNone) {
    RememberOverlap(c.spec, ov);
    o->AddU(r, ov.dim - 1, c.spec.global_strides[ov.dim - 1], ov.other);
  }
}
void MsgStrideOverlap(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixStrideOverlap(const TensorMapSpec& s, const Finding& f, TextOut& o);

// ---- global address ----
inline void CheckAddrAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldGlobalAddress) && c.spec.global_address % 16 != 0)
    o->Add(r, -1, static_cast<int64_t>(c.spec.global_address % 16), 16);
}
void MsgAddrAlign16(const TensorMapSpec& s, const Finding&, TextOut& o);
void FixAddrAlign(const TensorMapSpec& s, const Finding& f, TextOut& o);
inline void CheckAddrAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && NeedsStride32(s) && s.global_address % 16 == 0 && s.global_address % 32 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 32), 32);
}
void MsgAddrAlign32(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckAddrAlign128Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && s.swizzle != Swizzle::kNone && s.global_address % 16 == 0 &&
      s.global_address % 128 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 128), 128);
}
void MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&, TextOut& o);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_STRIDES_ADDRESS_H_
