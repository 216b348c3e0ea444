// The codegen example through the GPU-check machinery: the kernel built with
// examples/codegen/tile_a.gen.h, the map from the embedded examples/codegen/tile.json, every byte against the
// model. The spec checks run anywhere; the hardware run is skipped, with the reason, without a usable GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "src/gpu/check/check_runner.h"
#include "src/gpu/check/codegen_example.h"
#include "src/model/copy_model.h"

namespace tmapgen::gpu {
namespace {

TEST(CodegenExample, EmbeddedSpecAgreesWithTheGeneratedHeader) {
  EXPECT_NE(CodegenExampleSpecText().find("\"name\": \"tile_a\""), std::string::npos) << CodegenExampleSpecText();
  const absl::StatusOr<TensorMapSpec> example = CodegenExampleSpec();
  ASSERT_TRUE(example.ok()) << example.status();
  const TensorMapSpec& spec = *example;
  EXPECT_EQ(spec.global_dim[0], 256u);
  EXPECT_EQ(spec.global_dim[1], 512u);
  EXPECT_EQ(spec.box_dim[0], 64u);
  EXPECT_EQ(spec.box_dim[1], 128u);
  EXPECT_EQ(spec.swizzle, Swizzle::k128B);
}

TEST(CodegenExample, CoordinatesCoverInteriorEdgeOverhangAndNegative) {
  const auto c = CodegenExampleCoords();
  ASSERT_EQ(c.size(), 5u);
  bool past_end = false, negative = false;
  for (const auto& x : c) {
    EXPECT_EQ(x.x0 % 8, 0) << x.label;  // dim-0 starts 16-byte aligned (docs/model.md M2)
    past_end |= x.x0 + 64 > 256 && x.x1 + 128 > 512;
    negative |= x.x0 < 0 && x.x1 < 0;
  }
  EXPECT_TRUE(past_end);
  EXPECT_TRUE(negative);
}

// The model accepts every coordinate (no trap per docs/model.md) and counts the header's kTransactionBytes.
TEST(CodegenExample, ModelAcceptsEveryCoordinate) {
  const absl::StatusOr<TensorMapSpec> example = CodegenExampleSpec();
  ASSERT_TRUE(example.ok()) << example.status();
  const TensorMapSpec& spec = *example;
  std::vector<uint8_t> global(256 * 512 * 2, 0x11);
  for (const auto& c : CodegenExampleCoords()) {
    model::CopyInstruction in = model::DefaultInstruction(spec);
    in.coords = {};
    in.coords[0] = c.x0;
    in.coords[1] = c.x1;
    model::SmemImage img;
    const absl::Status st = model::ModelLoad(spec, in, global.data(), global.size(), &img);
    ASSERT_TRUE(st.ok()) << c.label << ": " << st;
    EXPECT_EQ(img.transaction_bytes, 16384u) << c.label;
    EXPECT_EQ(img.bytes.size(), 16384u) << c.label;
  }
}

TEST(CodegenExample, RunsOnHardwareAndMatchesTheModel) {
  RunSummary probe;
  ProbeGpu(&probe);
  if (!probe.gpu_available) GTEST_SKIP() << "no usable GPU: " << probe.why_no_gpu;
  CodegenExampleReport rep;
  RunCodegenExample(60, &rep);
  ASSERT_TRUE(rep.ran) << rep.why_not;
  ASSERT_EQ(rep.rows.size(), CodegenExampleCoords().size());
  for (const auto& row : rep.rows)
    EXPECT_EQ(row.outcome, Outcome::kPass) << row.coord.label << ": " << OutcomeName(row.outcome) << " " << row.detail;
}

TEST(CodegenExample, WithoutAGpuTheReportSaysNotRun) {
  CodegenExampleReport rep;
  rep.ran = false;
  rep.why_not = "no CUDA driver";
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(PrintCodegenExample(rep, f), 2);
  std::rewind(f);
  char buf[256] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  EXPECT_NE(std::string(buf, n).find("not run on hardware: no CUDA driver"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::gpu
