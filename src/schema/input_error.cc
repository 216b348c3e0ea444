// input_error.cc: see input_error.h for the contract.
#include "src/schema/input_error.h"

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

// Payload: "LINE COLUMN FIELD" (the field last, so that it may hold any byte).
constexpr char kTypeUrl[] = "tmapgen/input-error";

}  // namespace

absl::Status InputErrorStatus(const InputError& e, absl::StatusCode code) {
  absl::Status s(code, ToAbsl(e.message));
  s.SetPayload(kTypeUrl, absl::Cord(StrCat(e.line, " ", e.column, " ", e.field)));
  return s;
}

absl::Status InputErrorAt(std::string_view field, std::string_view what, size_t line, size_t column) {
  InputError e;
  e.field = std::string(field);
  e.line = line;
  e.column = column;
  if (line != 0) StrAppend(&e.message, "line ", line, ", column ", column, ": ");
  if (!field.empty()) StrAppend(&e.message, field, ": ");
  StrAppend(&e.message, what);
  return InputErrorStatus(e);
}

InputError InputErrorOf(const absl::Status& s) {
  InputError e;
  e.message = std::string(StatusMessage(s));
  const absl::optional<absl::Cord> payload = s.GetPayload(kTypeUrl);
  if (!payload.has_value()) return e;
  const std::string p(*payload);
  const size_t a = p.find(' ');
  const size_t b = a == std::string::npos ? a : p.find(' ', a + 1);
  if (b == std::string::npos) return e;
  uint64_t line = 0, column = 0;
  if (!absl::SimpleAtoi(absl::string_view(p.data(), a), &line) ||
      !absl::SimpleAtoi(absl::string_view(p.data() + a + 1, b - a - 1), &column))
    return e;
  e.line = line;
  e.column = column;
  e.field = p.substr(b + 1);
  return e;
}

}  // namespace tmapgen
