// Tests for src/json/json_sink.h: one body written through both sinks gives the JSON written out by hand below
// (RFC 8259 compact form), and the pretty writer's form of the same value.
#include "src/json/json_sink.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace tmapgen::json {
namespace {

// Every framing of the TMAPGEN_JSON_* macros, arrays of both signs, the separators, hex and the literals.
template <class Out>
void Body(Out& o) {
  o.M(TMAPGEN_JSON_OK("a"));  // {"a":
  o.U(1);
  o.M(TMAPGEN_JSON_K("b"));
  o.I(-2);
  o.M(TMAPGEN_JSON_KO("c"));  // ,"c":{
  o.M(TMAPGEN_JSON_FK("d"));
  o.Bool(true);
  o.M(TMAPGEN_JSON_K("e"));
  o.Null();
  o.EndObject();
  o.M(TMAPGEN_JSON_KA("f"));  // ,"f":[
  bool first = true;
  for (int i = 0; i < 3; ++i) {
    o.Sep(&first);
    o.M(TMAPGEN_JSON_OK("g"));
    o.Str(i == 1 ? "q\"t" : "x");
    o.EndObject();
  }
  o.EndArray();
  o.M(TMAPGEN_JSON_KO("h"));
  o.M(TMAPGEN_JSON_FKA("i"));  // "i":[
  o.EndArray();
  o.M(TMAPGEN_JSON_K("j"));
  const int32_t neg[3] = {-1, 0, 2147483647};
  o.Arr(neg, 3);
  o.M(TMAPGEN_JSON_K("k"));
  const uint64_t big[2] = {0, UINT64_MAX};
  o.Arr(big, 2);
  o.EndObject();
  o.M(TMAPGEN_JSON_K("l"));
  o.HexStr(0);
  o.M(TMAPGEN_JSON_K("m"));
  o.HexStr(0x7f0028a18800ull);
  o.M(TMAPGEN_JSON_K("n"));
  o.Plain("sm_90a");
  o.M(TMAPGEN_JSON_K("o"));
  o.Bool(false);
  o.EndObject();
}

constexpr const char* kExpected =
    R"({"a":1,"b":-2,"c":{"d":true,"e":null},"f":[{"g":"x"},{"g":"q\"t"},{"g":"x"}],)"
    R"("h":{"i":[],"j":[-1,0,2147483647],"k":[0,18446744073709551615]},"l":"0x0","m":"0x7f0028a18800",)"
    R"("n":"sm_90a","o":false})";

TEST(JsonSink, CompactSinkWritesTheCompactBytes) {
  Writer w;
  char* p = w.RawBegin(4096);
  ASSERT_NE(p, nullptr);
  CompactSink o{RawText(p)};
  Body(o);
  w.RawEnd(o.raw()->end());
  EXPECT_TRUE(w.complete()) << w.error();
  EXPECT_EQ(w.str(), kExpected);
}

TEST(JsonSink, WriterSinkMakesTheSameValueWithWriterCalls) {
  Writer compact;
  WriterSink a(&compact);
  Body(a);
  EXPECT_TRUE(compact.complete()) << compact.error();
  EXPECT_EQ(compact.str(), kExpected);

  Writer pretty(WriterOptions{true});
  WriterSink b(&pretty);
  Body(b);
  EXPECT_TRUE(pretty.complete()) << pretty.error();
  std::string flat;  // the pretty layout without its whitespace outside strings (none of the strings has any)
  for (char c : pretty.str())
    if (c != ' ' && c != '\n') flat.push_back(c);
  EXPECT_EQ(flat, kExpected);
  EXPECT_NE(pretty.str(), kExpected);  // it is indented
}

}  // namespace
}  // namespace tmapgen::json
