#include "src/report/report.h"

#include "src/report/offline_bytes.h"

#include <algorithm>

#include "src/json/json_sink.h"
#include "src/util/strings.h"
#include "src/util/text_util.h"

namespace tmapgen {
namespace {

std::string Join(const uint64_t* v, uint32_t n) {
  std::string s = "[";
  for (uint32_t i = 0; i < n; ++i) s += StrCat(i ? ", " : "", v[i]);
  return s + "]";
}
std::string Join(const uint32_t* v, uint32_t n) {
  std::string s = "[";
  for (uint32_t i = 0; i < n; ++i) s += StrCat(i ? ", " : "", v[i]);
  return s + "]";
}
std::string Join(const int32_t* v, uint32_t n) {
  std::string s = "[";
  for (uint32_t i = 0; i < n; ++i) s += StrCat(i ? ", " : "", v[i]);
  return s + "]";
}
uint32_t ClampRank(const TensorMapSpec& s) { return s.rank > kMaxRank ? kMaxRank : s.rank; }

std::string TargetList(uint32_t mask) {
  std::string s;
  for (int t = 0; t < kNumTargets; ++t) {
    if (mask & (1u << t)) s += StrCat(s.empty() ? "" : ", ", Name(static_cast<Target>(t)));
  }
  return s;
}

// Appends the pieces to *t (TextCat onto a text that already has some). Inlined at every call, as TextAppend
// is, so that the lengths of its literals stay constants there (left to the compiler, it kept some calls out
// of line, each with a call to strlen).
template <typename... A>
inline __attribute__((always_inline)) void Cat(RuleText* t, const A&... a) {
  TextAppend(t, a...);
}

// Coordinates as the PTX operand list names them.
void Coords(const TensorMapSpec& s, RuleText* out) {
  const uint32_t r = ClampRank(s);
  if (IsGatherScatter(s.mode)) return Cat(out, "{col, row0, row1, row2, row3}");
  if (IsIm2colMode(s.mode)) {
    static const char* const kNames[3][5] = {{"c", "w", "n", "", ""}, {"c", "w", "h", "n", ""}, {"c", "w", "h", "d", "n"}};
    if (r < 3) return Cat(out, "{c, ...}");
    Cat(out, "{");
    for (uint32_t i = 0; i < r; ++i) Cat(out, i ? ", " : "", kNames[r - 3][i]);
    return Cat(out, "}");
  }
  Cat(out, "{");
  for (uint32_t i = 0; i < r; ++i) Cat(out, i ? ", " : "", "x", i);
  Cat(out, "}");
}

std::string_view LoadMode(const TensorMapSpec& s, bool store) {
  switch (s.mode) {
    case Mode::kTiled: return ".tile";
    case Mode::kGather4: return ".tile::gather4";
    case Mode::kScatter4: return ".tile::scatter4";
    case Mode::kIm2col: return store ? ".im2col_no_offs" : ".im2col";
    case Mode::kIm2colW: return store ? ".im2col_no_offs::w" : ".im2col::w";
    case Mode::kIm2colW128: return ".im2col::w::128";
  }
  return ".tile";
}

std::string_view Im2colInfo(const TensorMapSpec& s) {
  if (s.mode == Mode::kIm2col) {
    const uint32_t r = ClampRank(s);
    if (r == 3) return ", {offW}";
    if (r == 4) return ", {offW, offH}";
    return ", {offW, offH, offD}";
  }
  if (IsWideMode(s.mode)) return ", {wHalo, wOffset}";
  return "";
}



}  // namespace

namespace {
// "sm_90, sm_90a: target-swizzle-atomicity; sm_120, ...: target-smem-capacity" (targets that fail the same
// rule grouped, in target order of their first member).
std::string FailureSummary(const std::vector<TargetFailure>& fs) {
  std::vector<std::pair<std::string_view, std::string>> groups;
  for (const TargetFailure& f : fs) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == f.rule; });
    if (it == groups.end()) groups.emplace_back(f.rule, std::string(f.target));
    else it->second += StrCat(", ", f.target);
  }
  std::string o;
  for (const auto& [rule, targets] : groups) o += StrCat(o.empty() ? "" : "; ", targets, " [", rule, "]");
  return o;
}
}  // namespace

int PtxForms(const TensorMapSpec& s, RuleText out[2]) {
  RuleText coords;
  Cat(&coords, "[tmap, ");
  Coords(s, &coords);
  Cat(&coords, "]");
  const uint32_t rank = ClampRank(s);
  out[0].Clear();
  switch (s.direction) {
    case Direction::kLoadCta:
    case Direction::kLoadCluster: {
      const char* dst = s.direction == Direction::kLoadCta ? ".shared::cta" : ".shared::cluster";
      Cat(&out[0], "cp.async.bulk.tensor.", rank, "d", dst, ".global", LoadMode(s, false),
          ".mbarrier::complete_tx::bytes [dst], ", coords, ", [mbar]", Im2colInfo(s), ";");
      if (s.direction == Direction::kLoadCluster) {
        out[1].Clear();
        Cat(&out[1], "cp.async.bulk.tensor.", rank, "d", ".shared::cluster.global", LoadMode(s, false),
            ".mbarrier::complete_tx::bytes.multicast::cluster [dst], ", coords, ", [mbar]", Im2colInfo(s), ", ctaMask;");
        return 2;
      }
      return 1;
    }
    case Direction::kStore:
      Cat(&out[0], "cp.async.bulk.tensor.", rank, "d", ".global.shared::cta", LoadMode(s, true), ".bulk_group ", coords,
          ", [src];");
      return 1;
    case Direction::kReduce:
      Cat(&out[0], "cp.reduce.async.bulk.tensor.", rank, "d", ".global.shared::cta.", Name(s.reduce_op), LoadMode(s, true),
          ".bulk_group ", coords, ", [src];");
      return 1;
    case Direction::kPrefetch:
      Cat(&out[0], "cp.async.bulk.prefetch.tensor.", rank, "d", ".L2.global", LoadMode(s, false), " ", coords,
          Im2colInfo(s), ";");
      return 1;
  }
  return 0;
}

std::vector<std::string> PtxForms(const TensorMapSpec& s) {
  RuleText forms[2];
  const int n = PtxForms(s, forms);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(forms[i].str());
  return out;
}

std::string HostEncodeSnippet(const TensorMapSpec& s) {
  const uint32_t r = ClampRank(s);
  std::string o;
  o += StrCat("cuuint64_t global_dim[", r, "] = {", Join(s.global_dim.data(), r).substr(1));
  o.back() = '}';
  o += ";\n";
  if (r > 1) {
    o += StrCat("cuuint64_t global_strides[", r - 1, "] = {", Join(s.global_strides.data(), r - 1).substr(1));
    o.back() = '}';
    o += ";  // bytes\n";
  } else {
    o += "const cuuint64_t* global_strides = nullptr;\n";
  }
  o += StrCat("cuuint32_t element_strides[", r, "] = {", Join(s.element_strides.data(), r).substr(1));
  o.back() = '}';
  o += ";\n";
  const std::string tail = StrCat(FullName(s.interleave), ",\n    ", FullName(s.swizzle), ", ", FullName(s.l2_promotion),
                               ", ", FullName(s.oob_fill), ");\n");
  const std::string head = StrCat("alignas(64) CUtensorMap map;\nCUresult rc = ", Name(EncoderFor(s.mode)), "(&map, ",
                               FullName(s.data_type), ", ", s.rank, ", global_address,\n    global_dim, global_strides, ");
  switch (EncoderFor(s.mode)) {
    case Encoder::kTiled:
      o += StrCat("cuuint32_t box_dim[", r, "] = {", Join(s.box_dim.data(), r).substr(1));
      o.back() = '}';
      o += ";\n" + head + "box_dim, element_strides, " + tail;
      break;
    case Encoder::kIm2col: {
      const uint32_t n = r >= 2 ? std::min<uint32_t>(r - 2, 3) : 0;
      o += StrCat("int lower_corner[", n, "] = {", Join(s.pixel_box_lower_corner.data(), n).substr(1));
      o.back() = '}';
      o += StrCat(";\nint upper_corner[", n, "] = {", Join(s.pixel_box_upper_corner.data(), n).substr(1));
      o.back() = '}';
      o += ";\n" + head + StrCat("lower_corner, upper_corner,\n    ", s.channels_per_pixel, ", ", s.pixels_per_column,
                              ", element_strides, ") + tail;
      break;
    }
    case Encoder::kIm2colWide:
      o += head + StrCat(s.pixel_box_lower_corner_width, ", ", s.pixel_box_upper_corner_width, ",\n    ",
                      s.channels_per_pixel, ", ", s.pixels_per_column, ", element_strides, ", FullName(s.interleave),
                      ",\n    ", FullName(s.wide_mode), ", ", FullName(s.swizzle), ", ", FullName(s.l2_promotion), ", ",
                      FullName(s.oob_fill), ");\n");
      break;
  }
  return o;
}


// ------------------------------------------------------------------------------------------------ JSON

namespace {

// The members after "index", one body for both forms, written through a sink (src/json/json_sink.h):
// json::CompactSink straight into the writer's buffer (json::RawText from Writer::MembersBegin, room asked for
// section by section; the fast path of `tmapgen validate --format json`), or json::WriterSink, Writer calls
// (the pretty report, and the compact one where the writer was misused before). Texts that may hold any byte
// (names, messages, fields, fixes, changes) are quoted and escaped (Str); only tmapgen's own table names and
// the PTX forms, made of literals, digits and a table name here, are copied as they are (Plain;
// tests/report/report_json_test.cc checks that none needs escaping and that both sinks write the same report).
constexpr size_t kSectionRoom = 1024;  // fixed keys and punctuation of a section, and the numbers in it
size_t Quoted(size_t n) { return json::Writer::QuotedBound(n); }
size_t Plain(size_t n) { return n + 2 + 32; }

// A spec as a member's value, in each sink's form.
void Spec(json::CompactSink& o, const TensorMapSpec& s) {
  o.Room(kSectionRoom + CompactSpecJsonBound(s));
  WriteCompactSpecJson(s, o.raw());
}
void Spec(json::WriterSink& o, const TensorMapSpec& s) { WriteSpecJson(s, o.writer()); }

template <class Out>
void WriteMembers(const TensorMapSpec& s, const Validation& v, const ReportOptions& opt, Out& o) {
  const DerivedFacts& f = v.facts;
  // room: kSectionRoom + Quoted(name), from WriteReportJson
  if (!s.name.empty()) {
    o.M(TMAPGEN_JSON_K("name"));
    o.Str(s.name);
  }
  o.M(TMAPGEN_JSON_K("valid"));
  o.Bool(v.valid);
  o.M(TMAPGEN_JSON_K("target"));
  if (s.has_target()) o.Plain(Name(s.target)); else o.Null();
  o.Room(kSectionRoom + kNumTargets * Plain(16));
  o.M(TMAPGEN_JSON_KA("valid_targets"));
  bool first = true;
  for (int t = 0; t < kNumTargets; ++t) {
    if (!(v.valid_targets & (1u << t))) continue;
    o.Sep(&first);
    o.Plain(Name(static_cast<Target>(t)));
  }
  o.EndArray();
  Target min_target;
  o.M(TMAPGEN_JSON_K("min_target"));
  if (LowestValidTarget(s, v.valid_targets, &min_target)) o.Plain(Name(min_target)); else o.Null();
  o.M(TMAPGEN_JSON_KO("counts"));
  o.M(TMAPGEN_JSON_FK("errors"));
  o.I(v.errors);
  o.M(TMAPGEN_JSON_K("warnings"));
  o.I(v.warnings);
  o.M(TMAPGEN_JSON_K("notes"));
  o.I(v.notes);
  o.EndObject();
  if (!s.has_target()) {
    o.M(TMAPGEN_JSON_KA("failed_targets"));
    first = true;
    ForEachTargetFailure(s, v, [&o, &first](std::string_view target, const Rule& r, const RuleText& field,
                                            const RuleText& message) {
      o.Room(kSectionRoom + Plain(target.size()) + Plain(r.id.size()) + Quoted(field.size()) + Quoted(message.size()));
      o.Sep(&first);
      o.M(TMAPGEN_JSON_OK("target"));
      o.Plain(target);
      o.M(TMAPGEN_JSON_K("rule"));
      o.Plain(r.id);
      o.M(TMAPGEN_JSON_K("field"));
      o.Str(field);
      o.M(TMAPGEN_JSON_K("message"));
      o.Str(message);
      o.EndObject();
    });
    o.Room(kSectionRoom);
    o.EndArray();
  }
  if (s.data_type_alias != kNoDataAlias) {
    const DataTypeName& alias = DataTypeNameRow(s.data_type_alias);
    const std::string_view note = DataAliasNote(s.data_type_alias);
    o.Room(kSectionRoom + Quoted(alias.name.size()) + Plain(FullName(s.data_type).size()) + Quoted(alias.holds.size()) +
           Quoted(note.size()));
    o.M(TMAPGEN_JSON_KO("data_type_alias"));
    o.M(TMAPGEN_JSON_FK("written"));
    o.Str(alias.name);
    o.M(TMAPGEN_JSON_K("cuda_type"));
    o.Plain(FullName(s.data_type));
    o.M(TMAPGEN_JSON_K("holds"));
    o.Str(alias.holds);
    o.M(TMAPGEN_JSON_K("note"));
    o.Str(note);
    o.EndObject();
  }
  o.Room(kSectionRoom);
  o.M(TMAPGEN_JSON_KA("diagnostics"));
  thread_local Diagnostics diags;  // reused: its text buffer keeps its memory from spec to spec
  MakeDiagnostics(s, v, &diags);
  first = true;
  for (const Diagnostic& d : diags) {
    o.Room(kSectionRoom + Quoted(d.rule.size()) + Quoted(d.field.size()) + Quoted(d.message.size()) +
           Quoted(d.fix.size()) + Quoted(d.source.size()) + Quoted(d.target.size()));
    o.Sep(&first);
    o.M(TMAPGEN_JSON_OK("rule"));
    o.Str(d.rule);
    o.M(TMAPGEN_JSON_K("severity"));
    o.Plain(Name(d.severity));
    o.M(TMAPGEN_JSON_K("field"));
    o.Str(d.field);
    o.M(TMAPGEN_JSON_K("message"));
    o.Str(d.message);
    o.M(TMAPGEN_JSON_K("fix"));
    o.Str(d.fix);
    o.M(TMAPGEN_JSON_K("source"));
    o.Str(d.source);
    if (!d.target.empty()) {
      o.M(TMAPGEN_JSON_K("target"));
      o.Str(d.target);
    }
    o.M(TMAPGEN_JSON_K("value"));
    if (d.value_unsigned) o.U(static_cast<uint64_t>(d.value)); else o.I(d.value);
    o.M(TMAPGEN_JSON_K("limit"));
    o.I(d.limit);
    o.EndObject();
  }
  RuleText forms[2];
  const int n = PtxForms(s, forms);
  size_t room = kSectionRoom + Plain(Name(f.encoder).size());
  for (int i = 0; i < n; ++i) room += Plain(forms[i].size());
  o.Room(room);
  o.EndArray();
  o.M(TMAPGEN_JSON_KO("derived"));
  o.M(TMAPGEN_JSON_FK("encoder"));
  o.Plain(Name(f.encoder));
  o.M(TMAPGEN_JSON_K("element_bits"));
  o.I(f.element_bits);
  o.M(TMAPGEN_JSON_K("smem_element_bits"));
  o.I(f.smem_element_bits);
  o.M(TMAPGEN_JSON_K("inner_box_bytes"));
  o.U(f.inner_box_bytes);
  o.M(TMAPGEN_JSON_K("elements_per_copy"));
  o.U(f.elements_per_copy);
  o.M(TMAPGEN_JSON_K("bytes_per_copy"));
  o.U(f.bytes_per_copy);
  o.M(TMAPGEN_JSON_K("transaction_bytes"));
  o.U(f.transaction_bytes);
  o.M(TMAPGEN_JSON_K("completion"));
  o.Plain(Name(CompletionOf(s.direction)));
  if (f.halo_adds_bytes) {
    o.M(TMAPGEN_JSON_K("bytes_per_halo_pixel"));
    o.U(f.bytes_per_halo_pixel);
  }
  o.M(TMAPGEN_JSON_K("smem_role"));
  o.Plain(Name(SmemRoleOf(s.direction)));
  o.M(TMAPGEN_JSON_K("smem_footprint_bytes"));
  o.U(f.smem_footprint_bytes);
  o.M(TMAPGEN_JSON_K("smem_row_pitch"));
  o.U(f.smem_row_pitch);
  o.M(TMAPGEN_JSON_K("coord0_multiple"));
  o.U(f.coord0_multiple);
  o.M(TMAPGEN_JSON_K("smem_alignment_required"));
  o.U(f.smem_alignment_required);
  o.M(TMAPGEN_JSON_K("smem_alignment_recommended"));
  o.U(f.smem_alignment_recommended);
  o.M(TMAPGEN_JSON_K("swizzle_span"));
  o.U(f.swizzle_span);
  o.M(TMAPGEN_JSON_K("swizzle_repeat"));
  o.U(f.swizzle_repeat);
  o.M(TMAPGEN_JSON_K("swizzle_atomicity"));
  o.U(f.swizzle_atomicity);
  if (f.swizzle_base_offset >= 0) {
    o.M(TMAPGEN_JSON_K("swizzle_base_offset"));
    o.I(f.swizzle_base_offset);
  }
  o.M(TMAPGEN_JSON_K("global_extent_bytes"));
  o.U(f.global_extent_bytes);
  o.M(TMAPGEN_JSON_KA("ptx"));
  first = true;
  for (int i = 0; i < n; ++i) {
    o.Sep(&first);
    o.Plain(forms[i]);
  }
  o.EndArray();
  o.EndObject();
  // The order of every array of the spec (cuda.h's); for a box given in the tensor's order (Python
  // for_tensor), that order too.
  o.Room(kSectionRoom);
  o.M(TMAPGEN_JSON_K("dim_order"));
  o.Plain("innermost_first");
  if (s.box_given_outermost_first) {
    o.M(TMAPGEN_JSON_K("box_given_order"));
    o.Plain("outermost_first");
  }
  o.M(TMAPGEN_JSON_K("spec"));
  Spec(o, s);
  if (HasDenseDefaultStrides(s)) {
    // The spec gave no strides: they are the dense tensor's, filled in from global_dim.
    o.Room(kSectionRoom);
    o.M(TMAPGEN_JSON_K("global_strides_default"));
    o.Plain("dense");
  }
  if (!v.valid && opt.nearest_valid) {
    TensorMapSpec fixed;
    if (NearestValid(s, v, &fixed)) {
      o.Room(kSectionRoom);
      o.M(TMAPGEN_JSON_KO("nearest_valid"));
      o.M(TMAPGEN_JSON_FKA("changes"));
      first = true;
      ForEachChange(s, fixed, [&o, &first](const RuleText& c) {
        o.Room(kSectionRoom + Quoted(c.size()));
        o.Sep(&first);
        o.Str(c);
      });
      o.Room(kSectionRoom);
      o.EndArray();
      o.M(TMAPGEN_JSON_K("spec"));
      Spec(o, fixed);
      o.EndObject();
    }
  }
}

}  // namespace

void WriteReportJson(int index, const TensorMapSpec& s, const Validation& v, const Encoding& enc,
                     const ReportOptions& opt, json::Writer* w) {
  w->BeginObject();
  w->Key("index").Int(index);
  if (char* p = w->MembersBegin(kSectionRoom + Quoted(s.name.size())); p != nullptr) {
    json::CompactSink o(json::RawText(w, p));
    WriteMembers(s, v, opt, o);
    w->RawEnd(o.raw()->end());
  } else {
    json::WriterSink o(w);
    WriteMembers(s, v, opt, o);
  }
  const OfflineBytes offline = ComputeOfflineBytes(s, v, enc);  // the 128 bytes, computed without a driver
  WriteOfflineBytesJson(offline, w);
  if (enc.attempted) {
    w->Key("encoding").BeginObject();
    w->Key("cu_result").Int(enc.cu_result).Key("error_name").String(enc.error_name).Key("device").String(enc.device);
    if (!enc.note.empty()) w->Key("note").String(enc.note);
    if (enc.cu_result == 0) {
      w->Key("words").BeginArray();
      for (uint64_t word : enc.map) w->String(Hex(word));
      w->EndArray();
    }
    WriteOfflineComparisonJson(offline, w);
    w->EndObject();
  }
  w->EndObject();
}


void WriteInputErrorJson(int index, const InputError& e, json::Writer* w, std::string_view file) {
  w->BeginObject();
  w->Key("index").Int(index);
  w->Key("valid").Bool(false);
  w->Key("counts").BeginObject().Key("errors").Int(1).Key("warnings").Int(0).Key("notes").Int(0).EndObject();
  w->Key("diagnostics").BeginArray().BeginObject();
  w->Key("rule").String("input-error").Key("severity").String("error").Key("field").String(e.field);
  w->Key("message").String(InputErrorMessage(e)).Key("fix").String("correct the input; docs/schema.md describes every field");
  w->Key("source").String("tmapgen spec schema (docs/schema.md)");
  if (!file.empty()) w->Key("file").String(file);
  if (e.line != 0) w->Key("line").Uint(e.line).Key("column").Uint(e.column);
  w->EndObject().EndArray();
  w->EndObject();
}

// ------------------------------------------------------------------------------------------------ text

namespace {
using Colors = TermColors;
// Appends "  KEY<padded to 22>VALUE\n" to *o (no temporary strings).
void AddRow(std::string* o, std::string_view key, std::string_view value) {
  o->append("  ", 2);
  o->append(key.data(), key.size());
  if (key.size() < 22) o->append(22 - key.size(), ' ');
  o->append(value.data(), value.size());
  o->push_back('\n');
}
}  // namespace

std::string RenderReportText(int index, const TensorMapSpec& s, const Validation& v, const Encoding& enc,
                             const ReportOptions& opt) {
  const Colors c{opt.color};
  const DerivedFacts& f = v.facts;
  const uint32_t r = ClampRank(s);
  std::string o;
  o.reserve(4096);  // a rejected spec's report is 2-3 KB: one allocation instead of a doubling series
  std::string title = s.name.empty() ? StrCat("spec ", index) : StrCat("spec ", index, " \"", s.name, "\"");
  std::string verdict;
  if (v.valid) {
    verdict = StrCat(c.green(), c.bold(), "VALID", c.off());
    verdict += s.has_target() ? StrCat(" for ", Name(s.target)) : StrCat(" for ", TargetList(v.valid_targets));
  } else {
    verdict = StrCat(c.red(), c.bold(), "INVALID", c.off());
    verdict += s.has_target() ? StrCat(" for ", Name(s.target))
                              : StrCat(" for every target (findings shown for ", Name(v.reported_target), ")");
  }
  StrAppend(&o, c.bold(), title, ": ", Name(s.mode), " map, ", Name(s.direction), c.off(), " -- ", verdict, "\n");
  if (opt.show_spec) {
    AddRow(&o, "encoder", std::string(Name(f.encoder)));
    AddRow(&o, "tensor_data_type", StrCat(FullName(s.data_type), " (", ShortName(s.data_type), ", ", f.element_bits, " bits)"));
    AddRow(&o, "tensor_rank", StrCat(s.rank));
    if (s.Has(kFieldGlobalAddress)) AddRow(&o, "global_address", Hex(s.global_address));
    // Every array in the order it is used: cuda.h's, dimension 0 (the contiguous one) first.
    AddRow(&o, "global_dim", Join(s.global_dim.data(), r) + " (innermost first)");
    AddRow(&o, "global_strides", StrCat(Join(s.global_strides.data(), r > 0 ? r - 1 : 0), " B",
                                        HasDenseDefaultStrides(s) ? " (dense default: not given)" : "",
                                        " (dimension 1 first)"));
    if (!IsIm2colMode(s.mode)) {
      std::string box = Join(s.box_dim.data(), r) + " (innermost first";
      if (s.box_given_outermost_first) {
        uint32_t given[kMaxRank];
        for (uint32_t i = 0; i < r; ++i) given[i] = s.box_dim[r - 1 - i];
        box += StrCat(": the box ", Join(given, r), " given in the tensor's order, reversed");
      }
      AddRow(&o, "box_dim", box + ")");
    }
    AddRow(&o, "element_strides", Join(s.element_strides.data(), r) + " (innermost first)");
    if (s.mode == Mode::kIm2col) {
      const uint32_t n = r >= 2 ? std::min<uint32_t>(r - 2, 3) : 0;
      AddRow(&o, "pixel_box corners", StrCat("lower ", Join(s.pixel_box_lower_corner.data(), n), ", upper ",
                                        Join(s.pixel_box_upper_corner.data(), n)));
    }
    if (IsWideMode(s.mode))
      AddRow(&o, "pixel_box W corners", StrCat("lower ", s.pixel_box_lower_corner_width, ", upper ", s.pixel_box_upper_corner_width,
                                          "  (", FullName(s.wide_mode), ")"));
    if (IsIm2colMode(s.mode))
      AddRow(&o, "channels x pixels", StrCat(s.channels_per_pixel, " channels/pixel x ", s.pixels_per_column, " pixels/column"));
    AddRow(&o, "layout", StrCat("interleave ", ShortName(s.interleave), ", swizzle ", ShortName(s.swizzle), ", L2 promotion ",
                           ShortName(s.l2_promotion), ", OOB fill ", ShortName(s.oob_fill)));
    if (s.Has(kFieldSmemAddress)) AddRow(&o, "smem_address", Hex(s.smem_address));
    if (s.Has(kFieldSmemAlignment)) AddRow(&o, "smem_alignment", StrCat(s.smem_alignment, " B"));
    if (s.Has(kFieldDriverVersion)) AddRow(&o, "driver_version", StrCat(s.driver_version));
  }
  StrAppend(&o, c.bold(), "derived", c.off(), "\n");
  // Each direction's facts in its own words (PTX ISA 9.2 sections 9.7.9.25.5.2-9.7.9.25.5.4): a load is counted
  // by its mbarrier and writes shared memory; a store or reduction reads shared memory and completes through a
  // bulk async-group; a prefetch touches no shared memory and completes through nothing.
  const std::string halo =
      f.halo_adds_bytes
          ? StrCat(s.mode == Mode::kIm2colW128 ? "; plus 4 x wHalo x " : "; plus wHalo x ", f.bytes_per_halo_pixel, " B of halo")
          : std::string();
  const bool packed = f.element_bits != f.smem_element_bits && s.interleave == Interleave::kNone;
  const std::string alignment = StrCat(" aligned to ", f.smem_alignment_required, " B (required)",
                                       f.smem_alignment_recommended > f.smem_alignment_required
                                           ? StrCat(", ", f.smem_alignment_recommended, " B recommended (swizzle repeat)")
                                           : std::string());
  if (IsLoad(s.direction)) {
    std::string tx = StrCat(f.transaction_bytes, " B per copy (mbarrier expect_tx), ", f.elements_per_copy, " elements", halo);
    if (packed)
      tx += StrCat("; packed size (", f.element_bits, " bits per element): the shared-memory image is 1 byte per element, ",
                   f.smem_footprint_bytes, " B (CUTLASS and DeepGEMM arm the packed size; docs/hardware.md)");
    AddRow(&o, "transaction bytes", tx);
    AddRow(&o, "shared memory", StrCat(f.smem_footprint_bytes, " B per copy; destination", alignment));
  } else if (IsStoreLike(s.direction)) {
    std::string moved = StrCat(f.bytes_per_copy, " B per copy from shared memory ",
                               s.direction == Direction::kStore ? std::string("to global memory")
                                                                : StrCat("combined into global memory (.", Name(s.reduce_op), ")"),
                               ", ", f.elements_per_copy, " elements (elements outside the tensor are skipped)");
    if (packed)
      moved += StrCat("; packed size (", f.element_bits, " bits per element): the shared-memory source is 1 byte per "
                      "element, ", f.smem_footprint_bytes, " B");
    AddRow(&o, "bytes per copy", moved);
    AddRow(&o, "completion", "a bulk async-group, no mbarrier: cp.async.bulk.commit_group after the copy, "
                             "cp.async.bulk.wait_group.read before the source is written again, cp.async.bulk.wait_group "
                             "before the global writes are relied on");
    AddRow(&o, "shared memory", StrCat(f.smem_footprint_bytes, " B per copy; source", alignment));
  } else {
    AddRow(&o, "bytes per copy", StrCat("up to ", f.bytes_per_copy, " B per copy brought into L2 (the part of the box inside "
                                        "the tensor), ", f.elements_per_copy, " elements", halo));
    AddRow(&o, "completion", "none: a prefetch to L2 signals no mbarrier and joins no bulk async-group");
    AddRow(&o, "shared memory", "none (a prefetch to L2 neither reads nor writes shared memory)");
  }
  if (s.swizzle != Swizzle::kNone)
    AddRow(&o, "swizzle", StrCat(f.swizzle_span, " B span, ", f.swizzle_atomicity, " B atoms, repeats every ", f.swizzle_repeat,
                            " B", f.swizzle_base_offset >= 0 ? StrCat(", base offset ", f.swizzle_base_offset) : std::string()));
  AddRow(&o, "inner box", StrCat(f.inner_box_bytes, " B per row",
                            f.smem_row_pitch != f.inner_box_bytes ? StrCat(", rows ", f.smem_row_pitch, " B apart in shared memory") : std::string()));
  if (s.interleave != Interleave::kNone && !IsIm2colMode(s.mode))
    AddRow(&o, "coordinates", StrCat("x0 counts ", s.interleave == Interleave::k32B ? 32 : 16,
                                "-byte slices (interleaved, measured); box_dim[", s.rank >= 2 ? s.rank - 2 : 0,
                                "] is not used: a copy takes one position along that dimension"));
  else
    AddRow(&o, "coordinates", StrCat(IsIm2colMode(s.mode) ? "c" : IsGatherScatter(s.mode) ? "col" : "x0",
                                " must be a multiple of ", f.coord0_multiple, " elements (16 B), or the copy faults"));
  Target min_target;
  if (LowestValidTarget(s, v.valid_targets, &min_target)) AddRow(&o, "minimum target", std::string(Name(min_target)));
  if (!s.has_target() && v.valid_targets != 0) AddRow(&o, "valid for", TargetList(v.valid_targets));
  if (!s.has_target() && v.failed_targets != 0) AddRow(&o, "not valid for", FailureSummary(TargetFailures(s, v)));
  if (s.data_type_alias != kNoDataAlias) AddRow(&o, "data type", DataAliasNote(s.data_type_alias));
  if (opt.show_code) {
    for (const std::string& p : PtxForms(s)) AddRow(&o, "ptx", p);
  }
  thread_local Diagnostics diags;  // reused: its text buffer keeps its memory from spec to spec
  MakeDiagnostics(s, v, &diags);
  if (!diags.empty()) {
    StrAppend(&o, c.bold(), "diagnostics", c.off(), " (", v.errors, " error", v.errors == 1 ? "" : "s", ", ", v.warnings,
             " warning", v.warnings == 1 ? "" : "s", ", ", v.notes, " note", v.notes == 1 ? "" : "s", ")\n");
    for (const Diagnostic& d : diags) {
      const char* col = d.severity == Severity::kError ? c.red() : d.severity == Severity::kWarning ? c.yellow() : c.blue();
      StrAppend(&o, "  ", col, Name(d.severity), c.off(), " [", d.rule, "] ", d.field, d.field.empty() ? "" : ": ", d.message,
               d.target.empty() ? "" : StrCat(" (target ", d.target, ")"), "\n");
      StrAppend(&o, "      fix: ", d.fix, "\n");
      StrAppend(&o, c.dim(), "      source: ", d.source, c.off(), "\n");
    }
  }
  if (!v.valid && opt.nearest_valid) {
    TensorMapSpec fixed;
    if (NearestValid(s, v, &fixed)) {
      StrAppend(&o, c.bold(), "nearest valid configuration", c.off(), "\n");
      for (const std::string& ch : DescribeChanges(s, fixed)) StrAppend(&o, "  ", ch, "\n");
    } else {
      o += "  no automatic repair is known for the remaining errors; follow the fixes above\n";
    }
  }
  if (v.valid && opt.show_code) {
    StrAppend(&o, c.bold(), "host code", c.off(), "\n");
    std::string snippet = HostEncodeSnippet(s);
    size_t start = 0;
    while (start < snippet.size()) {
      size_t nl = snippet.find('\n', start);
      if (nl == std::string::npos) nl = snippet.size();
      StrAppend(&o, "  ", snippet.substr(start, nl - start), "\n");
      start = nl + 1;
    }
  }
  if (enc.attempted) {
    StrAppend(&o, c.bold(), "driver encoding", c.off(), " (", enc.device, ")\n");
    if (enc.cu_result == 0) {
      for (int i = 0; i < 16; i += 4)
        StrAppend(&o, "  ", Hex(enc.map[i]), " ", Hex(enc.map[i + 1]), " ", Hex(enc.map[i + 2]), " ", Hex(enc.map[i + 3]), "\n");
    } else {
      StrAppend(&o, "  the driver answered ", enc.error_name, " (", enc.cu_result, ")\n");
    }
    if (!enc.note.empty()) StrAppend(&o, "  ", enc.note, "\n");
  }
  o += RenderOfflineBytesText(ComputeOfflineBytes(s, v, enc), opt.color);  // the bytes without a driver
  return o;
}

std::string RenderInputErrorText(int index, const std::string& where, const InputError& e, bool color) {
  const Colors c{color};
  if (where.empty())
    return StrCat(c.bold(), "spec ", index, c.off(), ": ", c.red(), "error", c.off(), "[input-error] ", InputErrorMessage(e), "\n");
  return StrCat(c.bold(), where, c.off(), ": ", c.red(), "error", c.off(), "[input-error] ", InputErrorMessage(e), " (spec ",
                index, ")\n");
}

std::string RenderReportShort(std::string_view place, const TensorMapSpec& s, const Validation& v) {
  std::string o;
  for (const Diagnostic& d : MakeDiagnostics(s, v))
    o += StrCat(place, ": ", Name(d.severity), "[", d.rule, "] ", d.field, d.field.empty() ? "" : ": ",
                d.message, d.target.empty() ? "" : StrCat(" (target ", d.target, ")"), "\n");
  if (!s.has_target()) {
    for (const TargetFailure& f : TargetFailures(s, v)) {
      if (!v.valid && f.target == Name(v.reported_target)) continue;  // already among the diagnostics
      o += StrCat(place, ": note[", f.rule, "] ", f.field.empty() ? std::string() : f.field + ": ", "not valid for ",
                  f.target, ": ", f.message, "\n");
    }
  }
  return o;
}

std::string RenderInputErrorShort(std::string_view where, const InputError& e) {
  return StrCat(where, ": error[input-error] ", InputErrorMessage(e), "\n");
}

}  // namespace tmapgen
