// What src/blob adds to a trace, on maps the real driver wrote for real programs: the records of the H200
// runs (docs/lab/hardware-history.md, "tmapgen trace on real programs"): Triton's host descriptors, JAX's (XLA),
// reject.cc's im2col and im2col::w, the codegen example. The bytes in them are the driver's; the expected
// result is that tmapgen's offline encoder reproduces them, and that a map passed to
// cuTensorMapReplaceAddress decodes to the parameters of the encode it came from.
#include "src/trace/offline.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "src/schema/spec_json.h"
#include "src/trace/call_spec.h"
#include "src/trace/record_json.h"

#ifndef TMAPGEN_SOURCE_DIR
#define TMAPGEN_SOURCE_DIR "."
#endif

namespace tmapgen::trace {
namespace {

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> v;
  for (std::string l; std::getline(f, l);)
    if (!l.empty()) v.push_back(l);
  return v;
}

// The 256 hex digits of member `key`, as 16 little-endian words.
bool Words(const std::string& line, const std::string& key, uint64_t (&w)[16]) {
  const size_t p = line.find("\"" + key + "\":\"");
  if (p == std::string::npos) return false;
  const std::string hex = line.substr(p + key.size() + 4, 256);
  if (hex.size() != 256) return false;
  for (int i = 0; i < 16; ++i) {
    w[i] = 0;
    for (int b = 0; b < 8; ++b) w[i] |= std::stoull(hex.substr(16 * i + 2 * b, 2), nullptr, 16) << (8 * b);
  }
  return true;
}

TEST(Offline, TheOfflineEncoderReproducesEveryMapTheDriverWroteForTheTracedPrograms) {
  const auto lines = Lines(TMAPGEN_SOURCE_DIR "/tests/trace/data/h200_accepted_records.jsonl");
  ASSERT_EQ(lines.size(), 23u);
  int equal = 0, not_covered = 0;
  for (const std::string& line : lines) {
    const absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(line);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    const TensorMapSpec& spec = *parsed;
    EncodeCall c;
    SpecToCall(spec, &c);
    ASSERT_TRUE(Words(line, "bytes", c.bytes)) << line;
    c.flags |= kHasBytes;
    c.result = 0;
    // The record's spec is the call's: SpecToCall and CallToSpec are inverse on it.
    TensorMapSpec back;
    ASSERT_EQ(CallToSpec(c, &back), 0u);
    EXPECT_EQ(back.mode, spec.mode);
    EXPECT_EQ(back.global_dim, spec.global_dim);
    EXPECT_EQ(back.box_dim, spec.box_dim);
    OfflineCheck oc;
    ASSERT_TRUE(CheckOffline(c, &oc));
    EXPECT_NE(oc.kind, OfflineCheck::kDiffers) << oc.differing_bits.size() << " bits differ: " << line;
    equal += oc.kind == OfflineCheck::kEqual;
    not_covered += oc.kind == OfflineCheck::kNotCovered;
  }
  EXPECT_EQ(equal, 23) << not_covered << " not covered";
}

TEST(Offline, AReplacedMapDecodesToTheEncodeItCameFrom) {
  const auto lines = Lines(TMAPGEN_SOURCE_DIR "/tests/trace/data/h200_replace_records.jsonl");
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) {
    // The source encode's parameters at the new address (matched by the recorder).
    const absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(line);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    const TensorMapSpec& recorded = *parsed;
    EncodeCall c;
    c.kind = CallKind::kReplaceAddress;
    c.global_address = recorded.global_address;
    ASSERT_TRUE(Words(line, "bytes_before", c.bytes_before)) << line;
    c.flags = kHasBytesBefore;
    ASSERT_FALSE(IsReplayable(c));
    ASSERT_TRUE(DecodeSource(&c));
    EXPECT_TRUE(IsReplayable(c));
    TensorMapSpec decoded;
    ASSERT_EQ(CallToSpec(c, &decoded), 0u);
    EXPECT_EQ(decoded.data_type, recorded.data_type);
    EXPECT_EQ(decoded.rank, recorded.rank);
    EXPECT_EQ(decoded.global_dim, recorded.global_dim);
    EXPECT_EQ(decoded.global_strides, recorded.global_strides);
    EXPECT_EQ(decoded.box_dim, recorded.box_dim);
    EXPECT_EQ(decoded.swizzle, recorded.swizzle);
    EXPECT_EQ(decoded.l2_promotion, recorded.l2_promotion);
    EXPECT_EQ(decoded.global_address, recorded.global_address) << "the new address, not the one in the old map";
    std::string out;
    AppendRecordJson(c, 1, &out);
    EXPECT_NE(out.find("\"params_from\":\"bytes_before, decoded by tmapgen (src/blob)\""), std::string::npos) << out;
  }
}

TEST(Offline, ADifferenceIsReportedBitByBit) {
  const auto lines = Lines(TMAPGEN_SOURCE_DIR "/tests/trace/data/h200_accepted_records.jsonl");
  ASSERT_FALSE(lines.empty());
  const absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(lines[0]);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const TensorMapSpec& spec = *parsed;
  EncodeCall c;
  SpecToCall(spec, &c);
  ASSERT_TRUE(Words(lines[0], "bytes", c.bytes));
  c.flags |= kHasBytes;
  c.bytes[1] ^= uint64_t{1} << 21;  // bit 64 + 21 = 85 flipped (the bit a Blackwell driver sets, per src/blob)
  OfflineCheck oc;
  ASSERT_TRUE(CheckOffline(c, &oc));
  EXPECT_EQ(oc.kind, OfflineCheck::kDiffers);
  EXPECT_EQ(oc.differing_bits, std::vector<int>({85}));
}

}  // namespace
}  // namespace tmapgen::trace
