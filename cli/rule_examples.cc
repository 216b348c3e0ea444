// rule_examples.cc: runs the example of a rule (its row of src/tmap/rule_catalogue.h) in this process.
#include "cli/rule_examples.h"

#include <simdjson.h>

#include <utility>

#include "cli/common_flags.h"
#include "cli/desc_cmd.h"
#include "cli/spec_flags.h"
#include "src/report/report.h"
#include "src/tmap/rule_catalogue.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

// The diagnostic of `id` in the JSON report of a desc/idesc command (top-level "diagnostics").
bool FindInDescJson(const std::string& json, std::string_view id, ExampleResult* r) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc)) return false;
  simdjson::dom::array diags;
  if (doc["diagnostics"].get_array().get(diags)) return false;
  for (simdjson::dom::element d : diags) {
    std::string_view rule, field, message, fix;
    if (d["rule"].get_string().get(rule) || rule != id || r->fired) continue;
    if (d["field"].get_string().get(field)) field = {};
    if (d["message"].get_string().get(message)) message = {};
    if (d["fix"].get_string().get(fix)) fix = {};
    r->fired = true;
    r->field = std::string(field);
    r->message = std::string(message);
    r->fix = std::string(fix);
  }
  return true;
}

}  // namespace

const std::string_view* RuleExample(std::string_view id) {
  const RuleEntry* e = FindCatalogueEntry(id);
  return e == nullptr ? nullptr : &e->example;
}

std::vector<std::string> SplitExample(std::string_view command) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && command[i] == ' ') ++i;
    const size_t b = i;
    while (i < command.size() && command[i] != ' ') ++i;
    if (i > b) out.emplace_back(command.substr(b, i - b));
  }
  return out;
}

ExampleResult RunExample(std::string_view id) {
  ExampleResult r;
  const std::string_view* cmd = RuleExample(id);
  if (cmd == nullptr || cmd->empty()) {
    r.error = cmd == nullptr ? "unknown rule" : "no command-line example";
    return r;
  }
  std::vector<std::string> args = SplitExample(*cmd);
  if (!args.empty() && (args[0] == "desc" || args[0] == "idesc")) {
    const bool idesc = args[0] == "idesc";
    args.erase(args.begin());
    args.push_back("--format");
    args.push_back("json");
    std::string out, err;
    const int rc = idesc ? RunIdescCommandTo(args, &out, &err) : RunDescCommandTo(args, &out, &err);
    if (rc == 2) {
      r.error = err;
      return r;
    }
    r.ran = FindInDescJson(out, id, &r);
    if (!r.ran) r.error = "unreadable report";
    return r;
  }
  Options opt;
  std::vector<std::pair<std::string, std::string>> spec_flags;
  std::vector<std::string> positional;
  if (const absl::Status st = ParseCommon(args, &opt, &spec_flags, &positional); !st.ok()) {
    r.error = std::string(StatusMessage(st));
    return r;
  }
  const absl::StatusOr<TensorMapSpec> built = BuildSpecFromFlags(spec_flags, nullptr);
  if (!built.ok()) {
    r.error = std::string(StatusMessage(built.status()));
    return r;
  }
  const TensorMapSpec& spec = *built;
  Validation v;
  Validate(spec, &v);
  r.ran = true;
  for (const Diagnostic& d : MakeDiagnostics(spec, v)) {
    if (d.rule != id) continue;
    r.fired = true;
    r.field = d.field;
    r.message = d.message;
    r.fix = d.fix;
    break;
  }
  return r;
}

}  // namespace tmapgen::cli
