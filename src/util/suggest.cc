#include "src/util/suggest.h"

#include <algorithm>

#include "src/util/strings.h"

namespace tmapgen {

// Optimal string alignment: insertions, deletions, substitutions and transpositions of neighbours cost 1
// ("BFLOAT61" is one step from "BFLOAT16").
size_t EditDistance(std::string_view a, std::string_view b) {
  const size_t w = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * w);
  for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t v = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = v;
    }
  }
  return d[a.size() * w + b.size()];
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
