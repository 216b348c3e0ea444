#include "cli/rules_cmd.h"

#include <unistd.h>

#include <cstdio>
#include <string_view>

#include "cli/common_flags.h"
#include "cli/rule_examples.h"
#include "src/desc/desc_rules.h"
#include "src/json/json_writer.h"
#include "src/tmap/rule.h"
#include "src/tmap/rule_catalogue.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"
#include "src/util/text_util.h"

namespace tmapgen::cli {
namespace {

const char* kUsage =
    "usage: tmapgen rules [--format text|json]       every rule (tensor map, descriptors)\n"
    "       tmapgen rules ID [--format text|json]    one rule: statement, source, an example\n"
    "       tmapgen explain ID [--format text|json]  the same\n";

// One row of the catalogue, as the listing shows it: an active rule with its table's scope (modes and
// per_target for tensor-map rules, the scope for descriptor rules), or a retired id.
struct RuleView {
  std::string_view id, family, severity, field, summary, source, scope;
  uint8_t modes = 0;
  bool per_target = false;
  bool tensor_map = true;
  const RuleEntry* entry = nullptr;
  bool retired() const { return entry->state == RuleState::kRetired; }
};

std::string_view ScopeName(uint8_t scope) {
  switch (scope) {
    case desc::kScopeValue: return "value";
    case desc::kScopeLayout: return "layout";
    case desc::kScopeAdvance: return "advance";
    case desc::kScopeMap: return "map";
    default: return "idesc";
  }
}

// Every row of the catalogue: the active rules in catalogue order (tensor-map rules first, as their tables run
// them), then the retired ids. The tables follow the catalogue's order (static_asserts in rules.cc and
// desc_rules.cc), so the i-th active row of a family is row i of its table.
std::vector<RuleView> AllRules() {
  std::vector<RuleView> out, retired;
  int tmap = 0, desc = 0;
  for (int i = 0; i < NumCatalogueEntries(); ++i) {
    const RuleEntry& e = RuleCatalogue()[i];
    RuleView v;
    v.entry = &e;
    v.id = e.id;
    v.tensor_map = e.family == RuleFamily::kTensorMap;
    v.family = v.tensor_map ? "tensor-map" : "descriptor";
    v.severity = Name(e.severity);
    v.field = e.field;
    v.summary = e.statement;
    v.source = e.source;
    if (e.state == RuleState::kRetired) {
      retired.push_back(v);
      continue;
    }
    if (v.tensor_map) {
      const Rule& r = Rules()[tmap++];
      v.modes = r.modes;
      v.per_target = r.per_target;
    } else {
      v.scope = ScopeName(desc::DescRules()[desc++].scope);
    }
    out.push_back(v);
  }
  out.insert(out.end(), retired.begin(), retired.end());
  return out;
}

std::string AppliesTo(const RuleView& r) {
  if (!r.tensor_map) return StrCat("descriptor rule (", r.scope, ")");
  std::string modes;
  if (r.modes == kAllModes) modes = "every mode";
  else
    for (int m = 0; m < kNumModes; ++m)
      if (r.modes & (1u << m)) modes += StrCat(modes.empty() ? "" : ", ", Name(static_cast<Mode>(m)));
  return StrCat("tensor-map rule, ", modes, r.per_target ? ", checked per target" : "");
}

// A retired id: what it was (severity, field, statement, source) and what it became.
void WriteRetired(const RuleView& r, json::Writer* w) {
  w->Key("id").String(r.id).Key("family").String(r.family).Key("state").String("retired");
  w->Key("severity").String(r.severity).Key("field").String(r.field).Key("summary").String(r.summary);
  w->Key("source").String(r.source).Key("replaced_by").String(r.entry->replaced_by);
  w->Key("became").String(r.entry->became);
}

void WriteRule(const RuleView& r, json::Writer* w) {
  if (r.retired()) return WriteRetired(r, w);
  w->Key("id").String(r.id).Key("family").String(r.family).Key("severity").String(r.severity).Key("field").String(r.field);
  if (r.tensor_map) {
    w->Key("modes").BeginArray();
    for (int m = 0; m < kNumModes; ++m)
      if (r.modes & (1u << m)) w->String(Name(static_cast<Mode>(m)));
    w->EndArray().Key("per_target").Bool(r.per_target);
  } else {
    w->Key("scope").String(r.scope);
  }
  w->Key("summary").String(r.summary).Key("source").String(r.source);
  const std::string_view* ex = RuleExample(r.id);
  w->Key("example").String(ex != nullptr && !ex->empty() ? StrCat("tmapgen ", *ex) : std::string());
}

std::string Pad(std::string_view s, size_t n) {
  std::string o(s);
  if (o.size() < n) o.resize(n, ' ');
  return o;
}

int Usage(std::string* err, const std::string& msg) {
  *err += StrCat("tmapgen: ", msg, "\n", HelpHint("rules"));
  return 2;
}

}  // namespace

int RunRulesCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err, bool require_id) {
  bool json = false;
  bool color_flag_always = false, color_never = false;
  std::vector<std::string> ids;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") { *out += kUsage; return 0; }
    if (a == "--no-gpu") continue;  // accepted everywhere
    std::string name = a, value;
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) { name = a.substr(0, eq); value = a.substr(eq + 1); }
    if (name == "--format" || name == "--color") {
      if (eq == std::string::npos) {
        if (i + 1 >= args.size()) return Usage(err, StrCat(name, " needs a value"));
        value = args[++i];
      }
      if (name == "--format") {
        if (value != "text" && value != "json") return Usage(err, StrCat("--format: expected text or json, got \"", value, "\""));
        json = value == "json";
      } else {
        if (value != "auto" && value != "always" && value != "never")
          return Usage(err, StrCat("--color: expected auto, always or never, got \"", value, "\""));
        color_flag_always = value == "always";
        color_never = value == "never";
      }
      continue;
    }
    if (!a.empty() && a[0] == '-') return Usage(err, StrCat("unknown flag ", a, DidYouMean(a, {"--format", "--color", "--help"})));
    ids.push_back(a);
  }
  const bool color = !json && (color_flag_always || (!color_never && AutoColor(STDOUT_FILENO)));
  const TermColors c{color};
  const std::vector<RuleView> rules = AllRules();
  if (ids.size() > 1) return Usage(err, "give one rule id");
  if (ids.empty() && require_id) return Usage(err, "explain needs a rule id (tmapgen rules lists them)");
  if (ids.empty()) {
    if (json) {
      json::Writer w;
      w.BeginArray();
      for (const RuleView& r : rules) {
        w.BeginObject();
        WriteRule(r, &w);
        w.EndObject();
      }
      w.EndArray();
      *out += w.str() + "\n";
      return 0;
    }
    std::string_view family;
    for (const RuleView& r : rules) {
      const std::string_view heading = r.retired() ? "retired" : r.family;
      if (heading != family) {
        family = heading;
        *out += StrCat(c.bold(),
                       r.retired()      ? "retired rule ids (never reused; tmapgen explain ID says what each became)"
                       : r.tensor_map ? "tensor-map rules"
                                      : "descriptor rules (desc-*, map-*, idesc-*)",
                       c.off(), "\n");
      }
      if (r.retired()) {
        *out += StrCat(Pad(r.id, 34), " ", Pad("retired", 8), " ", r.entry->became, "\n", std::string(44, ' '), c.dim(),
                       "replaced by: ", r.entry->replaced_by.empty() ? "no rule" : r.entry->replaced_by, c.off(), "\n");
        continue;
      }
      *out += StrCat(Pad(r.id, 34), " ", Pad(r.severity, 8), " ", r.summary, "\n", std::string(44, ' '), c.dim(),
                     "source: ", r.source, c.off(), "\n");
    }
    *out += "tmapgen rules ID shows one rule with an example.\n";
    return 0;
  }
  const std::string& id = ids[0];
  const RuleView* found = nullptr;
  std::vector<std::string_view> names;
  for (const RuleView& r : rules) {
    names.push_back(r.id);
    if (r.id == id) found = &r;
  }
  if (found == nullptr) return Usage(err, StrCat("no rule \"", id, "\"", DidYouMean(id, names), "; tmapgen rules lists them"));
  const RuleView& r = *found;
  if (r.retired()) {
    if (json) {
      json::Writer w;
      w.BeginObject();
      WriteRetired(r, &w);
      w.EndObject();
      *out += w.str() + "\n";
      return 0;
    }
    const std::string_view by = r.entry->replaced_by;
    *out += StrCat(c.bold(), r.id, c.off(), " (retired; was a ", r.severity, " ", r.tensor_map ? "tensor-map" : "descriptor",
                   " rule; the id is never reused)\n");
    *out += StrCat("  became     ", r.entry->became, "\n");
    *out += StrCat("  replaced   ", by.empty() ? std::string("by no rule") : StrCat("by ", by, " (tmapgen explain ", by, ")"), "\n");
    *out += StrCat("  was        ", r.summary, "\n");
    *out += StrCat("  field      ", r.field.empty() ? std::string("(the finding named it)") : std::string(r.field), "\n");
    *out += StrCat("  source     ", r.source, "\n");
    return 0;
  }
  const ExampleResult ex = RunExample(r.id);
  const std::string_view* cmd = RuleExample(r.id);
  if (json) {
    json::Writer w;
    w.BeginObject();
    WriteRule(r, &w);
    w.Key("example_result").BeginObject().Key("ran").Bool(ex.ran).Key("fired").Bool(ex.fired);
    if (ex.fired) w.Key("field").String(ex.field).Key("message").String(ex.message).Key("fix").String(ex.fix);
    if (!ex.error.empty()) w.Key("error").String(ex.error);
    w.EndObject().EndObject();
    *out += w.str() + "\n";
    return 0;
  }
  *out += StrCat(c.bold(), r.id, c.off(), " (", r.severity, "; ", AppliesTo(r), ")\n");
  *out += StrCat("  statement  ", r.summary, "\n");
  *out += StrCat("  field      ", r.field.empty() ? std::string("(the finding names it)") : std::string(r.field), "\n");
  *out += StrCat("  source     ", r.source, "\n");
  if (cmd == nullptr || cmd->empty()) {
    *out += "  example    none from the command line: every reader refuses such input before the rules run\n";
    return 0;
  }
  *out += StrCat("  example    tmapgen ", *cmd, "\n");
  if (ex.fired) {
    *out += StrCat("  says       ", ex.field.empty() ? std::string() : ex.field + ": ", ex.message, "\n");
    *out += StrCat("  fix        ", ex.fix, "\n");
  } else {
    *out += StrCat("  (the example did not trip the rule in this build", ex.error.empty() ? "" : StrCat(": ", ex.error), ")\n");
  }
  return 0;
}

int RunRulesCommand(const std::vector<std::string>& args, bool require_id) {
  std::string out, err;
  const int rc = RunRulesCommandTo(args, &out, &err, require_id);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fwrite(err.data(), 1, err.size(), stderr);
  return rc;
}

}  // namespace tmapgen::cli
