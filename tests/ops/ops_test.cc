// The runners of src/ops: what each decides on its own (the target a spec is validated for, when the driver
// encodes, the order and the stop of a per-map run, the verdicts, which requests are errors). The reports
// themselves are tested in the rooms that make them; the front ends' bytes by tests/cli, tests/server and
// scripts/dev/check-same-output.sh.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/blob/blob.h"
#include "src/ops/check.h"
#include "src/ops/codegen.h"
#include "src/ops/decode.h"
#include "src/ops/descriptors.h"
#include "src/ops/diff.h"
#include "src/ops/validate.h"
#include "src/driver/cuda_driver.h"
#include "tests/tmap/test_specs.h"

namespace tmapgen::ops {
namespace {

using test_specs::TiledF16;
using test_specs::WithoutTarget;
using test_specs::WithTarget;

// TiledF16 with a row pitch of 8200 bytes. [CUDA_H] cuTensorMapEncodeTiled: "Each following dimension
// specified includes previous dimension stride" and globalStrides[i] must be a multiple of 16: invalid.
TensorMapSpec BadStride() {
  TensorMapSpec s = TiledF16();
  s.global_strides[0] = 8200;
  return s;
}

// A host whose "driver" counts what it is asked to encode.
int g_encodes = 0;
void CountingEncoder(const Host&, const TensorMapSpec& spec, Encoding* out) {
  ++g_encodes;
  out->attempted = true;
  out->device = "fake";
  out->map[0] = spec.global_dim[0];
}
Host FakeGpu(Target t) {
  Host h;
  h.gpu = true;
  h.has_target = true;
  h.target = t;
  h.description = "fake";
  h.encode = &CountingEncoder;
  return h;
}

TEST(OpsValidate, TheRequestTargetFillsOnlyASpecWithoutOne) {
  ValidateRequest req;
  req.has_target = true;
  req.target = Target::kSm100a;
  ValidateResult res;
  const TensorMapSpec without = WithoutTarget(TiledF16());
  ASSERT_TRUE(RunValidate(req, NoGpu(), without, &res).ok());
  EXPECT_TRUE(res.spec().has_target());
  EXPECT_EQ(res.spec().target, Target::kSm100a);
  EXPECT_FALSE(without.has_target());  // the caller's spec is left alone

  const TensorMapSpec own = WithTarget(TiledF16(), Target::kSm90a);
  ASSERT_TRUE(RunValidate(req, NoGpu(), own, &res).ok());
  EXPECT_EQ(&res.spec(), &own);  // no copy when nothing changes
  EXPECT_EQ(res.spec().target, Target::kSm90a);
}

TEST(OpsValidate, ReplaceTargetReplacesTheSpecsOwn) {
  ValidateRequest req;
  req.has_target = true;
  req.target = Target::kSm100a;
  req.replace_target = true;
  ValidateResult res;
  const TensorMapSpec own = WithTarget(TiledF16(), Target::kSm90a);
  ASSERT_TRUE(RunValidate(req, NoGpu(), own, &res).ok());
  EXPECT_EQ(res.spec().target, Target::kSm100a);
  EXPECT_EQ(own.target, Target::kSm90a);
}

TEST(OpsValidate, TheGpusTargetFillsInOnlyWhenAskedAndNoneIsGiven) {
  const Host gpu = FakeGpu(Target::kSm100a);
  const TensorMapSpec without = WithoutTarget(TiledF16());
  ValidateResult res;
  ValidateRequest req;
  ASSERT_TRUE(RunValidate(req, gpu, without, &res).ok());
  EXPECT_EQ(res.spec().target, Target::kSm100a);

  req.use_gpu = false;  // --no-gpu, options.no_gpu
  ASSERT_TRUE(RunValidate(req, gpu, without, &res).ok());
  EXPECT_FALSE(res.spec().has_target());

  req.use_gpu = true;
  req.has_target = true;  // --target wins over the GPU's
  req.target = Target::kSm90a;
  ASSERT_TRUE(RunValidate(req, gpu, without, &res).ok());
  EXPECT_EQ(res.spec().target, Target::kSm90a);
}

TEST(OpsValidate, OnlyABuildOfAValidSpecOnAGpuIsEncoded) {
  const Host gpu = FakeGpu(Target::kSm90a);
  ValidateResult res;
  ValidateRequest build;
  build.encode = true;
  g_encodes = 0;

  ASSERT_TRUE(RunValidate(build, gpu, TiledF16(), &res).ok());
  EXPECT_TRUE(res.validation.valid);
  EXPECT_EQ(g_encodes, 1);
  EXPECT_TRUE(res.encoding.attempted);
  EXPECT_EQ(res.encoding.map[0], 4096u);

  ASSERT_TRUE(RunValidate(build, gpu, BadStride(), &res).ok());
  EXPECT_FALSE(res.validation.valid);
  EXPECT_EQ(g_encodes, 1);               // an invalid spec never reaches the driver
  EXPECT_FALSE(res.encoding.attempted);  // and the result reused keeps no encoding of the spec before

  ValidateRequest validate;  // validate never encodes
  ASSERT_TRUE(RunValidate(validate, gpu, TiledF16(), &res).ok());
  EXPECT_EQ(g_encodes, 1);

  build.use_gpu = false;
  ASSERT_TRUE(RunValidate(build, gpu, TiledF16(), &res).ok());
  EXPECT_EQ(g_encodes, 1);
  ASSERT_TRUE(RunValidate(build, NoGpu(), TiledF16(), &res).ok());
  EXPECT_EQ(g_encodes, 1);
}

// Three maps: the bytes do not matter to what is tested here (all zero).
DecodeRequest ThreeMaps() {
  DecodeRequest req;
  req.maps.resize(3);
  for (blob::MapBytes& m : req.maps) m.fill(0);
  req.labels = {"first", "second"};
  return req;
}

TEST(OpsDecode, EachMapInOrderWithItsLabelAndTheVerdictIsEveryMaps) {
  const DecodeRequest req = ThreeMaps();
  std::vector<std::string> labels;
  bool all = true;
  const absl::StatusOr<DecodeSummary> sum = RunDecode(req, [&](const DecodedMap& m) {
    EXPECT_EQ(m.index, static_cast<int>(labels.size()));
    EXPECT_EQ(m.bytes, &req.maps[labels.size()]);
    EXPECT_EQ(m.clean, blob::Clean(m.decoded));
    all = all && m.valid && m.clean;
    labels.emplace_back(m.label);
    return absl::OkStatus();
  });
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(labels, (std::vector<std::string>{"first", "second", "map 2"}));
  EXPECT_EQ(sum->all_clean_and_valid, all);
}

TEST(OpsDecode, AnErrorOfTheCallbackStopsTheRun) {
  const DecodeRequest req = ThreeMaps();
  int seen = 0;
  const absl::StatusOr<DecodeSummary> sum = RunDecode(req, [&](const DecodedMap& m) {
    ++seen;
    return m.index == 1 ? absl::ResourceExhaustedError("maps: over the limit") : absl::OkStatus();
  });
  EXPECT_EQ(sum.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(seen, 2);
}

TEST(OpsDiff, EqualMapsHaveNoRowsAndEveryDifferingBitIsReported) {
  DiffRequest req;
  req.a.fill(0);
  req.b.fill(0);
  absl::StatusOr<DiffResult> same = RunDiff(req);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(same->equal);
  EXPECT_TRUE(same->rows.empty());
  EXPECT_TRUE(same->raw_bits.empty());
  // One bit in each byte: every change shows, as a field's row or as a bit no field explains.
  for (int byte = 0; byte < 128; ++byte) {
    req.b.fill(0);
    req.b[byte] = 1;
    absl::StatusOr<DiffResult> d = RunDiff(req);
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->equal) << byte;
    EXPECT_FALSE(d->rows.empty() && d->raw_bits.empty()) << "byte " << byte;
  }
}

TEST(OpsDescriptors, AMalformedRequestIsAnErrorNamingTheField) {
  desc::MatrixRequest r;
  r.op = desc::MatrixOp::kDerive;  // DERIVE needs the map it derives from
  r.has_map = false;
  const absl::StatusOr<desc::SmemDescReport> rep = RunMatrixDescriptor(r);
  EXPECT_EQ(rep.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(rep.status().message()).rfind("map: ", 0), 0u) << rep.status().message();

  desc::IdescRequest q;
  q.decode = false;
  q.spec.cta_group = 3;  // PTX ISA: .cta_group::1 or ::2
  EXPECT_EQ(RunInstructionDescriptor(q).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(OpsCodegen, ADescriptorNamingNoMapIsAnErrorAndAnInvalidSpecIsARejection) {
  CodegenRequest req;
  req.input.specs = {TiledF16()};
  codegen::NamedDesc d;
  d.map = "nope";
  d.arch = desc::DescArch::kWgmma;
  req.input.descs = {d};
  const absl::StatusOr<CodegenResult> bad = RunCodegen(req);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(bad.status().message()).find("--desc nope"), std::string::npos) << bad.status().message();

  CodegenRequest invalid;
  invalid.input.specs = {BadStride()};
  const absl::StatusOr<CodegenResult> rej = RunCodegen(invalid);
  ASSERT_TRUE(rej.ok());
  EXPECT_FALSE(rej->output.generated);
  EXPECT_FALSE(rej->output.rejection.empty());
}

TEST(OpsCheck, WithoutAGpuItIsUnavailableAndSaysWhy) {
  if (driver::CudaDriver::Get().info().available) GTEST_SKIP() << "a CUDA driver is present";
  CheckRequest req;
  req.specs = {TiledF16()};
  req.names = {"tile"};
  const absl::StatusOr<gpu::CheckReport> rep = RunCheck(req);
  EXPECT_EQ(rep.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(rep.status().message().empty());
}

}  // namespace
}  // namespace tmapgen::ops
