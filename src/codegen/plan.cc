#include "src/codegen/plan.h"

#include <charconv>
#include <map>
#include <set>

#include "absl/status/status.h"
#include "src/report/report.h"
#include "src/util/strings.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::codegen {
namespace {

using desc::DescArch;
using desc::Major;
using desc::Operand;

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(ToAbsl(message)); }

constexpr std::string_view kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // Names the header itself uses at namespace scope, and the standard macros that would break them.
    "std", "assert", "NULL", "errno", "main",
};

bool IsKeyword(std::string_view s) {
  for (std::string_view k : kKeywords)
    if (s == k) return true;
  return false;
}

// Identifiers taken so far, and for each base name the first suffix not yet known to be taken.
struct UsedNames {
  std::set<std::string> ids;
  std::map<std::string, int> next_suffix;
};

// Unique within `used` (which it extends): `base`, else the first of base_2, base_3, ... not taken. The
// search for a base starts where its previous search stopped (names are only ever added, so every
// suffix below that is still taken): N specs of one name cost O(N log N), not O(N^2).
std::string Unique(const std::string& base, UsedNames* used) {
  if (used->ids.insert(base).second) return base;
  int& i = used->next_suffix.try_emplace(base, 2).first->second;
  std::string id = StrCat(base, "_", i);
  while (used->ids.count(id) != 0) id = StrCat(base, "_", ++i);
  ++i;
  used->ids.insert(id);
  return id;
}

std::string DescIdent(const NamedDesc& r) {
  std::string id = StrCat("k", r.arch == DescArch::kWgmma ? "Wgmma" : "Tcgen05", "Desc", desc::Name(r.operand));
  if (r.major == Major::kMN) id += "_MN";
  return id;
}

bool ParseBoolValue(std::string_view v, bool* out) {
  if (v.empty() || v == "1" || v == "true") { *out = true; return true; }
  if (v == "0" || v == "false") { *out = false; return true; }
  return false;
}

bool ParseU32Value(std::string_view v, uint32_t* out) {
  if (v.empty()) return false;
  uint32_t x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size()) return false;
  *out = x;
  return true;
}

desc::ElemType DefaultIdescType(desc::MmaKind k) {
  switch (k) {
    case desc::MmaKind::kF16: return desc::ElemType::kBF16;
    case desc::MmaKind::kTf32: return desc::ElemType::kTF32;
    case desc::MmaKind::kF8f6f4: case desc::MmaKind::kMxf8f6f4: return desc::ElemType::kE4M3;
    case desc::MmaKind::kI8: return desc::ElemType::kS8;
    default: return desc::ElemType::kE2M1;
  }
}

void BuildSmemCheck(const PlannedDesc& d, desc::SmemCheck* c) {
  c->desc = d.derivation.desc;
  c->user_value = false;
  c->layout = &d.derivation.layout;
  c->facts = &d.derivation.facts;
  c->has_target = d.derivation.use.has_target;
  c->target = d.derivation.use.target;
  c->map = &d.derivation;
}

std::string RenderDescDiagnostics(const desc::DescContext& ctx, const desc::DescValidation& v) {
  std::string o;
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, v)) {
    if (d.severity != Severity::kError) continue;
    o += StrCat("  error ", d.rule, d.field.empty() ? "" : StrCat(" (", d.field, ")"), ": ", d.message, "\n");
    if (!d.fix.empty()) o += StrCat("    fix: ", d.fix, "\n");
  }
  return o;
}

}  // namespace

const char* ToolVersion() { return TMAPGEN_VERSION; }

std::string SanitizeIdentifier(std::string_view name, std::string_view fallback) {
  std::string o;
  for (char ch : name) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    const char x = ok ? ch : '_';
    if (x == '_' && (o.empty() || o.back() == '_')) continue;  // no leading '_', no "__"
    o.push_back(x);
  }
  if (o.empty()) o = std::string(fallback);
  if (o[0] >= '0' && o[0] <= '9') o = "map_" + o;
  if (IsKeyword(o)) o += "_";
  return o;
}

absl::StatusOr<NamedDesc> ParseNamedDesc(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t c = text.find(':', start);
    parts.push_back(text.substr(start, c == std::string_view::npos ? std::string_view::npos : c - start));
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  if (parts.size() < 4 || parts.size() > 5 || parts[0].empty())
    return Invalid(StrCat("--desc: expected MAP:ARCH:OPERAND:MAJOR[:TYPE] (e.g. tile_a:wgmma:A:K), got \"", text, "\""));
  NamedDesc r;
  r.map = std::string(parts[0]);
  if (!desc::Parse(parts[1], &r.arch)) return Invalid(StrCat("--desc: unknown family \"", parts[1], "\"; expected wgmma or tcgen05"));
  if (!desc::Parse(parts[2], &r.operand)) return Invalid(StrCat("--desc: unknown operand \"", parts[2], "\"; expected A or B"));
  if (!desc::Parse(parts[3], &r.major)) return Invalid(StrCat("--desc: unknown major-ness \"", parts[3], "\"; expected K or MN"));
  if (parts.size() == 5) {
    if (!desc::Parse(parts[4], &r.type)) return Invalid(StrCat("--desc: unknown element type \"", parts[4], "\""));
    r.has_type = true;
  }
  return r;
}

absl::StatusOr<NamedIdesc> ParseNamedIdesc(std::string_view text) {
  NamedIdesc r;
  r.name = "idesc";
  desc::IdescSpec& s = r.spec;
  // First pass: the kind decides the default types.
  std::vector<std::pair<std::string_view, std::string_view>> kv;
  size_t start = 0;
  while (start <= text.size()) {
    size_t c = text.find(',', start);
    if (c == std::string_view::npos) c = text.size();
    std::string_view item = text.substr(start, c - start);
    start = c + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    kv.emplace_back(item.substr(0, eq), eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1));
  }
  for (const auto& [k, v] : kv)
    if (k == "kind" && !desc::Parse(v, &s.kind)) return Invalid(StrCat("--idesc: kind: unknown value \"", v, "\""));
  s.a_type = s.b_type = DefaultIdescType(s.kind);
  s.d_type = s.kind == desc::MmaKind::kI8 ? desc::DType::kS32 : desc::DType::kF32;
  for (const auto& [k, v] : kv) {
    bool ok = true;
    if (k == "kind") continue;
    else if (k == "name") { r.name = std::string(v); ok = !v.empty(); }
    else if (k == "m") ok = ParseU32Value(v, &s.m);
    else if (k == "n") ok = ParseU32Value(v, &s.n);
    else if (k == "a-type" || k == "a") ok = desc::Parse(v, &s.a_type);
    else if (k == "b-type" || k == "b") ok = desc::Parse(v, &s.b_type);
    else if (k == "d-type" || k == "d") ok = desc::Parse(v, &s.d_type);
    else if (k == "a-major") ok = desc::Parse(v, &s.a_major);
    else if (k == "b-major") ok = desc::Parse(v, &s.b_major);
    else if (k == "negate-a") ok = ParseBoolValue(v, &s.negate_a);
    else if (k == "negate-b") ok = ParseBoolValue(v, &s.negate_b);
    else if (k == "sparse") ok = ParseBoolValue(v, &s.sparse);
    else if (k == "saturate") ok = ParseBoolValue(v, &s.saturate);
    else if (k == "ws") ok = ParseBoolValue(v, &s.ws);
    else if (k == "a-source") { ok = v == "smem" || v == "tmem"; s.a_tmem = v == "tmem"; }
    else if (k == "cta-group") {
      uint32_t g = 0;
      ok = ParseU32Value(v, &g) && (g == 1 || g == 2);
      s.cta_group = static_cast<int>(g);
    } else if (k == "target") {
      ok = Parse(v, &s.target);
      s.has_target = ok;
    } else {
      return Invalid(StrCat("--idesc: unknown key \"", k, "\"; expected kind, m, n, a-type, b-type, d-type, a-major, "
                            "b-major, negate-a, negate-b, sparse, saturate, ws, a-source, cta-group, target, name"));
    }
    if (!ok) return Invalid(StrCat("--idesc: ", k, ": bad value \"", v, "\""));
  }
  return r;
}

absl::StatusOr<Plan> MakePlan(const Input& in, const Options& opt) {
  absl::StatusOr<Plan> result{Plan()};
  Plan* plan = &*result;
  UsedNames used;
  plan->name_space = SanitizeIdentifier(opt.name_space, "tmapgen_gen");
  used.ids.insert(plan->name_space);
  plan->valid = true;
  for (size_t i = 0; i < in.specs.size(); ++i) {
    PlannedMap m;
    m.spec = in.specs[i];
    if (!m.spec.has_target() && opt.has_target) {
      m.spec.target = opt.target;
      m.spec.set_fields |= kFieldTarget;
    }
    m.ident = Unique(SanitizeIdentifier(m.spec.name, StrCat("map", i)), &used);
    Validate(m.spec, &m.validation);
    if (!m.validation.valid) plan->valid = false;
    plan->maps.push_back(std::move(m));
  }
  for (const NamedDesc& r : in.descs) {
    PlannedDesc d;
    d.request = r;
    bool found = false;
    if (!r.map.empty() && r.map[0] == '#') {
      uint32_t idx = 0;
      if (ParseU32Value(std::string_view(r.map).substr(1), &idx) && idx < plan->maps.size()) {
        d.map_index = idx;
        found = true;
      }
    } else {
      for (size_t i = 0; i < plan->maps.size() && !found; ++i)
        if (in.specs[i].name == r.map || plan->maps[i].ident == r.map) { d.map_index = i; found = true; }
    }
    if (!found) return Invalid(StrCat("--desc ", r.map, ": no spec has this name (use the spec's \"name\" or #INDEX)"));
    d.ident = DescIdent(r);
    for (const PlannedDesc& o : plan->descs)
      if (o.map_index == d.map_index && o.ident == d.ident)
        return Invalid(StrCat("--desc ", r.map, ": ", desc::Name(r.arch), " operand ", desc::Name(r.operand), " ",
                              desc::Name(r.major), "-major is asked for twice"));
    const TensorMapSpec& spec = plan->maps[d.map_index].spec;
    desc::MapUse use;
    use.arch = r.arch;
    use.operand = r.operand;
    use.major = r.major;
    use.has_type = r.has_type;
    use.type = r.type;
    if (spec.has_target()) {
      use.has_target = true;
      use.target = spec.target;
    }
    desc::DeriveFromMap(spec, use, &d.derivation);
    d.value = d.derivation.desc.bits() & ~desc::FieldMask(desc::wgmma_field::kStart);
    plan->descs.push_back(std::move(d));
  }
  // Validate after the vector stops moving (the checks point into it).
  for (PlannedDesc& d : plan->descs) {
    desc::SmemCheck c;
    BuildSmemCheck(d, &c);
    desc::ValidateSmem(c, &d.validation);
    if (!d.validation.valid) plan->valid = false;
  }
  for (const NamedIdesc& r : in.idescs) {
    PlannedIdesc d;
    d.spec = r.spec;
    d.ident = Unique(SanitizeIdentifier(r.name, "idesc"), &used);
    d.value = desc::EncodeIdesc(r.spec);
    d.k = desc::InstrK(r.spec);
    desc::IdescCheck c;
    c.spec = r.spec;
    c.fields = desc::DecodeIdescFields(d.value, r.spec.kind);
    desc::ValidateIdesc(c, &d.validation);
    if (!d.validation.valid) plan->valid = false;
    plan->idescs.push_back(std::move(d));
  }
  return result;
}

std::string RenderRejection(const Plan& plan) {
  std::string o;
  ReportOptions ro;
  ro.show_code = false;
  for (size_t i = 0; i < plan.maps.size(); ++i) {
    const PlannedMap& m = plan.maps[i];
    if (m.validation.valid) continue;
    o += RenderReportText(static_cast<int>(i), m.spec, m.validation, Encoding(), ro);
    o += "\n";
  }
  for (const PlannedDesc& d : plan.descs) {
    if (d.validation.valid) continue;
    desc::SmemCheck c;
    BuildSmemCheck(d, &c);
    desc::DescContext ctx;
    ctx.smem = &c;
    o += StrCat("descriptor ", plan.maps[d.map_index].ident, "::", d.ident, " (", desc::Name(d.request.arch), " operand ",
             desc::Name(d.request.operand), ", ", desc::Name(d.request.major), "-major): invalid\n");
    o += RenderDescDiagnostics(ctx, d.validation);
    o += "\n";
  }
  for (const PlannedIdesc& d : plan.idescs) {
    if (d.validation.valid) continue;
    desc::IdescCheck c;
    c.spec = d.spec;
    c.fields = desc::DecodeIdescFields(d.value, d.spec.kind);
    desc::DescContext ctx;
    ctx.idesc = &c;
    o += StrCat("instruction descriptor ", d.ident, " (", Hex(d.value), "): invalid\n");
    o += RenderDescDiagnostics(ctx, d.validation);
    o += "\n";
  }
  return o;
}

std::vector<desc::DescDiagnostic> Diagnostics(const PlannedDesc& d) {
  desc::SmemCheck c;
  BuildSmemCheck(d, &c);
  desc::DescContext ctx;
  ctx.smem = &c;
  return desc::MakeDescDiagnostics(ctx, d.validation);
}

std::vector<desc::DescDiagnostic> Diagnostics(const PlannedIdesc& d) {
  desc::IdescCheck c;
  c.spec = d.spec;
  c.fields = desc::DecodeIdescFields(d.value, d.spec.kind);
  desc::DescContext ctx;
  ctx.idesc = &c;
  return desc::MakeDescDiagnostics(ctx, d.validation);
}

}  // namespace tmapgen::codegen
