#include "src/trace/explain.h"

#include <algorithm>

#include "src/report/report.h"
#include "src/tmap/rule.h"
#include "src/trace/call_spec.h"
#include "src/trace/record_json.h"
#include "src/util/strings.h"

namespace tmapgen::trace {
namespace {

template <typename T>
std::string List(const T* v, uint32_t n) {
  std::string s = "[";
  for (uint32_t i = 0; i < n; ++i) StrAppend(&s, i ? ", " : "", v[i]);
  s += "]";
  return s;
}

template <typename E>
std::string EnumText(uint32_t v, int count) {
  if (v < static_cast<uint32_t>(count)) return std::string(ShortName(static_cast<E>(v)));
  return StrCat(v, " (not a cuda.h value)");
}

struct FieldName {
  uint32_t bit;
  const char* name;
  const char* what;
};
constexpr FieldName kUnrep[] = {
    {kFieldDataType, "tensor_data_type", "is not a CUtensorMapDataType value (cuda.h defines 0 to 15)"},
    {kFieldRank, "tensor_rank", "is outside 1 to 5, the ranks cuda.h allows"},
    {kFieldInterleave, "interleave", "is not a CUtensorMapInterleave value (cuda.h defines 0 to 2)"},
    {kFieldSwizzle, "swizzle", "is not a CUtensorMapSwizzle value (cuda.h defines 0 to 6)"},
    {kFieldL2Promotion, "l2_promotion", "is not a CUtensorMapL2promotion value (cuda.h defines 0 to 3)"},
    {kFieldOobFill, "oob_fill", "is not a CUtensorMapFloatOOBfill value (cuda.h defines 0 and 1)"},
    {kFieldWideMode, "wide_mode", "is not a CUtensorMapIm2ColWideMode value (cuda.h defines 0 and 1)"},
};
uint32_t RawValue(const EncodeCall& c, uint32_t bit) {
  switch (bit) {
    case kFieldDataType: return c.data_type;
    case kFieldRank: return c.rank;
    case kFieldInterleave: return c.interleave;
    case kFieldSwizzle: return c.swizzle;
    case kFieldL2Promotion: return c.l2_promotion;
    case kFieldOobFill: return c.oob_fill;
    case kFieldWideMode: return c.wide_mode;
  }
  return 0;
}
constexpr const char* kUnreadable[] = {"global_dim", "global_strides", "box_dim", "element_strides",
                                       "pixel_box_lower_corner", "pixel_box_upper_corner", "tensorMap"};

}  // namespace

const char* Name(Outcome f) {
  switch (f) {
    case Outcome::kClean: return "clean";
    case Outcome::kWarning: return "warning";
    case Outcome::kInvalid: return "invalid";
    case Outcome::kRejected: return "rejected";
  }
  return "?";
}

void JudgeCall(const EncodeCall& c, Verdict* out) {
  out->replayable = IsReplayable(c);
  out->unrepresentable = 0;
  out->validation = Validation();
  if (out->replayable) {
    TensorMapSpec spec;
    out->unrepresentable = CallToSpec(c, &spec);
    if (out->unrepresentable == 0) Validate(spec, &out->validation);
  }
  if (c.result != 0) {
    out->outcome = Outcome::kRejected;
  } else if (out->replayable && out->unrepresentable == 0 && out->validation.errors > 0) {
    out->outcome = Outcome::kInvalid;
  } else if (out->replayable && out->unrepresentable == 0 && out->validation.warnings > 0) {
    out->outcome = Outcome::kWarning;
  } else {
    out->outcome = Outcome::kClean;
  }
}

std::string DescribeParams(const EncodeCall& c) {
  if (!IsReplayable(c)) return StrCat("a map not encoded in this process (new address ", Hex(c.global_address), ")");
  TensorMapSpec s;
  CallToSpec(c, &s);
  const uint32_t n = std::min<uint32_t>(c.rank, kMaxRank);
  std::string o = StrCat(Name(s.mode), " ", EnumText<DataType>(c.data_type, kNumDataTypes), " rank ", c.rank,
                         ", global_address ", Hex(c.global_address), ", global_dim ", List(c.global_dim, n),
                         ", global_strides ", List(c.global_strides, n > 0 ? n - 1 : 0));
  if (s.mode == Mode::kTiled) StrAppend(&o, ", box_dim ", List(c.box_dim, n));
  if (s.mode == Mode::kIm2col) {
    const uint32_t k = n >= 2 ? std::min<uint32_t>(n - 2, 3) : 0;
    StrAppend(&o, ", lower_corner ", List(c.lower_corner, k), ", upper_corner ", List(c.upper_corner, k));
  }
  if (IsWideMode(s.mode)) StrAppend(&o, ", corner_width ", c.lower_corner_width, "/", c.upper_corner_width);
  if (IsIm2colMode(s.mode))
    StrAppend(&o, ", channels_per_pixel ", c.channels_per_pixel, ", pixels_per_column ", c.pixels_per_column);
  bool unit = true;
  for (uint32_t i = 0; i < n; ++i) unit = unit && c.element_strides[i] == 1;
  if (!unit) StrAppend(&o, ", element_strides ", List(c.element_strides, n));
  if (c.interleave != 0) StrAppend(&o, ", interleave ", EnumText<Interleave>(c.interleave, kNumInterleaves));
  StrAppend(&o, ", swizzle ", EnumText<Swizzle>(c.swizzle, kNumSwizzles), ", l2 ",
            EnumText<L2Promotion>(c.l2_promotion, kNumL2Promotions));
  if (c.oob_fill != 0) StrAppend(&o, ", oob_fill ", EnumText<OobFill>(c.oob_fill, kNumOobFills));
  if (s.has_target()) StrAppend(&o, " (target ", Name(s.target), ")");
  return o;
}

std::string ExplainCall(const EncodeCall& c, const Verdict& v, uint64_t count) {
  std::string o = "tmapgen trace: ";
  const std::string result = CuResultName(c.result);
  switch (v.outcome) {
    case Outcome::kRejected: StrAppend(&o, Name(c.kind), " returned ", result); break;
    case Outcome::kInvalid: StrAppend(&o, Name(c.kind), " accepted a map that breaks a documented rule"); break;
    case Outcome::kWarning: StrAppend(&o, Name(c.kind), " accepted a map with warnings"); break;
    case Outcome::kClean: StrAppend(&o, Name(c.kind), " accepted a valid map"); break;
  }
  StrAppend(&o, " (pid ", c.pid, ", tid ", c.tid);
  if (count > 1) StrAppend(&o, ", ", count, " calls");
  o += ")\n";
  const std::string_view caller = FieldView(c.caller, kCallerMax);
  if (!caller.empty()) {
    StrAppend(&o, "  called from ", caller);
    const std::string_view sym = FieldView(c.caller_symbol, kSymbolMax);
    if (!sym.empty()) StrAppend(&o, " (", sym, ")");
    o += "\n";
  }
  StrAppend(&o, "  ", DescribeParams(c), "\n");
  for (int i = 0; i < 7; ++i)
    if (c.unreadable & (1u << i))
      StrAppend(&o, "  error ", kUnreadable[i], ": a null pointer, or memory tmapgen could not read, was passed\n");
  for (const FieldName& f : kUnrep)
    if (v.unrepresentable & f.bit) StrAppend(&o, "  error ", f.name, ": ", RawValue(c, f.bit), " ", f.what, "\n");
  if (v.replayable && v.unrepresentable == 0) {
    TensorMapSpec spec;
    CallToSpec(c, &spec);
    int shown = 0;
    for (const Diagnostic& d : MakeDiagnostics(spec, v.validation)) {
      if (d.severity == Severity::kNote) continue;
      StrAppend(&o, "  ", Name(d.severity), " [", d.rule, "] ", d.field, ": ", d.message, "\n");
      if (!d.fix.empty()) StrAppend(&o, "      fix: ", d.fix, "\n");
      ++shown;
    }
    if (c.result != 0 && v.validation.errors == 0 && c.unreadable == 0) {
      StrAppend(&o, "  tmapgen finds no documented rule that this call breaks: the driver checks something the "
                    "rule table does not model (please report it with the spec line below)\n");
    }
    if (v.validation.errors > 0) {
      TensorMapSpec fixed;
      if (NearestValid(spec, &fixed)) {
        o += "  nearest valid configuration:";
        for (const std::string& ch : DescribeChanges(spec, fixed)) StrAppend(&o, " ", ch, ";");
        if (o.back() == ';') o.pop_back();
        o += "\n";
      }
    }
    (void)shown;
  }
  if (v.replayable) {
    std::string line;
    AppendRecordJson(c, count, &line);
    StrAppend(&o, "  record: ", line, "\n");
  }
  return o;
}

}  // namespace tmapgen::trace
