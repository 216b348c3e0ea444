// Tests of src/tmap/rule_text.h. Expected texts are written out by hand; numbers are checked against
// std::to_string (the standard library's decimal formatting) over each integer type's extremes.
#include "src/tmap/rule_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/string_view.h"

namespace tmapgen {
namespace {

TEST(RuleText, JoinsEveryArgumentKind) {
  const std::string s = "str";
  const std::string_view v = "view";
  const char* c = "cstr";
  const RuleText inner = TextCat("in", 1);
  const RuleText t = TextCat("lit ", s, ' ', v, ' ', c, ' ', absl::string_view("absl"), ' ', inner);
  EXPECT_EQ(t.view(), "lit str view cstr absl in1");
  EXPECT_EQ(t.str(), "lit str view cstr absl in1");
}

TEST(RuleText, SignedAndUnsignedCharsAreNumbers) {
  const int8_t i8 = -5;
  const uint8_t u8 = 200;
  EXPECT_EQ(TextCat("[", i8, "][", u8, "][", 'x', "]").view(), "[-5][200][x]");
}

template <typename T>
void ExpectExtremes() {
  for (T v : {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1), T(9), T(10), T(99)}) {
    EXPECT_EQ(TextCat(v).view(), std::to_string(v)) << std::to_string(v);
  }
}

TEST(RuleText, IntegersMatchToString) {
  ExpectExtremes<int16_t>();
  ExpectExtremes<uint16_t>();
  ExpectExtremes<int32_t>();
  ExpectExtremes<uint32_t>();
  ExpectExtremes<int64_t>();
  ExpectExtremes<uint64_t>();
  EXPECT_EQ(TextCat(static_cast<int8_t>(-128)).view(), "-128");
}

// Every number of digits and each side of every power of ten, against the standard library's decimal text.
TEST(RuleText, EveryDigitCountMatchesToString) {
  uint64_t p = 1;
  for (int digits = 1; digits <= 20; ++digits) {
    for (uint64_t v : {p - 1, p, p + 1, 2 * p - 1, 5 * p + 3, 9 * p}) {
      if (digits == 20 && v > p + 1) continue;  // 2 * 10^19 and beyond overflow
      EXPECT_EQ(TextCat(v).view(), std::to_string(v)) << v;
      const int64_t s = static_cast<int64_t>(v);
      if (s >= 0) {
        EXPECT_EQ(TextCat(-s).view(), std::to_string(-s)) << v;
      }
    }
    if (digits < 20) p *= 10;
  }
  EXPECT_EQ(TextCat(uint64_t{18446744073709551615u}).view(), "18446744073709551615");
  for (uint64_t v = 0; v < 100000; v += 7) EXPECT_EQ(TextCat(v).view(), std::to_string(v));
}

TEST(RuleText, CharArrayStopsAtItsFirstNul) {
  char buf[16] = "abc";
  EXPECT_EQ(TextCat(buf, "|").view(), "abc|");
}

TEST(RuleText, LongTextsMoveToTheHeapWithoutLoss) {
  std::string expect;
  RuleText t;
  for (int i = 0; i < 200; ++i) {
    const std::string piece = "piece " + std::to_string(i) + "; ";
    t.Append(piece);
    expect += piece;
    ASSERT_EQ(t.size(), expect.size());
  }
  EXPECT_GT(t.size(), RuleText::kInline);
  EXPECT_EQ(t.view(), expect);
  const RuleText copy = t;
  EXPECT_EQ(copy.view(), expect);
  RuleText assigned;
  assigned = t;
  EXPECT_EQ(assigned.view(), expect);
  t.Clear();
  EXPECT_TRUE(t.empty());
  t.Append("again");
  EXPECT_EQ(t.view(), "again");
}

TEST(RuleText, ExactlyFullInlineBufferStaysInline) {
  const std::string full(RuleText::kInline, 'x');
  RuleText t(full);
  EXPECT_EQ(t.size(), RuleText::kInline);
  t.AppendChar('y');
  EXPECT_EQ(t.view(), full + "y");
}

TEST(RuleText, ImplicitConversions) {
  auto f = [](bool b) -> RuleText { return b ? std::string("from string") : std::string("other"); };
  EXPECT_EQ(f(true).view(), "from string");
  const RuleText lit = "literal";
  EXPECT_TRUE(lit == "literal");
  const std::string_view sv = lit;
  EXPECT_EQ(sv, "literal");
}

}  // namespace
}  // namespace tmapgen
