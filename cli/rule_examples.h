// rule_examples.h: the example of a rule, for `tmapgen rules ID` / `tmapgen explain ID`: the arguments of a
// tmapgen command that trips the rule (the rule's row of the catalogue, src/tmap/rule_catalogue.h, holds
// them as data), run here to show what the rule says about it.
//
// Contract
// - Every row of the catalogue has an example field; an empty command means the rule cannot be reached from
//   the command line (the row's comment says why) or is retired. tests/cli prove that each command trips its
//   rule.
// - Tensor-map examples are build commands (`tmapgen ARGS`); descriptor examples start with `desc` or `idesc`.
//   Arguments are separated by spaces; an inline JSON spec (a --for-map value) contains none.
// - RunExample() runs the example in this process (no subprocess, no GPU, no file) and returns the
//   diagnostic of that rule it produced, if any.
#ifndef TMAPGEN_CLI_RULE_EXAMPLES_H_
#define TMAPGEN_CLI_RULE_EXAMPLES_H_

#include <string>
#include <string_view>
#include <vector>

namespace tmapgen::cli {

// The example command of a rule ("" when none), or nullptr for an unknown id.
const std::string_view* RuleExample(std::string_view id);
std::vector<std::string> SplitExample(std::string_view command);

struct ExampleResult {
  bool ran = false;    // the command could be run
  bool fired = false;  // it produced a finding of the rule
  std::string field, message, fix;
  std::string error;   // why it could not run
};
ExampleResult RunExample(std::string_view id);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_RULE_EXAMPLES_H_
