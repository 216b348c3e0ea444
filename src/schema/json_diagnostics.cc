// json_diagnostics.cc: see json_diagnostics.h for the contract.
#include "src/schema/json_diagnostics.h"

#include <limits>
#include <vector>

#include "src/util/strings.h"

namespace tmapgen::json {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string ByteName(unsigned char b) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string s = "byte 0x";
  s.push_back(kHex[b >> 4]);
  s.push_back(kHex[b & 15]);
  return s;
}

// Length (2..4) of the valid UTF-8 sequence at s[0] >= 0x80; 0 when it is not valid (overlong forms,
// encoded surrogates, code points above U+10FFFF, stray continuation bytes); -1 when the text ends inside
// what would otherwise be a valid sequence.
int Utf8Length(std::string_view s) {
  const unsigned c = static_cast<unsigned char>(s[0]);
  int n = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  for (int i = 1; i < n; ++i) {
    if (static_cast<size_t>(i) >= s.size()) return -1;
    const unsigned b = static_cast<unsigned char>(s[static_cast<size_t>(i)]);
    if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return n;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The strict scanner behind FindSyntaxError: one pass, an explicit stack, the first error wins.
class Scanner {
 public:
  Scanner(std::string_view text, int max_depth) : t_(text), max_depth_(max_depth < 0 ? 0 : max_depth) {}

  std::optional<SyntaxError> Run() {
    size_t p = SkipWs(0);
    if (p == t_.size()) return Error(p, "unexpected end of input, expected a value");
    for (;;) {
      // A value starts at p (whitespace skipped, not at the end).
      const char c = t_[p];
      if (c == '{' || c == '[') {
        if (static_cast<int>(stack_.size()) >= max_depth_)
          return Error(p, StrCat("objects and arrays nested deeper than the limit of ", max_depth_));
        stack_.push_back(Frame{c == '[', {}, 0});
        p = SkipWs(p + 1);
        if (p == t_.size()) return Truncated();
        if (t_[p] == (c == '[' ? ']' : '}')) {
          stack_.pop_back();
          ++p;
        } else if (c == '{') {
          if (!Key(&p)) return error_;
          continue;
        } else {
          continue;
        }
      } else if (c == '"') {
        if (!String(&p)) return error_;
      } else if (c == '-' || IsDigit(c)) {
        if (!Number(&p)) return error_;
      } else if (c == 't' || c == 'f' || c == 'n') {
        if (!Literal(&p, c == 't' ? "true" : c == 'f' ? "false" : "null")) return error_;
      } else {
        return Error(p, StrCat("expected a value, got ", Describe(t_, p)));
      }
      // After a value.
      for (;;) {
        p = SkipWs(p);
        if (stack_.empty()) {
          if (p != t_.size()) return Error(p, StrCat("unexpected text after the JSON value: ", Describe(t_, p)));
          return std::nullopt;
        }
        Frame& f = stack_.back();
        const char close = f.is_array ? ']' : '}';
        if (p == t_.size()) return Truncated();
        if (t_[p] == close) {
          stack_.pop_back();
          ++p;
          continue;
        }
        if (t_[p] != ',') {
          return Error(p,
                       StrCat(f.is_array ? "expected ',' or ']' after an array element, got "
                                         : "expected ',' or '}' after an object member, got ",
                              Describe(t_, p)),
                       true);
        }
        const size_t comma = p;
        p = SkipWs(p + 1);
        if (p == t_.size()) return Truncated();
        if (t_[p] == close)
          return Error(comma, f.is_array ? "trailing comma before ']'" : "trailing comma before '}'", true);
        if (f.is_array) {
          ++f.index;
        } else if (!Key(&p)) {
          return error_;
        }
        break;  // a value follows
      }
    }
  }

 private:
  struct Frame {
    bool is_array;
    std::string_view key;  // objects: the key of the member being read, as written
    size_t index;          // arrays: the element being read
  };

  size_t SkipWs(size_t p) const {
    while (p < t_.size() && IsSpace(t_[p])) ++p;
    return p;
  }

  // The path of the value being read ("global_dim[1]": member keys and array indices), or with
  // `container` that of the innermost object or array ("global_dim"), for errors between its members.
  std::string Path(bool container) const {
    std::string s;
    const size_t n = container && !stack_.empty() ? stack_.size() - 1 : stack_.size();
    for (size_t i = 0; i < n; ++i) {
      const Frame& f = stack_[i];
      if (f.is_array) StrAppend(&s, "[", f.index, "]");
      else if (!f.key.empty()) StrAppend(&s, s.empty() ? "" : ".", f.key);
    }
    return s;
  }

  std::optional<SyntaxError> Error(size_t at, std::string message, bool container = false) {
    error_ = SyntaxError{at, std::move(message), Path(container)};
    return error_;
  }
  bool Fail(size_t at, std::string message) {
    Error(at, std::move(message));
    return false;
  }
  std::optional<SyntaxError> Truncated() {
    return Error(t_.size(),
                 stack_.back().is_array ? "unexpected end of input in an array" : "unexpected end of input in an object",
                 true);
  }

  // At a member's key (whitespace skipped): the key, ':' and the whitespace before the value.
  bool Key(size_t* p) {
    Frame& f = stack_.back();
    f.key = std::string_view();
    if (t_[*p] != '"') return Fail(*p, StrCat("expected a string key, got ", Describe(t_, *p)));
    const size_t start = *p;
    if (!String(p)) return false;
    const std::string_view key = t_.substr(start + 1, *p - start - 2);
    *p = SkipWs(*p);
    if (*p == t_.size()) {
      Truncated();
      return false;
    }
    if (t_[*p] != ':') return Fail(*p, StrCat("expected ':' after an object key, got ", Describe(t_, *p)));
    f.key = key;
    *p = SkipWs(*p + 1);
    if (*p == t_.size()) return Fail(*p, "unexpected end of input, expected a value");
    return true;
  }

  bool Hex4(size_t at, size_t backslash, uint32_t* cp) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) {
      if (at + i >= t_.size()) return Fail(t_.size(), "unexpected end of input in a string");
      const int h = HexValue(t_[at + i]);
      if (h < 0) return Fail(backslash, "invalid \\u escape: expected 4 hex digits");
      v = v * 16 + static_cast<uint32_t>(h);
    }
    *cp = v;
    return true;
  }

  // At the opening quote; on success *p is past the closing one.
  bool String(size_t* p) {
    size_t q = *p + 1;
    for (;;) {
      if (q >= t_.size()) return Fail(t_.size(), "unexpected end of input in a string");
      const unsigned char c = static_cast<unsigned char>(t_[q]);
      if (c == '"') {
        *p = q + 1;
        return true;
      }
      if (c == '\\') {
        if (q + 1 >= t_.size()) return Fail(t_.size(), "unexpected end of input in a string");
        const char e = t_[q + 1];
        if (e == 'u') {
          uint32_t cp = 0;
          if (!Hex4(q + 2, q, &cp)) return false;
          const std::string_view written = t_.substr(q, 6);
          if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail(q, StrCat("unpaired UTF-16 low surrogate ", written));
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            const size_t s = q + 6;
            if (s >= t_.size() || (t_[s] == '\\' && s + 1 >= t_.size()))
              return Fail(t_.size(), "unexpected end of input in a string");
            if (t_[s] != '\\' || t_[s + 1] != 'u') return Fail(q, StrCat("unpaired UTF-16 high surrogate ", written));
            uint32_t low = 0;
            if (!Hex4(s + 2, s, &low)) return false;
            if (low < 0xDC00 || low > 0xDFFF)
              return Fail(q, StrCat("UTF-16 high surrogate ", written, " is not followed by a low surrogate"));
            q += 6;
          }
          q += 6;
          continue;
        }
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          q += 2;
          continue;
        }
        const unsigned char u = static_cast<unsigned char>(e);
        return Fail(q, u >= 0x20 && u <= 0x7E ? StrCat("invalid escape '\\", e, "'")
                                             : StrCat("invalid escape: \\ followed by ", ByteName(u)));
      }
      if (c < 0x20) {
        static const char kHex[] = "0123456789ABCDEF";
        return Fail(q, StrCat("control character U+00", kHex[c >> 4], kHex[c & 15], " in a string must be escaped"));
      }
      if (c >= 0x80) {
        const int n = Utf8Length(t_.substr(q));
        if (n < 0) return Fail(t_.size(), "unexpected end of input in a string");
        if (n == 0) return Fail(q, StrCat("invalid UTF-8 in a string (", ByteName(c), ")"));
        q += static_cast<size_t>(n);
        continue;
      }
      ++q;
    }
  }

  bool Number(size_t* p) {
    size_t q = *p;
    if (t_[q] == '-') ++q;
    if (q == t_.size()) return Fail(q, "unexpected end of input in a number");
    if (!IsDigit(t_[q])) return Fail(q, StrCat("expected a digit after '-', got ", Describe(t_, q)));
    if (t_[q] == '0') {
      ++q;
      if (q < t_.size() && IsDigit(t_[q])) return Fail(q - 1, "leading zeros are not allowed in numbers");
    } else {
      while (q < t_.size() && IsDigit(t_[q])) ++q;
    }
    if (q < t_.size() && t_[q] == '.') {
      ++q;
      if (q == t_.size()) return Fail(q, "unexpected end of input in a number");
      if (!IsDigit(t_[q])) return Fail(q, StrCat("expected a digit after the decimal point, got ", Describe(t_, q)));
      while (q < t_.size() && IsDigit(t_[q])) ++q;
    }
    if (q < t_.size() && (t_[q] == 'e' || t_[q] == 'E')) {
      ++q;
      if (q < t_.size() && (t_[q] == '+' || t_[q] == '-')) ++q;
      if (q == t_.size()) return Fail(q, "unexpected end of input in a number");
      if (!IsDigit(t_[q])) return Fail(q, StrCat("expected a digit in the exponent, got ", Describe(t_, q)));
      while (q < t_.size() && IsDigit(t_[q])) ++q;
    }
    *p = q;
    return true;
  }

  bool Literal(size_t* p, std::string_view word) {
    for (size_t i = 0; i < word.size(); ++i) {
      if (*p + i >= t_.size()) return Fail(t_.size(), "unexpected end of input in a literal");
      if (t_[*p + i] != word[i])
        return Fail(*p, StrCat("invalid literal ", Describe(t_, *p), " (expected '", word, "')"));
    }
    *p += word.size();
    return true;
  }

  std::string_view t_;
  int max_depth_;
  std::vector<Frame> stack_;
  SyntaxError error_;
};

}  // namespace

TextPos PositionOf(std::string_view text, size_t offset, TextPos base) {
  if (offset > text.size()) offset = text.size();
  TextPos pos = base;
  for (size_t i = 0; i < offset; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++pos.column;
    }
  }
  return pos;
}

std::string Describe(std::string_view text, size_t offset) {
  if (offset >= text.size()) return "end of input";
  const std::string_view s = text.substr(offset);
  const unsigned char c = static_cast<unsigned char>(s[0]);
  if (c == '{') return "an object";
  if (c == '[') return "an array";
  if (c == '"') {
    // A short printable string is shown as written; anything else is "a string".
    constexpr size_t kMax = 24;
    for (size_t i = 1; i < s.size() && i <= kMax + 1; ++i) {
      const unsigned char b = static_cast<unsigned char>(s[i]);
      if (b == '"') return std::string(s.substr(0, i + 1));
      if (b < 0x20 || b > 0x7E || b == '\\') break;
    }
    return "a string";
  }
  if (c == '-' || IsDigit(static_cast<char>(c))) {
    constexpr size_t kMax = 32;
    size_t n = 0;
    while (n < s.size() && (IsDigit(s[n]) || s[n] == '-' || s[n] == '+' || s[n] == '.' || s[n] == 'e' || s[n] == 'E')) ++n;
    if (n <= kMax) return std::string(s.substr(0, n));
    return StrCat(s.substr(0, kMax - 3), "...");
  }
  if (c >= 'a' && c <= 'z') {
    size_t n = 0;
    while (n < s.size() && n < 8 && s[n] >= 'a' && s[n] <= 'z') ++n;
    if (n == 8 && n < s.size() && s[n] >= 'a' && s[n] <= 'z') return StrCat("'", s.substr(0, 8), "...'");
    return StrCat("'", s.substr(0, n), "'");
  }
  if (c >= 0x20 && c <= 0x7E) return StrCat("'", static_cast<char>(c), "'");
  if (s.size() >= 3 && c == 0xEF && static_cast<unsigned char>(s[1]) == 0xBB && static_cast<unsigned char>(s[2]) == 0xBF)
    return "a UTF-8 byte order mark";
  return ByteName(c);
}

size_t NumberLength(std::string_view s) {
  size_t q = 0;
  if (q < s.size() && s[q] == '-') ++q;
  if (q == s.size() || !IsDigit(s[q])) return 0;
  if (s[q] == '0') {
    ++q;
  } else {
    while (q < s.size() && IsDigit(s[q])) ++q;
  }
  if (q + 1 < s.size() && s[q] == '.' && IsDigit(s[q + 1])) {
    q += 2;
    while (q < s.size() && IsDigit(s[q])) ++q;
  }
  if (q < s.size() && (s[q] == 'e' || s[q] == 'E')) {
    size_t e = q + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    if (e < s.size() && IsDigit(s[e])) {
      q = e;
      while (q < s.size() && IsDigit(s[q])) ++q;
    }
  }
  return q;
}

IntegerClass ExactInteger(std::string_view token, uint64_t* magnitude, bool* negative) {
  if (token.empty() || NumberLength(token) != token.size()) return IntegerClass::kNotNumber;
  *negative = token[0] == '-';
  size_t q = *negative ? 1 : 0;
  const size_t int_begin = q;
  while (q < token.size() && IsDigit(token[q])) ++q;
  const size_t int_end = q;
  size_t frac_begin = q, frac_end = q;
  if (q < token.size() && token[q] == '.') {
    frac_begin = ++q;
    while (q < token.size() && IsDigit(token[q])) ++q;
    frac_end = q;
  }
  // The exponent, saturated far beyond any place that matters (20 digits).
  constexpr int64_t kCap = int64_t{1} << 40;
  int64_t exp = 0;
  if (q < token.size()) {
    ++q;  // 'e' or 'E'
    bool exp_negative = false;
    if (token[q] == '+' || token[q] == '-') exp_negative = token[q++] == '-';
    for (; q < token.size(); ++q)
      if (exp < kCap) exp = exp * 10 + (token[q] - '0');
    if (exp > kCap) exp = kCap;
    if (exp_negative) exp = -exp;
  }
  // The digits int||frac with value digits x 10^(exp - frac length).
  const std::string_view ip = token.substr(int_begin, int_end - int_begin);
  const std::string_view fp = token.substr(frac_begin, frac_end - frac_begin);
  auto digit = [&](size_t k) { return k < ip.size() ? ip[k] : fp[k - ip.size()]; };
  const size_t n = ip.size() + fp.size();
  size_t first = 0;
  while (first < n && digit(first) == '0') ++first;
  if (first == n) {
    *magnitude = 0;
    return IntegerClass::kOk;
  }
  size_t last = n;  // one past the last nonzero digit
  while (digit(last - 1) == '0') --last;
  // Value = digits[first, last) x 10^scale.
  const int64_t scale = exp - static_cast<int64_t>(fp.size()) + static_cast<int64_t>(n - last);
  if (scale < 0) return IntegerClass::kNotInteger;
  if (static_cast<int64_t>(last - first) + scale > 20) return IntegerClass::kTooBig;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t v = 0;
  for (size_t k = first; k < last; ++k) {
    const unsigned d = static_cast<unsigned>(digit(k) - '0');
    if (v > (kMax - d) / 10) return IntegerClass::kTooBig;
    v = v * 10 + d;
  }
  for (int64_t i = 0; i < scale; ++i) {
    if (v > kMax / 10) return IntegerClass::kTooBig;
    v *= 10;
  }
  *magnitude = v;
  return IntegerClass::kOk;
}

std::optional<SyntaxError> FindSyntaxError(std::string_view text, int max_depth) {
  return Scanner(text, max_depth).Run();
}

}  // namespace tmapgen::json
