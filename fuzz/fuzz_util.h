// fuzz_util.h: what the libFuzzer targets share: a CHECK that aborts (the fuzzer records the input),
// a seeded generator for chunkings, and simdjson's DOM parser as an independent judge.
#ifndef TMAPGEN_FUZZ_FUZZ_UTIL_H_
#define TMAPGEN_FUZZ_FUZZ_UTIL_H_

#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

namespace tmapgen::fuzz {

struct Rng {
  uint64_t s;
  uint64_t Next() {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
};

inline uint64_t Hash(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// simdjson's DOM verdict on `text` (SUCCESS or its error code), nesting limited to max_depth.
inline simdjson::error_code DomVerdict(std::string_view text, size_t max_depth) {
  static simdjson::dom::parser parser;
  static size_t depth = 0;
  if (depth != max_depth || parser.capacity() < text.size()) {
    if (parser.allocate(text.size() < 4096 ? 4096 : text.size(), max_depth)) return simdjson::MEMALLOC;
    depth = max_depth;
  }
  simdjson::dom::element e;
  return parser.parse(text.data(), text.size(), true).get(e);
}

}  // namespace tmapgen::fuzz

#endif  // TMAPGEN_FUZZ_FUZZ_UTIL_H_
