#include "src/util/suggest.h"

#include <algorithm>

#include "src/util/strings.h"

namespace tmapgen {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    prev.swap(cur);
  }
  return prev[b.size()];
}

std::string_view ClosestName(std::string_view word, const std::vector<std::string_view>& candidates) {
  if (word.empty()) return {};
  if (word.size() >= 3)
    for (std::string_view c : candidates)
      if (c.size() > word.size() && c.substr(0, word.size()) == word) return c;
  size_t best = ~size_t{0};
  std::string_view name;
  for (std::string_view c : candidates) {
    const size_t d = EditDistance(word, c);
    if (d < best) { best = d; name = c; }
  }
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  return best <= limit ? name : std::string_view();
}

std::string DidYouMean(std::string_view word, const std::vector<std::string_view>& candidates, std::string_view prefix) {
  const std::string_view c = ClosestName(word, candidates);
  if (c.empty()) return "";
  return StrCat(" (did you mean \"", prefix, c, "\"?)");
}

}  // namespace tmapgen
