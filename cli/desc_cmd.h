// desc_cmd.h: the `tmapgen desc ...` and `tmapgen idesc ...` commands (docs/descriptors.md).
//
//   tmapgen desc wgmma   [layout flags] [--for-map SPEC [--check VALUE]] [--k-slice N | --sub-tile MN,K]
//   tmapgen desc tcgen05 [layout flags] [--lbo-mode absolute] ...           (same flags)
//   tmapgen desc decode VALUE [--arch wgmma|tcgen05] [--tile MN,K --major K|MN --dtype T] [--for-map SPEC]
//   tmapgen idesc [--kind K --m M --n N --a-type T --b-type T ...]
//   tmapgen idesc decode VALUE [--kind K]
//
// Contract
// - `args` are the arguments after the command word (`desc` or `idesc`); a leading "desc"/"idesc" is
//   accepted and skipped. Output formats are text (default) and json (--format json), as for the rest of
//   the tool; text may be colored (--color auto|always|never, auto = on a terminal, NO_COLOR unset or empty, TERM not "dumb").
// - Exit status: 0 valid (no error finding), 1 invalid, 2 bad usage: an unknown flag, a missing or
//   malformed value (the message names the flag), an unreadable --for-map file. Usage errors go to
//   standard error; reports go to standard output. `--help` prints the flags and returns 0.
// - The *To variants write to strings instead of the standard streams (for tests); --svg FILE is
//   written in both.
#ifndef TMAPGEN_CLI_DESC_CMD_H_
#define TMAPGEN_CLI_DESC_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

int RunDescCommand(const std::vector<std::string>& args);
int RunIdescCommand(const std::vector<std::string>& args);

int RunDescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);
int RunIdescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_DESC_CMD_H_
