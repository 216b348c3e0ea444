// strings.h: string building for the whole project, on Abseil.
//
// StrCat / StrAppend take what absl::StrCat / absl::StrAppend take (integers, floats, absl::Hex,
// absl::Dec, strings, C strings) and also std::string_view and char. Two reasons this header exists:
// - Debian's Abseil (libabsl-dev 20220623, the build gRPC links) is compiled with
//   ABSL_OPTION_USE_STD_STRING_VIEW 0, so absl::string_view is its own class and absl::StrCat does not
//   accept the std::string_view the rest of tmapgen (and simdjson) use. Each argument is adapted at the
//   call. docs/design.md, "Dependencies".
// - Speed: absl formats each argument into an absl::AlphaNum, and so do we, but absl then sizes the
//   result with STLStringResizeUninitialized, which under libstdc++ is a plain resize() that zero-fills
//   the string before the pieces are copied over it (and more than four arguments go through an
//   initializer_list). Here the pieces are joined in a stack buffer and the result is made in one
//   allocation (docs/lab/perf-history.md, section 12, has the instruction counts).
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

// The pieces joined (src/util/strings.cc): summed, copied into a stack buffer, then into the result in
// one allocation; longer results are reserve()d and appended. Out of line on purpose, so that a call
// site holds only the pieces (what is inlined into the rule table stays small).
std::string ConcatPieces(const absl::AlphaNum* pieces, size_t n);
void AppendPieces(std::string* out, const absl::AlphaNum* pieces, size_t n);

}  // namespace strings_internal

template <typename... Args>
std::string StrCat(const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    const absl::AlphaNum pieces[] = {strings_internal::Arg(args)...};
    return strings_internal::ConcatPieces(pieces, sizeof...(Args));
  }
}

// As absl::StrAppend: no argument may point into *out.
template <typename... Args>
void StrAppend(std::string* out, const Args&... args) {
  if constexpr (sizeof...(Args) > 0) {
    const absl::AlphaNum pieces[] = {strings_internal::Arg(args)...};
    strings_internal::AppendPieces(out, pieces, sizeof...(Args));
  }
}

// std::string_view <-> absl::string_view at the boundary (see above).
inline absl::string_view ToAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }
inline std::string_view FromAbsl(absl::string_view s) { return std::string_view(s.data(), s.size()); }

// "0x" followed by lowercase hex digits, the form addresses and descriptor values take in reports.
inline std::string Hex(uint64_t v) { return absl::StrCat("0x", absl::Hex(v)); }

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_STRINGS_H_
