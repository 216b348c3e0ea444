// codegen_cmd.h: `tmapgen codegen SPEC... --lang cpp|json|ptx [-o FILE] [--target T]` (docs/codegen.md).
//
// Contract
// - `args` are the arguments after the word `codegen` (a leading "codegen" is skipped). SPEC files are
//   JSON (one object or an array), JSON Lines (several specs) or the text format ("---" between specs);
//   "-" reads standard input.
// - Exit status: 0 written; 1 some spec or descriptor invalid: the validator's report (text) goes to
//   standard error and nothing is written (no -o file is created or touched); 2 bad usage (the message
//   names the flag) or unreadable input.
// - Output goes to -o FILE, written atomically (a temporary file in the same directory, then rename),
//   or to standard output.
#ifndef TMAPGEN_CLI_CODEGEN_CMD_H_
#define TMAPGEN_CLI_CODEGEN_CMD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/codegen/codegen.h"

namespace tmapgen::cli {

// The command in steps (tmapgen --remote runs the same ones and sends only the request): parse the
// flags (no I/O), read the spec files, then codegen::Generate, locally or on tmapd.
struct CodegenArgs {
  std::vector<std::string> files;
  codegen::Lang lang = codegen::Lang::kCpp;
  std::string output;        // -o FILE ("" or "-": standard output)
  codegen::Input input;      // descs and idescs from the flags; specs from ReadCodegenSpecs
  codegen::Options options;  // target, namespace; sources from ReadCodegenSpecs
  bool help = false;
};
// Bad usage is kInvalidArgument naming the flag; a spec file that cannot be read is its status (the code
// from errno), one that holds a bad spec or none kInvalidArgument.
absl::Status ParseCodegenArgs(const std::vector<std::string>& args, CodegenArgs* out);
absl::Status ReadCodegenSpecs(CodegenArgs* a);
// What the command prints on standard error for a usage error, and for an invalid spec.
std::string CodegenUsageText(const std::string& msg);
std::string CodegenRejectionText(const std::string& rejection);
// -o: a temporary file in the same directory, then rename. A failure is ErrnoStatus's code and message
// ("cannot write FILE: REASON"); no temporary file is left behind.
absl::Status WriteFileAtomically(const std::string& path, const std::string& data);

int RunCodegenCommand(const std::vector<std::string>& args);

// As RunCodegenCommand, with standard output and standard error captured (for tests). -o FILE is still
// written to the file system.
int RunCodegenCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_CODEGEN_CMD_H_
