// strides_address.cc: messages, fixes, patches and field paths of the rules about global strides and the
//   global address (strides_address.h).
#include "src/tmap/rules/strides_address.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/tmap/derived_facts.h"
#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- global strides ----
namespace {
RuleText Why32(const TensorMapSpec& s) {
  return s.interleave == Interleave::k32B ? std::string("with CU_TENSOR_MAP_INTERLEAVE_32B")
                                          : TextCat("with ", FullName(s.data_type));
}
}  // namespace
void MsgStrideAlign16(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "global_strides[", f.index, "] = ", f.uvalue(), " B is not a multiple of 16 bytes");
}
namespace {
// Strides not given: they are the dense tensor's (FillDenseStrides), and its row pitch is what the driver
// refuses. A padded pitch in place of it would describe another tensor (rows read skewed), so the fix says
// what padding means (the allocation's rows) and the other way out (a tensor whose rows need no padding).
struct PaddedDense {
  uint64_t row = 0;    // the dense row: global_dim[0] x element size
  uint64_t pitch = 0;  // the row rounded up to the required multiple
  std::array<uint64_t, kMaxRank - 1> strides{};  // the strides of the padded tensor
};
PaddedDense PadDense(const TensorMapSpec& s, uint64_t m) {
  PaddedDense p;
  p.row = RowBytes(s);
  p.pitch = RoundUpTo(p.row, m);
  uint64_t st = p.pitch;
  for (uint32_t i = 0; i + 1 < Rank(s); ++i) {
    if (i > 0 && __builtin_mul_overflow(st, s.global_dim[i], &st)) st = UINT64_MAX;
    p.strides[i] = st;
  }
  return p;
}
std::string StrideList(const PaddedDense& p, uint32_t n) {
  std::string o = "[";
  for (uint32_t i = 0; i < n; ++i) o += StrCat(i ? ", " : "", p.strides[i]);
  return o + "]";
}
void FixDenseDefault(const TensorMapSpec& s, const Finding& f, uint64_t m, TextOut& o) {
  const PaddedDense p = PadDense(s, m);
  const uint32_t n = Rank(s) > 0 ? Rank(s) - 1 : 0;
  const uint64_t bits = static_cast<uint64_t>(DataTypeBits(s.data_type));
  // Elements per row that make a whole number of m-byte units: lcm(8 m, bits) / bits.
  uint64_t a = 8 * m, b = bits;
  while (b != 0) { const uint64_t r = a % b; a = b; b = r; }
  const uint64_t unit = 8 * m / a;  // = lcm(8 m, bits) / bits
  const uint64_t g = s.global_dim[0];
  const uint64_t below = g / unit * unit, above = RoundUpTo(g, unit);
  const uint64_t pitch_elems = p.pitch * 8 / bits;
  const bool first = f.index == 0;
  return TextAppend(&o, "no global_strides were given, so they are the dense tensor's: ",
                    When(first, "global_dim[0] = ", g, " elements of ", ShortName(s.data_type), " = ", p.row,
                         " B per row"),
                    When(!first, "global_strides[", f.index, "] = ", f.uvalue(), " B, the ", p.row,
                         "-byte row times the dimensions below it"),
                    ", and a stride must be a multiple of ", m, " bytes. Either pad the allocation's rows to ", p.pitch,
                    " B (", pitch_elems, " elements) and pass the strides explicitly: global_strides ", StrideList(p, n),
                    When(below > 0, ", or use a tensor whose rows need no padding: global_dim[0] = ", below,
                         " (the widest below ", g, ") or ", above,
                         "; a narrower view inside this same allocation keeps its ", p.row, "-byte pitch"),
                    When(below == 0, " (no narrower row is a multiple of ", m, " bytes)"));
}
}  // namespace
void FixStrideAlign16(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint64_t m = NeedsStride32(s) ? 32 : 16;
  if (HasDenseDefaultStrides(s)) return FixDenseDefault(s, f, m, o);
  return TextAppend(&o, "pad global_strides[", f.index, "] from ", f.uvalue(), " to ",
             RoundUpTo(f.uvalue(), m), " bytes");
}
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s) {
  const uint64_t m = NeedsStride32(*s) ? 32 : 16;
  if (HasDenseDefaultStrides(*s)) {
    // The dense default becomes the padded tensor's strides, all of them (rounding each product on its own
    // would make the dimensions overlap), given explicitly: the repair means padding the allocation.
    s->global_strides = PadDense(*s, m).strides;
    s->set_fields |= kFieldGlobalStrides;
    return true;
  }
  if (s->global_strides[f.index] != f.uvalue()) return false;  // already repaired this round (the padded tensor)
  s->global_strides[f.index] = RoundUpTo(f.uvalue(), m);
  return true;
}
void MsgStrideAlign32(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "global_strides[", f.index, "] = ", f.uvalue(), " B is not a multiple of 32 bytes, required ", Why32(s));
}
void FixStrideAlign32(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (HasDenseDefaultStrides(s)) return FixDenseDefault(s, f, 32, o);
  return TextAppend(&o, "pad global_strides[", f.index, "] from ", f.uvalue(), " to ", RoundUpTo(f.uvalue(), 32),
             " bytes");
}
void MsgStrideMax(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "global_strides[", f.index, "] = ", f.uvalue(), " B is not below 2^40 = 1099511627776 bytes");
}
namespace {
// A legal stride for global_strides[i] when dimension i + 1 has extent 1 (the stride is never used: the only
// coordinate inside the tensor is 0): the dense value (the pitch of the dimension below, rounded up to the
// stride granule for dimension 1), or 0 when that is not a legal stride. The driver checks the unused stride
// (a stride >= 2^40 on an extent-1 dimension was rejected in 12 of 12 corpus maps it alone broke) and accepts
// 0 (docs/hardware.md D1 and the extent-1 strides of the driver corpus).
uint64_t UnusedStrideValue(const TensorMapSpec& s, uint32_t i) {
  const uint64_t m = NeedsStride32(s) ? 32 : 16;
  uint64_t dense;
  if (i == 0) {
    dense = RoundUpTo(RowBytes(s), m);
    if (dense < RowBytes(s)) return 0;  // wrapped
  } else if (__builtin_mul_overflow(s.global_strides[i - 1], s.global_dim[i], &dense)) {
    return 0;
  }
  return dense % m == 0 && dense < k2Pow40 ? dense : 0;
}
bool UnusedStride(const TensorMapSpec& s, const Finding& f) {
  const uint32_t d = static_cast<uint32_t>(f.index) + 1;
  return d < Rank(s) && s.global_dim[d] == 1;
}
}  // namespace
void FixStrideMax(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (UnusedStride(s, f)) {
    // Usually a 32-bit overflow in the code that computed a stride nothing reads.
    const uint64_t v = UnusedStrideValue(s, static_cast<uint32_t>(f.index));
    return TextAppend(&o, "global_dim[", f.index + 1, "] = 1, so this stride never addresses anything (coordinate 0 is "
                      "the only one inside the tensor), but the driver still checks it: set global_strides[", f.index,
                      "] = ", v, When(v != 0, " (the dense value) or 0"), When(v == 0, " (the dense value is no legal stride here)"),
                      "; the driver accepts 0 (docs/hardware.md D1 and the driver corpus)");
  }
  return TextAppend(&o, "strides must stay below 2^40 B: map the tensor in pieces, each with its own global_address, "
             "so that dimension ", f.index + 1, " spans less than 1 TiB per step");
}
bool PatchStrideMax(const Finding& f, TensorMapSpec* s) {
  if (!UnusedStride(*s, f)) return false;
  s->global_strides[f.index] = UnusedStrideValue(*s, static_cast<uint32_t>(f.index));
  return true;
}
void MsgStrideOverlap(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const Overlap ov = FindOverlapRemembered(s);
  const int d = ov.dim;
  // What the overlap does, as two When pieces of the literals: a const char* chosen first would be measured by
  // strlen, and a view chosen at run time copied by a call to memcpy (both are longer than Copy's 32 bytes).
  const bool stores = IsStoreLike(s.direction);
  const auto store_effect = When(stores, "stores and reductions write the same bytes more than once");
  const auto load_effect = When(!stores, "loads read the same bytes for different positions");
  switch (ov.kind) {
    case OverlapKind::kBroadcast:
      return TextAppend(&o, "global_strides[", d - 1, "] = 0 over global_dim[", d, "] = ", s.global_dim[d], ": all ",
                    s.global_dim[d], " positions along dimension ", d, " are the same bytes (a broadcast), so ",
                    store_effect, load_effect, "; the driver accepts this (", kMeasured, ")");
    case OverlapKind::kCollision: {
      // One TextAppend (the pieces of either end of the sentence as When pieces), whose pieces are all
      // evaluated: the row and the other stride are read only where they are printed.
      const int other = ov.other;
      const uint64_t row = other == 0 ? RowBytes(s) : 0;
      const uint64_t other_stride = other > 0 ? s.global_strides[other - 1] : 0;
      return TextAppend(&o, "dimensions ", d, " and ", other, " overlap: ", ov.step, " step", When(ov.step != 1, 's'),
                        " along dimension ", d, " (global_strides[", d - 1, "] = ", f.uvalue(), " B) land",
                        When(ov.step == 1, 's'), ' ', When(other == 0, "inside a row of dimension 0 (", row, " B)"),
                        When(other != 0, "on bytes that steps along dimension ", other, " (global_strides[", other - 1,
                             "] = ", other_stride, " B) also reach"),
                        ", so ", store_effect, load_effect, "; the driver accepts this (", kMeasured, ")");
    }
    case OverlapKind::kUnproven:
      return TextAppend(&o, "dimension ", d, " (global_strides[", d - 1, "] = ", f.uvalue(), " B) interleaves with the "
                    "dimensions of smaller stride, which span ", ov.span, " B: no collision was found, but tmapgen "
                    "could not prove that none exists, and if one does, ", store_effect, load_effect);
    case OverlapKind::kNone:
      break;
  }
  return TextAppend(&o, "global_strides[", f.index, "]: no overlap");
}
void FixStrideOverlap(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const Overlap ov = FindOverlapRemembered(s);
  if (ov.kind == OverlapKind::kBroadcast)
    return TextAppend(&o, "unless the broadcast is intended, give dimension ", static_cast<int>(ov.dim),
                  " a stride of its own, or make it size 1 and repeat the copy");
  return TextAppend(&o, "unless the overlap is intended, use global_strides[", f.index, "] >= ", RoundUpTo(ov.span, 16),
                " bytes (the span of the dimensions of smaller stride), or change the order of the strides so that "
                "each covers the ones below it");
}

// ---- global address ----
void MsgAddrAlign16(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "global_address = ", Hex(s.global_address), " is not 16-byte aligned");
}
void FixAddrAlign(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  const uint64_t a = s.global_address;
  const uint64_t align = static_cast<uint64_t>(f.limit);
  const uint64_t down = a / align * align;
  const uint64_t off = a - down;
  const RuleText alloc = TextCat("allocate with at least ", align, "-byte alignment (cudaMalloc gives 256)");
  // Mapping from the aligned address below moves the tensor's start to x0 = off / element size, which is
  // only possible when that x0 is a legal coordinate: a multiple of coord0_multiple elements (16 B; 128
  // elements for the packed types), in a layout whose x0 counts elements (not interleaved).
  const DerivedFacts facts = ComputeDerivedFacts(s);
  const uint64_t bits = static_cast<uint64_t>(DataTypeBits(s.data_type));
  const uint64_t granule_bits = static_cast<uint64_t>(facts.coord0_multiple) * bits;  // bits of one x0 step
  const bool shiftable = s.interleave == Interleave::kNone && !IsIm2colMode(s.mode) && granule_bits % 8 == 0 &&
                         granule_bits > 0 && (off * 8) % granule_bits == 0;
  if (shiftable) {
    const uint64_t elements = off * 8 / bits;
    // The added elements are inside the map: what lies before each row is read (and, by stores, written)
    // where a negative x0 used to be filled.
    return TextAppend(&o, alloc, ", or map from ", Hex(down), " with global_dim[0] larger by ", elements, " elements and add ",
                  elements, " to x0 (", off, " B, a multiple of the ", granule_bits / 8, "-byte x0 step); then x0 from -",
                  elements, " to -1 reads the ", off, " B before each row (neighbouring memory) instead of the OOB fill, "
                  "and stores there write it");
  }
  const bool interleaved = s.interleave != Interleave::kNone;
  return TextAppend(&o, alloc, ", or copy the tensor to an aligned buffer: mapping from ", Hex(down), " would start it ", off,
                " B into the row, which no legal x0 reaches (",
                When(interleaved, "x0 counts whole 16- or 32-byte slices in an interleaved layout"),
                When(!interleaved, "x0 must be a multiple of ", facts.coord0_multiple, " elements (",
                     Bits(static_cast<int64_t>(granule_bits)), ") or the copy faults"),
                ")");
}
void MsgAddrAlign32(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "global_address = ", Hex(s.global_address), " is not 32-byte aligned, required ", Why32(s));
}
void MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "global_address = ", Hex(s.global_address), " is not 128-byte aligned with ", SW(s.swizzle),
             ": the Programming Guide asks for 128-byte aligned global memory when swizzling; the driver "
             "accepts 16 (", kMeasured, "), but rows then straddle 128-byte lines and every copy costs extra "
             "memory transactions");
}

}  // namespace tmapgen::rules
