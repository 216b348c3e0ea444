// common_flags.h: the flags every spec-taking command shares (output format, input format, colors, GPU
// use, target) and their parser, so that the local command and the --remote client read the same
// arguments the same way.
#ifndef TMAPGEN_CLI_COMMON_FLAGS_H_
#define TMAPGEN_CLI_COMMON_FLAGS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cli/spec_input.h"
#include "src/tmap/types.h"

namespace tmapgen::cli {

// kShort: one line per diagnostic, "FILE:LINE: error[rule-id] field: message" (CI logs, editors).
enum class Format { kText, kJson, kTextproto, kShort };

struct Options {
  Format format = Format::kText;
  InputFormat input_format = InputFormat::kAuto;
  bool color = false;
  bool encode = true;
  bool use_gpu = true;
  bool quiet = false;       // only the summary line / JSON
  bool progress = false;
  bool has_target = false;
  Target target = Target::kSm90a;
  std::string spec_file;    // base spec for the flag form
};

// Parses the common flags of `args`; spec flags (--dims, --swizzle, ...) go to *spec_flags in order and
// other arguments to *positional. Bad usage is kInvalidArgument naming the flag (an unknown flag gets a
// "did you mean"). Colors: --color auto is on in text format when standard output is a terminal, NO_COLOR
// is unset or empty and TERM is not "dumb"; progress: on when standard error is a terminal and CI is
// unset. (A parser of its own, not absl/flags: docs/design.md, "Dependencies", says why.)
absl::Status ParseCommon(std::vector<std::string>& args, Options* o,
                         std::vector<std::pair<std::string, std::string>>* spec_flags,
                         std::vector<std::string>* positional);

// Whether colors are wanted for --color auto on a stream: a terminal, NO_COLOR unset or empty
// (no-color.org), TERM not "dumb".
bool AutoColor(int fd);
bool AutoColorFor(bool is_terminal, const char* no_color, const char* term);  // the rule, for tests

// The gRPC target of --remote: HOST alone gets the default port 50051 (HOST:50051, [IPv6]:50051); HOST:PORT,
// dns:///..., unix:... and ipv4:/ipv6: targets are kept. A comma-separated list of servers is checked server by
// server by the same rules and comes back as "HOST:PORT,HOST:PORT" (the caller resolves it: cli/remote.cc).
// kInvalidArgument naming --remote for an empty host or a port that is not 1..65535 ("HOST:", "HOST:0",
// "HOST:x"), or an empty or non-HOST[:PORT] entry of a list.
inline constexpr int kDefaultRemotePort = 50051;
absl::StatusOr<std::string> RemoteTarget(const std::string& value);

// Every flag name ParseCommon knows (spec flags included), for "did you mean".
std::vector<std::string_view> CommonFlagNames();

// The line that follows a usage error, in place of the usage text: "see tmapgen COMMAND --help\n"
// ("see tmapgen --help\n" for an empty command).
std::string HelpHint(std::string_view command);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_COMMON_FLAGS_H_
