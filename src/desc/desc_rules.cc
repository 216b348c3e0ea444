// desc_rules.cc: the descriptor rule table. One row per rule: its catalogue row (src/tmap/rule_catalogue.h: id,
// severity, field, statement, source), its scope, and its code: the checks, messages and fixes are in
// src/desc/rules/, one file per scope (value, layout, advance, map, instruction descriptor).
#include "src/desc/desc_rules.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/advance.h"
#include "src/desc/rules/idesc.h"
#include "src/desc/rules/layout.h"
#include "src/desc/rules/map.h"
#include "src/desc/rules/value.h"
#include "src/tmap/rule_catalogue_data.h"
#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

using namespace rules;  // NOLINT: the table names the checks of src/desc/rules/

// A row of the table: what users see of the rule (id, severity, field, statement, source) from its row of the
// catalogue (src/tmap/rule_catalogue.h), the scope and code from here.
constexpr DescRule DescRow(std::string_view id, uint8_t scope, DescCheckFn check, DescTextFn message, DescTextFn fix) {
  const RuleEntry& e = CatalogueEntry(id);
  return DescRule{e.id, e.severity, scope, e.field, e.statement, check, message, fix, e.source};
}

// ============================== the table ==============================
// In catalogue order; every active descriptor row of the catalogue (smem, map and instruction descriptors) has its
// row here, in the scope of its family (static_asserts below).
constexpr DescRule kRules[] = {
    // ---- value ----
    DescRow("desc-layout-type-invalid", kScopeValue, CheckLayoutTypeInvalid, MsgLayoutTypeInvalid,
        FixLayoutTypeInvalid),
    DescRow("desc-tcgen05-version", kScopeValue, CheckVersion, MsgVersion, FixVersion),
    DescRow("desc-tcgen05-fixed-zero", kScopeValue, CheckFixedZero, MsgFixedZero, FixFixedZero),
    DescRow("desc-reserved-bits", kScopeValue, CheckReserved, MsgReserved, FixReserved),
    DescRow("desc-base-offset-no-swizzle", kScopeValue, CheckBaseNoSwizzle, MsgBaseNoSwizzle, FixBaseNoSwizzle),
    DescRow("desc-base-offset-range", kScopeValue, CheckBaseRange, MsgBaseRange, FixBaseRange),
    DescRow("desc-arch-target", kScopeValue, CheckArchTarget, MsgArchTarget, FixArchTarget),
    DescRow("desc-lbo-absolute-target", kScopeValue, CheckAbsTarget, MsgAbsTarget, FixAbsTarget),
    DescRow("desc-lbo-absolute-swizzle", kScopeValue, CheckAbsSwizzle, MsgAbsSwizzle, FixAbsSwizzle),
    DescRow("desc-lbo-absolute-base-offset", kScopeValue, CheckAbsBase, MsgAbsBase, FixAbsBase),
    DescRow("desc-sbo-zero", kScopeValue, CheckSboZero, MsgSboZero, FixSboZero),
    // ---- layout ----
    DescRow("desc-start-align-16", kScopeLayout, CheckStartAlign, MsgStartAlign, FixStartAlign),
    DescRow("desc-lbo-align-16", kScopeLayout, CheckLboAlign, MsgLboAlign, FixLboAlign),
    DescRow("desc-sbo-align-16", kScopeLayout, CheckSboAlign, MsgSboAlign, FixSboAlign),
    DescRow("desc-start-range", kScopeLayout, CheckStartRange, MsgStartRange, FixStartRange),
    DescRow("desc-lbo-range", kScopeLayout, CheckLboRange, MsgLboRange, FixLboRange),
    DescRow("desc-sbo-range", kScopeLayout, CheckSboRange, MsgSboRange, FixSboRange),
    DescRow("desc-base-offset-mismatch", kScopeLayout, CheckBaseMismatch, MsgBaseMismatch, FixBaseMismatch),
    DescRow("desc-start-swizzle-phase", kScopeLayout, CheckStartPhase, MsgStartPhase, FixStartPhase),
    DescRow("desc-wgmma-swizzle", kScopeLayout, CheckWgmmaSwizzle, MsgWgmmaSwizzle, FixWgmmaSwizzle),
    DescRow("desc-wgmma-type", kScopeLayout, CheckWgmmaType, MsgWgmmaType, FixWgmmaType),
    DescRow("desc-wgmma-mn-major-type", kScopeLayout, CheckWgmmaMnType, MsgWgmmaMnType, FixWgmmaMnType),
    DescRow("desc-k-major-atom32", kScopeLayout, CheckKMajorAtom32, MsgKMajorAtom32, FixKMajorAtom32),
    DescRow("desc-mn-major-sub-byte", kScopeLayout, CheckMnSubByte, MsgMnSubByte, FixMnSubByte),
    DescRow("desc-mn-major-tf32-swizzle", kScopeLayout, CheckMnTf32, MsgMnTf32, FixMnTf32),
    DescRow("desc-atom32-type", kScopeLayout, CheckAtom32Type, MsgAtom32Type, FixAtom32Type),
    DescRow("desc-tile-mn", kScopeLayout, CheckTileMn, MsgTileMn, FixTileMn),
    DescRow("desc-tile-k", kScopeLayout, CheckTileK, MsgTileK, FixTileK),
    DescRow("desc-tile-k-step", kScopeLayout, CheckTileKStep, MsgTileKStep, FixTileKStep),
    DescRow("desc-tile-k-atoms", kScopeLayout, CheckTileKAtoms, MsgTileKAtoms, FixTileKAtoms),
    DescRow("desc-lbo-unused", kScopeLayout, CheckLboUnused, MsgLboUnused, FixLboUnused),
    DescRow("desc-lbo-canonical", kScopeLayout, CheckLboCanonical, MsgLboCanonical, FixLboCanonical),
    DescRow("desc-sbo-canonical", kScopeLayout, CheckSboCanonical, MsgSboCanonical, FixSboCanonical),
    DescRow("desc-lbo-absolute-major", kScopeLayout, CheckAbsMajor, MsgAbsMajor, FixAbsMajor),
    DescRow("desc-smem-capacity", kScopeLayout, CheckSmemCapacity, MsgSmemCapacity, FixSmemCapacity),
    DescRow("desc-stride-zero", kScopeLayout, CheckStrideZero, MsgStrideZero, FixStrideZero),
    // ---- advance ----
    DescRow("desc-advance-align-16", kScopeAdvance, CheckAdvAlign, MsgAdvAlign, FixAdvAlign),
    DescRow("desc-advance-base-offset", kScopeAdvance, CheckAdvBase, MsgAdvBase, FixAdvBase),
    DescRow("desc-advance-range", kScopeAdvance, CheckAdvRange, MsgAdvRange, FixAdvRange),
    DescRow("desc-advance-outside-tile", kScopeAdvance, CheckAdvOutside, MsgAdvOutside, FixAdvOutside),
    // ---- map ----
    DescRow("map-interleave", kScopeMap, CheckMapInterleave, MsgMapInterleave, FixMapInterleave),
    DescRow("map-swizzle-unsupported", kScopeMap, CheckMapSwizzleUnsupported, MsgMapSwizzleUnsupported,
        FixMapSwizzleUnsupported),
    DescRow("map-dtype", kScopeMap, CheckMapDtype, MsgMapDtype, FixMapDtype),
    DescRow("map-type-bits", kScopeMap, CheckMapTypeBits, MsgMapTypeBits, FixMapTypeBits),
    DescRow("map-box-wider-than-atom", kScopeMap, CheckMapBoxWider, MsgMapBoxWider, FixMapBoxWider),
    DescRow("map-box-narrower-than-atom", kScopeMap, CheckMapBoxNarrower, MsgMapBoxNarrower, FixMapBoxNarrower),
    DescRow("map-dst-align-128", kScopeMap, CheckMapDstAlign, MsgMapDstAlign, FixMapDstAlign),
    DescRow("map-dst-phase", kScopeMap, CheckMapDstPhase, MsgMapDstPhase, FixMapDstPhase),
    DescRow("map-layout-encoding", kScopeMap, CheckMapEncoding, MsgMapEncoding, FixMapEncoding),
    DescRow("map-swizzle-mismatch", kScopeMap, CheckMapSwizzle, MsgMapSwizzle, FixMapSwizzle),
    DescRow("map-atomicity-mismatch", kScopeMap, CheckMapAtomicity, MsgMapAtomicity, FixMapAtomicity),
    DescRow("map-lbo-mismatch", kScopeMap, CheckMapLbo, MsgMapLbo, FixMapLbo),
    DescRow("map-sbo-mismatch", kScopeMap, CheckMapSbo, MsgMapSbo, FixMapSbo),
    DescRow("map-base-offset-mismatch", kScopeMap, CheckMapBase, MsgMapBase, FixMapBase),
    DescRow("map-start-outside", kScopeMap, CheckMapStartOutside, MsgMapStartOutside, FixMapStartOutside),
    DescRow("map-start-offset", kScopeMap, CheckMapStartOffset, MsgMapStartOffset, FixMapStartOffset),
    DescRow("map-chunks-disagree", kScopeMap, CheckMapChunks, MsgMapChunks, FixMapChunks),
    // ---- instruction descriptor ----
    DescRow("idesc-variant", kScopeIdesc, CheckIdVariant, MsgIdVariant, FixIdVariant),
    DescRow("idesc-m", kScopeIdesc, CheckIdM, MsgIdM, FixIdM),
    DescRow("idesc-n", kScopeIdesc, CheckIdN, MsgIdN, FixIdN),
    DescRow("idesc-a-tmem-transpose", kScopeIdesc, CheckIdTmemTranspose, MsgIdTmemTranspose, FixIdTmemTranspose),
    DescRow("idesc-k96", kScopeIdesc, CheckIdK96, MsgIdK96, FixIdK96),
    DescRow("idesc-d-type", kScopeIdesc, CheckIdDType, MsgIdDType, FixIdDType),
    DescRow("idesc-ab-type", kScopeIdesc, CheckIdAbType, MsgIdAbType, FixIdAbType),
    DescRow("idesc-ab-type-match", kScopeIdesc, CheckIdAbMatch, MsgIdAbMatch, FixIdAbMatch),
    DescRow("idesc-negate-i8", kScopeIdesc, CheckIdNegateI8, MsgIdNegateI8, FixIdNegateI8),
    DescRow("idesc-saturate", kScopeIdesc, CheckIdSaturate, MsgIdSaturate, FixIdSaturate),
    DescRow("idesc-transpose-kind", kScopeIdesc, CheckIdTransposeKind, MsgIdTransposeKind, FixIdTransposeKind),
    DescRow("idesc-transpose-type", kScopeIdesc, CheckIdTransposeType, MsgIdTransposeType, FixIdTransposeType),
    DescRow("idesc-transpose-n", kScopeIdesc, CheckIdTransposeN, MsgIdTransposeN, FixIdTransposeN),
    DescRow("idesc-sparse-selector", kScopeIdesc, CheckIdSparseSel, MsgIdSparseSel, FixIdSparseSel),
    DescRow("idesc-max-shift", kScopeIdesc, CheckIdMaxShift, MsgIdMaxShift, FixIdMaxShift),
    DescRow("idesc-scale-type", kScopeIdesc, CheckIdScaleType, MsgIdScaleType, FixIdScaleType),
    DescRow("idesc-sf-id", kScopeIdesc, CheckIdSfId, MsgIdSfId, FixIdSfId),
    DescRow("idesc-reserved", kScopeIdesc, CheckIdReserved, MsgIdReserved, FixIdReserved),
    DescRow("idesc-target", kScopeIdesc, CheckIdTarget, MsgIdTarget, FixIdTarget),
};

constexpr int kNumRules = static_cast<int>(sizeof(kRules) / sizeof(kRules[0]));

static_assert(TableFollowsCatalogue((1u << static_cast<unsigned>(RuleFamily::kSmemDescriptor)) |
                                        (1u << static_cast<unsigned>(RuleFamily::kMapDescriptor)) |
                                        (1u << static_cast<unsigned>(RuleFamily::kInstrDescriptor)),
                                    [](int i) { return kRules[i].id; }, kNumRules),
              "the descriptor rule table and the catalogue (src/tmap/rule_catalogue.h) list different rules, or in "
              "another order");
// The family of a row's catalogue entry is the one its scope checks.
constexpr bool ScopesMatchFamilies() {
  for (const DescRule& r : kRules) {
    const RuleFamily f = CatalogueEntry(r.id).family;
    const RuleFamily want = r.scope == kScopeMap     ? RuleFamily::kMapDescriptor
                            : r.scope == kScopeIdesc ? RuleFamily::kInstrDescriptor
                                                     : RuleFamily::kSmemDescriptor;
    if (f != want) return false;
  }
  return true;
}
static_assert(ScopesMatchFamilies(), "a descriptor rule's scope and its catalogue family disagree");

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
