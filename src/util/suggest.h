// suggest.h: "did you mean" for unknown names (flags, keys, rule ids, enum values).
//
// Contract
// - ClosestName() returns the candidate nearest to `word`: a candidate that `word` is a prefix of (at least 3
//   characters), else the one at the smallest edit distance (Levenshtein, case-sensitive) if that distance is
//   at most max(2, |word| / 3); else an empty view. Ties go to the earlier candidate.
// - DidYouMean() wraps it as ` (did you mean "X"?)`, or "" when there is no close candidate.
// - Pure functions; no I/O.
#ifndef TMAPGEN_SRC_UTIL_SUGGEST_H_
#define TMAPGEN_SRC_UTIL_SUGGEST_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tmapgen {

size_t EditDistance(std::string_view a, std::string_view b);
std::string_view ClosestName(std::string_view word, const std::vector<std::string_view>& candidates);
std::string DidYouMean(std::string_view word, const std::vector<std::string_view>& candidates,
                       std::string_view prefix = "");

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_SUGGEST_H_
