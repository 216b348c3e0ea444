// text_util.h: small text helpers shared by the parsers and the report writers.
#ifndef TMAPGEN_SRC_UTIL_TEXT_UTIL_H_
#define TMAPGEN_SRC_UTIL_TEXT_UTIL_H_

#include <cstddef>
#include <string_view>

namespace tmapgen {

// ASCII case-insensitive equality (enum names, flags). No locale.
constexpr bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// ANSI colors for text reports; every accessor returns "" when `on` is false.
struct TermColors {
  bool on;
  const char* red() const { return on ? "\033[31m" : ""; }
  const char* yellow() const { return on ? "\033[33m" : ""; }
  const char* green() const { return on ? "\033[32m" : ""; }
  const char* blue() const { return on ? "\033[36m" : ""; }
  const char* bold() const { return on ? "\033[1m" : ""; }
  const char* dim() const { return on ? "\033[2m" : ""; }
  const char* off() const { return on ? "\033[0m" : ""; }
};

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_TEXT_UTIL_H_
