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

namespace tmapgen::cli {

int RunCodegenCommand(const std::vector<std::string>& args);

// As RunCodegenCommand, with standard output and standard error captured (for tests). -o FILE is still
// written to the file system.
int RunCodegenCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_CODEGEN_CMD_H_
