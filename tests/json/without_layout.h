// without_layout.h: pretty JSON with its layout (the spaces and newlines outside strings) removed, so that
// tests can compare a pretty and a compact writer's output byte for byte.
#ifndef TMAPGEN_TESTS_JSON_WITHOUT_LAYOUT_H_
#define TMAPGEN_TESTS_JSON_WITHOUT_LAYOUT_H_

#include <string>

namespace tmapgen::json_test {

inline std::string WithoutLayout(const std::string& pretty) {
  std::string out;
  bool in_string = false, escaped = false;
  for (char c : pretty) {
    if (in_string) {
      out += c;
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (c != ' ' && c != '\n') {
      out += c;
    }
  }
  return out;
}

}  // namespace tmapgen::json_test

#endif  // TMAPGEN_TESTS_JSON_WITHOUT_LAYOUT_H_
