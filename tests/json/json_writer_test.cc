// Tests for json::Writer, and for reading its output back with simdjson.
#include "src/json/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <simdjson.h>

namespace tmapgen::json {
namespace {

std::string Quoted(std::string_view s) {
  std::string out;
  Writer::AppendQuoted(s, &out);
  return out;
}

std::string DoubleText(double d) {
  Writer w;
  w.Double(d);
  EXPECT_TRUE(w.complete()) << w.error();
  return w.str();
}

TEST(JsonWriterTest, Compact) {
  Writer w;
  w.BeginObject();
  w.Key("rank").Uint(3);
  w.Key("dims").BeginArray().Uint(1024).Uint(512).EndArray();
  w.Key("name").String("q");
  w.Key("o").BeginObject().EndObject();
  w.Key("a").BeginArray().EndArray();
  w.Key("t").Bool(true);
  w.Key("f").Bool(false);
  w.Key("n").Null();
  w.Key("i").Int(-7);
  w.Key("d").Double(0.5);
  w.EndObject();
  EXPECT_TRUE(w.complete()) << w.error();
  EXPECT_EQ(w.str(),
            R"({"rank":3,"dims":[1024,512],"name":"q","o":{},"a":[],"t":true,"f":false,"n":null,"i":-7,"d":0.5})");
}

TEST(JsonWriterTest, Pretty) {
  WriterOptions opt;
  opt.pretty = true;
  Writer w(opt);
  w.BeginObject();
  w.Key("rank").Uint(3);
  w.Key("dims").BeginArray().Uint(1).BeginArray().EndArray().BeginObject().Key("k").Null().EndObject().EndArray();
  w.Key("o").BeginObject().EndObject();
  w.EndObject();
  EXPECT_TRUE(w.complete()) << w.error();
  EXPECT_EQ(w.str(),
            "{\n"
            "  \"rank\": 3,\n"
            "  \"dims\": [\n"
            "    1,\n"
            "    [],\n"
            "    {\n"
            "      \"k\": null\n"
            "    }\n"
            "  ],\n"
            "  \"o\": {}\n"
            "}");
}

TEST(JsonWriterTest, TopLevelScalars) {
  Writer w;
  w.String("x");
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(w.str(), "\"x\"");
  WriterOptions opt;
  opt.pretty = true;
  Writer p(opt);
  p.Uint(5);
  EXPECT_EQ(p.str(), "5");
  EXPECT_TRUE(p.complete());
  Writer empty;
  EXPECT_TRUE(empty.ok());
  EXPECT_FALSE(empty.complete());
}

TEST(JsonWriterTest, StringEscapes) {
  EXPECT_EQ(Quoted(""), "\"\"");
  EXPECT_EQ(Quoted("a\"b\\c/d"), R"("a\"b\\c/d")");
  EXPECT_EQ(Quoted("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(Quoted(std::string("\0\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(Quoted("\x7f"), "\"\x7f\"");  // DEL is not a control character in JSON
  // Valid UTF-8 is copied.
  EXPECT_EQ(Quoted("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF"),
            "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"");
  // Invalid bytes become U+FFFD, one per byte that does not start a valid sequence.
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(Quoted("a\xFF" "b"), "\"a" + fffd + "b\"");
  EXPECT_EQ(Quoted("\xC0\xAF"), "\"" + fffd + fffd + "\"");           // overlong '/'
  EXPECT_EQ(Quoted("\xED\xA0\x80"), "\"" + fffd + fffd + fffd + "\"");  // encoded surrogate
  EXPECT_EQ(Quoted("\xE2\x82"), "\"" + fffd + fffd + "\"");             // cut short
  EXPECT_EQ(Quoted("\xF4\x90\x80\x80"), "\"" + fffd + fffd + fffd + fffd + "\"");  // above U+10FFFF
  // Keys are escaped the same way.
  Writer w;
  w.BeginObject().Key("k\"\n").Uint(1).EndObject();
  EXPECT_EQ(w.str(), R"({"k\"\n":1})");
}

// A byte-at-a-time escaper with the contract's rules, for comparing Quote's block paths with.
std::string ReferenceQuoted(std::string_view v) {
  const std::string fffd = "\xEF\xBF\xBD";
  std::string out = "\"";
  const auto* s = reinterpret_cast<const unsigned char*>(v.data());
  const size_t n = v.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = s[i];
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\b') out += "\\b";
    else if (c == '\f') out += "\\f";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20) {
      const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // Only the sequences this test writes: C3 A9 (valid) and a lone FF (invalid).
      if (c == 0xC3 && i + 1 < n && s[i + 1] == 0xA9) {
        out += "\xC3\xA9";
        i += 2;
        continue;
      }
      out += fffd;
    }
    ++i;
  }
  return out + "\"";
}

// Every length from 0 to 100, plain and with one special byte at each position: the block paths
// (4..15, 16..32, over 32 bytes with the last 32 stored again) give the byte-at-a-time result.
TEST(JsonWriterTest, QuoteAtEveryLengthAndPosition) {
  const std::vector<std::string> specials = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\xFF", "\xC3\xA9", "\x7f"};
  for (size_t n = 0; n <= 100; ++n) {
    std::string plain;
    for (size_t i = 0; i < n; ++i) plain += static_cast<char>('a' + i % 26);
    ASSERT_EQ(Quoted(plain), ReferenceQuoted(plain)) << n;
    for (size_t at = 0; at < n; ++at) {
      for (const std::string& sp : specials) {
        std::string t = plain;
        t.replace(at, 1, sp);
        ASSERT_EQ(Quoted(t), ReferenceQuoted(t)) << n << " " << at;
      }
    }
  }
}

TEST(JsonWriterTest, Integers) {
  Writer w;
  w.BeginArray()
      .Uint(0)
      .Uint(std::numeric_limits<uint64_t>::max())
      .Int(std::numeric_limits<int64_t>::min())
      .Int(std::numeric_limits<int64_t>::max())
      .Int(0)
      .EndArray();
  EXPECT_EQ(w.str(), "[0,18446744073709551615,-9223372036854775808,9223372036854775807,0]");
}

// Integers around every power of ten (both sides) and at every digit count, written by Writer::Uint/Int and
// by RawText::U/I (the digit-pair writer of rule_text.h): the text std::to_string gives.
std::vector<uint64_t> EdgeUints() {
  std::vector<uint64_t> v = {0, 1, 9, 10, 11, 99, 100, 101, std::numeric_limits<uint64_t>::max(),
                             std::numeric_limits<uint64_t>::max() - 1, uint64_t{1} << 63, (uint64_t{1} << 32) - 1,
                             uint64_t{1} << 32, 12345678901234567890ull, 1844674407370955161ull};
  uint64_t p = 1;
  for (int digits = 1; digits <= 20; ++digits) {  // p = 10^(digits - 1)
    v.push_back(p);
    v.push_back(p - 1);
    v.push_back(p + 1);
    if (p <= std::numeric_limits<uint64_t>::max() / 10) {
      v.push_back(10 * p - 1);    // the largest of `digits` digits: 9...9
      v.push_back(p + p / 3);     // 13...3-ish, mixed digits
      v.push_back(p * 7 + 4321 % p);
      p *= 10;
    }
  }
  return v;
}

TEST(JsonWriterTest, UintsAtEveryDigitCount) {
  for (const uint64_t u : EdgeUints()) {
    Writer w;
    w.Uint(u);
    EXPECT_EQ(w.str(), std::to_string(u));
    char buf[64];
    RawText o(buf);
    o.U(u);
    EXPECT_EQ(std::string(buf, o.end()), std::to_string(u));
  }
}

TEST(JsonWriterTest, IntsAtEveryDigitCount) {
  std::vector<int64_t> ints = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min() + 1,
                               std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max() - 1,
                               std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  for (const uint64_t u : EdgeUints()) {
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) continue;
    ints.push_back(static_cast<int64_t>(u));
    ints.push_back(-static_cast<int64_t>(u));
  }
  for (const int64_t i : ints) {
    Writer w;
    w.BeginArray().Int(i).EndArray();
    EXPECT_EQ(w.str(), "[" + std::to_string(i) + "]");
    char buf[64];
    RawText o(buf);
    o.I(i);
    EXPECT_EQ(std::string(buf, o.end()), std::to_string(i));
  }
  char buf[64];
  RawText o(buf);
  const int32_t small[] = {-1, 0, 10, -100};
  o.Arr(small, 4);
  EXPECT_EQ(std::string(buf, o.end()), "[-1,0,10,-100]");
}

TEST(JsonWriterTest, DoublesShortestRoundTrip) {
  EXPECT_EQ(DoubleText(0.1), "0.1");
  EXPECT_EQ(DoubleText(0.5), "0.5");
  EXPECT_EQ(DoubleText(100.0), "100.0");
  EXPECT_EQ(DoubleText(-2.5), "-2.5");
  EXPECT_EQ(DoubleText(1e20), "1e+20");
  EXPECT_EQ(DoubleText(1e-7), "1e-07");
  EXPECT_EQ(DoubleText(0.0), "0.0");
  EXPECT_EQ(DoubleText(-0.0), "-0.0");
  EXPECT_EQ(DoubleText(-292644323418617217024.0), "-2.9264432341861722e+20");
  EXPECT_EQ(DoubleText(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(DoubleText(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(DoubleText(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
}

TEST(JsonWriterTest, NonFiniteDoublesAreNullAndAnError) {
  for (const double d : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
    Writer w;
    w.BeginArray().Double(d).EndArray();
    EXPECT_EQ(w.str(), "[null]");
    EXPECT_FALSE(w.ok());
    EXPECT_FALSE(w.complete());
    EXPECT_EQ(w.error(), "Double with a non-finite value (written as null)");
  }
}

TEST(JsonWriterTest, Misuse) {
  {
    Writer w;
    w.BeginObject().Uint(1);
    EXPECT_EQ(w.error(), "Uint inside an object without a Key");
    EXPECT_EQ(w.str(), "{");  // the call was ignored
  }
  {
    Writer w;
    w.BeginArray().Key("k");
    EXPECT_EQ(w.error(), "Key outside an object");
  }
  {
    Writer w;
    w.BeginObject().Key("a").Key("b");
    EXPECT_EQ(w.error(), "Key after a Key without a value");
  }
  {
    Writer w;
    w.BeginObject().Key("a").EndObject();
    EXPECT_EQ(w.error(), "EndObject after a Key without a value");
  }
  {
    Writer w;
    w.BeginObject().EndArray();
    EXPECT_EQ(w.error(), "EndArray closing the wrong kind of container");
  }
  {
    Writer w;
    w.EndObject();
    EXPECT_EQ(w.error(), "EndObject with no open container");
  }
  {
    Writer w;
    w.Uint(1).Uint(2);
    EXPECT_EQ(w.error(), "Uint after the top-level value was complete");
    EXPECT_EQ(w.str(), "1");
    EXPECT_FALSE(w.complete());
  }
  {
    Writer w;
    w.BeginArray();
    EXPECT_TRUE(w.ok());
    EXPECT_FALSE(w.complete());  // still open
  }
}

TEST(JsonWriterTest, LiteralsAreEscapedLikeAnyString) {
  // String literals take an inlined path; their output must be the same as for any string_view.
  Writer a, b;
  a.BeginObject().Key("plain").String("v").Key("q\"k").String("tab\there").Key("caf\xC3\xA9").String("\x01");
  a.Key("a key longer than the short-literal path").String("a value longer than the short-literal path");
  a.EndObject();
  b.BeginObject().Key(std::string_view("plain")).String(std::string_view("v"));
  b.Key(std::string_view("q\"k")).String(std::string_view("tab\there"));
  b.Key(std::string_view("caf\xC3\xA9")).String(std::string_view("\x01"));
  b.Key(std::string_view("a key longer than the short-literal path"));
  b.String(std::string_view("a value longer than the short-literal path"));
  b.EndObject();
  ASSERT_TRUE(a.complete()) << a.error();
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ(a.view(), R"({"plain":"v","q\"k":"tab\there","caf)" "\xC3\xA9" R"(":"\u0001",)"
                      R"("a key longer than the short-literal path":"a value longer than the short-literal path"})");
  // A literal misused is recorded like any other call.
  Writer c;
  c.BeginArray().Key("k");
  EXPECT_EQ(c.error(), "Key outside an object");
}

TEST(JsonWriterTest, ViewAndStrAreTheTextSoFar) {
  Writer w;
  w.BeginArray().Uint(1);
  EXPECT_EQ(w.view(), "[1");
  const std::string copy = w.str();
  w.Uint(2).EndArray();
  EXPECT_EQ(copy, "[1");  // str() is a copy of the text at the time
  EXPECT_EQ(w.view(), "[1,2]");
  EXPECT_EQ(w.str(), "[1,2]");
  // Many long strings: the buffer grows and keeps what was written.
  Writer big;
  big.BeginArray();
  const std::string s(1000, 'x');
  for (int i = 0; i < 1000; ++i) big.String(s);
  big.EndArray();
  EXPECT_EQ(big.view().size(), 1000u * 1003u + 1u);
  EXPECT_TRUE(big.complete());
}

TEST(JsonWriterTest, TakeAndClear) {
  WriterOptions opt;
  opt.pretty = true;
  Writer w(opt);
  w.BeginArray().Uint(1).EndArray();
  EXPECT_EQ(w.Take(), "[\n  1\n]");
  EXPECT_EQ(w.str(), "");
  w.BeginArray().Uint(2).EndArray();  // still pretty, a fresh document
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(w.str(), "[\n  2\n]");
  w.Uint(3);
  EXPECT_FALSE(w.ok());
  w.Clear();
  EXPECT_TRUE(w.ok());
  w.Null();
  EXPECT_EQ(w.str(), "null");
}

// ---------------------------------------------------------------------------------------------------
// Round trips through simdjson (the library tmapgen reads JSON with).

TEST(JsonWriterTest, RoundTripThroughSimdjson) {
  const std::vector<std::string> strings = {"", "plain", "q\"b\\s/", std::string("\0\x01\x1f\x7f", 4),
                                            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\b\f\n\r\t"};
  const std::vector<uint64_t> uints = {0, 1, 1000, 4294967296ull, std::numeric_limits<uint64_t>::max()};
  const std::vector<int64_t> ints = {0, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  const std::vector<double> doubles = {0.0,
                                       -0.0,
                                       0.1,
                                       -1.5e-300,
                                       1e300,
                                       123456789.125,
                                       std::numeric_limits<double>::denorm_min(),
                                       std::numeric_limits<double>::min(),
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::lowest(),
                                       std::numeric_limits<double>::epsilon()};
  for (const bool pretty : {false, true}) {
    WriterOptions opt;
    opt.pretty = pretty;
    Writer w(opt);
    w.BeginObject();
    w.Key("strings").BeginArray();
    for (const auto& s : strings) w.String(s);
    w.EndArray();
    w.Key("uints").BeginArray();
    for (const auto u : uints) w.Uint(u);
    w.EndArray();
    w.Key("ints").BeginArray();
    for (const auto i : ints) w.Int(i);
    w.EndArray();
    w.Key("doubles").BeginArray();
    for (const auto d : doubles) w.Double(d);
    w.EndArray();
    w.Key("key \xC3\xA9\n").BeginObject().Key("b").Bool(true).Key("n").Null().EndObject();
    w.EndObject();
    ASSERT_TRUE(w.complete()) << w.error();

    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(w.str()).get(doc)) << w.str();
    simdjson::dom::array a;
    ASSERT_FALSE(doc["strings"].get_array().get(a));
    ASSERT_EQ(a.size(), strings.size());
    for (size_t k = 0; k < strings.size(); ++k) {
      std::string_view v;
      ASSERT_FALSE(a.at(k).get_string().get(v));
      EXPECT_EQ(v, strings[k]);
    }
    ASSERT_FALSE(doc["uints"].get_array().get(a));
    ASSERT_EQ(a.size(), uints.size());
    for (size_t k = 0; k < uints.size(); ++k) {
      uint64_t v = 0;
      ASSERT_FALSE(a.at(k).get_uint64().get(v));
      EXPECT_EQ(v, uints[k]);
    }
    ASSERT_FALSE(doc["ints"].get_array().get(a));
    ASSERT_EQ(a.size(), ints.size());
    for (size_t k = 0; k < ints.size(); ++k) {
      int64_t v = 0;
      ASSERT_FALSE(a.at(k).get_int64().get(v));
      EXPECT_EQ(v, ints[k]);
    }
    ASSERT_FALSE(doc["doubles"].get_array().get(a));
    ASSERT_EQ(a.size(), doubles.size());
    for (size_t k = 0; k < doubles.size(); ++k) {
      double d = 1;
      ASSERT_FALSE(a.at(k).get_double().get(d));
      EXPECT_EQ(std::memcmp(&d, &doubles[k], sizeof d), 0) << doubles[k];  // bit for bit, -0.0 included
    }
    bool b = false;
    ASSERT_FALSE(doc["key \xC3\xA9\n"]["b"].get_bool().get(b));
    EXPECT_TRUE(b);
    EXPECT_TRUE(doc["key \xC3\xA9\n"]["n"].is_null());
  }
}

TEST(JsonWriterTest, ManyDoublesRoundTripBitForBit) {
  // Bit patterns from a fixed linear congruential sequence: every finite double must come back exactly.
  uint64_t x = 88172645463325252ull;
  int tested = 0;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double d;
    std::memcpy(&d, &x, sizeof d);
    if (!std::isfinite(d)) continue;
    const std::string text = DoubleText(d);
    simdjson::dom::parser parser;
    double back = 0;
    ASSERT_FALSE(parser.parse(text).get_double().get(back)) << text;
    ASSERT_EQ(std::memcmp(&d, &back, sizeof d), 0) << text;
    ++tested;
  }
  EXPECT_GT(tested, 19000);
}

TEST(JsonWriterTest, AnyBytesMakeAStringThatSimdjsonAccepts) {
  // Every single byte and every pair of bytes (after a fixed prefix) as a string value.
  std::string s;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 3) {
      s.assign({'x', static_cast<char>(a), static_cast<char>(b)});
      const std::string q = Quoted(s);
      simdjson::dom::parser parser;
      std::string_view back;
      ASSERT_FALSE(parser.parse(q).get_string().get(back)) << a << "," << b;
      // Valid input comes back unchanged; invalid bytes were replaced, so the result is re-quoted the same.
      EXPECT_EQ(Quoted(back), q);
    }
  }
}

}  // namespace
}  // namespace tmapgen::json
