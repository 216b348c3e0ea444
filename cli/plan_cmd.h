// plan_cmd.h: the `tmapgen plan ...` command (docs/plan.md).
//
//   tmapgen plan gemm --m M --n N --k K [--tile BMxBNxBK] [--dtype T | --a-type T --b-type T] [--a-major k|mn]
//                     [--b-major k|mn] [--cluster MxN --multicast a|b|ab] [--stages N|auto] [--target T] ...
//   tmapgen plan conv --n N --c C --k K --h H --w W [--d D] --r R --s S [--t T] [--pad P] [--stride S] ...
//
// Contract
// - `args` are the arguments after the command word `plan`. Output is text (default) or one JSON object
//   (--format json; --pretty indents it), as for the rest of the tool.
// - Exit status: 0 the plan is valid (no error in any map, descriptor or plan rule), 1 invalid, 2 bad usage:
//   an unknown flag or sub-command, a missing or malformed value, a request the planner does not take (the
//   message names the flag). Usage errors go to standard error; reports to standard output.
// - ParsePlanGemmArgs() reads the flags into a request (src/plan/gemm_plan.h) without I/O; the request runs
//   here (and, later, wherever else the same request is taken).
#ifndef TMAPGEN_CLI_PLAN_CMD_H_
#define TMAPGEN_CLI_PLAN_CMD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/plan/conv_plan.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::cli {

struct PlanGemmArgs {
  plan::GemmRequest request;
  bool json = false;
  bool cpp = false;             // --format cpp: the generated header
  std::string name_space;
  bool pretty = false;
  bool help = false;
};

// kInvalidArgument naming the flag on bad usage (a request the planner does not take included).
absl::Status ParsePlanGemmArgs(const std::vector<std::string>& args, PlanGemmArgs* out);

struct PlanConvArgs {
  plan::ConvRequest request;
  bool json = false;
  bool cpp = false;
  std::string name_space;
  bool pretty = false;
  bool help = false;
};
absl::Status ParsePlanConvArgs(const std::vector<std::string>& args, PlanConvArgs* out);

int RunPlanCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);
int RunPlanCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_PLAN_CMD_H_
