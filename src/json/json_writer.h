// json_writer.h: builds JSON text (RFC 8259), compact or pretty-printed, fast enough for a report per spec.
//
// Contract
// - `Writer` appends one JSON value (usually an object) to an internal buffer; commas, colons and, in
//   pretty mode, newlines and indentation are inserted automatically. No I/O, no exceptions.
// - Output is deterministic: the same calls give the same bytes on every platform.
//   * Compact: no whitespace at all: {"a":1,"b":[true,null]}
//   * Pretty: each member/element on its own line, indented 2 spaces per level, ": " after keys, empty
//     containers as {} and [], no trailing newline.
// - Strings (values and keys): '"' and '\' are escaped, so are control characters (\b \f \n \r \t in
//   their short forms, the others as \u00XX with lowercase hex). Everything else, including '/', DEL
//   and valid multi-byte UTF-8, is copied as it is. A byte that does not begin a valid UTF-8 sequence
//   (RFC 3629: no overlong forms, surrogates or code points above U+10FFFF) is replaced by U+FFFD, one
//   replacement per such byte, so the output is always valid UTF-8.
// - Numbers: Uint/Int in decimal. Double in the shortest form that reads back as the same double
//   (std::to_chars), always as a number that reads as a double (with a '.' or an exponent): 0.1 -> 0.1,
//   1e20 -> 1e+20, 100.0 -> 100.0, -0.0 -> -0.0, -2.9e20 -> -2.9264432341861722e+20. NaN and infinities
//   have no JSON form: they are written as null and recorded as an error.
// - Misuse (a value inside an object without a Key, Key outside an object or twice in a row, EndObject
//   closing an array or nothing, a second top-level value) is recorded: ok() turns false, error() says
//   what happened first, and the offending call is otherwise ignored. Once !ok(), the text is not
//   guaranteed to be valid JSON. complete() is true when the value is whole and nothing went wrong.
// - Output written by Writer is read back by simdjson to the same values (strings byte for byte when
//   they were valid UTF-8; doubles bit for bit, -0.0 included): tests/json/json_writer_test.cc.
//
// Why tmapgen writes JSON itself (docs/design.md, "Dependencies"): simdjson 3.0.1 (Debian) reads only;
// the JSON report must stay byte-stable (docs/json-report.md); and the report writer is on the hot path
// of `tmapgen validate` (docs/perf.md): one buffer written through a pointer, a string with nothing to
// escape checked and stored in whole 16- or 32-byte blocks (SSE2), integers written two digits at a time
// (decimal::WriteDecimal, src/util/decimal.h), the common calls inline.
//
// Complexity: each call is amortized O(size of what it writes). Nesting depth is unbounded (one byte
// of state per open container).
#ifndef TMAPGEN_SRC_JSON_JSON_WRITER_H_
#define TMAPGEN_SRC_JSON_JSON_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "src/util/decimal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define TMAPGEN_JSON_LIKELY(x) __builtin_expect(!!(x), 1)
#define TMAPGEN_JSON_COLD __attribute__((noinline, cold))
#define TMAPGEN_JSON_INLINE inline __attribute__((always_inline))
#else
#define TMAPGEN_JSON_LIKELY(x) (x)
#define TMAPGEN_JSON_COLD
#define TMAPGEN_JSON_INLINE inline
#endif

namespace tmapgen::json {

struct WriterOptions {
  bool pretty = false;  // newlines and 2-space indentation
};

class Writer {
 public:
  Writer() = default;
  explicit Writer(const WriterOptions& options) : pretty_(options.pretty) {}
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  Writer& BeginObject() { return Open('{'); }
  Writer& EndObject() { return Close('}'); }
  Writer& BeginArray() { return Open('['); }
  Writer& EndArray() { return Close(']'); }
  // The key of the next member; only inside an object, and followed by exactly one value.
  Writer& Key(std::string_view key) {
    if (!TMAPGEN_JSON_LIKELY(top_ == '{' && !key_pending_)) return KeyMisuse();
    char* p = Reserve(QuotedBound(key.size()) + 4 + Indent());
    if (has_items_) *p++ = ',';
    if (pretty_) p = Newline(p, stack_.size());
    has_items_ = true;
    p = Quote(p, key);
    *p++ = ':';
    if (pretty_) *p++ = ' ';
    len_ = static_cast<size_t>(p - buf_.get());
    key_pending_ = true;
    return *this;
  }

  // Keys and values written as string literals ("index"): the same, with the length known at compile
  // time, so that a short literal is checked and copied in a few instructions.
  template <size_t N>
  TMAPGEN_JSON_INLINE Writer& Key(const char (&key)[N]) {  // inlined: each call site sees its literal
    static_assert(N >= 1, "a string literal");
    if constexpr (N - 1 > kShort) {
      return Key(std::string_view(key, N - 1));
    } else {
      if (!TMAPGEN_JSON_LIKELY(top_ == '{' && !key_pending_)) return KeyMisuse();
      char* p = Reserve(QuotedBound(N - 1) + 4 + Indent());
      if (has_items_) *p++ = ',';
      if (pretty_) p = Newline(p, stack_.size());
      has_items_ = true;
      p = QuoteShort<N - 1>(p, key);
      *p++ = ':';
      if (pretty_) *p++ = ' ';
      len_ = static_cast<size_t>(p - buf_.get());
      key_pending_ = true;
      return *this;
    }
  }
  template <size_t N>
  TMAPGEN_JSON_INLINE Writer& String(const char (&value)[N]) {
    static_assert(N >= 1, "a string literal");
    if constexpr (N - 1 > kShort) {
      return String(std::string_view(value, N - 1));
    } else {
      char* p = BeforeValue(QuotedBound(N - 1), "String");
      if (p != nullptr) len_ = static_cast<size_t>(QuoteShort<N - 1>(p, value) - buf_.get());
      return *this;
    }
  }

  Writer& String(std::string_view value) {
    char* p = BeforeValue(QuotedBound(value.size()), "String");
    if (p != nullptr) len_ = static_cast<size_t>(Quote(p, value) - buf_.get());
    return *this;
  }
  Writer& Uint(uint64_t value);
  Writer& Int(int64_t value);
  Writer& Double(double value);
  Writer& Bool(bool value) { return Raw(value ? std::string_view("true") : std::string_view("false"), "Bool"); }
  Writer& Null() { return Raw("null", "Null"); }

  // No misuse so far.
  bool ok() const { return error_.empty(); }
  // The first misuse, "" if none.
  const std::string& error() const { return error_; }
  // ok(), one top-level value written, every container closed.
  bool complete() const { return ok() && done_ && stack_.empty(); }

  // The text so far, without a copy; valid until the next call that writes or clears.
  std::string_view view() const { return std::string_view(buf_.get(), len_); }
  // The text so far as a std::string (a copy kept by the writer; valid until the next str() or Clear()).
  const std::string& str() const;
  // Moves the text out and resets the writer (keeping its options).
  std::string Take();
  // Resets the writer, keeping its options and the buffer's capacity (for writing JSON Lines).
  void Clear();
  // JSON Lines in one buffer: appends '\n' after the value written so far and readies the writer for
  // the next top-level value, keeping the text (view() holds every line) and forgetting any misuse.
  void EndLine() {
    char* p = Reserve(1);
    *p = '\n';
    ++len_;
    stack_.clear();
    top_ = 0;
    if (!TMAPGEN_JSON_LIKELY(error_.empty())) error_.clear();
    has_items_ = key_pending_ = done_ = false;
  }
  // Bytes written so far.
  size_t size() const { return len_; }

  // Appends `value` to *out as a JSON string literal, quotes included, escaped as described above.
  static void AppendQuoted(std::string_view value, std::string* out);

  // Low level, for writers of a fixed shape that build a compact value themselves (WriteSpecJson):
  // QuoteTo writes `value` quoted and escaped as above at p, which has room for QuotedBound(value.size())
  // bytes, and returns the end; RawValue appends `json`, one complete compact JSON value, as the next
  // value (its text is not checked). pretty() says whether the writer indents (then a raw value would not).
  static char* QuoteTo(char* p, std::string_view value) { return Quote(p, value); }
  static size_t QuotedBound(size_t n) { return 6 * n + 2 + 32; }
  Writer& RawValue(std::string_view json) { return Raw(json, "RawValue"); }
  // The same without a copy: RawBegin(bound) returns where the next value (at most `bound` bytes of one
  // complete compact JSON value) goes, in the writer's own buffer, or nullptr on misuse (then write
  // nothing); RawEnd(end) takes the value written up to `end`. Nothing else may be called in between.
  char* RawBegin(size_t bound) { return BeforeValue(bound, "RawValue"); }
  void RawEnd(char* end) { len_ = static_cast<size_t>(end - buf_.get()); }
  // Members of the innermost open object written the same way (the report, src/report/report.cc): in compact
  // mode, inside an object that has a member already and no Key pending, MembersBegin(bound) returns where
  // the next members go (room for `bound` bytes); the caller writes each as ,"key":value (compact JSON,
  // strings escaped as above) and ends with RawEnd(end); the object stays open. Otherwise (pretty, or not
  // at such a place) it returns nullptr and records nothing: then use Key calls. RawMore(end, bound), between
  // the two, keeps what was written up to `end` and returns room for `bound` bytes more after it (the buffer
  // may move: pointers into it from before are invalid).
  char* MembersBegin(size_t bound) {
    if (!TMAPGEN_JSON_LIKELY(top_ == '{' && has_items_ && !key_pending_ && !pretty_)) return nullptr;
    return Reserve(bound);
  }
  char* RawMore(char* end, size_t bound) {
    len_ = static_cast<size_t>(end - buf_.get());
    return Reserve(bound);
  }
  bool pretty() const { return pretty_; }

 private:
  // QuotedBound (above): the room a quoted string of n bytes needs: each byte at most 6 ("\u001f"), the
  // quotes, and 32 bytes of slack (Quote stores 16 or 32 bytes at a time, and a short string's 32-byte
  // block whole).
  // Writes the quoted, escaped `s` at p (room for QuotedBound(s.size()) bytes); returns the end.
  static char* Quote(char* p, std::string_view s);
  // The same for n <= kShort bytes whose n is a compile-time constant where it is inlined: the bytes
  // are copied whole and checked at once; only a string that needs escaping takes Quote.
  static constexpr size_t kShort = 24;
  template <size_t n>
  TMAPGEN_JSON_INLINE static char* QuoteShort(char* p, const char* s) {
    static_assert(n <= kShort, "short");
    // A literal seen at its call site (Key and String are inlined): its check folds to a constant and
    // its bytes are stored as immediates. Otherwise (the compiler could not fold it) the check below.
    if (__builtin_constant_p(PlainBytes<n>(s)) && PlainBytes<n>(s)) {
      *p = '"';
      std::memcpy(p + 1, s, n);
      p[n + 1] = '"';
      return p + n + 2;
    }
    // The n bytes (a compile-time constant) go to a 32-byte block with fixed-size copies and are checked
    // there at once; bytes past n are ignored.
    unsigned char block[32] = {};
    std::memcpy(block, s, n);
    bool plain = IsPlainBlock(block, n);
    if (!TMAPGEN_JSON_LIKELY(plain)) return Quote(p, std::string_view(s, n));
    *p = '"';
    std::memcpy(p + 1, block, n);
    p[n + 1] = '"';
    return p + n + 2;
  }
  // Whether n bytes need no escaping, byte by byte (for constant folding only; see QuoteShort).
  template <size_t n>
  TMAPGEN_JSON_INLINE static bool PlainBytes(const char* s) {
    bool plain = true;
    for (size_t i = 0; i < n; ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      plain = plain && c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    }
    return plain;
  }
  // Whether the first n (<= 32) bytes of block need no escaping: 0x20..0x7F except '"' and '\\'.
  static bool IsPlainBlock(const unsigned char* block, size_t n) {
#if defined(__SSE2__)
    unsigned mask = 0;
    for (int half = 0; half < 2; ++half) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * half));
      const __m128i special = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                                           _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                                        _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
      mask |= static_cast<unsigned>(_mm_movemask_epi8(special)) << (16 * half);
    }
    const unsigned live = n >= 32 ? ~0u : (1u << n) - 1;
    return (mask & live) == 0;
#else
    bool plain = true;
    for (size_t i = 0; i < n; ++i) {
      const unsigned char c = block[i];
      plain &= c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    }
    return plain;
#endif
  }
  size_t Indent() const { return pretty_ ? 2 * stack_.size() + 3 : 0; }

  // Room for n more bytes; returns where to write them.
  char* Reserve(size_t n) {
    if (TMAPGEN_JSON_LIKELY(cap_ - len_ >= n)) return buf_.get() + len_;
    return Grow(n);
  }
  TMAPGEN_JSON_COLD char* Grow(size_t n);
  static char* Newline(char* p, size_t depth) {
    *p++ = '\n';
    std::memset(p, ' ', 2 * depth);
    return p + 2 * depth;
  }

  // Checks that a value may come here (else records the misuse and returns nullptr), writes the comma
  // and indentation it needs, and returns where the value (of at most n bytes) goes.
  char* BeforeValue(size_t n, const char* what) {
    if (TMAPGEN_JSON_LIKELY(top_ != 0)) {
      if (top_ == '{') {
        if (!TMAPGEN_JSON_LIKELY(key_pending_)) return ValueMisuse(what);
        key_pending_ = false;
        return Reserve(n);
      }
      char* p = Reserve(n + 1 + Indent());
      if (has_items_) *p++ = ',';
      if (pretty_) p = Newline(p, stack_.size());
      has_items_ = true;
      return p;
    }
    if (done_) return ValueMisuse(what);
    done_ = true;
    return Reserve(n);
  }
  Writer& Raw(std::string_view text, const char* what) {
    char* p = BeforeValue(text.size(), what);
    if (p != nullptr) {
      std::memcpy(p, text.data(), text.size());
      len_ = static_cast<size_t>(p + text.size() - buf_.get());
    }
    return *this;
  }
  // Inline: a report opens and closes a few dozen containers. Misuse goes to the cold CloseMisuse.
  Writer& Open(char bracket) {
    char* p = BeforeValue(1, bracket == '{' ? "BeginObject" : "BeginArray");
    if (p == nullptr) return *this;
    *p++ = bracket;
    len_ = static_cast<size_t>(p - buf_.get());
    stack_.push_back(bracket);
    top_ = bracket;
    has_items_ = false;
    return *this;
  }
  Writer& Close(char bracket) {
    if (!TMAPGEN_JSON_LIKELY(top_ == (bracket == '}' ? '{' : '[') && !key_pending_)) return CloseMisuse(bracket);
    stack_.pop_back();
    top_ = stack_.empty() ? 0 : stack_.back();
    char* p = Reserve(2 + Indent());
    if (pretty_ && has_items_) p = Newline(p, stack_.size());
    *p++ = bracket;
    len_ = static_cast<size_t>(p - buf_.get());
    has_items_ = true;
    return *this;
  }
  TMAPGEN_JSON_COLD Writer& CloseMisuse(char bracket);

  TMAPGEN_JSON_COLD char* ValueMisuse(const char* what);
  TMAPGEN_JSON_COLD Writer& KeyMisuse();
  TMAPGEN_JSON_COLD bool Misuse(std::string message);

  std::unique_ptr<char[]> buf_;
  size_t len_ = 0;
  size_t cap_ = 0;
  // One entry per open container: '{' or '['.
  std::vector<char> stack_;
  char top_ = 0;  // stack_.back(), 0 when empty (checked by every call)
  std::string error_;
  mutable std::string str_;  // what str() returned
  bool pretty_ = false;
  bool has_items_ = false;    // the innermost open container has at least one member/element
  bool key_pending_ = false;  // inside an object, a Key was written and its value not yet
  bool done_ = false;         // the top-level value has been started
};

// A cursor for writers of a fixed shape (WriteSpecJson, the report's derived facts): compact JSON text
// written through a pointer into room the caller reserved, then handed to Writer::RawValue. Lit copies a
// literal as it is (keys, punctuation: the caller's literals must be valid JSON text); Str quotes and
// escapes as Writer does (room: Writer::QuotedBound); U and I write integers (room: 21 bytes).
class RawText {
 public:
  explicit RawText(char* p) : p_(p) {}
  // Text in w's buffer (from RawBegin or MembersBegin) whose room can grow: Room(n) asks for n bytes more.
  RawText(Writer* w, char* p) : p_(p), w_(w) {}
  void Room(size_t n) { p_ = w_->RawMore(p_, n); }
  template <size_t N>
  void Lit(const char (&text)[N]) {
    std::memcpy(p_, text, N - 1);
    p_ += N - 1;
  }
  void Str(std::string_view v) { p_ = Writer::QuoteTo(p_, v); }
  // A string that needs no escaping (tmapgen's own names: Name(), FullName(); tests/json check them all),
  // quoted and copied as it is (room: v.size() + 2 + 32).
  void Plain(std::string_view v) {
    *p_ = '"';
    CopySmall(p_ + 1, v.data(), v.size());
    p_[v.size() + 1] = '"';
    p_ += v.size() + 2;
  }
  // v as the string "0x" followed by lowercase hex digits without leading zeros ("0x0" for 0), quoted:
  // the bytes of StrCat("0x", absl::Hex(v)) (room: 20 bytes).
  void HexStr(uint64_t v) {
    const int digits = v == 0 ? 1 : (67 - __builtin_clzll(v)) / 4;
    p_[0] = '"', p_[1] = '0', p_[2] = 'x';
    char* d = p_ + 3 + digits;
    *d = '"';
    for (int i = 0; i < digits; ++i, v >>= 4) *--d = "0123456789abcdef"[v & 15];
    p_ += digits + 4;
  }
  void U(uint64_t v) { p_ = decimal::WriteDecimal(v, false, p_); }
  void I(int64_t v) { p_ = decimal::WriteSigned(v, p_); }
  template <typename T>
  void Arr(const T* v, uint32_t n) {
    *p_++ = '[';
    for (uint32_t i = 0; i < n; ++i) {
      if (i) *p_++ = ',';
      if constexpr (std::is_signed_v<T>) I(v[i]); else U(v[i]);
    }
    *p_++ = ']';
  }
  char* end() const { return p_; }

 private:
  // n bytes from s to d with fixed-size moves that stay inside [s, s + n) (no call to memcpy for n <= 32;
  // d has room for 32 bytes more than n anyway).
  static void CopySmall(char* d, const char* s, size_t n) {
    if (n >= 16 && n <= 32) {
      std::memcpy(d, s, 16);
      std::memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8 && n < 16) {
      std::memcpy(d, s, 8);
      std::memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
      std::memcpy(d, s, 4);
      std::memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0 && n < 4) {
      d[0] = s[0];
      d[n / 2] = s[n / 2];
      d[n - 1] = s[n - 1];
    } else if (n > 32) {
      std::memcpy(d, s, n);
    }
  }
  char* p_;
  Writer* w_ = nullptr;  // for Room
};

}  // namespace tmapgen::json

#undef TMAPGEN_JSON_LIKELY
#undef TMAPGEN_JSON_COLD
#undef TMAPGEN_JSON_INLINE

#endif  // TMAPGEN_SRC_JSON_JSON_WRITER_H_
