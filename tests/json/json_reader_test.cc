// Tests for json::Reader and json::LineSplitter. Expected values come from RFC 8259 and from counting
// bytes and columns by hand (columns are 1-based, in code points).
#include "src/json/json_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tmapgen::json {
namespace {

// Reads any document generically; returns false on error. Used for the prefix and syntax tests.
bool Walk(Reader* r) {
  switch (r->PeekType()) {
    case Type::kObject: {
      if (!r->BeginObject()) return false;
      std::string_view key;
      while (r->NextKey(&key)) {
        if (!Walk(r)) return false;
      }
      return r->ok();
    }
    case Type::kArray:
      if (!r->BeginArray()) return false;
      while (r->NextElement()) {
        if (!Walk(r)) return false;
      }
      return r->ok();
    case Type::kString: {
      std::string s;
      return r->ReadString(&s);
    }
    case Type::kNumber: {
      std::string_view t;
      return r->ReadNumberText(&t);
    }
    case Type::kBool: {
      bool b;
      return r->ReadBool(&b);
    }
    case Type::kNull:
      return r->ReadNull();
    case Type::kEnd:
    case Type::kError:
      return false;
  }
  return false;
}

// The error of reading `text` as one whole document (kNone if it is valid).
Error ParseError(std::string_view text, int max_depth = 64) {
  ReaderOptions opt;
  opt.max_depth = max_depth;
  Reader r(text, opt);
  if (Walk(&r)) r.Finish();
  return r.error();
}

void ExpectError(const Error& e, ErrorCode code, size_t line, size_t column, size_t offset) {
  EXPECT_EQ(ErrorCodeName(e.code), std::string(ErrorCodeName(code))) << e.ToString();
  EXPECT_EQ(e.line, line) << e.ToString();
  EXPECT_EQ(e.column, column) << e.ToString();
  EXPECT_EQ(e.offset, offset) << e.ToString();
}

Error Uint64Error(std::string_view text) {
  Reader r(text);
  uint64_t v;
  EXPECT_FALSE(r.ReadUint64(&v)) << text;
  return r.error();
}

uint64_t Uint64Of(std::string_view text) {
  Reader r(text);
  uint64_t v = 12345;
  EXPECT_TRUE(r.ReadUint64(&v)) << text << ": " << r.error().ToString();
  EXPECT_TRUE(r.Finish()) << text;
  return v;
}

int64_t Int64Of(std::string_view text) {
  Reader r(text);
  int64_t v = 12345;
  EXPECT_TRUE(r.ReadInt64(&v)) << text << ": " << r.error().ToString();
  EXPECT_TRUE(r.Finish()) << text;
  return v;
}

ErrorCode Int64Code(std::string_view text) {
  Reader r(text);
  int64_t v;
  EXPECT_FALSE(r.ReadInt64(&v)) << text;
  return r.error().code;
}

double DoubleOf(std::string_view text) {
  Reader r(text);
  double v = 12345;
  EXPECT_TRUE(r.ReadDouble(&v)) << text << ": " << r.error().ToString();
  EXPECT_TRUE(r.Finish()) << text;
  return v;
}

std::string StringOf(std::string_view text) {
  Reader r(text);
  std::string s = "junk";
  EXPECT_TRUE(r.ReadString(&s)) << text << ": " << r.error().ToString();
  EXPECT_TRUE(r.Finish()) << text;
  return s;
}

Error StringError(std::string_view text) {
  Reader r(text);
  std::string s;
  EXPECT_FALSE(r.ReadString(&s)) << text;
  return r.error();
}

// ---------------------------------------------------------------------------------------------------
// Walking documents.

TEST(JsonReaderTest, ReadsASpec) {
  const std::string_view text =
      "{\n"
      "  \"rank\": 3,\n"
      "  \"global_dim\": [1024, 512, 8],\n"
      "  \"name\": \"q\\u00e9\",\n"
      "  \"scale\": -0.5,\n"
      "  \"signed\": -7,\n"
      "  \"tiled\": true,\n"
      "  \"fill\": null\n"
      "}\n";
  Reader r(text);
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  std::vector<std::string> keys;
  uint64_t rank = 0;
  std::vector<uint64_t> dims;
  std::string name;
  double scale = 0;
  int64_t sgn = 0;
  bool tiled = false;
  while (r.NextKey(&key)) {
    keys.emplace_back(key);
    if (key == "rank") {
      ASSERT_TRUE(r.ReadUint64(&rank));
    } else if (key == "global_dim") {
      ASSERT_TRUE(r.BeginArray());
      while (r.NextElement()) {
        uint64_t d;
        ASSERT_TRUE(r.ReadUint64(&d));
        dims.push_back(d);
      }
      ASSERT_TRUE(r.ok());
    } else if (key == "name") {
      ASSERT_TRUE(r.ReadString(&name));
    } else if (key == "scale") {
      ASSERT_TRUE(r.ReadDouble(&scale));
    } else if (key == "signed") {
      ASSERT_TRUE(r.ReadInt64(&sgn));
    } else if (key == "tiled") {
      ASSERT_TRUE(r.ReadBool(&tiled));
    } else if (key == "fill") {
      ASSERT_TRUE(r.ReadNull());
    }
  }
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_TRUE(r.AtEnd());
  EXPECT_TRUE(r.Finish());
  EXPECT_EQ(keys, (std::vector<std::string>{"rank", "global_dim", "name", "scale", "signed", "tiled", "fill"}));
  EXPECT_EQ(rank, 3u);
  EXPECT_EQ(dims, (std::vector<uint64_t>{1024, 512, 8}));
  EXPECT_EQ(name, "q\xC3\xA9");
  EXPECT_EQ(scale, -0.5);
  EXPECT_EQ(sgn, -7);
  EXPECT_TRUE(tiled);
  EXPECT_EQ(r.depth(), 0);
}

TEST(JsonReaderTest, TopLevelScalarsAndWhitespace) {
  EXPECT_EQ(ParseError(" \t\r\n true \t\r\n").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("false").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("null").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("\"s\"").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("0").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("-12.5e-3").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("{}").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("[ ]").code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("{ \"a\" : [ { } , [ ] ] }").code, ErrorCode::kNone);
  // Only space, tab, CR and LF are whitespace.
  ExpectError(ParseError("\f1"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("\v1"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("[\xC2\xA0" "1]"), ErrorCode::kSyntax, 1, 2, 1);  // U+00A0 no-break space
}

TEST(JsonReaderTest, PeekTypeAndEnd) {
  Reader r("[{}, [], \"s\", -1, true, false, null]");
  EXPECT_EQ(r.PeekType(), Type::kArray);
  ASSERT_TRUE(r.BeginArray());
  EXPECT_EQ(r.PeekType(), Type::kEnd);  // between elements: NextElement first
  std::vector<Type> types;
  while (r.NextElement()) {
    const Type t = r.PeekType();
    EXPECT_EQ(r.PeekType(), t);  // peeking does not consume
    types.push_back(t);
    ASSERT_TRUE(r.SkipValue());
  }
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(types, (std::vector<Type>{Type::kObject, Type::kArray, Type::kString, Type::kNumber, Type::kBool,
                                      Type::kBool, Type::kNull}));
  EXPECT_EQ(r.PeekType(), Type::kEnd);
  EXPECT_TRUE(r.AtEnd());
  EXPECT_STREQ(TypeName(Type::kObject), "object");
  EXPECT_STREQ(TypeName(Type::kError), "error");
}

TEST(JsonReaderTest, PeekTypeFailsOnNonValues) {
  Reader a("");
  EXPECT_EQ(a.PeekType(), Type::kError);
  ExpectError(a.error(), ErrorCode::kTruncated, 1, 1, 0);
  Reader b("  }");
  EXPECT_EQ(b.PeekType(), Type::kError);
  ExpectError(b.error(), ErrorCode::kSyntax, 1, 3, 2);
  EXPECT_EQ(b.error().message, "expected a value, got '}'");
}

TEST(JsonReaderTest, UnreadValuesAreSkipped) {
  Reader r(R"({"a": {"x": [1, {"y": "z"}], "w": null}, "b": [true], "c": 2})");
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  uint64_t c = 0;
  std::vector<std::string> keys;
  while (r.NextKey(&key)) {
    keys.emplace_back(key);
    if (key == "c") {
      ASSERT_TRUE(r.ReadUint64(&c));
    }
  }
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c, 2u);
  EXPECT_TRUE(r.Finish());
}

TEST(JsonReaderTest, SkippedValuesAreValidated) {
  Reader r(R"({"a": [1, 02], "b": 2})");
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  while (r.NextKey(&key)) {
  }
  ExpectError(r.error(), ErrorCode::kSyntax, 1, 11, 10);
  EXPECT_EQ(r.error().message, "leading zeros are not allowed in numbers");
}

TEST(JsonReaderTest, DuplicateKeysAreDeliveredInOrder) {
  Reader r(R"({"a": 1, "a": 2})");
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  std::vector<uint64_t> values;
  while (r.NextKey(&key)) {
    EXPECT_EQ(key, "a");
    uint64_t v;
    ASSERT_TRUE(r.ReadUint64(&v));
    values.push_back(v);
  }
  EXPECT_TRUE(r.Finish());
  EXPECT_EQ(values, (std::vector<uint64_t>{1, 2}));
}

TEST(JsonReaderTest, SkipValueSkipsAnything) {
  Reader r(R"([{"a": [[], {"b": "\u00e9\n"}, -1.5e3, true, false, null]}, 7])");
  ASSERT_TRUE(r.BeginArray());
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.SkipValue());
  EXPECT_EQ(r.value_offset(), 1u);  // the skipped object started at offset 1
  ASSERT_TRUE(r.NextElement());
  uint64_t v;
  ASSERT_TRUE(r.ReadUint64(&v));
  EXPECT_EQ(v, 7u);
  EXPECT_FALSE(r.NextElement());
  EXPECT_TRUE(r.Finish());
}

// ---------------------------------------------------------------------------------------------------
// Unsigned integers.

TEST(JsonReaderTest, Uint64Accepts) {
  EXPECT_EQ(Uint64Of("0"), 0u);
  EXPECT_EQ(Uint64Of("7"), 7u);
  EXPECT_EQ(Uint64Of("9999999999999999999"), 9999999999999999999u);  // 19 digits: fast path
  EXPECT_EQ(Uint64Of("18446744073709551615"), std::numeric_limits<uint64_t>::max());  // 2^64-1
  EXPECT_EQ(Uint64Of("-0"), 0u);
  EXPECT_EQ(Uint64Of("-0.0e7"), 0u);
  EXPECT_EQ(Uint64Of("0e999999999999999999999"), 0u);
  EXPECT_EQ(Uint64Of("1e3"), 1000u);
  EXPECT_EQ(Uint64Of("1E+3"), 1000u);
  EXPECT_EQ(Uint64Of("1.5e3"), 1500u);
  EXPECT_EQ(Uint64Of("150e-1"), 15u);
  EXPECT_EQ(Uint64Of("10.000"), 10u);
  EXPECT_EQ(Uint64Of("1e19"), 10000000000000000000u);
  EXPECT_EQ(Uint64Of("18446744073709551615.000"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(Uint64Of("184467440737095516150e-1"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(Uint64Of("1.8446744073709551615e19"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(Uint64Of("0.00001e5"), 1u);
}

TEST(JsonReaderTest, Uint64RejectsOutOfRange) {
  // 2^64 = 18446744073709551616.
  const Error e = Uint64Error("18446744073709551616");
  ExpectError(e, ErrorCode::kOutOfRange, 1, 1, 0);
  EXPECT_EQ(e.message, "expected an unsigned integer <= 18446744073709551615, got 18446744073709551616");
  EXPECT_EQ(Uint64Error("18446744073709551615.5e1").code, ErrorCode::kOutOfRange);  // 184467440737095516155
  EXPECT_EQ(Uint64Error("1.8446744073709551616e19").code, ErrorCode::kOutOfRange);
  EXPECT_EQ(Uint64Error("1e20").code, ErrorCode::kOutOfRange);
  EXPECT_EQ(Uint64Error("99999999999999999999").code, ErrorCode::kOutOfRange);
  EXPECT_EQ(Uint64Error("1e400").code, ErrorCode::kOutOfRange);
  EXPECT_EQ(Uint64Error("1e99999999999999999999999999").code, ErrorCode::kOutOfRange);
  // Long numbers are cut in messages.
  EXPECT_EQ(Uint64Error("123456789012345678901234567890123456789").message,
            "expected an unsigned integer <= 18446744073709551615, got 12345678901234567890123456789...");
}

TEST(JsonReaderTest, Uint64RejectsNegative) {
  const Error e = Uint64Error("-1");
  ExpectError(e, ErrorCode::kNegative, 1, 1, 0);
  EXPECT_EQ(e.message, "expected an unsigned integer, got -1");
  EXPECT_EQ(Uint64Error("-1e400").code, ErrorCode::kNegative);
  EXPECT_EQ(Uint64Error("-18446744073709551616").code, ErrorCode::kNegative);
  EXPECT_EQ(Uint64Error("-0.1e1").code, ErrorCode::kNegative);
}

TEST(JsonReaderTest, Uint64RejectsNonIntegers) {
  const Error e = Uint64Error("1.5");
  ExpectError(e, ErrorCode::kNotInteger, 1, 1, 0);
  EXPECT_EQ(e.message, "expected an unsigned integer, got 1.5");
  EXPECT_EQ(Uint64Error("1e-3").code, ErrorCode::kNotInteger);
  EXPECT_EQ(Uint64Error("15e-1").code, ErrorCode::kNotInteger);
  EXPECT_EQ(Uint64Error("0.1").code, ErrorCode::kNotInteger);
  EXPECT_EQ(Uint64Error("1e-400").code, ErrorCode::kNotInteger);
  EXPECT_EQ(Uint64Error("-1.5").code, ErrorCode::kNotInteger);  // not an integer is reported first
  EXPECT_EQ(Uint64Error("18446744073709551616.5").code, ErrorCode::kNotInteger);
}

TEST(JsonReaderTest, Uint64RejectsOtherTypes) {
  Error e = Uint64Error("\"4\"");
  ExpectError(e, ErrorCode::kUnexpectedType, 1, 1, 0);
  EXPECT_EQ(e.message, "expected an unsigned integer, got \"4\"");
  EXPECT_EQ(Uint64Error("true").message, "expected an unsigned integer, got 'true'");
  EXPECT_EQ(Uint64Error("null").message, "expected an unsigned integer, got 'null'");
  EXPECT_EQ(Uint64Error("[1]").message, "expected an unsigned integer, got an array");
  EXPECT_EQ(Uint64Error("{}").message, "expected an unsigned integer, got an object");
  EXPECT_EQ(Uint64Error("\"a very long string that is not shown\"").message,
            "expected an unsigned integer, got a string");
  // A malformed value is reported as such, not as the wrong type.
  e = Uint64Error("\"4");
  ExpectError(e, ErrorCode::kTruncated, 1, 3, 2);
  e = Uint64Error("tru");
  ExpectError(e, ErrorCode::kTruncated, 1, 4, 3);
  e = Uint64Error("trux");
  ExpectError(e, ErrorCode::kSyntax, 1, 1, 0);
  EXPECT_EQ(e.message, "invalid literal 'trux' (expected 'true')");
  e = Uint64Error("x");
  ExpectError(e, ErrorCode::kSyntax, 1, 1, 0);
  EXPECT_EQ(e.message, "expected an unsigned integer, got 'x'");
}

// ---------------------------------------------------------------------------------------------------
// Signed integers and doubles.

TEST(JsonReaderTest, Int64Range) {
  EXPECT_EQ(Int64Of("-9223372036854775808"), std::numeric_limits<int64_t>::min());  // -2^63
  EXPECT_EQ(Int64Of("9223372036854775807"), std::numeric_limits<int64_t>::max());   // 2^63-1
  EXPECT_EQ(Int64Of("-92233720368547758.08e2"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Int64Of("-999999999999999999"), -999999999999999999);  // 18 digits: fast path
  EXPECT_EQ(Int64Of("-1e2"), -100);
  EXPECT_EQ(Int64Of("-0"), 0);
  EXPECT_EQ(Int64Of("42"), 42);
  EXPECT_EQ(Int64Code("9223372036854775808"), ErrorCode::kOutOfRange);
  EXPECT_EQ(Int64Code("-9223372036854775809"), ErrorCode::kOutOfRange);
  EXPECT_EQ(Int64Code("18446744073709551615"), ErrorCode::kOutOfRange);
  EXPECT_EQ(Int64Code("-1e19"), ErrorCode::kOutOfRange);
  EXPECT_EQ(Int64Code("-1e400"), ErrorCode::kOutOfRange);
  EXPECT_EQ(Int64Code("-2.5"), ErrorCode::kNotInteger);
  EXPECT_EQ(Int64Code("\"-2\""), ErrorCode::kUnexpectedType);
  Reader r("9223372036854775808");
  int64_t v;
  EXPECT_FALSE(r.ReadInt64(&v));
  EXPECT_EQ(r.error().message,
            "expected an integer in [-9223372036854775808, 9223372036854775807], got 9223372036854775808");
}

TEST(JsonReaderTest, Doubles) {
  EXPECT_EQ(DoubleOf("0.1"), 0.1);
  EXPECT_EQ(DoubleOf("-2.5e-3"), -0.0025);
  EXPECT_EQ(DoubleOf("1E2"), 100.0);
  EXPECT_EQ(DoubleOf("18446744073709551616"), 18446744073709551616.0);
  EXPECT_EQ(DoubleOf("1.7976931348623157e308"), std::numeric_limits<double>::max());
  EXPECT_EQ(DoubleOf("5e-324"), std::numeric_limits<double>::denorm_min());
  const double neg_zero = DoubleOf("-0");
  EXPECT_EQ(neg_zero, 0.0);
  EXPECT_TRUE(std::signbit(neg_zero));
  // Too small to represent: rounds to zero, keeping the sign.
  EXPECT_EQ(DoubleOf("1e-400"), 0.0);
  const double neg_tiny = DoubleOf("-1e-400");
  EXPECT_EQ(neg_tiny, 0.0);
  EXPECT_TRUE(std::signbit(neg_tiny));
  // Too large: an error.
  Reader r("[1, -1e400]");
  ASSERT_TRUE(r.BeginArray());
  double d;
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadDouble(&d));
  ASSERT_TRUE(r.NextElement());
  EXPECT_FALSE(r.ReadDouble(&d));
  ExpectError(r.error(), ErrorCode::kOutOfRange, 1, 5, 4);
  EXPECT_EQ(r.error().message, "expected a number within the range of a double, got -1e400");
  Reader s("1.7976931348623159e308");  // rounds up past DBL_MAX
  EXPECT_FALSE(s.ReadDouble(&d));
  EXPECT_EQ(s.error().code, ErrorCode::kOutOfRange);
}

TEST(JsonReaderTest, NumberText) {
  Reader r("[-1.50e+3, 0]");
  ASSERT_TRUE(r.BeginArray());
  std::string_view t;
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadNumberText(&t));
  EXPECT_EQ(t, "-1.50e+3");
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadNumberText(&t));
  EXPECT_EQ(t, "0");
}

TEST(JsonReaderTest, NumberGrammar) {
  // RFC 8259 section 6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
  for (const char* ok : {"0", "-0", "0.0", "10", "1.25", "1e5", "1E5", "1e+5", "1e-5", "-0.5e-0", "123.456e789"}) {
    EXPECT_EQ(ParseError(ok).code, ErrorCode::kNone) << ok;
  }
  ExpectError(ParseError("01"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("-01"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("[00]"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("+1"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError(".5"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("[1.]"), ErrorCode::kSyntax, 1, 4, 3);
  ExpectError(ParseError("1.e3"), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(ParseError("[1e]"), ErrorCode::kSyntax, 1, 4, 3);
  ExpectError(ParseError("[1e+]"), ErrorCode::kSyntax, 1, 5, 4);
  ExpectError(ParseError("[-]"), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(ParseError("[- 1]"), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(ParseError("0x10"), ErrorCode::kSyntax, 1, 2, 1);  // "0" then trailing text
  ExpectError(ParseError("NaN"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("[nan]"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("Infinity"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("-Infinity"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("1."), ErrorCode::kTruncated, 1, 3, 2);
  ExpectError(ParseError("-"), ErrorCode::kTruncated, 1, 2, 1);
  ExpectError(ParseError("2e-"), ErrorCode::kTruncated, 1, 4, 3);
}

TEST(JsonReaderTest, HugeExponentsAreCheap) {
  const std::string many_nines(100000, '9');
  EXPECT_EQ(Uint64Error("1e" + many_nines).code, ErrorCode::kOutOfRange);
  EXPECT_EQ(Uint64Error("1e-" + many_nines).code, ErrorCode::kNotInteger);
  EXPECT_EQ(Uint64Of("0." + std::string(100000, '0') + "1e100001"), 1u);
  EXPECT_EQ(Uint64Error(many_nines).code, ErrorCode::kOutOfRange);
  EXPECT_EQ(DoubleOf("0e" + many_nines), 0.0);
}

// ---------------------------------------------------------------------------------------------------
// Strings.

TEST(JsonReaderTest, Escapes) {
  EXPECT_EQ(StringOf(R"("\"\\\/\b\f\n\r\t")"), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(StringOf(R"("\u0041\u00e9\u00E9\u20ac")"), "A\xC3\xA9\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(StringOf(R"("\ud83d\ude00")"), "\xF0\x9F\x98\x80");  // U+1F600 as a surrogate pair
  EXPECT_EQ(StringOf(R"("\uD800\uDC00")"), "\xF0\x90\x80\x80");  // U+10000, the first pair
  EXPECT_EQ(StringOf(R"("\uDBFF\uDFFF")"), "\xF4\x8F\xBF\xBF");  // U+10FFFF, the last pair
  EXPECT_EQ(StringOf(R"("a\u0000b")"), std::string("a\0b", 3));
  EXPECT_EQ(StringOf(R"("\u007f\u0080\u07ff\u0800\uffff")"),
            "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF");
  EXPECT_EQ(StringOf("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\x7F\""), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\x7F");
  EXPECT_EQ(StringOf("\"\""), "");
}

TEST(JsonReaderTest, BadEscapes) {
  Error e = StringError(R"("ab\x")");
  ExpectError(e, ErrorCode::kBadEscape, 1, 4, 3);
  EXPECT_EQ(e.message, "invalid escape '\\x'");
  ExpectError(StringError(R"("\u12G4")"), ErrorCode::kBadEscape, 1, 2, 1);
  ExpectError(StringError(R"("\U0041")"), ErrorCode::kBadEscape, 1, 2, 1);
  ExpectError(StringError(R"("\')"), ErrorCode::kBadEscape, 1, 2, 1);
  e = StringError(R"("x\ud800")");
  ExpectError(e, ErrorCode::kBadEscape, 1, 3, 2);
  EXPECT_EQ(e.message, "unpaired UTF-16 high surrogate \\ud800");
  e = StringError(R"("\udc00\ud800")");
  ExpectError(e, ErrorCode::kBadEscape, 1, 2, 1);
  EXPECT_EQ(e.message, "unpaired UTF-16 low surrogate \\udc00");
  ExpectError(StringError(R"("\ud800\u0041")"), ErrorCode::kBadEscape, 1, 2, 1);
  ExpectError(StringError(R"("\ud800\ud800")"), ErrorCode::kBadEscape, 1, 2, 1);
  ExpectError(StringError(R"("\ud800\n")"), ErrorCode::kBadEscape, 1, 2, 1);
  ExpectError(StringError(R"("\ud800\u00G0")"), ErrorCode::kBadEscape, 1, 8, 7);
  // Ending inside an escape is truncation.
  ExpectError(StringError(R"("\ud800\u00)"), ErrorCode::kTruncated, 1, 12, 11);
  ExpectError(StringError(R"("\)"), ErrorCode::kTruncated, 1, 3, 2);
}

TEST(JsonReaderTest, RawControlCharactersAndUtf8) {
  Error e = StringError("\"a\tb\"");
  ExpectError(e, ErrorCode::kSyntax, 1, 3, 2);
  EXPECT_EQ(e.message, "control character U+0009 in a string must be escaped");
  ExpectError(StringError("\"a\nb\""), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(StringError(std::string("\"\0\"", 3)), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(StringError("\"\x1F\""), ErrorCode::kSyntax, 1, 2, 1);
  // Invalid UTF-8 (RFC 3629): overlong, surrogate, above U+10FFFF, stray continuation, bad lead.
  e = StringError("\"a\xC0\xAF\"");
  ExpectError(e, ErrorCode::kBadUtf8, 1, 3, 2);
  EXPECT_EQ(e.message, "invalid UTF-8 in a string (byte 0xC0)");
  ExpectError(StringError("\"\xE0\x80\xAF\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\xED\xA0\x80\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\xF0\x80\x80\xAF\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\xF4\x90\x80\x80\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\x80\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\xFF\""), ErrorCode::kBadUtf8, 1, 2, 1);
  ExpectError(StringError("\"\xE2\x82\""), ErrorCode::kBadUtf8, 1, 2, 1);  // cut short by the quote
  ExpectError(StringError("\"\xC3\xA9\xE2\x82"), ErrorCode::kTruncated, 1, 4, 5);  // cut short by the end
}

TEST(JsonReaderTest, StringViewsPointIntoTextUnlessEscaped) {
  const std::string text = R"(["plain", "esc\naped", "again"])";
  Reader r(text);
  ASSERT_TRUE(r.BeginArray());
  std::string_view v;
  bool escaped = true;
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadStringView(&v, &escaped));
  EXPECT_EQ(v, "plain");
  EXPECT_FALSE(escaped);
  EXPECT_EQ(v.data(), text.data() + 2);
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadStringView(&v, &escaped));
  EXPECT_EQ(v, "esc\naped");
  EXPECT_TRUE(escaped);
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadStringView(&v));
  EXPECT_EQ(v, "again");
}

TEST(JsonReaderTest, KeysWithEscapesStayValidWhileTheValueIsRead) {
  Reader r(R"({"a\u0062": "c\u0064", "\u00e9": 1})");
  ASSERT_TRUE(r.BeginObject());
  std::string_view key, value;
  ASSERT_TRUE(r.NextKey(&key));
  ASSERT_TRUE(r.ReadStringView(&value));
  EXPECT_EQ(key, "ab");
  EXPECT_EQ(value, "cd");
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(key, "\xC3\xA9");
  ASSERT_TRUE(r.SkipValue());
  EXPECT_FALSE(r.NextKey(&key));
  EXPECT_TRUE(r.Finish());
}

// ---------------------------------------------------------------------------------------------------
// Syntax errors, with positions.

TEST(JsonReaderTest, StructuralErrors) {
  Error e = ParseError("[1,]");
  ExpectError(e, ErrorCode::kSyntax, 1, 3, 2);  // at the comma
  EXPECT_EQ(e.message, "trailing comma before ']'");
  e = ParseError("{\"a\": 1, }");
  ExpectError(e, ErrorCode::kSyntax, 1, 8, 7);
  EXPECT_EQ(e.message, "trailing comma before '}'");
  e = ParseError("[1 2]");
  ExpectError(e, ErrorCode::kSyntax, 1, 4, 3);
  EXPECT_EQ(e.message, "expected ',' or ']' after an array element, got 2");
  e = ParseError("{\"a\" 1}");
  ExpectError(e, ErrorCode::kSyntax, 1, 6, 5);
  EXPECT_EQ(e.message, "expected ':' after an object key, got 1");
  e = ParseError("{1: 2}");
  ExpectError(e, ErrorCode::kSyntax, 1, 2, 1);
  EXPECT_EQ(e.message, "expected a string key, got 1");
  e = ParseError("{'a': 2}");
  ExpectError(e, ErrorCode::kSyntax, 1, 2, 1);
  EXPECT_EQ(e.message, "expected a string key, got '''");
  ExpectError(ParseError("{\"a\": 1 \"b\": 2}"), ErrorCode::kSyntax, 1, 9, 8);
  ExpectError(ParseError("[1}"), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(ParseError("{\"a\": 1]"), ErrorCode::kSyntax, 1, 8, 7);
  ExpectError(ParseError("[,1]"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("{,}"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("[1,,2]"), ErrorCode::kSyntax, 1, 4, 3);
  ExpectError(ParseError("]"), ErrorCode::kSyntax, 1, 1, 0);
  ExpectError(ParseError("'a'"), ErrorCode::kSyntax, 1, 1, 0);
  e = ParseError("[1] // c");
  ExpectError(e, ErrorCode::kSyntax, 1, 5, 4);
  EXPECT_EQ(e.message, "unexpected text after the JSON value: '/'");
  ExpectError(ParseError("[/* c */ 1]"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("1 2"), ErrorCode::kSyntax, 1, 3, 2);
  ExpectError(ParseError("{} {}"), ErrorCode::kSyntax, 1, 4, 3);
  ExpectError(ParseError("[truex]"), ErrorCode::kSyntax, 1, 6, 5);
  ExpectError(ParseError("[True]"), ErrorCode::kSyntax, 1, 2, 1);
  ExpectError(ParseError("[nul]"), ErrorCode::kSyntax, 1, 2, 1);
  e = ParseError("\xEF\xBB\xBF{}");
  ExpectError(e, ErrorCode::kSyntax, 1, 1, 0);
  EXPECT_EQ(e.message, "expected a value, got a UTF-8 byte order mark");
}

TEST(JsonReaderTest, PositionsAcrossLines) {
  const std::string_view text =
      "{\n"
      "  \"rank\": 3,\n"
      "  \"global_dim\": [1024, 512, -4]\n"
      "}\n";
  Reader r(text);
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(key, "rank");
  ASSERT_TRUE(r.SkipValue());
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(key, "global_dim");
  ASSERT_TRUE(r.BeginArray());
  uint64_t v;
  int index = 0;
  while (r.NextElement()) {
    if (!r.ReadUint64(&v)) break;
    ++index;
  }
  EXPECT_EQ(index, 2);
  // Line 3 starts at offset 2 + 13 = 15; "-4" is in column 29.
  ExpectError(r.error(), ErrorCode::kNegative, 3, 29, 43);
  EXPECT_EQ(r.ErrorAt("global_dim[2]"), "line 3, column 29: global_dim[2]: expected an unsigned integer, got -4");
  EXPECT_EQ(r.ErrorAt(""), "line 3, column 29: expected an unsigned integer, got -4");
  EXPECT_EQ(r.error().ToString(), "line 3, column 29: expected an unsigned integer, got -4");
}

TEST(JsonReaderTest, ColumnsCountCodePointsAndCrLfIsOneLineBreak) {
  // '[' 1, '"' 2, 'é' 3 (two bytes), '€' 4 (three bytes), '"' 5, ',' 6, ' ' 7, 'x' 8 at byte offset 10.
  ExpectError(ParseError("[\"\xC3\xA9\xE2\x82\xAC\", x]"), ErrorCode::kSyntax, 1, 8, 10);
  ExpectError(ParseError("{\r\n  \"a\": x}"), ErrorCode::kSyntax, 2, 8, 10);
  // A lone CR does not end a line.
  ExpectError(ParseError("[1,\r2,\rx]"), ErrorCode::kSyntax, 1, 8, 7);
  ExpectError(ParseError("\n\n\n  ?"), ErrorCode::kSyntax, 4, 3, 5);
}

TEST(JsonReaderTest, LocationOfAnyOffset) {
  const std::string_view text = "[1,\n 22,\n\xC3\xA9 ]";
  Reader r(text);
  const Location end = r.LocationOf(text.size());
  EXPECT_EQ(end.line, 3u);
  EXPECT_EQ(end.column, 4u);  // 'é', ' ', ']' then the end
  EXPECT_EQ(end.offset, text.size());
  const Location two = r.LocationOf(5);  // backwards from the cache
  EXPECT_EQ(two.line, 2u);
  EXPECT_EQ(two.column, 2u);
  EXPECT_EQ(r.LocationOf(1000).offset, text.size());  // clamped
  EXPECT_EQ(r.line(), 1u);
  EXPECT_EQ(r.column(), 1u);
  EXPECT_EQ(r.offset(), 0u);
}

TEST(JsonReaderTest, FirstLineOption) {
  ReaderOptions opt;
  opt.first_line = 1000;
  Reader r("{\"a\":\n x}", opt);
  ASSERT_TRUE(r.BeginObject());
  std::string_view key;
  ASSERT_TRUE(r.NextKey(&key));
  uint64_t v;
  EXPECT_FALSE(r.ReadUint64(&v));
  ExpectError(r.error(), ErrorCode::kSyntax, 1001, 2, 7);
}

TEST(JsonReaderTest, EveryErrorCodeHasAName) {
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kNone), "none");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kSyntax), "syntax");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kUnexpectedType), "unexpected_type");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kOutOfRange), "out_of_range");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kNegative), "negative");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kNotInteger), "not_integer");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kTruncated), "truncated");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kDepthLimit), "depth_limit");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kBadEscape), "bad_escape");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kBadUtf8), "bad_utf8");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kUsage), "usage");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kCaller), "caller");
}

// One document per code, with the exact position.
TEST(JsonReaderTest, EveryErrorCodeWithPosition) {
  ExpectError(ParseError("[1,\n 2,]"), ErrorCode::kSyntax, 2, 3, 6);
  {
    Reader r("{\"a\":\n  \"x\"}");
    std::string_view key;
    uint64_t v;
    ASSERT_TRUE(r.BeginObject());
    ASSERT_TRUE(r.NextKey(&key));
    EXPECT_FALSE(r.ReadUint64(&v));
    ExpectError(r.error(), ErrorCode::kUnexpectedType, 2, 3, 8);
  }
  {
    Reader r("[\n 18446744073709551616]");
    uint64_t v;
    ASSERT_TRUE(r.BeginArray());
    ASSERT_TRUE(r.NextElement());
    EXPECT_FALSE(r.ReadUint64(&v));
    ExpectError(r.error(), ErrorCode::kOutOfRange, 2, 2, 3);
  }
  {
    Reader r("[0, -3]");
    uint64_t v;
    ASSERT_TRUE(r.BeginArray());
    ASSERT_TRUE(r.NextElement());
    ASSERT_TRUE(r.ReadUint64(&v));
    ASSERT_TRUE(r.NextElement());
    EXPECT_FALSE(r.ReadUint64(&v));
    ExpectError(r.error(), ErrorCode::kNegative, 1, 5, 4);
  }
  {
    Reader r("  1e-3");
    int64_t v;
    EXPECT_FALSE(r.ReadInt64(&v));
    ExpectError(r.error(), ErrorCode::kNotInteger, 1, 3, 2);
    EXPECT_EQ(r.error().message, "expected an integer, got 1e-3");
  }
  ExpectError(ParseError("{\"a\": [1, 2"), ErrorCode::kTruncated, 1, 12, 11);
  ExpectError(ParseError(std::string(65, '[')), ErrorCode::kDepthLimit, 1, 65, 64);
  ExpectError(ParseError("[\"\\q\"]"), ErrorCode::kBadEscape, 1, 3, 2);
  ExpectError(ParseError("[\n\"\xFE\"]"), ErrorCode::kBadUtf8, 2, 2, 3);
  {
    Reader r("[1]");
    std::string_view key;
    ASSERT_TRUE(r.BeginArray());
    EXPECT_FALSE(r.NextKey(&key));
    ExpectError(r.error(), ErrorCode::kUsage, 1, 2, 1);
    EXPECT_EQ(r.error().message, "NextKey called outside an object");
  }
  {
    Reader r("{\"box\": [256,\n 300]}");
    std::string_view key;
    uint64_t v;
    ASSERT_TRUE(r.BeginObject());
    ASSERT_TRUE(r.NextKey(&key));
    ASSERT_TRUE(r.BeginArray());
    ASSERT_TRUE(r.NextElement());
    ASSERT_TRUE(r.ReadUint64(&v));
    ASSERT_TRUE(r.NextElement());
    ASSERT_TRUE(r.ReadUint64(&v));
    EXPECT_FALSE(r.Fail(ErrorCode::kNone, "must be <= 256, got 300"));
    ExpectError(r.error(), ErrorCode::kCaller, 2, 2, 15);
    EXPECT_EQ(r.ErrorAt("box[1]"), "line 2, column 2: box[1]: must be <= 256, got 300");
  }
}

TEST(JsonReaderTest, UsageErrors) {
  {
    Reader r("[1, 2]");
    uint64_t v;
    ASSERT_TRUE(r.BeginArray());
    ASSERT_TRUE(r.NextElement());
    ASSERT_TRUE(r.ReadUint64(&v));
    EXPECT_FALSE(r.ReadUint64(&v));  // no value pending
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
    EXPECT_EQ(r.error().message, "no value is pending here: call NextKey/NextElement first");
  }
  {
    Reader r("{}");
    ASSERT_TRUE(r.BeginObject());
    EXPECT_FALSE(r.NextElement());
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  }
  {
    Reader r("1");
    EXPECT_FALSE(r.NextElement());  // depth 0
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  }
  {
    Reader r("1");
    uint64_t v;
    ASSERT_TRUE(r.ReadUint64(&v));
    EXPECT_FALSE(r.ReadUint64(&v));
    EXPECT_EQ(r.error().message, "the top-level value has already been read");
  }
  {
    Reader r("[1]");
    ASSERT_TRUE(r.BeginArray());
    EXPECT_FALSE(r.AtEnd());
    EXPECT_TRUE(r.ok());  // AtEnd never fails
    EXPECT_FALSE(r.Finish());
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  }
}

TEST(JsonReaderTest, ErrorsAreSticky) {
  Reader r("[x, 1]");
  ASSERT_TRUE(r.BeginArray());
  ASSERT_TRUE(r.NextElement());
  uint64_t v = 0;
  EXPECT_FALSE(r.ReadUint64(&v));
  const Error first = r.error();
  EXPECT_EQ(first.code, ErrorCode::kSyntax);
  std::string s;
  std::string_view sv;
  bool b;
  double d;
  int64_t i;
  EXPECT_FALSE(r.NextElement());
  EXPECT_FALSE(r.ReadUint64(&v));
  EXPECT_FALSE(r.ReadInt64(&i));
  EXPECT_FALSE(r.ReadDouble(&d));
  EXPECT_FALSE(r.ReadString(&s));
  EXPECT_FALSE(r.ReadStringView(&sv));
  EXPECT_FALSE(r.ReadNumberText(&sv));
  EXPECT_FALSE(r.ReadBool(&b));
  EXPECT_FALSE(r.ReadNull());
  EXPECT_FALSE(r.BeginObject());
  EXPECT_FALSE(r.BeginArray());
  EXPECT_FALSE(r.NextKey(&sv));
  EXPECT_FALSE(r.SkipValue());
  EXPECT_FALSE(r.AtEnd());
  EXPECT_FALSE(r.Finish());
  EXPECT_FALSE(r.Fail(ErrorCode::kCaller, "later"));
  EXPECT_EQ(r.PeekType(), Type::kError);
  EXPECT_EQ(r.error().code, first.code);
  EXPECT_EQ(r.error().message, first.message);
  EXPECT_EQ(r.error().offset, first.offset);
  EXPECT_EQ(v, 0u);
}

TEST(JsonReaderTest, ResetReusesTheReader) {
  Reader r("x");
  EXPECT_EQ(r.PeekType(), Type::kError);
  r.Reset("{\"a\": 1}", 7);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.error().message, "");
  ASSERT_TRUE(r.SkipValue());
  EXPECT_TRUE(r.Finish());
  r.Reset("[", 7);
  EXPECT_FALSE(r.SkipValue());
  ExpectError(r.error(), ErrorCode::kTruncated, 7, 2, 1);
}

// ---------------------------------------------------------------------------------------------------
// Depth.

TEST(JsonReaderTest, DepthLimit) {
  EXPECT_EQ(ParseError(std::string(64, '[') + std::string(64, ']')).code, ErrorCode::kNone);
  const Error e = ParseError(std::string(65, '[') + std::string(65, ']'));
  ExpectError(e, ErrorCode::kDepthLimit, 1, 65, 64);
  EXPECT_EQ(e.message, "objects and arrays nested deeper than the limit of 64");
  std::string objects;
  for (int i = 0; i < 65; ++i) objects += "{\"a\":";
  ExpectError(ParseError(objects), ErrorCode::kDepthLimit, 1, 5 * 64 + 1, 5 * 64);
  // Option: 0 allows scalars only; above the hard limit is clamped to it.
  EXPECT_EQ(ParseError("1", 0).code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("[]", 0).code, ErrorCode::kDepthLimit);
  EXPECT_EQ(ParseError("[[]]", 2).code, ErrorCode::kNone);
  EXPECT_EQ(ParseError("[[[]]]", 2).code, ErrorCode::kDepthLimit);
  const int hard = Reader::kMaxDepthLimit;
  EXPECT_EQ(ParseError(std::string(hard, '[') + std::string(hard, ']'), 1 << 30).code, ErrorCode::kNone);
  EXPECT_EQ(ParseError(std::string(hard + 1, '[') + std::string(hard + 1, ']'), 1 << 30).code,
            ErrorCode::kDepthLimit);
}

TEST(JsonReaderTest, HostileNestingNeverRecurses) {
  // A million brackets: SkipValue stops at the limit, without recursion.
  const std::string deep(1000000, '[');
  Reader r(deep);
  EXPECT_FALSE(r.SkipValue());
  ExpectError(r.error(), ErrorCode::kDepthLimit, 1, 65, 64);
}

// ---------------------------------------------------------------------------------------------------
// Truncation.

TEST(JsonReaderTest, EveryPrefixIsTruncated) {
  const std::string doc =
      "{\"rank\": 3, \"dims\": [1024, -2, 1.5e-3, 0.25E+2], \"s\": \"a\\\"\\u00e9\\ud83d\\ude00\xC3\xA9\xF0\x9F\x98\x80\","
      " \"t\": true, \"f\": false, \"n\": null, \"o\": {\"k\": [[], {}]}}";
  ASSERT_EQ(ParseError(doc).code, ErrorCode::kNone) << ParseError(doc).ToString();
  for (size_t n = 0; n < doc.size(); ++n) {
    const std::string prefix = doc.substr(0, n);
    const Error e = ParseError(prefix);
    EXPECT_EQ(ErrorCodeName(e.code), std::string("truncated")) << "prefix " << n << ": " << e.ToString();
    EXPECT_EQ(e.offset, n) << "prefix " << n;
    Reader s(prefix);
    EXPECT_FALSE(s.SkipValue() && s.Finish()) << "prefix " << n;
    EXPECT_EQ(s.error().code, ErrorCode::kTruncated) << "prefix " << n << ": " << s.error().ToString();
  }
}

// ---------------------------------------------------------------------------------------------------
// LineSplitter.

struct Line {
  std::string text;
  size_t no;
  bool operator==(const Line& o) const { return text == o.text && no == o.no; }
};

std::ostream& operator<<(std::ostream& os, const Line& l) { return os << l.no << ":'" << l.text << "'"; }

// Splits `text` fed as the given chunks (drained after each Feed).
std::vector<Line> Split(const std::vector<std::string>& chunks, size_t max_line = 0, LineSplitter* out = nullptr) {
  LineSplitter local(max_line);
  LineSplitter& split = out != nullptr ? *out : local;
  std::vector<Line> lines;
  std::string_view line;
  size_t no = 0;
  for (const std::string& c : chunks) {
    split.Feed(c);
    while (split.Next(&line, &no)) lines.push_back({std::string(line), no});
  }
  split.Finish();
  while (split.Next(&line, &no)) lines.push_back({std::string(line), no});
  return lines;
}

TEST(LineSplitterTest, LinesNumbersBlanksAndCrLf) {
  const std::vector<Line> expected = {{"{\"a\":1}", 1}, {"[2]", 4}, {" x ", 5}, {"last", 7}};
  EXPECT_EQ(Split({"{\"a\":1}\r\n\n \t\r\n[2]\n x \r\n\r\nlast"}), expected);
  EXPECT_EQ(Split({"{\"a\":1}\r\n\n \t\r\n[2]\n x \r\n\r\nlast\n"}), expected);
  EXPECT_EQ(Split({"last\r"}), (std::vector<Line>{{"last", 1}}));
  EXPECT_EQ(Split({}), std::vector<Line>{});
  EXPECT_EQ(Split({""}), std::vector<Line>{});
  EXPECT_EQ(Split({"\n\n\r\n"}), std::vector<Line>{});
  // Only one CR is removed; a CR inside a line stays.
  EXPECT_EQ(Split({"a\r\r\nb\rc\n"}), (std::vector<Line>{{"a\r", 1}, {"b\rc", 2}}));
}

TEST(LineSplitterTest, EveryChunkBoundary) {
  const std::string text = "{\"a\":1}\r\n\n  \r\n[2,3]\r\nxyz";
  const std::vector<Line> expected = {{"{\"a\":1}", 1}, {"[2,3]", 4}, {"xyz", 5}};
  ASSERT_EQ(Split({text}), expected);
  for (size_t i = 0; i <= text.size(); ++i) {
    for (size_t j = i; j <= text.size(); ++j) {
      EXPECT_EQ(Split({text.substr(0, i), text.substr(i, j - i), text.substr(j)}), expected) << i << "," << j;
    }
  }
  std::vector<std::string> bytes;
  for (const char c : text) bytes.emplace_back(1, c);
  EXPECT_EQ(Split(bytes), expected);
}

TEST(LineSplitterTest, ChunksNeedNotBeDrained) {
  LineSplitter split;
  std::string_view line;
  size_t no = 0;
  std::vector<Line> lines;
  const std::string a = "one\ntwo\nthr", b = "ee\nfour\n", c = "five";
  split.Feed(a);
  ASSERT_TRUE(split.Next(&line, &no));
  lines.push_back({std::string(line), no});
  split.Feed(b);  // "two\nthr" of `a` was not read yet: it is copied
  split.Feed(c);  // nor was `b`
  split.Finish();
  while (split.Next(&line, &no)) lines.push_back({std::string(line), no});
  EXPECT_EQ(lines, (std::vector<Line>{{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}}));
  EXPECT_EQ(split.lines_seen(), 4u);
}

TEST(LineSplitterTest, LinesInsideAChunkAreViewsIntoIt) {
  const std::string chunk = "ab\ncd\n";
  LineSplitter split;
  split.Feed(chunk);
  std::string_view line;
  size_t no;
  ASSERT_TRUE(split.Next(&line, &no));
  EXPECT_EQ(line.data(), chunk.data());
  ASSERT_TRUE(split.Next(&line, &no));
  EXPECT_EQ(line.data(), chunk.data() + 3);
  EXPECT_FALSE(split.Next(&line, &no));
}

TEST(LineSplitterTest, LineTooLong) {
  LineSplitter split(4);
  const std::vector<Line> lines = Split({"abcd\n", "ab", "cde\nok\n"}, 4, &split);
  EXPECT_EQ(lines, (std::vector<Line>{{"abcd", 1}}));
  EXPECT_TRUE(split.line_too_long());
  EXPECT_EQ(split.error_line(), 2u);
  // Stops as soon as the partial line is too long, before its end is seen.
  LineSplitter early(4);
  early.Feed("x\nabcdefgh");
  std::string_view line;
  size_t no;
  ASSERT_TRUE(early.Next(&line, &no));
  EXPECT_FALSE(early.Next(&line, &no));
  EXPECT_TRUE(early.line_too_long());
  EXPECT_EQ(early.error_line(), 2u);
  early.Feed("more\n");
  EXPECT_FALSE(early.Next(&line, &no));
  // The CR counts towards the length; the LF does not.
  LineSplitter crlf(4);
  EXPECT_EQ(Split({"abc\r\nabcd\r\n"}, 4, &crlf), (std::vector<Line>{{"abc", 1}}));
  EXPECT_EQ(crlf.error_line(), 2u);
}

TEST(LineSplitterTest, FeedsReaders) {
  const std::vector<Line> lines = Split({"{\"a\": 1}\n\n{\"a\": -1}\n"});
  ASSERT_EQ(lines.size(), 2u);
  ReaderOptions opt;
  opt.first_line = lines[1].no;
  Reader r(lines[1].text, opt);
  std::string_view key;
  uint64_t v;
  ASSERT_TRUE(r.BeginObject());
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_FALSE(r.ReadUint64(&v));
  EXPECT_EQ(r.ErrorAt("a"), "line 3, column 7: a: expected an unsigned integer, got -1");
}

}  // namespace
}  // namespace tmapgen::json
