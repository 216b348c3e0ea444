// The JSON form of a spec: accepted spellings, defaults, strict errors naming the field, round trip.
#include "src/schema/spec_json.h"

#include <gtest/gtest.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "tests/json/without_layout.h"

#include "src/tmap/rule.h"
#include "src/tmap/rule_catalogue.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

TensorMapSpec MustParse(const std::string& text) {
  absl::StatusOr<TensorMapSpec> s = ParseSpecJson(text);
  EXPECT_TRUE(s.ok()) << text << "\n" << s.status();
  return s.ok() ? *s : TensorMapSpec();
}

InputError MustFail(const std::string& text, size_t first_line = 1) {
  absl::StatusOr<TensorMapSpec> s = ParseSpecJson(text, first_line);
  EXPECT_FALSE(s.ok()) << text;
  if (s.ok()) return InputError();
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << text;
  return InputErrorOf(s.status());
}

TEST(SpecJson, ShortAndFullEnumNamesAndIntegersAreTheSame) {
  const TensorMapSpec a = MustParse(
      R"({"tensor_data_type":"bf16","global_dim":[64,64],"box_dim":[64,8],"swizzle":"128B_atom_32B","interleave":"none","l2_promotion":"256B","oob_fill":"nan"})");
  const TensorMapSpec b = MustParse(
      R"({"tensor_data_type":"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16","global_dim":[64,64],"box_dim":[64,8],"swizzle":"CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B","interleave":"CU_TENSOR_MAP_INTERLEAVE_NONE","l2_promotion":"CU_TENSOR_MAP_L2_PROMOTION_L2_256B","oob_fill":"CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"})");
  // cuda.h values: BFLOAT16 = 9, SWIZZLE_128B_ATOM_32B = 4, L2_256B = 3, NAN_REQUEST_ZERO_FMA = 1.
  const TensorMapSpec c = MustParse(
      R"({"tensor_data_type":9,"global_dim":[64,64],"box_dim":[64,8],"swizzle":4,"interleave":0,"l2_promotion":3,"oob_fill":1})");
  for (const TensorMapSpec* s : {&a, &b, &c}) {
    EXPECT_EQ(s->data_type, DataType::kBfloat16);
    EXPECT_EQ(s->swizzle, Swizzle::k128BAtom32B);
    EXPECT_EQ(s->l2_promotion, L2Promotion::k256B);
    EXPECT_EQ(s->oob_fill, OobFill::kNanRequestZeroFma);
  }
}

TEST(SpecJson, DefaultsAreFilled) {
  const TensorMapSpec s = MustParse(R"({"tensor_data_type":"f16","global_dim":[100,7,3],"box_dim":[8,1,1]})");
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.mode, Mode::kTiled);
  EXPECT_EQ(s.direction, Direction::kLoadCta);
  // The dense tensor's strides (cuda.h: globalStrides[0] = globalDim[0] x element size + padding[0], then x
  // (globalDim[i] + padding[i]), padding 0): 100 x 2 B = 200 B; then 200 x 7 = 1400 B.
  EXPECT_EQ(s.global_strides[0], 200u);
  EXPECT_EQ(s.global_strides[1], 1400u);
  EXPECT_FALSE(s.Has(kFieldGlobalStrides));
  EXPECT_EQ(s.element_strides[0], 1u);
  EXPECT_EQ(s.element_strides[2], 1u);
}

TEST(SpecJson, AddressesAndDriverVersions) {
  const TensorMapSpec s = MustParse(
      R"({"tensor_data_type":"u8","global_dim":[64],"box_dim":[64],"global_address":"0x7f0000000400","smem_address":1024,"driver_version":"12.8"})");
  EXPECT_EQ(s.global_address, 0x7f0000000400u);
  EXPECT_EQ(s.smem_address, 1024u);
  EXPECT_EQ(s.driver_version, 12080u);
  EXPECT_EQ(ParseDriverVersion("13000").value_or(0), 13000u);
  EXPECT_EQ(ParseDriverVersion("13.1").value_or(0), 13010u);
  EXPECT_EQ(ParseDriverVersion("13").value_or(0), 13000u);
  EXPECT_EQ(ParseDriverVersion("13.x").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseDriverVersion("").ok());
}

// Hex address strings: every length up to 16 digits and past it, both cases, a bad digit at each place. The
// expected value and verdict are std::from_chars's (the C++ library's reading of base-16 text, which the
// reader used for every address before it read short ones itself), plus constants written out.
TEST(SpecJson, HexAddressesReadAsFromCharsReadsThem) {
  EXPECT_EQ(MustParse(R"({"tensor_data_type":"u8","global_dim":[64],"box_dim":[64],"global_address":"0xFFFFFFFFFFFFFFFF"})")
                .global_address,
            0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(MustParse(R"({"tensor_data_type":"u8","global_dim":[64],"box_dim":[64],"global_address":"0X0aBcDeF"})")
                .global_address,
            0xABCDEFull);
  const std::string digits = "0123456789abcdefABCDEF";
  for (size_t n = 1; n <= 18; ++n) {
    for (int variant = 0; variant < 4; ++variant) {
      std::string hex;
      for (size_t i = 0; i < n; ++i) hex += digits[(i * 7 + n * 3 + static_cast<size_t>(variant)) % digits.size()];
      if (variant == 3) hex[n / 2] = "gG /:@`x"[n % 8];  // one character that is no hex digit
      uint64_t want = 0;
      const auto r = std::from_chars(hex.data(), hex.data() + hex.size(), want, 16);
      const bool ok = r.ec == std::errc() && r.ptr == hex.data() + hex.size();
      const std::string text = R"({"tensor_data_type":"u8","global_dim":[64],"box_dim":[64],"global_address":"0x)" + hex + R"("})";
      absl::StatusOr<TensorMapSpec> got = ParseSpecJson(text);
      EXPECT_EQ(got.ok(), ok) << text;
      if (ok && got.ok()) {
        EXPECT_EQ(got->global_address, want) << text;
      }
      if (!ok && !got.ok()) {
        EXPECT_EQ(InputErrorOf(got.status()).field, "global_address") << text;
      }
    }
  }
}

TEST(SpecJson, ErrorsNameTheField) {
  struct Case { const char* text; const char* field; const char* contains; } cases[] = {
      {R"({"tensor_data_type":"bf17","global_dim":[8],"box_dim":[8]})", "tensor_data_type", "unknown value \"bf17\""},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"swizzle":7})", "swizzle", "out of range"},
      {R"({"tensor_data_type":"bf16","global_dim":[8,"x"],"box_dim":[8,1]})", "global_dim[1]", "expected"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[-8]})", "box_dim[0]", "got -8"},
      {R"({"tensor_data_type":"bf16","global_dim":[1,2,3,4,5,6],"box_dim":[1]})", "global_dim[5]", "more than 5"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"box_dim":[8]})", "box_dim", "twice"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box":[8]})", "box", "did you mean \"box_dim\""},
      {R"({"global_dim":[8],"box_dim":[8]})", "tensor_data_type", "missing"},
      {R"({"tensor_data_type":"bf16","box_dim":[8]})", "global_dim", "missing"},
      {R"({"tensor_data_type":"bf16","global_dim":[8]})", "box_dim", "missing"},
      {R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,8,8,8],"pixels_per_column":8})", "channels_per_pixel", "missing"},
      {R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,8,8,8],"channels_per_pixel":8,"pixels_per_column":8,"pixel_box_lower_corner":[1,2,3]})", "pixel_box_lower_corner", "needs 2"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"pixel_box_lower_corner_width":2147483648})", "pixel_box_lower_corner_width", "32-bit"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"global_address":"0xzz"})", "global_address", "expected an address"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8],"target":"sm_89"})", "target", "unknown value"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8]} x)", "", "line 1"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],)", "", "line 1"},
  };
  for (const Case& c : cases) {
    const InputError e = MustFail(c.text);
    EXPECT_EQ(e.field, c.field) << c.text << "\n" << e.message;
    EXPECT_NE(e.message.find(c.contains), std::string::npos) << c.text << "\n" << e.message;
  }
}

// --- positions, numbers and strictness (behaviour users rely on; docs/schema.md "Strictness") ---------

// The column of the first occurrence of `marker` in `text`, counted in code points (1-based): where an
// error about the text at that marker must point.
size_t ColumnOf(std::string_view text, std::string_view marker) {
  const size_t at = text.find(marker);
  EXPECT_NE(at, std::string_view::npos) << marker;
  size_t col = 1;
  for (size_t i = 0; i < at; ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++col;
  return col;
}

TEST(SpecJson, ErrorsCarryTheLineAndColumnInTheFile) {
  // Line 3 is `  "global_dim": [8, -4],`: the '-' of -4 is its 21st character.
  const std::string text = "{\n  \"tensor_data_type\": \"bf16\",\n  \"global_dim\": [8, -4],\n  \"box_dim\": [8, 1]\n}";
  InputError e = MustFail(text);
  EXPECT_EQ(e.field, "global_dim[1]");
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 21u);
  EXPECT_EQ(e.message, "line 3, column 21: global_dim[1]: expected an unsigned integer, got -4");
  // A text that starts on line 10 of its file (JSON Lines).
  e = MustFail(text, 10);
  EXPECT_EQ(e.line, 12u);
  EXPECT_EQ(e.column, 21u);
  // CR LF ends a line once; the CR is not a column of the next line.
  e = MustFail("{\r\n\"tensor_data_type\":\"bf16\",\r\n\"global_dim\":[-1],\"box_dim\":[8]}");
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 15u);  // `"global_dim":[` is 14 characters
}

TEST(SpecJson, ColumnsCountCharactersNotBytes) {
  // The name holds 3 characters in 9 bytes (2 + 3 + 4).
  const std::string text =
      "{\"name\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\",\"tensor_data_type\":\"bf17\",\"global_dim\":[8],\"box_dim\":[8]}";
  const InputError e = MustFail(text);
  EXPECT_EQ(e.field, "tensor_data_type");
  EXPECT_EQ(e.column, 34u);
  EXPECT_EQ(e.column, ColumnOf(text, "\"bf17\""));
}

TEST(SpecJson, IntegersInAnyExactForm) {
  // docs/schema.md: a number whose exact value is an integer is that integer.
  const TensorMapSpec s = MustParse(
      R"({"tensor_data_type":"u8","global_dim":[1e3,10.0,1.5e3,150e-1],"box_dim":[8,1,1,1],)"
      R"("global_address":18446744073709551615,"pixel_box_lower_corner_width":-0})");
  EXPECT_EQ(s.global_dim[0], 1000u);
  EXPECT_EQ(s.global_dim[1], 10u);
  EXPECT_EQ(s.global_dim[2], 1500u);
  EXPECT_EQ(s.global_dim[3], 15u);
  EXPECT_EQ(s.global_address, 18446744073709551615u);
  EXPECT_EQ(s.pixel_box_lower_corner_width, 0);
}

TEST(SpecJson, NegativeOverflowingAndFractionalValuesNameTheField) {
  struct Case { const char* field; const char* value; const char* message; } cases[] = {
      {"box_dim", "1.5", "box_dim[0]: expected an unsigned integer, got 1.5"},
      {"box_dim", "1e-3", "box_dim[0]: expected an unsigned integer, got 1e-3"},
      {"box_dim", "-1", "box_dim[0]: expected an unsigned integer, got -1"},
      {"box_dim", "-1e400", "box_dim[0]: expected an unsigned integer, got -1e400"},
      {"box_dim", "18446744073709551616",
       "box_dim[0]: expected an unsigned integer <= 18446744073709551615, got 18446744073709551616"},
      {"box_dim", "1e400", "box_dim[0]: expected an unsigned integer <= 18446744073709551615, got 1e400"},
      {"box_dim", "4294967296", "box_dim[0]: value 4294967296 does not fit in 32 bits"},
      {"box_dim", "\"8\"", "box_dim[0]: expected an unsigned integer, got \"8\""},
      {"box_dim", "null", "box_dim[0]: expected an unsigned integer, got 'null'"},
      {"box_dim", "[8]", "box_dim[0]: expected an unsigned integer, got an array"},
      {"pixel_box_lower_corner_width", "9223372036854775808",
       "pixel_box_lower_corner_width: expected an integer in [-9223372036854775808, 9223372036854775807], got "
       "9223372036854775808"},
      {"pixel_box_lower_corner_width", "-2147483649",
       "pixel_box_lower_corner_width: value -2147483649 does not fit in a 32-bit int"},
  };
  for (const Case& c : cases) {
    const bool in_array = std::string(c.field) == "box_dim";
    const std::string value = in_array ? StrCat("[", c.value, "]") : std::string(c.value);
    const std::string text = StrCat(R"({"tensor_data_type":"bf16","global_dim":[8],)", in_array ? "" : R"("box_dim":[8],)",
                                    "\"", c.field, "\":", value, "}");
    // The value starts after `"field":` (and after '[' in an array).
    const size_t column = ColumnOf(text, StrCat("\"", c.field, "\":")) + std::string(c.field).size() + 3 + (in_array ? 1 : 0);
    const InputError e = MustFail(text);
    EXPECT_EQ(e.message, StrCat("line 1, column ", column, ": ", c.message)) << text;
  }
}

TEST(SpecJson, TextThatIsNotJsonIsRejectedWithItsPlace) {
  const std::string base = R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8])";
  // `at`: the text the error points at (its first occurrence); `skip`: characters to move past it.
  struct Case { std::string text; std::string at; size_t skip; const char* field; const char* message; } cases[] = {
      {base + ",}", ",}", 0, "", "trailing comma before '}'"},
      {R"({"tensor_data_type":"bf16","global_dim":[8,],"box_dim":[8]})", ",]", 0, "global_dim", "trailing comma before ']'"},
      {base + " /* x */}", "/*", 0, "", "expected ',' or '}' after an object member, got '/'"},
      {R"({'tensor_data_type':"bf16"})", "'", 0, "", "expected a string key, got '''"},
      {R"({"tensor_data_type" "bf16"})", " \"bf16", 1, "", "expected ':' after an object key, got \"bf16\""},
      {R"({"tensor_data_type":"bf16","global_dim":[NaN],"box_dim":[8]})", "NaN", 0, "global_dim[0]", "expected a value, got 'N'"},
      {R"({"tensor_data_type":"bf16","global_dim":[+8],"box_dim":[8]})", "+8", 0, "global_dim[0]", "expected a value, got '+'"},
      {R"({"tensor_data_type":"bf16","global_dim":[08],"box_dim":[8]})", "08", 0, "global_dim[0]",
       "leading zeros are not allowed in numbers"},
      {R"({"tensor_data_type":"bf16","global_dim":[8.],"box_dim":[8]})", ".]", 1, "global_dim[0]",
       "expected a digit after the decimal point, got ']'"},
      {base + ",\"name\":\"a\tb\"}", "\t", 0, "name", "control character U+0009 in a string must be escaped"},
      {base + R"(,"name":"a\qb"})", "\\q", 0, "name", "invalid escape '\\q'"},
      {base + R"(,"name":"\ud800"})", "\\ud800", 0, "name", "unpaired UTF-16 high surrogate \\ud800"},
      {base + R"(,"name":"\udc00x"})", "\\udc00", 0, "name", "unpaired UTF-16 low surrogate \\udc00"},
      {base + ",\"name\":\"a\xFF\"}", "\xFF", 0, "name", "invalid UTF-8 in a string (byte 0xFF)"},
      {base + ",\"name\":\"a\xC0\x80\"}", "\xC0", 0, "name", "invalid UTF-8 in a string (byte 0xC0)"},      // overlong NUL
      {base + ",\"name\":\"a\xED\xA0\x80\"}", "\xED", 0, "name", "invalid UTF-8 in a string (byte 0xED)"},  // a surrogate
      {"\xEF\xBB\xBF" + base + "}", "\xEF", 0, "", "expected a value, got a UTF-8 byte order mark"},
      {base + "} x", " x", 1, "", "unexpected text after the JSON value: 'x'"},
      {base + "}{}", "}{", 1, "", "unexpected text after the JSON value: an object"},
      {R"({"tensor_data_type":"bf16","global_dim":[8],"name":tru})", "tru", 0, "name", "invalid literal 'tru' (expected 'true')"},
  };
  for (const Case& c : cases) {
    const InputError e = MustFail(c.text);
    const size_t column = ColumnOf(c.text, c.at) + c.skip;
    EXPECT_EQ(e.message, StrCat("line 1, column ", column, ": ", c.field, *c.field ? ": " : "", c.message)) << c.text;
    EXPECT_EQ(e.field, c.field) << c.text;
    EXPECT_EQ(e.line, 1u);
    EXPECT_EQ(e.column, column);
  }
  // Cut short or empty: the place is the end of the text.
  EXPECT_EQ(MustFail(base).message, StrCat("line 1, column ", base.size() + 1, ": unexpected end of input in an object"));
  EXPECT_EQ(MustFail("").message, "line 1, column 1: unexpected end of input, expected a value");
}

TEST(SpecJson, EveryPrefixOfASpecIsCutShort) {
  const std::string text = R"({"name":"a\u00e9","tensor_data_type":"bf16","global_dim":[4096,-1e2],"box_dim":[64,8]})";
  for (size_t n = 0; n < text.size(); ++n) {
    const InputError e = MustFail(text.substr(0, n));
    EXPECT_NE(e.message.find("unexpected end of input"), std::string::npos) << text.substr(0, n) << "\n" << e.message;
  }
}

TEST(SpecJson, TextThatIsNotJsonWinsOverAProblemWithAField) {
  // An unknown field first, then a trailing comma: the text is not JSON, and that is what is reported.
  InputError e = MustFail(R"({"box":[8],"tensor_data_type":"bf16","global_dim":[8],})");
  EXPECT_NE(e.message.find("trailing comma"), std::string::npos) << e.message;
  // A wrong value, then broken syntax inside an unknown field's value (which simdjson skips unread).
  e = MustFail(R"({"tensor_data_type":"bf17","global_dim":[8],"box_dim":[8],"x":[1 2]})");
  EXPECT_NE(e.message.find("x: expected ',' or ']' after an array element, got 2"), std::string::npos) << e.message;
  EXPECT_EQ(e.field, "x");
}

// On-Demand does not check what it skips; a string value read in place is skipped by the next step. A text
// whose first member's value is followed by ':' must still be "not JSON", whatever bytes follow it in the
// buffer (spec_json_fuzz found such a text passing as an object, with an answer that depended on the padding).
TEST(SpecJson, WhatOnDemandSkipsIsCheckedToo) {
  const std::string text = "{\"name\":\"a\":\"b\",\"tensor_data_type\":\"bf16\",\"global_dim\":[8],\"box_dim\":[8]}\n,\"x\":1}";
  const InputError e = MustFail(text);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 12u);  // the second :
  EXPECT_NE(e.message.find("expected ',' or '}' after an object member, got ':'"), std::string::npos) << e.message;
  SpecJsonParser parser;
  parser.set_fast_path(false);
  for (const char pad : {'\0', ' ', '}'}) {
    std::string buf = text;
    buf.append(json::kPadding, pad);
    TensorMapSpec s;
    const absl::Status st = parser.Parse(std::string_view(buf.data(), text.size()), json::TextPos(), true, &s);
    EXPECT_EQ(InputErrorOf(st).message, e.message) << static_cast<int>(pad);
  }
}

TEST(SpecJson, HostileNestingIsAnErrorNotACrash) {
  const std::string deep = "{\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  InputError e = MustFail(deep);
  EXPECT_NE(e.message.find("nested deeper than the limit of 64"), std::string::npos) << e.message.substr(0, 200);
  e = MustFail(std::string(100000, '['));
  EXPECT_FALSE(e.message.empty());
}

TEST(SpecJson, KeysAreReadUnescaped) {
  const TensorMapSpec s =
      MustParse(R"({"tensor_data_type":"bf16","global_dim":[8],"\u0062ox_dim":[8],"n\u0061me":"\"q\""})");
  EXPECT_TRUE(s.Has(kFieldBoxDim));
  EXPECT_EQ(s.box_dim[0], 8u);
  EXPECT_EQ(s.name, "\"q\"");
}

TEST(SpecJson, ParserReadsPaddedTextsInPlaceAndKeepsNoStateBetweenThem) {
  SpecJsonParser parser;
  std::string buf = R"({"name":"n","tensor_data_type":"bf16","global_dim":[8],"box_dim":[8]})";
  const size_t n = buf.size();
  buf.append(json::kPadding, '"');  // padding bytes of any value
  TensorMapSpec s;
  ASSERT_TRUE(parser.Parse(std::string_view(buf.data(), n), json::TextPos(), true, &s).ok());
  EXPECT_EQ(s.global_dim[0], 8u);
  EXPECT_EQ(s.name, "n");
  const absl::Status bad = parser.Parse(R"({"tensor_data_type":"bf16"})", json::TextPos{7, 1}, false, &s);
  EXPECT_EQ(InputErrorOf(bad).field, "global_dim");
  ASSERT_TRUE(parser.Parse(R"({"tensor_data_type":"bf16","global_dim":[8],"box_dim":[8]})", json::TextPos(), false, &s).ok());
  EXPECT_FALSE(s.Has(kFieldName));
  EXPECT_TRUE(s.name.empty());
}

TEST(SpecJson, WriteThenReadIsTheSameSpec) {
  for (int m = 0; m < kNumModes; ++m) {
    TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
    s.name = "t\"x";
    s.set_fields |= kFieldName | kFieldTarget | kFieldSmemAddress;
    s.target = Target::kSm100a;
    s.smem_address = 0x480;
    json::Writer w;
    WriteSpecJson(s, &w);
    const TensorMapSpec r = MustParse(w.str());
    EXPECT_EQ(r.mode, s.mode);
    EXPECT_EQ(r.name, s.name);
    EXPECT_EQ(r.rank, s.rank);
    EXPECT_EQ(r.global_dim, s.global_dim);
    EXPECT_EQ(r.global_strides, s.global_strides);
    if (!IsIm2colMode(s.mode)) {
      EXPECT_EQ(r.box_dim, s.box_dim);
    }
    EXPECT_EQ(r.pixel_box_lower_corner_width, s.pixel_box_lower_corner_width);
    EXPECT_EQ(r.channels_per_pixel, s.channels_per_pixel);
    EXPECT_EQ(r.swizzle, s.swizzle);
    EXPECT_EQ(r.target, s.target);
    EXPECT_EQ(r.smem_address, s.smem_address);
  }
}

// The compact WriteSpecJson (written through a pointer, src/schema/spec_json_write.cc) and the pretty one
// (Writer calls) are two codes for one form: with the pretty layout's whitespace removed they must agree.
using json_test::WithoutLayout;

TEST(SpecJson, CompactWriterMatchesTheWriterCalls) {
  for (int m = 0; m < kNumModes; ++m) {
    for (int variant = 0; variant < 4; ++variant) {
      TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
      if (variant >= 1) {
        s.name = "a \"name\" with\tescapes \xff";
        s.set_fields |= kFieldName | kFieldTarget | kFieldSmemAddress | kFieldGlobalAddress;
        s.target = Target::kSm90a;
        s.smem_address = 0x480;
        s.global_address = 0x7f0000001000ull;
        s.pixel_box_lower_corner = {-3, -2, -1};
        s.pixel_box_lower_corner_width = -5;
      }
      if (variant >= 2) {
        s.set_fields |= kFieldReduceOp | kFieldBoxDim | kFieldLowerCorner | kFieldUpperCorner | kFieldLowerCornerWidth |
                        kFieldUpperCornerWidth | kFieldChannelsPerPixel | kFieldPixelsPerColumn | kFieldWideMode |
                        kFieldSmemAlignment | kFieldDriverVersion;
        s.direction = Direction::kReduce;
        s.smem_alignment = 1024;
        s.driver_version = 13000;
        s.global_dim[0] = UINT64_MAX;
      }
      if (variant == 3) s.rank = 1;
      json::Writer compact;
      WriteSpecJson(s, &compact);
      json::Writer pretty(json::WriterOptions{true});
      WriteSpecJson(s, &pretty);
      ASSERT_TRUE(compact.complete());
      EXPECT_EQ(compact.str(), WithoutLayout(pretty.str())) << "mode " << m << " variant " << variant;
    }
  }
}

// The compact spec writer copies the table names (Name, FullName) without escaping (json::RawText::Plain):
// none may hold a byte that JSON escapes, or a byte outside ASCII.
TEST(SpecJson, TableNamesNeedNoEscaping) {
  std::vector<std::string_view> names;
  for (int i = 0; i < kNumModes; ++i) names.push_back(Name(static_cast<Mode>(i)));
  for (int i = 0; i < kNumDirections; ++i) names.push_back(Name(static_cast<Direction>(i)));
  for (int i = 0; i < kNumReduceOps; ++i) names.push_back(Name(static_cast<ReduceOp>(i)));
  for (int i = 0; i < kNumTargets; ++i) names.push_back(Name(static_cast<Target>(i)));
  for (int i = 0; i < kNumDataTypes; ++i) names.push_back(FullName(static_cast<DataType>(i)));
  for (int i = 0; i < kNumInterleaves; ++i) names.push_back(FullName(static_cast<Interleave>(i)));
  for (int i = 0; i < kNumSwizzles; ++i) names.push_back(FullName(static_cast<Swizzle>(i)));
  for (int i = 0; i < kNumL2Promotions; ++i) names.push_back(FullName(static_cast<L2Promotion>(i)));
  for (int i = 0; i < kNumOobFills; ++i) names.push_back(FullName(static_cast<OobFill>(i)));
  for (int i = 0; i < kNumIm2colWideModes; ++i) names.push_back(FullName(static_cast<Im2colWideMode>(i)));
  for (const std::string_view n : names) {
    EXPECT_FALSE(n.empty());
    for (const char c : n) EXPECT_TRUE(c >= 0x20 && c < 0x7f && c != '"' && c != '\\') << n;
  }
}

// RawText::HexStr writes what StrCat("0x", absl::Hex(v)) does.
TEST(SpecJson, CompactHexIsStrCatHex) {
  for (const uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{15}, uint64_t{16}, uint64_t{0x7f0028a18800}, ~uint64_t{0},
                           uint64_t{1} << 63, uint64_t{0x10}, uint64_t{0xabcdef}}) {
    char buf[64];
    json::RawText o(buf);
    o.HexStr(v);
    EXPECT_EQ(std::string(buf, static_cast<size_t>(o.end() - buf)), "\"" + Hex(v) + "\"");
  }
}

TEST(Docs, RulesDocumentListsEveryRule) {
  std::ifstream in(std::string(TMAPGEN_SOURCE_DIR) + "/docs/rules.md");
  ASSERT_TRUE(in) << "docs/rules.md missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  // Every id of the catalogue, of every family, retired ids included.
  for (int i = 0; i < NumCatalogueEntries(); ++i) {
    const std::string id = "`" + std::string(RuleCatalogue()[i].id) + "`";
    EXPECT_NE(doc.find(id), std::string::npos) << id << " is not in docs/rules.md: run scripts/dev/gen-rules-doc.sh";
  }
}

}  // namespace
}  // namespace tmapgen
