#include "src/desc/smem_descriptor.h"

#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

constexpr BitField kWgmmaFields[] = {wgmma_field::kStart, wgmma_field::kLbo, wgmma_field::kSbo,
                                     wgmma_field::kBaseOffset, wgmma_field::kLayout};
constexpr BitField kTcgen05Fields[] = {tcgen05_field::kStart,      tcgen05_field::kLbo,     tcgen05_field::kSbo,
                                       tcgen05_field::kVersion,    tcgen05_field::kBaseOffset,
                                       tcgen05_field::kLboMode,    tcgen05_field::kFixed53, tcgen05_field::kLayout};

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// Elements to text in canonical-layout strings: a stride in bytes expressed in elements.
std::string Elems(uint64_t bytes, int bits) {
  if (bits <= 0) return StrCat(bytes, "B");
  const uint64_t b = bytes * 8;
  if (b % static_cast<uint64_t>(bits) != 0) return StrCat(bytes, "B");
  return StrCat(b / static_cast<uint64_t>(bits));
}

}  // namespace

const BitField* DescFields(DescArch a, int* n) {
  if (a == DescArch::kWgmma) {
    *n = static_cast<int>(sizeof(kWgmmaFields) / sizeof(kWgmmaFields[0]));
    return kWgmmaFields;
  }
  *n = static_cast<int>(sizeof(kTcgen05Fields) / sizeof(kTcgen05Fields[0]));
  return kTcgen05Fields;
}

uint64_t ReservedMask(DescArch a) {
  int n = 0;
  const BitField* f = DescFields(a, &n);
  uint64_t used = 0;
  for (int i = 0; i < n; ++i) used |= FieldMask(f[i]);
  return ~used;
}

SmemDesc SmemDesc::Empty(DescArch arch) {
  SmemDesc d(arch, 0);
  if (arch == DescArch::kTcgen05) d.set_version(1);
  return d;
}

uint32_t SmemDesc::layout_type() const {
  return static_cast<uint32_t>(
      FieldGet(bits_, arch_ == DescArch::kWgmma ? wgmma_field::kLayout : tcgen05_field::kLayout));
}
bool SmemDesc::lbo_absolute() const {
  return arch_ == DescArch::kTcgen05 && FieldGet(bits_, tcgen05_field::kLboMode) != 0;
}
uint32_t SmemDesc::version() const { return static_cast<uint32_t>(FieldGet(bits_, tcgen05_field::kVersion)); }
uint32_t SmemDesc::fixed_zero() const { return static_cast<uint32_t>(FieldGet(bits_, tcgen05_field::kFixed53)); }

void SmemDesc::set_layout_type(uint32_t v) {
  bits_ = FieldSet(bits_, arch_ == DescArch::kWgmma ? wgmma_field::kLayout : tcgen05_field::kLayout, v);
}
void SmemDesc::set_swizzle(DescSwizzle s) {
  const int v = LayoutTypeValue(arch_, s);
  if (v >= 0) set_layout_type(static_cast<uint32_t>(v));
}
void SmemDesc::set_lbo_absolute(bool on) {
  if (arch_ == DescArch::kTcgen05) bits_ = FieldSet(bits_, tcgen05_field::kLboMode, on ? 1 : 0);
}
void SmemDesc::set_version(uint32_t v) {
  if (arch_ == DescArch::kTcgen05) bits_ = FieldSet(bits_, tcgen05_field::kVersion, v);
}

LayoutFacts ComputeLayoutFacts(const OperandLayout& l) {
  LayoutFacts f;
  f.elem_bits = ElemBits(l.type);
  f.smem_bits = SmemBits(l.type, l.padded);
  f.t = 128 / f.smem_bits;
  f.row_bytes = RowBytes(l.swizzle);
  f.repeat_bytes = RepeatBytes(l.swizzle);
  f.atom_rows = AtomRows(l.swizzle, l.major);
  const uint64_t bits = static_cast<uint64_t>(f.smem_bits);
  if (l.major == Major::kK) {
    f.contiguous_bytes = CeilDiv(uint64_t{l.k} * bits, 8);
    f.strided_extent = l.mn;
  } else {
    f.contiguous_bytes = CeilDiv(uint64_t{l.mn} * bits, 8);
    f.strided_extent = l.k;
  }
  const uint64_t row = static_cast<uint64_t>(f.row_bytes);
  f.slabs = static_cast<uint32_t>(CeilDiv(f.contiguous_bytes, row));
  f.slab_bytes = uint64_t{f.strided_extent} * row;
  f.footprint_bytes = uint64_t{f.slabs} * f.slab_bytes;

  const bool swizzled = l.swizzle != DescSwizzle::kNone;
  if (l.major == Major::kK) {
    if (swizzled) {
      f.canonical_sbo = 8 * row;
      f.canonical_lbo = 16;  // "not used, assumed to be 1" (16-byte units)
      f.lbo_used = false;
    } else {
      f.canonical_sbo = 8 * 16;
      f.canonical_lbo = f.slab_bytes;
    }
  } else {
    if (swizzled) {
      f.canonical_sbo = static_cast<uint64_t>(f.atom_rows) * row;
      f.canonical_lbo = f.slab_bytes;
    } else {
      f.canonical_lbo = 8 * 16;
      f.canonical_sbo = f.slab_bytes;
    }
  }
  // The absolute-address mode (tcgen05, sm_103a) puts the byte address of the second K chunk in the
  // LBO field; it is the user's to give.
  f.lbo = l.has_lbo ? l.lbo : f.canonical_lbo;
  f.sbo = l.has_sbo ? l.sbo : f.canonical_sbo;
  if (l.lbo_absolute) f.lbo_used = true;

  f.mma_k = l.mma_k != 0 ? l.mma_k : static_cast<uint32_t>(256 / f.smem_bits);
  f.kstep_bytes = static_cast<uint32_t>(CeilDiv(uint64_t{f.mma_k} * bits, 8));
  f.kstep_rows = f.mma_k;
  f.k_slices = f.mma_k == 0 ? 0 : l.k / f.mma_k;
  f.base_offset = f.repeat_bytes == 0 ? 0 : static_cast<int>((l.smem_address % static_cast<uint64_t>(f.repeat_bytes)) / 128);
  f.start_line = l.smem_address & ~uint64_t{127};
  return f;
}

SmemDesc BuildSmemDesc(const OperandLayout& l, const LayoutFacts& f) {
  SmemDesc d = SmemDesc::Empty(l.arch);
  d.set_start_bytes(l.smem_address);
  d.set_lbo_bytes(f.lbo);
  d.set_sbo_bytes(f.sbo);
  uint32_t bo = 0;
  if (l.has_base_offset) bo = l.base_offset;
  else if (l.swizzle != DescSwizzle::kNone) bo = static_cast<uint32_t>(f.base_offset);
  d.set_base_offset(bo);
  d.set_swizzle(l.swizzle);
  if (l.lbo_absolute) d.set_lbo_absolute(true);
  return d;
}

CanonicalLayout DescribeCanonical(DescArch arch, Major major, DescSwizzle s, int smem_bits, uint64_t lbo,
                                  uint64_t sbo, uint32_t m, uint32_t k) {
  (void)arch;
  CanonicalLayout c;
  c.cute_swizzle = std::string(CuteSwizzle(s));
  const int w = RowBytes(s) / 16;  // 16-byte columns per atom row
  const int t = smem_bits > 0 ? 128 / smem_bits : 0;
  const std::string ts = t > 0 ? StrCat(t) : std::string("T");
  const std::string ms = m > 0 ? StrCat(m) : std::string("m");
  const std::string ks = k > 0 ? StrCat(k) : std::string("k");
  const std::string k2 = k > 0 ? StrCat(2 * k) : std::string("2k");
  const std::string L = Elems(lbo, smem_bits), S = Elems(sbo, smem_bits);
  auto times = [&](int mult) { return t > 0 ? StrCat(mult * t) : (mult == 1 ? std::string("1T") : StrCat(mult, "T")); };
  const int rows = AtomRows(s, major);
  if (s == DescSwizzle::kNone) {
    c.atom = major == Major::kK ? "one core matrix: 8 rows x 16 B (8x1 of 128-bit elements), contiguous 128 B"
                                : "one core matrix: 8 K-rows x 16 B along M/N (1x8 of 128-bit elements), contiguous 128 B";
  } else {
    c.atom = StrCat(rows, " rows x ", RowBytes(s), " B (", major == Major::kK ? StrCat(8, "x", w) : StrCat(w, "x", rows),
                 " of 128-bit elements, ", major == Major::kK ? "M/N x K" : "M/N x K", "), ", AtomicityBytes(s),
                 "-byte atomicity, pattern repeats every ", RepeatBytes(s), " B");
  }
  if (major == Major::kK) {
    if (s == DescSwizzle::k128BAtom32B) {
      c.defined = false;
      c.generic = "(none: 128B with 32-byte atomicity has no K-major layout)";
      c.instantiated = c.generic;
      c.lbo_meaning = "undefined";
      c.sbo_meaning = "undefined";
      return c;
    }
    if (s == DescSwizzle::kNone) {
      c.generic = "((8,m),(T,2k)):((1T,SBO),(1,LBO))";
      c.instantiated = StrCat("((8,", ms, "),(", ts, ",", k2, ")):((", times(1), ",", S, "),(1,", L, "))");
      c.lbo_meaning = "byte offset between the two core matrices along K (first to second 16-byte column)";
      c.sbo_meaning = "byte offset between 8-row groups along M/N";
    } else {
      c.generic = StrCat("((8,m),(T,2k)):((", w, "T,SBO),(1,T))");
      c.instantiated = StrCat("((8,", ms, "),(", ts, ",", k2, ")):((", times(w), ",", S, "),(1,", ts, "))");
      c.lbo_meaning = "not used by swizzled K-major layouts (assumed 1, i.e. 16 B)";
      c.sbo_meaning = "byte offset between 8-row groups along M/N";
    }
  } else {
    if (s == DescSwizzle::kNone) {
      c.generic = "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))";
      c.instantiated = StrCat("((", ts, ",1,", ms, "),(8,", ks, ")):((1,", ts, ",", S, "),(", times(1), ",", L, "))");
      c.lbo_meaning = "byte offset between 8-row groups along K";
      c.sbo_meaning = "byte offset between 16-byte core-matrix columns along M/N";
    } else if (s == DescSwizzle::k128BAtom32B) {
      c.generic = "((T,8,m),(4,k)):((1,T,LBO),(8T,SBO))";
      c.instantiated = StrCat("((", ts, ",8,", ms, "),(4,", ks, ")):((1,", ts, ",", L, "),(", times(8), ",", S, "))");
      c.lbo_meaning = "byte offset between 128-byte swizzle atoms along M/N";
      c.sbo_meaning = "byte offset between 4-row groups along K";
    } else {
      c.generic = StrCat("((T,", w, ",m),(8,k)):((1,T,LBO),(", w, "T,SBO))");
      c.instantiated = StrCat("((", ts, ",", w, ",", ms, "),(8,", ks, ")):((1,", ts, ",", L, "),(", times(w), ",", S, "))");
      c.lbo_meaning = StrCat("byte offset between ", RowBytes(s), "-byte swizzle atoms along M/N");
      c.sbo_meaning = "byte offset between 8-row groups along K";
    }
  }
  return c;
}

uint64_t CanonicalOffset(Major major, DescSwizzle s, uint64_t lbo, uint64_t sbo, uint64_t slab_pitch,
                         uint32_t strided, uint64_t contig_byte) {
  const uint64_t r = strided;
  if (major == Major::kK) {
    if (s == DescSwizzle::kNone) return (r / 8) * sbo + (r % 8) * 16 + (contig_byte / 16) * lbo + contig_byte % 16;
    const uint64_t row = static_cast<uint64_t>(RowBytes(s));
    return (contig_byte / row) * slab_pitch + (r / 8) * sbo + (r % 8) * row + contig_byte % row;
  }
  if (s == DescSwizzle::kNone) return (contig_byte / 16) * sbo + contig_byte % 16 + (r / 8) * lbo + (r % 8) * 16;
  const uint64_t row = static_cast<uint64_t>(RowBytes(s));
  const uint64_t ar = static_cast<uint64_t>(AtomRows(s, major));
  return (contig_byte / row) * lbo + contig_byte % row + (r / ar) * sbo + (r % ar) * row;
}

uint64_t ApplyMapSwizzle(Swizzle s, uint64_t a) {
  switch (s) {
    case Swizzle::kNone: return a;
    case Swizzle::k32B: return a ^ (((a >> 7) & 1) << 4);
    case Swizzle::k64B: return a ^ (((a >> 7) & 3) << 4);
    case Swizzle::k128B: return a ^ (((a >> 7) & 7) << 4);
    case Swizzle::k128BAtom32B: return a ^ (((a >> 7) & 3) << 5);
    case Swizzle::k128BAtom32BFlip8B: {
      const uint64_t b = a ^ (((a >> 7) & 3) << 5);
      return b ^ (((a >> 7) & 1) << 3);
    }
    case Swizzle::k128BAtom64B: return a ^ (((a >> 7) & 1) << 6);
  }
  return a;
}

uint64_t ApplyDescSwizzle(DescSwizzle s, uint64_t linear, uint64_t start_line, uint32_t base_offset) {
  const uint64_t row = ((linear - start_line) >> 7) + base_offset;
  switch (s) {
    case DescSwizzle::kNone: return linear;
    case DescSwizzle::k32B: return linear ^ ((row & 1) << 4);
    case DescSwizzle::k64B: return linear ^ ((row & 3) << 4);
    case DescSwizzle::k128B: return linear ^ ((row & 7) << 4);
    case DescSwizzle::k128BAtom32B: return linear ^ ((row & 3) << 5);
  }
  return linear;
}

namespace {

uint64_t SlabPitch(const OperandLayout& l, const SmemDesc& d) {
  // Distance between atom-wide slabs of a swizzled K-major tile: every 8-row group of the tile.
  return CeilDiv(l.mn, 8) * d.sbo_bytes();
}

Advance Finish(const OperandLayout& l, const LayoutFacts& f, const SmemDesc& base, uint64_t delta, bool exact) {
  Advance a;
  a.delta_bytes = static_cast<int64_t>(delta);
  a.aligned_16 = exact && delta % 16 == 0;
  a.start_bytes = base.start_bytes() + delta;
  a.field_overflow = a.start_bytes > kMaxFieldBytes;
  DescSwizzle sw = l.swizzle;
  if (!base.swizzle(&sw)) sw = l.swizzle;
  const uint64_t mask = static_cast<uint64_t>(BaseOffsetMask(sw));
  const uint64_t old_line = base.start_bytes() & ~uint64_t{127};
  const uint64_t new_line = a.start_bytes & ~uint64_t{127};
  a.base_offset = sw == DescSwizzle::kNone
                      ? base.base_offset()
                      : static_cast<uint32_t>((base.base_offset() + ((new_line - old_line) >> 7)) & mask);
  a.base_offset_changed = a.base_offset != base.base_offset();
  a.inside_tile = delta < f.footprint_bytes;
  a.desc = base;
  a.desc.set_start_bytes(a.start_bytes);
  a.desc.set_base_offset(a.base_offset);
  return a;
}

}  // namespace

Advance AdvanceKSlice(const OperandLayout& l, const LayoutFacts& f, const SmemDesc& base, uint32_t k_slice) {
  uint64_t delta = 0;
  if (l.major == Major::kK) {
    delta = CanonicalOffset(l.major, l.swizzle, base.lbo_bytes(), base.sbo_bytes(), SlabPitch(l, base), 0,
                            uint64_t{k_slice} * f.kstep_bytes);
  } else {
    delta = CanonicalOffset(l.major, l.swizzle, base.lbo_bytes(), base.sbo_bytes(), 0, k_slice * f.kstep_rows, 0);
  }
  return Finish(l, f, base, delta, true);
}

Advance AdvanceSubTile(const OperandLayout& l, const LayoutFacts& f, const SmemDesc& base, uint32_t mn_offset,
                       uint32_t k_offset) {
  const uint64_t bits = static_cast<uint64_t>(f.smem_bits);
  uint64_t delta = 0;
  bool exact = true;
  if (l.major == Major::kK) {
    exact = (uint64_t{k_offset} * bits) % 8 == 0;
    delta = CanonicalOffset(l.major, l.swizzle, base.lbo_bytes(), base.sbo_bytes(), SlabPitch(l, base), mn_offset,
                            uint64_t{k_offset} * bits / 8);
  } else {
    exact = (uint64_t{mn_offset} * bits) % 8 == 0;
    delta = CanonicalOffset(l.major, l.swizzle, base.lbo_bytes(), base.sbo_bytes(), 0, k_offset,
                            uint64_t{mn_offset} * bits / 8);
  }
  return Finish(l, f, base, delta, exact);
}

}  // namespace tmapgen::desc
