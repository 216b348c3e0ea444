// desc_rules.cc: the descriptor rule table. One row per rule; the checks, messages and fixes are in
// src/desc/rules/, one file per scope (value, layout, advance, map, instruction descriptor).
#include "src/desc/desc_rules.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/advance.h"
#include "src/desc/rules/idesc.h"
#include "src/desc/rules/layout.h"
#include "src/desc/rules/map.h"
#include "src/desc/rules/value.h"
#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

using namespace rules;  // NOLINT: the table names the checks of src/desc/rules/

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
constexpr std::string_view kSrcTS =
    "CUTLASS cute/arch/mma_sm100_umma.hpp (SM100_MMA_*_TS and *_2x1SM_TS static_asserts; commit 7107b0553)";
constexpr std::string_view kSrcT39TS =
    "PTX ISA 9.2 section 9.7.16.2.1 (Table 39: kinds and shapes); A in tensor memory: CUTLASS "
    "cute/arch/mma_sm100_umma.hpp SM100_MMA_*_TS static_asserts (commit 7107b0553)";
constexpr std::string_view kSrcT42 = "PTX ISA 9.2 section 9.7.16.4.2 (Tables 42-44: instruction descriptor)";
constexpr std::string_view kSrcT51 =
    "PTX ISA 9.2 section 9.7.16 (Tables 51-52: transpose and negate support; 8-bit transpose N); CUTLASS "
    "UMMA::make_instr_desc comment (MN-major only for 8/16/32-bit types)";

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
    {"idesc-m", Severity::kError, kScopeIdesc, "m", "M is valid for the form: kind, cta_group, .ws and sparsity.", CheckIdM,
     MsgIdM, FixIdM, kSrcT39},
    {"idesc-n", Severity::kError, kScopeIdesc, "n",
     "N is valid for the form: kind, cta_group, .ws, sparsity and A source (A in tensor memory: N a multiple of 16 "
     "for M = 128 with cta_group 1, of 32 with cta_group 2).", CheckIdN, MsgIdN, FixIdN, kSrcT39TS},
    {"idesc-a-tmem-transpose", Severity::kError, kScopeIdesc, "transpose_a",
     "A read from tensor memory ([a_tmem]) is K-major: the transpose-A bit is 0.", CheckIdTmemTranspose,
     MsgIdTmemTranspose, FixIdTmemTranspose, kSrcTS},
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
