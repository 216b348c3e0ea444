// textproto.h: the Protocol Buffers text format of specs and reports (schema: proto/tmapgen.proto).
//
// Built from cli/textproto_protobuf.cc when Protobuf is available, else from cli/textproto_none.cc,
// whose functions report plainly that this build has no text-format support.
#ifndef TMAPGEN_CLI_TEXTPROTO_H_
#define TMAPGEN_CLI_TEXTPROTO_H_

#include <string>
#include <string_view>

#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen::cli {

bool TextprotoAvailable();

// Parses one tmapgen.TensorMapSpec in text format. Several specs in one file are separated by lines
// holding only "---"; `first_line` is the line of `text` in its file, for error messages. Errors are
// input errors (src/schema/input_error.h); without Protobuf, kUnimplemented.
absl::Status ParseSpecTextproto(std::string_view text, size_t first_line, TensorMapSpec* spec);

// The report as a tmapgen.Report message in text format.
std::string ReportTextproto(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc);
std::string InputErrorTextproto(int index, const InputError& e);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_TEXTPROTO_H_
