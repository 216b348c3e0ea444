// Honest output: what the command line prints for values, targets, ranks, input errors, types,
// colors, flags and the remote port. Expected values come from the input itself, cuda.h, the PTX ISA, or the
// conventions of other tools (compiler-style FILE:LINE:COLUMN, no-color.org), never from running the tool.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cli/blob_cmd.h"
#include "cli/codegen_cmd.h"
#include "cli/common_flags.h"
#include "cli/desc_cmd.h"
#include "cli/plan_cmd.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"
#include "tests/cli/cli_test_util.h"

namespace {

using namespace tmapgen::cli_test;  // NOLINT
using tmapgen::cli::AutoColorFor;
using tmapgen::cli::RemoteTarget;
using tmapgen::StatusMessage;
using tmapgen::StrCat;

bool Has(const std::string& s, const std::string& x) { return s.find(x) != std::string::npos; }

// A dimension of 2^64 - 1 and a stride of 2^63 are printed as themselves, not as -1 and -2^63 (the JSON
// reader keeps exact unsigned integers); cuda.h: globalDim <= 2^32, globalStrides < 2^40.
TEST(HonestOutput, ValuesOf2Pow63AndAbovePrintUnsigned) {
  const std::string f = WriteFile("huge.json",
                                  R"({"tensor_data_type": "f16", "global_dim": [18446744073709551615, 4],)"
                                  R"( "global_strides": [9223372036854775808], "box_dim": [64, 4], "swizzle": "none"})");
  const Result j = RunTool("validate --format json " + f);
  EXPECT_EQ(j.code, 1) << j.out;
  EXPECT_TRUE(Has(j.out, "\"rule\":\"global-dim-range\"")) << j.out;
  EXPECT_TRUE(Has(j.out, "\"value\":18446744073709551615")) << j.out;
  EXPECT_TRUE(Has(j.out, "\"value\":9223372036854775808")) << j.out;
  EXPECT_TRUE(Has(j.out, "global_dim[0] = 18446744073709551615 exceeds")) << j.out;
  EXPECT_TRUE(Has(j.out, "global_strides[0] = 9223372036854775808 B is not below 2^40")) << j.out;
  EXPECT_FALSE(Has(j.out, "= -")) << j.out;
  // Dense strides from --dims: 2^64 - 1 f16 elements per row overflow 64 bits; a usage error, not a wrap.
  const Result d = RunTool("--dims 18446744073709551615,4");
  EXPECT_EQ(d.code, 2) << d.out;
  EXPECT_TRUE(Has(d.out, "--dims: the dense stride of dimension 1 does not fit in 64 bits")) << d.out;
  const Result e = RunTool("--dims 64,4294967296,4294967296,4");  // 128 x 2^32 x 2^32 = 2^71 bytes
  EXPECT_EQ(e.code, 2) << e.out;
  EXPECT_TRUE(Has(e.out, "dense stride of dimension 3")) << e.out;
}

// tf32 with SWIZZLE_128B_ATOM_32B: the atomicity swizzles need compute capability 10.0 (PTX ISA 9.7.9.26), so
// without --target the map is valid for the Blackwell targets and the report says which it fails and why.
TEST(HonestOutput, WithoutTargetEveryFailedTargetIsListedWithItsRule) {
  const Result t = RunTool("--dtype tf32 --box 32,64 --swizzle 128B_atom_32B --color never");
  EXPECT_EQ(t.code, 0) << t.out;
  EXPECT_TRUE(Has(t.out, "not valid for         sm_90, sm_90a [target-swizzle-atomicity]")) << t.out;
  const Result j = RunTool("--dtype tf32 --box 32,64 --swizzle 128B_atom_32B --format json");
  EXPECT_TRUE(Has(j.out, R"("failed_targets":[{"target":"sm_90","rule":"target-swizzle-atomicity")")) << j.out;
  EXPECT_TRUE(Has(j.out, R"({"target":"sm_90a","rule":"target-swizzle-atomicity")")) << j.out;
  EXPECT_FALSE(Has(j.out, R"({"target":"sm_100a")")) << j.out;
  // With a target there is no list.
  const Result w = RunTool("--dtype tf32 --box 32,64 --swizzle 128B_atom_32B --target sm_100a --format json");
  EXPECT_FALSE(Has(w.out, "failed_targets")) << w.out;
}

// One behaviour for --rank: the default tensor extended (with size-1 dimensions) or truncated to the rank;
// outside 1..5 (cuda.h: tensorRank 1 to 5) a usage error, like --dims with 6 values.
TEST(HonestOutput, RankExtendsTheDefaultsAndRefusesOutsideOneToFive) {
  const Result r3 = RunTool("--rank 3 --color never");
  EXPECT_EQ(r3.code, 0) << r3.out;
  EXPECT_TRUE(Has(r3.out, "global_dim            [4096, 4096, 1]")) << r3.out;
  const Result r1 = RunTool("--rank 1 --swizzle none --color never");
  EXPECT_TRUE(Has(r1.out, "global_dim            [4096]")) << r1.out;
  for (const char* bad : {"6", "0"}) {
    const Result r = RunTool(std::string("--rank ") + bad);
    EXPECT_EQ(r.code, 2) << bad << r.out;
    EXPECT_TRUE(Has(r.out, "--rank: ")) << r.out;
  }
  EXPECT_EQ(RunTool("--dims 2,2,2,2,2,2").code, 2);
}

// Input errors as a compiler prints them: FILE:LINE:COLUMN, 1-based, in every format; the JSON report names
// the file. The file below has the bad value -1 on line 2, column 42 (counted by hand).
TEST(HonestOutput, InputErrorsAreCompilerStyleWithTheFile) {
  const std::string f = WriteFile("pos.json", "{\"tensor_data_type\": \"f16\",\n \"global_dim\": [64, 64], \"box_dim\": [64, -1]}\n");
  const Result t = RunTool("validate " + f);
  EXPECT_EQ(t.code, 2) << t.out;
  EXPECT_TRUE(Has(t.out, f + ":2:42: error[input-error] box_dim[1]:")) << t.out;
  const Result j = RunTool("validate --format json " + f);
  EXPECT_TRUE(Has(j.out, "\"file\":\"" + f + "\"")) << j.out;
  EXPECT_TRUE(Has(j.out, "\"line\":2,\"column\":42")) << j.out;
  EXPECT_FALSE(Has(j.out, "\"message\":\"line ")) << j.out;  // the place is in its own fields
  // JSON Lines: the line of the spec; standard input is <stdin>.
  const Result l = RunTool("validate -", "{\"tensor_data_type\": \"f16\", \"global_dim\": [64], \"box_dim\": [64]}\n{\"box\": 1}\n");
  EXPECT_TRUE(Has(l.out, "<stdin>:2:")) << l.out;
  EXPECT_TRUE(Has(l.out, "did you mean \"box_dim\"")) << l.out;
}

// An input without a spec must not pass a CI job: exit 2 with the reason.
TEST(HonestOutput, EmptyInputIsAnError) {
  for (const std::string& text : {std::string(), std::string("\n\n  \n")}) {
    const std::string f = WriteFile("empty.jsonl", text);
    const Result r = RunTool("validate " + f);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(Has(r.out, "holds no spec")) << r.out;
  }
  const std::string f = WriteFile("empty.json", "");
  EXPECT_EQ(RunTool("validate " + f).code, 2);
}

// What the bytes hold is accepted as the cuda.h type that carries them (DeepGEMM encodes FP8 operands as UINT8,
// runtime_utils.hpp l. 85; CUTLASS maps e2m3/e3m2 to 16U6_ALIGN16B, copy_sm90_desc.hpp l. 225-226), and the
// report says which type was used.
TEST(HonestOutput, DataTypeAliasesNameTheCudaType) {
  for (const char* a : {"e4m3", "e5m2", "fp8", "s8", "int8"}) {
    const Result r = RunTool(std::string("--dtype ") + a + " --box 128,64 --color never");
    EXPECT_EQ(r.code, 0) << a << r.out;
    EXPECT_TRUE(Has(r.out, "CU_TENSOR_MAP_DATA_TYPE_UINT8 (u8, 8 bits)")) << a << r.out;
    EXPECT_TRUE(Has(r.out, std::string(a) + " is ")) << r.out;
    EXPECT_TRUE(Has(r.out, "the map uses CU_TENSOR_MAP_DATA_TYPE_UINT8")) << r.out;
  }
  const Result f4 = RunTool("--dtype e2m1 --box 128,64 --target sm_100a --format json");
  EXPECT_TRUE(Has(f4.out, R"("data_type_alias":{"written":"e2m1","cuda_type":"CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B")"))
      << f4.out;
  const Result f6 = RunTool("--dtype e3m2 --dims 4096,64 --box 128,64 --target sm_100a --format json");
  EXPECT_TRUE(Has(f6.out, R"("cuda_type":"CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B")")) << f6.out;
  EXPECT_EQ(RunTool("--dtype e9m9").code, 2);
}

// Unknown flags and commands get the nearest name.
TEST(HonestOutput, UnknownFlagsAndCommandsGetDidYouMean) {
  EXPECT_TRUE(Has(RunTool("--swizle 128B").out, "unknown flag --swizle (did you mean \"--swizzle\"?)"));
  EXPECT_TRUE(Has(RunTool("valdiate x.json").out, "did you mean \"validate\""));
  EXPECT_TRUE(Has(RunTool("--format jsno").out, "did you mean \"json\""));
  EXPECT_TRUE(Has(RunTool("idesc --cta-grup 2").out, "did you mean \"--cta-group\""));
  EXPECT_TRUE(Has(RunTool("desc tcgen05 --tlie 128,64").out, "did you mean \"--tile\""));
  EXPECT_TRUE(Has(RunTool("codegen x.json --lnag ptx").out, "did you mean \"--lang\""));
  EXPECT_TRUE(Has(RunTool("explain global-stride-overlpa").out, "did you mean \"global-stride-overlap\""));
}

// --format short: "FILE:LINE: error[rule-id] field: message", one line per diagnostic; nothing for a clean spec.
TEST(HonestOutput, FormatShortIsOneLinePerDiagnostic) {
  const std::string f = WriteFile("short.jsonl",
                                  "{\"tensor_data_type\": \"f16\", \"global_dim\": [64, 64], \"box_dim\": [64, 64], \"swizzle\": \"none\", \"target\": \"sm_90a\"}\n"
                                  "{\"tensor_data_type\": \"f16\", \"global_dim\": [64, 64], \"global_strides\": [136], \"box_dim\": [64, 64], \"swizzle\": \"none\", \"target\": \"sm_90a\"}\n"
                                  "{\"tensor_data_type\": \"f16\", \"global_dim\": [64, -4]}\n");
  const Result r = RunTool("validate --format short " + f);
  EXPECT_EQ(r.code, 2) << r.out;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  // cuda.h: every global stride is a multiple of 16 bytes; 136 is not.
  EXPECT_EQ(lines[0].rfind(f + ":2: error[global-stride-align-16] global_strides[0]: global_strides[0] = 136 B", 0), 0u)
      << r.out;
  // -4 starts at column 48 of line 3 (1-based; the 47 characters before it counted by Python's str.index).
  EXPECT_TRUE(Has(r.out, f + ":3:48: error[input-error] global_dim[1]:")) << r.out;
  EXPECT_FALSE(Has(r.out, f + ":1:")) << r.out;
}

// --remote HOST without a port dials the default 50051 instead of port 0; a bad port is an error.
TEST(HonestOutput, RemoteTargetDefaultPort) {
  auto target = [](const char* v) {
    absl::StatusOr<std::string> t = RemoteTarget(v);
    return t.ok() ? *t : StrCat("error: ", StatusMessage(t.status()));
  };
  EXPECT_EQ(target("buildfarm"), "buildfarm:50051");
  EXPECT_EQ(target("10.0.0.5:6000"), "10.0.0.5:6000");
  EXPECT_EQ(target("[::1]"), "[::1]:50051");
  EXPECT_EQ(target("dns:///farm.example:7000"), "dns:///farm.example:7000");
  for (const char* bad : {"farm:", "farm:0", "farm:x", "farm:70000", ":50051", "::1"}) {
    const absl::StatusOr<std::string> t = RemoteTarget(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_TRUE(Has(std::string(StatusMessage(t.status())), "--remote")) << t.status();
  }
}

// A comma-separated list: each server by the rules of one (default port included); the caller resolves
// the list into gRPC's resolver-free ipv4:/ipv6: target (cli/remote.cc). gRPC targets stay as they are.
TEST(HonestOutput, RemoteTargetLists) {
  auto target = [](const char* v) {
    absl::StatusOr<std::string> t = RemoteTarget(v);
    return t.ok() ? *t : StrCat("error: ", StatusMessage(t.status()));
  };
  EXPECT_EQ(target("10.0.0.5:6000,10.0.0.6"), "10.0.0.5:6000,10.0.0.6:50051");
  EXPECT_EQ(target("gpu1,[::1]:7000,gpu2:7001"), "gpu1:50051,[::1]:7000,gpu2:7001");
  EXPECT_EQ(target("ipv4:127.0.0.1:5001,127.0.0.1:5002"), "ipv4:127.0.0.1:5001,127.0.0.1:5002");
  for (const char* bad : {"a:1,,b:2", "a:1,", ",a:1", "a:1,b:0", "a:1,b:", "a:1,unix:/tmp/s", "a:1,::1"}) {
    const absl::StatusOr<std::string> t = RemoteTarget(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_TRUE(Has(std::string(StatusMessage(t.status())), "--remote")) << t.status();
  }
}

// The command line's parsers and readers answer status.h's codes: bad usage is kInvalidArgument naming the
// flag; a file that does not exist is kNotFound (ErrnoStatus: ENOENT), its message naming the file. The message
// is what the command prints after "tmapgen COMMAND: ".
TEST(HonestOutput, ParsersAndReadersAnswerTheVocabularysCodes) {
  using tmapgen::cli::CodegenArgs;
  using tmapgen::cli::DecodeArgs;
  using tmapgen::cli::DescArgs;
  using tmapgen::cli::PlanGemmArgs;
  auto message = [](const absl::Status& st) { return std::string(StatusMessage(st)); };
  CodegenArgs c;
  absl::Status st = tmapgen::cli::ParseCodegenArgs({"codegen", "--lang"}, &c);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_EQ(message(st), "--lang needs a value");
  st = tmapgen::cli::WriteFileAtomically("/nonexistent-dir/x.h", "x");
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
  EXPECT_TRUE(Has(message(st), "/nonexistent-dir/x.h")) << st;
  DecodeArgs d;
  st = tmapgen::cli::ParseDecodeArgs({"--format", "xml", "00"}, &d);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_EQ(message(st), "--format: expected text or json");
  DescArgs m;
  ASSERT_EQ(tmapgen::cli::ParseDescArgs({"wgmma", "--for-map", "/nonexistent-dir/map.json"}, &m), absl::OkStatus());
  st = tmapgen::cli::LoadDescMap(&m);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
  EXPECT_EQ(message(st).rfind("--for-map: ", 0), 0u) << st;
  EXPECT_TRUE(Has(message(st), "/nonexistent-dir/map.json")) << st;
  PlanGemmArgs g;
  st = tmapgen::cli::ParsePlanGemmArgs({"--m", "x"}, &g);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_EQ(message(st), "--m: expected an unsigned integer, got \"x\"");
}

// no-color.org: NO_COLOR set and not empty disables colors; TERM=dumb terminals get none either.
TEST(HonestOutput, ColorsFollowNoColorAndDumbTerminals) {
  EXPECT_TRUE(AutoColorFor(true, nullptr, "xterm-256color"));
  EXPECT_FALSE(AutoColorFor(false, nullptr, "xterm"));
  EXPECT_FALSE(AutoColorFor(true, "1", "xterm"));
  EXPECT_TRUE(AutoColorFor(true, "", "xterm"));
  EXPECT_FALSE(AutoColorFor(true, nullptr, "dumb"));
  // End to end on a pseudo-terminal, where `script` is available (util-linux).
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) not found: no pseudo-terminal";
  auto on_tty = [](const std::string& env) {
    const std::string out = testing::TempDir() + "/tty.txt";
    const std::string cmd = "env -u NO_COLOR " + env + " script -qec '" + std::string(TMAPGEN_BINARY) + " --no-gpu' " + out +
                            " > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_TRUE(Has(on_tty("TERM=xterm"), "\033[")) << "colors on a terminal";
  EXPECT_FALSE(Has(on_tty("TERM=dumb"), "\033["));
  EXPECT_FALSE(Has(on_tty("TERM=xterm NO_COLOR=1"), "\033["));
}

}  // namespace
