// decimal_test.cc: src/util/decimal.h against std::to_string, the C++ library's decimal form.
#include "src/util/decimal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace tmapgen {
namespace {

std::string Written(uint64_t v, bool negative) {
  char buf[decimal::kMaxDecimalChars + 8];
  std::memset(buf, 'x', sizeof(buf));
  char* end = decimal::WriteDecimal(v, negative, buf);
  EXPECT_LE(end - buf, static_cast<long>(decimal::kMaxDecimalChars));
  EXPECT_EQ(*end, 'x');  // nothing written past the end it returns
  return std::string(buf, end);
}

TEST(Decimal, EveryDigitCountAndBothSidesOfEveryPowerOfTen) {
  uint64_t p = 1;
  for (int digits = 1; digits <= 20; ++digits) {
    for (uint64_t v : {p - 1, p, p + 1, p * 2 + 7, p * 9 + (p - 1)}) {
      if (digits == 20 && v < p) continue;
      EXPECT_EQ(Written(v, false), std::to_string(v)) << v;
      EXPECT_EQ(Written(v, true), "-" + std::to_string(v)) << v;
    }
    if (digits < 20) p *= 10;
  }
  EXPECT_EQ(Written(std::numeric_limits<uint64_t>::max(), false), "18446744073709551615");
  EXPECT_EQ(Written(uint64_t{1} << 63, true), std::to_string(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(Written(0, false), "0");
}

TEST(Decimal, EveryValueBelowOneHundredThousand) {
  // Every entry of the table of four-digit groups, as a number of its own (three and four digits) and as the
  // group after a leading digit (leading zeros): each written, and nothing past its end.
  for (uint64_t v = 0; v < 100000; ++v) ASSERT_EQ(Written(v, false), std::to_string(v)) << v;
}

TEST(Decimal, SignedValuesAsToString) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{9}, int64_t{-10}, int64_t{-99999999}, int64_t{-100000000},
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    char buf[decimal::kMaxDecimalChars];
    EXPECT_EQ(std::string(buf, decimal::WriteSigned(v, buf)), std::to_string(v)) << v;
  }
}

TEST(Decimal, ValuesAcrossTheRange) {
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 100000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint64_t v = x >> (i % 64);  // every magnitude
    ASSERT_EQ(Written(v, false), std::to_string(v)) << v;
  }
}

}  // namespace
}  // namespace tmapgen
