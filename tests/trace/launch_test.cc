// The launch-time checks of `tmapgen trace` (src/trace/launch.h) without a GPU: finding maps in a kernel's
// parameter buffer, the tensor's extent against an allocation, and where a map came from.
//
// Expected values: the maps are the real driver's (tests/blob/data/shared_corpus_sample.jsonl.gz, a
// sample of shared/data/driver-encodings written by driver 580.159.04 on an H200), their parameters the
// ones that driver was given; offsets follow cuda.h (CUtensorMap is declared alignas(64), 128 bytes);
// extents follow cuda.h's definition of globalStrides (the byte distance between consecutive indices of
// dimension i + 1), worked out by hand below.
#include "src/trace/launch.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/blob/blob.h"
#include "src/blob/layout.h"
#include "src/schema/corpus_json.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "tests/blob/corpus_files.h"

#ifndef TMAPGEN_SOURCE_DIR
#define TMAPGEN_SOURCE_DIR "."
#endif

namespace tmapgen::trace {
namespace {

struct DriverMap {
  uint64_t words[16];
  TensorMapSpec spec;  // the parameters the driver was given
};

// The accepted maps of the committed sample of the driver corpus.
const std::vector<DriverMap>& DriverMaps() {
  static const std::vector<DriverMap> maps = [] {
    std::vector<DriverMap> v;
    testing::ForEachLine(TMAPGEN_SOURCE_DIR "/tests/blob/data/shared_corpus_sample.jsonl.gz",
                         [&](const std::string& line, size_t) {
                           const absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
                           if (!entry.ok() || entry->is_header || entry->is_replace) return;
                           const CorpusEntry& e = *entry;
                           if (e.driver_result != 0 || !e.has_bytes || !e.representable) return;
                           DriverMap m;
                           std::memcpy(m.words, e.bytes.data(), 128);
                           m.spec = e.spec;
                           v.push_back(m);
                         });
    return v;
  }();
  return maps;
}

void ExpectSameParameters(const TensorMapSpec& got, const TensorMapSpec& want, size_t i) {
  EXPECT_EQ(got.data_type, want.data_type) << i;
  ASSERT_EQ(got.rank, want.rank) << i;
  EXPECT_EQ(got.global_address, want.global_address) << i;
  for (uint32_t d = 0; d < want.rank; ++d) {
    EXPECT_EQ(got.global_dim[d], want.global_dim[d]) << i << " dim " << d;
    if (d + 1 < want.rank) {
      EXPECT_EQ(got.global_strides[d], want.global_strides[d]) << i << " stride " << d;
    }
  }
}

// Scans a parameter buffer as the injection library does: every window of the layout, classified.
struct Found {
  MapWindow window;
  const MapInfo* info;
};
std::vector<Found> Scan(const std::vector<ParamSlot>& layout, const unsigned char* buffer, MapCache* cache) {
  std::vector<MapWindow> windows;
  FindWindows(layout.data(), layout.size(), &windows);
  std::vector<Found> found;
  for (const MapWindow& w : windows) {
    uint64_t words[16];
    std::memcpy(words, buffer + w.buffer_offset, 128);
    if (const MapInfo* m = cache->Classify(words)) found.push_back({w, m});
  }
  return found;
}

TEST(LaunchWindows, SixteenByteStepsInsideEachParameter) {
  // A kernel (int* out, CUtensorMap a, int n, Params p) with Params of 320 bytes, at offsets 0, 64, 192, 256.
  const std::vector<ParamSlot> layout = {{0, 8}, {64, 128}, {192, 4}, {256, 320}};
  std::vector<MapWindow> w;
  FindWindows(layout.data(), layout.size(), &w);
  ASSERT_EQ(w.size(), 1u + 13u);  // the map parameter: one; the struct: 0, 16, ..., 192 (192 + 128 = 320)
  EXPECT_EQ(w[0].param, 1);
  EXPECT_EQ(w[0].buffer_offset, 64u);
  EXPECT_EQ(w[0].param_offset, 0u);
  for (uint32_t i = 0; i < 13; ++i) {
    EXPECT_EQ(w[1 + i].param, 3);
    EXPECT_EQ(w[1 + i].param_offset, 16 * i);
    EXPECT_EQ(w[1 + i].buffer_offset, 256 + 16 * i);
  }
  // A parameter smaller than a map has no window; one of 184 bytes has four (0, 16, 32, 48).
  const std::vector<ParamSlot> small = {{0, 127}, {136, 184}};
  w.clear();
  FindWindows(small.data(), small.size(), &w);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].param, 1);
  EXPECT_EQ(w[3].param_offset, 48u);
  EXPECT_EQ(w[3].buffer_offset, 184u);
}

TEST(LaunchWindows, WhereDriver580PutMapsOnTheH200) {
  // What cuFuncGetParamInfo / cuKernelGetParamInfo answered on the H200 (driver 580.159.04, 2026-12-03,
  // TMAPGEN_TRACE_LAUNCH_DEBUG; docs/lab/runs/2026-12-03-trace-launch-h200-summary.md), and where the maps were.
  // struct_kernel(Params) of tests/trace/gpu/launch_proof.cu: one 384-byte parameter at 48, maps at 64, 192.
  const std::vector<ParamSlot> one_struct = {{48, 384}};
  std::vector<MapWindow> w;
  FindWindows(one_struct.data(), one_struct.size(), &w);
  ASSERT_EQ(w.size(), 17u);  // 0, 16, ..., 256 (256 + 128 = 384)
  EXPECT_EQ(w[4].param_offset, 64u);
  EXPECT_EQ(w[4].buffer_offset, 112u);
  EXPECT_EQ(w[12].param_offset, 192u);
  EXPECT_EQ(w[12].buffer_offset, 240u);
  // one_map_kernel(const __grid_constant__ CUtensorMap, int, int*): [112+128] [240+4] [248+8]; the driver
  // read a packed buffer with the map at byte 112 (the kernel ran right only with that layout).
  const std::vector<ParamSlot> one_map = {{112, 128}, {240, 4}, {248, 8}};
  w.clear();
  FindWindows(one_map.data(), one_map.size(), &w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].param, 0);
  EXPECT_EQ(w[0].param_offset, 0u);
  EXPECT_EQ(w[0].buffer_offset, 112u);
  // cuBLAS's nvjet_sm90 kernels (PyTorch's bf16 matmuls): one 1720-byte parameter at 0, a map's address
  // and first word seen at 176 (48 modulo 64, like the others): a window there.
  const std::vector<ParamSlot> nvjet = {{0, 1720}};
  w.clear();
  FindWindows(nvjet.data(), nvjet.size(), &w);
  EXPECT_EQ(w.size(), (1720u - 128u) / 16u + 1u);
  EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const MapWindow& x) { return x.param_offset == 176; }));
}

TEST(LaunchWindows, AllZeroBytesAreNotAMap) {
  // The injection library skips all-zero windows (parameter padding) without asking the cache; that is right
  // only if 128 zero bytes are not a self-consistent map, and no driver wrote them.
  const uint64_t zeros[16] = {};
  TensorMapSpec spec;
  EXPECT_FALSE(IsSelfConsistentMap(zeros, &spec));
  for (const auto& m : DriverMaps()) {
    uint64_t any = 0;
    for (uint64_t x : m.words) any |= x;
    ASSERT_NE(any, 0u);
  }
}

TEST(LaunchWindows, TheDebugVerdictSaysWhyAWindowIsOrIsNotAMap) {
  // A driver map (the H200 corpus): no never-written bit set, decodes, re-encodes. The same bytes 16 bytes on
  // (the next map's first 16 bytes zero): not a map, and the verdict says which test it failed.
  const auto& maps = DriverMaps();
  ASSERT_FALSE(maps.empty());
  const WindowVerdict v = ExplainWindow(maps[0].words);
  EXPECT_EQ(v.never_written_bits_set, 0);
  EXPECT_TRUE(v.decodes);
  EXPECT_TRUE(v.reencodes);
  uint64_t shifted[16] = {};
  std::memcpy(shifted, maps[0].words + 2, 14 * 8);
  const WindowVerdict s = ExplainWindow(shifted);
  EXPECT_TRUE(s.never_written_bits_set > 0 || !s.reencodes);
}

TEST(LaunchScan, DriverMapsInAStructAtOffsets64And192NextToPlainFields) {
  const auto& maps = DriverMaps();
  ASSERT_GE(maps.size(), 4000u);
  MapCache cache(1 << 14);
  size_t pairs = 0;
  for (size_t i = 0; i + 1 < maps.size(); i += 2) {
    // struct Params { float* out; int n; float alpha; ...; CUtensorMap a /*64*/; int k; CUtensorMap b /*192*/; }
    alignas(64) unsigned char buf[64 + 320] = {};
    unsigned char* p = buf + 64;  // the struct is parameter 1, after an 8-byte pointer parameter
    const uint64_t out_ptr = 0x7f12'3456'7800ull + i * 256;
    std::memcpy(buf, &out_ptr, 8);
    std::memcpy(p, &out_ptr, 8);
    const int32_t n = static_cast<int32_t>(i) + 1;
    const float alpha = 1.5f;
    std::memcpy(p + 8, &n, 4);
    std::memcpy(p + 12, &alpha, 4);
    std::memcpy(p + 64, maps[i].words, 128);
    std::memcpy(p + 16, &n, 4);
    std::memcpy(p + 192, maps[i + 1].words, 128);
    const std::vector<ParamSlot> layout = {{0, 8}, {64, 320}};
    const std::vector<Found> f = Scan(layout, buf, &cache);
    ASSERT_EQ(f.size(), 2u) << "pair " << i;
    EXPECT_EQ(f[0].window.param, 1);
    EXPECT_EQ(f[0].window.param_offset, 64u);
    EXPECT_EQ(f[1].window.param_offset, 192u);
    ExpectSameParameters(f[0].info->spec, maps[i].spec, i);
    ExpectSameParameters(f[1].info->spec, maps[i + 1].spec, i + 1);
    ++pairs;
  }
  EXPECT_EQ(pairs, maps.size() / 2);
}

TEST(LaunchScan, AMapSeenOnceIsALookup) {
  const auto& maps = DriverMaps();
  MapCache cache;
  const MapInfo* first = cache.Classify(maps[0].words);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(cache.judged(), 1u);
  for (int k = 0; k < 1000; ++k) EXPECT_EQ(cache.Classify(maps[0].words), first);
  EXPECT_EQ(cache.judged(), 1u);
  // Bytes that pass the first test but are no map are remembered as such too.
  uint64_t zero[16] = {};
  ASSERT_TRUE(NeverWrittenBitsClear(zero));
  EXPECT_EQ(cache.Classify(zero), nullptr);
  EXPECT_EQ(cache.Classify(zero), nullptr);
  EXPECT_EQ(cache.judged(), 2u);
}

// The cache answers exactly what the whole test answers: the driver's maps are maps with the parameters
// the driver was given; a driver map with one never-written bit set is not, and ends at the first test
// (nothing is judged, nothing cached); random bytes in the writable bits (which pass the first test and
// reach the decoder) get the same answer from both.
TEST(LaunchScan, TheCacheFindsWhatTheWholeTestFinds) {
  const auto& maps = DriverMaps();
  ASSERT_GE(maps.size(), 64u);
  const std::array<uint64_t, 16>& never = blob::NeverWrittenMask();
  MapCache cache(1 << 16);
  TensorMapSpec spec;
  for (size_t i = 0; i < 64; ++i) {
    const MapInfo* m = cache.Classify(maps[i].words);
    ASSERT_NE(m, nullptr) << i;
    ASSERT_TRUE(IsSelfConsistentMap(maps[i].words, &spec)) << i;
    ExpectSameParameters(m->spec, maps[i].spec, i);
    // One never-written bit set, a different bit for each map.
    uint64_t w[16];
    std::memcpy(w, maps[i].words, sizeof(w));
    int seen = 0;
    const int want = static_cast<int>(i) % 32;
    for (int k = 0; k < 16 && seen <= want; ++k)
      for (int b = 0; b < 64 && seen <= want; ++b)
        if ((never[k] >> b) & 1) {
          if (seen == want) w[k] |= uint64_t{1} << b;
          ++seen;
        }
    ASSERT_GT(seen, want) << "the mask has at least 32 bits (PlainAndRandomBytesAreNotMaps)";
    const uint64_t judged = cache.judged();
    const uint32_t size = cache.size();
    EXPECT_EQ(cache.Classify(w), nullptr) << i;
    EXPECT_FALSE(IsSelfConsistentMap(w, &spec)) << i;
    EXPECT_EQ(cache.judged(), judged) << i;
    EXPECT_EQ(cache.size(), size) << i;
  }
  std::mt19937_64 rng(20261204);
  int disagree = 0;
  for (int i = 0; i < 20000; ++i) {
    uint64_t w[16];
    for (int k = 0; k < 16; ++k) w[k] = rng() & ~never[k];
    if ((cache.Classify(w) != nullptr) != IsSelfConsistentMap(w, &spec)) ++disagree;
  }
  EXPECT_EQ(disagree, 0);
  EXPECT_EQ(cache.judged(), 64u + 20000u);
}

TEST(LaunchScan, AFullCacheStillAnswersRight) {
  const auto& maps = DriverMaps();
  MapCache cache(16);
  for (size_t i = 0; i < 64; ++i) {
    const MapInfo* m = cache.Classify(maps[i].words);
    ASSERT_NE(m, nullptr) << i;
    ExpectSameParameters(m->spec, maps[i].spec, i);
  }
  EXPECT_EQ(cache.size(), 16u);
  EXPECT_EQ(cache.overflow(), 48u);
}

// Plain parameter contents are not maps: zeros (padding), small integers, pointers, floats, and random
// bytes. 10^6 random windows: none passes the never-written-bits test; 2 x 10^5 windows random only in the
// bits a driver writes (so that each reaches the decoder): none decodes and re-encodes.
TEST(LaunchScan, PlainAndRandomBytesAreNotMaps) {
  TensorMapSpec spec;
  uint64_t w[16] = {};
  EXPECT_FALSE(IsSelfConsistentMap(w, &spec)) << "128 zero bytes";
  for (int k = 0; k < 16; ++k) w[k] = 0x00007f0000000000ull + 0x1000ull * k;  // 16 device pointers
  EXPECT_FALSE(IsSelfConsistentMap(w, &spec));
  for (int k = 0; k < 16; ++k) w[k] = (static_cast<uint64_t>(k) << 32) | static_cast<uint64_t>(k + 1);  // ints
  EXPECT_FALSE(IsSelfConsistentMap(w, &spec));
  for (int k = 0; k < 16; ++k) w[k] = 0x3f8000003f800000ull;  // floats 1.0
  EXPECT_FALSE(IsSelfConsistentMap(w, &spec));

  std::mt19937_64 rng(20261203);
  int passed_first = 0, found = 0;
  for (int i = 0; i < 1000000; ++i) {
    for (uint64_t& x : w) x = rng();
    if (NeverWrittenBitsClear(w)) ++passed_first;
    if (IsSelfConsistentMap(w, &spec)) ++found;
  }
  EXPECT_EQ(found, 0);
  EXPECT_EQ(passed_first, 0);
  // Harder: random bits only where a measured driver writes (the never-written bits cleared), so that
  // every window reaches the decoder.
  const std::array<uint64_t, 16>& never = blob::NeverWrittenMask();
  int never_bits = 0;
  for (uint64_t m : never) never_bits += __builtin_popcountll(m);
  EXPECT_GE(never_bits, 32) << "the first test rests on these bits";
  RecordProperty("never_written_bits", never_bits);
  found = 0;
  for (int i = 0; i < 200000; ++i) {
    for (int k = 0; k < 16; ++k) w[k] = rng() & ~never[k];
    if (IsSelfConsistentMap(w, &spec)) ++found;
  }
  EXPECT_EQ(found, 0) << "random writable bits decoded and re-encoded as a map";
}

TEST(LaunchScan, AHandModifiedMapIsFoundAndHasNoTracedOrigin) {
  const auto& maps = DriverMaps();
  MapOrigins origins;
  int modified = 0;
  for (size_t i = 0; i < 200; ++i) {
    origins.Remember(maps[i].words, static_cast<uint32_t>(i), CallKind::kEncodeTiled, 77);
    // One field changed by hand: L2 promotion (no derived field depends on it), to another value.
    blob::MapWords mw;
    std::memcpy(mw.data(), maps[i].words, 128);
    int n = 0;
    const blob::MapField* f = blob::Fields(&n);
    const blob::MapField* l2 = nullptr;
    for (int k = 0; k < n; ++k)
      if (f[k].ref == blob::Ref::kL2Promotion) l2 = &f[k];
    ASSERT_NE(l2, nullptr);
    const uint64_t old = blob::GatherWords(mw, *l2);
    blob::ScatterWords(&mw, *l2, (old + 1) % 4);
    uint64_t w[16];
    std::memcpy(w, mw.data(), 128);
    TensorMapSpec spec;
    ASSERT_TRUE(IsSelfConsistentMap(w, &spec)) << i;  // still a map: found at a launch
    EXPECT_EQ(static_cast<uint64_t>(spec.l2_promotion), (old + 1) % 4);
    EXPECT_EQ(origins.Find(w).kind, OriginKind::kUnknown) << i;
    EXPECT_EQ(origins.Find(maps[i].words).kind, OriginKind::kTracedCall);
    EXPECT_EQ(origins.Find(maps[i].words).seq, i);
    ++modified;
  }
  EXPECT_EQ(modified, 200);
}

// A map built on the device: the driver's map with its derived fields zeroed (tensormap.replace never
// writes them: docs/tensormap-layout.md). Not a map for the parameter scan (it does not re-encode), a map
// for the device-memory scan; zeros and random bytes are neither.
TEST(LaunchScan, DeviceBuiltMapsKeepZeroDerivedFields) {
  const auto& maps = DriverMaps();
  int n = 0;
  const blob::MapField* f = blob::Fields(&n);
  int accepted = 0, tried = 0;
  for (size_t i = 0; i < 500; ++i) {
    blob::MapWords mw;
    std::memcpy(mw.data(), maps[i].words, 128);
    bool changed = false;
    for (int k = 0; k < n; ++k) {
      if (f[k].ref != blob::Ref::kBoxBytes && f[k].ref != blob::Ref::kSwizzleRepeat) continue;
      if (blob::GatherWords(mw, f[k]) != 0) changed = true;
      blob::ScatterWords(&mw, f[k], 0);
    }
    if (!changed || maps[i].spec.global_address % 16 != 0 || maps[i].spec.global_address == 0) continue;
    ++tried;
    uint64_t w[16];
    std::memcpy(w, mw.data(), 128);
    TensorMapSpec spec;
    EXPECT_FALSE(IsSelfConsistentMap(w, &spec)) << i;
    if (IsDeviceBuiltMap(w, &spec)) {
      ++accepted;
      ExpectSameParameters(spec, maps[i].spec, i);
    }
  }
  EXPECT_GT(tried, 100);
  EXPECT_EQ(accepted, tried);
  uint64_t zero[16] = {};
  TensorMapSpec spec;
  EXPECT_FALSE(IsDeviceBuiltMap(zero, &spec));
  std::mt19937_64 rng(7);
  int found = 0;
  for (int i = 0; i < 100000; ++i) {
    uint64_t w[16];
    for (uint64_t& x : w) x = rng();
    found += IsDeviceBuiltMap(w, &spec);
  }
  EXPECT_EQ(found, 0);
}

TEST(LaunchOrigins, AnAddressChangedWithoutTheDriverIsNamedWithItsSource) {
  const auto& maps = DriverMaps();
  MapOrigins origins;
  origins.Remember(maps[3].words, 41, CallKind::kEncodeTiled, 9);
  TensorMapSpec s = maps[3].spec;
  const uint64_t old_address = s.global_address;
  s.global_address += 0x100000;
  blob::MapBytes b;
  ASSERT_EQ(blob::EncodeInto(s, &b), absl::OkStatus());
  uint64_t w[16];
  std::memcpy(w, b.data(), 128);
  const Origin o = origins.Find(w);
  EXPECT_EQ(o.kind, OriginKind::kAddressReplaced);
  EXPECT_EQ(o.seq, 41u);
  EXPECT_EQ(o.buffer_id, 9u);
  EXPECT_EQ(o.address, old_address);
}

TEST(LaunchMemory, ExtentFromDimsAndStrides) {
  TensorMapSpec s;
  s.data_type = DataType::kBfloat16;
  s.rank = 2;
  s.global_address = 0x7f0000000000;
  s.global_dim = {4096, 4096, 1, 1, 1};
  s.global_strides = {8192, 0, 0, 0};
  absl::StatusOr<Extent> e = TensorExtent(s);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->lo, 0x7f0000000000u);
  EXPECT_EQ(e->hi - e->lo, 4096u * 8192u);  // 4096 x 2 bytes + 4095 x 8192 bytes
  // A padded row pitch: the last row ends after its own elements, not after the pitch.
  s.global_dim = {100, 3, 1, 1, 1};
  s.global_strides = {256, 0, 0, 0};
  e = TensorExtent(s);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->hi - e->lo, 2u * 256 + 200);
  // 1 GiB of f16: 32768 x 16384 with a 65536-byte row pitch.
  s.data_type = DataType::kFloat16;
  s.global_dim = {32768, 16384, 1, 1, 1};
  s.global_strides = {65536, 0, 0, 0};
  e = TensorExtent(s);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->hi - e->lo, uint64_t{1} << 30);
  // 4-bit elements: 33 of them take 17 bytes.
  s.data_type = DataType::k16U4Align8B;
  s.rank = 1;
  s.global_dim = {33, 1, 1, 1, 1};
  e = TensorExtent(s);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->hi - e->lo, 17u);
  // Rank 5 past the address space.
  s.data_type = DataType::kUint8;
  s.rank = 3;
  s.global_address = uint64_t{1} << 63;
  s.global_dim = {16, 1u << 31, 1u << 31, 1, 1};
  s.global_strides = {uint64_t{1} << 36, uint64_t{1} << 38, 0, 0};
  e = TensorExtent(s);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(e.status().message().find("64-bit"), absl::string_view::npos);
  // A rank outside 1..5 has no extent (cuda.h, cuTensorMapEncodeTiled: tensorRank is non-zero and at most
  // the maximum supported dimensionality of 5).
  s.rank = 6;
  EXPECT_EQ(TensorExtent(s).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(LaunchMemory, EachProblem) {
  const Extent gib{0x7f0000000000, 0x7f0000000000 + (uint64_t{1} << 30)};
  Allocation half{true, 0x7f0000000000, uint64_t{1} << 29, 0, 5};
  EXPECT_EQ(CheckMemory(gib, half, 0, 0), MemoryProblem::kTooSmall);
  Allocation whole{true, 0x7f0000000000, uint64_t{1} << 30, 0, 5};
  EXPECT_EQ(CheckMemory(gib, whole, 0, 0), MemoryProblem::kNone);
  EXPECT_EQ(CheckMemory(gib, whole, 0, 5), MemoryProblem::kNone);
  EXPECT_EQ(CheckMemory(gib, whole, 1, 5), MemoryProblem::kWrongDevice);
  EXPECT_EQ(CheckMemory(gib, whole, -1, 5), MemoryProblem::kNone);
  EXPECT_EQ(CheckMemory(gib, whole, 0, 4), MemoryProblem::kReallocated);
  EXPECT_EQ(CheckMemory(gib, Allocation{}, 0, 0), MemoryProblem::kNoAllocation);
  // An allocation that does not hold the first byte.
  Allocation before{true, 0x7e0000000000, 4096, 0, 6};
  EXPECT_EQ(CheckMemory(gib, before, 0, 0), MemoryProblem::kNoAllocation);
  // Inside a larger allocation (a caching allocator's segment) at an offset.
  Allocation segment{true, 0x7effff000000, uint64_t{2} << 30, 0, 7};
  EXPECT_EQ(CheckMemory(gib, segment, 0, 7), MemoryProblem::kNone);
}

LaunchRecord SampleRecord(const DriverMap& m) {
  LaunchRecord r;
  r.call = LaunchCall::kLaunchKernelEx;
  r.problem = MemoryProblem::kTooSmall;
  r.origin = OriginKind::kUnknown;
  r.param = 1;
  r.buffer_offset = 192;
  r.launch_device = 0;
  r.alloc_device = 0;
  r.pid = 4242;
  r.tid = 4243;
  r.flags = kLaunchHasAllocation | kLaunchHasTarget;
  r.target = static_cast<uint8_t>(Target::kSm90a);
  r.driver_version = 13000;
  std::memcpy(r.words, m.words, 128);
  // Some corpus maps' tensors would run past 2^64 (TensorExtent refuses them): their records carry 0..0.
  const Extent e = TensorExtent(m.spec).value_or(Extent());
  r.extent_lo = e.lo;
  r.extent_hi = e.hi;
  r.alloc_base = e.lo;
  r.alloc_size = (e.hi - e.lo) / 2;
  CopyTail("matmul_kernel", r.kernel, kKernelNameMax);
  return r;
}

TEST(LaunchRecords, ReplayAsTheDecodedSpecAndNameTheLaunch) {
  const auto& maps = DriverMaps();
  size_t checked = 0;
  for (size_t i = 0; i < 200; ++i) {
    if (maps[i].spec.mode != Mode::kTiled) continue;
    const LaunchRecord r = SampleRecord(maps[i]);
    std::string line;
    AppendLaunchRecordJson(r, &line);
    const absl::StatusOr<TensorMapSpec> back = ParseSpecJson(line);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << line;
    ExpectSameParameters(*back, maps[i].spec, i);
    EXPECT_EQ(back->target, Target::kSm90a);
    EXPECT_NE(line.find("\"kernel\":\"matmul_kernel\""), std::string::npos);
    EXPECT_NE(line.find("\"param\":1,\"param_offset\":192"), std::string::npos) << line;
    EXPECT_NE(line.find("\"memory\":\"too-small\""), std::string::npos);
    EXPECT_NE(line.find("\"origin\":\"unknown\""), std::string::npos);
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

TEST(LaunchRecords, TheExplanationNamesKernelParameterExtentAndAllocation) {
  const LaunchRecord r = SampleRecord(DriverMaps()[0]);
  const std::string t = ExplainLaunch(r);
  EXPECT_NE(t.find("runs past the end of its allocation"), std::string::npos) << t;
  EXPECT_NE(t.find("kernel matmul_kernel, cuLaunchKernelEx, parameter 1 at offset 192"), std::string::npos) << t;
  EXPECT_NE(t.find(StrCat("tensor extent [", Hex(r.extent_lo), ", ", Hex(r.extent_hi), ")")), std::string::npos) << t;
  EXPECT_NE(t.find(StrCat("allocation [", Hex(r.alloc_base), ", ", Hex(r.alloc_base + r.alloc_size), ")")), std::string::npos) << t;
  EXPECT_NE(t.find("origin: no traced cuTensorMapEncode*"), std::string::npos) << t;
  EXPECT_TRUE(IsProblem(r));
}

TEST(LaunchRecords, FramesRoundTripAndTornFramesAreSkipped) {
  std::string bytes;
  for (size_t i = 0; i < 3; ++i) {
    LaunchRecord r = SampleRecord(DriverMaps()[i]);
    r.seq = static_cast<uint32_t>(i);
    char buf[kLaunchFrameSize];
    MakeLaunchFrame(r, buf);
    bytes.append(buf, kLaunchFrameSize);
  }
  bytes[kLaunchFrameSize + 40] ^= 1;           // the second frame corrupt
  bytes.append(bytes.substr(0, 100));          // a torn tail
  std::vector<LaunchRecord> out;
  const size_t skipped = ParseLaunchFrames(bytes, &out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].seq, 0u);
  EXPECT_EQ(out[1].seq, 2u);
  EXPECT_EQ(skipped, kLaunchFrameSize + 100);
}

TEST(LaunchRecords, KernelCountsFile) {
  std::string bytes(KernelsFileSize(4), '\0');
  auto* h = reinterpret_cast<KernelsHeader*>(bytes.data());
  std::memcpy(h->magic, kKernelsMagic, sizeof(kKernelsMagic));
  h->capacity = 4;
  h->used = 2;
  h->launches = 10;
  h->scanned = 7;
  auto* k = reinterpret_cast<KernelCounts*>(bytes.data() + sizeof(KernelsHeader));
  k[0].function = 0x1234;
  k[0].launches = 7;
  k[0].maps = 14;
  k[0].problems = 2;
  CopyTail("gemm", k[0].name, kKernelNameMax);
  k[1].function = 0x5678;
  k[1].launches = 1;
  CopyTail("copy", k[1].name, kKernelNameMax);
  const absl::StatusOr<LaunchTotals> parsed = ParseKernels(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const LaunchTotals& t = *parsed;
  EXPECT_EQ(t.launches, 10u);
  EXPECT_EQ(t.scanned, 7u);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].name, "gemm");
  EXPECT_EQ(t.kernels[0].maps, 14u);
  EXPECT_EQ(t.kernels[0].problems, 2u);
  // Cut short: data lost; another file's bytes: not a kernel-count file (status.h's codes).
  EXPECT_EQ(ParseKernels(bytes.substr(0, 40)).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ParseKernels(bytes.substr(0, bytes.size() - 1)).status().code(), absl::StatusCode::kDataLoss);
  bytes[0] = 'X';
  EXPECT_EQ(ParseKernels(bytes).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tmapgen::trace
