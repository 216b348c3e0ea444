// json_reader.cc: see json_reader.h for the contract.
#include "src/json/json_reader.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

namespace tmapgen::json {
namespace {

// Bytes that may appear in a string as they are, with nothing to check: 0x20..0x7F except '"' and '\\'.
struct PlainTable {
  bool v[256];
  constexpr PlainTable() : v() {
    for (int c = 0x20; c < 0x80; ++c) v[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;

inline bool IsPlain(char c) { return kPlain.v[static_cast<unsigned char>(c)]; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The first byte at or after s that is not plain (see kPlain), or end. Eight bytes at a time where the
// byte order allows it: a byte is flagged when it is '"', '\\', below 0x20 or above 0x7F. The lowest
// flagged byte is always a true one (the borrow of the subtraction only spoils bytes above a true
// match), so it can be located with a count of trailing zeros.
inline const char* SkipPlain(const char* s, const char* end) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  constexpr uint64_t k01 = 0x0101010101010101ull;
  constexpr uint64_t k80 = 0x8080808080808080ull;
  while (end - s >= 8) {
    uint64_t v;
    std::memcpy(&v, s, 8);
    const uint64_t q = v ^ (k01 * '"');
    const uint64_t b = v ^ (k01 * '\\');
    const uint64_t m = (((q - k01) & ~q) | ((b - k01) & ~b) | ((v - k01 * 0x20) & ~v) | v) & k80;
    if (m != 0) return s + (__builtin_ctzll(m) >> 3);
    s += 8;
  }
#endif
  while (s < end && IsPlain(*s)) ++s;
  return s;
}

inline const char* SkipWs(const char* p, const char* end) {
  while (p < end) {
    const char c = *p;
    if (c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) break;
    ++p;
  }
  return p;
}

// Length (2..4) of the valid UTF-8 sequence starting at s[0] >= 0x80, 0 if it is invalid, -1 if the
// text ends before the sequence does and what is there is a valid prefix.
int Utf8Length(const char* s, const char* end) {
  const unsigned c = static_cast<unsigned char>(s[0]);
  int n;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c == 0xE0) {
    n = 3, lo = 0xA0;
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    n = 3;
  } else if (c == 0xED) {
    n = 3, hi = 0x9F;  // no encoded surrogates
  } else if (c == 0xF0) {
    n = 4, lo = 0x90;  // no overlong forms
  } else if (c >= 0xF1 && c <= 0xF3) {
    n = 4;
  } else if (c == 0xF4) {
    n = 4, hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  for (int i = 1; i < n; ++i) {
    if (s + i == end) return -1;
    const unsigned b = static_cast<unsigned char>(s[i]);
    if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return n;
}

void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string HexByte(unsigned char b) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string s = "byte 0x";
  s.push_back(kDigits[b >> 4]);
  s.push_back(kDigits[b & 15]);
  return s;
}

std::string ToDecimal(uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, static_cast<size_t>(r.ptr - buf));
}

// What is at `at`, for "got ..." in messages: a short JSON excerpt or a description.
std::string Describe(const char* at, const char* end) {
  if (at >= end) return "end of input";
  const unsigned char c = static_cast<unsigned char>(*at);
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"': {
      // A short printable string is shown as written; anything else is just "a string".
      constexpr size_t kMax = 24;
      for (const char* s = at + 1; s < end && s <= at + kMax + 1; ++s) {
        const unsigned char b = static_cast<unsigned char>(*s);
        if (b == '"') return std::string(at, static_cast<size_t>(s + 1 - at));
        if (b < 0x20 || b > 0x7E || b == '\\') break;
      }
      return "a string";
    }
    default:
      break;
  }
  if (c == '-' || IsDigit(static_cast<char>(c))) {
    constexpr size_t kMax = 32;
    const char* s = at;
    while (s < end && (IsDigit(*s) || *s == '-' || *s == '+' || *s == '.' || *s == 'e' || *s == 'E')) ++s;
    const size_t n = static_cast<size_t>(s - at);
    if (n <= kMax) return std::string(at, n);
    return std::string(at, kMax - 3) + "...";
  }
  if (c >= 'a' && c <= 'z') {
    const char* s = at;
    while (s < end && s < at + 8 && *s >= 'a' && *s <= 'z') ++s;
    if (s < end && s == at + 8 && *s >= 'a' && *s <= 'z') return "'" + std::string(at, 8) + "...'";
    return "'" + std::string(at, static_cast<size_t>(s - at)) + "'";
  }
  if (c >= 0x20 && c <= 0x7E) return std::string("'") + static_cast<char>(c) + "'";
  if (c == 0xEF && end - at >= 3 && static_cast<unsigned char>(at[1]) == 0xBB &&
      static_cast<unsigned char>(at[2]) == 0xBF) {
    return "a UTF-8 byte order mark";
  }
  return HexByte(c);
}

enum class IntStatus { kOk, kNotInteger, kTooBig };

}  // namespace

// A number as written, split into its parts. The exponent saturates at +-kExpCap, far beyond where
// any conversion could care.
struct Reader::NumberToken {
  static constexpr int64_t kExpCap = int64_t{1} << 50;
  const char* begin = nullptr;
  const char* end = nullptr;
  bool negative = false;
  const char* int_begin = nullptr;
  const char* int_end = nullptr;
  const char* frac_begin = nullptr;
  const char* frac_end = nullptr;
  int64_t exp = 0;
  uint64_t int_value = 0;  // the integer digits, exact when there are at most 19 of them

  int64_t int_digits() const { return int_end - int_begin; }
  bool plain() const { return frac_begin == frac_end && exp == 0; }
  char Digit(int64_t k) const { return k < int_digits() ? int_begin[k] : frac_begin[k - int_digits()]; }

  // The magnitude of the exact value when it is an integer below 2^64. *high_place (may be null):
  // the power of ten of the leading nonzero digit (meaningless for zero, where *zero is set).
  IntStatus Magnitude(uint64_t* mag, int64_t* high_place = nullptr, bool* zero = nullptr) const {
    const int64_t n = int_digits() + (frac_end - frac_begin);
    int64_t k0 = 0;
    while (k0 < n && Digit(k0) == '0') ++k0;
    if (zero != nullptr) *zero = k0 == n;
    if (k0 == n) {
      *mag = 0;
      return IntStatus::kOk;
    }
    int64_t k1 = n - 1;
    while (Digit(k1) == '0') --k1;
    const int64_t low = int_digits() - 1 - k1 + exp;
    const int64_t high = int_digits() - 1 - k0 + exp;
    if (high_place != nullptr) *high_place = high;
    if (low < 0) return IntStatus::kNotInteger;
    if (high >= 20) return IntStatus::kTooBig;
    uint64_t v = 0;
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    for (int64_t k = k0; k <= k1; ++k) {
      const unsigned d = static_cast<unsigned>(Digit(k) - '0');
      if (v > (kMax - d) / 10) return IntStatus::kTooBig;
      v = v * 10 + d;
    }
    for (int64_t i = 0; i < low; ++i) {
      if (v > kMax / 10) return IntStatus::kTooBig;
      v *= 10;
    }
    *mag = v;
    return IntStatus::kOk;
  }
};

const char* TypeName(Type type) {
  switch (type) {
    case Type::kObject: return "object";
    case Type::kArray: return "array";
    case Type::kString: return "string";
    case Type::kNumber: return "number";
    case Type::kBool: return "bool";
    case Type::kNull: return "null";
    case Type::kEnd: return "end";
    case Type::kError: return "error";
  }
  return "?";
}

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNone: return "none";
    case ErrorCode::kSyntax: return "syntax";
    case ErrorCode::kUnexpectedType: return "unexpected_type";
    case ErrorCode::kOutOfRange: return "out_of_range";
    case ErrorCode::kNegative: return "negative";
    case ErrorCode::kNotInteger: return "not_integer";
    case ErrorCode::kTruncated: return "truncated";
    case ErrorCode::kDepthLimit: return "depth_limit";
    case ErrorCode::kBadEscape: return "bad_escape";
    case ErrorCode::kBadUtf8: return "bad_utf8";
    case ErrorCode::kUsage: return "usage";
    case ErrorCode::kCaller: return "caller";
  }
  return "?";
}

std::string Error::ToString() const {
  if (ok()) return std::string();
  return "line " + ToDecimal(line) + ", column " + ToDecimal(column) + ": " + message;
}

// ---------------------------------------------------------------------------------------------------
// Reader: setup, errors, positions.

Reader::Reader(std::string_view text, const ReaderOptions& options)
    : max_depth_(options.max_depth < 0 ? 0 : options.max_depth > kMaxDepthLimit ? kMaxDepthLimit
                                                                                : options.max_depth) {
  Reset(text, options.first_line);
}

void Reader::Reset(std::string_view text, size_t first_line) {
  begin_ = text.data() != nullptr ? text.data() : "";
  end_ = begin_ + text.size();
  p_ = value_start_ = begin_;
  first_line_ = first_line;
  depth_ = 0;
  pending_ = true;
  first_ = false;
  error_.code = ErrorCode::kNone;
  error_.message.clear();
  error_.line = error_.column = error_.offset = 0;
  loc_offset_ = 0;
  loc_line_ = first_line_;
  loc_column_ = 1;
}

Location Reader::LocationOf(size_t offset) const {
  const size_t size = static_cast<size_t>(end_ - begin_);
  if (offset > size) offset = size;
  if (offset < loc_offset_) {
    loc_offset_ = 0;
    loc_line_ = first_line_;
    loc_column_ = 1;
  }
  for (const char* s = begin_ + loc_offset_; s < begin_ + offset; ++s) {
    if (*s == '\n') {
      ++loc_line_;
      loc_column_ = 1;
    } else if ((static_cast<unsigned char>(*s) & 0xC0) != 0x80) {
      ++loc_column_;
    }
  }
  loc_offset_ = offset;
  Location loc;
  loc.line = loc_line_;
  loc.column = loc_column_;
  loc.offset = offset;
  return loc;
}

bool Reader::Fail0(ErrorCode code, const char* at, const char* message) {
  return SetError(code, at, std::string(message));
}

bool Reader::FailGot(ErrorCode code, const char* at, const char* prefix, const char* got, const char* expected_word) {
  std::string message = prefix + Describe(got, end_);
  if (expected_word != nullptr) message = message + " (expected '" + expected_word + "')";
  return SetError(code, at, std::move(message));
}

bool Reader::FailStringByte(const char* at) {
  const unsigned char c = static_cast<unsigned char>(*at);
  if (c >= 0x20) return SetError(ErrorCode::kBadUtf8, at, "invalid UTF-8 in a string (" + HexByte(c) + ")");
  static const char kDigits[] = "0123456789ABCDEF";
  std::string msg = "control character U+00";
  msg.push_back(kDigits[c >> 4]);
  msg.push_back(kDigits[c & 15]);
  msg += " in a string must be escaped";
  return SetError(ErrorCode::kSyntax, at, std::move(msg));
}

bool Reader::FailDepth() {
  return SetError(ErrorCode::kDepthLimit, p_,
                  "objects and arrays nested deeper than the limit of " + ToDecimal(static_cast<uint64_t>(max_depth_)));
}

bool Reader::SetError(ErrorCode code, const char* at, std::string message) {
  if (!ok()) return false;
  const Location loc = LocationOf(static_cast<size_t>(at - begin_));
  error_.code = code;
  error_.message = std::move(message);
  error_.line = loc.line;
  error_.column = loc.column;
  error_.offset = loc.offset;
  return false;
}

std::string Reader::ErrorAt(std::string_view path) const {
  if (ok()) return std::string();
  std::string s = "line " + ToDecimal(error_.line) + ", column " + ToDecimal(error_.column) + ": ";
  if (!path.empty()) {
    s.append(path.data(), path.size());
    s += ": ";
  }
  s += error_.message;
  return s;
}

bool Reader::Fail(ErrorCode code, std::string_view message) {
  return FailAt(value_offset(), code, message);
}

bool Reader::FailAt(size_t offset, ErrorCode code, std::string_view message) {
  const size_t size = static_cast<size_t>(end_ - begin_);
  if (offset > size) offset = size;
  if (code == ErrorCode::kNone) code = ErrorCode::kCaller;
  return SetError(code, begin_ + offset, std::string(message));
}

// ---------------------------------------------------------------------------------------------------
// Tokens.

bool Reader::StartValue() {
  if (!ok()) return false;
  if (!pending_) {
    return Fail0(ErrorCode::kUsage, p_,
                 depth_ == 0 ? "the top-level value has already been read"
                             : "no value is pending here: call NextKey/NextElement first");
  }
  p_ = SkipWs(p_, end_);
  value_start_ = p_;
  if (p_ == end_) return Fail0(ErrorCode::kTruncated, p_, "unexpected end of input, expected a value");
  return true;
}

bool Reader::ScanString(const char* s, std::string* buf, std::string_view* out, bool* had_escapes,
                        const char** after) {
  const char* const start = ++s;  // past the opening quote
  const char* run = s;            // start of the part not yet copied into *buf
  bool escaped = false;
  for (;;) {
    s = SkipPlain(s, end_);
    if (s == end_) return Fail0(ErrorCode::kTruncated, s, "unexpected end of input in a string");
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"') break;
    if (c == '\\') {
      if (buf != nullptr) {
        if (!escaped) buf->clear();
        buf->append(run, static_cast<size_t>(s - run));
      }
      escaped = true;
      if (!ScanEscape(&s, buf)) return false;
      run = s;
    } else if (c < 0x20) {
      return FailStringByte(s);
    } else {
      const int n = Utf8Length(s, end_);
      if (n < 0) return Fail0(ErrorCode::kTruncated, end_, "unexpected end of input in a string");
      if (n == 0) return FailStringByte(s);
      s += n;
    }
  }
  if (escaped && buf != nullptr) {
    buf->append(run, static_cast<size_t>(s - run));
    *out = *buf;
  } else {
    *out = std::string_view(start, static_cast<size_t>(s - start));
  }
  if (had_escapes != nullptr) *had_escapes = escaped;
  *after = s + 1;
  return true;
}

bool Reader::ScanHex4(const char* s, const char* backslash, uint32_t* cp) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    if (s + i == end_) return Fail0(ErrorCode::kTruncated, end_, "unexpected end of input in a string");
    const int h = HexValue(s[i]);
    if (h < 0) return Fail0(ErrorCode::kBadEscape, backslash, "invalid \\u escape: expected 4 hex digits");
    v = v * 16 + static_cast<uint32_t>(h);
  }
  *cp = v;
  return true;
}

bool Reader::ScanEscape(const char** ps, std::string* buf) {
  const char* const bs = *ps;
  if (bs + 1 == end_) return Fail0(ErrorCode::kTruncated, end_, "unexpected end of input in a string");
  char decoded;
  switch (bs[1]) {
    case '"': decoded = '"'; break;
    case '\\': decoded = '\\'; break;
    case '/': decoded = '/'; break;
    case 'b': decoded = '\b'; break;
    case 'f': decoded = '\f'; break;
    case 'n': decoded = '\n'; break;
    case 'r': decoded = '\r'; break;
    case 't': decoded = '\t'; break;
    case 'u': {
      uint32_t cp;
      if (!ScanHex4(bs + 2, bs, &cp)) return false;
      const char* s = bs + 6;
      if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return SetError(ErrorCode::kBadEscape, bs, "unpaired UTF-16 low surrogate " + std::string(bs, 6));
      }
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (s == end_ || (*s == '\\' && s + 1 == end_)) {
          return Fail0(ErrorCode::kTruncated, end_, "unexpected end of input in a string");
        }
        if (s[0] != '\\' || s[1] != 'u') {
          return SetError(ErrorCode::kBadEscape, bs, "unpaired UTF-16 high surrogate " + std::string(bs, 6));
        }
        uint32_t low;
        if (!ScanHex4(s + 2, s, &low)) return false;
        if (low < 0xDC00 || low > 0xDFFF) {
          return SetError(ErrorCode::kBadEscape, bs,
                          "UTF-16 high surrogate " + std::string(bs, 6) + " is not followed by a low surrogate");
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        s += 6;
      }
      if (buf != nullptr) AppendUtf8(buf, cp);
      *ps = s;
      return true;
    }
    default: {
      const unsigned char e = static_cast<unsigned char>(bs[1]);
      std::string what = e >= 0x20 && e <= 0x7E ? std::string("'\\") + bs[1] + "'" : "\\ followed by " + HexByte(e);
      return SetError(ErrorCode::kBadEscape, bs, "invalid escape " + what);
    }
  }
  if (buf != nullptr) buf->push_back(decoded);
  *ps = bs + 2;
  return true;
}

bool Reader::ScanNumber(const char* s, NumberToken* t) {
  t->begin = s;
  t->negative = *s == '-';
  if (t->negative) ++s;
  if (s == end_) return Fail0(ErrorCode::kTruncated, s, "unexpected end of input in a number");
  if (!IsDigit(*s)) return FailGot(ErrorCode::kSyntax, s, "expected a digit after '-', got ", s);
  t->int_begin = s;
  uint64_t v = 0;
  if (*s == '0') {
    ++s;
    if (s < end_ && IsDigit(*s)) return Fail0(ErrorCode::kSyntax, s - 1, "leading zeros are not allowed in numbers");
  } else {
    do {
      v = v * 10 + static_cast<unsigned>(*s - '0');  // wraps harmlessly beyond 19 digits
      ++s;
    } while (s < end_ && IsDigit(*s));
  }
  t->int_end = s;
  t->int_value = v;
  t->frac_begin = t->frac_end = s;
  if (s < end_ && *s == '.') {
    ++s;
    if (s == end_) return Fail0(ErrorCode::kTruncated, s, "unexpected end of input in a number");
    if (!IsDigit(*s)) {
      return FailGot(ErrorCode::kSyntax, s, "expected a digit after the decimal point, got ", s);
    }
    t->frac_begin = s;
    while (s < end_ && IsDigit(*s)) ++s;
    t->frac_end = s;
  }
  t->exp = 0;
  if (s < end_ && (*s == 'e' || *s == 'E')) {
    ++s;
    bool exp_negative = false;
    if (s < end_ && (*s == '+' || *s == '-')) exp_negative = *s++ == '-';
    if (s == end_) return Fail0(ErrorCode::kTruncated, s, "unexpected end of input in a number");
    if (!IsDigit(*s)) return FailGot(ErrorCode::kSyntax, s, "expected a digit in the exponent, got ", s);
    int64_t e = 0;
    do {
      if (e < NumberToken::kExpCap) e = e * 10 + (*s - '0');
      ++s;
    } while (s < end_ && IsDigit(*s));
    if (e > NumberToken::kExpCap) e = NumberToken::kExpCap;
    t->exp = exp_negative ? -e : e;
  }
  t->end = s;
  return true;
}

bool Reader::ScanLiteral(const char* s, const char* word, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    if (s + i == end_) return Fail0(ErrorCode::kTruncated, end_, "unexpected end of input in a literal");
    if (s[i] != word[i]) return FailGot(ErrorCode::kSyntax, s, "invalid literal ", s, word);
  }
  return true;
}

// p_ is at a value that is not what the caller asked for. A malformed scalar is reported as such; a
// well-formed one, or a container, as kUnexpectedType.
bool Reader::Mismatch(const char* expected) {
  const char* s = p_;
  const char* after;
  switch (*s) {
    case '{':
    case '[':
      break;
    case '"': {
      std::string_view v;
      if (!ScanString(s, nullptr, &v, nullptr, &after)) return false;
      break;
    }
    case 't':
      if (!ScanLiteral(s, "true", 4)) return false;
      break;
    case 'f':
      if (!ScanLiteral(s, "false", 5)) return false;
      break;
    case 'n':
      if (!ScanLiteral(s, "null", 4)) return false;
      break;
    default:
      if (*s == '-' || IsDigit(*s)) {
        NumberToken t;
        if (!ScanNumber(s, &t)) return false;
        break;
      }
      return SetError(ErrorCode::kSyntax, s, std::string("expected ") + expected + ", got " + Describe(s, end_));
  }
  return SetError(ErrorCode::kUnexpectedType, s, std::string("expected ") + expected + ", got " + Describe(s, end_));
}

// ---------------------------------------------------------------------------------------------------
// Containers.

void Reader::Push(bool is_array) {
  ++depth_;
  is_array_[static_cast<size_t>(depth_)] = is_array;
  first_ = true;
  pending_ = false;
}

bool Reader::BeginContainer(char open) {
  if (!StartValue()) return false;
  if (*p_ != open) return Mismatch(open == '{' ? "an object" : "an array");
  if (depth_ >= max_depth_) {
    return FailDepth();
  }
  ++p_;
  Push(open == '[');
  return true;
}

bool Reader::BeginObject() { return BeginContainer('{'); }
bool Reader::BeginArray() { return BeginContainer('['); }

bool Reader::NextKey(std::string_view* key) { return NextImpl(true, key); }
bool Reader::NextElement() { return NextImpl(false, nullptr); }

bool Reader::NextImpl(bool object, std::string_view* key) {
  if (!ok()) return false;
  if (depth_ == 0 || is_array_[static_cast<size_t>(depth_)] == object) {
    return Fail0(ErrorCode::kUsage, p_, object ? "NextKey called outside an object" : "NextElement called outside an array");
  }
  if (pending_ && !SkipValue()) return false;
  const char close = object ? '}' : ']';
  const char* s = SkipWs(p_, end_);
  if (s == end_) {
    return Fail0(ErrorCode::kTruncated, s, object ? "unexpected end of input in an object" : "unexpected end of input in an array");
  }
  if (*s == close) {
    p_ = s + 1;
    --depth_;
    first_ = false;
    return false;
  }
  if (!first_) {
    if (*s != ',') {
      return FailGot(ErrorCode::kSyntax, s,
                     object ? "expected ',' or '}' after an object member, got " : "expected ',' or ']' after an array element, got ", s);
    }
    const char* comma = s;
    s = SkipWs(s + 1, end_);
    if (s == end_) {
      return Fail0(ErrorCode::kTruncated, s, object ? "unexpected end of input in an object" : "unexpected end of input in an array");
    }
    if (*s == close) return Fail0(ErrorCode::kSyntax, comma, object ? "trailing comma before '}'" : "trailing comma before ']'");
  }
  first_ = false;
  if (object) {
    if (*s != '"') return FailGot(ErrorCode::kSyntax, s, "expected a string key, got ", s);
    // The key as (pointer, size) rather than a string_view whose address is taken: storing it in two
    // halves and loading it whole would stall store forwarding on the hot path.
    const char* key_data;
    size_t key_size;
    const char* q = SkipPlain(s + 1, end_);
    if (q < end_ && *q == '"') {  // the common case: nothing to unescape or validate
      key_data = s + 1;
      key_size = static_cast<size_t>(q - s - 1);
      s = q + 1;
    } else {
      std::string_view k;
      if (!ScanString(s, key != nullptr ? &key_buf_ : nullptr, &k, nullptr, &s)) return false;
      key_data = k.data();
      key_size = k.size();
    }
    s = SkipWs(s, end_);
    if (s == end_) return Fail0(ErrorCode::kTruncated, s, "unexpected end of input in an object");
    if (*s != ':') return FailGot(ErrorCode::kSyntax, s, "expected ':' after an object key, got ", s);
    ++s;
    if (key != nullptr) *key = std::string_view(key_data, key_size);
  }
  p_ = s;
  pending_ = true;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Scalars.

bool Reader::ReadString(std::string* out) {
  if (!StartValue()) return false;
  if (*p_ != '"') return Mismatch("a string");
  std::string_view v;
  bool escaped;
  const char* after;
  if (!ScanString(p_, out, &v, &escaped, &after)) return false;
  if (!escaped) out->assign(v.data(), v.size());
  p_ = after;
  pending_ = false;
  return true;
}

bool Reader::ReadStringView(std::string_view* out, bool* had_escapes) {
  if (!StartValue()) return false;
  if (*p_ != '"') return Mismatch("a string");
  const char* q = SkipPlain(p_ + 1, end_);
  if (q < end_ && *q == '"') {  // the common case: nothing to unescape or validate
    *out = std::string_view(p_ + 1, static_cast<size_t>(q - p_ - 1));
    if (had_escapes != nullptr) *had_escapes = false;
    p_ = q + 1;
    pending_ = false;
    return true;
  }
  const char* after;
  if (!ScanString(p_, &value_buf_, out, had_escapes, &after)) return false;
  p_ = after;
  pending_ = false;
  return true;
}

bool Reader::StartNumber(const char* expected, NumberToken* t) {
  if (!StartValue()) return false;
  if (*p_ != '-' && !IsDigit(*p_)) return Mismatch(expected);
  if (!ScanNumber(p_, t)) return false;
  p_ = t->end;
  pending_ = false;
  return true;
}

bool Reader::ReadUint64(uint64_t* out) {
  NumberToken t;
  if (!StartNumber("an unsigned integer", &t)) return false;
  if (!t.negative && t.plain() && t.int_digits() <= 19) {
    *out = t.int_value;
    return true;
  }
  uint64_t mag;
  const IntStatus st = t.Magnitude(&mag);
  if (st == IntStatus::kNotInteger) return FailGot(ErrorCode::kNotInteger, t.begin, "expected an unsigned integer, got ", t.begin);
  if (t.negative && (st == IntStatus::kTooBig || mag != 0)) {
    return FailGot(ErrorCode::kNegative, t.begin, "expected an unsigned integer, got ", t.begin);
  }
  if (st == IntStatus::kTooBig) {
    return FailGot(ErrorCode::kOutOfRange, t.begin, "expected an unsigned integer <= 18446744073709551615, got ", t.begin);
  }
  *out = mag;
  return true;
}

bool Reader::ReadInt64(int64_t* out) {
  NumberToken t;
  if (!StartNumber("an integer", &t)) return false;
  if (t.plain() && t.int_digits() <= 18) {
    const int64_t v = static_cast<int64_t>(t.int_value);
    *out = t.negative ? -v : v;
    return true;
  }
  uint64_t mag;
  const IntStatus st = t.Magnitude(&mag);
  if (st == IntStatus::kNotInteger) return FailGot(ErrorCode::kNotInteger, t.begin, "expected an integer, got ", t.begin);
  constexpr uint64_t kMaxPos = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (st == IntStatus::kTooBig || mag > kMaxPos + (t.negative ? 1 : 0)) {
    return FailGot(ErrorCode::kOutOfRange, t.begin,
                   "expected an integer in [-9223372036854775808, 9223372036854775807], got ", t.begin);
  }
  if (!t.negative) {
    *out = static_cast<int64_t>(mag);
  } else if (mag == kMaxPos + 1) {
    *out = std::numeric_limits<int64_t>::min();
  } else {
    *out = -static_cast<int64_t>(mag);
  }
  return true;
}

bool Reader::ReadDouble(double* out) {
  NumberToken t;
  if (!StartNumber("a number", &t)) return false;
  double d = 0;
  const auto r = std::from_chars(t.begin, t.end, d, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range) {
    uint64_t mag;
    int64_t high = 0;
    bool zero = false;
    t.Magnitude(&mag, &high, &zero);
    if (!zero && high >= 0) {
      return FailGot(ErrorCode::kOutOfRange, t.begin, "expected a number within the range of a double, got ", t.begin);
    }
    d = t.negative ? -0.0 : 0.0;  // underflow rounds to zero
  } else if (r.ec != std::errc() || r.ptr != t.end) {
    // Cannot happen for a token that passed ScanNumber; kept so that a library quirk is an error, not UB.
    return FailGot(ErrorCode::kSyntax, t.begin, "malformed number ", t.begin);
  }
  *out = d;
  return true;
}

bool Reader::ReadNumberText(std::string_view* out) {
  NumberToken t;
  if (!StartNumber("a number", &t)) return false;
  *out = std::string_view(t.begin, static_cast<size_t>(t.end - t.begin));
  return true;
}

bool Reader::ReadBool(bool* out) {
  if (!StartValue()) return false;
  if (*p_ == 't') {
    if (!ScanLiteral(p_, "true", 4)) return false;
    p_ += 4;
    *out = true;
  } else if (*p_ == 'f') {
    if (!ScanLiteral(p_, "false", 5)) return false;
    p_ += 5;
    *out = false;
  } else {
    return Mismatch("a boolean");
  }
  pending_ = false;
  return true;
}

bool Reader::ReadNull() {
  if (!StartValue()) return false;
  if (*p_ != 'n') return Mismatch("null");
  if (!ScanLiteral(p_, "null", 4)) return false;
  p_ += 4;
  pending_ = false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Generic.

Type Reader::PeekType() {
  if (!ok()) return Type::kError;
  if (!pending_) return Type::kEnd;
  p_ = SkipWs(p_, end_);
  if (p_ == end_) {
    Fail0(ErrorCode::kTruncated, p_, "unexpected end of input, expected a value");
    return Type::kError;
  }
  switch (*p_) {
    case '{': return Type::kObject;
    case '[': return Type::kArray;
    case '"': return Type::kString;
    case 't':
    case 'f': return Type::kBool;
    case 'n': return Type::kNull;
    default:
      if (*p_ == '-' || IsDigit(*p_)) return Type::kNumber;
      FailGot(ErrorCode::kSyntax, p_, "expected a value, got ", p_);
      return Type::kError;
  }
}

bool Reader::SkipValue() {
  if (!StartValue()) return false;
  const char* const start = p_;
  const int base = depth_;
  for (;;) {
    if (pending_) {
      if (!StartValue()) return false;
      const char* s = p_;
      const char* after = nullptr;
      switch (*s) {
        case '{':
        case '[':
          if (!BeginContainer(*s)) return false;
          continue;
        case '"': {
          std::string_view v;
          if (!ScanString(s, nullptr, &v, nullptr, &after)) return false;
          break;
        }
        case 't':
          if (!ScanLiteral(s, "true", 4)) return false;
          after = s + 4;
          break;
        case 'f':
          if (!ScanLiteral(s, "false", 5)) return false;
          after = s + 5;
          break;
        case 'n':
          if (!ScanLiteral(s, "null", 4)) return false;
          after = s + 4;
          break;
        default: {
          if (*s != '-' && !IsDigit(*s)) {
            return FailGot(ErrorCode::kSyntax, s, "expected a value, got ", s);
          }
          NumberToken t;
          if (!ScanNumber(s, &t)) return false;
          after = t.end;
          break;
        }
      }
      p_ = after;
      pending_ = false;
    } else if (depth_ == base) {
      value_start_ = start;
      return true;
    } else if (!NextImpl(!is_array_[static_cast<size_t>(depth_)], nullptr) && !ok()) {
      return false;
    }
  }
}

bool Reader::AtEnd() {
  if (!ok() || depth_ != 0 || pending_) return false;
  p_ = SkipWs(p_, end_);
  return p_ == end_;
}

bool Reader::Finish() {
  if (!ok()) return false;
  if (depth_ != 0 || pending_) {
    return Fail0(ErrorCode::kUsage, p_, "Finish called before the JSON value was read completely");
  }
  p_ = SkipWs(p_, end_);
  if (p_ != end_) return FailGot(ErrorCode::kSyntax, p_, "unexpected text after the JSON value: ", p_);
  return true;
}

// ---------------------------------------------------------------------------------------------------
// LineSplitter.

LineSplitter::LineSplitter(size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

void LineSplitter::Feed(std::string_view chunk) {
  if (finished_ || too_long_) return;
  if (chunk_pos_ < chunk_.size()) {  // the previous chunk was not drained: keep its rest
    if (carry_pos_ > 0) {
      carry_.erase(0, carry_pos_);
      carry_pos_ = 0;
    }
    carry_.append(chunk_.data() + chunk_pos_, chunk_.size() - chunk_pos_);
  }
  chunk_ = chunk;
  chunk_pos_ = 0;
}

void LineSplitter::Finish() { finished_ = true; }

bool LineSplitter::TooLong(size_t len, size_t line_no) {
  if (max_line_bytes_ == 0 || len <= max_line_bytes_) return false;
  too_long_ = true;
  error_line_ = line_no;
  return true;
}

bool LineSplitter::Emit(std::string_view line, size_t number, std::string_view* out, size_t* line_no) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (const char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') {
      *out = line;
      *line_no = number;
      return true;
    }
  }
  return false;  // blank
}

bool LineSplitter::Next(std::string_view* line, size_t* line_no) {
  while (!too_long_) {
    if (carry_pos_ < carry_.size()) {
      // Complete lines left in the carry (only after Feed on an undrained chunk).
      const size_t nl = carry_.find('\n', carry_pos_);
      if (nl != std::string::npos) {
        const std::string_view l(carry_.data() + carry_pos_, nl - carry_pos_);
        carry_pos_ = nl + 1;
        ++line_no_;
        if (TooLong(l.size(), line_no_)) return false;
        if (Emit(l, line_no_, line, line_no)) return true;
        continue;
      }
      // A partial line: complete it from the chunk.
      if (carry_pos_ > 0) {
        carry_.erase(0, carry_pos_);
        carry_pos_ = 0;
      }
      if (chunk_pos_ < chunk_.size()) {
        const char* from = chunk_.data() + chunk_pos_;
        const size_t rest = chunk_.size() - chunk_pos_;
        const void* hit = std::memchr(from, '\n', rest);
        const size_t n = hit != nullptr ? static_cast<size_t>(static_cast<const char*>(hit) - from) : rest;
        if (TooLong(carry_.size() + n, line_no_ + 1)) return false;
        carry_.append(from, n);
        if (hit != nullptr) {
          chunk_pos_ += n + 1;
          ++line_no_;
          carry_pos_ = carry_.size();  // returned; erased by the next call
          if (Emit(carry_, line_no_, line, line_no)) return true;
          continue;
        }
        chunk_pos_ = chunk_.size();
      }
      if (!finished_) return false;
      carry_pos_ = carry_.size();  // the final line, without LF
      return Emit(carry_, line_no_ + 1, line, line_no);
    }
    carry_.clear();
    carry_pos_ = 0;
    if (chunk_pos_ >= chunk_.size()) return false;
    const char* from = chunk_.data() + chunk_pos_;
    const size_t rest = chunk_.size() - chunk_pos_;
    const void* hit = std::memchr(from, '\n', rest);
    if (hit == nullptr) {
      // A partial line: keep it (the chunk may go away) and loop to wait for, or finish, the rest.
      if (TooLong(rest, line_no_ + 1)) return false;
      carry_.assign(from, rest);
      chunk_pos_ = chunk_.size();
      continue;
    }
    const size_t n = static_cast<size_t>(static_cast<const char*>(hit) - from);
    chunk_pos_ += n + 1;
    ++line_no_;
    if (TooLong(n, line_no_)) return false;
    if (Emit(std::string_view(from, n), line_no_, line, line_no)) return true;
  }
  return false;
}

}  // namespace tmapgen::json
