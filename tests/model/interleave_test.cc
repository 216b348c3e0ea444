// interleave_test.cc: interleaved tensor maps (INTERLEAVE_16B / INTERLEAVE_32B) against what an H200 did.
//
// tests/model/data/interleave_h200.txt holds every case of tests/model/gpu/interleave_probe.cu as run on an
// H200 (driver 580.159.04): the map, the instruction and the bytes the hardware produced. Expected bytes come
// from the hardware, not from the model:
// - loads: the shared-memory image as runs of 16-byte units: "gOFF" = the 16 bytes of the global tensor at
//   byte OFF (xN: N units with OFF stepping by 16), "z" = zero fill, "u" = not written; "tx" = the mbarrier
//   transaction count (the probe's second launch completed with exactly this count);
// - stores: "G<S" = the 16 global bytes at G hold the 16 shared-memory bytes at S (xN: both step by 16), every
//   other global byte unchanged;
// - "trap": the copy raised a CUDA error (misaligned shared-memory address or illegal instruction);
// - "encode_fails": cuTensorMapEncodeTiled refused the map.
// Global data: 4-byte word k holds (k + 1) in 7-bit groups; stores read shared memory holding k + 1 + 0x100000.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/tmap/derived_facts.h"
#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"
#include "tests/model/model_test_util.h"

namespace tmapgen::model {
namespace {

uint8_t TagByte(uint32_t v, int j) { return static_cast<uint8_t>((v >> (7 * j)) & 0x7F); }
uint8_t GlobalTag(uint64_t b) { return TagByte(static_cast<uint32_t>(b / 4 + 1), static_cast<int>(b % 4)); }
uint8_t SmemTag(uint64_t b) { return TagByte(static_cast<uint32_t>(b / 4 + 1 + 0x100000), static_cast<int>(b % 4)); }

struct Record {
  int id = 0;
  bool store = false;
  TensorMapSpec spec;
  CopyInstruction in;
  std::string outcome;  // load, store, trap, encode_fails
  uint64_t tx = 0, gsize = 0;
  std::vector<std::string> runs;
};

std::vector<Record> ReadRecords() {
  std::vector<Record> out;
  std::ifstream f(std::string(TMAPGEN_SOURCE_DIR) + "/tests/model/data/interleave_h200.txt");
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    Record r;
    std::string k;
    int store, il, sw, dt, rank;
    uint64_t dims[5], strides[4];
    uint32_t box[5], es[5], dst;
    int coords[5];
    is >> r.id >> k >> store >> k >> il >> k >> sw >> k >> dt >> k >> rank >> k;
    for (auto& v : dims) is >> v;
    is >> k;
    for (auto& v : strides) is >> v;
    is >> k;
    for (auto& v : box) is >> v;
    is >> k;
    for (auto& v : es) is >> v;
    is >> k;
    for (auto& v : coords) is >> v;
    is >> k >> dst >> k;
    if (!is) continue;
    r.store = store != 0;
    TensorMapSpec& s = r.spec;
    s.mode = Mode::kTiled;
    s.data_type = static_cast<DataType>(dt);
    s.rank = static_cast<uint32_t>(rank);
    s.interleave = static_cast<Interleave>(il);
    s.swizzle = static_cast<Swizzle>(sw);
    for (int d = 0; d < 5; ++d) {
      s.global_dim[d] = dims[d];
      s.box_dim[d] = box[d];
      s.element_strides[d] = es[d];
      r.in.coords[d] = coords[d];
    }
    for (int d = 0; d < 4; ++d) s.global_strides[d] = strides[d];
    r.in.mode = CopyMode::kTile;
    r.in.direction = r.store ? Direction::kStore : Direction::kLoadCta;
    r.in.smem_address = 0x10000 + dst;  // the probe's destination: dst bytes past a 1024-byte boundary
    if (k == "tx") {
      r.outcome = "load";
      is >> r.tx >> k;
    } else if (k == "gsize") {
      r.outcome = "store";
      is >> r.gsize >> k;
    } else {
      r.outcome = k;
    }
    std::string run;
    while (is >> run) r.runs.push_back(run);
    out.push_back(r);
  }
  return out;
}

// "g384x8" -> kind 'g', value 384, count 8; "z", "ux3"; "5952<16x2" -> value 5952, value2 16, count 2.
void ParseRun(const std::string& t, char* kind, uint64_t* v, uint64_t* v2, uint64_t* n) {
  size_t p = 0;
  *kind = 's';
  if (t[0] == 'g' || t[0] == 'z' || t[0] == 'u') *kind = t[p++];
  *v = *v2 = 0;
  *n = 1;
  while (p < t.size() && isdigit(static_cast<unsigned char>(t[p]))) *v = *v * 10 + static_cast<uint64_t>(t[p++] - '0');
  if (p < t.size() && t[p] == '<') {
    ++p;
    while (p < t.size() && isdigit(static_cast<unsigned char>(t[p]))) *v2 = *v2 * 10 + static_cast<uint64_t>(t[p++] - '0');
  }
  if (p < t.size() && t[p] == 'x') *n = std::stoull(t.substr(p + 1));
}

uint64_t ProbeGlobalBytes(const TensorMapSpec& s) {
  return s.global_strides[s.rank - 2] * s.global_dim[s.rank - 1] + 4096;
}

std::string Describe(const Record& r) {
  std::ostringstream os;
  os << "case " << r.id << (r.store ? " store" : " load") << " " << FullName(r.spec.interleave) << " "
     << FullName(r.spec.swizzle) << " type " << static_cast<int>(r.spec.data_type) << " rank " << r.spec.rank;
  return os.str();
}

// Loads: the model's image must equal the hardware's byte for byte (untouched where the hardware left the
// sentinel), and its transaction count the hardware's.
::testing::AssertionResult CheckLoad(const Record& r) {
  std::vector<uint8_t> g(ProbeGlobalBytes(r.spec));
  for (uint64_t b = 0; b < g.size(); ++b) g[b] = GlobalTag(b);
  std::vector<uint8_t> exp, exp_written;
  for (const std::string& t : r.runs) {
    char kind;
    uint64_t v, v2, n;
    ParseRun(t, &kind, &v, &v2, &n);
    for (uint64_t u = 0; u < n; ++u)
      for (int b = 0; b < 16; ++b) {
        exp.push_back(kind == 'g' ? GlobalTag(v + 16 * u + b) : 0);
        exp_written.push_back(kind != 'u');
      }
  }
  SmemImage img;
  if (const absl::Status st = ModelLoad(r.spec, r.in, g.data(), g.size(), &img); !st.ok())
    return ::testing::AssertionFailure() << Describe(r) << ": " << st;
  if (img.transaction_bytes != r.tx)
    return ::testing::AssertionFailure() << Describe(r) << ": transaction bytes " << img.transaction_bytes << ", hardware " << r.tx;
  const uint64_t facts_tx = ComputeDerivedFacts(r.spec).transaction_bytes;  // what reports and codegen use
  if (facts_tx != r.tx)
    return ::testing::AssertionFailure() << Describe(r) << ": derived-facts transaction bytes " << facts_tx << ", hardware " << r.tx;
  const size_t n = std::max(exp.size(), img.bytes.size());
  for (size_t i = 0; i < n; ++i) {
    const bool hw_written = i < exp.size() && exp_written[i];
    const bool model_written = i < img.state.size() && img.state[i] != kUntouched;
    if (hw_written != model_written || (hw_written && exp[i] != img.bytes[i]))
      return ::testing::AssertionFailure() << Describe(r) << ": byte " << i << ": hardware "
                                           << (hw_written ? std::to_string(exp[i]) : "untouched") << ", model "
                                           << (model_written ? std::to_string(img.bytes[i]) : "untouched");
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckStore(const Record& r) {
  std::vector<uint8_t> smem(200 * 1024);
  for (uint64_t b = 0; b < smem.size(); ++b) smem[b] = SmemTag(b);
  std::vector<uint8_t> exp(r.gsize, 0xA5), got(r.gsize, 0xA5);
  for (const std::string& t : r.runs) {
    char kind;
    uint64_t gv, sv, n;
    ParseRun(t, &kind, &gv, &sv, &n);
    for (uint64_t b = 0; b < 16 * n; ++b) exp[gv + b] = SmemTag(sv + b);
  }
  StoreResult res;
  if (const absl::Status st = ModelStore(r.spec, r.in, smem.data(), smem.size(), got.data(), got.size(), nullptr, &res);
      !st.ok())
    return ::testing::AssertionFailure() << Describe(r) << ": " << st;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != exp[i])
      return ::testing::AssertionFailure() << Describe(r) << ": global byte " << i << ": hardware " << int(exp[i]) << ", model "
                                           << int(got[i]);
  return ::testing::AssertionSuccess();
}

TEST(InterleaveHardware, EveryRecordedLoadAndStoreIsByteExact) {
  const std::vector<Record> recs = ReadRecords();
  ASSERT_GT(recs.size(), 2000u);
  int loads = 0, stores = 0, refused = 0;
  for (const Record& r : recs) {
    if (r.outcome != "load" && r.outcome != "store") continue;
    if (const absl::StatusOr<CopyLayout> L = DescribeCopy(r.spec, r.in); !L.ok()) {
      const std::string err(L.status().message());
      // The documented driver rule INTERLEAVE_32B => SWIZZLE_32B: the validator (and so the model) refuses
      // other swizzles with 32B interleave even where this driver encoded them.
      // The documented rule INTERLEAVE_32B => SWIZZLE_32B (validator rule interleave-32b-swizzle): driver
      // 580.159.04 encoded such maps with other swizzles too, but the model keeps to the documented rule.
      EXPECT_TRUE(r.spec.interleave == Interleave::k32B && r.spec.swizzle != Swizzle::k32B) << Describe(r) << ": " << err;
      EXPECT_NE(err.find("interleave-32b-swizzle"), std::string::npos) << Describe(r) << ": " << err;
      ++refused;
      continue;
    }
    if (r.outcome == "load") {
      EXPECT_TRUE(CheckLoad(r));
      ++loads;
    } else {
      EXPECT_TRUE(CheckStore(r));
      ++stores;
    }
  }
  EXPECT_EQ(loads, 1449);
  EXPECT_EQ(stores, 290);
  EXPECT_EQ(refused, 36);
  std::printf("interleave replay: %d loads and %d stores byte-exact, %d refused by the validator\n", loads, stores, refused);
}

// Every copy that trapped on the H200 is refused by the model.
TEST(InterleaveHardware, CopiesThatTrappedAreRefused) {
  int traps = 0;
  for (const Record& r : ReadRecords()) {
    if (r.outcome != "trap") continue;
    ++traps;
    EXPECT_FALSE(DescribeCopy(r.spec, r.in).ok()) << Describe(r);
  }
  EXPECT_GT(traps, 100);
}

}  // namespace
}  // namespace tmapgen::model

namespace tmapgen::model {
namespace {
// The validator refuses every map cuTensorMapEncodeTiled refused in the probe run.
TEST(InterleaveHardware, ValidatorRefusesWhatTheDriverRefused) {
  int n = 0, accepted = 0;
  for (const Record& r : ReadRecords()) {
    if (r.outcome != "encode_fails") continue;
    ++n;
    TensorMapSpec v = r.spec;
    Validation val;
    Validate(v, &val);
    if (val.valid) {
      ++accepted;
      std::printf("validator accepts, driver refused: %s dims %llu box %u %u %u es %u strides %llu\n", Describe(r).c_str(),
                  (unsigned long long)v.global_dim[0], v.box_dim[0], v.box_dim[1], v.box_dim[2], v.element_strides[0],
                  (unsigned long long)v.global_strides[0]);
    }
  }
  EXPECT_EQ(n, 830);
  EXPECT_EQ(accepted, 0);
}
}  // namespace
}  // namespace tmapgen::model

// Hand-written cases: the PTX ISA 5.5.6 layouts (NC/8HWC8: 8 channels of 2 bytes in a 16-byte slice;
// NC/16HWC16: 16 channels of 4 bytes... in a 32-byte slice), described as the H200 reads them: dimension 0
// counts slices (one slice per W position), then H, C/8 (or C/16), N.
namespace tmapgen::model {
namespace {

using testing::Instr;

std::vector<uint8_t> Pattern(size_t n) {
  std::vector<uint8_t> g(n);
  for (size_t i = 0; i < n; ++i) g[i] = static_cast<uint8_t>(i % 251 + 1);
  return g;
}

TensorMapSpec Interleaved(DataType t, Interleave il, Swizzle sw, std::vector<uint64_t> dims, std::vector<uint64_t> strides,
                          std::vector<uint32_t> box) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = t;
  s.interleave = il;
  s.swizzle = sw;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    s.global_dim[i] = dims[i];
    s.box_dim[i] = box[i];
  }
  for (size_t i = 0; i < strides.size(); ++i) s.global_strides[i] = strides[i];
  return s;
}

// NC/8HWC8, f16, N = 1, C = 12 (two slices; the second holds 4 channels and 4 zero channels, PTX: "the last
// slice must be zero padded"), H = 3, W = 8. Rank 4 {W, H, C/8, N}: a box of 8 x 3 pixels of C8 slice 1.
// (The driver still checks box_dim[0] x element size against 16 bytes, so an f16 box is 8, 16, ... slices.)
TEST(InterleaveHandWritten, Nc8hwc8SliceOfOneChannelGroup) {
  const uint64_t W = 8, H = 3;
  std::vector<uint8_t> g = Pattern(2 * H * W * 16);
  for (uint64_t p = 0; p < H * W; ++p) std::memset(&g[(H * W + p) * 16 + 8], 0, 8);  // channels 12..15: zero padding
  TensorMapSpec s = Interleaved(DataType::kFloat16, Interleave::k16B, Swizzle::kNone, {W, H, 2, 1}, {W * 16, H * W * 16, 2 * H * W * 16},
                                {8, 3, 1, 1});
  SmemImage img;
  const absl::Status st = ModelLoad(s, Instr(CopyMode::kTile, {0, 0, 1, 0}), g.data(), g.size(), &img);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(img.transaction_bytes, 24u * 16);
  ASSERT_GE(img.bytes.size(), 24u * 16);
  for (uint64_t h = 0; h < H; ++h)
    for (uint64_t w = 0; w < W; ++w)
      for (int b = 0; b < 16; ++b) {
        const size_t at = static_cast<size_t>((h * W + w) * 16 + b);
        EXPECT_EQ(img.bytes[at], g[(H * W + h * W + w) * 16 + b]) << "h " << h << " w " << w << " byte " << b;
        EXPECT_EQ(img.state[at], kData);
      }
}

// Pixels past the end of W are zero-filled a whole slice at a time.
TEST(InterleaveHandWritten, SlicesPastTheEndAreZero) {
  std::vector<uint8_t> g = Pattern(4096);
  TensorMapSpec s = Interleaved(DataType::kFloat16, Interleave::k16B, Swizzle::kNone, {10, 3, 2, 1}, {160, 480, 960}, {8, 1, 1, 1});
  SmemImage img;
  const absl::Status st = ModelLoad(s, Instr(CopyMode::kTile, {6, 1, 0, 0}), g.data(), g.size(), &img);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(img.transaction_bytes, 128u);
  for (int k = 0; k < 8; ++k)
    for (int b = 0; b < 16; ++b) {
      if (k < 4) {  // w = 6 .. 9
        EXPECT_EQ(img.bytes[k * 16 + b], g[160 + (6 + k) * 16 + b]);
        EXPECT_EQ(img.state[k * 16 + b], kData);
      } else {  // w = 10 .. 13: outside
        EXPECT_EQ(img.bytes[k * 16 + b], 0);
        EXPECT_EQ(img.state[k * 16 + b], kFill);
      }
    }
}

// NC/16HWC16, f32, with the SWIZZLE_32B it requires: a row of 8 slices of 32 bytes; in the second 128-byte
// line the two 16-byte halves of every slice trade places (the 32B swizzle of the absolute address).
TEST(InterleaveHandWritten, Nc16hwc16With32ByteSwizzle) {
  std::vector<uint8_t> g = Pattern(8 * 32 * 4);
  TensorMapSpec s = Interleaved(DataType::kFloat32, Interleave::k32B, Swizzle::k32B, {8, 2, 2}, {256, 512}, {8, 1, 1});
  SmemImage img;
  const absl::Status st = ModelLoad(s, Instr(CopyMode::kTile, {0, 1, 0}, 1024), g.data(), g.size(), &img);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(img.transaction_bytes, 256u);
  for (int k = 0; k < 8; ++k)
    for (int b = 0; b < 32; ++b) {
      const int at = k * 32 + (k >= 4 ? (b ^ 16) : b);
      EXPECT_EQ(img.bytes[at], g[256 + k * 32 + b]) << "slice " << k << " byte " << b;
    }
}

// The measured rule: along dimension rank-2 one position is copied whatever box_dim says (rank 3: H is 1).
TEST(InterleaveHandWritten, BoxOfDimensionRankMinus2IsOne) {
  for (uint32_t rank = 3; rank <= 5; ++rank) {
    std::vector<uint64_t> dims(rank, 4), strides;
    std::vector<uint32_t> box(rank, 2);
    uint64_t st = 4 * 16;
    for (uint32_t d = 1; d < rank; ++d, st *= 4) strides.push_back(st);
    TensorMapSpec s = Interleaved(DataType::kUint64, Interleave::k16B, Swizzle::kNone, dims, strides, box);
    const absl::StatusOr<CopyLayout> L = DescribeCopy(s, Instr(CopyMode::kTile, {0, 0, 0, 0, 0}));
    ASSERT_TRUE(L.ok()) << L.status();
    EXPECT_EQ(L->box_counts[rank - 2], 1u) << rank;
    EXPECT_EQ(L->transaction_bytes, (1ull << (rank - 1)) * 16) << rank;  // 2 slices x 2 per other dimension
  }
}

// What was not measured stays refused, with the reason.
TEST(InterleaveHandWritten, UnmeasuredUsesAreRefused) {
  std::vector<uint8_t> g = Pattern(4096);
  TensorMapSpec s = Interleaved(DataType::kFloat16, Interleave::k16B, Swizzle::kNone, {8, 3, 2, 1}, {128, 384, 768}, {8, 3, 1, 1});
  SmemImage img;
  // What the hardware was not measured doing is not modelled: kUnimplemented (status.h), with the reason.
  const auto not_modelled = [](const absl::Status& st, const char* why) {
    EXPECT_EQ(st.code(), absl::StatusCode::kUnimplemented) << st;
    EXPECT_NE(st.message().find(why), absl::string_view::npos) << st;
  };
  TensorMapSpec nan = s;
  nan.oob_fill = OobFill::kNanRequestZeroFma;
  not_modelled(ModelLoad(nan, Instr(CopyMode::kTile, {0, 0, 0, 0}), g.data(), g.size(), &img), "OOB-NaN");
  CopyInstruction red = Instr(CopyMode::kTile, {0, 0, 0, 0});
  red.direction = Direction::kReduce;
  not_modelled(DescribeCopy(s, red).status(), "reductions");
  TensorMapSpec t = s;
  t.data_type = DataType::kTfloat32;
  not_modelled(DescribeCopy(t, Instr(CopyMode::kTile, {0, 0, 0, 0})).status(), "tf32");
  TensorMapSpec im = testing::Im2col(DataType::kFloat16, {8, 6, 5, 2}, {0, 0}, {0, 0}, 8, 8);
  im.interleave = Interleave::k16B;
  not_modelled(DescribeCopy(im, Instr(CopyMode::kIm2col, {0, 0, 0, 0})).status(), "interleave");
  // Copies that trapped on the H200: a destination not 128-byte aligned, a store starting left of the tensor.
  EXPECT_EQ(DescribeCopy(s, Instr(CopyMode::kTile, {0, 0, 0, 0}, 16)).status().code(), absl::StatusCode::kInvalidArgument);
  CopyInstruction st = Instr(CopyMode::kTile, {-1, 0, 0, 0});
  st.direction = Direction::kStore;
  EXPECT_EQ(DescribeCopy(s, st).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tmapgen::model
