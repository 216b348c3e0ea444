// idesc.cc: checks, messages and fixes of the descriptor rules about the tcgen05 instruction descriptor
//   (idesc.h).
#include "src/desc/rules/idesc.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/common.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

namespace {
const IdescCheck* I(const DescContext& c) { return c.idesc; }
}  // namespace
namespace {
std::string KindName(const DescContext& c) { return StrCat(".kind::", Name(I(c)->spec.kind)); }
}  // namespace
void CheckIdVariant(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && !ValidVariant(I(c)->spec)) o->Add(r, -1, I(c)->spec.cta_group, I(c)->spec.ws ? 1 : 0);
}
std::string MsgIdVariant(const DescContext& c, const Finding&) {
  const IdescSpec& s = I(c)->spec;
  if (s.cta_group != 1 && s.cta_group != 2) return StrCat(".cta_group::", s.cta_group, " does not exist (1 or 2)");
  if (s.ws && s.cta_group != 1) return "tcgen05.mma.ws exists only with .cta_group::1";
  return StrCat("tcgen05.mma.ws does not support ", KindName(c), " (Table 39: Invalid)");
}
std::string FixIdVariant(const DescContext&, const Finding&) { return "use .cta_group::1 or ::2 without .ws for block-scaled kinds"; }
void CheckIdM(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && ValidVariant(I(c)->spec) && !ValidM(I(c)->spec)) o->Add(r, -1, I(c)->spec.m, 0);
}
std::string MsgIdM(const DescContext& c, const Finding& f) {
  const IdescSpec& s = I(c)->spec;
  return StrCat("M = ", f.value, " is not valid for ", FormText(s), ": M must be ", ValidMText(s), " (shapes of this form: ",
                FormShapeText(s), ")");
}
std::string FixIdM(const DescContext& c, const Finding&) { return StrCat("use M in {", ValidMText(I(c)->spec), "}"); }
void CheckIdN(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && ValidVariant(I(c)->spec) && !ValidN(I(c)->spec)) o->Add(r, -1, I(c)->spec.n, 0);
}
std::string MsgIdN(const DescContext& c, const Finding& f) {
  const IdescSpec& s = I(c)->spec;
  std::string why;
  if (TmemANarrowsN(s)) {
    IdescSpec smem = s;
    smem.a_tmem = false;
    why = StrCat("; with A in shared memory N could be ", ValidNText(smem), ", but with A in tensor memory CUTLASS's ",
                 s.cta_group == 1 ? "SM100_MMA_*_TS" : "SM100_MMA_*_2x1SM_TS", " atoms require ", ValidNText(s),
                 " (cute/arch/mma_sm100_umma.hpp; PTX Table 39 does not separate the A source)");
  }
  return StrCat("N = ", f.value, " is not valid for ", FormText(s), " with M = ", s.m, ": N must be ", ValidNText(s), why);
}
std::string FixIdN(const DescContext& c, const Finding&) {
  const IdescSpec& s = I(c)->spec;
  std::string alt;
  if (TmemANarrowsN(s)) {
    IdescSpec smem = s;
    smem.a_tmem = false;
    if (ValidN(smem)) alt = " or read A from shared memory (a_desc), which allows this N";
  }
  return StrCat("use N in ", ValidNText(s), alt);
}

// A in tensor memory is K-major: CUTLASS's *_TS atoms static_assert "A from TMEM can't be transposed"
// (cute/arch/mma_sm100_umma.hpp), so the transpose-A bit must be 0.
void CheckIdTmemTranspose(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && I(c)->spec.a_tmem && I(c)->fields.transpose_a) o->Add(r, -1, 1, 0);
}
std::string MsgIdTmemTranspose(const DescContext& c, const Finding&) {
  return StrCat("transpose A (bit 15) is set for ", FormText(I(c)->spec),
                ": A read from tensor memory is K-major (CUTLASS SM100_MMA_*_TS: \"A from TMEM can't be transposed\")");
}
std::string FixIdTmemTranspose(const DescContext&, const Finding&) {
  return "clear bit 15 (--a-major K), or read an MN-major A from shared memory (--a-source smem)";
}
void CheckIdK96(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c) || !I(c)->spec.k96) return;
  const IdescSpec& s = I(c)->spec;
  if (s.cta_group != 2 || s.m != 256 || s.sparse) o->Add(r, 0, s.m, 256);
  if (s.has_target && s.target != Target::kSm103a) o->Add(r, 1, static_cast<int>(s.target), 0);
}
std::string MsgIdK96(const DescContext& c, const Finding& f) {
  if (f.index == 1) return StrCat("K = 96 (bit 31) is supported only on sm_103a; the target is ", Name(I(c)->spec.target));
  return "K = 96 (bit 31) exists only for dense .cta_group::2 MMAs with M = 256";
}
std::string FixIdK96(const DescContext&, const Finding&) { return "clear bit 31 (K = 64), or use cta_group 2, M = 256 on sm_103a"; }
void CheckIdDType(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c) || IsBlockScaled(I(c)->spec.kind)) return;
  const IdescSpec& s = I(c)->spec;
  const uint32_t d = I(c)->fields.d_type;
  bool ok = false;
  switch (s.kind) {
    case MmaKind::kTf32: ok = d == 1; break;
    case MmaKind::kF16: ok = d == 1 || (d == 0 && s.a_type == ElemType::kF16 && s.b_type == ElemType::kF16); break;
    case MmaKind::kF8f6f4: ok = d == 0 || d == 1; break;
    case MmaKind::kI8: ok = d == 2; break;
    default: ok = true;
  }
  if (!ok) o->Add(r, -1, d, 0);
}
std::string MsgIdDType(const DescContext& c, const Finding& f) {
  const std::string got = f.value <= 2 ? std::string(Name(static_cast<DType>(f.value))) : StrCat("code ", f.value);
  switch (I(c)->spec.kind) {
    case MmaKind::kTf32: return StrCat("D type ", got, ": .kind::tf32 accumulates in f32 (1)");
    case MmaKind::kF16: return StrCat("D type ", got, ": .kind::f16 accumulates in f16 (0) for f16 inputs or f32 (1); bf16 inputs need f32");
    case MmaKind::kF8f6f4: return StrCat("D type ", got, ": .kind::f8f6f4 accumulates in f16 (0) or f32 (1)");
    case MmaKind::kI8: return StrCat("D type ", got, ": .kind::i8 accumulates in s32 (2)");
    default: return "";
  }
}
std::string FixIdDType(const DescContext& c, const Finding&) {
  return I(c)->spec.kind == MmaKind::kI8 ? "use --d-type s32" : "use --d-type f32";
}
void CheckIdAbType(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  ElemType t;
  if (!TypeFromCode(I(c)->spec.kind, I(c)->fields.a_type, &t)) o->Add(r, 0, I(c)->fields.a_type, 0);
  if (!TypeFromCode(I(c)->spec.kind, I(c)->fields.b_type, &t)) o->Add(r, 1, I(c)->fields.b_type, 0);
}
namespace {
std::string TypesOf(MmaKind k) {
  switch (k) {
    case MmaKind::kF16: return "f16 (0), bf16 (1)";
    case MmaKind::kTf32: return "tf32 (2)";
    case MmaKind::kF8f6f4: case MmaKind::kMxf8f6f4: return "e4m3 (0), e5m2 (1), e2m3 (3), e3m2 (4), e2m1 (5)";
    case MmaKind::kI8: return "u8 (0), s8 (1)";
    default: return "e2m1 (1)";
  }
}
}  // namespace
std::string MsgIdAbType(const DescContext& c, const Finding& f) {
  return StrCat(f.index == 0 ? "A" : "B", " type code ", f.value, " is not a ", KindName(c), " type: ", TypesOf(I(c)->spec.kind));
}
std::string FixIdAbType(const DescContext& c, const Finding&) { return StrCat("use one of ", TypesOf(I(c)->spec.kind)); }
void CheckIdAbMatch(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && I(c)->spec.kind == MmaKind::kF16 && I(c)->fields.a_type <= 1 && I(c)->fields.a_type != I(c)->fields.b_type)
    o->Add(r, -1, I(c)->fields.a_type, I(c)->fields.b_type);
}
std::string MsgIdAbMatch(const DescContext&, const Finding&) {
  return ".kind::f16 multiplies f16 by f16 or bf16 by bf16 (Table 39); A and B types differ";
}
std::string FixIdAbMatch(const DescContext&, const Finding&) { return "give A and B the same type"; }
void CheckIdNegateI8(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && I(c)->spec.kind == MmaKind::kI8 && (I(c)->fields.negate_a || I(c)->fields.negate_b))
    o->Add(r, -1, I(c)->fields.negate_a | (I(c)->fields.negate_b << 1), 0);
}
std::string MsgIdNegateI8(const DescContext&, const Finding&) { return ".kind::i8 does not support negating A or B (bits 13-14 must be 0)"; }
std::string FixIdNegateI8(const DescContext&, const Finding&) { return "clear the negate bits; negate the data instead"; }
void CheckIdSaturate(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && I(c)->spec.kind != MmaKind::kI8 && !IsBlockScaled(I(c)->spec.kind) && I(c)->fields.saturate)
    o->Add(r, -1, 1, 0);
}
std::string MsgIdSaturate(const DescContext& c, const Finding&) {
  return StrCat("saturate (bit 3) applies to .kind::i8 only; ", KindName(c), " requires 0");
}
std::string FixIdSaturate(const DescContext&, const Finding&) { return "clear bit 3"; }
void CheckIdTransposeKind(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  const MmaKind k = I(c)->spec.kind;
  if ((k == MmaKind::kMxf4 || k == MmaKind::kMxf4nvf4) && (I(c)->fields.transpose_a || I(c)->fields.transpose_b))
    o->Add(r, -1, I(c)->fields.transpose_a | (I(c)->fields.transpose_b << 1), 0);
}
std::string MsgIdTransposeKind(const DescContext& c, const Finding&) {
  return StrCat(KindName(c), " does not support transpose (MN-major operands): bits 15-16 must be 0");
}
std::string FixIdTransposeKind(const DescContext&, const Finding&) { return "store A and B K-major"; }
void CheckIdTransposeType(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  const IdescSpec& s = I(c)->spec;
  if (s.kind != MmaKind::kF8f6f4 && s.kind != MmaKind::kMxf8f6f4) return;
  if (I(c)->fields.transpose_a && IsSubByte(s.a_type)) o->Add(r, 0, static_cast<int>(s.a_type), 0);
  if (I(c)->fields.transpose_b && IsSubByte(s.b_type)) o->Add(r, 1, static_cast<int>(s.b_type), 0);
}
std::string MsgIdTransposeType(const DescContext&, const Finding& f) {
  return StrCat(f.index == 0 ? "A" : "B", " is ", Name(static_cast<ElemType>(f.value)), " and transposed (MN-major): ",
             "MN-major operands exist for 8-, 16- and 32-bit types only (Table 54); 6- and 4-bit operands are K-major");
}
std::string FixIdTransposeType(const DescContext&, const Finding& f) {
  return StrCat("store ", f.index == 0 ? "A" : "B", " K-major and clear its transpose bit");
}
void CheckIdTransposeN(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  const IdescSpec& s = I(c)->spec;
  const bool eight = IsFloat8(s.b_type) || IsInt8(s.b_type);
  if (!I(c)->fields.transpose_b || !eight) return;
  const uint32_t step = s.cta_group == 2 ? 32 : 16;
  if (s.n < step || s.n % step != 0) o->Add(r, -1, s.n, step);
}
std::string MsgIdTransposeN(const DescContext& c, const Finding& f) {
  return StrCat("N = ", f.value, " with an 8-bit transposed (MN-major) B and .cta_group::", I(c)->spec.cta_group, ": N must be a "
             "multiple of ", f.limit, " from ", f.limit, " to 256");
}
std::string FixIdTransposeN(const DescContext&, const Finding& f) {
  return StrCat("use N = ", RoundUp(static_cast<uint64_t>(f.value == 0 ? 1 : f.value), static_cast<uint64_t>(f.limit)),
             ", or store B K-major");
}
void CheckIdSparseSel(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && !IsBlockScaled(I(c)->spec.kind) && !I(c)->fields.sparse && I(c)->fields.sparse_selector != 0)
    o->Add(r, -1, I(c)->fields.sparse_selector, 0);
}
std::string MsgIdSparseSel(const DescContext&, const Finding& f) {
  return StrCat("sparsity selector ", f.value, " on a dense MMA (bit 2 = 0): it is ignored");
}
std::string FixIdSparseSel(const DescContext&, const Finding&) { return "clear bits 0-1, or set bit 2 for a sparse MMA"; }
void CheckIdMaxShift(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c) || IsBlockScaled(I(c)->spec.kind)) return;
  if (!I(c)->user_value && MaxShiftCode(I(c)->spec.max_shift) < 0) o->Add(r, 0, I(c)->spec.max_shift, 0);
  else if (!I(c)->spec.ws && I(c)->fields.max_shift != 0) o->Add(r, 1, MaxShiftFromCode(I(c)->fields.max_shift), 0);
}
std::string MsgIdMaxShift(const DescContext&, const Finding& f) {
  if (f.index == 0) return StrCat("maximum shift ", f.value, " cannot be encoded: 0, 8, 16 or 32");
  return StrCat("maximum shift ", f.value, " (bits 30-31) applies to B-matrix reuse in tcgen05.mma.ws only");
}
std::string FixIdMaxShift(const DescContext&, const Finding&) { return "use 0 without .ws; 0, 8, 16 or 32 with .ws"; }
void CheckIdScaleType(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  const MmaKind k = I(c)->spec.kind;
  if ((k == MmaKind::kMxf8f6f4 || k == MmaKind::kMxf4) && I(c)->fields.scale_type != 1) o->Add(r, -1, I(c)->fields.scale_type, 1);
}
std::string MsgIdScaleType(const DescContext& c, const Finding&) {
  return StrCat(KindName(c), " scales with ue8m0 only (bit 23 = 1); ue4m3 is .kind::mxf4nvf4's");
}
std::string FixIdScaleType(const DescContext&, const Finding&) { return "set bit 23 (ue8m0), or use .kind::mxf4nvf4 for ue4m3 scales"; }
void CheckIdSfId(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c)) return;
  const MmaKind k = I(c)->spec.kind;
  if (k == MmaKind::kMxf4 || k == MmaKind::kMxf4nvf4) {
    if (I(c)->fields.a_sf_id != 0 && I(c)->fields.a_sf_id != 2) o->Add(r, 0, I(c)->fields.a_sf_id, 0);
    if (I(c)->fields.b_sf_id != 0 && I(c)->fields.b_sf_id != 2) o->Add(r, 1, I(c)->fields.b_sf_id, 0);
  }
  if (IsBlockScaled(k) && !I(c)->user_value) {
    if (I(c)->spec.a_sf_id > 3) o->Add(r, 0, I(c)->spec.a_sf_id, 3);
    if (I(c)->spec.b_sf_id > 3) o->Add(r, 1, I(c)->spec.b_sf_id, 3);
  }
}
std::string MsgIdSfId(const DescContext& c, const Finding& f) {
  if (f.limit == 3) return StrCat(f.index == 0 ? "A" : "B", " scale-factor id ", f.value, " does not fit the 2-bit field (0..3)");
  return StrCat(f.index == 0 ? "A" : "B", " scale-factor id ", f.value, ": ", KindName(c), " selects byte 0 or 2 (ids 0 or 2)");
}
std::string FixIdSfId(const DescContext&, const Finding&) { return "use scale-factor id 0 or 2"; }
void CheckIdReserved(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && I(c)->fields.reserved != 0) o->Add(r, -1, I(c)->fields.reserved, 0);
}
std::string MsgIdReserved(const DescContext& c, const Finding& f) {
  const uint32_t m = static_cast<uint32_t>(f.value);
  std::string s = StrCat("reserved bit", (m & (m - 1)) ? "s " : " ", BitList(m), " set for ", KindName(c));
  if (IsBlockScaled(I(c)->spec.kind) && (m & (7u << 24)))
    s += "; bits 24-26 are where CUTLASS's M >> 4 puts the low bits of M, which are 0 for the only valid M (128, 256)";
  return s;
}
std::string FixIdReserved(const DescContext&, const Finding&) { return "clear the reserved bits"; }
void CheckIdTarget(const DescContext& c, uint16_t r, FindingList* o) {
  if (!I(c) || !I(c)->spec.has_target) return;
  const Target t = I(c)->spec.target;
  if (!TargetHasTcgen05(t)) o->Add(r, 0, static_cast<int>(t), 0);
  else if (I(c)->spec.kind == MmaKind::kI8 && !TargetHasKindI8(t)) o->Add(r, 1, static_cast<int>(t), 0);
}
std::string MsgIdTarget(const DescContext& c, const Finding& f) {
  if (f.index == 0) return StrCat("tcgen05.mma is not available on ", Name(I(c)->spec.target));
  return StrCat(".kind::i8 is available on sm_100a, sm_101a and sm_110a only (no family targets); the target is ",
             Name(I(c)->spec.target));
}
std::string FixIdTarget(const DescContext&, const Finding& f) {
  return f.index == 0 ? "target sm_100a (or another tcgen05 target)" : "target sm_100a";
}

}  // namespace tmapgen::desc::rules
