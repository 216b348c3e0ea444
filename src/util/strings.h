// strings.h: string building for the whole project, on Abseil.
//
// StrCat / StrAppend are absl::StrCat / absl::StrAppend (integers, floats, absl::Hex, absl::Dec,
// strings, C strings) that also take std::string_view and char. The one reason this header exists:
// Debian's Abseil (libabsl-dev 20220623, the build gRPC links) is compiled with
// ABSL_OPTION_USE_STD_STRING_VIEW 0, so absl::string_view is its own class and absl::StrCat does not
// accept the std::string_view the rest of tmapgen (and simdjson) use. Each argument is adapted at the
// call and the work is Abseil's. docs/design.md, "Dependencies".
#ifndef TMAPGEN_SRC_UTIL_STRINGS_H_
#define TMAPGEN_SRC_UTIL_STRINGS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tmapgen {
namespace strings_internal {

template <typename T>
decltype(auto) Arg(const T& v) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return absl::string_view(v.data(), v.size());
  } else if constexpr (std::is_same_v<T, char>) {
    return absl::string_view(&v, 1);  // points at the caller's argument, alive for the whole call
  } else {
    return (v);
  }
}

}  // namespace strings_internal

template <typename... Args>
std::string StrCat(const Args&... args) {
  return absl::StrCat(strings_internal::Arg(args)...);
}

template <typename... Args>
void StrAppend(std::string* out, const Args&... args) {
  absl::StrAppend(out, strings_internal::Arg(args)...);
}

// std::string_view <-> absl::string_view at the boundary (see above).
inline absl::string_view ToAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }
inline std::string_view FromAbsl(absl::string_view s) { return std::string_view(s.data(), s.size()); }

// "0x" followed by lowercase hex digits, the form addresses and descriptor values take in reports.
inline std::string Hex(uint64_t v) { return absl::StrCat("0x", absl::Hex(v)); }

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_STRINGS_H_
