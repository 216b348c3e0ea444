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

  void Append(const char* s, size_t n) {
    if (!spilled_ && n <= kInline - size_) {
      if (n != 0) std::memcpy(buf_ + size_, s, n);
      size_ += n;
      return;
    }
    Spill(s, n);
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  void AppendChar(char c) { Append(&c, 1); }
  void AppendDecimal(uint64_t v, bool negative) {
    char tmp[21];
    char* end = tmp + sizeof tmp;
    char* p = end;
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    if (negative) *--p = '-';
    Append(p, static_cast<size_t>(end - p));
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
    }
    heap_.append(s, n);
  }

  size_t size_ = 0;
  bool spilled_ = false;
  std::string heap_;
  char buf_[kInline];
};

namespace rule_text_internal {

template <size_t N>
inline void Put(RuleText* t, const char (&s)[N]) {
  t->Append(s, std::char_traits<char>::length(s));  // a literal's length folds to a constant when inlined
}
inline void Put(RuleText* t, const char* s) { t->Append(s, std::strlen(s)); }
inline void Put(RuleText* t, const std::string& s) { t->Append(s.data(), s.size()); }
inline void Put(RuleText* t, std::string_view s) { t->Append(s.data(), s.size()); }
inline void Put(RuleText* t, absl::string_view s) { t->Append(s.data(), s.size()); }
inline void Put(RuleText* t, const RuleText& s) { t->Append(s.data(), s.size()); }
inline void Put(RuleText* t, char c) { t->AppendChar(c); }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> &&
                                                  !std::is_same_v<T, bool>>>
inline void Put(RuleText* t, T v) {
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
RuleText TextCat(const Args&... args) {
  RuleText t;
  (rule_text_internal::Put(&t, args), ...);
  return t;
}

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_RULE_TEXT_H_
