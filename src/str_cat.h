// str_cat.h: Cat(a, b, ...) concatenates strings, string_views, chars and integers into a std::string.
// A tiny stand-in for absl::StrCat so that the core builds with the standard library alone.
#ifndef TMAPGEN_SRC_STR_CAT_H_
#define TMAPGEN_SRC_STR_CAT_H_

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace tmapgen {
namespace internal_cat {

inline void Append(std::string* out, std::string_view s) { out->append(s.data(), s.size()); }
inline void Append(std::string* out, const char* s) { out->append(s); }
inline void Append(std::string* out, const std::string& s) { out->append(s); }
inline void Append(std::string* out, char c) { out->push_back(c); }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> &&
                                                  !std::is_same_v<T, bool>>>
void Append(std::string* out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace internal_cat

template <typename... Args>
std::string Cat(const Args&... args) {
  std::string out;
  (internal_cat::Append(&out, args), ...);
  return out;
}

// "0x" followed by lowercase hex digits.
inline std::string Hex(uint64_t v) {
  char buf[20];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, 16);
  return "0x" + std::string(buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_STR_CAT_H_
