// json_reader.h: a strict, allocation-light JSON pull reader (RFC 8259) and a JSON Lines splitter.
//
// Contract
// - `Reader` reads exactly one JSON text from a `std::string_view` it is given. It does no I/O, throws no
//   exceptions and depends on the C++17 standard library only.
// - Accepts: RFC 8259 JSON. Any value may be the top-level value. Whitespace is space, tab, CR and LF.
// - Rejects (all with an error, never with undefined behaviour, whatever the input):
//   trailing commas, comments, single quotes, NaN/Infinity, leading '+', leading zeros (`01`), a bare `.`
//   (`1.`, `.5`), unescaped control characters (U+0000..U+001F) in strings, unknown escapes (`\x`),
//   malformed `\u` escapes and unpaired UTF-16 surrogates (`\uD800`), invalid UTF-8 in strings (overlong
//   forms, encoded surrogates, code points above U+10FFFF, stray continuation bytes), a byte order mark,
//   nesting deeper than `ReaderOptions::max_depth` (default 64), and, via `Finish()`, anything but
//   whitespace after the top-level value.
// - Not checked: duplicate object keys. Keys are handed to the caller in document order; whether a
//   repeated key is an error, or which one wins, is the caller's business.
// - Numbers. The reader keeps the exact decimal text of a number and converts on request:
//   * `ReadUint64` / `ReadInt64` accept a number iff its exact mathematical value is an integer in range.
//     So `1000`, `1e3`, `1.5e3`, `10.0` and `-0` are integers (1000, 1000, 1500, 10, 0); `1.5`, `1e-3`
//     and `15e-1` (= 1.5) are not. Precedence of failures: not an integer (kNotInteger), then,
//     for unsigned, negative (kNegative; `-0` is zero and is accepted), then out of range (kOutOfRange:
//     above 2^64-1 for unsigned, outside [-2^63, 2^63-1] for signed). Exponents of any size are handled
//     exactly (`1e400` is out of range, `1e-400` is not an integer), in time linear in the text.
//   * `ReadDouble` rounds the decimal value to the nearest double (std::from_chars). A value whose
//     magnitude is too large for a double is kOutOfRange; one too small to be represented rounds to
//     +0.0 or -0.0 (as strtod does) and is accepted.
// - Strings are unescaped to UTF-8. `\u0000` is allowed and yields a NUL byte.
//
// Errors
// - The first error stops the reader: every later call returns false (PeekType returns kError) and
//   `error()` keeps describing the first failure. An `Error` has a code, a message without position,
//   and the 1-based line and column and 0-based byte offset where it was found.
// - Positions: lines are separated by LF (CR LF counts once; a lone CR does not end a line). Columns are
//   1-based and counted in code points (UTF-8 lead bytes), so that they match what an editor shows for
//   text that is valid UTF-8. Offsets are in bytes.
// - Where: syntax errors point at the offending byte; type, range and sign errors at the first byte of
//   the value; escape errors at the backslash; UTF-8 errors at the first byte of the bad sequence;
//   kTruncated at the end of the text; kDepthLimit at the bracket that is one too deep.
// - Truncation: a valid document cut anywhere before the end of its top-level value fails with
//   kTruncated at the cut, never with kSyntax (except a bare top-level number, which may be cut into a
//   shorter number), so "the file was cut short" can be told apart from "the file is wrong".
// - The caller knows the JSON path of the value it is reading (this reader does not track it): pass it
//   to `ErrorAt(path)` to get "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4".
//   Semantic errors found by the caller ("box_dim must be <= 256") can be recorded with `Fail()` so that
//   they get the same position and format.
//
// Protocol
// - A value is "pending" when the grammar requires one next: at the start of the text, after `NextKey`
//   returned true, and after `NextElement` returned true. Exactly one of ReadString, ReadStringView,
//   ReadUint64, ReadInt64, ReadDouble, ReadBool, ReadNull, ReadNumberText, BeginObject, BeginArray or
//   SkipValue consumes it. Calling one of those with no value pending is a kUsage error.
// - A pending value that the caller never consumed is skipped (and validated) by the next
//   `NextKey`/`NextElement` call, so unknown keys can simply be ignored.
// - `NextKey`/`NextElement` return false both at the closing bracket (the container is then finished and
//   the reader is back in the enclosing one) and on error; tell them apart with `ok()`:
//
//     tmapgen::json::Reader r(text);
//     if (!r.BeginObject()) return r.ErrorAt("");
//     std::string_view key;
//     while (r.NextKey(&key)) {
//       if (key == "rank") { if (!r.ReadUint64(&rank)) return r.ErrorAt("rank"); }
//     }                                   // other keys: skipped automatically
//     if (!r.ok() || !r.Finish()) return r.ErrorAt("");
//
// Lifetime of views
// - `text` must outlive the reader. A string or key without escapes is returned as a view into `text`.
// - A key with escapes is returned as a view into a buffer of the reader, valid until the next `NextKey`
//   call (at any depth) or `Reset`. A string value read with `ReadStringView` that had escapes is a view
//   into another buffer, valid until the next `ReadStringView` call or `Reset`. So a key stays valid
//   while its (scalar) value is read.
//
// Complexity
// - Every call is O(size of what it consumes); the whole text is read in one pass, without recursion
//   (SkipValue is iterative), with O(max_depth) bits of state. Nothing allocates except ReadString and
//   escaped strings/keys (amortized into reusable buffers) and error messages.
// - `line()`/`column()`/`LocationOf()` are computed lazily from a cached position: moving forward costs
//   the distance moved, moving backward a rescan from the start.
// - A Reader is not thread-safe; distinct readers are independent.
//
// JSON Lines
// - `LineSplitter` cuts a stream fed in arbitrary chunks into lines (LF separated, an optional CR before
//   the LF removed) without ever holding more than one partial line, and reports 1-based line numbers.
//   Lines that hold only whitespace are skipped. See the class comment.
#ifndef TMAPGEN_SRC_JSON_JSON_READER_H_
#define TMAPGEN_SRC_JSON_JSON_READER_H_

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#if defined(__GNUC__)
#define TMAPGEN_JSON_COLD __attribute__((noinline, cold))
#else
#define TMAPGEN_JSON_COLD
#endif

namespace tmapgen::json {

enum class Type : uint8_t { kObject, kArray, kString, kNumber, kBool, kNull, kEnd, kError };

enum class ErrorCode : uint8_t {
  kNone = 0,
  kSyntax,          // not JSON: a bad token, a missing ',' ':' or bracket, a trailing comma, trailing text
  kUnexpectedType,  // valid JSON, but not the type that was asked for ("expected a string, got 12")
  kOutOfRange,      // a number outside the range of the requested type
  kNegative,        // a negative number where an unsigned integer is required
  kNotInteger,      // a number with a fractional part where an integer is required
  kTruncated,       // the text ended in the middle of a value
  kDepthLimit,      // objects/arrays nested deeper than ReaderOptions::max_depth
  kBadEscape,       // an unknown or malformed backslash escape, or an unpaired UTF-16 surrogate
  kBadUtf8,         // a string holding bytes that are not valid UTF-8
  kUsage,           // the caller broke the protocol (e.g. NextKey inside an array, a read with no value pending)
  kCaller,          // recorded by the caller through Fail() without a more specific code
};

// "object", "array", "string", "number", "bool", "null", "end", "error".
const char* TypeName(Type type);
// "none", "syntax", "unexpected_type", "out_of_range", "negative", "not_integer", "truncated",
// "depth_limit", "bad_escape", "bad_utf8", "usage", "caller".
const char* ErrorCodeName(ErrorCode code);

struct Location {
  size_t line = 0;    // 1-based (0 only in a default-constructed Location)
  size_t column = 0;  // 1-based, in code points
  size_t offset = 0;  // 0-based, in bytes
};

struct Error {
  ErrorCode code = ErrorCode::kNone;
  std::string message;  // without position, e.g. "expected an unsigned integer, got -4"
  size_t line = 0;
  size_t column = 0;
  size_t offset = 0;

  bool ok() const { return code == ErrorCode::kNone; }
  // "line 3, column 17: <message>", or "" when ok().
  std::string ToString() const;
};

struct ReaderOptions {
  // Objects and arrays may nest this deep (the top-level container is depth 1). 0 allows scalars only.
  // Values above kMaxDepthLimit are clamped to it.
  int max_depth = 64;
  // Line number of the first line of `text`: a JSON Lines caller passes the line number it got from
  // LineSplitter so that errors point into the file.
  size_t first_line = 1;
};

class Reader {
 public:
  static constexpr int kMaxDepthLimit = 1024;

  explicit Reader(std::string_view text, const ReaderOptions& options = ReaderOptions());
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  Reader(Reader&&) = default;  // views into the reader's buffers do not survive a move
  Reader& operator=(Reader&&) = default;

  // Starts over on a new text, keeping the options and the buffers' capacity (cheap for JSON Lines).
  void Reset(std::string_view text, size_t first_line = 1);

  // --- Containers -------------------------------------------------------------------------------
  // Consume a pending '{' / '['. Another value is kUnexpectedType; no value at all is kTruncated.
  bool BeginObject();
  bool BeginArray();
  // Inside an object: advances to the next member and returns its key; the member's value is then
  // pending. Returns false at the closing '}' (which it consumes) or on error.
  bool NextKey(std::string_view* key);
  // Inside an array: advances to the next element, which is then pending. Returns false at the closing
  // ']' (which it consumes) or on error.
  bool NextElement();

  // --- Scalars (each consumes the pending value; on a type mismatch the reader fails with
  // kUnexpectedType, unless the value itself is malformed, which is reported first) -------------------
  // Unescapes into *out (replacing its contents).
  bool ReadString(std::string* out);
  // *out views the string: into `text` when it had no escapes, else into a reader buffer (see Lifetime).
  // *had_escapes (may be null) tells which.
  bool ReadStringView(std::string_view* out, bool* had_escapes = nullptr);
  bool ReadUint64(uint64_t* out);
  bool ReadInt64(int64_t* out);
  bool ReadDouble(double* out);
  bool ReadBool(bool* out);
  bool ReadNull();
  // The validated text of a number, e.g. "-1.50e+3", as a view into `text`.
  bool ReadNumberText(std::string_view* out);

  // --- Inspection ---------------------------------------------------------------------------------
  // The type of the pending value, without consuming it. kEnd when no value is pending (the top-level
  // value was consumed, or the caller has to call NextKey/NextElement). kError after an error; PeekType
  // itself fails with kTruncated at the end of the text and kSyntax at a byte that cannot start a value.
  // kBool/kNull/kNumber/kString are told by the first byte only; the read validates the rest.
  Type PeekType();
  // Consumes the pending value, whatever it is, validating it completely.
  bool SkipValue();
  // True iff the top-level value has been read completely and only whitespace follows. Never fails.
  bool AtEnd();
  // Like AtEnd(), but records an error when it is false: kUsage when the top-level value is not read
  // completely, kSyntax when something other than whitespace follows it.
  bool Finish();

  // --- Errors -------------------------------------------------------------------------------------
  bool ok() const { return error_.code == ErrorCode::kNone; }
  const Error& error() const { return error_; }
  // "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4"; without "path: " when
  // `path` is empty; "" when ok().
  std::string ErrorAt(std::string_view path) const;
  // Records a caller-detected error at the first byte of the value most recently consumed (or started,
  // for containers), unless an error is already recorded. Always returns false, so that
  // `return r.Fail(ErrorCode::kOutOfRange, "must be <= 256, got 300");` reads naturally. kNone is
  // recorded as kCaller.
  bool Fail(ErrorCode code, std::string_view message);
  // Same, at a byte offset of `text` (clamped to its size).
  bool FailAt(size_t offset, ErrorCode code, std::string_view message);

  // --- Position -----------------------------------------------------------------------------------
  // Of the cursor: the next byte not consumed (whitespace before the next token is not consumed yet).
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }
  size_t line() const { return LocationOf(offset()).line; }
  size_t column() const { return LocationOf(offset()).column; }
  // Offset of the first byte of the value most recently consumed or started.
  size_t value_offset() const { return static_cast<size_t>(value_start_ - begin_); }
  // Line and column of any offset of `text` (clamped to its size).
  Location LocationOf(size_t offset) const;
  int depth() const { return depth_; }

 private:
  struct NumberToken;

  bool StartValue();
  bool StartNumber(const char* expected, NumberToken* t);
  bool BeginContainer(char open);
  void Push(bool is_array);
  bool NextImpl(bool object, std::string_view* key);
  // The Scan* functions validate a token starting at `s` without moving the cursor; they record the
  // error and return false when it is malformed.
  bool ScanString(const char* s, std::string* buf, std::string_view* out, bool* had_escapes, const char** after);
  bool ScanEscape(const char** s, std::string* buf);
  bool ScanHex4(const char* s, const char* backslash, uint32_t* cp);
  bool ScanNumber(const char* s, NumberToken* t);
  bool ScanLiteral(const char* s, const char* word, size_t len);
  bool Mismatch(const char* expected);
  // Error recording. All return false; the first error wins. Kept out of line, so that the hot paths
  // that call them stay small.
  TMAPGEN_JSON_COLD bool SetError(ErrorCode code, const char* at, std::string message);
  TMAPGEN_JSON_COLD bool Fail0(ErrorCode code, const char* at, const char* message);
  // message = prefix + a description of what is at `got` [+ " (expected '<expected_word>')"].
  TMAPGEN_JSON_COLD bool FailGot(ErrorCode code, const char* at, const char* prefix, const char* got,
                                 const char* expected_word = nullptr);
  TMAPGEN_JSON_COLD bool FailDepth();
  // A control character (kSyntax) or a byte that starts no valid UTF-8 sequence (kBadUtf8) in a string.
  TMAPGEN_JSON_COLD bool FailStringByte(const char* at);

  const char* begin_;
  const char* end_;
  const char* p_;
  const char* value_start_;
  size_t first_line_;
  int max_depth_;
  int depth_ = 0;
  bool pending_ = true;  // a value is required next
  bool first_ = false;   // the innermost container has had no member/element yet
  std::bitset<kMaxDepthLimit + 1> is_array_;  // bit d: the container at depth d is an array
  Error error_;
  std::string key_buf_;
  std::string value_buf_;
  // Lazy position cache for LocationOf.
  mutable size_t loc_offset_ = 0;
  mutable size_t loc_line_ = 1;
  mutable size_t loc_column_ = 1;
};

// Splits a byte stream into lines for JSON Lines, fed in chunks of any size:
//
//   LineSplitter split;
//   while (ReadChunk(&chunk)) {          // any size, any boundary (even inside a CR LF)
//     split.Feed(chunk);
//     while (split.Next(&line, &line_no)) Handle(line, line_no);
//   }
//   split.Finish();                      // the last line may lack its LF
//   while (split.Next(&line, &line_no)) Handle(line, line_no);
//   if (split.line_too_long()) ...       // split.error_line() says which
//
// - A line ends at LF; one CR right before the LF (or before the end of the stream) is removed.
//   Lines holding only spaces, tabs and CRs are skipped but counted. Line numbers are 1-based.
// - Views: a line that lies inside the current chunk is returned as a view into it, so the chunk must
//   stay valid until Next() returns false; a line spanning chunks is assembled in an internal buffer.
//   Either view is valid until the next call to Next or Feed.
// - Feed() may be called before the previous chunk is drained; its unread part is then copied (and
//   the chunk need not stay valid). Feed() after Finish() is ignored.
// - Memory: when chunks are drained, at most one partial line is buffered. A line longer than
//   max_line_bytes (0: no limit; CR included, LF not) stops the splitter as soon as it is seen to be too
//   long, before its end: Next() returns false from then on and line_too_long() is true.
// - Cost: each byte is scanned for LF once (memchr) and copied at most once (when its line spans chunks).
class LineSplitter {
 public:
  static constexpr size_t kDefaultMaxLineBytes = size_t{64} << 20;  // 64 MiB

  explicit LineSplitter(size_t max_line_bytes = kDefaultMaxLineBytes);

  void Feed(std::string_view chunk);
  // Declares the end of the stream: a final line without LF is returned by the following Next() calls.
  void Finish();
  // The next non-blank line (without its LF / CR LF), and its 1-based number. False when more input is
  // needed (or, after Finish(), at the end; or after line_too_long()).
  bool Next(std::string_view* line, size_t* line_no);

  bool line_too_long() const { return too_long_; }
  // The number of the line that was too long (0 if none).
  size_t error_line() const { return error_line_; }
  // Number of line terminators (LF) seen so far by Next().
  size_t lines_seen() const { return line_no_; }

 private:
  bool Emit(std::string_view line, size_t number, std::string_view* out, size_t* line_no);
  bool TooLong(size_t len, size_t line_no);

  size_t max_line_bytes_;
  std::string carry_;     // bytes from earlier chunks; the part before carry_pos_ was already returned
  size_t carry_pos_ = 0;
  std::string_view chunk_;
  size_t chunk_pos_ = 0;  // start of the unread part of chunk_
  size_t line_no_ = 0;    // LFs consumed so far
  bool finished_ = false;
  bool too_long_ = false;
  size_t error_line_ = 0;
};

}  // namespace tmapgen::json

#undef TMAPGEN_JSON_COLD

#endif  // TMAPGEN_SRC_JSON_JSON_READER_H_
