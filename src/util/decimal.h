// decimal.h: integers written in decimal, front to back, four digits (or a pair) at a time from compile-time
// tables: the digits of every number in the rule texts (src/tmap/rule_text.h) and the JSON reports
// (src/json/json_writer.h).
//
// Contract
// - WriteDecimal(v, negative, out) writes v (after a '-' when negative) at out, which has room for
//   kMaxDecimalChars bytes, and returns the end of what it wrote; no allocation, no locale, no NUL.
//   WriteSigned(v, out) does the same for a signed value (its magnitude, INT64_MIN's included, and its sign).
// - The same digits as std::to_chars and std::to_string (tests/util/decimal_test.cc checks every digit count
//   and both sides of every power of ten against std::to_string).
// - Inlined at every call, so that a constant argument folds and a small one costs a few compares.
#ifndef TMAPGEN_SRC_UTIL_DECIMAL_H_
#define TMAPGEN_SRC_UTIL_DECIMAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#define TMAPGEN_DECIMAL_INLINE inline __attribute__((always_inline))

namespace tmapgen::decimal {

inline constexpr size_t kMaxDecimalChars = 21;  // 20 digits and a sign

namespace internal {
// Decimal digits, front to back, from tables of pairs and of groups of four, in 32-bit arithmetic below 10^8: a
// number of up to 8 digits costs a few compares, a multiply-shift per group of four and a store per group.
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
TMAPGEN_DECIMAL_INLINE char* Pair(char* p, uint32_t v) {  // v < 100, two digits
  std::memcpy(p, kDigitPairs + 2 * v, 2);
  return p + 2;
}
TMAPGEN_DECIMAL_INLINE char* Upto2(char* p, uint32_t v) {  // v < 100
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  return Pair(p, v);
}
// The four digits of every v < 10^4, leading zeros included (40,000 bytes, made at compile time): a group of
// four digits is one load and one store, with no division by 100 and no second pair.
struct DigitQuads {
  char c[4 * 10000];
};
constexpr DigitQuads MakeDigitQuads() {
  DigitQuads q{};
  for (int v = 0; v < 10000; ++v) {
    q.c[4 * v] = static_cast<char>('0' + v / 1000);
    q.c[4 * v + 1] = static_cast<char>('0' + v / 100 % 10);
    q.c[4 * v + 2] = static_cast<char>('0' + v / 10 % 10);
    q.c[4 * v + 3] = static_cast<char>('0' + v % 10);
  }
  return q;
}
inline constexpr DigitQuads kDigitQuads = MakeDigitQuads();
TMAPGEN_DECIMAL_INLINE char* Upto4(char* p, uint32_t v) {  // v < 10^4
  if (v < 100) return Upto2(p, v);
  const char* q = kDigitQuads.c + 4 * v;
  if (v < 1000) {  // three digits: the quad's last three (nothing is written past the end)
    std::memcpy(p, q + 1, 2);
    p[2] = q[3];
    return p + 3;
  }
  std::memcpy(p, q, 4);
  return p + 4;
}
TMAPGEN_DECIMAL_INLINE char* Exactly4(char* p, uint32_t v) {  // v < 10^4, with leading zeros
  std::memcpy(p, kDigitQuads.c + 4 * v, 4);
  return p + 4;
}
TMAPGEN_DECIMAL_INLINE char* Upto8(char* p, uint32_t v) {  // v < 10^8
  if (v < 10000) return Upto4(p, v);
  const uint32_t hi = v / 10000;
  return Exactly4(Upto4(p, hi), v - hi * 10000);
}
TMAPGEN_DECIMAL_INLINE char* Exactly8(char* p, uint32_t v) {  // v < 10^8, with leading zeros
  const uint32_t hi = v / 10000;
  return Exactly4(Exactly4(p, hi), v - hi * 10000);
}
}  // namespace internal

// Writes v (with a leading '-' when negative) at out, which has room for 21 bytes; returns the end.
TMAPGEN_DECIMAL_INLINE char* WriteDecimal(uint64_t v, bool negative, char* out) {
  if (negative) *out++ = '-';
  if (v < 100000000u) return internal::Upto8(out, static_cast<uint32_t>(v));
  constexpr uint64_t k1e8 = 100000000u, k1e16 = k1e8 * k1e8;
  if (v < k1e16) {
    const uint64_t hi = v / k1e8;
    return internal::Exactly8(internal::Upto8(out, static_cast<uint32_t>(hi)), static_cast<uint32_t>(v - hi * k1e8));
  }
  const uint64_t top = v / k1e16;  // at most 1844
  const uint64_t rest = v - top * k1e16;
  const uint64_t mid = rest / k1e8;
  return internal::Exactly8(internal::Exactly8(internal::Upto4(out, static_cast<uint32_t>(top)), static_cast<uint32_t>(mid)),
                  static_cast<uint32_t>(rest - mid * k1e8));
}


// A signed value: its sign and magnitude (0 - v in unsigned arithmetic, so INT64_MIN's magnitude is exact).
TMAPGEN_DECIMAL_INLINE char* WriteSigned(int64_t v, char* out) {
  const bool negative = v < 0;
  return WriteDecimal(negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v), negative, out);
}

}  // namespace tmapgen::decimal

#undef TMAPGEN_DECIMAL_INLINE

#endif  // TMAPGEN_SRC_UTIL_DECIMAL_H_
