// Tests of tmapgen codegen (src/codegen, cli/codegen_cmd). Expected values are computed by hand from
// the specs (cuda.h units, PTX ISA Table 33 encodings), never copied from the tool's output.
#include <gtest/gtest.h>
#include <dirent.h>
#include <cctype>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/codegen_cmd.h"
#include "src/codegen/codegen.h"
#include "tests/util/json_check.h"
#include "src/schema/spec_json.h"

namespace tmapgen::codegen {
namespace {

// f16 [4096, 4096] (row pitch 8192 B), box 64 x 128, SWIZZLE_128B: 16384 transaction bytes.
constexpr const char* kTileA =
    R"({"name": "tile_a", "target": "sm_90a", "tensor_data_type": "float16", "global_dim": [4096, 4096], )"
    R"("global_strides": [8192], "box_dim": [64, 128], "swizzle": "128B"})";
// box_dim[0] = 300 > 256 and a 200-byte stride: invalid for every target.
constexpr const char* kInvalid =
    R"({"name": "bad", "tensor_data_type": "float16", "global_dim": [100, 64], "global_strides": [200], )"
    R"("box_dim": [300, 8]})";

TensorMapSpec Spec(const char* json) {
  absl::StatusOr<TensorMapSpec> s = ParseSpecJson(json);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : TensorMapSpec();
}

std::string TempPath(const std::string& name) { return testing::TempDir() + "/codegen_" + name; }

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string p = TempPath(name);
  std::ofstream(p) << text;
  return p;
}

bool Exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string ReadFile(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// MakePlan's plan into *plan (when it has one); its status.
absl::Status PlanInto(const Input& in, const Options& opt, Plan* plan) {
  absl::StatusOr<Plan> p = MakePlan(in, opt);
  if (p.ok()) *plan = *std::move(p);
  return p.status();
}

bool Contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

TEST(SanitizeIdentifier, Rules) {
  EXPECT_EQ(SanitizeIdentifier("tile_a", "x"), "tile_a");
  EXPECT_EQ(SanitizeIdentifier("my-map.v2", "x"), "my_map_v2");
  EXPECT_EQ(SanitizeIdentifier("class", "x"), "class_");
  EXPECT_EQ(SanitizeIdentifier("namespace", "x"), "namespace_");
  EXPECT_EQ(SanitizeIdentifier("and", "x"), "and_");
  EXPECT_EQ(SanitizeIdentifier("3d box", "x"), "map_3d_box");
  EXPECT_EQ(SanitizeIdentifier("__Reserved__name", "x"), "Reserved_name");  // no leading '_', no "__"
  EXPECT_EQ(SanitizeIdentifier("", "map7"), "map7");
  EXPECT_EQ(SanitizeIdentifier("---", "map2"), "map2");
  EXPECT_EQ(SanitizeIdentifier("caf\xc3\xa9", "x"), "caf_");  // non-ASCII bytes are not identifier characters
}

TEST(MakePlan, NamesAreUniqueAndFallBackToPosition) {
  Input in;
  TensorMapSpec a = Spec(kTileA);
  in.specs = {a, a, a};
  in.specs[2].name = "";
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  ASSERT_TRUE(plan.valid);
  EXPECT_EQ(plan.maps[0].ident, "tile_a");
  EXPECT_EQ(plan.maps[1].ident, "tile_a_2");
  EXPECT_EQ(plan.maps[2].ident, "map2");
  // An identifier equal to the namespace is renamed too.
  in.specs = {a};
  in.specs[0].name = "tmapgen_gen";
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  EXPECT_EQ(plan.maps[0].ident, "tmapgen_gen_2");
}

// docs/codegen.md: a name used again gets _2, _3, ... in input order, and maps share one name space; a
// suffix already taken by another spec's own name is skipped (the search resumes where it stopped).
TEST(MakePlan, SuffixesSkipNamesTakenAndResume) {
  Input in;
  TensorMapSpec a = Spec(kTileA);
  TensorMapSpec taken = a;
  taken.name = "tile_a_3";
  in.specs = {a, a, taken, a, a};
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  ASSERT_EQ(plan.maps.size(), 5u);
  EXPECT_EQ(plan.maps[0].ident, "tile_a");
  EXPECT_EQ(plan.maps[1].ident, "tile_a_2");
  EXPECT_EQ(plan.maps[2].ident, "tile_a_3");
  EXPECT_EQ(plan.maps[3].ident, "tile_a_4");
  EXPECT_EQ(plan.maps[4].ident, "tile_a_5");
}

// max_output_bytes stops the C++ text once it passes the limit: longer than the limit, shorter than whole.
TEST(GenerateCpp, StopsPastMaxOutputBytes) {
  Input in;
  in.specs.assign(50, Spec(kTileA));
  Options opt;
  const std::string whole = GenerateCpp(in, opt);
  opt.max_output_bytes = 10000;
  const std::string cut = GenerateCpp(in, opt);
  EXPECT_GT(cut.size(), 10000u);
  EXPECT_LT(cut.size(), whole.size());
  EXPECT_EQ(whole.compare(0, cut.size(), cut), 0);  // the same text, cut short
}

TEST(GenerateCpp, DeterministicAndHandComputedValues) {
  Input in;
  in.specs = {Spec(kTileA)};
  NamedDesc d;
  {
    auto parsed = ParseNamedDesc("tile_a:wgmma:A:K");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) d = *parsed;
  }
  in.descs.push_back(d);
  NamedIdesc id;
  {
    auto parsed = ParseNamedIdesc("kind=f16,m=128,n=256,a-type=bf16,b-type=bf16,d-type=f32,name=mma");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) id = *parsed;
  }
  in.idescs.push_back(id);
  Options opt;
  opt.sources = {"tile.json"};
  const std::string a = GenerateCpp(in, opt);
  const std::string b = GenerateCpp(in, opt);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  // 64 x 128 x 2 B.
  EXPECT_TRUE(Contains(a, "constexpr unsigned kTransactionBytes = 16384u;"));
  EXPECT_TRUE(Contains(a, "constexpr unsigned kSmemFootprintBytes = 16384u;"));
  EXPECT_TRUE(Contains(a, "constexpr unsigned kSmemAlignmentRecommended = 1024u;"));  // 128B swizzle repeat
  EXPECT_TRUE(Contains(a, "constexpr unsigned kSmemAlignmentRequired = 128u;"));   // PTX ISA: 128-byte aligned
  EXPECT_FALSE(Contains(a, "kSmemAlignment "));  // the ambiguous name is gone
  EXPECT_TRUE(Contains(a, "constexpr unsigned kBoxDim[2] = {64u, 128u};"));
  EXPECT_TRUE(Contains(a, "constexpr unsigned long long kGlobalStrides[1] = {8192ull};"));
  // wgmma K-major 128B: layout 1 << 62, SBO 1024 B >> 4 = 64 at bit 32, LBO 1 at bit 16.
  EXPECT_TRUE(Contains(a, "constexpr unsigned long long kWgmmaDescA = 0x4000004000010000ull;"));
  // idesc: d f32 1<<4, a bf16 1<<7, b bf16 1<<10, N>>3 = 32 << 17, M>>4 = 8 << 24.
  EXPECT_TRUE(Contains(a, "constexpr unsigned kValue = 0x08400490u;"));
  EXPECT_TRUE(Contains(a, "cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, kRank, global_address"));
  EXPECT_TRUE(Contains(a, "CU_TENSOR_MAP_SWIZZLE_128B"));
  EXPECT_TRUE(Contains(a, "cuTensorMapReplaceAddress(map, global_address)"));
  EXPECT_TRUE(Contains(a, "#ifndef TMAPGEN_GEN_TILE_A_H_"));
  EXPECT_TRUE(Contains(a, "#if !defined(TMAPGEN_GEN_NO_HOST) && !defined(__CUDACC_RTC__)\n#include <cuda.h>"));
  EXPECT_TRUE(Contains(a, "Generated by tmapgen "));
  EXPECT_TRUE(Contains(a, "// From: tile.json"));
  // The constexpr part comes before <cuda.h>.
  EXPECT_LT(a.find("kTransactionBytes"), a.find("#include <cuda.h>"));
}

TEST(GenerateCpp, Im2colAndWideEncoders) {
  Input in;
  in.specs = {DefaultSpec(Mode::kIm2col), DefaultSpec(Mode::kIm2colW)};
  in.specs[0].name = "conv";
  in.specs[1].name = "conv_w";
  Options opt;
  const std::string h = GenerateCpp(in, opt);
  ASSERT_FALSE(h.empty());
  EXPECT_TRUE(Contains(h, "cuTensorMapEncodeIm2col(map,"));
  EXPECT_TRUE(Contains(h, "cuTensorMapEncodeIm2colWide(map,"));
  EXPECT_TRUE(Contains(h, "CUDA_VERSION >= 12080"));  // im2col::w needs the 12.8 driver API
  // Default im2col: 64 channels x 128 pixels x 2 B.
  EXPECT_TRUE(Contains(h, "constexpr unsigned kTransactionBytes = 16384u;"));
}

// A store or reduction completes through a bulk async-group and a prefetch through nothing (PTX ISA 9.2 sections
// 9.7.9.25.5.2-9.7.9.25.5.4: .bulk_group for the .global destination; cp.async.bulk.prefetch.tensor has no
// completion mechanism): their headers name the bytes a copy moves (64 x 128 x 2 B = 16,384), never an mbarrier
// count.
TEST(GenerateCpp, StoreReduceAndPrefetchHeadersNameNoTransactionCount) {
  for (const char* dir : {"store", "reduce", "prefetch"}) {
    SCOPED_TRACE(dir);
    std::string spec = kTileA;
    spec.insert(spec.size() - 1, std::string(", \"direction\": \"") + dir + "\"" +
                                     (std::string(dir) == "reduce" ? ", \"reduce_op\": \"add\"" : ""));
    Input in;
    in.specs = {Spec(spec.c_str())};
    const std::string h = GenerateCpp(in, Options());
    ASSERT_FALSE(h.empty());
    std::string lower = h;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(lower.find("expect_tx"), std::string::npos);
    EXPECT_EQ(lower.find("transaction"), std::string::npos);
    EXPECT_TRUE(Contains(h, "constexpr unsigned kBytesPerCopy = 16384u;"));
    EXPECT_TRUE(Contains(h, "static_assert(kBytesPerCopy == (kElementsPerCopy * kElementBits + 7u) / 8u"));
    if (std::string(dir) == "prefetch") {
      EXPECT_TRUE(Contains(h, "constexpr unsigned kSmemFootprintBytes = 0u;"));
      EXPECT_TRUE(Contains(h, "static_assert(kSmemFootprintBytes == 0u"));
      EXPECT_EQ(lower.find("mbarrier"), std::string::npos);
    } else {
      EXPECT_TRUE(Contains(h, "// Completion: a bulk async-group, not an mbarrier."));
      EXPECT_TRUE(Contains(h, "cp.async.bulk.commit_group"));
      EXPECT_TRUE(Contains(h, "cp.async.bulk.wait_group.read"));
      EXPECT_TRUE(Contains(h, "from shared memory (the source)"));
    }
    Plan plan;
    ASSERT_TRUE(PlanInto(in, Options(), &plan).ok());
    const std::string j = GenerateJson(plan, Options());
    EXPECT_TRUE(Contains(j, std::string("\"completion\": \"") + (std::string(dir) == "prefetch" ? "none" : "bulk_group")))
        << j;
    EXPECT_TRUE(Contains(j, "\"bytes_per_copy\": 16384")) << j;
  }
}

TEST(GenerateCpp, InvalidPlanGeneratesNothing) {
  Input in;
  in.specs = {Spec(kInvalid)};
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  EXPECT_FALSE(plan.valid);
  EXPECT_EQ(GenerateCpp(plan, opt), "");
  EXPECT_EQ(GenerateJson(plan, opt), "");
  // An invalid plan is a state the emitter needs and lacks (status.h: kFailedPrecondition).
  EXPECT_EQ(GeneratePtx(plan, opt).status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string report = RenderRejection(plan);
  EXPECT_TRUE(Contains(report, "box-dim-range")) << report;
  EXPECT_TRUE(Contains(report, "global-stride-align-16")) << report;
}

// A spec without strides is the dense tensor (cuda.h: globalStrides[0] = globalDim[0] x element size + padding[0],
// padding 0): 4100 bf16 = 8200 B, not a multiple of 16 (cuda.h), so no header is generated for a padded 8208-byte
// pitch the tensor does not have; the rejection names global_strides[0] and the padding fix. 4096 bf16 rows are
// 8192 B, a multiple of 16: generated with exactly that stride.
TEST(GenerateCpp, StridesNotGivenAreTheDenseTensors) {
  Input in;
  in.specs = {Spec(R"({"name":"wide","tensor_data_type":"bf16","global_dim":[4100,8192],"box_dim":[64,128],)"
                   R"("swizzle":"128B","target":"sm_90a"})")};
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  EXPECT_FALSE(plan.valid);
  EXPECT_EQ(GenerateCpp(plan, opt), "");
  const std::string report = RenderRejection(plan);
  EXPECT_TRUE(Contains(report, "global_strides[0] = 8200 B is not a multiple of 16 bytes")) << report;
  EXPECT_TRUE(Contains(report, "pad the allocation's rows to 8208 B")) << report;
  in.specs = {Spec(R"({"name":"dense","tensor_data_type":"bf16","global_dim":[4096,8192],"box_dim":[64,128],)"
                   R"("swizzle":"128B","target":"sm_90a"})")};
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  ASSERT_TRUE(plan.valid) << RenderRejection(plan);
  EXPECT_TRUE(Contains(GenerateCpp(plan, opt), "constexpr unsigned long long kGlobalStrides[1] = {8192ull};"));
}

TEST(GenerateJson, ParsesAsJsonAndTheEmbeddedSpecReadsBack) {
  Input in;
  in.specs = {Spec(kTileA)};
  NamedDesc d;
  {
    auto parsed = ParseNamedDesc("tile_a:wgmma:A:K");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) d = *parsed;
  }
  in.descs.push_back(d);
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  const std::string text = GenerateJson(plan, opt);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(text).get(doc)) << text;
  simdjson::dom::array maps;
  ASSERT_FALSE(doc["maps"].get_array().get(maps));
  ASSERT_EQ(maps.size(), 1u);
  const simdjson::dom::element map = maps.at(0);
  std::string_view ident, encoder, desc_value;
  uint64_t tx = 0, align = 0;
  ASSERT_FALSE(map["identifier"].get_string().get(ident));
  ASSERT_FALSE(map["encoder"].get_string().get(encoder));
  ASSERT_FALSE(map["derived"]["transaction_bytes"].get_uint64().get(tx));
  // One name per meaning: the recommended alignment (the swizzle repeat, PTX ISA matrix descriptor "base
  // offset": 0 for a tile on the 1024-byte repeat of SWIZZLE_128B) next to the required 128 B; no bare
  // "smem_alignment", which the spec uses for the alignment the caller guarantees.
  uint64_t required = 0;
  ASSERT_FALSE(map["derived"]["smem_alignment_recommended"].get_uint64().get(align));
  ASSERT_FALSE(map["derived"]["smem_alignment_required"].get_uint64().get(required));
  EXPECT_EQ(required, 128u);
  simdjson::dom::element bare;
  EXPECT_TRUE(map["derived"]["smem_alignment"].get(bare) != simdjson::SUCCESS);
  // The embedded spec reads back as a spec.
  simdjson::dom::element spec;
  ASSERT_FALSE(map["spec"].get(spec));
  const absl::StatusOr<TensorMapSpec> s = ParseSpecJson(testing_json::Minified(spec));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->box_dim[1], 128u);
  simdjson::dom::array descs;
  ASSERT_FALSE(map["descriptors"].get_array().get(descs));
  ASSERT_EQ(descs.size(), 1u);
  ASSERT_FALSE(descs.at(0)["value_without_start"].get_string().get(desc_value));
  EXPECT_EQ(ident, "tile_a");
  EXPECT_EQ(encoder, "cuTensorMapEncodeTiled");
  EXPECT_EQ(tx, 16384u);
  EXPECT_EQ(align, 1024u);
  EXPECT_EQ(desc_value, "0x4000004000010000");
}

TEST(GeneratePtx, TableThirtyThreeEncodings) {
  // bf16 (driver 9, PTX .elemtype 10), rank 3, SWIZZLE_64B (.swizzle_mode 2), interleave none,
  // OOB NaN fill (.fill_mode 1), element strides 1, 2, 1; for sm_100a (so .swizzle_atomicity is set: 0).
  const char* spec =
      R"({"name": "b", "target": "sm_100a", "tensor_data_type": "bfloat16", "global_dim": [256, 64, 8], )"
      R"("global_strides": [512, 32768], "box_dim": [32, 16, 2], "element_strides": [1, 2, 1], "swizzle": "64B", )"
      R"("oob_fill": "nan_request_zero_fma"})";
  Input in;
  in.specs = {Spec(spec)};
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  ASSERT_TRUE(plan.valid) << RenderRejection(plan);
  const absl::StatusOr<std::string> ptx = GeneratePtx(plan, opt);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  const std::string& out = *ptx;
  const char* expected[] = {
      "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%tmap], %gaddr;",
      "tensormap.replace.tile.rank.shared::cta.b1024.b32 [%tmap], 2;",
      "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%tmap], 0, 256;",
      "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%tmap], 1, 64;",
      "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%tmap], 2, 8;",
      "tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%tmap], 0, 512;",
      "tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%tmap], 1, 32768;",
      "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%tmap], 0, 32;",
      "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%tmap], 1, 16;",
      "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%tmap], 2, 2;",
      "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%tmap], 1, 2;",
      "tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%tmap], 10;",
      "tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%tmap], 0;",
      "tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%tmap], 2;",
      "tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [%tmap], 0;",
      "tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%tmap], 1;",
  };
  for (const char* line : expected) EXPECT_TRUE(Contains(out, line)) << line << "\n---\n" << out;
  // L2 promotion has no field.
  EXPECT_FALSE(Contains(out, "tensormap.replace.tile.l2"));
}

TEST(GeneratePtx, RejectsNonTiledMaps) {
  Input in;
  in.specs = {DefaultSpec(Mode::kIm2col)};
  Options opt;
  Plan plan;
  ASSERT_TRUE(PlanInto(in, opt, &plan).ok());
  ASSERT_TRUE(plan.valid);
  const absl::StatusOr<std::string> ptx = GeneratePtx(plan, opt);
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(std::string(ptx.status().message()), "tiled maps only")) << ptx.status();
}

TEST(Requests, ParseErrors) {
  NamedDesc d;
  EXPECT_EQ(ParseNamedDesc("tile_a:wgmma:A").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseNamedDesc("tile_a:mma:A:K").ok());
  EXPECT_FALSE(ParseNamedDesc("tile_a:wgmma:C:K").ok());
  {
    auto parsed = ParseNamedDesc("#0:tcgen05:B:MN:bf16");
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) d = *parsed;
  }
  EXPECT_TRUE(d.has_type);
  const absl::Status bogus = ParseNamedIdesc("kind=f16,bogus=1").status();
  EXPECT_EQ(bogus.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(std::string(bogus.message()), "bogus")) << bogus;
  EXPECT_FALSE(ParseNamedIdesc("kind=f16,m=abc").ok());
  EXPECT_FALSE(ParseNamedIdesc("kind=f16,cta-group=3").ok());
}

// ---- the command ------------------------------------------------------------------------------------

int RunCg(const std::vector<std::string>& args, std::string* out, std::string* err) {
  out->clear();
  err->clear();
  return cli::RunCodegenCommandTo(args, out, err);
}

TEST(CodegenCommand, WritesAtomicallyAndDeterministically) {
  const std::string spec = WriteFile("tile.json", kTileA);
  const std::string dir = TempPath("outdir");
  mkdir(dir.c_str(), 0755);
  const std::string out_path = dir + "/tile.gen.h";
  std::string out, err;
  ASSERT_EQ(RunCg({spec, "--lang", "cpp", "-o", out_path}, &out, &err), 0) << err;
  EXPECT_TRUE(out.empty());
  const std::string first = ReadFile(out_path);
  ASSERT_EQ(RunCg({spec, "--lang=cpp", "--output", out_path}, &out, &err), 0) << err;
  EXPECT_EQ(ReadFile(out_path), first);
  ASSERT_EQ(RunCg({spec}, &out, &err), 0) << err;  // cpp is the default; standard output
  EXPECT_EQ(out, first);
  // No temporary file is left next to the output.
  int entries = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") ++entries;
    closedir(d);
  }
  EXPECT_EQ(entries, 1);
}

TEST(CodegenCommand, InvalidSpecExitsOneAndWritesNothing) {
  const std::string spec = WriteFile("bad.json", kInvalid);
  const std::string out_path = TempPath("never_written.h");
  unlink(out_path.c_str());
  std::string out, err;
  EXPECT_EQ(RunCg({spec, "--lang", "cpp", "-o", out_path}, &out, &err), 1);
  EXPECT_FALSE(Exists(out_path));
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(Contains(err, "box-dim-range")) << err;  // the validator's report
  EXPECT_TRUE(Contains(err, "nothing written")) << err;
  // An existing file is left untouched.
  std::ofstream(out_path) << "old";
  EXPECT_EQ(RunCg({spec, "-o", out_path}, &out, &err), 1);
  EXPECT_EQ(ReadFile(out_path), "old");
  // One invalid spec among valid ones in a JSON Lines file rejects the whole file.
  const std::string mixed = WriteFile("mixed.jsonl", std::string(kTileA) + "\n" + kInvalid + "\n");
  EXPECT_EQ(RunCg({mixed, "--lang", "json"}, &out, &err), 1);
  EXPECT_TRUE(out.empty());
}

TEST(CodegenCommand, BadUsageExitsTwoNamingTheFlag) {
  const std::string spec = WriteFile("tile2.json", kTileA);
  std::string out, err;
  EXPECT_EQ(RunCg({spec, "--lang", "rust"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "--lang")) << err;
  EXPECT_EQ(RunCg({spec, "-o"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "-o needs a value")) << err;
  EXPECT_EQ(RunCg({spec, "--frobnicate"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "--frobnicate")) << err;
  EXPECT_EQ(RunCg({spec, "--target", "sm_42"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "--target")) << err;
  EXPECT_EQ(RunCg({spec, "--desc", "nosuchmap:wgmma:A:K"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "--desc nosuchmap")) << err;
  EXPECT_EQ(RunCg({spec, "--namespace", "a::b"}, &out, &err), 2);
  EXPECT_TRUE(Contains(err, "--namespace")) << err;
  EXPECT_EQ(RunCg({}, &out, &err), 2);
  EXPECT_EQ(RunCg({TempPath("does_not_exist.json")}, &out, &err), 2);
  EXPECT_EQ(RunCg({"--help"}, &out, &err), 0);
  EXPECT_TRUE(Contains(out, "--lang"));
}

TEST(CodegenCommand, InvalidDescriptorsAreRejected) {
  const std::string spec = WriteFile("tile3.json", kTileA);
  std::string out, err;
  // N = 100 is not a multiple of 16 for M = 128 (PTX ISA Table 39).
  EXPECT_EQ(RunCg({spec, "--idesc", "kind=f16,m=128,n=100"}, &out, &err), 1);
  EXPECT_TRUE(Contains(err, "instruction descriptor")) << err;
  EXPECT_TRUE(out.empty());
  // tcgen05 descriptors on an sm_90a map: no tcgen05 on sm_90a.
  EXPECT_EQ(RunCg({spec, "--desc", "tile_a:tcgen05:A:K"}, &out, &err), 1);
  EXPECT_TRUE(out.empty());
}

TEST(CodegenCommand, ManySpecsPerFileAndTargetFlag) {
  const std::string no_target =
      R"({"name": "x", "tensor_data_type": "float16", "global_dim": [256, 256], "box_dim": [64, 64], "swizzle": "128B"})";
  const std::string file = WriteFile("many.jsonl", no_target + "\n" + kTileA + "\n");
  std::string out, err;
  ASSERT_EQ(RunCg({file, "--target", "sm_100a", "--lang", "ptx"}, &out, &err), 0) << err;
  // sm_100a: the atomicity field is written (0 for plain 128B) for map x; tile_a keeps its sm_90a.
  EXPECT_TRUE(Contains(out, "// x: tiled")) << out;
  EXPECT_TRUE(Contains(out, "// tile_a: tiled")) << out;
  // The targets each sequence assembles for (tests/codegen/ptx_targets_check.sh holds them against ptxas).
  EXPECT_TRUE(Contains(out, "assembles for: sm_100a\n")) << out;
  EXPECT_TRUE(Contains(out, "assembles for: sm_90a\n")) << out;
  const std::string line = "tensormap.replace.tile.swizzle_atomicity";
  size_t n = 0;
  for (size_t p = out.find(line); p != std::string::npos; p = out.find(line, p + 1)) ++n;
  EXPECT_EQ(n, 1u);
}

// The checked-in example header is what the codegen library makes from the checked-in spec, byte for byte
// (the GPU check `tmapgen check --codegen-example` embeds tile.json and builds its kernel with tile_a.gen.h,
// so the two must not drift). Regenerate from the source root with
//   tmapgen codegen examples/codegen/tile.json --lang cpp -o examples/codegen/tile_a.gen.h
TEST(ExampleHeader, TileAGenHIsWhatTileJsonGenerates) {
  auto read = [](const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  const std::string dir = std::string(TMAPGEN_SOURCE_DIR) + "/examples/codegen/";
  const std::string json = read(dir + "tile.json");
  const std::string header = read(dir + "tile_a.gen.h");
  ASSERT_FALSE(json.empty());
  ASSERT_FALSE(header.empty());
  Input in;
  in.specs.resize(1);
  absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(json);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  in.specs[0] = *parsed;
  Options opt;
  opt.sources = {"examples/codegen/tile.json"};
  const std::string now = GenerateCpp(in, opt);
  EXPECT_EQ(now, header) << "examples/codegen/tile_a.gen.h is stale; regenerate it (see the comment above)";
}

}  // namespace
}  // namespace tmapgen::codegen
