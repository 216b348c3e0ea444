// blob_cmd.h: `tmapgen decode` and `tmapgen diff`: the 128-byte CUtensorMap read back into its fields
// (src/blob, docs/tensormap-layout.md), and two maps (or specs) compared field by field.
//
//   tmapgen decode [--target T] [--format text|json] [--words] [--no-validate] [--color C] BLOB...
//   tmapgen diff A B [--words] [--format text|json]
//   tmapgen layout [--format text|json|markdown]
//
// Inputs (BLOB, A, B): "-" (standard input), a file, or the text itself. Files and standard input hold
// binary maps (a multiple of 128 bytes), hex text (blob_text.h: 256 hex digits, 16 words 0x..., 128 bytes
// 0x..; one or many maps), or JSON Lines whose objects carry "bytes" (the corpus form). Consecutive text
// arguments are joined, so the 16 words of a CUTLASS dump can be pasted as 16 arguments. For diff, A or B
// may also be a spec file (JSON): it is encoded offline first.
// Exit status: decode 0 when every map decodes cleanly (no unexplained bit, no finding other than notes) and
// validates,
// 1 otherwise; diff 0 when the maps are equal, 1 when they differ; 2 for bad usage or unreadable input
// (garbage is an error naming what was expected, never a decode).
#ifndef TMAPGEN_CLI_BLOB_CMD_H_
#define TMAPGEN_CLI_BLOB_CMD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/report/decode_report.h"

namespace tmapgen::cli {

// tmapgen decode in steps (tmapgen --remote runs the same ones and sends only the 128-byte maps): parse
// the flags (no I/O), read the inputs, then decode and render (src/report/decode_report.h).
struct DecodeArgs {
  blob::DecodeOptions options;  // --color auto decided here
  bool words = false;
  std::vector<std::string> inputs;
  bool help = false;
};
struct DecodeSource {
  std::string label;  // "argument 1", "FILE", "FILE:3", "FILE[2]"
  blob::MapBytes bytes{};
};
// Bad usage is kInvalidArgument naming the flag. An input that cannot be read is the file's status
// (src/io/file.h); one that is not a map is kInvalidArgument naming the input ("FILE:3: bytes: ...").
absl::Status ParseDecodeArgs(const std::vector<std::string>& args, DecodeArgs* out);
absl::Status ReadDecodeInputs(const DecodeArgs& a, std::vector<DecodeSource>* out);
std::string DecodeUsageText(const std::string& msg);

int RunDecodeCommand(const std::vector<std::string>& args);
int RunDiffCommand(const std::vector<std::string>& args);
int RunLayoutCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_BLOB_CMD_H_
