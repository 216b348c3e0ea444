// Command-line tests for `tmapgen desc ...` and `tmapgen idesc ...`, run in process through
// RunDescCommandTo / RunIdescCommandTo: exit codes (0 valid, 1 invalid, 2 bad usage), messages that name
// the flag, JSON that parses, drawings.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/desc_cmd.h"
#include "tests/util/json_check.h"

namespace tmapgen::cli {
namespace {

struct Result {
  int rc = -1;
  std::string out, err;
};

Result Desc(std::vector<std::string> args) {
  Result r;
  r.rc = RunDescCommandTo(args, &r.out, &r.err);
  return r;
}
Result Idesc(std::vector<std::string> args) {
  Result r;
  r.rc = RunIdescCommandTo(args, &r.out, &r.err);
  return r;
}
bool Contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
bool IsJson(const std::string& s) { return testing_json::IsValidJson(s); }

const char* kMap128At400 =
    R"({"tensor_data_type":"bf16","global_dim":[4096,4096],"box_dim":[64,128],"swizzle":"128B","smem_address":"0x400"})";
const char* kMap64At400 =
    R"({"tensor_data_type":"bf16","global_dim":[4096,4096],"box_dim":[32,128],"swizzle":"64B","smem_address":"0x400"})";

TEST(DescCmd, BuildTcgen05) {
  const Result r = Desc({"tcgen05", "--dtype", "bf16", "--tile", "128,64", "--smem-address", "0x400", "--color", "never"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "0x4000404000010040"));
  EXPECT_TRUE(Contains(r.out, "stride_byte_offset"));
  EXPECT_TRUE(Contains(r.out, "Swizzle<3,4,3>"));
  EXPECT_TRUE(r.err.empty());
}

TEST(DescCmd, LeadingCommandWordIsAccepted) {
  EXPECT_EQ(Desc({"desc", "wgmma", "--tile", "64,64"}).rc, 0);
  EXPECT_EQ(Idesc({"idesc", "--kind", "tf32"}).rc, 0);
}

TEST(DescCmd, InvalidIsOne) {
  const Result r = Desc({"tcgen05", "--smem-address", "0x408", "--color=never"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "desc-start-align-16"));
  EXPECT_TRUE(Contains(r.out, "fix:"));
  EXPECT_TRUE(Contains(r.out, "source:"));
}

TEST(DescCmd, BadUsageIsTwoAndNamesTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string flag;
  } cases[] = {
      {{"tcgen05", "--bogus"}, "--bogus"},
      {{"tcgen05", "--tile", "12"}, "--tile"},
      {{"tcgen05", "--dtype", "fp99"}, "--dtype"},
      {{"tcgen05", "--swizzle", "48B"}, "--swizzle"},
      {{"tcgen05", "--major", "diagonal"}, "--major"},
      {{"tcgen05", "--smem-address", "0xZZ"}, "--smem-address"},
      {{"tcgen05", "--base-offset", "9"}, "--base-offset"},
      {{"tcgen05", "--target", "sm_77"}, "--target"},
      {{"tcgen05", "--format", "xml"}, "--format"},
      {{"tcgen05", "--check", "0x1"}, "--check"},
      {{"tcgen05", "--for-map", "/nonexistent/map.json"}, "--for-map"},
      {{"tcgen05", "--for-map", "{\"tensor_data_type\":\"bf16\"}"}, "--for-map"},
      {{"tcgen05", "--k-slice"}, "--k-slice"},
      {{"wgmma", "--lbo-mode", "absolute", "--lbo", "0x800"}, "--lbo-mode"},
      {{"decode"}, "VALUE"},
      {{"decode", "banana"}, "value"},
      {{"decode", "0x1", "--swizzle", "128B"}, "--swizzle"},
      {{"decode", "0x1", "--major", "K"}, "--tile"},
      {{"frobnicate"}, "frobnicate"},
      {{}, "subcommand"},
  };
  for (const Case& c : cases) {
    const Result r = Desc(c.args);
    EXPECT_EQ(r.rc, 2) << c.flag;
    EXPECT_TRUE(Contains(r.err, c.flag)) << c.flag << ": " << r.err;
    // One line and where the help is, not the usage text (docs/cli.md).
    EXPECT_TRUE(Contains(r.err, "\nsee tmapgen desc --help\n")) << c.flag << ": " << r.err;
    EXPECT_FALSE(Contains(r.err, "usage:")) << c.flag << ": " << r.err;
  }
}

TEST(DescCmd, Help) {
  const Result r = Desc({"--help"});
  EXPECT_EQ(r.rc, 0);
  for (const char* flag : {"--operand", "--major", "--dtype", "--swizzle", "--tile", "--smem-address", "--lbo", "--sbo",
                           "--base-offset", "--lbo-mode", "--for-map", "--check", "--k-slice", "--sub-tile", "--draw",
                           "--svg", "--format"})
    EXPECT_TRUE(Contains(r.out, flag)) << flag;
  const Result i = Idesc({"--help"});
  EXPECT_EQ(i.rc, 0);
  for (const char* flag : {"--kind", "--m", "--n", "--a-type", "--d-type", "--cta-group", "--ws", "--scale-type"})
    EXPECT_TRUE(Contains(i.out, flag)) << flag;
}

TEST(DescCmd, Decode) {
  Result r = Desc({"decode", "0x4000404000010040", "--color", "never"});
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "tcgen05"));
  EXPECT_TRUE(Contains(r.out, "K-major"));
  EXPECT_TRUE(Contains(r.out, "MN-major"));
  r = Desc({"decode", "0x4000404000010040", "--arch", "wgmma"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "desc-reserved-bits"));
  r = Desc({"decode", "0x4000404000010040", "--major", "K", "--dtype", "bf16", "--tile", "128,64"});
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "K slices"));
}

TEST(DescCmd, ForMap) {
  Result r = Desc({"tcgen05", "--for-map", kMap128At400, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(IsJson(r.out)) << r.out;
  EXPECT_TRUE(Contains(r.out, "\"value\":\"0x4000404000010040\""));
  r = Desc({"tcgen05", "--for-map", kMap128At400, "--smem-address", "0x480", "--format", "json"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(Contains(r.out, "\"value\":\"0x4002404000010048\""));  // base offset 1 (bit 49), start 0x48
  r = Desc({"decode", "0x4000404000010040", "--for-map", kMap64At400, "--color", "never"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "map-swizzle-mismatch"));
  r = Desc({"tcgen05", "--for-map", kMap64At400, "--check", "0x4000404000010040"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "map-swizzle-mismatch"));
  EXPECT_EQ(Desc({"tcgen05", "--for-map", kMap128At400, "--tile", "64,64"}).rc, 2);
}

TEST(DescCmd, ForMapFile) {
  const std::string path = ::testing::TempDir() + "desc_cmd_test_map.json";
  {
    std::ofstream f(path);
    f << kMap128At400;
  }
  const Result r = Desc({"wgmma", "--for-map", path});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, path));
  std::remove(path.c_str());
}

TEST(DescCmd, AdvanceFlags) {
  Result r = Desc({"tcgen05", "--tile", "128,64", "--smem-address", "0x400", "--k-slice", "2", "--format", "json"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(Contains(r.out, "\"advance\""));
  EXPECT_TRUE(Contains(r.out, "\"start\":\"0x440\""));
  r = Desc({"tcgen05", "--tile", "128,64", "--k-slice", "9"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "desc-advance-outside-tile"));
  r = Desc({"tcgen05", "--swizzle", "32B", "--tile", "64,16", "--sub-tile", "4,0"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(Contains(r.out, "desc-advance-base-offset"));
  EXPECT_EQ(Desc({"tcgen05", "--k-slice", "1", "--sub-tile", "8,0"}).rc, 2);
}

TEST(DescCmd, JsonEverywhere) {
  for (const std::vector<std::string>& a : std::vector<std::vector<std::string>>{
           {"tcgen05", "--format", "json"},
           {"wgmma", "--major", "MN", "--tile", "64,16", "--swizzle", "64B", "--format", "json", "--draw"},
           {"decode", "0x1600404000010040", "--format", "json"},
           {"decode", "0x4000404000010040", "--for-map", kMap64At400, "--format", "json", "--draw"}}) {
    const Result r = Desc(a);
    EXPECT_NE(r.rc, 2) << r.err;
    EXPECT_TRUE(IsJson(r.out)) << r.out;
    EXPECT_TRUE(Contains(r.out, "\"diagnostics\""));
  }
}

TEST(DescCmd, DrawAndSvg) {
  const std::string svg = ::testing::TempDir() + "desc_cmd_test.svg";
  const Result r = Desc({"tcgen05", "--for-map", kMap128At400, "--draw", "--svg", svg, "--color", "never"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "MMA reads"));
  EXPECT_TRUE(Contains(r.out, "TMA wrote"));
  EXPECT_TRUE(Contains(r.out, "every chunk the MMA reads is where the TMA put it"));
  std::ifstream f(svg);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str().rfind("<svg", 0), 0u);
  EXPECT_TRUE(Contains(ss.str(), "</svg>"));
  std::remove(svg.c_str());
}

TEST(IdescCmd, BuildAndDecode) {
  Result r = Idesc({"--kind", "f16", "--m", "128", "--n", "256", "--a-type", "bf16", "--b-type", "bf16"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "0x08400490"));
  r = Idesc({"decode", "0x08400490", "--kind", "f16", "--format", "json"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(IsJson(r.out));
  EXPECT_TRUE(Contains(r.out, "\"m\":128"));
  EXPECT_TRUE(Contains(r.out, "\"n\":256"));
  r = Idesc({"decode", "0x08400490", "--color", "never"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(Contains(r.out, ".kind::mxf4nvf4"));
  r = Idesc({"decode", "0x08400490", "--format", "json"});
  EXPECT_TRUE(IsJson(r.out));
  r = Idesc({"--m", "100"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(Contains(r.out, "idesc-m"));
}

// --a-source chooses the form: M = 128, N = 8 is valid with A in shared memory (PTX Table 39; CUTLASS
// SM100_MMA_F16BF16_SS) and invalid with A in tensor memory (CUTLASS SM100_MMA_F16BF16_TS: N % 16 for M = 128).
// --help states the rule of the chosen form; a decoded value is judged for the form given.
TEST(IdescCmd, ASourceFormAndHelp) {
  Result r = Idesc({"--kind", "f16", "--m", "128", "--n", "8"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  r = Idesc({"--kind", "f16", "--m", "128", "--n", "8", "--a-source", "tmem"});
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(Contains(r.out, "idesc-n"));
  EXPECT_TRUE(Contains(r.out, "A in tensor memory"));
  EXPECT_TRUE(Contains(r.out, "[a_tmem]"));  // the PTX line of the form
  r = Idesc({"--kind", "f16", "--m", "128", "--n", "8", "--a-source", "tmem", "--format", "json"});
  EXPECT_TRUE(IsJson(r.out));
  EXPECT_TRUE(Contains(r.out, "\"a_source\":\"tmem\""));
  r = Idesc({"decode", "0x08020490", "--kind", "f16", "--a-source", "tmem"});  // M 128, N 8
  EXPECT_EQ(r.rc, 1);
  r = Idesc({"decode", "0x08020490", "--kind", "f16"});
  EXPECT_EQ(r.rc, 0);
  r = Idesc({"--kind", "f16", "--a-source", "tmem", "--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(Contains(r.out, "chosen form: tcgen05.mma.cta_group::1.kind::f16 (dense, A in tensor memory: [a_tmem])"));
  EXPECT_TRUE(Contains(r.out, "M = 128: N in 16..256 step 16"));
  r = Idesc({"--a-source", "regs"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(Contains(r.err, "--a-source"));
}

TEST(IdescCmd, BadUsage) {
  struct Case {
    std::vector<std::string> args;
    std::string flag;
  } cases[] = {
      {{"--kind", "f64"}, "--kind"},
      {{"--m", "x"}, "--m"},
      {{"--k", "32"}, "--k"},
      {{"--cta-group", "3"}, "--cta-group"},
      {{"--d-type", "f8"}, "--d-type"},
      {{"--sparse-selector", "4"}, "--sparse-selector"},
      {{"--what"}, "--what"},
      {{"decode"}, "VALUE"},
      {{"decode", "0x1ffffffff"}, "32 bits"},
      {{"decode", "0x1", "--m", "128"}, "--m"},
  };
  for (const Case& c : cases) {
    const Result r = Idesc(c.args);
    EXPECT_EQ(r.rc, 2) << c.flag;
    EXPECT_TRUE(Contains(r.err, c.flag)) << c.flag << ": " << r.err;
  }
}

}  // namespace
}  // namespace tmapgen::cli
