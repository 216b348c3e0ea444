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
// - The command is three steps, so that `tmapgen --remote` runs the same ones: Parse*Args() reads the
//   flags into a request (src/desc/desc_request.h) without I/O, LoadDescMap() reads the --for-map file
//   into it, and the request runs (locally, or on tmapd, which receives only the request).
#ifndef TMAPGEN_CLI_DESC_CMD_H_
#define TMAPGEN_CLI_DESC_CMD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/desc/desc_request.h"

namespace tmapgen::cli {

// tmapgen desc, parsed. The map is not read yet: for_map holds the flag's value (a file name or
// inline JSON) and request.has_map is set.
struct DescArgs {
  desc::MatrixRequest request;
  std::string for_map;
  std::string svg;  // --svg FILE
  bool json = false;
  bool color = false;  // --color, with auto decided here (a terminal and no NO_COLOR)
  bool help = false;
};
struct IdescArgs {
  desc::IdescRequest request;
  bool json = false;
  bool color = false;
  bool help = false;
};

// The arguments after "desc" / "idesc". Bad usage is kInvalidArgument naming the flag; the message comes
// without the "tmapgen: " prefix and the usage lines (see *UsageText).
absl::Status ParseDescArgs(const std::vector<std::string>& args, DescArgs* out);
absl::Status ParseIdescArgs(const std::vector<std::string>& args, IdescArgs* out);
// Reads the --for-map spec (inline JSON or a file) into a->request.map. A file that cannot be read is its
// status (the code from errno), a spec that cannot be read kInvalidArgument; both messages start "--for-map: ".
absl::Status LoadDescMap(DescArgs* a);
// What a usage error prints on standard error.
std::string DescUsageText(const std::string& msg);
std::string IdescUsageText(const std::string& msg);

int RunDescCommand(const std::vector<std::string>& args);
int RunIdescCommand(const std::vector<std::string>& args);

int RunDescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);
int RunIdescCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_DESC_CMD_H_
