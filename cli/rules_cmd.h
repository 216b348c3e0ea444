// rules_cmd.h: `tmapgen rules [ID]` and `tmapgen explain ID`: every rule the tool can emit (the tensor-map
// rules of src/tmap/rule.h and the descriptor rules -- desc-*, map-*, idesc-* -- of src/desc/desc_rules.h),
// or one rule with its statement, source and an example that trips it.
//
// Contract
// - `args` are the arguments after the command word. --format text|json (default text); --color.
// - Exit status: 0 listed or explained; 2 bad usage or an unknown rule id (the message suggests the closest).
// - JSON list: one object per rule, tensor-map rules first, each with "id", "family" ("tensor-map" or
//   "descriptor"), "severity", "field", "summary", "source", "example"; tensor-map rules add "modes" and
//   "per_target", descriptor rules "scope". JSON explain: the same object plus "example_result" {"ran",
//   "fired", "field", "message", "fix"}.
#ifndef TMAPGEN_CLI_RULES_CMD_H_
#define TMAPGEN_CLI_RULES_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

// `require_id`: `explain`, which needs a rule id (exit 2 without one).
int RunRulesCommand(const std::vector<std::string>& args, bool require_id = false);
int RunRulesCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err, bool require_id = false);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_RULES_CMD_H_
