// json_diagnostics.h: what simdjson does not say about a JSON text: where a place is (line, column),
// what is there (for "got ..." in messages), where and why a text is not JSON, and the exact value of a
// number written as an integer.
//
// Contract
// - simdjson (Debian libsimdjson-dev) decides whether a text is JSON and reads it; its errors are codes
//   without a place. These functions run only after simdjson has failed (or when a caller needs a yes/no
//   on a small text), so they may be slow: each is linear in the text.
// - Positions: lines end at LF (CR LF counts once, a lone CR does not end a line); columns are 1-based
//   and count code points (UTF-8 lead bytes), as an editor shows them; offsets are bytes.
// - FindSyntaxError is strict RFC 8259 (the same grammar simdjson's DOM parser accepts): no comments,
//   trailing commas, single quotes, NaN, leading '+' or zeros, control characters or invalid UTF-8 in
//   strings, bad escapes or unpaired surrogates, byte order mark; objects and arrays nest at most
//   `max_depth` deep. It is a scanner of its own (one pass, an explicit stack, no recursion, never reads
//   past text.size()); fuzz/json_fuzz.cc checks that it accepts exactly what simdjson's DOM parser accepts.
// - ExactInteger applies tmapgen's rule for integer fields: a number is an integer when its exact decimal
//   value is one, so 1000, 1e3, 1.5e3, 10.0 and -0 are integers and 1.5, 1e-3 are not; exponents of any
//   size are exact (1e400 is too big, 1e-400 is not an integer) in time linear in the token.
#ifndef TMAPGEN_SRC_SCHEMA_JSON_DIAGNOSTICS_H_
#define TMAPGEN_SRC_SCHEMA_JSON_DIAGNOSTICS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tmapgen::json {

// simdjson reads this many bytes past the end of a text (their values do not matter); buffers handed
// to the spec parser as "padded" have at least this many readable bytes after the text.
inline constexpr size_t kPadding = 64;

struct TextPos {
  size_t line = 1;    // 1-based
  size_t column = 1;  // 1-based, code points
};

// The position of text[offset] (offset clamped to text.size()) when text[0] is at `base`.
TextPos PositionOf(std::string_view text, size_t offset, TextPos base = TextPos());

// What is at text[offset], for "got ..." in messages: "end of input", "an object", "an array", a short
// string as written ("\"bf17\""), "a string", a number as written (cut at 32 bytes), a word ('tru'),
// a character ('x'), "a UTF-8 byte order mark", or "byte 0xFF".
std::string Describe(std::string_view text, size_t offset);

// The length of the JSON number token at the start of `s` (0 if none starts there), by RFC 8259's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
size_t NumberLength(std::string_view s);

enum class IntegerClass { kOk, kNotNumber, kNotInteger, kTooBig };
// `token` must be exactly one JSON number token (else kNotNumber). kOk: *magnitude and *negative hold its
// exact value (-0 is negative zero: magnitude 0). kTooBig: an integer whose magnitude is above 2^64-1
// (*negative still set).
IntegerClass ExactInteger(std::string_view token, uint64_t* magnitude, bool* negative);

struct SyntaxError {
  size_t offset = 0;    // where it was found (a byte offset into the text)
  std::string message;  // without position: "expected ',' or '}' after an object member, got \"b\""
  std::string path;     // where in the document: "global_dim[1]" inside a value, "global_dim" between the
                        // elements of that array, "" at the top level (keys as written, escapes kept)
};

// Where and why `text` is not exactly one JSON value surrounded by whitespace; nullopt when it is.
std::optional<SyntaxError> FindSyntaxError(std::string_view text, int max_depth = 64);

inline bool IsJson(std::string_view text) { return !FindSyntaxError(text).has_value(); }

}  // namespace tmapgen::json

#endif  // TMAPGEN_SRC_SCHEMA_JSON_DIAGNOSTICS_H_
