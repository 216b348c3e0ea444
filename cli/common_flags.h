// common_flags.h: the flags every spec-taking command shares (output format, input format, colors, GPU
// use, target) and their parser, so that the local command and the --remote client read the same
// arguments the same way.
#ifndef TMAPGEN_CLI_COMMON_FLAGS_H_
#define TMAPGEN_CLI_COMMON_FLAGS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "cli/spec_input.h"
#include "src/tmap/types.h"

namespace tmapgen::cli {

enum class Format { kText, kJson, kTextproto };

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
// other arguments to *positional. Bad usage is kInvalidArgument naming the flag. Colors: --color auto is
// on for a terminal (and NO_COLOR unset) in text format; progress: on when standard error is a terminal
// and CI is unset. (A parser of its own, not absl/flags: docs/design.md, "Dependencies", says why.)
absl::Status ParseCommon(std::vector<std::string>& args, Options* o,
                         std::vector<std::pair<std::string, std::string>>* spec_flags,
                         std::vector<std::string>* positional);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_COMMON_FLAGS_H_
