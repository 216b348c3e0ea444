// tmapgen decode / diff / layout end to end (the real binary). Expected values are the driver's: the
// parameters it was given for the bytes it wrote (one line of the shared corpus, copied below).
#include <gtest/gtest.h>

#include <string>

#include "src/blob/blob.h"
#include "src/blob/layout_doc.h"
#include "tests/cli/cli_test_util.h"

namespace tmapgen::blob {
namespace {

// shared/data/driver-encodings drv_1.jsonl.gz, an accepted call: BFLOAT16, rank 2, global_dim [1664, 218],
// global_strides [3328], box_dim [32, 25], SWIZZLE_NONE, L2_64B, address 139637976826624 (0x7f0000018300).
const char* kCorpusLine =
    R"({"mode":"tiled","tensor_data_type":"BFLOAT16","tensor_rank":2,"global_address":139637976826624,"global_dim":[1664,218],"global_strides":[3328],"box_dim":[32,25],"element_strides":[1,1],"interleave":"NONE","swizzle":"NONE","l2_promotion":"L2_64B","oob_fill":"NONE","driver_result":0,"bytes":"00830100007f000010050200d0000000000000000000000000000000000000007f060000d90000000000000000000000000000000000001f180000000000000040060000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"})";

using cli_test::Result;
// The arguments as given: these tests never appended --no-gpu.
Result RunTool(const std::string& args, const std::string& stdin_text = "") {
  return cli_test::RunToolArgs(args, stdin_text);
}
std::string Write(const std::string& name, const std::string& data) { return cli_test::WriteFile(name, data); }

std::string HexOfLine() {
  const std::string s = kCorpusLine;
  const size_t p = s.find("\"bytes\":\"") + 9;
  return s.substr(p, 256);
}

bool Has(const std::string& out, const std::string& what) { return out.find(what) != std::string::npos; }

TEST(DecodeCli, ACorpusLineDecodesToTheDriversParameters) {
  const Result r = RunTool("decode - --target sm_90a", std::string(kCorpusLine) + "\n");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16")) << r.out;
  EXPECT_TRUE(Has(r.out, "0x7f0000018300")) << r.out;
  EXPECT_TRUE(Has(r.out, "global_dim[0]")) << r.out;
  EXPECT_TRUE(Has(r.out, "1664")) << r.out;
  EXPECT_TRUE(Has(r.out, "3328 B")) << r.out;
  EXPECT_TRUE(Has(r.out, "CU_TENSOR_MAP_L2_PROMOTION_L2_64B")) << r.out;
  EXPECT_TRUE(Has(r.out, "unexplained bits: none")) << r.out;
  EXPECT_TRUE(Has(r.out, "re-encodes to the same 128 bytes")) << r.out;
}

TEST(DecodeCli, HexWordsBinaryAndJsonLinesAreTheSameMap) {
  MapBytes m;
  const std::string hex = HexOfLine();
  for (int i = 0; i < 128; ++i) m[i] = static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  uint64_t w[16];
  ToWords(m, w);
  std::string words;
  for (int i = 0; i < 16; ++i) { char b[24]; std::snprintf(b, sizeof b, " 0x%016llx", static_cast<unsigned long long>(w[i])); words += b; }
  const std::string bin = Write("map.bin", std::string(reinterpret_cast<const char*>(m.data()), 128));
  const std::string jsonl = Write("maps.jsonl", std::string(kCorpusLine) + "\n");
  for (const std::string& args : {hex, words, bin, jsonl}) {
    const Result r = RunTool("decode --format json --no-validate " + args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"bytes\":\"" + hex + "\"")) << args << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"global_dim\":[1664,218]")) << args << "\n" << r.out;
  }
}

TEST(DecodeCli, JsonOutputIsReadBackByValidate) {
  const Result d = RunTool("decode --format json --target sm_90a " + HexOfLine());
  ASSERT_EQ(d.code, 0) << d.out;
  const std::string path = Write("decoded.jsonl", d.out);
  const Result v = RunTool("validate --format json --no-gpu " + path);
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_TRUE(Has(v.out, "\"valid\":true")) << v.out;
  // The report of the re-validated spec carries the same 128 bytes.
  EXPECT_TRUE(Has(v.out, "\"bytes\":\"" + HexOfLine() + "\"")) << v.out;
}

TEST(DecodeCli, GarbageIsAClearErrorWithExitStatus2) {
  struct Case { std::string args, stdin_text, expect; } cases[] = {
      {"decode hello", "", "not hex digits"},
      {"decode " + HexOfLine().substr(0, 250), "", "250 hex digits"},
      {"decode 0x1 0x2 0x3", "", "a map is"},
      {"decode " + Write("short.bin", std::string(100, '\x01')), "", "multiple of 128"},
      {"decode -", "{\"no_bytes\": 1}\n", "no \"bytes\""},
      {"decode -", "{not json\n", "stdin:1"},
      {"decode", "", "needs at least one BLOB"},
      {"decode --target sm_77 " + HexOfLine(), "", "unknown target"},
  };
  for (const Case& c : cases) {
    const Result r = RunTool(c.args, c.stdin_text);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, c.expect)) << c.args << "\n" << r.out;
  }
}

// The corpus map as a C program prints it: printf("%016llx ", words[i]) for i = 0..15, no 0x.
std::string BareWordsOfLine(uint64_t last_word_or = 0) {
  MapBytes m;
  const std::string hex = HexOfLine();
  for (int i = 0; i < 128; ++i) m[i] = static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  uint64_t w[16];
  ToWords(m, w);
  w[15] |= last_word_or;
  std::string words;
  for (int i = 0; i < 16; ++i) {
    char b[24];
    std::snprintf(b, sizeof b, "%s%016llx", i ? " " : "", static_cast<unsigned long long>(w[i]));
    words += b;
  }
  return words;
}

TEST(DecodeCli, BareWordsOfAPrintfDumpAreReadAsWords) {
  const std::string words = BareWordsOfLine();
  ASSERT_EQ(words.substr(0, 16), "00007f0000018300") << "word 0: the address 0x7f0000018300, little-endian";
  for (const std::string& flags : {std::string(), std::string("--words ")}) {
    const Result r = RunTool("decode --format json --no-validate " + flags + words);
    EXPECT_EQ(r.code, 0) << flags << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"bytes\":\"" + HexOfLine() + "\"")) << flags << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"global_dim\":[1664,218]")) << flags << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"global_strides\":[3328]")) << flags << "\n" << r.out;
    EXPECT_TRUE(Has(r.out, "\"box_dim\":[32,25]")) << flags << "\n" << r.out;
  }
  // The same 256 digits cut every 16 (byte 0 first) stay bytes: that reading is the one that re-encodes.
  const std::string hex = HexOfLine();
  std::string cut;
  for (int i = 0; i < 256; i += 16) cut += (i ? " " : "") + hex.substr(i, 16);
  const Result b = RunTool("decode --format json --no-validate " + cut);
  EXPECT_EQ(b.code, 0) << b.out;
  EXPECT_TRUE(Has(b.out, "\"bytes\":\"" + hex + "\"")) << b.out;
}

TEST(DecodeCli, BareWordsThatNoReadingReencodesAreRefusedWithTheFix) {
  // Bit 1000 (word 15, bit 40) is a bit no measured driver writes: neither reading re-encodes.
  const Result r = RunTool("decode --no-validate " + BareWordsOfLine(1ull << 40));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(Has(r.out, "16 tokens of 16 hex digits")) << r.out;
  EXPECT_TRUE(Has(r.out, "pass --words")) << r.out;
  // Words printed with %llx (no leading zeros) are not 256 digits: the error says to prefix them with 0x.
  const Result u = RunTool("decode 7f0000018300 d000020510 0 0 d90000067f 0 1f00000000000000 18 640 10 0 0 0 0 0 0");
  EXPECT_EQ(u.code, 2) << u.out;
  EXPECT_TRUE(Has(u.out, "write them with 0x")) << u.out;
  // With --words the user has said which it is: decoded, the bit listed.
  const Result w = RunTool("decode --no-validate --words " + BareWordsOfLine(1ull << 40));
  EXPECT_EQ(w.code, 1) << w.out;
  EXPECT_TRUE(Has(w.out, "unexplained bits: 1000")) << w.out;
}

// A 64-bit shared-memory matrix descriptor (docs/descriptors.md's example, PTX ISA 9.7.15.5.1 layout) is
// not a map, and a map is not a descriptor: each command points to the other.
TEST(DecodeCli, DescriptorsAndMapsPointToEachOthersCommand) {
  const Result d = RunTool("decode 0x4000404000010040");
  EXPECT_EQ(d.code, 2) << d.out;
  EXPECT_TRUE(Has(d.out, "`tmapgen desc decode 0x4000404000010040`")) << d.out;
  const Result i = RunTool("decode 0x08400490");
  EXPECT_EQ(i.code, 2) << i.out;
  EXPECT_TRUE(Has(i.out, "`tmapgen idesc decode 0x08400490`")) << i.out;
  for (const std::string& map : {HexOfLine(), BareWordsOfLine()}) {
    const Result m = RunTool("desc decode " + map);
    EXPECT_EQ(m.code, 2) << m.out;
    EXPECT_TRUE(Has(m.out, "read a tensor map with `tmapgen decode`")) << m.out;
  }
}

TEST(DecodeCli, UnexplainedAndRecognisedBitsAreListed) {
  std::string hex = HexOfLine();
  // Set bit 85 (byte 10, bit 5) and bit 1000 (byte 125, bit 0).
  auto set_bit = [&hex](int bit) {
    const int byte = bit / 8;
    int v = std::stoi(hex.substr(2 * byte, 2), nullptr, 16) | (1 << (bit % 8));
    char b[3];
    std::snprintf(b, sizeof b, "%02x", v);
    hex.replace(2 * byte, 2, b);
  };
  set_bit(85);
  set_bit(1000);
  const Result r = RunTool("decode --no-validate " + hex);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(Has(r.out, "bit 85 (bit85) = 1")) << r.out;
  EXPECT_TRUE(Has(r.out, "unexplained bits: 1000")) << r.out;
}

TEST(DiffCli, NamesTheFieldsThatDiffer) {
  // The same map with swizzle 64B instead of NONE: the driver writes the swizzle field and the derived
  // repeat (bits 77-78 and 580-586, tests/blob corpus evidence); the diff names exactly those two.
  std::string other = HexOfLine();
  // word 1 byte 1 (byte 9) holds bits 72-79: swizzle 2 sets bit 78 (byte 9 bit 6).
  {
    int v = std::stoi(other.substr(18, 2), nullptr, 16) | (1 << 6);
    char b[3];
    std::snprintf(b, sizeof b, "%02x", v);
    other.replace(18, 2, b);
  }
  // bits 580-586: repeat 16 bytes (raw 1, bit 580) -> 512 bytes (raw 32, bit 585): byte 72 bit 4 off, byte 73 bit 1 on.
  other.replace(144, 4, "0002");
  Result r = RunTool("diff " + HexOfLine() + " " + Write("other.hex", other));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(Has(r.out, "swizzle ")) << r.out;
  EXPECT_TRUE(Has(r.out, "CU_TENSOR_MAP_SWIZZLE_NONE -> CU_TENSOR_MAP_SWIZZLE_64B")) << r.out;
  EXPECT_TRUE(Has(r.out, "swizzle_repeat")) << r.out;
  EXPECT_FALSE(Has(r.out, "global_dim")) << r.out;
  r = RunTool("diff " + HexOfLine() + " " + HexOfLine());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "identical")) << r.out;
}

TEST(DiffCli, ASpecIsEncodedOfflineFirst) {
  const std::string spec = Write("spec.json",
                                 R"({"tensor_data_type": "bf16", "global_address": "0x7f0000018300", "global_dim": [1664, 218],)"
                                 R"( "global_strides": [3328], "box_dim": [32, 25], "l2_promotion": "64B"})");
  const Result r = RunTool("diff " + spec + " " + HexOfLine());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "identical")) << r.out;
}

// docs/tensormap-layout.md embeds the table generated from src/blob/layout.h (tmapgen layout --format markdown).
TEST(LayoutDoc, TheDocumentHoldsTheGeneratedTable) {
  std::ifstream f(std::string(TMAPGEN_SOURCE_DIR) + "/docs/tensormap-layout.md");
  ASSERT_TRUE(f.good());
  const std::string doc((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- BEGIN GENERATED: tmapgen layout --format markdown -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), LayoutMarkdown())
      << "regenerate: tmapgen layout --format markdown, between the markers of docs/tensormap-layout.md";
  const Result r = RunTool("layout --format markdown");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, LayoutMarkdown());
}

}  // namespace
}  // namespace tmapgen::blob
