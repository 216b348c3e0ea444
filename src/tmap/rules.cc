// rules.cc: the tensor-map rule table. One row per rule: its catalogue row (src/tmap/rule_catalogue.h: id,
// severity, field, statement, source), the modes it applies to, and its code: the checks are defined inline in
// the headers of src/tmap/rules/ (one per part of the spec), their messages, fixes and patches in the matching
// .cc files. The table is constexpr and RunRules() calls each check directly, so the checks can be inlined.
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "src/tmap/fast_path.h"
#include "src/tmap/rule.h"
#include "src/tmap/rule_catalogue_data.h"
#include "src/tmap/rules/box_elements.h"
#include "src/tmap/rules/common.h"
#include "src/tmap/rules/data_type.h"
#include "src/tmap/rules/direction.h"
#include "src/tmap/rules/driver_version.h"
#include "src/tmap/rules/im2col.h"
#include "src/tmap/rules/per_target.h"
#include "src/tmap/rules/rank_dims.h"
#include "src/tmap/rules/smem_address.h"
#include "src/tmap/rules/strides_address.h"
#include "src/tmap/rules/swizzle_interleave.h"
#include "src/tmap/rules/unused_fields.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

using namespace rules;  // NOLINT: the table names the checks of src/tmap/rules/

constexpr uint8_t kTiledLike = ModeBit(Mode::kTiled) | ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);
constexpr uint8_t kIm2colAll = ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kWide = ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kGS = ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);
constexpr uint8_t kAll = kAllModes;
constexpr uint8_t kIm2colOnly = ModeBit(Mode::kIm2col);
constexpr uint8_t kNotGSWide = ModeBit(Mode::kTiled) | ModeBit(Mode::kIm2col);

// A row of the table: what users see of the rule (id, severity, field, statement, source) from its row of the
// catalogue (src/tmap/rule_catalogue.h), the code and scope from here.
constexpr Rule TmapRule(std::string_view id, uint8_t modes, bool per_target, CheckFn check, TextFn message,
                        TextFn fix, PatchFn patch, FieldFn field_path = nullptr) {
  const RuleEntry& e = CatalogueEntry(id);
  return Rule{e.id, e.severity, modes, per_target, e.field, e.statement, check, message, fix, patch, e.source,
              field_path};
}

// ============================== the table ==============================
// In catalogue order (the order findings of one severity are reported in); every active tensor-map row of the
// catalogue has its row here (static_assert below).
constexpr Rule kRules[] = {
    TmapRule("rank-range", kTiledLike & ~kGS, false, CheckRankRange, MsgRankRange, FixRankRange, nullptr),
    TmapRule("im2col-rank", kIm2colAll, false, CheckIm2colRank, MsgIm2colRank, FixIm2colRank, nullptr),
    TmapRule("interleave-rank", kAll, false, CheckInterleaveRank, MsgInterleaveRank, FixInterleaveRank,
        PatchInterleaveNone),
    TmapRule("gather4-rank", kGS, false, CheckGather4Rank, MsgGather4Rank, FixGather4Rank, nullptr),
    TmapRule("global-dim-range", kAll, false, CheckGlobalDimRange, MsgGlobalDimRange, FixGlobalDimRange,
        PatchGlobalDimRange),
    TmapRule("global-dim-packed", kAll, false, CheckGlobalDimPacked, MsgGlobalDimPacked, FixGlobalDimPacked,
        PatchGlobalDimPacked),
    TmapRule("global-stride-align-16", kAll, false, CheckStrideAlign16, MsgStrideAlign16, FixStrideAlign16,
        PatchStrideAlign),
    TmapRule("global-stride-align-32", kAll, false, CheckStrideAlign32, MsgStrideAlign32, FixStrideAlign32,
        PatchStrideAlign),
    TmapRule("global-stride-max", kAll, false, CheckStrideMax, MsgStrideMax, FixStrideMax, PatchStrideMax),
    TmapRule("global-stride-overlap", kAll, false, CheckStrideOverlap, MsgStrideOverlap, FixStrideOverlap, nullptr),
    TmapRule("global-address-align-16", kAll, false, CheckAddrAlign16, MsgAddrAlign16, FixAddrAlign, nullptr),
    TmapRule("global-address-align-32", kAll, false, CheckAddrAlign32, MsgAddrAlign32, FixAddrAlign, nullptr),
    TmapRule("global-address-align-128-swizzle", kAll, false, CheckAddrAlign128Swizzle, MsgAddrAlign128Swizzle,
        FixAddrAlign, nullptr),
    TmapRule("box-dim-range", kTiledLike, false, CheckBoxRange, MsgBoxRange, FixBoxRange, PatchBoxRange),
    TmapRule("box-inner-bytes-16", kTiledLike, false, CheckBoxInner16, MsgBoxInner16, FixBoxInner16, PatchBoxInner16),
    TmapRule("box-packed-128", kTiledLike, false, CheckBoxPacked128, MsgBoxPacked128, FixBoxPacked128,
        PatchBoxPacked128),
    TmapRule("box-exceeds-tensor", kTiledLike, false, CheckBoxExceedsTensor, MsgBoxExceedsTensor, FixBoxExceedsTensor,
        nullptr),
    TmapRule("gather4-box-rows", kGS, false, CheckGather4BoxRows, MsgGather4BoxRows, FixGather4BoxRows,
        PatchGather4BoxRows),
    TmapRule("element-stride-range", kAll, false, CheckElementStrideRange, MsgElementStrideRange, FixElementStrideRange,
        PatchElementStrideRange),
    TmapRule("element-stride-dim0", kAll, false, CheckElementStrideDim0, MsgElementStrideDim0, FixElementStrideDim0,
        PatchElementStrideDim0),
    TmapRule("swizzle-inner-span", kAll, false, CheckSwizzleSpan, MsgSwizzleSpan, FixSwizzleSpan, PatchSwizzleSpan,
        FieldOfInnerBox),
    TmapRule("swizzle-inner-below-span", kAll, false, CheckSwizzleBelowSpan, MsgSwizzleBelowSpan, FixSwizzleBelowSpan,
        nullptr, FieldOfInnerBox),
    TmapRule("interleave-32b-swizzle", kAll, false, CheckInterleave32Swizzle, MsgInterleave32Swizzle,
        FixInterleave32Swizzle, PatchSwizzle32),
    TmapRule("interleave-mode", kGS | kWide, false, CheckInterleaveMode, MsgInterleaveMode, FixInterleaveMode,
        PatchInterleaveNone),
    TmapRule("packed-u6-interleave", kAll, false, CheckPackedU6Interleave, MsgPackedU6Interleave, FixInterleaveMode,
        PatchInterleaveNone),
    TmapRule("packed-swizzle", kAll, false, CheckPackedSwizzle, MsgPackedSwizzle, FixPackedSwizzle, PatchSwizzle128),
    TmapRule("packed-direction", kAll, false, CheckPackedDirection, MsgPackedDirection, FixPackedDirection,
        PatchPackedDirection),
    TmapRule("oob-nan-float", kAll, false, CheckOobNanFloat, MsgOobNanFloat, FixOobNanFloat, PatchOobNone),
    TmapRule("im2col-lower-corner-range", kIm2colOnly, false, CheckLowerCorner, MsgLowerCorner, FixCorner,
        PatchLowerCorner),
    TmapRule("im2col-upper-corner-range", kIm2colOnly, false, CheckUpperCorner, MsgUpperCorner, FixCorner,
        PatchUpperCorner),
    TmapRule("im2col-box-area", kIm2colOnly, false, CheckIm2colBoxArea, MsgIm2colBoxArea, FixIm2colBoxArea,
        PatchIm2colBoxArea),
    TmapRule("im2col-interleave-box-area", kIm2colOnly, false, CheckIm2colInterleaveBoxArea, MsgIm2colInterleaveBoxArea,
        FixIm2colInterleaveBoxArea, PatchInterleaveNone),
    TmapRule("im2col-spatial-dim-int32", kIm2colAll, false, CheckIm2colSpatialInt32, MsgIm2colSpatialInt32,
        FixIm2colSpatialInt32, nullptr),
    TmapRule("im2col-channels-range", kIm2colAll, false, CheckChannelsRange, MsgChannelsRange, FixChannelsRange,
        PatchChannelsRange),
    TmapRule("im2col-channels-bytes-16", kIm2colAll, false, CheckChannelsBytes16, MsgChannelsBytes16,
        FixChannelsBytes16, PatchChannelsBytes16),
    TmapRule("im2col-pixels-range", kIm2colAll, false, CheckPixelsRange, MsgPixelsRange, FixPixelsRange,
        PatchPixelsRange),
    TmapRule("wide-lower-corner-range", kWide, false, CheckWideLower, MsgWideLower, FixWideCorner, PatchWideLower),
    TmapRule("wide-upper-corner-range", kWide, false, CheckWideUpper, MsgWideUpper, FixWideCorner, PatchWideUpper),
    TmapRule("wide-box-area", kWide, false, CheckWideBoxArea, MsgWideBoxArea, FixWideBoxArea, PatchWideBoxArea),
    TmapRule("wide-swizzle", kWide, false, CheckWideSwizzle, MsgWideSwizzle, FixWideSwizzle, PatchSwizzle128),
    TmapRule("wide-mode-mismatch", kWide, false, CheckWideModeMismatch, MsgWideModeMismatch, FixWideModeMismatch,
        PatchWideModeMismatch),
    TmapRule("wide-w128-pixels", ModeBit(Mode::kIm2colW128), false, CheckW128Pixels, MsgW128Pixels, FixW128Pixels,
        nullptr),
    TmapRule("im2col-store-corners", ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW), false, CheckIm2colStoreCorners,
        MsgIm2colStoreCorners, FixIm2colStoreCorners, PatchIm2colStoreCorners, FieldOfStoreCorner),
    TmapRule("mode-direction", kGS | ModeBit(Mode::kIm2colW128), false, CheckModeDirection, MsgModeDirection,
        FixModeDirection, PatchModeDirection),
    TmapRule("swizzle-flip8b-load-only", kAll, false, CheckFlip8bLoadOnly, MsgFlip8bLoadOnly, FixFlip8bLoadOnly,
        PatchSwizzleAtom32),
    TmapRule("reduce-op-type", kNotGSWide | ModeBit(Mode::kIm2colW), false, CheckReduceOpType, MsgReduceOpType,
        FixReduceOpType, nullptr),
    TmapRule("store-past-row-end", kAll, false, CheckStorePastRowEnd, MsgStorePastRowEnd, FixStorePastRowEnd, nullptr),
    TmapRule("target-swizzle-atomicity", kAll, true, CheckTargetAtomicity, MsgTargetAtomicity, FixTargetAtomicity,
        PatchSwizzle128),
    TmapRule("target-sub-byte", kAll, true, CheckTargetSubByte, MsgTargetSubByte, FixTargetSubByte, nullptr),
    TmapRule("target-mode", kAll & ~kNotGSWide, true, CheckTargetMode, MsgTargetMode, FixTargetMode, nullptr),
    TmapRule("target-sm120-cluster", kAll, true, CheckTargetSm120Cluster, MsgTargetSm120Cluster, FixTargetSm120Cluster,
        nullptr),
    TmapRule("target-smem-capacity", kAll, true, CheckTargetSmemCapacity, MsgTargetSmemCapacity, FixTargetSmemCapacity,
        nullptr, FieldOfBoxSize),
    TmapRule("box-driver-size-limit", kAll, true, CheckBoxDriverLimit, MsgBoxDriverLimit, FixTargetSmemCapacity,
        nullptr, FieldOfBoxSize),
    TmapRule("smem-align-128", kAll, false, CheckSmemAlign128, MsgSmemAlign128, FixSmemAlign128, nullptr, FieldOfSmem),
    TmapRule("smem-swizzle-phase", kAll, false, CheckSmemSwizzlePhase, MsgSmemSwizzlePhase, FixSmemSwizzlePhase,
        nullptr, FieldOfSmem),
    TmapRule("driver-version", kAll, false, CheckDriverVersion, MsgDriverVersion, FixDriverVersion, nullptr),
    TmapRule("driver-oob-address-bug", kAll, true, CheckDriverOobBug, MsgDriverOobBug, FixDriverOobBug, nullptr),
    TmapRule("unused-field", kAll, false, CheckUnusedFields, MsgUnusedFields, FixUnusedFields, nullptr, FieldOfUnused),
};

constexpr int kNumRulesValue = static_cast<int>(sizeof(kRules) / sizeof(kRules[0]));

static_assert(TableFollowsCatalogue(1u << static_cast<unsigned>(RuleFamily::kTensorMap),
                                    [](int i) { return kRules[i].id; }, kNumRulesValue),
              "the tensor-map rule table and the catalogue (src/tmap/rule_catalogue.h) list different rules, or in "
              "another order");

// The validator's fast path (src/tmap/fast_path.h) was written against exactly these rows: a rule added,
// removed, reordered or re-scoped (severity, modes, per_target) must be looked at there too.
constexpr bool FastPathCoversTable() {
  if (fast_path::kNumFastPathCovers != kNumRulesValue) return false;
  for (int i = 0; i < kNumRulesValue; ++i) {
    const fast_path::Covered& c = fast_path::kFastPathCovers[i];
    if (c.id != kRules[i].id || c.severity != kRules[i].severity || c.modes != kRules[i].modes ||
        c.per_target != kRules[i].per_target)
      return false;
  }
  return true;
}
static_assert(FastPathCoversTable(), "the rule table changed: update src/tmap/fast_path.h and ValidateFastPath");

// Runs the rules of one kind for one mode. The table is constexpr, so each check is called directly and
// can be inlined; rules that do not apply to the mode cost nothing.
template <int M, bool PerTarget, size_t... I>
SeverityCounts RunFor(const CheckContext& c, FindingList* o, std::index_sequence<I...>) {
  SeverityCounts n;
  auto one = [&](auto index) {
    constexpr size_t i = decltype(index)::value;
    if constexpr (kRules[i].per_target == PerTarget && (kRules[i].modes & ModeBit(static_cast<Mode>(M))) != 0) {
      const int before = o->size();
      kRules[i].check(c, static_cast<uint16_t>(i), o);
      constexpr Severity kSeverity = kRules[i].severity;
      int& count = kSeverity == Severity::kError ? n.errors : kSeverity == Severity::kWarning ? n.warnings : n.notes;
      count += o->size() - before;
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
  return n;
}

template <bool PerTarget>
SeverityCounts RunForMode(const CheckContext& c, FindingList* o) {
  using Seq = std::make_index_sequence<static_cast<size_t>(kNumRulesValue)>;
  switch (c.spec.mode) {
    case Mode::kTiled: return RunFor<0, PerTarget>(c, o, Seq{});
    case Mode::kIm2col: return RunFor<1, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW: return RunFor<2, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW128: return RunFor<3, PerTarget>(c, o, Seq{});
    case Mode::kGather4: return RunFor<4, PerTarget>(c, o, Seq{});
    case Mode::kScatter4: return RunFor<5, PerTarget>(c, o, Seq{});
  }
  return {};
}

}  // namespace

SeverityCounts RunRules(const CheckContext& ctx, bool per_target, FindingList* out) {
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

void CountBySeverity(const FindingList& findings, int counts[3]) {
  counts[0] = counts[1] = counts[2] = 0;
  for (const Finding& f : findings) ++counts[static_cast<int>(kRules[f.rule].severity)];
}

int FindRule(std::string_view id) {
  for (int i = 0; i < kNumRulesValue; ++i)
    if (kRules[i].id == id) return i;
  return -1;
}

namespace {

// Each rule's field path split where "[i]" stands (found once, at compile time): the text before it and after
// it, or the whole path when it has none.
struct FieldParts {
  bool indexed;
  std::string_view before, after;
};
constexpr std::array<FieldParts, kNumRulesValue> MakeFieldParts() {
  std::array<FieldParts, kNumRulesValue> parts{};
  for (int i = 0; i < kNumRulesValue; ++i) {
    const std::string_view field = kRules[i].field;
    const size_t p = field.find("[i]");
    parts[i] = p == std::string_view::npos ? FieldParts{false, field, {}}
                                           : FieldParts{true, field.substr(0, p), field.substr(p + 3)};
  }
  return parts;
}
constexpr std::array<FieldParts, kNumRulesValue> kFieldParts = MakeFieldParts();

// Every "[i]" path written out for the indices 0-7 ("global_strides[0]" ...), at compile time.
constexpr int kStaticIndices = 8;
constexpr size_t kFieldTextMax = 48;
struct FieldTexts {
  char text[kNumRulesValue][kStaticIndices][kFieldTextMax];
  uint8_t size[kNumRulesValue][kStaticIndices];
};
constexpr FieldTexts MakeFieldTexts() {
  FieldTexts t{};
  for (int r = 0; r < kNumRulesValue; ++r) {
    if (!kFieldParts[r].indexed) continue;
    for (int i = 0; i < kStaticIndices; ++i) {
      const std::string_view before = kFieldParts[r].before, after = kFieldParts[r].after;
      size_t n = 0;
      for (char c : before) t.text[r][i][n++] = c;
      t.text[r][i][n++] = '[';
      t.text[r][i][n++] = static_cast<char>('0' + i);
      t.text[r][i][n++] = ']';
      for (char c : after) t.text[r][i][n++] = c;  // a path longer than kFieldTextMax fails to compile here
      t.size[r][i] = static_cast<uint8_t>(n);
    }
  }
  return t;
}
constexpr FieldTexts kFieldTexts = MakeFieldTexts();

}  // namespace

namespace rule_internal {
// StaticField's table: the paths of kFieldTexts and of the table, by index, as views.
constexpr std::array<StaticFieldPaths, kNumRulesValue> MakeStaticFieldPaths() {
  std::array<StaticFieldPaths, kNumRulesValue> t{};
  for (int r = 0; r < kNumRulesValue; ++r) {
    const FieldParts& p = kFieldParts[r];
    t[r].at[0] = p.before;
    for (int i = 0; i < kStaticIndices; ++i)
      t[r].at[i + 1] = p.indexed ? std::string_view(kFieldTexts.text[r][i], kFieldTexts.size[r][i]) : p.before;
    t[r].at[kStaticIndices + 1] = p.indexed ? std::string_view() : p.before;
  }
  return t;
}
constexpr std::array<StaticFieldPaths, kNumRulesValue> kStaticFieldPathsArray = MakeStaticFieldPaths();
// StaticField tells a static path from none by its data: every path of the table must have some (even "").
constexpr bool EveryStaticPathHasData() {
  for (const StaticFieldPaths& p : kStaticFieldPathsArray)
    for (int i = 0; i <= kStaticIndices; ++i)
      if (p.at[i].data() == nullptr) return false;
  return true;
}
static_assert(EveryStaticPathHasData(), "a field path of the table without data would read as no static path");
// A pointer rather than the array itself, whose size rule.h does not know: in this position-independent build
// the inline lookup loads it in the one instruction that would have taken the array's address.
const StaticFieldPaths* const kStaticFieldPaths = kStaticFieldPathsArray.data();
}  // namespace rule_internal

void WriteField(const Rule& r, const TensorMapSpec& s, const Finding& f, TextOut& out) {
  std::string_view field;
  if (StaticField(r, s, f, &field)) return out.Append(field);
  const FieldParts& p = kFieldParts[static_cast<size_t>(&r - kRules)];
  TextAppend(&out, p.before, '[', static_cast<int>(f.index), ']', p.after);
}

RuleText FieldText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  WriteField(r, s, f, t);
  return t;
}

RuleText MessageText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  r.message(s, f, t);
  return t;
}

RuleText FixText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  r.fix(s, f, t);
  return t;
}

std::string FieldPath(const Rule& r, const TensorMapSpec& s, const Finding& f) { return FieldText(r, s, f).str(); }

}  // namespace tmapgen
