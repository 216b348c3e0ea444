// The pictures: text grid, JSON and SVG of `tmapgen show`, and the command itself (cli/show_cmd.h).
#include "src/model/show_render.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/show_cmd.h"
#include "src/json/json_writer.h"
#include "tests/model/model_test_util.h"

namespace tmapgen::model {
namespace {

using testing::Instr;
using testing::Tiled;

ShowData Show(const TensorMapSpec& s, const CopyInstruction& in) {
  ShowData d;
  const absl::Status st = BuildShow(s, in, &d);
  EXPECT_TRUE(st.ok()) << st;
  return d;
}

// Phase 1 of the 128B swizzle: the first line holds chunks 1 0 3 2 5 4 7 6 of row 0.
TEST(ShowText, GridShowsSwizzledChunksAndOutOfBounds) {
  const TensorMapSpec s = Tiled(DataType::kBfloat16, {200, 100}, {64, 16}, Swizzle::k128B);
  const ShowData d = Show(s, Instr(CopyMode::kTile, {160, 90}, 0x480));
  ASSERT_EQ(d.cells.size(), 128u);
  EXPECT_EQ(d.cells[0].row, 0);
  EXPECT_EQ(d.cells[0].chunk, 1);
  EXPECT_EQ(d.cells[1].chunk, 0);
  EXPECT_EQ(d.cells[4].chunk, 5);
  EXPECT_EQ(d.cells[4].oob, CellOob::kAll);   // elements 200..207 of a 200-wide tensor
  EXPECT_EQ(d.cells[5].oob, CellOob::kNone);  // chunk 4: elements 192..199
  EXPECT_EQ(d.swizzle_base_offset, 1);
  const std::string t = RenderText(d, 0);
  EXPECT_NE(t.find("0x480 |     0.1     0.0     0.3     0.2    0.5*     0.4    0.7*    0.6*"), std::string::npos) << t;
  EXPECT_NE(t.find("swizzle base offset 1 of 8"), std::string::npos);
  EXPECT_NE(t.find("column"), std::string::npos);
  const std::string shortened = RenderText(d, 4);
  EXPECT_NE(shortened.find("12 more lines"), std::string::npos);
}

TEST(ShowText, PartlyOutOfBoundsChunkAndFlip) {
  TensorMapSpec s = Tiled(DataType::kUint8, {20, 4}, {128, 2}, Swizzle::k128BAtom32BFlip8B);
  const ShowData d = Show(s, Instr(CopyMode::kTile, {16, 0}));
  // Chunk 0 of row 0: elements 16..31, of which 20.. are outside.
  EXPECT_EQ(d.cells[0].oob, CellOob::kSome);
  EXPECT_FALSE(d.cells[0].flipped);
  EXPECT_TRUE(d.cells[8].flipped);  // line 1
  EXPECT_NE(RenderText(d, 0).find("1.2*f"), std::string::npos);
}

TEST(ShowJson, ParsesAndNamesEveryChunk) {
  const TensorMapSpec s = Tiled(DataType::kFloat16, {64, 64}, {32, 8}, Swizzle::k64B);
  const ShowData d = Show(s, Instr(CopyMode::kTile, {0, 0}));
  json::Writer w;
  RenderJson(d, &w);
  ASSERT_TRUE(w.complete()) << w.error();
  const std::string& j = w.str();
  EXPECT_NE(j.find("\"transaction_bytes\":512"), std::string::npos) << j.substr(0, 300);
  EXPECT_NE(j.find("\"bank_conflicts\""), std::string::npos);
  EXPECT_NE(j.find("\"chunks\""), std::string::npos);
}

TEST(ShowSvg, WellFormedWithBanksAndHatching) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {100, 40}, {64, 16}, Swizzle::k128B);
  const ShowData d = Show(s, Instr(CopyMode::kTile, {64, 32}, 1024 + 256));
  const std::string svg = RenderSvg(d, 0);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("banks"), std::string::npos);
  EXPECT_NE(svg.find("28-31"), std::string::npos);
  EXPECT_NE(svg.find("url(#oob)"), std::string::npos);
  EXPECT_NE(svg.find("repeat"), std::string::npos);
  // Every opened element is closed: count '<' of tags against '/>' and '</'.
  size_t open = 0, close = 0;
  for (size_t i = 0; i + 1 < svg.size(); ++i) {
    if (svg[i] == '<' && svg[i + 1] != '/') ++open;
    if ((svg[i] == '/' && svg[i + 1] == '>') || (svg[i] == '<' && svg[i + 1] == '/')) ++close;
  }
  EXPECT_EQ(open, close);
}

TEST(ShowIm2col, HaloCellsAreMarked) {
  const TensorMapSpec s = testing::Wide(Mode::kIm2colW, DataType::kFloat16, {64, 200, 3, 2}, -1, -1, 64, 16);
  CopyInstruction in = Instr(CopyMode::kIm2colW, {0, 0, 1, 0});
  in.w_halo = 2;
  const ShowData d = Show(s, in);
  EXPECT_EQ(d.layout.rows, 18u);
  bool halo = false;
  for (const ChunkCell& c : d.cells) halo = halo || c.halo;
  EXPECT_TRUE(halo);
}

// ---------------------------------------------------------------------------------------------- the command

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream(path) << text;
  return path;
}

int RunShow(const std::vector<std::string>& args, std::string* out, std::string* err) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int rc = cli::RunShowCommand(args);
  *out = ::testing::internal::GetCapturedStdout();
  *err = ::testing::internal::GetCapturedStderr();
  return rc;
}

TEST(ShowCommand, TextJsonAndSvg) {
  const std::string spec =
      TempFile("show_spec.json", R"({"tensor_data_type": "bf16", "global_dim": [200, 100], "box_dim": [64, 16], "swizzle": "128B"})");
  std::string out, err;
  EXPECT_EQ(RunShow({spec, "--coords", "160,90", "--smem-address", "0x480"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("0x480 |     0.1     0.0"), std::string::npos) << out;
  EXPECT_EQ(RunShow({spec, "--coords=0,0", "--format", "json"}, &out, &err), 0) << err;
  EXPECT_EQ(out.find("{"), 0u);
  const std::string svg = std::string(::testing::TempDir()) + "show.svg";
  EXPECT_EQ(RunShow({spec, "--svg", svg}, &out, &err), 0) << err;
  std::ifstream f(svg);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("</svg>"), std::string::npos);
}

TEST(ShowCommand, UsageErrorsNameTheFlagAndExit2) {
  const std::string spec = TempFile("show_spec2.json", R"({"tensor_data_type": "f16", "global_dim": [64, 64], "box_dim": [64, 8]})");
  std::string out, err;
  EXPECT_EQ(RunShow({spec, "--coords", "1,x"}, &out, &err), 2);
  EXPECT_NE(err.find("--coords"), std::string::npos) << err;
  EXPECT_EQ(RunShow({spec, "--coords", "1,2,3"}, &out, &err), 2);
  EXPECT_NE(err.find("--coords"), std::string::npos) << err;
  EXPECT_EQ(RunShow({spec, "--format", "xml"}, &out, &err), 2);
  EXPECT_NE(err.find("--format"), std::string::npos);
  EXPECT_EQ(RunShow({spec, "--smem-address", "-5"}, &out, &err), 2);
  EXPECT_NE(err.find("--smem-address"), std::string::npos);
  EXPECT_EQ(RunShow({spec, "--mode", "bogus"}, &out, &err), 2);
  EXPECT_NE(err.find("--mode"), std::string::npos);
  EXPECT_EQ(RunShow({spec, "--frobnicate"}, &out, &err), 2);
  EXPECT_NE(err.find("unknown flag --frobnicate"), std::string::npos);
  EXPECT_EQ(RunShow({}, &out, &err), 2);
  EXPECT_NE(err.find("missing SPEC"), std::string::npos);
  EXPECT_EQ(RunShow({"/nonexistent/spec.json"}, &out, &err), 2);
  EXPECT_EQ(RunShow({spec, "--svg"}, &out, &err), 2);
  EXPECT_NE(err.find("--svg needs a value"), std::string::npos);
  // The model refuses (misaligned box start): exit 1 with the reason.
  EXPECT_EQ(RunShow({spec, "--coords", "3,0"}, &out, &err), 1);
  EXPECT_NE(err.find("16-byte boundary"), std::string::npos);
}

// The SVG renders in a real browser (Debian's chromium, headless) to a non-empty PNG of the SVG's size.
TEST(ShowCommand, SvgRendersInChromium) {
#ifndef TMAPGEN_SOURCE_DIR
  GTEST_SKIP() << "TMAPGEN_SOURCE_DIR not defined";
#else
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "chromium is not installed";
  const std::string spec = TempFile("show_spec3.json",
                                    R"({"tensor_data_type": "f16", "global_dim": [100, 40], "global_strides": [208], "box_dim": [64, 8], "swizzle": "128B"})");
  const std::string svg = std::string(::testing::TempDir()) + "render.svg";
  const std::string png = std::string(::testing::TempDir()) + "render.png";
  std::string out, err;
  ASSERT_EQ(RunShow({spec, "--coords", "64,36", "--svg", svg}, &out, &err), 0) << err;
  std::remove(png.c_str());
  const std::string cmd = std::string(TMAPGEN_SOURCE_DIR) + "/scripts/render-svg.sh " + svg + " " + png + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(png, std::ios::binary);
  char sig[8] = {};
  f.read(sig, 8);
  EXPECT_EQ(std::string(sig + 1, 3), "PNG");
  f.seekg(0, std::ios::end);
  EXPECT_GT(static_cast<long>(f.tellg()), 2000);
#endif
}

}  // namespace
}  // namespace tmapgen::model
