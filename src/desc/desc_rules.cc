// desc_rules.cc: the descriptor rule table. One row per rule; checks, messages and fixes are defined
// just above the rows, grouped by scope (value, layout, advance, map, instruction descriptor).
#include "src/desc/desc_rules.h"

#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

// Sources, named once.
constexpr std::string_view kSrcWgmmaDesc = "PTX ISA 9.2 section 9.7.15.5.1.2.2 (wgmma matrix descriptor format)";
constexpr std::string_view kSrcWgmmaLayout =
    "PTX ISA 9.2 section 9.7.15.5.1.2 (wgmma shared memory matrix layout: LBO, SBO, canonical layouts)";
constexpr std::string_view kSrcWgmmaTypes =
    "PTX ISA 9.2 section 9.7.15.5.1 (wgmma.mma_async: transpose only for .f16/.bf16; element types)";
constexpr std::string_view kSrcTcDesc = "PTX ISA 9.2 section 9.7.16.4.1 (tcgen05 shared memory descriptor, Tables 40-41)";
constexpr std::string_view kSrcTcLayout = "PTX ISA 9.2 section 9.7.16.3 (tcgen05 strides and canonical layouts)";
constexpr std::string_view kSrcTcAbs =
    "PTX ISA 9.2 sections 9.7.16.3.1.2 and 9.7.16.4.1.1 (leading-dimension absolute address mode, sm_103a)";
constexpr std::string_view kSrcTable54 =
    "PTX ISA 9.2 section 9.7.16 Tables 54-55 (major-ness and swizzle per element size); CUTLASS make_umma_desc";
constexpr std::string_view kSrcBoth =
    "PTX ISA 9.2 sections 9.7.15.5.1.2.2 and 9.7.16.4.1 (matrix-descriptor-encode: 16-byte units, 14 bits)";
constexpr std::string_view kSrcBase =
    "PTX ISA 9.2 sections 9.7.15.5.1.2.2 and 9.7.16.4.1 (matrix base offset; Table 41); section 5.5.7";
constexpr std::string_view kSrcTargets =
    "PTX ISA 9.2 target ISA notes of wgmma.mma_async (sm_90a) and tcgen05.mma (sm_100a family)";
constexpr std::string_view kSrcCpgAlign = "CUDA Programming Guide, TMA alignment table (shared memory 128-byte aligned)";
constexpr std::string_view kSrcSmemCap = "CUDA Programming Guide, compute capabilities table (shared memory per block)";
constexpr std::string_view kSrcAdvance =
    "PTX ISA 9.2 canonical layouts (start address moves by the canonical offset); CUTLASS DescriptorIterator";
constexpr std::string_view kSrcMap =
    "PTX ISA 9.2 section 5.5.7 (TMA swizzle) with the canonical layouts of sections 9.7.15.5.1.2 / 9.7.16.3";
constexpr std::string_view kSrcModel =
    "tmapgen address model (docs/descriptors.md): canonical layout + swizzle versus the TMA box, 16 B at a time";
constexpr std::string_view kSrcT39 = "PTX ISA 9.2 section 9.7.16.2.1 (Table 39: kinds and shapes)";
constexpr std::string_view kSrcT42 = "PTX ISA 9.2 section 9.7.16.4.2 (Tables 42-44: instruction descriptor)";
constexpr std::string_view kSrcT51 =
    "PTX ISA 9.2 section 9.7.16 (Tables 51-52: transpose and negate support; 8-bit transpose N); CUTLASS "
    "UMMA::make_instr_desc comment (MN-major only for 8/16/32-bit types)";

// ---- helpers ------------------------------------------------------------------------------------------
const SmemCheck* S(const DescContext& c) { return c.smem; }
const OperandLayout* L(const DescContext& c) { return c.smem ? c.smem->layout : nullptr; }
const LayoutFacts* F(const DescContext& c) { return c.smem ? c.smem->facts : nullptr; }
const MapDerivation* M(const DescContext& c) { return c.smem ? c.smem->map : nullptr; }

bool DescSw(const SmemDesc& d, DescSwizzle* out) { return d.swizzle(out); }
// The swizzle the layout rules judge: the user's descriptor's when one is checked, else the layout's.
DescSwizzle EffSw(const DescContext& c) {
  DescSwizzle s = c.smem->layout->swizzle;
  if (c.smem->user_value && c.smem->desc.swizzle(&s)) return s;
  return c.smem->layout->swizzle;
}
DescSwizzle SwOr(const SmemDesc& d, DescSwizzle fallback) {
  DescSwizzle s = fallback;
  return d.swizzle(&s) ? s : fallback;
}
std::string H(uint64_t v) { return Hex(v); }
std::string U16(uint64_t bytes) { return StrCat(bytes, " B (", bytes >> 4, " x 16 B)"); }
uint64_t RoundUp(uint64_t v, uint64_t m) { return m == 0 ? v : (v + m - 1) / m * m; }
std::string FamilyName(DescArch a) { return a == DescArch::kWgmma ? "wgmma" : "tcgen05"; }
std::string Bin3(uint32_t v) { return StrCat("0b", (v >> 2) & 1, (v >> 1) & 1, v & 1); }

// ============================== value rules ==============================
void CheckLayoutTypeInvalid(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (S(c) && !DescSw(S(c)->desc, &s)) o->Add(r, -1, S(c)->desc.layout_type(), 0);
}
std::string MsgLayoutTypeInvalid(const DescContext&, const Finding& f) {
  return StrCat("layout_type = ", f.value, " (bits 61-63) is not a tcgen05 swizzle mode: values 3, 5 and 7 are invalid");
}
std::string FixLayoutTypeInvalid(const DescContext&, const Finding& f) {
  std::string s = "use 0 (none), 1 (128B with 32B atomicity), 2 (128B), 4 (64B) or 6 (32B)";
  if (f.value == 3) s += "; 3 is wgmma's code for 32B, tcgen05's 32B is 6";
  return s;
}

void CheckVersion(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.arch() == DescArch::kTcgen05 && S(c)->desc.version() != 1)
    o->Add(r, -1, S(c)->desc.version(), 1);
}
std::string MsgVersion(const DescContext&, const Finding& f) {
  return StrCat("bits 46-48 = ", Bin3(static_cast<uint32_t>(f.value)), ": tcgen05 requires the fixed constant 0b001",
             f.value == 0 ? " (a descriptor built the wgmma way leaves it 0)" : "");
}
std::string FixVersion(const DescContext&, const Finding&) {
  return "set bit 46 and clear bits 47-48 (desc = (desc & ~(7ull << 46)) | (1ull << 46))";
}

void CheckFixedZero(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.arch() == DescArch::kTcgen05 && S(c)->desc.fixed_zero() != 0)
    o->Add(r, -1, S(c)->desc.fixed_zero(), 0);
}
std::string MsgFixedZero(const DescContext&, const Finding& f) {
  return StrCat("bits 53-60 = ", H(static_cast<uint64_t>(f.value)), " must be 0",
             f.value == 0xb0 ? ": Table 40 prints the constant as \"0xb00000000\", the 8-bit binary 0b00000000, not "
                               "the hexadecimal 0xb0"
                             : "");
}
std::string FixFixedZero(const DescContext&, const Finding&) { return "clear bits 53-60 (desc &= ~(0xffull << 53))"; }

void CheckReserved(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.reserved_bits() != 0)
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.reserved_bits() & 0x7fffffffffffffffull), 0);
}
std::string BitList(uint64_t m) {
  std::string s;
  for (int b = 0; b < 64; ++b)
    if (m & (uint64_t{1} << b)) s += StrCat(s.empty() ? "" : ", ", b);
  return s;
}
std::string MsgReserved(const DescContext& c, const Finding& f) {
  const uint64_t m = static_cast<uint64_t>(f.value);
  const DescArch a = S(c)->desc.arch();
  std::string s = StrCat("bit", (m & (m - 1)) ? "s " : " ", BitList(m), " set where the ", FamilyName(a),
                      " descriptor defines no field");
  if (a == DescArch::kWgmma && (m & (uint64_t{1} << 46)))
    s += "; bit 46 is tcgen05's fixed 0b001: this looks like a tcgen05 descriptor given to wgmma";
  else if (a == DescArch::kWgmma && (m & (uint64_t{1} << 61)))
    s += "; bit 61 is tcgen05's 32-byte-atomicity bit: this looks like a tcgen05 layout type";
  return s;
}
std::string FixReserved(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma
             ? "clear them: wgmma defines bits 0-13, 16-29, 32-45, 49-51 and 62-63"
             : "clear bits 14-15 and 30-31 (a start address or offset wider than 14 bits of 16-byte units spilled "
               "there?)";
}

void CheckBaseNoSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (S(c) && DescSw(S(c)->desc, &s) && s == DescSwizzle::kNone && S(c)->desc.base_offset() != 0)
    o->Add(r, -1, S(c)->desc.base_offset(), 0);
}
std::string MsgBaseNoSwizzle(const DescContext&, const Finding& f) {
  return StrCat("base offset ", f.value, " with no swizzle: the base offset is valid for all swizzling modes except "
             "the no-swizzle mode, so it is ignored here");
}
std::string FixBaseNoSwizzle(const DescContext&, const Finding&) { return "set the base offset to 0"; }

void CheckBaseRange(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (!S(c) || !DescSw(S(c)->desc, &s) || s == DescSwizzle::kNone) return;
  const uint32_t mask = static_cast<uint32_t>(BaseOffsetMask(s));
  if (S(c)->desc.base_offset() > mask) o->Add(r, -1, S(c)->desc.base_offset(), mask);
}
std::string MsgBaseRange(const DescContext& c, const Finding& f) {
  const DescSwizzle s = SwOr(S(c)->desc, DescSwizzle::k128B);
  return StrCat("base offset ", f.value, " with ", Name(s), " swizzle: its pattern repeats every ", RepeatBytes(s),
             " B, so only 0..", f.limit, " name a phase; the literal formula (addr >> 7) & 7 gives larger values for "
             "addresses on the repeat, where Table 41 says the base offset is 0");
}
std::string FixBaseRange(const DescContext& c, const Finding& f) {
  const DescSwizzle s = SwOr(S(c)->desc, DescSwizzle::k128B);
  return StrCat("use (pattern start % ", RepeatBytes(s), ") / 128 = ", f.value & f.limit);
}

void CheckArchTarget(const DescContext& c, uint16_t r, FindingList* o) {
  if (!S(c) || !S(c)->has_target) return;
  const bool ok = S(c)->desc.arch() == DescArch::kWgmma ? TargetHasWgmma(S(c)->target) : TargetHasTcgen05(S(c)->target);
  if (!ok) o->Add(r, -1, static_cast<int>(S(c)->target), 0);
}
std::string MsgArchTarget(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma
             ? StrCat("wgmma.mma_async needs sm_90a; the target is ", Name(S(c)->target))
             : StrCat("tcgen05.mma needs sm_100a, sm_101a, sm_103a, sm_110a or a family target (sm_100f, sm_103f, "
                   "sm_110f); the target is ", Name(S(c)->target));
}
std::string FixArchTarget(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma ? "compile for sm_90a, or use tcgen05 descriptors on Blackwell"
                                               : "compile for sm_100a (or another tcgen05 target), or use wgmma on sm_90a";
}

bool AbsMode(const DescContext& c) { return S(c) && S(c)->desc.lbo_absolute(); }
void CheckAbsTarget(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && S(c)->has_target && S(c)->target != Target::kSm103a) o->Add(r, -1, static_cast<int>(S(c)->target), 0);
}
std::string MsgAbsTarget(const DescContext& c, const Finding&) {
  return StrCat("lbo_mode = 1 (leading-dimension absolute address) is supported on sm_103a only; the target is ",
             Name(S(c)->target));
}
std::string FixAbsTarget(const DescContext&, const Finding&) {
  return "use relative LBO (bit 52 = 0) and lay the K chunks out so that they stay within the 128-byte rows, or "
         "target sm_103a";
}
void CheckAbsSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && SwOr(S(c)->desc, DescSwizzle::kNone) != DescSwizzle::k128B) o->Add(r, -1, S(c)->desc.layout_type(), 2);
}
std::string MsgAbsSwizzle(const DescContext& c, const Finding&) {
  return StrCat("the absolute leading-dimension address mode supports only 128B swizzle with 16-byte atomicity; the "
             "descriptor has ", Name(SwOr(S(c)->desc, DescSwizzle::kNone)));
}
std::string FixAbsSwizzle(const DescContext&, const Finding&) { return "use 128B swizzle (layout type 2), or relative LBO"; }
void CheckAbsBase(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && S(c)->desc.base_offset() != 0) o->Add(r, -1, S(c)->desc.base_offset(), 0);
}
std::string MsgAbsBase(const DescContext&, const Finding& f) {
  return StrCat("base offset ", f.value, " with the absolute leading-dimension address mode, which requires 0");
}
std::string FixAbsBase(const DescContext&, const Finding&) {
  return "place the tile on a 1024-byte boundary so the base offset is 0";
}

void CheckSboZero(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && L(c) == nullptr && S(c)->desc.sbo_enc() == 0) o->Add(r, -1, 0, 16);
}
std::string MsgSboZero(const DescContext&, const Finding&) {
  return "SBO = 0: consecutive 8-row groups (K-major) or the stride-dimension steps (MN-major) would read the same "
         "bytes; only a tile with a single group can work";
}
std::string FixSboZero(const DescContext&, const Finding&) {
  return "set SBO to the byte distance between 8-row groups (1024 B for a dense 128B-swizzled K-major tile)";
}

// ============================== layout rules ==============================
void CheckStartAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->smem_address % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->smem_address), 16);
}
std::string MsgStartAlign(const DescContext& c, const Finding&) {
  return StrCat("the tile's start address ", H(L(c)->smem_address), " is not 16-byte aligned: the descriptor keeps "
             "bits 4-17 only, so the MMA would read from ", H(L(c)->smem_address & ~uint64_t{15}));
}
std::string FixStartAlign(const DescContext& c, const Finding&) {
  return StrCat("align the tile to 16 bytes (at least 128 when TMA fills it): ", H(RoundUp(L(c)->smem_address, 16)));
}

void CheckLboAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->has_lbo && L(c)->lbo % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->lbo), 16);
}
std::string MsgLboAlign(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B is not a multiple of 16 bytes; the field holds 16-byte units");
}
std::string FixLboAlign(const DescContext&, const Finding& f) {
  return StrCat("pad the layout so that LBO is ", RoundUp(static_cast<uint64_t>(f.value), 16), " B");
}
void CheckSboAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->has_sbo && L(c)->sbo % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->sbo), 16);
}
std::string MsgSboAlign(const DescContext&, const Finding& f) {
  return StrCat("SBO = ", f.value, " B is not a multiple of 16 bytes; the field holds 16-byte units");
}
std::string FixSboAlign(const DescContext&, const Finding& f) {
  return StrCat("pad the layout so that SBO is ", RoundUp(static_cast<uint64_t>(f.value), 16), " B");
}

void CheckStartRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->smem_address > kMaxFieldBytes)
    o->Add(r, -1, static_cast<int64_t>(L(c)->smem_address & 0x7fffffffffffffffull), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgStartRange(const DescContext&, const Finding& f) {
  std::string s = StrCat("start address ", H(static_cast<uint64_t>(f.value)),
                      " does not fit the 14-bit field (at most 262128 B = 256 KiB - 16): the encoding keeps bits 4-17 "
                      "and the MMA would read from ", H(static_cast<uint64_t>(f.value) & 0x3FFF0));
  if (static_cast<uint64_t>(f.value) >= (uint64_t{1} << 32)) s += "; this looks like a generic pointer, not a shared-memory address";
  return s;
}
std::string FixStartRange(const DescContext&, const Finding&) {
  return "use the shared-window address (__cvta_generic_to_shared / cvta.to.shared), not a generic pointer";
}
void CheckLboRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (F(c) && F(c)->lbo > kMaxFieldBytes) o->Add(r, -1, static_cast<int64_t>(F(c)->lbo), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgLboRange(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B overflows the 14-bit field of 16-byte units (at most 262128 B)");
}
std::string FixLboRange(const DescContext&, const Finding&) {
  return "split the tile so that consecutive slabs are less than 256 KiB apart";
}
void CheckSboRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (F(c) && F(c)->sbo > kMaxFieldBytes) o->Add(r, -1, static_cast<int64_t>(F(c)->sbo), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgSboRange(const DescContext&, const Finding& f) {
  return StrCat("SBO = ", f.value, " B overflows the 14-bit field of 16-byte units (at most 262128 B)");
}
std::string FixSboRange(const DescContext&, const Finding&) { return "split the tile; 8-row groups must be less than 256 KiB apart"; }

void CheckBaseMismatch(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_base_offset && l->swizzle != DescSwizzle::kNone &&
      static_cast<int>(l->base_offset) != F(c)->base_offset)
    o->Add(r, -1, l->base_offset, F(c)->base_offset);
}
std::string MsgBaseMismatch(const DescContext& c, const Finding& f) {
  return StrCat("base offset ", f.value, " does not match the tile's start ", H(L(c)->smem_address), ": (",
             H(L(c)->smem_address), " % ", F(c)->repeat_bytes, ") / 128 = ", f.limit,
             "; the MMA would apply the swizzle pattern with the wrong row phase");
}
std::string FixBaseMismatch(const DescContext&, const Finding& f) { return StrCat("set the base offset to ", f.limit); }

void CheckStartPhase(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l || M(c) != nullptr || l->swizzle == DescSwizzle::kNone || F(c)->repeat_bytes == 0) return;
  if (l->smem_address % static_cast<uint64_t>(F(c)->repeat_bytes) != 0)
    o->Add(r, -1, static_cast<int64_t>(l->smem_address % 0x40000), F(c)->repeat_bytes);
}
std::string MsgStartPhase(const DescContext& c, const Finding& f) {
  return StrCat("the tile starts at ", H(L(c)->smem_address), ", not on the ", f.limit, "-byte repeat of the ",
             Name(L(c)->swizzle), " swizzle: the descriptor needs base offset ", F(c)->base_offset,
             (L(c)->has_base_offset ? "" : " (set)"),
             ", and whatever filled the tile must have used the same phase; loops that only add to the start "
             "address keep it");
}
std::string FixStartPhase(const DescContext& c, const Finding& f) {
  return StrCat("align the tile to ", f.limit, " bytes (", H(RoundUp(L(c)->smem_address, static_cast<uint64_t>(f.limit))),
             ") so the base offset is 0");
}

void CheckWgmmaSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->arch == DescArch::kWgmma && EffSw(c) == DescSwizzle::k128BAtom32B) o->Add(r, -1, 4, 0);
}
std::string MsgWgmmaSwizzle(const DescContext&, const Finding&) {
  return "wgmma descriptors have no 128B-with-32-byte-atomicity mode (layout types: none, 128B, 64B, 32B)";
}
std::string FixWgmmaSwizzle(const DescContext&, const Finding&) { return "use 128B swizzle, or tcgen05 on sm_100a"; }

void CheckWgmmaType(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->arch == DescArch::kWgmma && IsSubByte(L(c)->type)) o->Add(r, -1, static_cast<int>(L(c)->type), 0);
}
std::string MsgWgmmaType(const DescContext& c, const Finding&) {
  return StrCat("wgmma.mma_async has no ", Name(L(c)->type), " operands (its types: f16, bf16, tf32, e4m3, e5m2, s8, u8, b1)");
}
std::string FixWgmmaType(const DescContext&, const Finding&) {
  return "use tcgen05.mma (.kind::f8f6f4 or a block-scaled kind) on sm_100a for 6- and 4-bit types";
}

void CheckWgmmaMnType(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kWgmma && l->major == Major::kMN && l->type != ElemType::kF16 &&
      l->type != ElemType::kBF16)
    o->Add(r, -1, static_cast<int>(l->type), 0);
}
std::string MsgWgmmaMnType(const DescContext& c, const Finding&) {
  return StrCat("wgmma reads MN-major (transposed) shared-memory operands only for .f16 and .bf16; ", Name(L(c)->type),
             " operands must be K-major");
}
std::string FixWgmmaMnType(const DescContext&, const Finding&) {
  return "store the operand K-major (transpose it when loading: a TMA box with K innermost)";
}

void CheckKMajorAtom32(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kK && EffSw(c) == DescSwizzle::k128BAtom32B)
    o->Add(r, -1, 1, 0);
}
std::string MsgKMajorAtom32(const DescContext&, const Finding&) {
  return "128B swizzle with 32-byte atomicity has no K-major layout (Table 55 lists its K-major atom as \"-\"); it is "
         "the MN-major layout of 32-bit (tf32) operands";
}
std::string FixKMajorAtom32(const DescContext&, const Finding&) {
  return "use 128B swizzle (16-byte atomicity) for K-major operands";
}

void CheckMnSubByte(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && IsSubByte(l->type)) o->Add(r, -1, static_cast<int>(l->type), 0);
}
std::string MsgMnSubByte(const DescContext& c, const Finding&) {
  return StrCat("tcgen05 reads ", Name(L(c)->type), " (", ElemBits(L(c)->type),
             "-bit) operands K-major only: Table 54 lists MN-major layouts for 8-, 16- and 32-bit types, and "
             ".kind::mxf4/.kind::mxf4nvf4 have no transpose");
}
std::string FixMnSubByte(const DescContext&, const Finding&) { return "store the operand K-major"; }

void CheckMnTf32(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && l->type == ElemType::kTF32 &&
      EffSw(c) != DescSwizzle::k128BAtom32B)
    o->Add(r, -1, static_cast<int>(EffSw(c)), 4);
}
std::string MsgMnTf32(const DescContext& c, const Finding&) {
  return StrCat("MN-major 32-bit (tf32) operands support only 128B swizzle with 32-byte atomicity; the layout has ",
             Name(EffSw(c)));
}
std::string FixMnTf32(const DescContext&, const Finding&) {
  return "use --swizzle 128B_atom_32B (TMA: CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B), or store tf32 K-major";
}

void CheckAtom32Type(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && EffSw(c) == DescSwizzle::k128BAtom32B &&
      SmemBits(l->type, l->padded) != 32)
    o->Add(r, -1, SmemBits(l->type, l->padded), 32);
}
std::string MsgAtom32Type(const DescContext& c, const Finding& f) {
  return StrCat("128B swizzle with 32-byte atomicity is the MN-major layout of 32-bit operands only; ", Name(L(c)->type),
             " occupies ", f.value, " bits (8- and 16-bit MN-major operands use every mode except this one)");
}
std::string FixAtom32Type(const DescContext&, const Finding&) { return "use 128B swizzle (16-byte atomicity)"; }

void CheckTileMn(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  if (l->major == Major::kK) {
    if (l->mn == 0 || l->mn % 8 != 0) o->Add(r, -1, l->mn, 8);
  } else {
    const uint32_t per16 = static_cast<uint32_t>(F(c)->t);
    if (l->mn == 0 || l->mn % per16 != 0) o->Add(r, -1, l->mn, per16);
  }
}
std::string MsgTileMn(const DescContext& c, const Finding& f) {
  return L(c)->major == Major::kK
             ? StrCat("tile M/N = ", f.value, " is not a multiple of 8: K-major operands are read in core matrices of 8 rows")
             : StrCat("tile M/N = ", f.value, " ", Name(L(c)->type), " elements is not a multiple of ", f.limit,
                   " (16 bytes): MN-major core matrices are 16 bytes wide along M/N");
}
std::string FixTileMn(const DescContext&, const Finding& f) {
  return StrCat("pad M/N to ", RoundUp(static_cast<uint64_t>(f.value == 0 ? 1 : f.value), static_cast<uint64_t>(f.limit)));
}

void CheckTileK(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  if (l->major == Major::kK) {
    const uint32_t per16 = static_cast<uint32_t>(F(c)->t);
    if (l->k == 0 || F(c)->contiguous_bytes % 16 != 0) o->Add(r, -1, l->k, per16);
  } else {
    const uint32_t rows = static_cast<uint32_t>(F(c)->atom_rows);
    if (l->k == 0 || l->k % rows != 0) o->Add(r, -1, l->k, rows);
  }
}
std::string MsgTileK(const DescContext& c, const Finding& f) {
  return L(c)->major == Major::kK
             ? StrCat("tile K = ", f.value, " ", Name(L(c)->type), " elements is not a multiple of ", f.limit,
                   " (16 bytes): K-major core matrices are 16 bytes wide along K")
             : StrCat("tile K = ", f.value, " is not a multiple of ", f.limit, ": MN-major operands are read in groups of ",
                   f.limit, " K rows");
}
std::string FixTileK(const DescContext&, const Finding& f) {
  return StrCat("pad K to ", RoundUp(static_cast<uint64_t>(f.value == 0 ? 1 : f.value), static_cast<uint64_t>(f.limit)));
}

void CheckTileKStep(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->k > 0 && L(c)->k < F(c)->mma_k) o->Add(r, -1, L(c)->k, F(c)->mma_k);
}
std::string MsgTileKStep(const DescContext&, const Finding& f) {
  return StrCat("tile K = ", f.value, " is less than one MMA's K = ", f.limit, ": the MMA reads past the tile");
}
std::string FixTileKStep(const DescContext&, const Finding& f) { return StrCat("make the tile at least ", f.limit, " deep in K"); }

void CheckTileKAtoms(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->major == Major::kK && l->swizzle != DescSwizzle::kNone &&
      F(c)->contiguous_bytes > static_cast<uint64_t>(F(c)->row_bytes))
    o->Add(r, -1, static_cast<int64_t>(F(c)->contiguous_bytes), F(c)->row_bytes);
}
std::string MsgTileKAtoms(const DescContext& c, const Finding& f) {
  return StrCat("the tile's K (", f.value, " B) spans ", F(c)->slabs, " swizzle atoms of ", f.limit,
             " B; one descriptor covers one MMA K slice; slices in later atoms start ", F(c)->slab_bytes,
             " B further per atom (see --k-slice)");
}
std::string FixTileKAtoms(const DescContext&, const Finding&) {
  return "nothing to fix; fill each atom-wide slab with its own TMA box (or a 3D box)";
}

void CheckLboUnused(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->major == Major::kK && l->swizzle != DescSwizzle::kNone && l->has_lbo && !l->lbo_absolute && l->lbo != 16)
    o->Add(r, -1, static_cast<int64_t>(l->lbo), 16);
}
std::string MsgLboUnused(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B for a swizzled K-major layout: PTX says LBO is not used there and assumed to be 1 "
             "(16 B); Triton reports that hardware does use it, so keep it 1 unless you rely on that");
}
std::string FixLboUnused(const DescContext&, const Finding&) { return "set LBO to 16 B (encoded 1), as CUTLASS does"; }

void CheckLboCanonical(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_lbo && !l->lbo_absolute && F(c)->lbo_used && l->lbo != F(c)->canonical_lbo)
    o->Add(r, -1, static_cast<int64_t>(l->lbo), static_cast<int64_t>(F(c)->canonical_lbo));
}
bool Swapped(const DescContext& c) {
  const OperandLayout* l = L(c);
  return l->has_lbo && l->has_sbo && l->lbo == F(c)->canonical_sbo && l->sbo == F(c)->canonical_lbo &&
         l->lbo != l->sbo;
}
std::string MsgLboCanonical(const DescContext& c, const Finding& f) {
  std::string s = StrCat("LBO = ", f.value, " B, but the tile stored densely in TMA order has LBO = ", f.limit, " B (",
                      DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0).lbo_meaning, ")");
  if (Swapped(c)) s += "; LBO and SBO look swapped";
  return s + "; right only if your tile is stored differently";
}
std::string FixLboCanonical(const DescContext&, const Finding& f) { return StrCat("use LBO = ", f.limit, " B for a dense tile"); }
void CheckSboCanonical(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_sbo && l->sbo != F(c)->canonical_sbo)
    o->Add(r, -1, static_cast<int64_t>(l->sbo), static_cast<int64_t>(F(c)->canonical_sbo));
}
std::string MsgSboCanonical(const DescContext& c, const Finding& f) {
  std::string s = StrCat("SBO = ", f.value, " B, but the tile stored densely in TMA order has SBO = ", f.limit, " B (",
                      DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0).sbo_meaning, ")");
  if (Swapped(c)) s += "; LBO and SBO look swapped";
  return s + "; right only if your tile is stored differently";
}
std::string FixSboCanonical(const DescContext&, const Finding& f) { return StrCat("use SBO = ", f.limit, " B for a dense tile"); }

void CheckAbsMajor(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->lbo_absolute && L(c)->major == Major::kMN) o->Add(r, -1, 1, 0);
}
std::string MsgAbsMajor(const DescContext&, const Finding&) {
  return "the absolute leading-dimension address mode supports only K-major operands (instruction-descriptor "
         "transpose bits 15 and 16 must be 0)";
}
std::string FixAbsMajor(const DescContext&, const Finding&) { return "store the operand K-major, or use relative LBO"; }

void CheckSmemCapacity(const DescContext& c, uint16_t r, FindingList* o) {
  if (!L(c)) return;
  const uint64_t cap = L(c)->has_target ? static_cast<uint64_t>(Info(L(c)->target).max_smem_per_block) : 232448;
  const uint64_t end = L(c)->smem_address + F(c)->footprint_bytes;
  if (end > cap) o->Add(r, -1, static_cast<int64_t>(end & 0x7fffffffffffffffull), static_cast<int64_t>(cap));
}
std::string MsgSmemCapacity(const DescContext& c, const Finding& f) {
  return StrCat("the tile ends at ", H(static_cast<uint64_t>(f.value)), " (start ", H(L(c)->smem_address), " + ",
             F(c)->footprint_bytes, " B), past the ", f.limit, " B of shared memory a block can have");
}
std::string FixSmemCapacity(const DescContext&, const Finding&) { return "use a smaller tile or an earlier address"; }

void CheckStrideZero(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  const LayoutFacts& f = *F(c);
  bool lbo_needed = false, sbo_needed = false;
  if (l->major == Major::kK) {
    lbo_needed = l->swizzle == DescSwizzle::kNone || l->lbo_absolute;
    sbo_needed = l->mn > 8;
  } else if (l->swizzle == DescSwizzle::kNone) {
    lbo_needed = f.kstep_rows > 8;
    sbo_needed = f.contiguous_bytes > 16;
  } else {
    lbo_needed = f.contiguous_bytes > static_cast<uint64_t>(f.row_bytes);
    sbo_needed = f.kstep_rows > static_cast<uint32_t>(f.atom_rows);
  }
  if (lbo_needed && f.lbo == 0) o->Add(r, 0, 0, 16);
  if (sbo_needed && f.sbo == 0) o->Add(r, 1, 0, 16);
}
std::string MsgStrideZero(const DescContext& c, const Finding& f) {
  const CanonicalLayout cl = DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0);
  return StrCat(f.index == 0 ? "LBO" : "SBO", " = 0, but this tile needs it (", f.index == 0 ? cl.lbo_meaning : cl.sbo_meaning,
             "): the MMA would read the same bytes twice");
}
std::string FixStrideZero(const DescContext& c, const Finding& f) {
  return StrCat("use ", f.index == 0 ? "LBO = " : "SBO = ", f.index == 0 ? F(c)->canonical_lbo : F(c)->canonical_sbo,
             " B for a dense tile");
}

// ============================== advance rules ==============================
const Advance* A(const DescContext& c) { return c.smem ? c.smem->advance : nullptr; }
std::string What(const DescContext& c) {
  const SmemCheck* s = S(c);
  return s->advance_is_sub_tile ? StrCat("sub-tile (", s->advance_mn, ", ", s->advance_k, ")")
                                : StrCat("K slice ", s->advance_k_slice);
}
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

// ============================== map rules ==============================
bool UserVsMap(const DescContext& c) { return M(c) != nullptr && S(c)->user_value; }

void CheckMapInterleave(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->interleaved) o->Add(r, -1, static_cast<int>(M(c)->map.interleave), 0);
}
std::string MsgMapInterleave(const DescContext& c, const Finding&) {
  return StrCat("the map uses ", FullName(M(c)->map.interleave), ": interleaved layouts are no canonical MMA layout");
}
std::string FixMapInterleave(const DescContext&, const Finding&) {
  return "use CU_TENSOR_MAP_INTERLEAVE_NONE with a swizzle matching the descriptor";
}

void CheckMapSwizzleUnsupported(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && !M(c)->swizzle_ok) o->Add(r, -1, static_cast<int>(M(c)->map.swizzle), 0);
}
std::string MsgMapSwizzleUnsupported(const DescContext& c, const Finding&) {
  return StrCat("the map's ", FullName(M(c)->map.swizzle), " has no ", FamilyName(M(c)->use.arch),
             " descriptor counterpart (descriptors name none, 32B, 64B, 128B",
             M(c)->use.arch == DescArch::kTcgen05 ? " and 128B with 32-byte atomicity)" : ")");
}
std::string FixMapSwizzleUnsupported(const DescContext& c, const Finding&) {
  return M(c)->use.arch == DescArch::kWgmma ? "use CU_TENSOR_MAP_SWIZZLE_128B (or 64B/32B) for wgmma operands"
                                            : "use CU_TENSOR_MAP_SWIZZLE_128B, or _128B_ATOM_32B for MN-major tf32";
}

void CheckMapDtype(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && !M(c)->type_known && !M(c)->use.has_type) o->Add(r, -1, static_cast<int>(M(c)->map.data_type), 0);
}
std::string MsgMapDtype(const DescContext& c, const Finding&) {
  return StrCat("the map's data type ", FullName(M(c)->map.data_type), " is no MMA operand type");
}
std::string FixMapDtype(const DescContext&, const Finding&) {
  return "use f16, bf16, f32/tf32, u8 (8-bit types) or a 16U4/16U6 packed type, or give --dtype";
}

void CheckMapTypeBits(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->use.has_type && !M(c)->type_bits_agree)
    o->Add(r, -1, SmemBits(M(c)->layout.type, M(c)->layout.padded), M(c)->map_facts.smem_element_bits);
}
std::string MsgMapTypeBits(const DescContext& c, const Finding& f) {
  return StrCat("the operand is ", Name(M(c)->layout.type), " (", f.value, " bits in shared memory) but the map copies ",
             ShortName(M(c)->map.data_type), " (", f.limit, " bits): rows and core matrices would not line up");
}
std::string FixMapTypeBits(const DescContext&, const Finding&) { return "make the map's data type and the MMA operand type agree"; }

void CheckMapBoxWider(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (m && !m->interleaved && m->inner_bytes > static_cast<uint64_t>(RowBytes(m->layout.swizzle)))
    o->Add(r, 0, static_cast<int64_t>(m->inner_bytes), RowBytes(m->layout.swizzle));
}
std::string MsgMapBoxWider(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  return StrCat("the box's rows are ", f.value, " B wide along ", m->use.major == Major::kK ? "K" : "M/N",
             ", more than one ", m->layout.swizzle == DescSwizzle::kNone ? "no-swizzle core matrix" : "swizzle atom", " (",
             f.limit, " B): the MMA's canonical layout has rows ", f.limit, " B apart, the TMA writes them ", f.value,
             " B apart");
}
std::string FixMapBoxWider(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const uint64_t elems = static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(m->facts.smem_bits);
  if (m->layout.swizzle == DescSwizzle::kNone && f.value <= 128)
    return StrCat("swizzle the map to match (", f.value <= 32 ? "32B" : f.value <= 64 ? "64B" : "128B",
               ") and the descriptor with it, or use box_dim[0] = ", elems, " with a 3D box for the rest");
  return StrCat("use box_dim[0] = ", elems, " and one box (or a 3D box) per ", f.limit, "-byte slab");
}

void CheckMapBoxNarrower(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (m && !m->interleaved && m->layout.swizzle != DescSwizzle::kNone && m->inner_bytes > 0 &&
      m->inner_bytes < static_cast<uint64_t>(RowBytes(m->layout.swizzle)))
    o->Add(r, 0, static_cast<int64_t>(m->inner_bytes), RowBytes(m->layout.swizzle));
}
std::string MsgMapBoxNarrower(const DescContext& c, const Finding& f) {
  return StrCat("the box's rows are ", f.value, " B, narrower than the ", Name(M(c)->layout.swizzle),
             " swizzle atom: the TMA writes rows ", f.value, " B apart while the canonical layout has them ", f.limit,
             " B apart");
}
std::string FixMapBoxNarrower(const DescContext&, const Finding& f) {
  return StrCat("use the swizzle whose span equals the row (", f.value == 32 ? "32B" : f.value == 64 ? "64B" : "none",
             ") in both, or widen box_dim[0] to ", f.limit, " bytes");
}

void CheckMapDstAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->smem_known && M(c)->dst % 128 != 0) o->Add(r, -1, static_cast<int64_t>(M(c)->dst % 0x40000), 128);
}
std::string MsgMapDstAlign(const DescContext& c, const Finding&) {
  return StrCat("the map's shared-memory destination ", H(M(c)->dst), " is not 128-byte aligned, which every tensor copy requires");
}
std::string FixMapDstAlign(const DescContext& c, const Finding&) {
  return StrCat("align the destination to 128 bytes (", H(RoundUp(M(c)->dst, 128)), "), better to the swizzle repeat");
}

void CheckMapDstPhase(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (!m || !m->smem_known || m->layout.swizzle == DescSwizzle::kNone || m->facts.repeat_bytes == 0) return;
  if (m->dst % static_cast<uint64_t>(m->facts.repeat_bytes) != 0)
    o->Add(r, -1, m->facts.base_offset, m->facts.repeat_bytes);
}
std::string MsgMapDstPhase(const DescContext& c, const Finding& f) {
  return StrCat("the map's destination ", H(M(c)->dst), " is not aligned to the ", f.limit, "-byte swizzle repeat: the TMA "
             "writes with pattern phase ", f.value, ", so the descriptor needs base offset ", f.value);
}
std::string FixMapDstPhase(const DescContext& c, const Finding& f) {
  return StrCat("align the destination to ", f.limit, " bytes (", H(RoundUp(M(c)->dst, static_cast<uint64_t>(f.limit))),
             "), or keep base offset ", f.value, " in every descriptor of this buffer");
}

// The layout-type value the other family uses for the map's swizzle, in this family's field width.
bool OtherFamilyEncoding(const DescContext& c, uint32_t* other) {
  const MapDerivation* m = M(c);
  const DescArch own = S(c)->desc.arch();
  const DescArch oth = own == DescArch::kWgmma ? DescArch::kTcgen05 : DescArch::kWgmma;
  const int v_own = LayoutTypeValue(own, m->layout.swizzle);
  const int v_oth = LayoutTypeValue(oth, m->layout.swizzle);
  const uint32_t width_mask = own == DescArch::kWgmma ? 3u : 7u;
  const uint32_t field = S(c)->desc.layout_type();
  if (v_oth < 0 || static_cast<int>(field) == v_own) return false;
  if ((static_cast<uint32_t>(v_oth) & width_mask) != field) return false;
  *other = static_cast<uint32_t>(v_oth);
  return true;
}
void CheckMapEncoding(const DescContext& c, uint16_t r, FindingList* o) {
  uint32_t other;
  if (UserVsMap(c) && M(c)->swizzle_ok && OtherFamilyEncoding(c, &other))
    o->Add(r, -1, S(c)->desc.layout_type(), LayoutTypeValue(S(c)->desc.arch(), M(c)->layout.swizzle));
}
std::string MsgMapEncoding(const DescContext& c, const Finding& f) {
  const DescArch own = S(c)->desc.arch();
  const DescArch oth = own == DescArch::kWgmma ? DescArch::kTcgen05 : DescArch::kWgmma;
  DescSwizzle read = DescSwizzle::kNone;
  const bool valid = S(c)->desc.swizzle(&read);
  return StrCat("layout_type = ", f.value, " is ", FamilyName(oth), "'s code for the map's ", Name(M(c)->layout.swizzle),
             ": was the other family's encoding used? ", FamilyName(own), " reads ", f.value, " as ",
             valid ? std::string(Name(read)) : std::string("an invalid mode"), "; ", FamilyName(own), "'s ",
             Name(M(c)->layout.swizzle), " is ", f.limit);
}
std::string FixMapEncoding(const DescContext& c, const Finding& f) {
  return StrCat("set layout_type = ", f.limit, " (", FamilyName(S(c)->desc.arch()), " encoding)");
}

void CheckMapSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  DescSwizzle s;
  if (!S(c)->desc.swizzle(&s)) return;  // desc-layout-type-invalid reports it
  if (RowBytes(s) != RowBytes(M(c)->layout.swizzle) || (s == DescSwizzle::kNone) != (M(c)->layout.swizzle == DescSwizzle::kNone))
    o->Add(r, -1, static_cast<int>(s), static_cast<int>(M(c)->layout.swizzle));
}
std::string MsgMapSwizzle(const DescContext& c, const Finding& f) {
  return StrCat("the descriptor reads with ", Name(static_cast<DescSwizzle>(f.value)), " swizzle but the map writes with ",
             FullName(M(c)->map.swizzle), ": every row but the first is read from the wrong 16-byte chunks");
}
std::string FixMapSwizzle(const DescContext& c, const Finding& f) {
  return StrCat("set the descriptor's layout type to ", LayoutTypeValue(S(c)->desc.arch(), static_cast<DescSwizzle>(f.limit)),
             " (", Name(static_cast<DescSwizzle>(f.limit)), "), or change the map");
}

void CheckMapAtomicity(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  DescSwizzle s;
  if (!S(c)->desc.swizzle(&s)) return;
  if (RowBytes(s) == RowBytes(M(c)->layout.swizzle) && s != DescSwizzle::kNone &&
      AtomicityBytes(s) != AtomicityBytes(M(c)->layout.swizzle))
    o->Add(r, -1, AtomicityBytes(s), AtomicityBytes(M(c)->layout.swizzle));
}
std::string MsgMapAtomicity(const DescContext& c, const Finding& f) {
  return StrCat("both swizzle 128 B, but the descriptor uses ", f.value, "-byte atomicity and the map (",
             FullName(M(c)->map.swizzle), ") ", f.limit, "-byte atomicity: chunks are permuted differently");
}
std::string FixMapAtomicity(const DescContext& c, const Finding&) {
  return StrCat("set the descriptor's layout type to ", LayoutTypeValue(S(c)->desc.arch(), M(c)->layout.swizzle), " (",
             Name(M(c)->layout.swizzle), ")");
}

std::string SwapNote(const DescContext& c) {
  const SmemDesc& d = S(c)->desc;
  const SmemDesc& e = M(c)->desc;
  if (d.lbo_bytes() == e.sbo_bytes() && d.sbo_bytes() == e.lbo_bytes() && d.lbo_bytes() != d.sbo_bytes())
    return "; LBO and SBO look swapped";
  if (d.lbo_bytes() == e.lbo_bytes() * 16 || d.sbo_bytes() == e.sbo_bytes() * 16)
    return "; it looks like bytes were written where 16-byte units belong";
  if (e.lbo_bytes() == d.lbo_bytes() * 16 || e.sbo_bytes() == d.sbo_bytes() * 16)
    return "; it looks like a value already divided by 16 was encoded again";
  return "";
}
void CheckMapLbo(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->facts.lbo_used || S(c)->desc.lbo_absolute()) return;
  if (S(c)->desc.lbo_bytes() != M(c)->desc.lbo_bytes())
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.lbo_bytes()), static_cast<int64_t>(M(c)->desc.lbo_bytes()));
}
std::string MsgMapLbo(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const CanonicalLayout cl = DescribeCanonical(m->use.arch, m->use.major, m->layout.swizzle, m->facts.smem_bits, 0, 0, 0, 0);
  return StrCat("LBO = ", U16(static_cast<uint64_t>(f.value)), ", but in the box the ", cl.lbo_meaning, " is ",
             U16(static_cast<uint64_t>(f.limit)), SwapNote(c));
}
std::string FixMapLbo(const DescContext&, const Finding& f) {
  return StrCat("set LBO to ", f.limit, " B (encoded ", f.limit / 16, ")");
}
void CheckMapSbo(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  if (S(c)->desc.sbo_bytes() != M(c)->desc.sbo_bytes())
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.sbo_bytes()), static_cast<int64_t>(M(c)->desc.sbo_bytes()));
}
std::string MsgMapSbo(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const CanonicalLayout cl = DescribeCanonical(m->use.arch, m->use.major, m->layout.swizzle, m->facts.smem_bits, 0, 0, 0, 0);
  return StrCat("SBO = ", U16(static_cast<uint64_t>(f.value)), ", but in the box the ", cl.sbo_meaning, " is ",
             U16(static_cast<uint64_t>(f.limit)), SwapNote(c));
}
std::string FixMapSbo(const DescContext&, const Finding& f) {
  return StrCat("set SBO to ", f.limit, " B (encoded ", f.limit / 16, ")");
}

// Expected base offset for the user's start (which may be a K slice into the box).
uint32_t ExpectedBase(const DescContext& c) {
  const MapDerivation* m = M(c);
  const uint64_t mask = static_cast<uint64_t>(BaseOffsetMask(m->layout.swizzle));
  const uint64_t user_line = S(c)->desc.start_bytes() & ~uint64_t{127};
  const uint64_t dst_line = m->desc.start_bytes() & ~uint64_t{127};
  return static_cast<uint32_t>((m->desc.base_offset() + ((user_line - dst_line) >> 7)) & mask);
}
void CheckMapBase(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok || M(c)->layout.swizzle == DescSwizzle::kNone) return;
  const uint32_t want = ExpectedBase(c);
  if (S(c)->desc.base_offset() != want) o->Add(r, -1, S(c)->desc.base_offset(), want);
}
std::string MsgMapBase(const DescContext& c, const Finding& f) {
  return StrCat("base offset ", f.value, " but the TMA wrote the tile at ", H(M(c)->dst), M(c)->smem_known ? "" : " (assumed)",
             " with pattern phase ", f.limit, ": rows are read with the wrong XOR");
}
std::string FixMapBase(const DescContext&, const Finding& f) { return StrCat("set the base offset to ", f.limit); }

void CheckMapStartOutside(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  const uint64_t start = S(c)->desc.start_bytes();
  const uint64_t dst = M(c)->desc.start_bytes();
  if (start < dst || start >= dst + M(c)->facts.footprint_bytes)
    o->Add(r, -1, static_cast<int64_t>(start), static_cast<int64_t>(dst));
}
std::string MsgMapStartOutside(const DescContext& c, const Finding& f) {
  return StrCat("the descriptor starts at ", H(static_cast<uint64_t>(f.value)), ", outside the box the map writes at ",
             H(static_cast<uint64_t>(f.limit)), M(c)->smem_known ? "" : " (assumed; give --smem-address or the map's smem_address)",
             " .. +", M(c)->facts.footprint_bytes, " B");
}
std::string FixMapStartOutside(const DescContext& c, const Finding&) {
  return StrCat("start the descriptor at the map's destination ", H(M(c)->dst), " (plus the K-slice offset)");
}

// The K slice the user's start corresponds to, or -1.
int SliceOf(const DescContext& c) {
  const MapDerivation* m = M(c);
  const uint64_t start = S(c)->desc.start_bytes();
  const uint32_t n = m->facts.k_slices == 0 ? 1 : m->facts.k_slices;
  for (uint32_t k = 0; k < n && k < 4096; ++k) {
    const Advance a = AdvanceKSlice(m->layout, m->facts, m->desc, k);
    if (a.desc.start_bytes() == start) return static_cast<int>(k);
  }
  return -1;
}
void CheckMapStartOffset(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  const uint64_t start = S(c)->desc.start_bytes();
  const uint64_t dst = M(c)->desc.start_bytes();
  if (start < dst || start >= dst + M(c)->facts.footprint_bytes || start == dst) return;
  if (SliceOf(c) < 0) o->Add(r, -1, static_cast<int64_t>(start - dst), 0);
}
std::string MsgMapStartOffset(const DescContext&, const Finding& f) {
  return StrCat("the descriptor starts ", f.value, " B into the box, which is not where any K slice starts");
}
std::string FixMapStartOffset(const DescContext&, const Finding&) {
  return "start at the box, or at a K slice (tmapgen desc ... --k-slice N prints each)";
}

void CheckMapChunks(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  const int k = SliceOf(c);
  if (k != 0) return;  // the first K slice only
  const ChunkCompare cc = CompareChunks(*M(c), S(c)->desc);
  if (cc.compared && cc.mismatched > 0) o->Add(r, -1, cc.mismatched, cc.total);
}
std::string MsgMapChunks(const DescContext& c, const Finding& f) {
  const ChunkCompare cc = CompareChunks(*M(c), S(c)->desc);
  return StrCat(f.value, " of ", f.limit, " 16-byte chunks of the first K slice are read from bytes the map did not put "
             "them in; first: ", M(c)->use.major == Major::kK ? "row " : "K row ", cc.first_row, ", 16-byte column ",
             cc.first_col, " is read at ", H(cc.first_mma), " but was written at ", H(cc.first_tma));
}
std::string FixMapChunks(const DescContext& c, const Finding&) {
  return StrCat("use the derived descriptor ", H(M(c)->desc.bits()), " (tmapgen desc ", FamilyName(M(c)->use.arch),
             " --for-map ...); the drawing (--draw) shows both placements");
}

// ============================== instruction descriptor rules ==============================
const IdescCheck* I(const DescContext& c) { return c.idesc; }
std::string KindName(const DescContext& c) { return StrCat(".kind::", Name(I(c)->spec.kind)); }

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
  return StrCat("M = ", f.value, " is not valid for ", KindName(c), s.ws ? ".ws" : "", " with .cta_group::", s.cta_group,
             s.sparse ? " (sparse)" : "", ": M must be ", ValidMText(s));
}
std::string FixIdM(const DescContext& c, const Finding&) { return StrCat("use M in {", ValidMText(I(c)->spec), "}"); }

void CheckIdN(const DescContext& c, uint16_t r, FindingList* o) {
  if (I(c) && ValidVariant(I(c)->spec) && !ValidN(I(c)->spec)) o->Add(r, -1, I(c)->spec.n, 0);
}
std::string MsgIdN(const DescContext& c, const Finding& f) {
  const IdescSpec& s = I(c)->spec;
  return StrCat("N = ", f.value, " is not valid for ", KindName(c), s.ws ? ".ws" : "", " with .cta_group::", s.cta_group,
             s.sparse ? " (sparse)" : "", ": N must be ", ValidNText(s));
}
std::string FixIdN(const DescContext& c, const Finding&) { return StrCat("use N in ", ValidNText(I(c)->spec)); }

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
std::string TypesOf(MmaKind k) {
  switch (k) {
    case MmaKind::kF16: return "f16 (0), bf16 (1)";
    case MmaKind::kTf32: return "tf32 (2)";
    case MmaKind::kF8f6f4: case MmaKind::kMxf8f6f4: return "e4m3 (0), e5m2 (1), e2m3 (3), e3m2 (4), e2m1 (5)";
    case MmaKind::kI8: return "u8 (0), s8 (1)";
    default: return "e2m1 (1)";
  }
}
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

// ============================== the table ==============================
constexpr DescRule kRules[] = {
    // ---- value ----
    {"desc-layout-type-invalid", Severity::kError, kScopeValue, "layout_type",
     "tcgen05 layout types are 0, 1, 2, 4 and 6; 3, 5 and 7 are invalid.", CheckLayoutTypeInvalid, MsgLayoutTypeInvalid,
     FixLayoutTypeInvalid, kSrcTcDesc},
    {"desc-tcgen05-version", Severity::kError, kScopeValue, "fixed_0b001",
     "tcgen05 descriptors carry the fixed constant 0b001 in bits 46-48.", CheckVersion, MsgVersion, FixVersion, kSrcTcDesc},
    {"desc-tcgen05-fixed-zero", Severity::kError, kScopeValue, "fixed_zero",
     "tcgen05 descriptors have 0 in bits 53-60.", CheckFixedZero, MsgFixedZero, FixFixedZero, kSrcTcDesc},
    {"desc-reserved-bits", Severity::kError, kScopeValue, "reserved",
     "No bit is set outside the family's fields.", CheckReserved, MsgReserved, FixReserved, kSrcBoth},
    {"desc-base-offset-no-swizzle", Severity::kWarning, kScopeValue, "base_offset",
     "The base offset is 0 without swizzling (it is ignored there).", CheckBaseNoSwizzle, MsgBaseNoSwizzle,
     FixBaseNoSwizzle, kSrcBase},
    {"desc-base-offset-range", Severity::kWarning, kScopeValue, "base_offset",
     "The base offset names a row within the swizzle repeat: 0..7 (128B), 0..3 (64B, 128B_atom_32B), 0..1 (32B).",
     CheckBaseRange, MsgBaseRange, FixBaseRange, kSrcBase},
    {"desc-arch-target", Severity::kError, kScopeValue, "target",
     "wgmma descriptors need sm_90a; tcgen05 descriptors need an sm_100a-family target.", CheckArchTarget, MsgArchTarget,
     FixArchTarget, kSrcTargets},
    {"desc-lbo-absolute-target", Severity::kError, kScopeValue, "lbo_mode",
     "The absolute leading-dimension address mode (bit 52) exists on sm_103a only.", CheckAbsTarget, MsgAbsTarget,
     FixAbsTarget, kSrcTcAbs},
    {"desc-lbo-absolute-swizzle", Severity::kError, kScopeValue, "lbo_mode",
     "The absolute leading-dimension address mode needs 128B swizzle with 16-byte atomicity.", CheckAbsSwizzle,
     MsgAbsSwizzle, FixAbsSwizzle, kSrcTcAbs},
    {"desc-lbo-absolute-base-offset", Severity::kError, kScopeValue, "base_offset",
     "The absolute leading-dimension address mode needs base offset 0.", CheckAbsBase, MsgAbsBase, FixAbsBase, kSrcTcAbs},
    {"desc-sbo-zero", Severity::kWarning, kScopeValue, "stride_byte_offset",
     "SBO is not 0 (a decoded value; with a tile, desc-stride-zero decides).", CheckSboZero, MsgSboZero, FixSboZero,
     kSrcWgmmaLayout},
    // ---- layout ----
    {"desc-start-align-16", Severity::kError, kScopeLayout, "start_address",
     "The matrix start address is 16-byte aligned.", CheckStartAlign, MsgStartAlign, FixStartAlign, kSrcTcDesc},
    {"desc-lbo-align-16", Severity::kError, kScopeLayout, "leading_byte_offset",
     "The leading-dimension byte offset is a multiple of 16 bytes.", CheckLboAlign, MsgLboAlign, FixLboAlign, kSrcTcDesc},
    {"desc-sbo-align-16", Severity::kError, kScopeLayout, "stride_byte_offset",
     "The stride-dimension byte offset is a multiple of 16 bytes.", CheckSboAlign, MsgSboAlign, FixSboAlign, kSrcTcDesc},
    {"desc-start-range", Severity::kError, kScopeLayout, "start_address",
     "The start address fits the 14-bit field of 16-byte units (below 256 KiB).", CheckStartRange, MsgStartRange,
     FixStartRange, kSrcBoth},
    {"desc-lbo-range", Severity::kError, kScopeLayout, "leading_byte_offset",
     "LBO fits the 14-bit field of 16-byte units (at most 262128 B).", CheckLboRange, MsgLboRange, FixLboRange, kSrcBoth},
    {"desc-sbo-range", Severity::kError, kScopeLayout, "stride_byte_offset",
     "SBO fits the 14-bit field of 16-byte units (at most 262128 B).", CheckSboRange, MsgSboRange, FixSboRange, kSrcBoth},
    {"desc-base-offset-mismatch", Severity::kError, kScopeLayout, "base_offset",
     "A given base offset equals (start % repeat) / 128 of the tile.", CheckBaseMismatch, MsgBaseMismatch,
     FixBaseMismatch, kSrcBase},
    {"desc-start-swizzle-phase", Severity::kWarning, kScopeLayout, "start_address",
     "A swizzled tile should start on the swizzle repeat (256, 512 or 1024 B) so that its base offset is 0.",
     CheckStartPhase, MsgStartPhase, FixStartPhase, kSrcBase},
    {"desc-wgmma-swizzle", Severity::kError, kScopeLayout, "layout_type",
     "wgmma has no 128B-with-32-byte-atomicity layout.", CheckWgmmaSwizzle, MsgWgmmaSwizzle, FixWgmmaSwizzle,
     kSrcWgmmaDesc},
    {"desc-wgmma-type", Severity::kError, kScopeLayout, "dtype",
     "wgmma reads no 6- or 4-bit operands.", CheckWgmmaType, MsgWgmmaType, FixWgmmaType, kSrcWgmmaTypes},
    {"desc-wgmma-mn-major-type", Severity::kError, kScopeLayout, "major",
     "wgmma reads MN-major operands from shared memory only for f16 and bf16.", CheckWgmmaMnType, MsgWgmmaMnType,
     FixWgmmaMnType, kSrcWgmmaTypes},
    {"desc-k-major-atom32", Severity::kError, kScopeLayout, "layout_type",
     "128B swizzle with 32-byte atomicity is not a K-major layout.", CheckKMajorAtom32, MsgKMajorAtom32,
     FixKMajorAtom32, kSrcTable54},
    {"desc-mn-major-sub-byte", Severity::kError, kScopeLayout, "major",
     "tcgen05 reads 6- and 4-bit operands K-major only.", CheckMnSubByte, MsgMnSubByte, FixMnSubByte, kSrcTable54},
    {"desc-mn-major-tf32-swizzle", Severity::kError, kScopeLayout, "layout_type",
     "MN-major 32-bit operands use only 128B swizzle with 32-byte atomicity.", CheckMnTf32, MsgMnTf32, FixMnTf32,
     kSrcTable54},
    {"desc-atom32-type", Severity::kError, kScopeLayout, "layout_type",
     "128B swizzle with 32-byte atomicity is for MN-major 32-bit operands only.", CheckAtom32Type, MsgAtom32Type,
     FixAtom32Type, kSrcTable54},
    {"desc-tile-mn", Severity::kError, kScopeLayout, "tile",
     "The tile's M/N is a multiple of 8 rows (K-major) or of 16 bytes (MN-major).", CheckTileMn, MsgTileMn, FixTileMn,
     kSrcWgmmaLayout},
    {"desc-tile-k", Severity::kError, kScopeLayout, "tile",
     "The tile's K is a multiple of 16 bytes (K-major) or of the atom's K rows (MN-major).", CheckTileK, MsgTileK,
     FixTileK, kSrcWgmmaLayout},
    {"desc-tile-k-step", Severity::kError, kScopeLayout, "tile",
     "The tile holds at least one MMA's K.", CheckTileKStep, MsgTileKStep, FixTileKStep, kSrcT39},
    {"desc-tile-k-atoms", Severity::kNote, kScopeLayout, "tile",
     "A swizzled K-major tile wider than one atom is read one atom-wide slab per K slice.", CheckTileKAtoms,
     MsgTileKAtoms, FixTileKAtoms, kSrcWgmmaLayout},
    {"desc-lbo-unused", Severity::kNote, kScopeLayout, "leading_byte_offset",
     "Swizzled K-major layouts do not use LBO (assumed 1).", CheckLboUnused, MsgLboUnused, FixLboUnused, kSrcWgmmaLayout},
    {"desc-lbo-canonical", Severity::kWarning, kScopeLayout, "leading_byte_offset",
     "A given LBO equals the dense tile's.", CheckLboCanonical, MsgLboCanonical, FixLboCanonical, kSrcWgmmaLayout},
    {"desc-sbo-canonical", Severity::kWarning, kScopeLayout, "stride_byte_offset",
     "A given SBO equals the dense tile's.", CheckSboCanonical, MsgSboCanonical, FixSboCanonical, kSrcWgmmaLayout},
    {"desc-lbo-absolute-major", Severity::kError, kScopeLayout, "lbo_mode",
     "The absolute leading-dimension address mode is for K-major operands only.", CheckAbsMajor, MsgAbsMajor,
     FixAbsMajor, kSrcTcAbs},
    {"desc-smem-capacity", Severity::kError, kScopeLayout, "start_address",
     "The tile lies within the shared memory a block can have.", CheckSmemCapacity, MsgSmemCapacity, FixSmemCapacity,
     kSrcSmemCap},
    {"desc-stride-zero", Severity::kError, kScopeLayout, "leading_byte_offset|stride_byte_offset",
     "LBO and SBO are not 0 where the tile has more than one core matrix in their direction.", CheckStrideZero,
     MsgStrideZero, FixStrideZero, kSrcWgmmaLayout},
    // ---- advance ----
    {"desc-advance-align-16", Severity::kError, kScopeAdvance, "start_address",
     "A K slice or sub-tile starts a multiple of 16 bytes into the tile.", CheckAdvAlign, MsgAdvAlign, FixAdvAlign,
     kSrcAdvance},
    {"desc-advance-base-offset", Severity::kWarning, kScopeAdvance, "base_offset",
     "Advancing into another row of the swizzle pattern changes the base offset.", CheckAdvBase, MsgAdvBase, FixAdvBase,
     kSrcBase},
    {"desc-advance-range", Severity::kError, kScopeAdvance, "start_address",
     "The advanced start address fits the 14-bit field.", CheckAdvRange, MsgAdvRange, FixAdvRange, kSrcBoth},
    {"desc-advance-outside-tile", Severity::kError, kScopeAdvance, "start_address",
     "The K slice or sub-tile lies inside the tile.", CheckAdvOutside, MsgAdvOutside, FixAdvOutside, kSrcAdvance},
    // ---- map ----
    {"map-interleave", Severity::kError, kScopeMap, "interleave",
     "Maps that feed an MMA descriptor are not interleaved.", CheckMapInterleave, MsgMapInterleave, FixMapInterleave,
     kSrcMap},
    {"map-swizzle-unsupported", Severity::kError, kScopeMap, "swizzle",
     "The map's swizzle has a descriptor counterpart in the family.", CheckMapSwizzleUnsupported,
     MsgMapSwizzleUnsupported, FixMapSwizzleUnsupported, kSrcMap},
    {"map-dtype", Severity::kError, kScopeMap, "tensor_data_type",
     "The map's data type is an MMA operand type.", CheckMapDtype, MsgMapDtype, FixMapDtype, kSrcMap},
    {"map-type-bits", Severity::kError, kScopeMap, "tensor_data_type",
     "The MMA operand type and the map's data type have the same size in shared memory.", CheckMapTypeBits,
     MsgMapTypeBits, FixMapTypeBits, kSrcMap},
    {"map-box-wider-than-atom", Severity::kError, kScopeMap, "box_dim[0]",
     "A box row is no wider than one swizzle atom (16 B without swizzle) along the contiguous dimension.",
     CheckMapBoxWider, MsgMapBoxWider, FixMapBoxWider, kSrcMap},
    {"map-box-narrower-than-atom", Severity::kError, kScopeMap, "box_dim[0]",
     "A swizzled box row is exactly one swizzle atom wide.", CheckMapBoxNarrower, MsgMapBoxNarrower, FixMapBoxNarrower,
     kSrcMap},
    {"map-dst-align-128", Severity::kError, kScopeMap, "smem_address",
     "The map's shared-memory destination is 128-byte aligned.", CheckMapDstAlign, MsgMapDstAlign, FixMapDstAlign,
     kSrcCpgAlign},
    {"map-dst-phase", Severity::kWarning, kScopeMap, "smem_address",
     "The map's destination is on the swizzle repeat (else every descriptor needs the base offset).", CheckMapDstPhase,
     MsgMapDstPhase, FixMapDstPhase, kSrcBase},
    {"map-layout-encoding", Severity::kWarning, kScopeMap, "layout_type",
     "A layout type that disagrees with the map is not the other family's code for the map's swizzle (wgmma 1/2/3 = "
     "128B/64B/32B; tcgen05 2/4/6, 1 = 128B_atom_32B).",
     CheckMapEncoding, MsgMapEncoding, FixMapEncoding, kSrcTcDesc},
    {"map-swizzle-mismatch", Severity::kError, kScopeMap, "layout_type",
     "The descriptor's swizzle is the map's.", CheckMapSwizzle, MsgMapSwizzle, FixMapSwizzle, kSrcMap},
    {"map-atomicity-mismatch", Severity::kError, kScopeMap, "layout_type",
     "The descriptor's swizzle atomicity is the map's (16 B for 128B, 32 B for 128B_ATOM_32B).", CheckMapAtomicity,
     MsgMapAtomicity, FixMapAtomicity, kSrcMap},
    {"map-lbo-mismatch", Severity::kError, kScopeMap, "leading_byte_offset",
     "LBO matches the box layout (where LBO is used).", CheckMapLbo, MsgMapLbo, FixMapLbo, kSrcMap},
    {"map-sbo-mismatch", Severity::kError, kScopeMap, "stride_byte_offset",
     "SBO matches the box layout.", CheckMapSbo, MsgMapSbo, FixMapSbo, kSrcMap},
    {"map-base-offset-mismatch", Severity::kError, kScopeMap, "base_offset",
     "The base offset matches the phase the TMA wrote the box with.", CheckMapBase, MsgMapBase, FixMapBase, kSrcBase},
    {"map-start-outside", Severity::kError, kScopeMap, "start_address",
     "The descriptor starts inside the box the map writes.", CheckMapStartOutside, MsgMapStartOutside,
     FixMapStartOutside, kSrcMap},
    {"map-start-offset", Severity::kWarning, kScopeMap, "start_address",
     "A descriptor that starts inside the box starts at one of its K slices.", CheckMapStartOffset, MsgMapStartOffset,
     FixMapStartOffset, kSrcMap},
    {"map-chunks-disagree", Severity::kError, kScopeMap, "",
     "Every 16-byte chunk of the first K slice is read where the map wrote it.", CheckMapChunks, MsgMapChunks,
     FixMapChunks, kSrcModel},
    // ---- instruction descriptor ----
    {"idesc-variant", Severity::kError, kScopeIdesc, "cta_group",
     "The kind exists for the cta_group and .ws form (.ws: cta_group 1, no block-scaled kinds).", CheckIdVariant,
     MsgIdVariant, FixIdVariant, kSrcT39},
    {"idesc-m", Severity::kError, kScopeIdesc, "m", "M is valid for the kind, cta_group, .ws and sparsity.", CheckIdM,
     MsgIdM, FixIdM, kSrcT39},
    {"idesc-n", Severity::kError, kScopeIdesc, "n", "N is valid for the kind, cta_group, .ws and sparsity.", CheckIdN,
     MsgIdN, FixIdN, kSrcT39},
    {"idesc-k96", Severity::kError, kScopeIdesc, "k",
     "K = 96 (mxf4, mxf4nvf4) is dense, .cta_group::2, M = 256, on sm_103a.", CheckIdK96, MsgIdK96, FixIdK96, kSrcT39},
    {"idesc-d-type", Severity::kError, kScopeIdesc, "d_type",
     "The D type is valid for the kind (tf32: f32; f16: f16 or f32, bf16 inputs f32; f8f6f4: f16 or f32; i8: s32).",
     CheckIdDType, MsgIdDType, FixIdDType, kSrcT42},
    {"idesc-ab-type", Severity::kError, kScopeIdesc, "a_type|b_type", "A and B type codes are types of the kind.",
     CheckIdAbType, MsgIdAbType, FixIdAbType, kSrcT42},
    {"idesc-ab-type-match", Severity::kError, kScopeIdesc, "b_type", ".kind::f16 multiplies like types (f16 x f16, bf16 x bf16).",
     CheckIdAbMatch, MsgIdAbMatch, FixIdAbMatch, kSrcT39},
    {"idesc-negate-i8", Severity::kError, kScopeIdesc, "negate_a", ".kind::i8 does not negate.", CheckIdNegateI8,
     MsgIdNegateI8, FixIdNegateI8, kSrcT42},
    {"idesc-saturate", Severity::kError, kScopeIdesc, "saturate", "Saturate is set only for .kind::i8.", CheckIdSaturate,
     MsgIdSaturate, FixIdSaturate, kSrcT42},
    {"idesc-transpose-kind", Severity::kError, kScopeIdesc, "transpose_a",
     ".kind::mxf4 and .kind::mxf4nvf4 do not transpose.", CheckIdTransposeKind, MsgIdTransposeKind, FixIdTransposeKind,
     kSrcT42},
    {"idesc-transpose-type", Severity::kError, kScopeIdesc, "transpose_a|transpose_b",
     "6- and 4-bit operands are not transposed (MN-major).", CheckIdTransposeType, MsgIdTransposeType,
     FixIdTransposeType, kSrcT51},
    {"idesc-transpose-n", Severity::kError, kScopeIdesc, "n",
     "With a transposed 8-bit B, N is a multiple of 16 (cta_group 1) or 32 (cta_group 2).", CheckIdTransposeN,
     MsgIdTransposeN, FixIdTransposeN, kSrcT51},
    {"idesc-sparse-selector", Severity::kWarning, kScopeIdesc, "sparsity_selector",
     "The sparsity selector is 0 for dense MMAs.", CheckIdSparseSel, MsgIdSparseSel, FixIdSparseSel, kSrcT42},
    {"idesc-max-shift", Severity::kError, kScopeIdesc, "max_shift",
     "The maximum shift is 0, 8, 16 or 32, and non-zero only with .ws.", CheckIdMaxShift, MsgIdMaxShift, FixIdMaxShift,
     kSrcT42},
    {"idesc-scale-type", Severity::kError, kScopeIdesc, "scale_type",
     ".kind::mxf8f6f4 and .kind::mxf4 use ue8m0 scale factors.", CheckIdScaleType, MsgIdScaleType, FixIdScaleType,
     kSrcT42},
    {"idesc-sf-id", Severity::kError, kScopeIdesc, "a_sf_id|b_sf_id",
     "Scale-factor ids fit 2 bits; .kind::mxf4 and .kind::mxf4nvf4 use 0 or 2.", CheckIdSfId, MsgIdSfId, FixIdSfId,
     kSrcT42},
    {"idesc-reserved", Severity::kError, kScopeIdesc, "reserved", "Reserved bits are 0.", CheckIdReserved,
     MsgIdReserved, FixIdReserved, kSrcT42},
    {"idesc-target", Severity::kError, kScopeIdesc, "target",
     "tcgen05.mma exists on the target (.kind::i8: sm_100a, sm_101a, sm_110a).", CheckIdTarget, MsgIdTarget,
     FixIdTarget, kSrcTargets},
};

constexpr int kNumRules = static_cast<int>(sizeof(kRules) / sizeof(kRules[0]));

void Count(DescValidation* out) {
  out->errors = out->warnings = out->notes = 0;
  for (const Finding& f : out->findings) {
    switch (kRules[f.rule].severity) {
      case Severity::kError: ++out->errors; break;
      case Severity::kWarning: ++out->warnings; break;
      case Severity::kNote: ++out->notes; break;
    }
  }
  out->valid = out->errors == 0;
}

}  // namespace

const DescRule* DescRules() { return kRules; }
int NumDescRules() { return kNumRules; }
int FindDescRule(std::string_view id) {
  for (int i = 0; i < kNumRules; ++i)
    if (kRules[i].id == id) return i;
  return -1;
}

void ValidateSmem(const SmemCheck& in, DescValidation* out) {
  out->findings.Clear();
  DescContext ctx;
  ctx.smem = &in;
  uint8_t scopes = kScopeValue;
  if (in.layout != nullptr && in.facts != nullptr) scopes |= kScopeLayout;
  if (in.advance != nullptr) scopes |= kScopeAdvance;
  if (in.map != nullptr) scopes |= kScopeMap;
  for (int i = 0; i < kNumRules; ++i)
    if (kRules[i].scope & scopes) kRules[i].check(ctx, static_cast<uint16_t>(i), &out->findings);
  Count(out);
}

void ValidateIdesc(const IdescCheck& in, DescValidation* out) {
  out->findings.Clear();
  DescContext ctx;
  ctx.idesc = &in;
  for (int i = 0; i < kNumRules; ++i)
    if (kRules[i].scope & kScopeIdesc) kRules[i].check(ctx, static_cast<uint16_t>(i), &out->findings);
  Count(out);
}

std::vector<DescDiagnostic> MakeDescDiagnostics(const DescContext& ctx, const DescValidation& v) {
  std::vector<DescDiagnostic> out;
  out.reserve(static_cast<size_t>(v.findings.size()));
  for (const Finding& f : v.findings) {
    const DescRule& r = kRules[f.rule];
    DescDiagnostic d;
    d.rule = std::string(r.id);
    d.severity = r.severity;
    std::string_view field = r.field;
    const size_t bar = field.find('|');
    if (bar != std::string_view::npos) field = f.index == 1 ? field.substr(bar + 1) : field.substr(0, bar);
    d.field = std::string(field);
    d.message = r.message(ctx, f);
    d.fix = r.fix(ctx, f);
    d.source = std::string(r.source);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tmapgen::desc
