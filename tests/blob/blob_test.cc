// Decode and Encode beyond the corpora: every bit of any 128 bytes is accounted for, the evidence limits are
// errors that say why, cuTensorMapReplaceAddress touches only the address field (the driver's own
// answers, in the committed probe corpus), and the text forms users paste.
#include <gtest/gtest.h>

#include <random>

#include "src/blob/blob.h"
#include "src/blob/blob_text.h"
#include "src/schema/corpus_json.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen::blob {
namespace {

// A map the driver wrote (tools/tmap_corpus probe "base", tiled rank 2, on the H200): f16 [1024, 512],
// stride 2048, box [64, 32], SWIZZLE_128B, L2 128B, address 0x200000.
TensorMapSpec BaseTiled() {
  TensorMapSpec s;
  s.data_type = DataType::kFloat16;
  s.rank = 2;
  s.global_address = 0x200000;
  s.set_fields |= kFieldGlobalAddress;
  s.global_dim = {1024, 512};
  s.global_strides = {2048};
  s.box_dim = {64, 32};
  s.swizzle = Swizzle::k128B;
  s.l2_promotion = L2Promotion::k128B;
  return s;
}

TEST(BlobDecode, EveryBitOfRandomBytesIsAccountedForOnce) {
  std::mt19937_64 rng(5);
  Decoded d;
  for (int iter = 0; iter < 20000; ++iter) {
    uint64_t w[16];
    for (auto& x : w) x = rng() & (iter % 3 == 0 ? rng() : ~uint64_t{0});
    const MapBytes m = FromWords(w);
    Decode(m, &d);
    // Rebuild the map from what the decoder reports: fields + recognised + unexplained.
    MapBytes again{};
    for (const FieldValue& f : d.fields) Scatter(&again, *f.field, f.raw);
    for (const FieldValue& f : d.recognised) Scatter(&again, *f.field, f.raw);
    for (const UnexplainedBit& u : d.unexplained) again[u.bit / 8] |= static_cast<uint8_t>(1u << (u.bit % 8));
    ASSERT_EQ(again, m) << "iteration " << iter;
    if (d.spec_ok && d.unexplained.empty() && d.findings.empty()) {
      EXPECT_TRUE(d.reencodes) << iter;
    }
  }
}

// `reencodes` is computed without encoding; it must be exactly whether Encode gives the bytes back.
TEST(BlobDecode, ReencodesIsExactlyWhetherEncodeGivesTheBytesBack) {
  std::mt19937_64 rng(11);
  Decoded d;
  size_t clean = 0, dirty = 0;
  // Maps the driver wrote, with random bits flipped (0, 1 or 2 of them), and plain random maps.
  std::vector<MapBytes> base;
  testing::ForEachLine(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/shared_corpus_sample.jsonl.gz",
                       [&](const std::string& line, size_t) {
                         const absl::StatusOr<CorpusEntry> e = ParseCorpusLine(line);
                         if (e.ok() && e->has_bytes) {
                           MapBytes m;
                           std::copy(e->bytes.begin(), e->bytes.end(), m.begin());
                           base.push_back(m);
                         }
                       });
  ASSERT_EQ(base.size(), 4000u);
  for (int iter = 0; iter < 40000; ++iter) {
    MapBytes m = base[iter % base.size()];
    const int flips = iter % 3;
    for (int f = 0; f < flips; ++f) {
      const int bit = static_cast<int>(rng() % 1024);
      m[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
    Decode(m, &d);
    MapBytes e;
    const bool same = d.spec_ok && EncodeInto(d.spec, &e).ok() && e == m;
    ASSERT_EQ(d.reencodes, same) << "iteration " << iter;
    (same ? clean : dirty) += 1;
  }
  EXPECT_GT(clean, 13000u);  // at least the unflipped third
  EXPECT_GT(dirty, 10000u);
}

TEST(BlobDecode, AllZeroIsATiledRank1MapOfUint8WithFindings) {
  const Decoded d = Decode(MapBytes{});
  EXPECT_EQ(d.layout, kLayoutTiled);
  EXPECT_TRUE(d.spec_ok);
  EXPECT_EQ(d.spec.rank, 1u);
  EXPECT_EQ(d.spec.data_type, DataType::kUint8);
  // The derived swizzle repeat (16 bytes for NONE) is missing: a finding, not silence.
  bool repeat = false;
  for (const DecodeFinding& f : d.findings) repeat = repeat || f.field == "swizzle_repeat";
  EXPECT_TRUE(repeat);
  EXPECT_FALSE(d.reencodes);
}

TEST(BlobDecode, UnknownDataTypeCodeAndBitsBeyondTheRankAreReported) {
  MapBytes m;
  ASSERT_EQ(EncodeInto(BaseTiled(), &m), absl::OkStatus());
  int n = 0;
  const MapField* f = Fields(&n);
  const MapField* dt = nullptr;
  const MapField* dim3 = nullptr;
  for (int k = 0; k < n; ++k) {
    if (f[k].name == "tensor_data_type") dt = &f[k];
    if (f[k].name == "global_dim[3]") dim3 = &f[k];
  }
  ASSERT_TRUE(dt && dim3);
  Scatter(&m, *dt, 13);
  Scatter(&m, *dim3, 1);
  const Decoded d = Decode(m);
  EXPECT_FALSE(d.spec_ok);
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings[0].field, "tensor_data_type");
  ASSERT_EQ(d.unexplained.size(), 1u);
  EXPECT_EQ(d.unexplained[0].bit, 352);
  EXPECT_EQ(d.unexplained[0].other_field, "global_dim[3]");
}

TEST(BlobEncode, OutsideTheEvidenceIsAnErrorThatSaysWhy) {
  struct Case {
    const char* what;
    void (*change)(TensorMapSpec*);
    const char* expect;
  } cases[] = {
      {"sub-byte type", [](TensorMapSpec* s) { s->data_type = DataType::k16U4Align16B; }, "tensor_data_type"},
      {"atom swizzle", [](TensorMapSpec* s) { s->swizzle = Swizzle::k128BAtom32B; }, "outside the measured evidence"},
      {"Blackwell target", [](TensorMapSpec* s) { s->target = Target::kSm100a; s->set_fields |= kFieldTarget; }, "target = sm_100a"},
      {"dim 0", [](TensorMapSpec* s) { s->global_dim[1] = 0; }, "global_dim[1] = 0"},
      {"dim 2^32+1", [](TensorMapSpec* s) { s->global_dim[0] = (uint64_t{1} << 32) + 1; }, "global_dim[0]"},
      {"stride not x16", [](TensorMapSpec* s) { s->global_strides[0] = 2056; }, "global_strides[0] = 2056"},
      {"stride 2^40", [](TensorMapSpec* s) { s->global_strides[0] = uint64_t{1} << 40; }, "global_strides[0]"},
      {"box 257", [](TensorMapSpec* s) { s->box_dim[1] = 257; }, "box_dim[1] = 257"},
      {"element stride 9", [](TensorMapSpec* s) { s->element_strides[0] = 9; }, "element_strides[0] = 9"},
      {"address 2^57", [](TensorMapSpec* s) { s->global_address = uint64_t{1} << 57; }, "global_address"},
      {"rank 6", [](TensorMapSpec* s) { s->rank = 6; }, "tensor_rank = 6"},
  };
  for (const Case& c : cases) {
    TensorMapSpec s = BaseTiled();
    c.change(&s);
    const absl::StatusOr<Encoded> e = Encode(s);
    ASSERT_FALSE(e.ok()) << c.what;
    EXPECT_NE(std::string(e.status().message()).find(c.expect), std::string::npos) << c.what << ": " << e.status().message();
    // Input the layout cannot hold is wrong input (status.h: kInvalidArgument); the allocation-free form
    // answers the same status.
    EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument) << c.what;
    MapBytes m;
    EXPECT_EQ(EncodeInto(s, &m), e.status()) << c.what;
  }
  EXPECT_TRUE(Encode(BaseTiled()).ok());
}

TEST(BlobEncode, CaveatsSayWhatTheBytesRestOn) {
  TensorMapSpec s = BaseTiled();
  s.set_fields &= ~kFieldGlobalAddress;
  absl::StatusOr<Encoded> e = Encode(s);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->caveats.size(), 1u);
  EXPECT_NE(e->caveats[0].find("cuTensorMapReplaceAddress"), std::string::npos);
  s.mode = Mode::kGather4;
  e = Encode(s);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->caveats.size(), 2u);
}

// The driver's cuTensorMapReplaceAddress answers (committed probe corpus): on success exactly the
// global_address field changes, to the new address.
TEST(BlobReplaceAddress, TheDriverChangesOnlyTheAddressField) {
  int n = 0;
  const MapField* f = Fields(&n);
  size_t ok = 0, rejected = 0;
  testing::ForEachLine(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/tmap_corpus_probes_h200.jsonl.gz",
                       [&](const std::string& line, size_t no) {
                         const absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
                         ASSERT_TRUE(entry.ok()) << no << ": " << entry.status();
                         const CorpusEntry& e = *entry;
                         if (!e.is_replace) return;
                         if (e.replace_result != 0) {
                           ++rejected;
                           EXPECT_TRUE(e.replace_address % 16 != 0 || e.replace_address >= (uint64_t{1} << 57)) << no;
                           return;
                         }
                         ++ok;
                         MapBytes before, after;
                         std::copy(e.bytes_before.begin(), e.bytes_before.end(), before.begin());
                         std::copy(e.bytes.begin(), e.bytes.end(), after.begin());
                         Scatter(&before, f[0], e.replace_address);
                         EXPECT_EQ(before, after) << no;
                       });
  EXPECT_GT(ok, 500u);
  EXPECT_GT(rejected, 500u);
}

TEST(BlobText, HexWordsAndBytesGiveTheSameMap) {
  MapBytes m;
  ASSERT_EQ(EncodeInto(BaseTiled(), &m), absl::OkStatus());
  uint64_t w[16];
  ToWords(m, w);
  std::string words, bytes, spaced;
  for (int i = 0; i < 16; ++i) words += "0x" + [&] { char b[20]; std::snprintf(b, sizeof b, "%llx", (unsigned long long)w[i]); return std::string(b); }() + (i % 4 == 3 ? ",\n" : ", ");
  for (int i = 0; i < 128; ++i) { char b[8]; std::snprintf(b, sizeof b, "0x%02x ", m[i]); bytes += b; }
  const std::string hex = ToHex(m);
  for (size_t i = 0; i < hex.size(); i += 8) spaced += hex.substr(i, 8) + " ";
  for (const std::string& text : {hex, spaced, words, "{" + words + "}", bytes}) {
    const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobText(text, false);
    ASSERT_TRUE(maps.ok()) << maps.status() << "\n" << text;
    ASSERT_EQ(maps->size(), 1u);
    EXPECT_EQ((*maps)[0], m) << text;
  }
  // Two maps in one text; unprefixed 16-digit words with the flag.
  absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobText(hex + "\n" + words, false);
  ASSERT_TRUE(maps.ok()) << maps.status();
  EXPECT_EQ(maps->size(), 2u);
  std::string plain_words;
  for (int i = 0; i < 16; ++i) { char b[20]; std::snprintf(b, sizeof b, "%016llx ", (unsigned long long)w[i]); plain_words += b; }
  maps = ParseBlobText(plain_words, true);
  ASSERT_TRUE(maps.ok()) << maps.status();
  ASSERT_EQ(maps->size(), 1u);
  EXPECT_EQ((*maps)[0], m);
}

TEST(BlobText, GarbageIsAClearError) {
  // Text that is not a map is wrong input: kInvalidArgument (status.h), naming the token.
  const auto refused = [](const absl::StatusOr<std::vector<MapBytes>>& maps, const char* why) {
    EXPECT_EQ(maps.status().code(), absl::StatusCode::kInvalidArgument) << maps.status();
    EXPECT_NE(maps.status().message().find(why), absl::string_view::npos) << maps.status();
  };
  refused(ParseBlobText("hello", false), "token 1");
  refused(ParseBlobText(std::string(254, 'a'), false), "254 hex digits");
  refused(ParseBlobText("0x1 0x2 0x3", false), "a map is");
  refused(ParseBlobText("", false), "no hex digits");
  refused(ParseBlobText("0x", false), "no hex digits after the prefix");
  refused(ParseBlobBinary(std::string(100, '\0')), "multiple of 128");
  const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobBinary(std::string(256, '\0'));
  ASSERT_TRUE(maps.ok()) << maps.status();
  EXPECT_EQ(maps->size(), 2u);
}

}  // namespace
}  // namespace tmapgen::blob
