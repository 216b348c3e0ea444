// rules.cc: the rule table. One row per rule; the checks, texts and patches are defined just above
// the row that uses them, grouped by the part of the spec they are about.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "src/tmap/rule.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
constexpr uint64_t k2Pow40 = uint64_t{1} << 40;

// Sources, named once.
constexpr std::string_view kSrcTiled = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled";
constexpr std::string_view kSrcIm2col = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col";
constexpr std::string_view kSrcWide = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide";
constexpr std::string_view kSrcAll = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled/Im2col/Im2colWide";
constexpr std::string_view kMeasured = "measured: H200 sm_90, driver 580.159.04 (tma-spec.md section 6)";

constexpr uint8_t kTiledLike = ModeBit(Mode::kTiled) | ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);
constexpr uint8_t kIm2colAll = ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kWide = ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kGS = ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);

uint32_t Rank(const TensorMapSpec& s) { return s.rank > kMaxRank ? kMaxRank : s.rank; }
uint64_t RoundUpTo(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

std::string Bits(int64_t bits) {
  if (bits % 8 == 0) return StrCat(bits / 8, " B");
  return StrCat(bits / 8, ".", (bits % 8) * 125, " B");
}

std::string DT(const TensorMapSpec& s) { return std::string(ShortName(s.data_type)); }
std::string SW(Swizzle w) { return std::string(FullName(w)); }

// Elements along dim 0 that make a multiple of 16 bytes: 128 / gcd(bits, 128).
uint32_t Inner16Step(int bits) {
  int a = bits, b = 128;
  while (b != 0) { int t = a % b; a = b; b = t; }
  return static_cast<uint32_t>(128 / a);
}

bool SwizzleAllowedForPacked(const TensorMapSpec& s, Swizzle w) {
  const bool wide = IsWideMode(s.mode);
  switch (s.data_type) {
    case DataType::k16U6Align16B:
      if (wide) return w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
      return w == Swizzle::kNone || w == Swizzle::k128B || w == Swizzle::k128BAtom32B || w == Swizzle::k128BAtom64B;
    case DataType::k16U4Align16B:
      if (wide) return w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
      return w == Swizzle::kNone || w == Swizzle::k128B || w == Swizzle::k128BAtom32B;
    default:
      return true;
  }
}

// ============================== rank ==============================
void CheckRankRange(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank < 1 || c.spec.rank > 5) o->Add(r, -1, c.spec.rank, 5);
}
std::string MsgRankRange(const TensorMapSpec& s, const Finding&) {
  return StrCat("tensor_rank = ", s.rank, " is outside 1..5: a ", Name(s.mode), " map has 1 to 5 dimensions");
}
std::string FixRankRange(const TensorMapSpec& s, const Finding&) {
  return s.rank == 0 ? std::string("give at least one dimension")
                     : std::string("merge contiguous dimensions until at most 5 remain");
}

void CheckIm2colRank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank < 3 || c.spec.rank > 5) o->Add(r, -1, c.spec.rank, 3);
}
std::string MsgIm2colRank(const TensorMapSpec& s, const Finding&) {
  return StrCat("tensor_rank = ", s.rank, ": ", Name(s.mode),
             " maps describe NWC, NHWC or NDHWC tensors, so the rank must be 3, 4 or 5");
}
std::string FixIm2colRank(const TensorMapSpec& s, const Finding&) {
  return s.rank < 3 ? std::string("add the missing N or W dimension (size 1 if absent)")
                    : std::string("fold extra dimensions into N");
}

void CheckInterleaveRank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave != Interleave::kNone && c.spec.rank < 3) o->Add(r, -1, c.spec.rank, 3);
}
std::string MsgInterleaveRank(const TensorMapSpec& s, const Finding&) {
  return StrCat("tensor_rank = ", s.rank, " with ", FullName(s.interleave),
             ": interleaved layouts need rank 3, 4 or 5");
}
std::string FixInterleaveRank(const TensorMapSpec&, const Finding&) {
  return "use CU_TENSOR_MAP_INTERLEAVE_NONE, or describe the tensor with at least 3 dimensions";
}
bool PatchInterleaveNone(const Finding&, TensorMapSpec* s) {
  s->interleave = Interleave::kNone;
  return true;
}

void CheckGather4Rank(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.rank != 2) o->Add(r, -1, c.spec.rank, 2);
}
std::string MsgGather4Rank(const TensorMapSpec& s, const Finding&) {
  return StrCat("tensor_rank = ", s.rank, ": ", Name(s.mode), " works on 2D tensors only (a tiled map of rank 2)");
}
std::string FixGather4Rank(const TensorMapSpec&, const Finding&) {
  return "describe the tensor as 2D: rows (dim 1) of contiguous columns (dim 0)";
}

// ============================== global dims ==============================
void CheckGlobalDimRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint64_t d = c.spec.global_dim[i];
    if (d == 0 || d > k2Pow32) o->Add(r, static_cast<int>(i), static_cast<int64_t>(d), static_cast<int64_t>(k2Pow32));
  }
}
std::string MsgGlobalDimRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return StrCat("global_dim[", f.index, "] = 0: every dimension needs at least one element");
  return StrCat("global_dim[", f.index, "] = ", f.value, " exceeds the limit of 2^32 = 4294967296 elements");
}
std::string FixGlobalDimRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return StrCat("set global_dim[", f.index, "] to at least 1");
  return StrCat("split dimension ", f.index, " into two dimensions of at most 2^32 elements each");
}
bool PatchGlobalDimRange(const Finding& f, TensorMapSpec* s) {
  s->global_dim[f.index] = f.value == 0 ? 1 : k2Pow32;
  return true;
}

void CheckGlobalDimPacked(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint64_t d = c.spec.global_dim[0];
  if (IsAlign16BPacked(c.spec.data_type) && d % 128 != 0) o->Add(r, 0, static_cast<int64_t>(d), 128);
  if (c.spec.data_type == DataType::k16U4Align8B && d % 2 != 0) o->Add(r, 0, static_cast<int64_t>(d), 2);
}
std::string MsgGlobalDimPacked(const TensorMapSpec& s, const Finding& f) {
  return StrCat("global_dim[0] = ", f.value, " is not a multiple of ", f.limit, ": ", FullName(s.data_type),
             " packs ", f.limit == 128 ? "16 values per 8 or 12 bytes and copies 128-element rows"
                                       : "two 4-bit values per byte");
}
std::string FixGlobalDimPacked(const TensorMapSpec&, const Finding& f) {
  return StrCat("pad global_dim[0] from ", f.value, " to ", RoundUpTo(static_cast<uint64_t>(f.value), f.limit),
             " elements");
}
bool PatchGlobalDimPacked(const Finding& f, TensorMapSpec* s) {
  s->global_dim[0] = RoundUpTo(static_cast<uint64_t>(f.value), static_cast<uint64_t>(f.limit));
  return true;
}

// ============================== global strides ==============================
bool NeedsStride32(const TensorMapSpec& s) {
  return s.interleave == Interleave::k32B || IsAlign16BPacked(s.data_type);
}
std::string Why32(const TensorMapSpec& s) {
  return s.interleave == Interleave::k32B ? std::string("with CU_TENSOR_MAP_INTERLEAVE_32B")
                                          : StrCat("with ", FullName(s.data_type));
}

void CheckStrideAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 != 0) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st), 16);
  }
}
std::string MsgStrideAlign16(const TensorMapSpec&, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not a multiple of 16 bytes");
}
std::string FixStrideAlign16(const TensorMapSpec& s, const Finding& f) {
  const uint64_t m = NeedsStride32(s) ? 32 : 16;
  return StrCat("pad global_strides[", f.index, "] from ", f.value, " to ",
             RoundUpTo(static_cast<uint64_t>(f.value), m), " bytes");
}
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s) {
  const uint64_t m = NeedsStride32(*s) ? 32 : 16;
  s->global_strides[f.index] = RoundUpTo(static_cast<uint64_t>(f.value), m);
  return true;
}

void CheckStrideAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!NeedsStride32(c.spec)) return;
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st % 16 == 0 && st % 32 != 0) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st), 32);
  }
}
std::string MsgStrideAlign32(const TensorMapSpec& s, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not a multiple of 32 bytes, required ", Why32(s));
}
std::string FixStrideAlign32(const TensorMapSpec&, const Finding& f) {
  return StrCat("pad global_strides[", f.index, "] from ", f.value, " to ", RoundUpTo(static_cast<uint64_t>(f.value), 32),
             " bytes");
}

void CheckStrideMax(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t st = c.spec.global_strides[i];
    if (st >= k2Pow40) o->Add(r, static_cast<int>(i), static_cast<int64_t>(std::min<uint64_t>(st, INT64_MAX)),
                              static_cast<int64_t>(k2Pow40));
  }
}
std::string MsgStrideMax(const TensorMapSpec&, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not below 2^40 = 1099511627776 bytes");
}
std::string FixStrideMax(const TensorMapSpec&, const Finding& f) {
  return StrCat("strides must stay below 2^40 B: map the tensor in pieces, each with its own global_address, "
             "so that dimension ", f.index + 1, " spans less than 1 TiB per step");
}

uint64_t RequiredStride(const TensorMapSpec& s, uint32_t i) {
  if (i == 0) return RowBytes(s);
  const uint64_t prev = s.global_strides[i - 1];
  const uint64_t d = s.global_dim[i];
  if (d != 0 && prev > UINT64_MAX / d) return UINT64_MAX;
  return prev * d;
}
void CheckStrideOverlap(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i + 1 < Rank(c.spec); ++i) {
    const uint64_t need = RequiredStride(c.spec, i);
    const uint64_t st = c.spec.global_strides[i];
    if (st < need) o->Add(r, static_cast<int>(i), static_cast<int64_t>(st),
                          static_cast<int64_t>(std::min<uint64_t>(need, INT64_MAX)));
  }
}
std::string MsgStrideOverlap(const TensorMapSpec& s, const Finding& f) {
  std::string what = f.index == 0 ? StrCat("one row of global_dim[0] = ", s.global_dim[0], " ", DT(s), " elements")
                                  : StrCat("global_strides[", f.index - 1, "] x global_dim[", f.index, "]");
  std::string effect = IsStoreLike(s.direction)
                           ? "stores and reductions write the same bytes more than once"
                           : "loads read overlapping rows (a broadcast when the stride is 0)";
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is smaller than ", what, " = ", f.limit,
             " B: dimensions overlap, so ", effect, "; the driver accepts this (", kMeasured, ")");
}
std::string FixStrideOverlap(const TensorMapSpec&, const Finding& f) {
  return StrCat("use global_strides[", f.index, "] >= ", RoundUpTo(static_cast<uint64_t>(f.limit), 16),
             " bytes unless the overlap is intended");
}

// ============================== global address ==============================
void CheckAddrAlign16(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldGlobalAddress) && c.spec.global_address % 16 != 0)
    o->Add(r, -1, static_cast<int64_t>(c.spec.global_address % 16), 16);
}
std::string MsgAddrAlign16(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 16-byte aligned");
}
std::string FixAddrAlign(const TensorMapSpec& s, const Finding& f) {
  const uint64_t a = s.global_address;
  const uint64_t down = a / static_cast<uint64_t>(f.limit) * static_cast<uint64_t>(f.limit);
  return StrCat("allocate with at least ", f.limit, "-byte alignment (cudaMalloc gives 256), or map from ", Hex(down),
             " and add ", (a - down), " B to the coordinates' byte offset");
}

void CheckAddrAlign32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && NeedsStride32(s) && s.global_address % 16 == 0 && s.global_address % 32 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 32), 32);
}
std::string MsgAddrAlign32(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 32-byte aligned, required ", Why32(s));
}

void CheckAddrAlign128Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.Has(kFieldGlobalAddress) && s.swizzle != Swizzle::kNone && s.global_address % 16 == 0 &&
      s.global_address % 128 != 0)
    o->Add(r, -1, static_cast<int64_t>(s.global_address % 128), 128);
}
std::string MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 128-byte aligned with ", SW(s.swizzle),
             ": the Programming Guide asks for 128-byte aligned global memory when swizzling; the driver "
             "accepts 16 (", kMeasured, "), but rows then straddle 128-byte lines and every copy costs extra "
             "memory transactions");
}

// ============================== box ==============================
void CheckBoxRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint32_t b = c.spec.box_dim[i];
    if (b == 0 || b > 256) o->Add(r, static_cast<int>(i), b, 256);
  }
}
std::string MsgBoxRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return StrCat("box_dim[", f.index, "] = 0: a box has at least one element per dimension");
  return StrCat("box_dim[", f.index, "] = ", f.value, " exceeds 256 elements, the largest box extent");
}
std::string FixBoxRange(const TensorMapSpec&, const Finding& f) {
  if (f.value == 0) return StrCat("set box_dim[", f.index, "] to at least 1");
  return StrCat("use box_dim[", f.index, "] = 256 and ", (f.value + 255) / 256, " copies along dimension ", f.index);
}
bool PatchBoxRange(const Finding& f, TensorMapSpec* s) {
  s->box_dim[f.index] = f.value == 0 ? 1 : 256;
  return true;
}

void CheckBoxInner16(const CheckContext& c, uint16_t r, FindingList* o) {
  const int64_t bits = static_cast<int64_t>(c.spec.box_dim[0]) * c.facts.element_bits;
  if (bits % 128 != 0) o->Add(r, 0, bits, 128);
}
std::string MsgBoxInner16(const TensorMapSpec& s, const Finding& f) {
  return StrCat("box_dim[0] = ", s.box_dim[0], " x ", DT(s), " = ", Bits(f.value),
             " is not a multiple of 16 bytes, as every box row must be");
}
uint32_t NearestInner16(const TensorMapSpec& s) {
  const uint32_t step = Inner16Step(DataTypeBits(s.data_type));
  uint32_t up = (s.box_dim[0] + step - 1) / step * step;
  if (up == 0) up = step;
  const uint32_t down = s.box_dim[0] / step * step;
  if (up > 256 && down > 0) return down;
  return up;
}
std::string FixBoxInner16(const TensorMapSpec& s, const Finding&) {
  const uint32_t n = NearestInner16(s);
  return StrCat("use box_dim[0] = ", n, " (", Bits(static_cast<int64_t>(n) * DataTypeBits(s.data_type)),
             "); elements past the tensor's edge are filled, not read");
}
bool PatchBoxInner16(const Finding&, TensorMapSpec* s) {
  s->box_dim[0] = NearestInner16(*s);
  return true;
}

void CheckBoxPacked128(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAlign16BPacked(c.spec.data_type) && c.spec.box_dim[0] != 128) o->Add(r, 0, c.spec.box_dim[0], 128);
}
std::string MsgBoxPacked128(const TensorMapSpec& s, const Finding& f) {
  return StrCat("box_dim[0] = ", f.value, ": ", FullName(s.data_type), " copies rows of exactly 128 elements");
}
std::string FixBoxPacked128(const TensorMapSpec&, const Finding&) { return "set box_dim[0] = 128"; }
bool PatchBoxPacked128(const Finding&, TensorMapSpec* s) {
  s->box_dim[0] = 128;
  return true;
}

void CheckBoxExceedsTensor(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint64_t d = c.spec.global_dim[i];
    if (d != 0 && c.spec.box_dim[i] > d) o->Add(r, static_cast<int>(i), c.spec.box_dim[i], static_cast<int64_t>(d));
  }
}
std::string MsgBoxExceedsTensor(const TensorMapSpec& s, const Finding& f) {
  return StrCat("box_dim[", f.index, "] = ", f.value, " is larger than global_dim[", f.index, "] = ", f.limit,
             ": every copy fills ", f.value - f.limit, " elements per row with ",
             s.oob_fill == OobFill::kNone ? "zeros" : "OOB-NaN", " and still counts them in the transaction bytes");
}
std::string FixBoxExceedsTensor(const TensorMapSpec&, const Finding& f) {
  return StrCat("box_dim[", f.index, "] = ", f.limit, " moves only real data, if the consumer allows it");
}

void CheckGather4BoxRows(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.box_dim[1] != 1) o->Add(r, 1, c.spec.box_dim[1], 1);
}
std::string MsgGather4BoxRows(const TensorMapSpec& s, const Finding& f) {
  return StrCat("box_dim[1] = ", f.value, ": in ", Name(s.mode), " mode each of the four rows is its own box, "
             "so the box is one row high");
}
std::string FixGather4BoxRows(const TensorMapSpec&, const Finding&) {
  return "set box_dim[1] = 1; the instruction's four row indices choose the rows";
}
bool PatchGather4BoxRows(const Finding&, TensorMapSpec* s) {
  s->box_dim[1] = 1;
  return true;
}

// ============================== element strides ==============================
void CheckElementStrideRange(const CheckContext& c, uint16_t r, FindingList* o) {
  for (uint32_t i = 0; i < Rank(c.spec); ++i) {
    const uint32_t e = c.spec.element_strides[i];
    if (e == 0 || e > 8) o->Add(r, static_cast<int>(i), e, 8);
  }
}
std::string MsgElementStrideRange(const TensorMapSpec&, const Finding& f) {
  return StrCat("element_strides[", f.index, "] = ", f.value, " is outside 1..8");
}
std::string FixElementStrideRange(const TensorMapSpec&, const Finding& f) {
  return StrCat("use element_strides[", f.index, "] = ", f.value == 0 ? 1 : 8,
             f.value > 8 ? "; for larger steps describe a coarser dimension with a larger global stride" : "");
}
bool PatchElementStrideRange(const Finding& f, TensorMapSpec* s) {
  s->element_strides[f.index] = f.value == 0 ? 1 : 8;
  return true;
}

void CheckElementStrideDim0(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t e = c.spec.element_strides[0];
  if (c.spec.interleave == Interleave::kNone && Rank(c.spec) >= 1 && e >= 2 && e <= 8) o->Add(r, 0, e, 1);
}
std::string MsgElementStrideDim0(const TensorMapSpec&, const Finding& f) {
  return StrCat("element_strides[0] = ", f.value,
             " is ignored without interleave: the innermost dimension is always copied contiguously (cuda.h: "
             "\"the first element of this array is ignored\"; PTX ISA 5.5.3.2: it \"must always be 1\")");
}
std::string FixElementStrideDim0(const TensorMapSpec&, const Finding&) {
  return "set element_strides[0] = 1; to skip elements of dimension 0, use an interleaved layout or copy and "
         "discard";
}
bool PatchElementStrideDim0(const Finding&, TensorMapSpec* s) {
  s->element_strides[0] = 1;
  return true;
}

// ============================== swizzle ==============================
std::string_view InnerName(const TensorMapSpec& s) {
  return IsIm2colMode(s.mode) ? "channels_per_pixel" : "box_dim[0]";
}
uint32_t InnerCount(const TensorMapSpec& s) { return IsIm2colMode(s.mode) ? s.channels_per_pixel : s.box_dim[0]; }

void CheckSwizzleSpan(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.interleave != Interleave::kNone || s.swizzle == Swizzle::kNone) return;
  if (c.facts.inner_box_bytes > c.facts.swizzle_span)
    o->Add(r, -1, static_cast<int64_t>(c.facts.inner_box_bytes), c.facts.swizzle_span);
}
std::string MsgSwizzleSpan(const TensorMapSpec& s, const Finding& f) {
  return StrCat(InnerName(s), " = ", InnerCount(s), " x ", DT(s), " = ", f.value, " B exceeds the ", f.limit,
             " B swizzle span of ", SW(s.swizzle), ": the inner box dimension must fit in one span");
}
std::string FixSwizzleSpan(const TensorMapSpec& s, const Finding& f) {
  const uint64_t fit = static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(DataTypeSmemBits(s.data_type));
  const uint64_t copies = (static_cast<uint64_t>(f.value) + static_cast<uint64_t>(f.limit) - 1) / static_cast<uint64_t>(f.limit);
  std::string alt = f.limit < 128 ? std::string(", a wider swizzle (CU_TENSOR_MAP_SWIZZLE_128B holds 128 B)") : std::string();
  return StrCat("use ", InnerName(s), " = ", fit, " and ", copies, " copies", alt, ", or CU_TENSOR_MAP_SWIZZLE_NONE");
}
bool PatchSwizzleSpan(const Finding& f, TensorMapSpec* s) {
  const uint32_t fit = static_cast<uint32_t>(static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(DataTypeSmemBits(s->data_type)));
  if (IsIm2colMode(s->mode)) s->channels_per_pixel = fit; else s->box_dim[0] = fit;
  return true;
}

void CheckSwizzleBelowSpan(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.interleave != Interleave::kNone || s.swizzle == Swizzle::kNone) return;
  const uint64_t inner = c.facts.inner_box_bytes;
  if (inner > 0 && inner % 16 == 0 && inner < c.facts.swizzle_span)
    o->Add(r, -1, static_cast<int64_t>(inner), c.facts.swizzle_span);
}
std::string MsgSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f) {
  return StrCat("the inner box dimension (", f.value, " B) is narrower than the ", f.limit, " B span of ",
             SW(s.swizzle), ": the swizzle still permutes 16-byte chunks across the whole span, so readers must "
             "use the same swizzle and the buffer must cover whole spans");
}
std::string FixSwizzleBelowSpan(const TensorMapSpec& s, const Finding& f) {
  std::string alt;
  if (f.value == 32) alt = ", or use CU_TENSOR_MAP_SWIZZLE_32B, whose span equals the row";
  if (f.value == 64) alt = ", or use CU_TENSOR_MAP_SWIZZLE_64B, whose span equals the row";
  return StrCat("allocate shared memory in whole ", f.limit, " B spans (the footprint in this report does)", alt,
             "; readers of ", InnerName(s), " rows must apply ", SW(s.swizzle));
}

void CheckInterleave32Swizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave == Interleave::k32B && c.spec.swizzle != Swizzle::k32B)
    o->Add(r, -1, static_cast<int>(c.spec.swizzle), static_cast<int>(Swizzle::k32B));
}
std::string MsgInterleave32Swizzle(const TensorMapSpec& s, const Finding&) {
  return StrCat("CU_TENSOR_MAP_INTERLEAVE_32B requires CU_TENSOR_MAP_SWIZZLE_32B, not ", SW(s.swizzle),
             " (cuda.h); the tested driver does not enforce this and encodes the map anyway (", kMeasured,
             "), so the layout in shared memory is undocumented");
}
std::string FixInterleave32Swizzle(const TensorMapSpec&, const Finding&) {
  return "set swizzle = CU_TENSOR_MAP_SWIZZLE_32B, or use CU_TENSOR_MAP_INTERLEAVE_16B";
}
bool PatchSwizzle32(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k32B;
  return true;
}

void CheckInterleaveMode(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave != Interleave::kNone) o->Add(r, -1, static_cast<int>(c.spec.interleave), 0);
}
std::string MsgInterleaveMode(const TensorMapSpec& s, const Finding&) {
  std::string driver = IsWideMode(s.mode) ? StrCat("; the tested driver encodes it anyway (", kMeasured, ")") : std::string();
  return StrCat(Name(s.mode), " does not support interleaved layouts (", FullName(s.interleave), ")", driver);
}
std::string FixInterleaveMode(const TensorMapSpec&, const Finding&) {
  return "use CU_TENSOR_MAP_INTERLEAVE_NONE with the channels innermost (NHWC)";
}

// ============================== packed (sub-byte) types ==============================
void CheckPackedU6Interleave(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.data_type == DataType::k16U6Align16B && c.spec.interleave != Interleave::kNone)
    o->Add(r, -1, static_cast<int>(c.spec.interleave), 0);
}
std::string MsgPackedU6Interleave(const TensorMapSpec& s, const Finding&) {
  return StrCat("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires CU_TENSOR_MAP_INTERLEAVE_NONE, not ", FullName(s.interleave));
}

void CheckPackedSwizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAlign16BPacked(c.spec.data_type) && !SwizzleAllowedForPacked(c.spec, c.spec.swizzle))
    o->Add(r, -1, static_cast<int>(c.spec.swizzle), 0);
}
std::string MsgPackedSwizzle(const TensorMapSpec& s, const Finding&) {
  std::string allowed;
  for (int w = 0; w < kNumSwizzles; ++w) {
    if (SwizzleAllowedForPacked(s, static_cast<Swizzle>(w))) {
      if (!allowed.empty()) allowed += ", ";
      allowed += ShortName(static_cast<Swizzle>(w));
    }
  }
  return StrCat(FullName(s.data_type), " in a ", Name(EncoderFor(s.mode)), " map supports only these swizzles: ",
             allowed, "; not ", SW(s.swizzle));
}
std::string FixPackedSwizzle(const TensorMapSpec&, const Finding&) { return "use CU_TENSOR_MAP_SWIZZLE_128B"; }
bool PatchSwizzle128(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k128B;
  return true;
}

// value: 1 = 16U4_ALIGN16B store/reduce, 2 = 16U6 + 128B_ATOM_64B load, 3 = sub-byte reduce
void CheckPackedDirection(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (!IsSubByte(s.data_type)) return;
  if (s.direction == Direction::kReduce) { o->Add(r, -1, 3, 0); return; }
  if (s.data_type == DataType::k16U4Align16B && s.direction == Direction::kStore) o->Add(r, -1, 1, 0);
  if (s.data_type == DataType::k16U6Align16B && s.swizzle == Swizzle::k128BAtom64B && IsLoad(s.direction))
    o->Add(r, -1, 2, 0);
}
std::string MsgPackedDirection(const TensorMapSpec& s, const Finding& f) {
  switch (f.value) {
    case 1: return "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (.b4x16_p64) is load only: stores from shared memory do not support it";
    case 2: return "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B is store only";
    default: return StrCat("cp.reduce.async.bulk.tensor does not support sub-byte types (", FullName(s.data_type), ")");
  }
}
std::string FixPackedDirection(const TensorMapSpec&, const Finding& f) {
  switch (f.value) {
    case 1: return "store with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B (unpadded) or a byte type";
    case 2: return "load with CU_TENSOR_MAP_SWIZZLE_128B or CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B";
    default: return "reduce in a byte-sized type, or load, combine and store";
  }
}
bool PatchPackedDirection(const Finding& f, TensorMapSpec* s) {
  if (f.value != 2) return false;
  s->swizzle = Swizzle::k128B;
  return true;
}

void CheckOobNanFloat(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.oob_fill == OobFill::kNanRequestZeroFma && !IsFloat(c.spec.data_type))
    o->Add(r, -1, static_cast<int>(c.spec.data_type), 0);
}
std::string MsgOobNanFloat(const TensorMapSpec& s, const Finding&) {
  return StrCat("CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point data type; ",
             FullName(s.data_type), " is not one");
}
std::string FixOobNanFloat(const TensorMapSpec&, const Finding&) {
  return "use oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zero fill)";
}
bool PatchOobNone(const Finding&, TensorMapSpec* s) {
  s->oob_fill = OobFill::kNone;
  return true;
}

// ============================== im2col ==============================
int CornerLimit(uint32_t rank) { return rank == 3 ? 32768 : rank == 4 ? 128 : 16; }

void CheckCorner(const CheckContext& c, uint16_t r, FindingList* o, const std::array<int32_t, 3>& v) {
  const uint32_t rank = Rank(c.spec);
  if (rank < 3) return;
  const int lim = CornerLimit(rank);
  for (uint32_t i = 0; i + 2 < rank; ++i)
    if (v[i] < -lim || v[i] > lim - 1) o->Add(r, static_cast<int>(i), v[i], lim);
}
void CheckLowerCorner(const CheckContext& c, uint16_t r, FindingList* o) { CheckCorner(c, r, o, c.spec.pixel_box_lower_corner); }
void CheckUpperCorner(const CheckContext& c, uint16_t r, FindingList* o) { CheckCorner(c, r, o, c.spec.pixel_box_upper_corner); }
std::string MsgCorner(const TensorMapSpec& s, const Finding& f, std::string_view which) {
  return StrCat("pixel_box_", which, "_corner[", f.index, "] = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1,
             "], the range of a rank-", s.rank, " im2col corner");
}
std::string MsgLowerCorner(const TensorMapSpec& s, const Finding& f) { return MsgCorner(s, f, "lower"); }
std::string MsgUpperCorner(const TensorMapSpec& s, const Finding& f) { return MsgCorner(s, f, "upper"); }
std::string FixCorner(const TensorMapSpec&, const Finding& f) {
  return StrCat("use ", f.value < 0 ? -f.limit : f.limit - 1,
             " (the nearest legal value); larger padding needs a smaller rank or explicit padding in memory");
}
bool PatchLowerCorner(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner[f.index] = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
bool PatchUpperCorner(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_upper_corner[f.index] = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}

void CheckIm2colBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t rank = Rank(c.spec);
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[i + 1], k2Pow32)) +
                           c.spec.pixel_box_upper_corner[i] - c.spec.pixel_box_lower_corner[i];
    if (extent <= 0) o->Add(r, static_cast<int>(i), extent, 1);
  }
}
std::string MsgIm2colBoxArea(const TensorMapSpec& s, const Finding& f) {
  const int i = f.index;
  std::string interleaved = s.interleave != Interleave::kNone
      ? StrCat("; with an interleaved layout the tested driver checks this corner against global_dim[", i,
            "] instead and does not enforce the documented meaning (", kMeasured, "; docs/hardware.md B3)")
      : std::string();
  return StrCat("the bounding box along global_dim[", i + 1, "] spans global_dim[", i + 1, "] + upper - lower = ",
             s.global_dim[i + 1], " + (", s.pixel_box_upper_corner[i], ") - (", s.pixel_box_lower_corner[i], ") = ",
             f.value, " positions: it must have non-zero area", interleaved);
}

// Measured (docs/hardware.md B3): for INTERLEAVE_16B/32B im2col maps the driver checks corner i against
// global_dim[i], not global_dim[i + 1].
void CheckIm2colInterleaveBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.interleave == Interleave::kNone) return;
  const uint32_t rank = Rank(c.spec);
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[i], k2Pow32)) +
                           c.spec.pixel_box_upper_corner[i] - c.spec.pixel_box_lower_corner[i];
    if (extent <= 0) o->Add(r, static_cast<int>(i), extent, 1);
  }
}
std::string MsgIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f) {
  const int i = f.index;
  return StrCat("with ", FullName(s.interleave), " the driver checks corner ", i, " against global_dim[", i, "]: ",
             s.global_dim[i], " + (", s.pixel_box_upper_corner[i], ") - (", s.pixel_box_lower_corner[i], ") = ", f.value,
             " is not positive, so it rejects the map (", kMeasured, "; docs/hardware.md B3; undocumented)");
}
std::string FixIm2colInterleaveBoxArea(const TensorMapSpec& s, const Finding& f) {
  return StrCat("make global_dim[", f.index, "] + pixel_box_upper_corner[", f.index, "] - pixel_box_lower_corner[", f.index,
             "] at least 1, or use CU_TENSOR_MAP_INTERLEAVE_NONE (", ShortName(s.interleave), " im2col layouts are not "
             "proven on hardware)");
}

// Measured (docs/hardware.md B2): the driver computes the pixel box in signed 32-bit arithmetic, so
// global_dim + upper corner must stay <= 2^31 - 1 along every spatial dimension (W, H, D); in the wide
// modes H and D carry corner 0. Tiled maps are not affected (2^32 accepted).
constexpr int64_t kInt32Max = 2147483647;
void AddIfOver(uint16_t r, FindingList* o, int dim, uint64_t d, int64_t upper) {
  const int64_t sum = static_cast<int64_t>(std::min<uint64_t>(d, k2Pow32 * 2)) + upper;
  if (sum > kInt32Max) o->Add(r, dim, sum, kInt32Max);
}
void CheckIm2colSpatialInt32(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  const uint32_t rank = Rank(s);
  if (rank < 3) return;
  const bool interleaved = s.interleave != Interleave::kNone;
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    const int64_t upper = s.mode == Mode::kIm2col ? s.pixel_box_upper_corner[i]
                          : (i == 0 ? s.pixel_box_upper_corner_width : 0);
    // With interleave the driver checks corner i against global_dim[i] (docs/hardware.md B3).
    const uint32_t d = interleaved ? i : i + 1;
    AddIfOver(r, o, static_cast<int>(d), s.global_dim[d], upper);
  }
}
std::string MsgIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f) {
  // The driver's check is int32(dim + upper) > lower: past 2^32 the sum wraps and the driver accepts
  // again (measured), with a pixel box that no longer describes the tensor.
  const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(f.value)));
  int32_t lower = 0;
  if (s.mode == Mode::kIm2col) {
    const int c = (s.interleave != Interleave::kNone && f.index < 3) ? f.index : f.index - 1;
    if (c >= 0 && c < 3) lower = s.pixel_box_lower_corner[static_cast<size_t>(c)];
  } else if (f.index <= 1) {
    lower = s.pixel_box_lower_corner_width;
  }
  const std::string verdict = wrapped > lower
      ? StrCat("the driver's 32-bit check wraps around to ", wrapped, " and accepts the map, but the pixel box it encodes "
            "does not describe this tensor")
      : std::string("the driver rejects it");
  return StrCat("global_dim[", f.index, "] = ", s.global_dim[f.index], " plus its upper corner is ", f.value,
             ", above 2^31 - 1: the driver computes the ", Name(s.mode), " pixel box in signed 32-bit arithmetic and ",
             verdict, " (", kMeasured, "; docs/hardware.md B2; undocumented)");
}
std::string FixIm2colSpatialInt32(const TensorMapSpec& s, const Finding& f) {
  return StrCat("keep global_dim[", f.index, "] + upper corner <= 2147483647: split the ", Name(s.mode),
             " tensor along that dimension into pieces with their own global_address");
}
std::string FixIm2colBoxArea(const TensorMapSpec& s, const Finding& f) {
  const int i = f.index;
  return StrCat("make global_dim[", i + 1, "] + pixel_box_upper_corner[", i, "] - pixel_box_lower_corner[", i,
             "] at least 1, for example lower = ", std::min(0, s.pixel_box_lower_corner[i]), " and upper = 0");
}
bool PatchIm2colBoxArea(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner[f.index] = std::min(0, s->pixel_box_lower_corner[f.index]);
  s->pixel_box_upper_corner[f.index] = 0;
  return true;
}

void CheckChannelsRange(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t ch = c.spec.channels_per_pixel;
  if (IsAlign16BPacked(c.spec.data_type)) {
    if (ch != 128) o->Add(r, -1, ch, 128);
  } else if (ch == 0 || ch > 256) {
    o->Add(r, -1, ch, 256);
  }
}
std::string MsgChannelsRange(const TensorMapSpec& s, const Finding& f) {
  if (IsAlign16BPacked(s.data_type))
    return StrCat("channels_per_pixel = ", f.value, ": ", FullName(s.data_type), " needs exactly 128 channels per pixel");
  if (f.value == 0) return "channels_per_pixel = 0: a copy moves at least one channel (the driver rejects 0, " + std::string(kMeasured) + ")";
  return StrCat("channels_per_pixel = ", f.value, " exceeds 256");
}
std::string FixChannelsRange(const TensorMapSpec& s, const Finding& f) {
  if (IsAlign16BPacked(s.data_type)) return "set channels_per_pixel = 128";
  if (f.value == 0) return "set channels_per_pixel to the channels one copy should move (1..256)";
  return StrCat("use channels_per_pixel = 256 and ", (f.value + 255) / 256, " copies along C");
}
bool PatchChannelsRange(const Finding& f, TensorMapSpec* s) {
  s->channels_per_pixel = IsAlign16BPacked(s->data_type) ? 128 : (f.value == 0 ? 16 : 256);
  return true;
}

void CheckChannelsBytes16(const CheckContext& c, uint16_t r, FindingList* o) {
  const int64_t bits = static_cast<int64_t>(c.spec.channels_per_pixel) * c.facts.element_bits;
  if (c.spec.channels_per_pixel != 0 && bits % 128 != 0) o->Add(r, -1, bits, 128);
}
std::string MsgChannelsBytes16(const TensorMapSpec& s, const Finding& f) {
  return StrCat("channels_per_pixel = ", s.channels_per_pixel, " x ", DT(s), " = ", Bits(f.value),
             " is not a multiple of 16 bytes: the driver rejects this although cuda.h does not say so (",
             kMeasured, ": 60 x f16 = 120 B rejected), and PTX ISA 5.5.3.1 asks every box row to be a multiple "
             "of 16 bytes");
}
uint32_t NearestChannels16(const TensorMapSpec& s) {
  const uint32_t step = Inner16Step(DataTypeBits(s.data_type));
  uint32_t up = (s.channels_per_pixel + step - 1) / step * step;
  if (up > 256) up = s.channels_per_pixel / step * step;
  return up == 0 ? step : up;
}
std::string FixChannelsBytes16(const TensorMapSpec& s, const Finding&) {
  return StrCat("use channels_per_pixel = ", NearestChannels16(s), " (pad C in memory if the tensor has fewer channels)");
}
bool PatchChannelsBytes16(const Finding&, TensorMapSpec* s) {
  s->channels_per_pixel = NearestChannels16(*s);
  return true;
}

void CheckPixelsRange(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t p = c.spec.pixels_per_column;
  if (p == 0 || p > 1024) o->Add(r, -1, p, 1024);
}
std::string MsgPixelsRange(const TensorMapSpec& s, const Finding& f) {
  std::string w128 = s.mode == Mode::kIm2colW128
                         ? StrCat("; im2col::w::128 ignores the value but the driver still range-checks it (", kMeasured, ")")
                         : std::string();
  if (f.value == 0) return StrCat("pixels_per_column = 0: a copy moves at least one pixel", w128);
  return StrCat("pixels_per_column = ", f.value, " exceeds 1024", w128);
}
std::string FixPixelsRange(const TensorMapSpec& s, const Finding& f) {
  if (s.mode == Mode::kIm2colW128) return "set pixels_per_column = 128";
  if (f.value == 0) return "set pixels_per_column to the pixels one copy should move (1..1024)";
  return StrCat("use pixels_per_column = 1024 and ", (f.value + 1023) / 1024, " copies");
}
bool PatchPixelsRange(const Finding& f, TensorMapSpec* s) {
  s->pixels_per_column = s->mode == Mode::kIm2colW128 ? 128 : (f.value == 0 ? 1 : 1024);
  return true;
}

// ============================== im2col wide ==============================
// cuda.h allows [-32768, 32767] at every rank, but the tested driver applies the im2col ranges of the
// rank (measured: rank 4 [-128, 127] bisected for both wide modes; tma-spec.md section 6 and
// docs/hardware.md B4). The stricter range wins: the validator never calls valid what the driver rejects.
void CheckWideCorner(const CheckContext& c, uint16_t r, FindingList* o, int32_t v) {
  const int lim = Rank(c.spec) >= 3 ? CornerLimit(Rank(c.spec)) : 32768;
  if (v < -lim || v > lim - 1) o->Add(r, -1, v, lim);
}
void CheckWideLower(const CheckContext& c, uint16_t r, FindingList* o) { CheckWideCorner(c, r, o, c.spec.pixel_box_lower_corner_width); }
void CheckWideUpper(const CheckContext& c, uint16_t r, FindingList* o) { CheckWideCorner(c, r, o, c.spec.pixel_box_upper_corner_width); }
std::string WideCornerWhy(const TensorMapSpec& s, const Finding& f) {
  if (f.limit == 32768) return "";
  return StrCat(": cuda.h allows [-32768, 32767] at any rank, but the tested driver rejects values outside the rank-",
             s.rank, " im2col range (", kMeasured, "; docs/hardware.md B4)");
}
std::string MsgWideLower(const TensorMapSpec& s, const Finding& f) {
  return StrCat("pixel_box_lower_corner_width = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1, "]", WideCornerWhy(s, f));
}
std::string MsgWideUpper(const TensorMapSpec& s, const Finding& f) {
  return StrCat("pixel_box_upper_corner_width = ", f.value, " is outside [", -f.limit, ", ", f.limit - 1, "]", WideCornerWhy(s, f));
}
std::string FixWideCorner(const TensorMapSpec&, const Finding& f) {
  return StrCat("use ", f.value < 0 ? -f.limit : f.limit - 1, " (the nearest legal value)");
}
bool PatchWideLower(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_lower_corner_width = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}
bool PatchWideUpper(const Finding& f, TensorMapSpec* s) {
  s->pixel_box_upper_corner_width = static_cast<int32_t>(f.value < 0 ? -f.limit : f.limit - 1);
  return true;
}

void CheckWideBoxArea(const CheckContext& c, uint16_t r, FindingList* o) {
  if (Rank(c.spec) < 2) return;
  const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(c.spec.global_dim[1], k2Pow32)) +
                         c.spec.pixel_box_upper_corner_width - c.spec.pixel_box_lower_corner_width;
  if (extent <= 0) o->Add(r, -1, extent, 1);
}
std::string MsgWideBoxArea(const TensorMapSpec& s, const Finding& f) {
  std::string interleaved = s.interleave != Interleave::kNone
      ? StrCat("; with an interleaved layout the tested driver checks against global_dim[0] instead and does not "
            "enforce this (", kMeasured, "; docs/hardware.md B3)")
      : std::string();
  return StrCat("the bounding box along W spans global_dim[1] + upper - lower = ", s.global_dim[1], " + (",
             s.pixel_box_upper_corner_width, ") - (", s.pixel_box_lower_corner_width, ") = ", f.value,
             " positions: it must have non-zero area", interleaved);
}
std::string FixWideBoxArea(const TensorMapSpec& s, const Finding&) {
  return StrCat("for example pixel_box_lower_corner_width = ", std::min(0, s.pixel_box_lower_corner_width),
             " and pixel_box_upper_corner_width = 0");
}
bool PatchWideBoxArea(const Finding&, TensorMapSpec* s) {
  s->pixel_box_lower_corner_width = std::min(0, s->pixel_box_lower_corner_width);
  s->pixel_box_upper_corner_width = 0;
  return true;
}

void CheckWideSwizzle(const CheckContext& c, uint16_t r, FindingList* o) {
  const Swizzle w = c.spec.swizzle;
  if (w != Swizzle::k64B && w != Swizzle::k128B && w != Swizzle::k128BAtom32B) o->Add(r, -1, static_cast<int>(w), 0);
}
std::string MsgWideSwizzle(const TensorMapSpec& s, const Finding&) {
  std::string why = s.swizzle == Swizzle::kNone ? "PTX ISA 5.5.5 requires a swizzle in these modes"
                    : s.swizzle == Swizzle::k128BAtom32BFlip8B ? "PTX ISA 5.5.5 forbids the 8-byte flip in these modes"
                                                               : "cuda.h lists only 64B, 128B and 128B_ATOM_32B";
  std::string driver = (s.swizzle == Swizzle::kNone || s.swizzle == Swizzle::k32B)
                           ? StrCat("; the tested driver encodes it anyway (", kMeasured, ")")
                           : std::string();
  return StrCat(Name(s.mode), " maps support CU_TENSOR_MAP_SWIZZLE_64B, _128B and _128B_ATOM_32B only, not ",
             SW(s.swizzle), ": ", why, driver);
}
std::string FixWideSwizzle(const TensorMapSpec& s, const Finding&) {
  const uint64_t inner = (static_cast<uint64_t>(s.channels_per_pixel) * static_cast<uint64_t>(DataTypeSmemBits(s.data_type)) + 7) / 8;
  return inner <= 64 ? std::string("use CU_TENSOR_MAP_SWIZZLE_64B or CU_TENSOR_MAP_SWIZZLE_128B")
                     : std::string("use CU_TENSOR_MAP_SWIZZLE_128B");
}

void CheckWideModeMismatch(const CheckContext& c, uint16_t r, FindingList* o) {
  const Im2colWideMode want = c.spec.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  if (c.spec.Has(kFieldWideMode) && c.spec.wide_mode != want)
    o->Add(r, -1, static_cast<int>(c.spec.wide_mode), static_cast<int>(want));
}
std::string MsgWideModeMismatch(const TensorMapSpec& s, const Finding&) {
  return StrCat("wide_mode = ", FullName(s.wide_mode), " does not match mode ", Name(s.mode));
}
std::string FixWideModeMismatch(const TensorMapSpec& s, const Finding&) {
  return StrCat("drop wide_mode (it follows the mode) or set it to ",
             FullName(s.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW));
}
bool PatchWideModeMismatch(const Finding& f, TensorMapSpec* s) {
  s->wide_mode = static_cast<Im2colWideMode>(f.limit);
  return true;
}

void CheckW128Pixels(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.Has(kFieldPixelsPerColumn) && c.spec.pixels_per_column != 128 && c.spec.pixels_per_column >= 1 &&
      c.spec.pixels_per_column <= 1024)
    o->Add(r, -1, c.spec.pixels_per_column, 128);
}
std::string MsgW128Pixels(const TensorMapSpec&, const Finding& f) {
  return StrCat("pixels_per_column = ", f.value, " is ignored in im2col::w::128 mode: every copy moves 128 pixels");
}
std::string FixW128Pixels(const TensorMapSpec&, const Finding&) { return "set pixels_per_column = 128 to say what happens"; }

void CheckIm2colStoreCorners(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (!IsStoreLike(s.direction)) return;
  if (IsWideMode(s.mode)) {
    if (s.pixel_box_lower_corner_width < 0) o->Add(r, 0, s.pixel_box_lower_corner_width, 0);
    if (s.pixel_box_upper_corner_width > 0) o->Add(r, 1, s.pixel_box_upper_corner_width, 0);
    return;
  }
  for (uint32_t i = 0; i + 2 < Rank(s); ++i) {
    if (s.pixel_box_lower_corner[i] < 0) o->Add(r, static_cast<int>(i), s.pixel_box_lower_corner[i], 0);
    if (s.pixel_box_upper_corner[i] > 0) o->Add(r, static_cast<int>(i) + 4, s.pixel_box_upper_corner[i], 0);
  }
}
std::string CornerFieldName(const TensorMapSpec& s, int index) {
  if (IsWideMode(s.mode)) return index == 0 ? "pixel_box_lower_corner_width" : "pixel_box_upper_corner_width";
  return index >= 4 ? StrCat("pixel_box_upper_corner[", index - 4, "]") : StrCat("pixel_box_lower_corner[", index, "]");
}
std::string MsgIm2colStoreCorners(const TensorMapSpec& s, const Finding& f) {
  return StrCat(CornerFieldName(s, f.index), " = ", f.value, ": a ", Name(s.direction),
             " through an im2col map (.im2col_no_offs) must keep the bounding box inside the tensor, so lower "
             "corners must be >= 0 and upper corners <= 0");
}
std::string FixIm2colStoreCorners(const TensorMapSpec& s, const Finding& f) {
  return StrCat("set ", CornerFieldName(s, f.index), " = 0 for the map used to store");
}
bool PatchIm2colStoreCorners(const Finding& f, TensorMapSpec* s) {
  if (IsWideMode(s->mode)) {
    (f.index == 0 ? s->pixel_box_lower_corner_width : s->pixel_box_upper_corner_width) = 0;
  } else if (f.index >= 4) {
    s->pixel_box_upper_corner[f.index - 4] = 0;
  } else {
    s->pixel_box_lower_corner[f.index] = 0;
  }
  return true;
}

// ============================== mode and direction ==============================
bool DirectionAllowed(Mode m, Direction d) {
  switch (m) {
    case Mode::kGather4: case Mode::kIm2colW128: return IsLoad(d) || d == Direction::kPrefetch;
    case Mode::kScatter4: return d == Direction::kStore;
    default: return true;
  }
}
void CheckModeDirection(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!DirectionAllowed(c.spec.mode, c.spec.direction)) o->Add(r, -1, static_cast<int>(c.spec.direction), 0);
}
std::string MsgModeDirection(const TensorMapSpec& s, const Finding&) {
  const char* allowed = s.mode == Mode::kScatter4 ? "store only (cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4)"
                                                   : "loads and prefetch only";
  return StrCat(Name(s.mode), " is ", allowed, "; direction ", Name(s.direction), " does not exist for it");
}
std::string FixModeDirection(const TensorMapSpec& s, const Finding&) {
  switch (s.mode) {
    case Mode::kGather4: return "store rows with scatter4 (mode scatter4, direction store)";
    case Mode::kScatter4: return "load rows with gather4 (mode gather4, direction load)";
    default: return "store through an im2col::w or im2col map (.im2col_no_offs)";
  }
}
bool PatchModeDirection(const Finding&, TensorMapSpec* s) {
  s->direction = s->mode == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta;
  return true;
}

void CheckFlip8bLoadOnly(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.swizzle == Swizzle::k128BAtom32BFlip8B && IsStoreLike(c.spec.direction))
    o->Add(r, -1, static_cast<int>(c.spec.direction), 0);
}
std::string MsgFlip8bLoadOnly(const TensorMapSpec& s, const Finding&) {
  return StrCat("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B is legal only for copies into shared memory, not for ",
             Name(s.direction));
}
std::string FixFlip8bLoadOnly(const TensorMapSpec&, const Finding&) {
  return "store with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (the same layout without the 8-byte flip)";
}
bool PatchSwizzleAtom32(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k128BAtom32B;
  return true;
}

bool ReduceAllowed(ReduceOp op, DataType t) {
  const int bits = DataTypeBits(t);
  switch (op) {
    case ReduceOp::kAdd:
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64 || t == DataType::kFloat32 ||
             t == DataType::kFloat16 || t == DataType::kBfloat16;
    case ReduceOp::kMin: case ReduceOp::kMax:
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64 || t == DataType::kInt64 ||
             t == DataType::kFloat16 || t == DataType::kBfloat16;
    case ReduceOp::kInc: case ReduceOp::kDec:
      return t == DataType::kUint32;
    case ReduceOp::kAnd: case ReduceOp::kOr: case ReduceOp::kXor:
      // PTX lists .b32 and .b64; on an H200 the bitwise reductions of f32, f32_ftz, f64, tf32, tf32_ftz and
      // s64 tensors raise an illegal instruction, while u32, s32 and u64 work (docs/hardware.md, GPU checks).
      (void)bits;
      return t == DataType::kUint32 || t == DataType::kInt32 || t == DataType::kUint64;
  }
  return false;
}
void CheckReduceOpType(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.direction == Direction::kReduce && !IsSubByte(s.data_type) && !ReduceAllowed(s.reduce_op, s.data_type))
    o->Add(r, -1, static_cast<int>(s.reduce_op), 0);
}
std::string MsgReduceOpType(const TensorMapSpec& s, const Finding&) {
  const bool bitwise = s.reduce_op == ReduceOp::kAnd || s.reduce_op == ReduceOp::kOr || s.reduce_op == ReduceOp::kXor;
  const int bits = DataTypeBits(s.data_type);
  std::string measured = (bitwise && (bits == 32 || bits == 64))
      ? std::string("; PTX lists .b32/.b64, but on an H200 the bitwise reductions of float and s64 tensors raise an "
                    "illegal instruction (docs/hardware.md, GPU checks)")
      : std::string();
  return StrCat("cp.reduce.async.bulk.tensor .", Name(s.reduce_op), " does not support ", PtxElemType(s.data_type),
             " (", FullName(s.data_type), ")", measured);
}
std::string FixReduceOpType(const TensorMapSpec& s, const Finding&) {
  std::string ops;
  for (int i = 0; i < kNumReduceOps; ++i) {
    if (ReduceAllowed(static_cast<ReduceOp>(i), s.data_type)) {
      if (!ops.empty()) ops += ", ";
      ops += Name(static_cast<ReduceOp>(i));
    }
  }
  if (ops.empty()) return StrCat("no reduction supports ", ShortName(s.data_type), "; reduce in f32, f16, bf16, u32, s32 or u64");
  return StrCat("operations that support ", ShortName(s.data_type), ": ", ops);
}

// ============================== targets ==============================
void CheckTargetAtomicity(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAtomicitySwizzle(c.spec.swizzle) && Info(c.target).cc < 100) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
std::string MsgTargetAtomicity(const TensorMapSpec& s, const Finding& f) {
  return StrCat(SW(s.swizzle), " needs compute capability 10.0 or later; ", Name(static_cast<Target>(f.target)),
             " is ", f.value / 10, ".", f.value % 10, " (the sm_90 driver rejects it: ", kMeasured, ")");
}
std::string FixTargetAtomicity(const TensorMapSpec&, const Finding&) {
  return "on sm_90 use CU_TENSOR_MAP_SWIZZLE_128B (16-byte atomicity)";
}

void CheckTargetSubByte(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsSubByte(c.spec.data_type) && Info(c.target).cc < 100) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
std::string MsgTargetSubByte(const TensorMapSpec& s, const Finding& f) {
  return StrCat(FullName(s.data_type), " needs compute capability 10.0 or later; ", Name(static_cast<Target>(f.target)),
             " does not have sub-byte tensor copies (the sm_90 driver rejects the 16U4 types: ", kMeasured, ")");
}
std::string FixTargetSubByte(const TensorMapSpec&, const Finding&) {
  return "on sm_90 copy packed data as CU_TENSOR_MAP_DATA_TYPE_UINT8 (two 4-bit values per byte) and unpack in registers";
}

// Which targets can execute the mode in the declared direction (PTX ISA 9.7.9.25.5.2 target table).
bool TargetRunsMode(Target t, Mode m, Direction d) {
  const TargetInfo& i = Info(t);
  switch (m) {
    case Mode::kTiled: case Mode::kIm2col: return true;
    case Mode::kGather4: case Mode::kIm2colW:
      if (d == Direction::kLoadCta) return i.cc >= 100;
      if (d == Direction::kLoadCluster || d == Direction::kPrefetch) return HasBlackwellDatacenterFeatures(t);
      return i.cc >= 100;  // im2col::w stores (.im2col_no_offs) need an Im2colWide map: cc >= 10.0
    case Mode::kScatter4: case Mode::kIm2colW128:
      return HasBlackwellDatacenterFeatures(t);
  }
  return false;
}
void CheckTargetMode(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!TargetRunsMode(c.target, c.spec.mode, c.spec.direction)) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
std::string MsgTargetMode(const TensorMapSpec& s, const Finding& f) {
  const Target t = static_cast<Target>(f.target);
  std::string driver = (IsWideMode(s.mode) && Info(t).cc < 100)
                           ? StrCat("; the sm_90 driver encodes Im2colWide maps although cuda.h says compute capability "
                                 "10.0 or higher (", kMeasured, "), but no sm_90 instruction can use them")
                           : std::string();
  const char* need = (s.mode == Mode::kScatter4 || s.mode == Mode::kIm2colW128 ||
                      s.direction == Direction::kLoadCluster || s.direction == Direction::kPrefetch)
                         ? "sm_100a, sm_101a, sm_103a, sm_110a or their family targets (sm_100f, sm_103f, sm_110f)"
                         : "compute capability 10.0 or later";
  return StrCat(Name(s.mode), " (", Name(s.direction), ") needs ", need, "; not ", Name(t), driver);
}
std::string FixTargetMode(const TensorMapSpec& s, const Finding&) {
  switch (s.mode) {
    case Mode::kGather4: return "on this target load the four rows with four tiled copies of box [cols, 1]";
    case Mode::kScatter4: return "on this target store the four rows with four tiled copies";
    default: return "on this target use mode im2col (cuTensorMapEncodeIm2col), or compile for sm_100a";
  }
}

void CheckTargetSm120Cluster(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (Info(c.target).cc >= 120 && s.direction == Direction::kLoadCluster &&
      (IsSubByte(s.data_type) || IsAtomicitySwizzle(s.swizzle)))
    o->Add(r, -1, Info(c.target).cc, 0, c.target);
}
std::string MsgTargetSm120Cluster(const TensorMapSpec& s, const Finding& f) {
  return StrCat("on ", Name(static_cast<Target>(f.target)), " copies to .shared::cluster support neither sub-byte types nor "
             "swizzle atomicity (", IsSubByte(s.data_type) ? FullName(s.data_type) : FullName(s.swizzle), ")");
}
std::string FixTargetSm120Cluster(const TensorMapSpec&, const Finding&) {
  return "load to .shared::cta (direction load) instead";
}

void CheckTargetSmemCapacity(const CheckContext& c, uint16_t r, FindingList* o) {
  const int cap = Info(c.target).max_smem_per_block;
  if (c.spec.direction != Direction::kPrefetch && c.facts.smem_footprint_bytes > static_cast<uint64_t>(cap))
    o->Add(r, -1, static_cast<int64_t>(std::min<uint64_t>(c.facts.smem_footprint_bytes, INT64_MAX)), cap, c.target);
}
std::string MsgTargetSmemCapacity(const TensorMapSpec&, const Finding& f) {
  return StrCat("one copy needs ", f.value, " B of shared memory, more than the ", f.limit, " B a block can have on ",
             Name(static_cast<Target>(f.target)), ": no kernel can receive it");
}

// Measured (docs/hardware.md B1): the driver rejects a map whose box is larger than the device's opt-in
// shared memory per block (232,448 B on the H200), whatever the map is used for (it never sees the
// direction). Its box size: tiled prod(floor(box_dim[i] / element_strides[i])) x element size, im2col
// channels x pixels x element size. Other targets are assumed to use their own shared-memory size.
// (What the hardware moves, with element_strides[0] ignored, is checked by target-smem-capacity.)
uint64_t DriverBoxBytes(const TensorMapSpec& s) {
  const uint64_t bits = static_cast<uint64_t>(DataTypeSmemBits(s.data_type));
  uint64_t n = 1;
  if (IsIm2colMode(s.mode)) {
    const uint64_t pixels = s.mode == Mode::kIm2colW128 ? std::max<uint64_t>(128, s.pixels_per_column) : s.pixels_per_column;
    n = static_cast<uint64_t>(s.channels_per_pixel) * pixels;
  } else if (IsGatherScatter(s.mode)) {
    n = 4ull * s.box_dim[0];
  } else {
    // The driver divides dimension 0 too, even without interleave where the hardware ignores
    // element_strides[0] (measured: f32 box [256, 256] with element_strides [7, 1] accepted).
    for (uint32_t i = 0; i < Rank(s); ++i) {
      const uint64_t es = s.element_strides[i];
      n *= es <= 1 ? s.box_dim[i] : s.box_dim[i] / es;  // no division in the common case
    }
  }
  return (n * bits + 7) / 8;
}
// The driver's limit, bracketed on the H200 by a 232,960 B box accepted and a 235,008 B box rejected, is
// taken as the shared memory of one SM: the per-block maximum plus the 1 KiB the hardware reserves per
// block (228 KiB on sm_90). An inference from the bracket, not a bisection.
int DriverBoxLimit(Target t) { return Info(t).max_smem_per_block + 1024; }
void CheckBoxDriverLimit(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint64_t b = DriverBoxBytes(c.spec);
  const int cap = DriverBoxLimit(c.target);
  if (b > static_cast<uint64_t>(cap)) o->Add(r, -1, static_cast<int64_t>(b), cap, c.target);
}
std::string MsgBoxDriverLimit(const TensorMapSpec& s, const Finding& f) {
  return StrCat("the box is ", f.value, " B, more than the ", f.limit, " B of shared memory per SM on ",
             Name(static_cast<Target>(f.target)), ": the driver rejects such a map for every use",
             s.direction == Direction::kPrefetch ? ", prefetch included" : "", " (", kMeasured,
             ": 235,008 B rejected, 232,960 B accepted; docs/hardware.md B1)");
}
std::string FixTargetSmemCapacity(const TensorMapSpec& s, const Finding& f) {
  return StrCat("split the box: at most ", f.limit, " B per copy, for example halve ",
             IsIm2colMode(s.mode) ? "pixels_per_column" : StrCat("box_dim[", s.rank > 1 ? s.rank - 1 : 0, "]"));
}

// ============================== shared memory ==============================
void CheckSmemAlign128(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (s.direction == Direction::kPrefetch) return;
  if (s.Has(kFieldSmemAddress) && s.smem_address % 128 != 0) o->Add(r, 0, static_cast<int64_t>(s.smem_address % 128), 128);
  else if (s.Has(kFieldSmemAlignment) && s.smem_alignment < 128) o->Add(r, 1, s.smem_alignment, 128);
}
std::string MsgSmemAlign128(const TensorMapSpec& s, const Finding& f) {
  if (f.index == 0)
    return StrCat("smem_address = ", Hex(s.smem_address), " is not 128-byte aligned: tensor copies need a 128-byte "
               "aligned shared-memory address (misaligned-address fault or wrong data)");
  return StrCat("smem_alignment = ", s.smem_alignment, ": tensor copies need a 128-byte aligned shared-memory address");
}
std::string FixSmemAlign128(const TensorMapSpec& s, const Finding&) {
  const uint32_t a = SwizzleRepeatBytes(s.swizzle) > 128 ? static_cast<uint32_t>(SwizzleRepeatBytes(s.swizzle)) : 128u;
  return StrCat("declare the buffer alignas(", a, ") (", a == 128 ? "the hardware minimum" : "the swizzle repeat",
             "), or round the dynamic shared-memory offset up to a multiple of ", a);
}

void CheckSmemSwizzlePhase(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  const uint32_t rep = c.facts.swizzle_repeat;
  if (rep <= 128 || s.direction == Direction::kPrefetch) return;
  if (s.Has(kFieldSmemAddress)) {
    if (s.smem_address % 128 == 0 && s.smem_address % rep != 0) o->Add(r, 0, static_cast<int64_t>(s.smem_address % rep), rep);
  } else if (s.Has(kFieldSmemAlignment) && s.smem_alignment >= 128 && s.smem_alignment < rep) {
    o->Add(r, 1, s.smem_alignment, rep);
  }
}
std::string MsgSmemSwizzlePhase(const TensorMapSpec& s, const Finding& f) {
  if (f.index == 0)
    return StrCat("smem_address = ", Hex(s.smem_address), " is ", f.value, " B past a ", f.limit, " B boundary: ",
               SW(s.swizzle), " repeats every ", f.limit, " B, so the data lands with swizzle base offset ",
               (s.smem_address / 128) % (static_cast<uint64_t>(f.limit) / 128),
               " and every reader (ldmatrix, wgmma/tcgen05 descriptors) must apply the same offset");
  return StrCat("smem_alignment = ", f.value, " B is less than the ", f.limit, " B swizzle repeat of ", SW(s.swizzle),
             ": the swizzle phase depends on where the buffer lands, and readers must compute the base offset");
}
std::string FixSmemSwizzlePhase(const TensorMapSpec&, const Finding& f) {
  return StrCat("align the destination to ", f.limit, " bytes (alignas(", f.limit, ")) so the base offset is 0");
}

// ============================== driver version ==============================
bool NeedsDriver12080(const TensorMapSpec& s) {
  return IsSubByte(s.data_type) || IsAtomicitySwizzle(s.swizzle) || IsWideMode(s.mode);
}
void CheckDriverVersion(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t v = c.spec.driver_version;
  if (v == 0) return;
  if (v < 12000) o->Add(r, -1, v, 12000);
  else if (v < 12080 && NeedsDriver12080(c.spec)) o->Add(r, -1, v, 12080);
}
std::string MsgDriverVersion(const TensorMapSpec& s, const Finding& f) {
  if (f.limit == 12000) return StrCat("driver_version = ", f.value, ": tensor maps need a CUDA 12.0 driver or later");
  std::string what = IsWideMode(s.mode) ? std::string("cuTensorMapEncodeIm2colWide")
                     : IsSubByte(s.data_type) ? std::string(FullName(s.data_type)) : std::string(FullName(s.swizzle));
  return StrCat("driver_version = ", f.value, ": ", what, " needs a CUDA 12.8 driver (r570) or later");
}
std::string FixDriverVersion(const TensorMapSpec&, const Finding& f) {
  return StrCat("install a driver that reports at least ", f.limit, " (cuDriverGetVersion)");
}

void CheckDriverOobBug(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t v = c.spec.driver_version;
  if (v == 0 || v >= 13020 || Info(c.target).cc < 100 || IsWideMode(c.spec.mode)) return;
  if (c.facts.global_extent_bytes < 131072) o->Add(r, -1, static_cast<int64_t>(c.facts.global_extent_bytes), 131072, c.target);
}
std::string MsgDriverOobBug(const TensorMapSpec& s, const Finding& f) {
  return StrCat("driver ", s.driver_version, " has a known tensor-map bug on Blackwell for tensors whose memory spans less "
             "than 128 KiB (this one spans ", f.value, " B): copies can fail now and then (CUTLASS CHANGELOG "
             "4.3.4; CCCL nvbug 5736804)");
}
std::string FixDriverOobBug(const TensorMapSpec&, const Finding&) {
  return "after encoding, clear bit 21 of word 1 of the map (bit 85) when the tensor is not dense, as CUTLASS and "
         "CCCL do, or use a driver of 13.2 or later";
}

// ============================== unused fields ==============================
uint32_t UnusedFields(const TensorMapSpec& s) {
  uint32_t ignored = 0;
  if (IsIm2colMode(s.mode)) ignored |= kFieldBoxDim;
  if (!IsIm2colMode(s.mode)) ignored |= kFieldChannelsPerPixel | kFieldPixelsPerColumn;
  if (s.mode != Mode::kIm2col) ignored |= kFieldLowerCorner | kFieldUpperCorner;
  if (!IsWideMode(s.mode)) ignored |= kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode;
  if (s.direction != Direction::kReduce) ignored |= kFieldReduceOp;
  return s.set_fields & ignored;
}
void CheckUnusedFields(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t u = UnusedFields(c.spec);
  for (uint32_t bit = 1; bit != 0 && bit <= u; bit <<= 1)
    if (u & bit) o->Add(r, -1, bit, 0);
}
std::string_view FieldName(uint32_t bit) {
  switch (bit) {
    case kFieldBoxDim: return "box_dim";
    case kFieldChannelsPerPixel: return "channels_per_pixel";
    case kFieldPixelsPerColumn: return "pixels_per_column";
    case kFieldLowerCorner: return "pixel_box_lower_corner";
    case kFieldUpperCorner: return "pixel_box_upper_corner";
    case kFieldLowerCornerWidth: return "pixel_box_lower_corner_width";
    case kFieldUpperCornerWidth: return "pixel_box_upper_corner_width";
    case kFieldWideMode: return "wide_mode";
    case kFieldReduceOp: return "reduce_op";
    default: return "field";
  }
}
std::string MsgUnusedFields(const TensorMapSpec& s, const Finding& f) {
  const uint32_t bit = static_cast<uint32_t>(f.value);
  std::string ctx = bit == kFieldReduceOp ? StrCat("direction ", Name(s.direction)) : StrCat("mode ", Name(s.mode));
  return StrCat(FieldName(bit), " is ignored with ", ctx);
}
std::string FixUnusedFields(const TensorMapSpec& s, const Finding& f) {
  return StrCat("remove ", FieldName(static_cast<uint32_t>(f.value)), ", or check that mode ", Name(s.mode), " is the one meant");
}

// ============================== field paths that depend on the spec ==============================
std::string FieldOfUnused(const TensorMapSpec&, const Finding& f) {
  return std::string(FieldName(static_cast<uint32_t>(f.value)));
}
std::string FieldOfStoreCorner(const TensorMapSpec& s, const Finding& f) { return CornerFieldName(s, f.index); }
std::string FieldOfSmem(const TensorMapSpec&, const Finding& f) {
  return f.index == 1 ? "smem_alignment" : "smem_address";
}
std::string FieldOfInnerBox(const TensorMapSpec& s, const Finding&) {
  return IsIm2colMode(s.mode) ? "channels_per_pixel" : "box_dim[0]";
}
std::string FieldOfBoxSize(const TensorMapSpec& s, const Finding&) {
  return IsIm2colMode(s.mode) ? "pixels_per_column" : "box_dim";
}

// ============================== the table ==============================
constexpr uint8_t kAll = kAllModes;
constexpr uint8_t kIm2colOnly = ModeBit(Mode::kIm2col);
constexpr uint8_t kNotGSWide = ModeBit(Mode::kTiled) | ModeBit(Mode::kIm2col);

constexpr std::string_view kSrcPtxGather = "PTX ISA 9.2 section 5.5.3.4 (.tile::gather4 and .tile::scatter4)";
constexpr std::string_view kSrcPtxWide = "PTX ISA 9.2 section 5.5.5 (im2col::w and im2col::w::128)";
constexpr std::string_view kSrcPtxInterleave = "PTX ISA 9.2 sections 5.5.3.4 and 5.5.6 (interleave layout)";
constexpr std::string_view kSrcPtxCopy = "PTX ISA 9.2 section 9.7.9.25.5.1 (restrictions on tensor copies)";
constexpr std::string_view kSrcPtxTargets = "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor target table)";
constexpr std::string_view kSrcCpgAlign = "CUDA Programming Guide, TMA alignment table and swizzle table (section 4.11.2.2)";

constexpr Rule kRules[] = {
    {"rank-range", Severity::kError, kTiledLike & ~kGS, false, "tensor_rank", "tensor_rank is 1 to 5.",
     CheckRankRange, MsgRankRange, FixRankRange, nullptr, kSrcTiled},
    {"im2col-rank", Severity::kError, kIm2colAll, false, "tensor_rank", "im2col maps have rank 3, 4 or 5 (NWC, NHWC, NDHWC).",
     CheckIm2colRank, MsgIm2colRank, FixIm2colRank, nullptr, "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide"},
    {"interleave-rank", Severity::kError, kAll, false, "tensor_rank", "An interleaved layout needs rank 3 or more.",
     CheckInterleaveRank, MsgInterleaveRank, FixInterleaveRank, PatchInterleaveNone, kSrcTiled},
    {"gather4-rank", Severity::kError, kGS, false, "tensor_rank", "gather4 and scatter4 use a 2D tiled map.",
     CheckGather4Rank, MsgGather4Rank, FixGather4Rank, nullptr, kSrcPtxGather},
    {"global-dim-range", Severity::kError, kAll, false, "global_dim[i]", "Every global_dim is 1 to 2^32.",
     CheckGlobalDimRange, MsgGlobalDimRange, FixGlobalDimRange, PatchGlobalDimRange, kSrcAll},
    {"global-dim-packed", Severity::kError, kAll, false, "global_dim[i]",
     "16U4_ALIGN16B and 16U6_ALIGN16B need global_dim[0] % 128 == 0; 16U4_ALIGN8B needs it even.",
     CheckGlobalDimPacked, MsgGlobalDimPacked, FixGlobalDimPacked, PatchGlobalDimPacked, kSrcAll},
    {"global-stride-align-16", Severity::kError, kAll, false, "global_strides[i]", "Every global stride is a multiple of 16 bytes.",
     CheckStrideAlign16, MsgStrideAlign16, FixStrideAlign16, PatchStrideAlign, kSrcAll},
    {"global-stride-align-32", Severity::kError, kAll, false, "global_strides[i]",
     "With INTERLEAVE_32B or the ALIGN16B packed types every global stride is a multiple of 32 bytes.",
     CheckStrideAlign32, MsgStrideAlign32, FixStrideAlign32, PatchStrideAlign, kSrcAll},
    {"global-stride-max", Severity::kError, kAll, false, "global_strides[i]", "Every global stride is below 2^40 bytes.",
     CheckStrideMax, MsgStrideMax, FixStrideMax, nullptr, kSrcAll},
    {"global-stride-overlap", Severity::kWarning, kAll, false, "global_strides[i]",
     "Each stride covers the dimensions inside it (stride[0] >= row bytes, stride[i] >= stride[i-1] x dim[i]).",
     CheckStrideOverlap, MsgStrideOverlap, FixStrideOverlap, nullptr,
     "cuda.h (CUDA 13.0) globalStrides relation; driver behaviour measured (tma-spec.md section 6)"},
    {"global-address-align-16", Severity::kError, kAll, false, "global_address", "global_address is 16-byte aligned.",
     CheckAddrAlign16, MsgAddrAlign16, FixAddrAlign, nullptr, kSrcAll},
    {"global-address-align-32", Severity::kError, kAll, false, "global_address",
     "With INTERLEAVE_32B or the ALIGN16B packed types global_address is 32-byte aligned.",
     CheckAddrAlign32, MsgAddrAlign32, FixAddrAlign, nullptr, kSrcAll},
    {"global-address-align-128-swizzle", Severity::kWarning, kAll, false, "global_address",
     "With a swizzle, global memory should be 128-byte aligned.",
     CheckAddrAlign128Swizzle, MsgAddrAlign128Swizzle, FixAddrAlign, nullptr, kSrcCpgAlign},
    {"box-dim-range", Severity::kError, kTiledLike, false, "box_dim[i]", "Every box_dim is 1 to 256.",
     CheckBoxRange, MsgBoxRange, FixBoxRange, PatchBoxRange, kSrcTiled},
    {"box-inner-bytes-16", Severity::kError, kTiledLike, false, "box_dim[0]",
     "box_dim[0] x element size is a multiple of 16 bytes.",
     CheckBoxInner16, MsgBoxInner16, FixBoxInner16, PatchBoxInner16,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled (interleave NONE); PTX ISA 9.2 section 5.5.3.1 for all layouts; "
     "measured with INTERLEAVE_16B (tma-spec.md section 6)"},
    {"box-packed-128", Severity::kError, kTiledLike, false, "box_dim[0]",
     "16U4_ALIGN16B and 16U6_ALIGN16B copy rows of exactly 128 elements.",
     CheckBoxPacked128, MsgBoxPacked128, FixBoxPacked128, PatchBoxPacked128, kSrcTiled},
    {"box-exceeds-tensor", Severity::kNote, kTiledLike, false, "box_dim[i]",
     "A box larger than the tensor is legal; the excess is filled on every copy.",
     CheckBoxExceedsTensor, MsgBoxExceedsTensor, FixBoxExceedsTensor, nullptr, kMeasured},
    {"gather4-box-rows", Severity::kError, kGS, false, "box_dim[1]", "gather4 and scatter4 boxes are one row high.",
     CheckGather4BoxRows, MsgGather4BoxRows, FixGather4BoxRows, PatchGather4BoxRows, kSrcPtxGather},
    {"element-stride-range", Severity::kError, kAll, false, "element_strides[i]", "Every element stride is 1 to 8.",
     CheckElementStrideRange, MsgElementStrideRange, FixElementStrideRange, PatchElementStrideRange, kSrcAll},
    {"element-stride-dim0", Severity::kWarning, kAll, false, "element_strides[0]",
     "Without interleave element_strides[0] is ignored and should be 1.",
     CheckElementStrideDim0, MsgElementStrideDim0, FixElementStrideDim0, PatchElementStrideDim0,
     "cuda.h (CUDA 13.0) elementStrides; PTX ISA 9.2 section 5.5.3.2 (traversal stride)"},
    {"swizzle-inner-span", Severity::kError, kAll, false, "box_dim[0]",
     "Without interleave the inner box dimension in bytes fits the swizzle span (32, 64 or 128 B).",
     CheckSwizzleSpan, MsgSwizzleSpan, FixSwizzleSpan, PatchSwizzleSpan, kSrcAll, FieldOfInnerBox},
    {"swizzle-inner-below-span", Severity::kNote, kAll, false, "box_dim[0]",
     "An inner box narrower than the swizzle span still occupies whole spans in shared memory.",
     CheckSwizzleBelowSpan, MsgSwizzleBelowSpan, FixSwizzleBelowSpan, nullptr, kSrcCpgAlign, FieldOfInnerBox},
    {"interleave-32b-swizzle", Severity::kError, kAll, false, "swizzle", "INTERLEAVE_32B requires SWIZZLE_32B.",
     CheckInterleave32Swizzle, MsgInterleave32Swizzle, FixInterleave32Swizzle, PatchSwizzle32, kSrcAll},
    {"interleave-mode", Severity::kError, kGS | kWide, false, "interleave",
     "gather4, scatter4, im2col::w and im2col::w::128 do not support interleaved layouts.",
     CheckInterleaveMode, MsgInterleaveMode, FixInterleaveMode, PatchInterleaveNone, kSrcPtxInterleave},
    {"packed-u6-interleave", Severity::kError, kAll, false, "interleave", "16U6_ALIGN16B requires INTERLEAVE_NONE.",
     CheckPackedU6Interleave, MsgPackedU6Interleave, FixInterleaveMode, PatchInterleaveNone, kSrcAll},
    {"packed-swizzle", Severity::kError, kAll, false, "swizzle",
     "16U4_ALIGN16B and 16U6_ALIGN16B support only the swizzles cuda.h lists for them.",
     CheckPackedSwizzle, MsgPackedSwizzle, FixPackedSwizzle, PatchSwizzle128, kSrcAll},
    {"packed-direction", Severity::kError, kAll, false, "direction",
     "16U4_ALIGN16B is load only; 16U6_ALIGN16B with 128B_ATOM_64B is store only; reductions take no sub-byte type.",
     CheckPackedDirection, MsgPackedDirection, FixPackedDirection, PatchPackedDirection,
     "cuda.h (CUDA 13.0) swizzle lists for packed types; PTX ISA 9.2 section 9.7.9.25.5.1"},
    {"oob-nan-float", Severity::kError, kAll, false, "oob_fill", "OOB NaN fill needs a floating-point data type.",
     CheckOobNanFloat, MsgOobNanFloat, FixOobNanFloat, PatchOobNone, kSrcAll},
    {"im2col-lower-corner-range", Severity::kError, kIm2colOnly, false, "pixel_box_lower_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     CheckLowerCorner, MsgLowerCorner, FixCorner, PatchLowerCorner, kSrcIm2col},
    {"im2col-upper-corner-range", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     CheckUpperCorner, MsgUpperCorner, FixCorner, PatchUpperCorner, kSrcIm2col},
    {"im2col-box-area", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "The im2col bounding box has non-zero area: dim + upper - lower >= 1 along each of D, H, W.",
     CheckIm2colBoxArea, MsgIm2colBoxArea, FixIm2colBoxArea, PatchIm2colBoxArea,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col; measured (tma-spec.md section 6)"},
    {"im2col-interleave-box-area", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "With an interleaved layout the driver checks im2col corner i against global_dim[i]: dim + upper - lower >= 1.",
     CheckIm2colInterleaveBoxArea, MsgIm2colInterleaveBoxArea, FixIm2colInterleaveBoxArea, PatchInterleaveNone,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B3); undocumented in cuda.h"},
    {"im2col-spatial-dim-int32", Severity::kError, kIm2colAll, false, "global_dim[i]",
     "Along W, H and D, global_dim + upper corner is at most 2^31 - 1 (the driver computes the pixel box in int32).",
     CheckIm2colSpatialInt32, MsgIm2colSpatialInt32, FixIm2colSpatialInt32, nullptr,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B2); undocumented in cuda.h"},
    {"im2col-channels-range", Severity::kError, kIm2colAll, false, "channels_per_pixel",
     "channels_per_pixel is 1 to 256 (exactly 128 for the ALIGN16B packed types).",
     CheckChannelsRange, MsgChannelsRange, FixChannelsRange, PatchChannelsRange,
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 measured rejected (tma-spec.md section 6)"},
    {"im2col-channels-bytes-16", Severity::kError, kIm2colAll, false, "channels_per_pixel",
     "channels_per_pixel x element size is a multiple of 16 bytes.",
     CheckChannelsBytes16, MsgChannelsBytes16, FixChannelsBytes16, PatchChannelsBytes16,
     "measured: H200 sm_90, driver 580.159.04 (tma-spec.md section 6); undocumented in cuda.h"},
    {"im2col-pixels-range", Severity::kError, kIm2colAll, false, "pixels_per_column",
     "pixels_per_column is 1 to 1024 (range-checked even in im2col::w::128 mode).",
     CheckPixelsRange, MsgPixelsRange, FixPixelsRange, PatchPixelsRange,
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 and 1025 measured rejected (tma-spec.md section 6)"},
    {"wide-lower-corner-range", Severity::kError, kWide, false, "pixel_box_lower_corner_width",
     "pixel_box_lower_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver enforces the im2col range).",
     CheckWideLower, MsgWideLower, FixWideCorner, PatchWideLower,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)"},
    {"wide-upper-corner-range", Severity::kError, kWide, false, "pixel_box_upper_corner_width",
     "pixel_box_upper_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver enforces the im2col range).",
     CheckWideUpper, MsgWideUpper, FixWideCorner, PatchWideUpper,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)"},
    {"wide-box-area", Severity::kError, kWide, false, "pixel_box_upper_corner_width",
     "The W bounding box has non-zero area: W + upper - lower >= 1.",
     CheckWideBoxArea, MsgWideBoxArea, FixWideBoxArea, PatchWideBoxArea, kSrcWide},
    {"wide-swizzle", Severity::kError, kWide, false, "swizzle",
     "im2col::w maps use SWIZZLE_64B, SWIZZLE_128B or SWIZZLE_128B_ATOM_32B.",
     CheckWideSwizzle, MsgWideSwizzle, FixWideSwizzle, PatchSwizzle128,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; PTX ISA 9.2 section 5.5.5"},
    {"wide-mode-mismatch", Severity::kError, kWide, false, "wide_mode", "wide_mode agrees with the mode (W for im2col::w, W128 for im2col::w::128).",
     CheckWideModeMismatch, MsgWideModeMismatch, FixWideModeMismatch, PatchWideModeMismatch, kSrcPtxWide},
    {"wide-w128-pixels", Severity::kNote, ModeBit(Mode::kIm2colW128), false, "pixels_per_column",
     "im2col::w::128 always moves 128 pixels; pixels_per_column is ignored.",
     CheckW128Pixels, MsgW128Pixels, FixW128Pixels, nullptr, kSrcWide},
    {"im2col-store-corners", Severity::kError, ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW), false, "pixel_box_lower_corner",
     "Stores and reductions through im2col maps keep the bounding box inside the tensor (lower >= 0, upper <= 0).",
     CheckIm2colStoreCorners, MsgIm2colStoreCorners, FixIm2colStoreCorners, PatchIm2colStoreCorners,
     "PTX ISA 9.2 section 9.7.9.25.5.1 (.global.shared::cta direction); PTX ISA section 5.5.5.1 (im2col_no_offs::w)", FieldOfStoreCorner},
    {"mode-direction", Severity::kError, kGS | ModeBit(Mode::kIm2colW128), false, "direction",
     "gather4 and im2col::w::128 are loads; scatter4 is a store.",
     CheckModeDirection, MsgModeDirection, FixModeDirection, PatchModeDirection,
     "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor syntax: load_mode per direction)"},
    {"swizzle-flip8b-load-only", Severity::kError, kAll, false, "swizzle",
     "SWIZZLE_128B_ATOM_32B_FLIP_8B is legal only for copies into shared memory.",
     CheckFlip8bLoadOnly, MsgFlip8bLoadOnly, FixFlip8bLoadOnly, PatchSwizzleAtom32, "PTX ISA 9.2 section 5.5.7 (swizzling modes)"},
    {"reduce-op-type", Severity::kError, kNotGSWide | ModeBit(Mode::kIm2colW), false, "reduce_op",
     "The reduction operation supports the data type (.add: u32 s32 u64 f32 f16 bf16; .min/.max: u32 s32 u64 s64 f16 "
     "bf16; .inc/.dec: u32; .and/.or/.xor: u32, s32, u64).",
     CheckReduceOpType, MsgReduceOpType, FixReduceOpType, nullptr,
     "PTX ISA 9.2 section 9.7.9.25.5.3 (cp.reduce.async.bulk.tensor); bitwise ops measured on an H200 (docs/hardware.md)"},
    {"target-swizzle-atomicity", Severity::kError, kAll, true, "swizzle",
     "The 128B_ATOM_* swizzles need compute capability 10.0 or later.",
     CheckTargetAtomicity, MsgTargetAtomicity, FixTargetAtomicity, PatchSwizzle128,
     "PTX ISA 9.2 section 9.7.9.26 (.swizzle_atomicity targets); measured (tma-spec.md section 6)"},
    {"target-sub-byte", Severity::kError, kAll, true, "tensor_data_type",
     "The 16U4 and 16U6 data types need compute capability 10.0 or later.",
     CheckTargetSubByte, MsgTargetSubByte, FixTargetSubByte, nullptr,
     "PTX ISA 9.2 section 9.7.9.26 (.elemtype 13-15 targets); measured (tma-spec.md section 6)"},
    {"target-mode", Severity::kError, kAll & ~kNotGSWide, true, "mode",
     "gather4 and im2col::w need sm_100 or later (the a/f targets for .shared::cluster and prefetch); scatter4 and "
     "im2col::w::128 need sm_100a/sm_101a/sm_103a/sm_110a or a family target.",
     CheckTargetMode, MsgTargetMode, FixTargetMode, nullptr, kSrcPtxTargets},
    {"target-sm120-cluster", Severity::kError, kAll, true, "direction",
     "On sm_120 class targets, copies to .shared::cluster support neither sub-byte types nor swizzle atomicity.",
     CheckTargetSm120Cluster, MsgTargetSm120Cluster, FixTargetSm120Cluster, nullptr, kSrcPtxCopy},
    {"target-smem-capacity", Severity::kError, kAll, true, "box_dim",
     "One copy fits in the shared memory a block can have on the target (227 KiB; 99 KiB on sm_120 class).",
     CheckTargetSmemCapacity, MsgTargetSmemCapacity, FixTargetSmemCapacity, nullptr,
     "CUDA Programming Guide, compute capabilities table (shared memory per block); driver behaviour measured", FieldOfBoxSize},
    {"box-driver-size-limit", Severity::kError, kAll, true, "box_dim",
     "The box (tiled: prod floor(box_dim / element_strides); im2col: channels x pixels) x element size fits the "
     "target's shared memory per SM (228 KiB on sm_90), whatever the direction.",
     CheckBoxDriverLimit, MsgBoxDriverLimit, FixTargetSmemCapacity, nullptr,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B1); undocumented in cuda.h", FieldOfBoxSize},
    {"smem-align-128", Severity::kError, kAll, false, "smem_address",
     "The shared-memory destination is 128-byte aligned.",
     CheckSmemAlign128, MsgSmemAlign128, FixSmemAlign128, nullptr, kSrcCpgAlign, FieldOfSmem},
    {"smem-swizzle-phase", Severity::kWarning, kAll, false, "smem_address",
     "A swizzled destination should start on the swizzle repeat (256, 512 or 1024 B) so the base offset is 0.",
     CheckSmemSwizzlePhase, MsgSmemSwizzlePhase, FixSmemSwizzlePhase, nullptr,
     "PTX ISA 9.2 section 5.5.7 (swizzle base offset); CUDA Programming Guide swizzle table", FieldOfSmem},
    {"driver-version", Severity::kError, kAll, false, "driver_version",
     "Tensor maps need driver 12.0; sub-byte types, atomicity swizzles and Im2colWide need 12.8.",
     CheckDriverVersion, MsgDriverVersion, FixDriverVersion, nullptr,
     "cudaTypedefs.h (PFN_cuTensorMapEncodeIm2colWide_v12080); CUDA 12.8 release (tma-spec.md section 1.9)"},
    {"driver-oob-address-bug", Severity::kWarning, kAll, true, "driver_version",
     "Drivers before 13.2 mis-encode maps of tensors under 128 KiB on Blackwell.",
     CheckDriverOobBug, MsgDriverOobBug, FixDriverOobBug, nullptr,
     "CUTLASS CHANGELOG 4.3.4 (commit b7ecaa605); CCCL __tensorMapEncodeTiled (nvbug 5736804)"},
    {"unused-field", Severity::kNote, kAll, false, "",
     "Fields the chosen mode or direction does not use are ignored.",
     CheckUnusedFields, MsgUnusedFields, FixUnusedFields, nullptr, "cuda.h (CUDA 13.0) encoder signatures", FieldOfUnused},
};

constexpr int kNumRulesValue = static_cast<int>(sizeof(kRules) / sizeof(kRules[0]));

// Runs the rules of one kind for one mode. The table is constexpr, so each check is called directly and
// can be inlined; rules that do not apply to the mode cost nothing.
template <int M, bool PerTarget, size_t... I>
int RunFor(const CheckContext& c, FindingList* o, std::index_sequence<I...>) {
  int errors = 0;
  auto one = [&](auto index) {
    constexpr size_t i = decltype(index)::value;
    if constexpr (kRules[i].per_target == PerTarget && (kRules[i].modes & ModeBit(static_cast<Mode>(M))) != 0) {
      const int before = o->size();
      kRules[i].check(c, static_cast<uint16_t>(i), o);
      if constexpr (kRules[i].severity == Severity::kError) errors += o->size() - before;
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
  return errors;
}

template <bool PerTarget>
int RunForMode(const CheckContext& c, FindingList* o) {
  using Seq = std::make_index_sequence<static_cast<size_t>(kNumRulesValue)>;
  switch (c.spec.mode) {
    case Mode::kTiled: return RunFor<0, PerTarget>(c, o, Seq{});
    case Mode::kIm2col: return RunFor<1, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW: return RunFor<2, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW128: return RunFor<3, PerTarget>(c, o, Seq{});
    case Mode::kGather4: return RunFor<4, PerTarget>(c, o, Seq{});
    case Mode::kScatter4: return RunFor<5, PerTarget>(c, o, Seq{});
  }
  return 0;
}

}  // namespace

int RunRules(const CheckContext& ctx, bool per_target, FindingList* out) {
  return per_target ? RunForMode<true>(ctx, out) : RunForMode<false>(ctx, out);
}

std::string_view Name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

const Rule* Rules() { return kRules; }
int NumRules() { return kNumRulesValue; }

int FindRule(std::string_view id) {
  for (int i = 0; i < kNumRulesValue; ++i)
    if (kRules[i].id == id) return i;
  return -1;
}

std::string FieldPath(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  if (r.field_path != nullptr) return r.field_path(s, f);
  const std::string_view field = r.field;
  const size_t p = field.find("[i]");
  if (p == std::string_view::npos) return std::string(field);
  if (f.index < 0) return std::string(field.substr(0, p));
  return StrCat(field.substr(0, p), "[", static_cast<int>(f.index), "]", field.substr(p + 3));
}

}  // namespace tmapgen
