// End-to-end tests of the tmapgen binary: exit codes, JSON output, input errors, streaming input.
// Expected verdicts come from cuda.h / PTX ISA rules (named next to each case), never from running
// the tool.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <simdjson.h>

#include "tests/cli/cli_test_util.h"

namespace {

using namespace tmapgen::cli_test;  // NOLINT

// Minimal field extraction from one JSON report line, through simdjson's DOM parser.
struct Report {
  bool valid = false;
  int64_t index = -1;
  uint64_t transaction_bytes = 0;
  std::vector<std::string> rules;
  std::vector<std::string> fields;
};

bool ParseReport(const std::string& line, Report* r) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(line).get(doc)) return false;
  simdjson::dom::object obj;
  if (doc.get_object().get(obj)) return false;
  for (auto [key, value] : obj) {
    if (key == "valid") {
      if (value.get_bool().get(r->valid)) return false;
    } else if (key == "index") {
      if (value.get_int64().get(r->index)) return false;
    } else if (key == "diagnostics") {
      simdjson::dom::array diags;
      if (value.get_array().get(diags)) return false;
      for (simdjson::dom::element d : diags) {
        std::string_view rule, field;
        if (!d["rule"].get_string().get(rule)) r->rules.emplace_back(rule);
        if (!d["field"].get_string().get(field)) r->fields.emplace_back(field);
      }
    } else if (key == "derived") {
      uint64_t tx = 0;
      if (!value["transaction_bytes"].get_uint64().get(tx)) r->transaction_bytes = tx;
    }
  }
  return true;
}

bool Has(const std::vector<std::string>& v, const std::string& x) {
  for (const auto& s : v) if (s == x) return true;
  return false;
}

TEST(Cli, DefaultBuildIsValidAndExitsZero) {
  const Result r = RunTool("");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("VALID"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuTensorMapEncodeTiled"), std::string::npos);
}

TEST(Cli, Im2colWSwizzle128BJustWorks) {
  // The quick start's default map (scripts/run.sh). im2col::w needs sm_100 (PTX target table), so with no GPU the
  // report lists the Blackwell targets, and exits 0.
  const Result r = RunTool("--mode im2col::w --swizzle 128B");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cuTensorMapEncodeIm2colWide"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_100a"), std::string::npos) << r.out;
  // sm_90a is listed only among the targets it is not valid for, with the rule.
  const size_t valid_for = r.out.find("valid for ");
  ASSERT_NE(valid_for, std::string::npos) << r.out;
  const std::string valid_line = r.out.substr(valid_for, r.out.find('\n', valid_for) - valid_for);
  EXPECT_EQ(valid_line.find("sm_90a"), std::string::npos) << "im2col::w cannot run on sm_90a:\n" << r.out;
  EXPECT_NE(r.out.find("not valid for         sm_90, sm_90a"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[target-mode]"), std::string::npos) << r.out;
}

TEST(Cli, JsonReportOfIm2colW) {
  // 64 channels x 128 pixels x 2 bytes (f16) = 16384 transaction bytes (pixels x channels x size).
  const Result r = RunTool("--mode im2col::w --swizzle 128B --target sm_100a --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  Report rep;
  ASSERT_TRUE(ParseReport(lines[0], &rep)) << lines[0];
  EXPECT_TRUE(rep.valid);
  EXPECT_EQ(rep.transaction_bytes, 16384u);
}

TEST(Cli, Im2colWWithoutSwizzleIsAnError) {
  // PTX ISA 5.5.5: im2col::w must use a swizzle; the driver does not enforce it (tma-spec 6).
  const Result r = RunTool("--mode im2col::w --swizzle none --target sm_100a --format json");
  EXPECT_EQ(r.code, 1) << r.out;
  Report rep;
  ASSERT_TRUE(ParseReport(Lines(r.out).at(0), &rep));
  EXPECT_FALSE(rep.valid);
  EXPECT_TRUE(Has(rep.rules, "wide-swizzle")) << r.out;
}

TEST(Cli, Im2colWOnSm90aIsAnError) {
  const Result r = RunTool("--mode im2col::w --target sm_90a --format json");
  EXPECT_EQ(r.code, 1) << r.out;
  Report rep;
  ASSERT_TRUE(ParseReport(Lines(r.out).at(0), &rep));
  EXPECT_TRUE(Has(rep.rules, "target-mode")) << r.out;
}

TEST(Cli, OneParameterAtATimeShowsTheRuleAndTheFix) {
  // f32 is 4 bytes: a 64-element box row is 256 B, over the 128 B span of SWIZZLE_128B (cuda.h).
  const Result r = RunTool("--dtype f32 --box 64,64");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("swizzle-inner-span"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("use box_dim[0] = 32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nearest valid configuration"), std::string::npos) << r.out;
}

TEST(Cli, DtypeChangeKeepsTheDefaultValid) {
  // Without --box the default box keeps a 128-byte row for the new type.
  EXPECT_EQ(RunTool("--dtype f32").code, 0);
  EXPECT_EQ(RunTool("--dtype bf16 --dims 64,56,56,32 --mode im2col").code, 0);
}

TEST(Cli, StrideFixNamesTheNearestValue) {
  const Result r = RunTool("--dims 500,64 --strides 1000 --box 8,8 --swizzle none");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("pad global_strides[0] from 1000 to 1008 bytes"), std::string::npos) << r.out;
  // cuda.h: globalStrides must be a multiple of 16: the offending value 1000 and the limit 16.
  const Result j = RunTool("--dims 500,64 --strides 1000 --box 8,8 --swizzle none --format json");
  EXPECT_NE(j.out.find(R"("field":"global_strides[0]")"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find(R"("value":1000,"limit":16)"), std::string::npos) << j.out;
}

// Strides not given are the dense tensor's, never a padded pitch. cuda.h (CUDA 13.0, cuTensorMapEncodeTiled):
// globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0], padding 0 for a dense
// tensor: 4100 bf16 (2 bytes) = 8200 B; and "Each following dimension specified includes previous dimension
// stride" (x globalDim). cuda.h requires every globalStrides[i] to be a multiple of 16: 8200 = 16 x 512 + 8 is
// not, so the map is invalid (global_strides[0]), and the fix pads to the next multiple, 8208 B = 4104
// elements, or a width of 4096 (the largest multiple of 8 bf16, 16 B, below 4100).
TEST(Cli, StridesNotGivenAreTheDenseTensorsNotAPaddedPitch) {
  const Result r = RunTool("--dtype bf16 --dims 4100,8192 --box 64,128 --swizzle 128B --target sm_90a");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("-- INVALID for sm_90a"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global_strides        [8200] B (dense default: not given)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("8208] B"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error [global-stride-align-16] global_strides[0]: global_strides[0] = 8200 B"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("no global_strides were given, so they are the dense tensor's"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pad the allocation's rows to 8208 B (4104 elements) and pass the strides explicitly: "
                       "global_strides [8208]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("global_dim[0] = 4096 (the widest below 4100)"), std::string::npos) << r.out;
  // The repair is a padded allocation, and says so.
  EXPECT_NE(r.out.find("global_strides[0]: 8200 -> 8208 (the dense default was not given; this means padding the "
                       "allocation's rows to 8208 B"),
            std::string::npos)
      << r.out;
  const Result j = RunTool("--dtype bf16 --dims 4100,8192 --box 64,128 --swizzle 128B --target sm_90a --format json");
  EXPECT_NE(j.out.find(R"("global_strides":[8200])"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find(R"("global_strides_default":"dense")"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find(R"("field":"global_strides[0]")"), std::string::npos) << j.out;
  // Given explicitly, the padded pitch is the user's: valid, and not marked as a default.
  const Result p = RunTool("--dtype bf16 --dims 4100,8192 --strides 8208 --box 64,128 --swizzle 128B --target sm_90a");
  EXPECT_EQ(p.code, 0) << p.out;
  EXPECT_NE(p.out.find("global_strides        [8208] B (dimension 1 first)\n"), std::string::npos) << p.out;
  // Rank 3, u8: dense [24, 24 x 3 = 72], neither a multiple of 16; the padded tensor is [32, 32 x 3 = 96] (each
  // stride the one below times its dimension: rounding 72 on its own to 80 would overlap the 32-byte rows).
  const Result u = RunTool("--dtype u8 --dims 24,3,2 --box 16,3,2 --swizzle none --target sm_90a");
  EXPECT_EQ(u.code, 1) << u.out;
  EXPECT_NE(u.out.find("global_strides        [24, 72] B (dense default: not given)"), std::string::npos) << u.out;
  EXPECT_NE(u.out.find("global_strides[1]: 72 -> 96"), std::string::npos) << u.out;
}

// The minimum target is the lowest target on which the map is valid, not the one asked for. PTX ISA
// (cp.async.bulk.tensor, tma-spec.md section 2): the .tile load into .shared::cta exists from sm_90 (PTX 8.6),
// .tile::gather4 into .shared::cta from sm_100.
TEST(Cli, MinimumTargetIsTheLowestValidOneWhateverTargetWasAsked) {
  const Result r = RunTool("--target sm_100a");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("-- VALID for sm_100a"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("minimum target        sm_90\n"), std::string::npos) << r.out;
  const Result j = RunTool("--target sm_100a --format json");
  EXPECT_NE(j.out.find(R"("min_target":"sm_90")"), std::string::npos) << j.out;
  const Result g = RunTool("--mode gather4 --target sm_120a");
  EXPECT_NE(g.out.find("minimum target        sm_100\n"), std::string::npos) << g.out;
}

TEST(Cli, BadUsageExitsTwoAndNamesTheFlag) {
  struct Case { const char* args; const char* expect; } cases[] = {
      {"--swizzle 96B", "--swizzle"},
      {"--dtype fp12", "--dtype"},
      {"--dims 64,abc", "--dims[1]"},
      {"--dims 64,-3", "--dims[1]"},
      {"--dims 18446744073709551616,4", "does not fit in 64 bits"},
      {"--dims 1,2,3,4,5,6", "more than 5"},
      {"--rank 3 --dims 64,64", "--dims"},
      {"--strides 128,256", "--strides"},
      {"--box 64", "--box"},
      {"--frobnicate 1", "unknown flag"},
      {"--format xml", "--format"},
      {"--target sm_89", "--target"},
      {"frob", "unknown command"},
  };
  for (const Case& c : cases) {
    const Result r = RunTool(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

const char* kValidLineForPositions =
    R"({"tensor_data_type":"bf16","global_dim":[1024,1024],"global_strides":[2048],"box_dim":[64,64],"swizzle":"128B","target":"sm_90a"})";

// A usage error is the problem on one line and where the help is, not the whole usage text; each command's
// --help is its own (docs/cli.md).
TEST(Cli, UsageErrorsAreOneLineAndAHint) {
  struct Case { const char* args; const char* out; } cases[] = {
      {"validate", "tmapgen: validate needs at least one FILE (or - for standard input)\nsee tmapgen validate --help\n"},
      {"validate --frobnicate x.jsonl", "tmapgen: unknown flag --frobnicate\nsee tmapgen validate --help\n"},
      {"--frobnicate 1", "tmapgen: unknown flag --frobnicate\nsee tmapgen --help\n"},
      {"decode", "tmapgen decode: needs at least one BLOB (hex text, a file, or - for standard input)\n"
                 "see tmapgen decode --help\n"},
      {"trace --fail-on sometimes -- true", "tmapgen trace: --fail-on: expected error or warning, got \"sometimes\"\n"
                                            "see tmapgen trace --help\n"},
  };
  for (const Case& c : cases) {
    const Result r = RunToolArgs(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out, c.out) << c.args;
  }
  const std::vector<std::string> build = Lines(RunToolArgs("build --swizzle 96B").out);
  ASSERT_EQ(build.size(), 2u);
  EXPECT_EQ(build[0].rfind("tmapgen: --swizzle: unknown value \"96B\"", 0), 0u) << build[0];
  EXPECT_EQ(build[1], "see tmapgen --help");
  for (const char* cmd : {"codegen", "show", "check", "sweep", "bench", "desc wgmma", "idesc", "rules", "diff"}) {
    const Result r = RunToolArgs(std::string(cmd) + " --no-such-flag");
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out;
    EXPECT_EQ(Lines(r.out).size(), 2u) << cmd << "\n" << r.out;
    const std::string name = std::string(cmd).substr(0, std::string(cmd).find(' '));
    EXPECT_NE(r.out.find("\nsee tmapgen " + name + " --help\n"), std::string::npos) << cmd << "\n" << r.out;
  }
}

TEST(Cli, EachCommandsHelpIsItsOwn) {
  const Result v = RunToolArgs("validate --help");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_EQ(v.out.rfind("usage: tmapgen validate ", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("--input-format"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("spec flags:"), std::string::npos) << "the build flags are not validate's: " << v.out;
  for (const char* cmd : {"decode", "desc", "idesc", "codegen", "show", "check", "sweep", "bench", "trace", "rules"}) {
    const Result r = RunToolArgs(std::string(cmd) + " --help");
    EXPECT_EQ(r.code, 0) << cmd << "\n" << r.out;
    EXPECT_EQ(r.out.rfind(std::string("usage: tmapgen ") + cmd, 0), 0u) << cmd << "\n" << r.out;
  }
}

// An input error is placed once: FILE:LINE:COLUMN, then the message without its own "line L, column C".
TEST(Cli, CodegenInputErrorsNameThePositionOnce) {
  const std::string bad = WriteFile("codegen_bad.jsonl", std::string(kValidLineForPositions) + "\n" +
                                                         kValidLineForPositions + "\n" + R"({"box_dim": [1,2,}})" + "\n");
  const Result r = RunToolArgs("codegen " + bad);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("codegen_bad.jsonl:3:18: box_dim[2]:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("line 3"), std::string::npos) << r.out;
}

const char* kValidLine =
    R"({"tensor_data_type":"bf16","global_dim":[1024,1024],"global_strides":[2048],"box_dim":[64,64],"swizzle":"128B","target":"sm_90a"})";
const char* kInvalidLine =
    R"({"tensor_data_type":"CU_TENSOR_MAP_DATA_TYPE_FLOAT16","global_dim":[500,64],"global_strides":[1000],"box_dim":[8,8],"target":"sm_90a"})";

TEST(Cli, ValidateJsonLinesInOrderWithExitCodes) {
  const std::string all_valid = WriteFile("valid.jsonl", std::string(kValidLine) + "\n" + kValidLine + "\n");
  EXPECT_EQ(RunTool("validate --format json " + all_valid).code, 0);
  const std::string some_invalid = WriteFile("mixed.jsonl", std::string(kValidLine) + "\n" + kInvalidLine + "\n");
  const Result r = RunTool("validate --format json " + some_invalid);
  EXPECT_EQ(r.code, 1) << r.out;
  const auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  Report a, b;
  ASSERT_TRUE(ParseReport(lines[0], &a));
  ASSERT_TRUE(ParseReport(lines[1], &b));
  EXPECT_EQ(a.index, 0);
  EXPECT_TRUE(a.valid);
  EXPECT_EQ(b.index, 1);
  EXPECT_FALSE(b.valid);
  EXPECT_TRUE(Has(b.rules, "global-stride-align-16"));
  EXPECT_TRUE(Has(b.fields, "global_strides[0]"));
}

TEST(Cli, UnparseableSpecsGetInputErrorsAndTheRestIsProcessed) {
  struct Case { const char* line; const char* field; const char* text; } cases[] = {
      {R"({"tensor_data_type":"bf17","global_dim":[8],"box_dim":[8]})", "tensor_data_type", "unknown value"},
      {R"({"tensor_data_type":"bf16","global_dim":["64"],"box_dim":[8]})", "global_dim[0]", "expected"},
      {R"({"tensor_data_type":"bf16","global_dim":[-4],"box_dim":[8]})", "global_dim[0]", "got -4"},
      {R"({"tensor_data_type":"bf16","global_dim":[18446744073709551616],"box_dim":[8]})", "global_dim[0]", "<= 18446744073709551615"},
      {R"({"tensor_data_type":"bf16","tensor_rank":3,"global_dim":[64,64],"box_dim":[8,8]})", "global_dim", "tensor_rank is 3"},
      {R"({"tensor_data_type":"bf16","global_dim":[64,64],"global_strides":[128,8192],"box_dim":[8,8]})", "global_strides", "needs 1"},
      {R"({"tensor_data_type":"bf16","global_dim":[64,64],"box_dims":[8,8]})", "box_dims", "did you mean"},
      {R"({"tensor_data_type":"bf16","global_dim":[64,64],"box_dim":[8,4294967296]})", "box_dim[1]", "32 bits"},
      {R"({"tensor_data_type":"bf16","global_dim":[64,64],"box_dim":[8,8])", "", "line"},
  };
  std::string text;
  for (const Case& c : cases) text += std::string(c.line) + "\n";
  text += std::string(kValidLine) + "\n";
  const std::string path = WriteFile("bad.jsonl", text);
  const Result r = RunTool("validate --format json " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  const auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), std::size(cases) + 1) << r.out;
  for (size_t i = 0; i < std::size(cases); ++i) {
    Report rep;
    ASSERT_TRUE(ParseReport(lines[i], &rep)) << lines[i];
    EXPECT_FALSE(rep.valid) << lines[i];
    EXPECT_EQ(rep.index, static_cast<int64_t>(i));
    EXPECT_TRUE(Has(rep.rules, "input-error")) << lines[i];
    EXPECT_NE(lines[i].find(cases[i].text), std::string::npos) << cases[i].line << "\n" << lines[i];
    if (cases[i].field[0] != '\0') {
      EXPECT_TRUE(Has(rep.fields, cases[i].field)) << lines[i];
    }
  }
  Report last;
  ASSERT_TRUE(ParseReport(lines.back(), &last));
  EXPECT_TRUE(last.valid) << "the spec after the bad ones is still processed";
}

TEST(Cli, TruncatedJsonDocumentIsAnInputError) {
  const std::string path = WriteFile("trunc.json", "{\n  \"tensor_data_type\": \"bf16\",\n  \"global_dim\": [64,");
  const Result r = RunTool("validate --format json " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("input-error"), std::string::npos) << r.out;
}

TEST(Cli, JsonArrayAndStdin) {
  const std::string arr = WriteFile("arr.json", std::string("[") + kValidLine + ",\n" + kInvalidLine + "]");
  const Result r = RunTool("validate --format json " + arr);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(Lines(r.out).size(), 2u) << r.out;
  const Result s = RunTool("validate --format json -", std::string(kValidLine) + "\n");
  EXPECT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(Lines(s.out).size(), 1u) << s.out;
}

TEST(Cli, AJsonLinesLineOverTheLimitIsAnInputErrorAndTheNextLinesAreRead) {
  // docs/schema.md, "Limits": one spec's text may be 64 MiB (67108864 bytes); a longer line is skipped.
  std::string text = "{\"name\":\"" + std::string((size_t{64} << 20), 'x') + "\"}\n";
  text += std::string(kValidLine) + "\n";
  const std::string path = WriteFile("long.jsonl", text);
  text.clear();
  const Result r = RunTool("validate --format json " + path);
  EXPECT_EQ(r.code, 2) << r.out.substr(0, 2000);
  const auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out.substr(0, 2000);
  // The place travels in the report's own fields (compiler style), not in the message.
  EXPECT_NE(lines[0].find("\"message\":\"the line is longer than 67108864 bytes"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\"line\":1,\"column\":1"), std::string::npos) << lines[0];
  Report second;
  ASSERT_TRUE(ParseReport(lines[1], &second));
  EXPECT_TRUE(second.valid);
  EXPECT_EQ(second.index, 1);
  std::remove(path.c_str());
}

TEST(Cli, AJsonArrayStreams) {
  // 500,000 specs in one JSON array (about 120 MB): memory stays far below the file's size.
  // Written as it is made, so that this process stays small: the child's peak memory (wait4) counts the
  // copy of this process it starts as.
  const std::string path = testing::TempDir() + "/big.json";
  size_t file_bytes = 0;
  {
    std::ofstream f(path);
    f << "[";
    for (int i = 0; i < 500000; ++i) f << (i ? ",\n" : "") << kValidLine;
    f << "]\n";
    file_bytes = static_cast<size_t>(f.tellp());
  }
  malloc_trim(0);
  const std::string out_path = testing::TempDir() + "/big.out";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    FILE* out = std::freopen(out_path.c_str(), "w", stdout);
    if (out == nullptr || dup2(fileno(stdout), 2) < 0) _exit(127);
    execl(TMAPGEN_BINARY, TMAPGEN_BINARY, "validate", "--quiet", "--no-gpu", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  ASSERT_EQ(wait4(pid, &status, 0, &ru), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(out_path);
  const std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(out.find("500000 specs: 500000 valid"), std::string::npos) << out.substr(0, 2000);
  const size_t peak = static_cast<size_t>(ru.ru_maxrss) * 1024;  // bytes
  EXPECT_LT(peak, file_bytes / 2) << "peak resident memory " << peak << " bytes for a " << file_bytes << "-byte file";
  std::remove(path.c_str());
}

TEST(Cli, MissingFileExitsTwo) {
  const Result r = RunTool("validate /nonexistent/specs.jsonl");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot open"), std::string::npos) << r.out;
}

TEST(Cli, TextFormatInputAndOutput) {
  if (!TMAPGEN_HAVE_PROTOBUF) GTEST_SKIP() << "built without protobuf: no text format";
  const std::string path = WriteFile("spec.textproto",
                                     "tensor_data_type: CU_TENSOR_MAP_DATA_TYPE_BFLOAT16\n"
                                     "global_dim: [1024, 1024]\nglobal_strides: 2048\nbox_dim: [64, 64]\n"
                                     "swizzle: CU_TENSOR_MAP_SWIZZLE_128B\ntarget: \"sm_90a\"\n"
                                     "---\n"
                                     "tensor_data_type: CU_TENSOR_MAP_DATA_TYPE_BFLOAT16\n"
                                     "global_dim: [1024, 1024]\nbox_dim: [64, 64]\nswizzle: CU_TENSOR_MAP_SWIZZLE_64B\n");
  const Result r = RunTool("validate --format textproto " + path);
  // The second spec's 128-byte row exceeds the 64 B span of SWIZZLE_64B (cuda.h).
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("valid: true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rule: \"swizzle-inner-span\""), std::string::npos) << r.out;
  const std::string bad = WriteFile("bad.textproto", "tensor_data_type: NOT_A_TYPE\nglobal_dim: [8]\n");
  const Result b = RunTool("validate " + bad);
  EXPECT_EQ(b.code, 2) << b.out;
  // Compiler style, 1-based like the JSON input: the bad value is line 1, column 19.
  EXPECT_NE(b.out.find("bad.textproto:1:19: error[input-error]"), std::string::npos) << b.out;
  // An unknown field or enum value gets "did you mean".
  const std::string typo = WriteFile("typo.textproto", "tensor_data_typ: CU_TENSOR_MAP_DATA_TYPE_BFLOAT16\nglobal_dim: [8]\n");
  const Result t = RunTool("validate " + typo);
  EXPECT_EQ(t.code, 2) << t.out;
  EXPECT_NE(t.out.find("typo.textproto:1:1: error[input-error]"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("did you mean \"tensor_data_type\""), std::string::npos) << t.out;
  const std::string val = WriteFile("val.textproto", "global_dim: [8]\ntensor_data_type: CU_TENSOR_MAP_DATA_TYPE_BFLOAT61\n");
  const Result v = RunTool("validate " + val);
  EXPECT_NE(v.out.find("val.textproto:2:19: error[input-error]"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("did you mean \"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16\""), std::string::npos) << v.out;
}

TEST(Cli, RulesListsEveryRule) {
  const Result r = RunTool("rules");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("global-stride-align-16"), std::string::npos);
  EXPECT_NE(r.out.find("im2col-channels-bytes-16"), std::string::npos);
}

}  // namespace

// bench's tensor-shape flags: bad values are usage errors naming the flag (exit 2), before any GPU is opened.
TEST(Cli, BenchRowBytesAndSmsFlagsRejectBadValues) {
  const std::string spec = WriteFile("bench_spec.json", R"({"tensor_data_type":"bf16","global_dim":[4096,4096],"box_dim":[64,128],"swizzle":"128B"})");
  for (const char* bad : {"--row-bytes 8", "--row-bytes x", "--sms 0", "--sms -3"}) {
    const Result r = RunTool("bench " + spec + " " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find(std::string(bad).substr(0, std::string(bad).find(' '))), std::string::npos) << r.out;
  }
  const Result typo = RunTool("bench " + spec + " --row-byte 512");
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.out.find("did you mean \"--row-bytes\""), std::string::npos) << typo.out;
}

// --check-all is a flag of bench (listed in --help, parsed before the flags after it: a bad --sms after it is
// the error named, not --check-all), and a misspelling of it is named. No GPU is opened by these runs.
TEST(Cli, BenchCheckAllFlag) {
  const std::string spec = WriteFile("bench_spec2.json", R"({"tensor_data_type":"bf16","global_dim":[4096,4096],"box_dim":[64,128],"swizzle":"128B"})");
  const Result help = RunTool("bench --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--check-all"), std::string::npos) << help.out;
  const Result typo = RunTool("bench " + spec + " --check-al");
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.out.find("did you mean \"--check-all\""), std::string::npos) << typo.out;
  const Result r = RunToolArgs("bench " + spec + " --check-all --sms 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.find("unknown flag"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--sms needs a positive number"), std::string::npos) << r.out;
}

// check --multicast / --plan gemm and bench --multicast: bad values are usage errors naming the flag (exit 2),
// before any GPU is opened; a plan the check does not run names the plan's field (exit 1).
TEST(Cli, MulticastFlagsRejectBadValues) {
  const std::string spec = WriteFile("mcast_spec.json", R"({"tensor_data_type":"bf16","global_dim":[512,384],"box_dim":[64,128],"swizzle":"128B"})");
  struct Case {
    std::string args, want;
  };
  const Case cases[] = {
      {"check --multicast 1 " + spec, "--multicast needs a number from 2 to 8, not \"1\""},
      {"check --multicast 9 " + spec, "--multicast needs a number from 2 to 8"},
      {"check --multicast x " + spec, "--multicast needs a number"},
      {"check --mask 0x3 " + spec, "--mask needs --multicast N"},
      {"check --multicast 2 --mask 0x4 " + spec, "--mask 4 names CTAs beyond a cluster of 2"},
      {"check --multicast 2", "missing SPEC"},
      {"check --plan", "--plan needs \"gemm\""},
      {"check --plan conv", "--plan needs \"gemm\""},
      {"check --plan gemm --k-tiles 0", "--k-tiles needs a number from 1 to 16"},
      {"check --plan gemm --bogus 3", "--plan gemm: "},
      {"check --plan gemm --help", "see tmapgen plan gemm --help"},
      {"bench " + spec + " --multicast 1", "--multicast needs a cluster size from 2 to 8"},
  };
  for (const Case& c : cases) {
    const Result r = RunToolArgs(c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.want), std::string::npos) << c.args << ": " << r.out;
  }
  const Result sm100 = RunToolArgs("check --plan gemm --target sm_100a");
  EXPECT_EQ(sm100.code, 1) << sm100.out;
  EXPECT_NE(sm100.out.find("--plan gemm: target: sm_100a plans are not run here"), std::string::npos) << sm100.out;
  const Result help = RunTool("check --help");
  EXPECT_NE(help.out.find("--multicast N"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--plan gemm"), std::string::npos) << help.out;
}
