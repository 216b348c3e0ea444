// Tests of src/util/strings.h: StrCat and StrAppend give what absl::StrCat / absl::StrAppend give (the
// library they stand in for) for every argument kind, short and long (past the 512-byte stack buffer).
#include "src/util/strings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace tmapgen {
namespace {

TEST(StrCat, SameAsAbslForEveryArgumentKind) {
  const std::string s = "string";
  const int8_t i8 = -7;
  const uint64_t big = 18446744073709551615ull;
  EXPECT_EQ(StrCat("lit", s, 42, -3, i8, big, 1.5, absl::Hex(255), absl::string_view("av")),
            absl::StrCat("lit", s, 42, -3, i8, big, 1.5, absl::Hex(255), absl::string_view("av")));
  EXPECT_EQ(StrCat(std::string_view("view"), 'c', "x"), "viewcx");
  EXPECT_EQ(StrCat(), "");
  EXPECT_EQ(StrCat("only"), "only");
}

TEST(StrCat, LongResults) {
  const std::string a(300, 'a'), b(300, 'b');
  EXPECT_EQ(StrCat(a, b, 7), a + b + "7");
  const std::string c(1000, 'c');
  EXPECT_EQ(StrCat(c), c);
}

TEST(StrAppend, SameAsAbsl) {
  std::string ours = "start", theirs = "start";
  StrAppend(&ours, ", ", 1, std::string_view("-view-"), 'z');
  absl::StrAppend(&theirs, ", ", 1, absl::string_view("-view-"), "z");
  EXPECT_EQ(ours, theirs);
  const std::string big(700, 'q');
  StrAppend(&ours, big, 9);
  absl::StrAppend(&theirs, big, 9);
  EXPECT_EQ(ours, theirs);
  StrAppend(&ours);
  EXPECT_EQ(ours, theirs);
}

}  // namespace
}  // namespace tmapgen
