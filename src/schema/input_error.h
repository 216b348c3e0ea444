// input_error.h: a spec that could not be read, as a status and as report data.
//
// Contract
// - Every spec front end (JSON, JSON Lines, the text format, Protobuf messages, command-line flags)
//   reports an unreadable spec as an absl::Status with code kInvalidArgument (or kResourceExhausted for
//   a spec over the size bound), whose message is the whole sentence users see:
//   "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4". The field path and the
//   1-based line and column ride along as a payload, so that reports can name the field on their own.
// - InputError is that same information as plain data, for the reports (an `input-error` diagnostic)
//   and the service's Diagnostic message. InputErrorOf(InputErrorStatus(e)) == e.
// - line and column are 0 when the error is not about a place in a text (a missing field, a flag).
#ifndef TMAPGEN_SRC_SCHEMA_INPUT_ERROR_H_
#define TMAPGEN_SRC_SCHEMA_INPUT_ERROR_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace tmapgen {

struct InputError {
  std::string field;    // JSON path of the offending field ("global_dim[2]"), "" when about the whole text
  std::string message;  // "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4"
  size_t line = 0;      // 1-based, 0 when not about a place in a text
  size_t column = 0;    // 1-based, in code points
};

inline bool operator==(const InputError& a, const InputError& b) {
  return a.field == b.field && a.message == b.message && a.line == b.line && a.column == b.column;
}

// kInvalidArgument carrying `e` (message = e.message). `code` may be kResourceExhausted for size bounds.
absl::Status InputErrorStatus(const InputError& e, absl::StatusCode code = absl::StatusCode::kInvalidArgument);

// "line L, column C: field: what" (parts left out when 0 / empty) as a kInvalidArgument status.
absl::Status InputErrorAt(std::string_view field, std::string_view what, size_t line = 0, size_t column = 0);

// The InputError a status carries: its payload when it has one, else {"", message, 0, 0}. The message is
// always the status's own (so an Annotate()d prefix is kept).
InputError InputErrorOf(const absl::Status& s);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_INPUT_ERROR_H_
