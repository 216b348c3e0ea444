// json_writer.h: builds JSON text (RFC 8259) into a std::string, compact or pretty-printed.
//
// Contract
// - `Writer` appends one JSON value (usually an object) to an internal std::string; commas, colons and,
//   in pretty mode, newlines and indentation are inserted automatically. No I/O, no exceptions, C++17
//   standard library only.
// - Output is deterministic: the same calls give the same bytes on every platform.
//   * Compact: no whitespace at all: {"a":1,"b":[true,null]}
//   * Pretty: each member/element on its own line, indented 2 spaces per level, ": " after keys, empty
//     containers as {} and [], no trailing newline.
// - Strings (values and keys): '"' and '\' are escaped, so are control characters (\b \f \n \r \t in
//   their short forms, the others as \u00XX with lowercase hex). Everything else, including '/', DEL
//   and valid multi-byte UTF-8, is copied as it is. A byte that does not begin a valid UTF-8 sequence
//   (RFC 3629: no overlong forms, surrogates or code points above U+10FFFF) is replaced by U+FFFD, one replacement per such byte, so the
//   output is always valid UTF-8.
// - Numbers: Uint/Int in decimal. Double in the shortest form that reads back as the same double
//   (std::to_chars), always as a number that reads as a double (with a '.' or an exponent): 0.1 -> 0.1,
//   1e20 -> 1e+20, 100.0 -> 100.0, -0.0 -> -0.0, -2.9e20 -> -2.9264432341861722e+20. NaN and infinities have no JSON
//   form: they are written as null and recorded as an error.
// - Misuse (a value inside an object without a Key, Key outside an object or twice in a row, EndObject
//   closing an array or nothing, a second top-level value) is recorded: ok() turns false, error() says
//   what happened first, and the offending call is otherwise ignored. Once !ok(), str() is not
//   guaranteed to be valid JSON. complete() is true when the value is whole and nothing went wrong.
// - Output written by Writer is read back by simdjson to the same values (strings byte for byte when
//   they were valid UTF-8; doubles bit for bit, -0.0 included): tests/json/json_writer_test.cc.
//
// Complexity: each call is amortized O(size of what it writes). Nesting depth is unbounded (one byte
// of state per open container).
#ifndef TMAPGEN_SRC_JSON_JSON_WRITER_H_
#define TMAPGEN_SRC_JSON_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tmapgen::json {

struct WriterOptions {
  bool pretty = false;  // newlines and 2-space indentation
};

class Writer {
 public:
  Writer() = default;
  explicit Writer(const WriterOptions& options) : pretty_(options.pretty) {}

  Writer& BeginObject();
  Writer& EndObject();
  Writer& BeginArray();
  Writer& EndArray();
  // The key of the next member; only inside an object, and followed by exactly one value.
  Writer& Key(std::string_view key);

  Writer& String(std::string_view value);
  Writer& Uint(uint64_t value);
  Writer& Int(int64_t value);
  Writer& Double(double value);
  Writer& Bool(bool value);
  Writer& Null();

  // No misuse so far.
  bool ok() const { return error_.empty(); }
  // The first misuse, "" if none.
  const std::string& error() const { return error_; }
  // ok(), one top-level value written, every container closed.
  bool complete() const { return ok() && done_ && stack_.empty(); }

  const std::string& str() const { return out_; }
  // Moves the text out and resets the writer (keeping its options).
  std::string Take();
  // Resets the writer, keeping its options and the buffer's capacity (for writing JSON Lines).
  void Clear();

  // Appends `value` to *out as a JSON string literal, quotes included, escaped as described above.
  static void AppendQuoted(std::string_view value, std::string* out);

 private:
  bool BeforeValue(const char* what);
  Writer& Open(char bracket);
  Writer& Close(char bracket);
  void Newline(size_t depth);
  bool Misuse(std::string message);

  // One entry per open container: '{' or '['.
  std::vector<char> stack_;
  std::string out_;
  std::string error_;
  bool pretty_ = false;
  bool has_items_ = false;  // the innermost open container has at least one member/element
  bool key_pending_ = false;  // inside an object, a Key was written and its value not yet
  bool done_ = false;       // the top-level value has been started
};

}  // namespace tmapgen::json

#endif  // TMAPGEN_SRC_JSON_JSON_WRITER_H_
