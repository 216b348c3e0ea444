// rules_cmd.h: `tmapgen rules [ID]` and `tmapgen explain ID`: every rule of the catalogue
// (src/tmap/rule_catalogue.h: the tensor-map rules and the descriptor rules -- desc-*, map-*, idesc-*), and
// the retired ids with what each became; or one rule with its statement, source and an example that trips it,
// or what a retired id became.
//
// Contract
// - `args` are the arguments after the command word. --format text|json (default text); --color.
// - Exit status: 0 listed or explained; 2 bad usage or an unknown rule id (the message suggests the closest).
// - JSON list: one object per rule, tensor-map rules first, each with "id", "family" ("tensor-map" or
//   "descriptor"), "severity", "field", "summary", "source", "example"; tensor-map rules add "modes" and
//   "per_target", descriptor rules "scope". Then one object per retired id: "id", "family", "state" ("retired";
//   active rules have no "state"), the "severity", "field", "summary" and "source" it had, "replaced_by" (an
//   id, or "") and "became" (a sentence). JSON explain: the same object; an active rule's adds
//   "example_result" {"ran", "fired", "field", "message", "fix"}.
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
