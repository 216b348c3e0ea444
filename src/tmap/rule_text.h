// rule_text.h: the text of a rule's message, fix or field path, built on the stack.
//
// Contract
// - RuleText holds its bytes inline (kInline bytes); a longer text moves to a std::string once and goes on
//   growing there, so appending never truncates. Building one costs no allocation below kInline bytes.
// - TextCat(args...) makes a RuleText of its arguments in order: string literals and other char arrays
//   (up to their first NUL), const char*, std::string, std::string_view, absl::string_view, RuleText, char
//   (one character), and integers of any width and signedness except char (in decimal; signed char and
//   unsigned char are numbers, as with absl::StrCat).
// - The rule texts of src/tmap/rules/ return RuleText, so that explaining a finding (report.cc,
//   MakeDiagnostics) formats each text once, into the caller's stack, and copies it once into the
//   diagnostic's string, whose capacity a caller may reuse (docs/perf.md, "The validator next to the driver").
// - TextAppend(&text, args...) appends the same pieces to an existing RuleText.
// - RuleText converts to std::string_view (a view into it, valid while it lives) and, by str(), to std::string.
#ifndef TMAPGEN_SRC_TMAP_RULE_TEXT_H_
#define TMAPGEN_SRC_TMAP_RULE_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/string_view.h"

namespace tmapgen {

// TextCat and its pieces are inlined at every call so that a literal's length is a constant there and its
// copy a few moves (an out-of-line TextCat would call strlen and memcpy for every piece).
#define TMAPGEN_TEXT_INLINE inline __attribute__((always_inline))

class RuleText {
 public:
  static constexpr size_t kInline = 480;

  RuleText() = default;
  RuleText(const char* s) { Append(s, std::strlen(s)); }                 // NOLINT: implicit on purpose
  RuleText(std::string_view s) { Append(s.data(), s.size()); }           // NOLINT
  RuleText(const std::string& s) { Append(s.data(), s.size()); }         // NOLINT
  RuleText(const RuleText& o) { Append(o.data(), o.size()); }
  RuleText& operator=(const RuleText& o) {
    if (this != &o) {
      Clear();
      Append(o.data(), o.size());
    }
    return *this;
  }

  TMAPGEN_TEXT_INLINE void Append(const char* s, size_t n) {
    if (n <= kInline - size_) {  // never true for n > 0 once spilled (size_ is then kInline)
      if (n != 0) std::memcpy(buf_ + size_, s, n);
      size_ += n;
      return;
    }
    Spill(s, n);
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  void AppendChar(char c) { Append(&c, 1); }
  RuleText& operator+=(std::string_view s) {
    Append(s.data(), s.size());
    return *this;
  }
  RuleText& operator+=(const char* s) {
    Append(s, std::strlen(s));
    return *this;
  }
  RuleText& operator+=(char c) {
    AppendChar(c);
    return *this;
  }
  // Decimal digits, written in place (two at a time) when there is room, else through a small buffer.
  TMAPGEN_TEXT_INLINE void AppendDecimal(uint64_t v, bool negative) {
    if (kInline - size_ < 21) {  // also once spilled
      char tmp[21];
      const size_t n = WriteDecimal(v, negative, tmp);
      Append(tmp, n);
      return;
    }
    size_ += WriteDecimal(v, negative, buf_ + size_);
  }
  void Clear() {
    size_ = 0;
    spilled_ = false;
    heap_.clear();
  }

  const char* data() const { return spilled_ ? heap_.data() : buf_; }
  size_t size() const { return spilled_ ? heap_.size() : size_; }
  bool empty() const { return size() == 0; }
  std::string_view view() const { return std::string_view(data(), size()); }
  operator std::string_view() const { return view(); }  // NOLINT: implicit on purpose
  std::string str() const { return std::string(data(), size()); }
  bool operator==(std::string_view s) const { return view() == s; }
  bool operator!=(std::string_view s) const { return view() != s; }

 private:
  // Moves the text to heap_ (once) and appends there.
  void Spill(const char* s, size_t n) {
    if (!spilled_) {
      heap_.reserve(size_ + n > 2 * kInline ? size_ + n : 2 * kInline);
      heap_.assign(buf_, size_);
      spilled_ = true;
      size_ = kInline;  // no room left inline: every later piece comes here (one test per piece, not two)
    }
    heap_.append(s, n);
  }

  // Writes v (with a leading '-' when negative) at out, which has room for 21 bytes; returns its length.
  static TMAPGEN_TEXT_INLINE size_t WriteDecimal(uint64_t v, bool negative, char* out) {
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    static constexpr uint64_t kPow10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
                                            10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
                                            100000000000ull, 1000000000000ull, 10000000000000ull,
                                            100000000000000ull, 1000000000000000ull, 10000000000000000ull,
                                            100000000000000000ull, 1000000000000000000ull,
                                            10000000000000000000ull};
    const int bits = 64 - __builtin_clzll(v | 1);
    int digits = (bits * 1233) >> 12;  // floor(log10(2^bits)), then +1 unless v < 10^digits
    digits += v >= kPow10[digits] ? 1 : 0;
    if (digits == 0) digits = 1;
    char* p = out;
    if (negative) *p++ = '-';
    char* e = p + digits;
    while (v >= 100) {
      const uint64_t r = v % 100;
      v /= 100;
      e -= 2;
      std::memcpy(e, kPairs + 2 * r, 2);
    }
    if (v >= 10) {
      e -= 2;
      std::memcpy(e, kPairs + 2 * v, 2);
    } else {
      *--e = static_cast<char>('0' + v);
    }
    return static_cast<size_t>(p + digits - out);
  }

  size_t size_ = 0;
  bool spilled_ = false;
  std::string heap_;
  char buf_[kInline];
};

namespace rule_text_internal {

template <size_t N>
TMAPGEN_TEXT_INLINE void Put(RuleText* t, const char (&s)[N]) {
  t->Append(s, std::char_traits<char>::length(s));  // a literal's length folds to a constant when inlined
}
TMAPGEN_TEXT_INLINE void Put(RuleText* t, const char* s) { t->Append(s, std::strlen(s)); }
TMAPGEN_TEXT_INLINE void Put(RuleText* t, const std::string& s) { t->Append(s.data(), s.size()); }
TMAPGEN_TEXT_INLINE void Put(RuleText* t, std::string_view s) { t->Append(s.data(), s.size()); }
TMAPGEN_TEXT_INLINE void Put(RuleText* t, absl::string_view s) { t->Append(s.data(), s.size()); }
TMAPGEN_TEXT_INLINE void Put(RuleText* t, const RuleText& s) { t->Append(s.data(), s.size()); }
TMAPGEN_TEXT_INLINE void Put(RuleText* t, char c) { t->AppendChar(c); }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> &&
                                                  !std::is_same_v<T, bool>>>
TMAPGEN_TEXT_INLINE void Put(RuleText* t, T v) {
  if constexpr (std::is_signed_v<T>) {
    const bool neg = v < 0;
    const uint64_t u = neg ? 0 - static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
    t->AppendDecimal(u, neg);
  } else {
    t->AppendDecimal(static_cast<uint64_t>(v), false);
  }
}

}  // namespace rule_text_internal

template <typename... Args>
TMAPGEN_TEXT_INLINE RuleText TextCat(const Args&... args) {
  RuleText t;
  (rule_text_internal::Put(&t, args), ...);
  return t;
}

// TextAppend(&t, args...) appends to t what TextCat(args...) would make: one text built in place where its
// pieces depend on conditions, instead of temporaries (and std::strings) joined afterwards.
template <typename... Args>
TMAPGEN_TEXT_INLINE void TextAppend(RuleText* t, const Args&... args) {
  (rule_text_internal::Put(t, args), ...);
}

}  // namespace tmapgen

#undef TMAPGEN_TEXT_INLINE

#endif  // TMAPGEN_SRC_TMAP_RULE_TEXT_H_
