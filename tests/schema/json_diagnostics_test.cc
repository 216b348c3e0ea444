// json_diagnostics: where and why a text is not JSON, positions, descriptions, exact integers.
// Every verdict of FindSyntaxError is checked against simdjson's DOM parser (the library's own strict
// parser, tests/util/json_check.h); offsets are where the offending byte is in the literal text.
#include "src/schema/json_diagnostics.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "tests/util/json_check.h"

namespace tmapgen::json {
namespace {

using testing_json::IsValidJson;

struct Bad {
  std::string text;
  size_t offset;
  std::string message;  // a part of the message
};

void ExpectBad(const Bad& b, int max_depth = 64) {
  const std::optional<SyntaxError> e = FindSyntaxError(b.text, max_depth);
  ASSERT_TRUE(e.has_value()) << b.text;
  EXPECT_EQ(e->offset, b.offset) << b.text << "\n" << e->message;
  EXPECT_NE(e->message.find(b.message), std::string::npos) << b.text << "\n" << e->message;
  EXPECT_FALSE(IsValidJson(b.text, static_cast<size_t>(max_depth))) << "simdjson accepts " << b.text;
}

void ExpectGood(const std::string& text) {
  const std::optional<SyntaxError> e = FindSyntaxError(text);
  EXPECT_FALSE(e.has_value()) << text << "\n" << (e ? e->message : "");
  EXPECT_TRUE(IsValidJson(text)) << "simdjson rejects " << text;
}

TEST(FindSyntaxError, AcceptsJson) {
  for (const char* t : {"0", "-0", "0.0", "10", "1.25", "1e5", "1E5", "1e+5", "1e-5", "-0.5e-0", "true",
                        "false", "null", "\"\"", "\"a\\\"\\\\\\/\\b\\f\\n\\r\\tz\"", "\"\\u0041\\u00e9\\ud83d\\ude00\"",
                        "[]", "{}", " [ 1 , [ ] , { } ] ", "{\"a\":{\"b\":[null,true,{\"c\":\"\"}]}}",
                        "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"", "\t\r\n {\"a\" : 1}\n"}) {
    ExpectGood(t);
  }
}

TEST(FindSyntaxError, NumbersOfAnySizeAreJson) {
  // RFC 8259 puts no limit on a number's size. simdjson's DOM parser rejects the ones that fit neither
  // 64 bits nor a double (NUMBER_ERROR), so here it is not the judge; tmapgen's reader never asks
  // simdjson to convert such a number (it reads integer fields exactly, spec_json.cc).
  for (const char* t : {"123.456e789", "1e400", "-1e400", "18446744073709551616", "[1e-400]",
                        "{\"a\":99999999999999999999999999999999}"})
    EXPECT_FALSE(FindSyntaxError(t).has_value()) << t;
}

TEST(FindSyntaxError, NumberGrammar) {
  // RFC 8259 section 6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
  const Bad cases[] = {
      {"01", 0, "leading zeros"},
      {"-01", 1, "leading zeros"},
      {"[00]", 1, "leading zeros"},
      {"+1", 0, "expected a value, got '+'"},
      {".5", 0, "expected a value, got '.'"},
      {"[1.]", 3, "expected a digit after the decimal point, got ']'"},
      {"1.e3", 2, "expected a digit after the decimal point"},
      {"[1e]", 3, "expected a digit in the exponent, got ']'"},
      {"[1e+]", 4, "expected a digit in the exponent"},
      {"[-]", 2, "expected a digit after '-', got ']'"},
      {"[- 1]", 2, "expected a digit after '-'"},
      {"0x10", 1, "unexpected text after the JSON value: 'x'"},
      {"NaN", 0, "expected a value, got 'N'"},
      {"[nan]", 1, "invalid literal 'nan' (expected 'null')"},
      {"Infinity", 0, "expected a value, got 'I'"},
      {"-Infinity", 1, "expected a digit after '-', got 'I'"},
      {"1.", 2, "unexpected end of input in a number"},
      {"-", 1, "unexpected end of input in a number"},
      {"2e-", 3, "unexpected end of input in a number"},
  };
  for (const Bad& b : cases) ExpectBad(b);
}

TEST(FindSyntaxError, Strings) {
  const Bad cases[] = {
      {"\"a\\x\"", 2, "invalid escape '\\x'"},
      {std::string("\"a\\\x01\""), 2, "invalid escape: \\ followed by byte 0x01"},
      {"\"\\u12\"", 1, "invalid \\u escape: expected 4 hex digits"},
      {"\"\\ud800\"", 1, "unpaired UTF-16 high surrogate \\ud800"},
      {"\"\\ud800\\u0041\"", 1, "UTF-16 high surrogate \\ud800 is not followed by a low surrogate"},
      {"\"\\udc00\"", 1, "unpaired UTF-16 low surrogate \\udc00"},
      {std::string("\"a\x01\""), 2, "control character U+0001 in a string must be escaped"},
      {"\"a\tb\"", 2, "control character U+0009"},
      {"\"a\nb\"", 2, "control character U+000A"},
      {"\"\xFF\"", 1, "invalid UTF-8 in a string (byte 0xFF)"},
      {"\"\x80\"", 1, "byte 0x80"},              // a stray continuation byte
      {"\"\xC0\x80\"", 1, "byte 0xC0"},          // overlong NUL
      {"\"\xE0\x80\x80\"", 1, "byte 0xE0"},      // overlong
      {"\"\xED\xA0\x80\"", 1, "byte 0xED"},      // an encoded surrogate
      {"\"\xF4\x90\x80\x80\"", 1, "byte 0xF4"},  // above U+10FFFF
      {"\"abc", 4, "unexpected end of input in a string"},
      {"\"\xC3", 2, "unexpected end of input in a string"},
      {"\"\\", 2, "unexpected end of input in a string"},
      {"\"\\u00", 5, "unexpected end of input in a string"},
      {"\xEF\xBB\xBF{}", 0, "expected a value, got a UTF-8 byte order mark"},
      {"\xFF", 0, "expected a value, got byte 0xFF"},
  };
  for (const Bad& b : cases) ExpectBad(b);
}

TEST(FindSyntaxError, Structure) {
  const Bad cases[] = {
      {"", 0, "unexpected end of input, expected a value"},
      {"  \n", 3, "unexpected end of input, expected a value"},
      {"{\"a\":1,}", 6, "trailing comma before '}'"},
      {"[1,]", 2, "trailing comma before ']'"},
      {"[1 2]", 3, "expected ',' or ']' after an array element, got 2"},
      {"{\"a\":1 \"b\":2}", 7, "expected ',' or '}' after an object member, got \"b\""},
      {"{\"a\" 1}", 5, "expected ':' after an object key, got 1"},
      {"{1:2}", 1, "expected a string key, got 1"},
      {"{'a':1}", 1, "expected a string key, got '''"},
      {"[1] // c", 4, "unexpected text after the JSON value: '/'"},
      {"{} {}", 3, "unexpected text after the JSON value: an object"},
      {"[1,{\"a\":[2", 10, "unexpected end of input in an array"},
      {"{\"a\":", 5, "unexpected end of input, expected a value"},
      {"{\"a\"", 4, "unexpected end of input in an object"},
      {"tru", 3, "unexpected end of input in a literal"},
      {"trux", 0, "invalid literal 'trux' (expected 'true')"},
      {"[1,]]", 2, "trailing comma"},
  };
  for (const Bad& b : cases) ExpectBad(b);
}

TEST(FindSyntaxError, PathOfTheError) {
  EXPECT_EQ(FindSyntaxError("{\"global_dim\":[8,01]}")->path, "global_dim[1]");
  EXPECT_EQ(FindSyntaxError("{\"global_dim\":[8 8]}")->path, "global_dim");  // between elements
  EXPECT_EQ(FindSyntaxError("{\"a\":{\"b\":nul}}")->path, "a.b");
  EXPECT_EQ(FindSyntaxError("{\"a\":1,}")->path, "");
  EXPECT_EQ(FindSyntaxError("{\"a\":1 x}")->path, "");
}

TEST(FindSyntaxError, DepthLimitWithoutRecursion) {
  ExpectGood("[[[1]]]");
  EXPECT_FALSE(FindSyntaxError("[[[1]]]", 3).has_value());
  ExpectBad({"[[[[1]]]]", 3, "nested deeper than the limit of 3"}, 3);
  ExpectBad({"{\"a\":{\"b\":{\"c\":{}}}}", 15, "nested deeper than the limit of 3"}, 3);
  const std::string hostile(1000000, '[');
  const std::optional<SyntaxError> e = FindSyntaxError(hostile);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->offset, 64u);
}

TEST(FindSyntaxError, EveryPrefixOfADocumentIsCutShort) {
  const std::string doc = "{\"a\": [1, -2.5e+3, true, null, \"x\\u00e9\\n\"], \"b\": {\"c\": false}}";
  ExpectGood(doc);
  for (size_t n = 0; n < doc.size(); ++n) {
    const std::optional<SyntaxError> e = FindSyntaxError(doc.substr(0, n));
    ASSERT_TRUE(e.has_value()) << doc.substr(0, n);
    EXPECT_NE(e->message.find("unexpected end of input"), std::string::npos) << doc.substr(0, n) << ": " << e->message;
    EXPECT_EQ(e->offset, n) << doc.substr(0, n);
    EXPECT_FALSE(IsValidJson(doc.substr(0, n))) << doc.substr(0, n);
  }
}

TEST(PositionOf, LinesColumnsAndBase) {
  const std::string t = "ab\ncd\r\n\xC3\xA9x";
  EXPECT_EQ(PositionOf(t, 0).line, 1u);
  EXPECT_EQ(PositionOf(t, 0).column, 1u);
  EXPECT_EQ(PositionOf(t, 2).column, 3u);  // the LF itself is on line 1
  EXPECT_EQ(PositionOf(t, 3).line, 2u);
  EXPECT_EQ(PositionOf(t, 3).column, 1u);
  EXPECT_EQ(PositionOf(t, 5).column, 3u);  // the CR is a column of line 2
  EXPECT_EQ(PositionOf(t, 7).line, 3u);
  EXPECT_EQ(PositionOf(t, 9).column, 2u);  // e-acute is one column in two bytes
  EXPECT_EQ(PositionOf(t, 1000).column, 3u);  // clamped to the end
  // On a text that starts at line 5, column 10 of its file, only the first line is shifted right.
  EXPECT_EQ(PositionOf(t, 1, TextPos{5, 10}).line, 5u);
  EXPECT_EQ(PositionOf(t, 1, TextPos{5, 10}).column, 11u);
  EXPECT_EQ(PositionOf(t, 4, TextPos{5, 10}).line, 6u);
  EXPECT_EQ(PositionOf(t, 4, TextPos{5, 10}).column, 2u);
}

TEST(Describe, WhatIsThere) {
  EXPECT_EQ(Describe("", 0), "end of input");
  EXPECT_EQ(Describe("{}", 0), "an object");
  EXPECT_EQ(Describe("[]", 0), "an array");
  EXPECT_EQ(Describe("\"bf17\",", 0), "\"bf17\"");
  EXPECT_EQ(Describe("\"a very long string that is not shown\"", 0), "a string");
  EXPECT_EQ(Describe("\"a\\\"b\"", 0), "a string");
  EXPECT_EQ(Describe("-4]", 0), "-4");
  EXPECT_EQ(Describe("123456789012345678901234567890123456789", 0), "12345678901234567890123456789...");
  EXPECT_EQ(Describe("true,", 0), "'true'");
  EXPECT_EQ(Describe("abcdefghij", 0), "'abcdefgh...'");
  EXPECT_EQ(Describe("x", 0), "'x'");
  EXPECT_EQ(Describe("\xEF\xBB\xBF", 0), "a UTF-8 byte order mark");
  EXPECT_EQ(Describe("\x01", 0), "byte 0x01");
}

uint64_t IntegerOf(const std::string& token) {
  uint64_t mag = 99;
  bool negative = true;
  EXPECT_EQ(ExactInteger(token, &mag, &negative), IntegerClass::kOk) << token;
  EXPECT_FALSE(negative && mag != 0) << token;
  return mag;
}

IntegerClass ClassOf(const std::string& token, bool* negative = nullptr) {
  uint64_t mag = 0;
  bool neg = false;
  const IntegerClass c = ExactInteger(token, &mag, &neg);
  if (negative != nullptr) *negative = neg;
  return c;
}

TEST(ExactInteger, IntegersInAnyForm) {
  EXPECT_EQ(IntegerOf("0"), 0u);
  EXPECT_EQ(IntegerOf("7"), 7u);
  EXPECT_EQ(IntegerOf("18446744073709551615"), std::numeric_limits<uint64_t>::max());  // 2^64-1
  EXPECT_EQ(IntegerOf("-0"), 0u);
  EXPECT_EQ(IntegerOf("-0.0e7"), 0u);
  EXPECT_EQ(IntegerOf("0e999999999999999999999"), 0u);
  EXPECT_EQ(IntegerOf("1e3"), 1000u);
  EXPECT_EQ(IntegerOf("1E+3"), 1000u);
  EXPECT_EQ(IntegerOf("1.5e3"), 1500u);
  EXPECT_EQ(IntegerOf("150e-1"), 15u);
  EXPECT_EQ(IntegerOf("10.000"), 10u);
  EXPECT_EQ(IntegerOf("1e19"), 10000000000000000000u);
  EXPECT_EQ(IntegerOf("18446744073709551615.000"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(IntegerOf("184467440737095516150e-1"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(IntegerOf("1.8446744073709551615e19"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(IntegerOf("0.00001e5"), 1u);
  EXPECT_EQ(IntegerOf("0." + std::string(100000, '0') + "1e100001"), 1u);
  uint64_t mag = 0;
  bool negative = false;
  EXPECT_EQ(ExactInteger("-9223372036854775808", &mag, &negative), IntegerClass::kOk);
  EXPECT_TRUE(negative);
  EXPECT_EQ(mag, 9223372036854775808u);
}

TEST(ExactInteger, NotIntegersTooBigAndNotNumbers) {
  for (const char* t : {"1.5", "1e-3", "15e-1", "0.1", "1e-400", "-1.5", "18446744073709551616.5"})
    EXPECT_EQ(ClassOf(t), IntegerClass::kNotInteger) << t;
  for (const char* t : {"18446744073709551616", "18446744073709551615.5e1", "1.8446744073709551616e19", "1e20",
                        "99999999999999999999", "1e400", "1e99999999999999999999999999"})
    EXPECT_EQ(ClassOf(t), IntegerClass::kTooBig) << t;
  bool negative = false;
  EXPECT_EQ(ClassOf("-1e400", &negative), IntegerClass::kTooBig);
  EXPECT_TRUE(negative);
  const std::string nines(100000, '9');
  EXPECT_EQ(ClassOf("1e" + nines), IntegerClass::kTooBig);
  EXPECT_EQ(ClassOf("1e-" + nines), IntegerClass::kNotInteger);
  EXPECT_EQ(ClassOf(nines), IntegerClass::kTooBig);
  for (const char* t : {"", "01", "1.", ".5", "+1", "1e", "--1", "1 ", "0x10", "\"4\""})
    EXPECT_EQ(ClassOf(t), IntegerClass::kNotNumber) << t;
}

TEST(NumberLength, LongestNumberAtTheStart) {
  EXPECT_EQ(NumberLength("-12.5e+3,"), 8u);
  EXPECT_EQ(NumberLength("0123"), 1u);
  EXPECT_EQ(NumberLength("1.x"), 1u);
  EXPECT_EQ(NumberLength("1ex"), 1u);
  EXPECT_EQ(NumberLength("-"), 0u);
  EXPECT_EQ(NumberLength("x1"), 0u);
}

}  // namespace
}  // namespace tmapgen::json
