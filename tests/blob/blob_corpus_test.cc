// The layout against the driver's own output: for every accepted map of a corpus, Decode(bytes) recovers
// the parameters the driver was given, and Encode(parameters) reproduces the driver's bytes exactly.
// Expected values are the driver's (the corpora), never this code's.
#include <gtest/gtest.h>

#include <string>

#include "src/blob/blob.h"
#include "src/schema/corpus_json.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen::blob {
namespace {

struct Tally {
  size_t lines = 0, accepted = 0, failures = 0;
};

// Checks one accepted entry; returns a description of the first disagreement, or "".
std::string Check(const CorpusEntry& e) {
  const TensorMapSpec& p = e.spec;
  MapBytes driver;
  std::copy(e.bytes.begin(), e.bytes.end(), driver.begin());
  const Decoded d = Decode(driver);
  if (!d.spec_ok) return "decode: spec not recovered";
  if (!d.unexplained.empty()) return "decode: unexplained bit " + std::to_string(d.unexplained[0].bit);
  if (!d.findings.empty()) return "decode: " + d.findings[0].message;
  if (!d.recognised.empty()) return "decode: recognised bit set";
  const TensorMapSpec& s = d.spec;
  if (s.data_type != p.data_type) return "data_type";
  if (s.rank != p.rank) return "rank";
  if (s.global_address != p.global_address) return "global_address";
  if (s.interleave != p.interleave || s.swizzle != p.swizzle || s.l2_promotion != p.l2_promotion ||
      s.oob_fill != p.oob_fill)
    return "interleave/swizzle/l2/oob";
  for (uint32_t i = 0; i < p.rank; ++i) {
    if (s.global_dim[i] != p.global_dim[i]) return "global_dim[" + std::to_string(i) + "]";
    if (s.element_strides[i] != p.element_strides[i]) return "element_strides[" + std::to_string(i) + "]";
    if (i + 1 < p.rank && s.global_strides[i] != p.global_strides[i]) return "global_strides[" + std::to_string(i) + "]";
  }
  if (p.mode == Mode::kTiled) {
    if (s.mode != Mode::kTiled) return "mode";
    for (uint32_t i = 0; i < p.rank; ++i)
      if (s.box_dim[i] != p.box_dim[i]) return "box_dim[" + std::to_string(i) + "]";
  } else {
    if (s.mode != Mode::kIm2col) return "mode";
    if (s.channels_per_pixel != p.channels_per_pixel) return "channels_per_pixel";
    if (s.pixels_per_column != p.pixels_per_column) return "pixels_per_column";
    for (uint32_t i = 0; i + 2 < p.rank; ++i) {
      const int32_t lo = p.mode == Mode::kIm2col ? p.pixel_box_lower_corner[i] : (i == 0 ? p.pixel_box_lower_corner_width : 0);
      const int32_t up = p.mode == Mode::kIm2col ? p.pixel_box_upper_corner[i] : (i == 0 ? p.pixel_box_upper_corner_width : 0);
      if (s.pixel_box_lower_corner[i] != lo) return "pixel_box_lower_corner[" + std::to_string(i) + "]";
      if (s.pixel_box_upper_corner[i] != up) return "pixel_box_upper_corner[" + std::to_string(i) + "]";
    }
    if (IsWideMode(p.mode) && !d.maybe_wide) return "maybe_wide not set for an im2col::w map";
  }
  if (!d.reencodes) return "decode: the recovered spec does not re-encode to the same bytes";
  // Encode from the parameters the driver was given.
  MapBytes offline;
  if (const absl::Status st = EncodeInto(p, &offline); !st.ok()) return "encode: " + std::string(st.message());
  if (offline != driver) {
    const std::vector<int> bits = DifferingBits(offline, driver);
    return "encode: differs from the driver at bit " + std::to_string(bits[0]) + " (" + std::to_string(bits.size()) + " bits)";
  }
  return "";
}

Tally CheckFile(const std::string& path) {
  Tally t;
  const bool opened = testing::ForEachLine(path, [&](const std::string& line, size_t no) {
    ++t.lines;
    const absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
    if (!entry.ok()) {
      ADD_FAILURE() << path << ":" << no << ": " << entry.status().message();
      ++t.failures;
      return;
    }
    const CorpusEntry& e = *entry;
    if (e.is_header || e.is_replace || e.driver_result != 0 || !e.has_bytes) return;
    ++t.accepted;
    if (!e.representable) {
      ADD_FAILURE() << path << ":" << no << ": accepted by the driver but not representable";
      ++t.failures;
      return;
    }
    const std::string why = Check(e);
    if (!why.empty() && ++t.failures <= 10) ADD_FAILURE() << path << ":" << no << ": " << why << "\n  " << line;
  });
  EXPECT_TRUE(opened) << "cannot open " << path;
  return t;
}

TEST(BlobCorpus, SharedCorpusSampleRoundTrips) {
  const Tally t = CheckFile(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/shared_corpus_sample.jsonl.gz");
  EXPECT_EQ(t.accepted, 4000u);
  EXPECT_EQ(t.failures, 0u);
}

TEST(BlobCorpus, WholeSharedCorpusRoundTrips) {
  const std::string dir = testing::SharedCorpusDir();
  if (dir.empty()) GTEST_SKIP() << "the shared corpus (shared/data/driver-encodings) is not on this machine";
  Tally all;
  for (const std::string& f : testing::FilesIn(dir, ".jsonl.gz")) {
    const Tally t = CheckFile(f);
    all.lines += t.lines;
    all.accepted += t.accepted;
    all.failures += t.failures;
  }
  EXPECT_EQ(all.lines, 200000u);
  EXPECT_EQ(all.accepted, 17595u);  // shared/data/driver-encodings/README.md
  EXPECT_EQ(all.failures, 0u);
}

}  // namespace
}  // namespace tmapgen::blob

namespace tmapgen::blob {
namespace {

// tmapgen's own corpora (tools/tmap_corpus on the H200, docs/tensormap-layout.md): the committed samples,
// and every *.jsonl.gz of $TMAPGEN_BLOB_CORPUS when it is set.
TEST(BlobCorpus, OwnCorpusSamplesRoundTrip) {
  size_t accepted = 0, failures = 0;
  const auto files = testing::FilesIn(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data", ".jsonl.gz");
  for (const std::string& f : files) {
    if (f.find("/tmap_corpus_") == std::string::npos) continue;
    const Tally t = CheckFile(f);
    accepted += t.accepted;
    failures += t.failures;
  }
  EXPECT_GT(accepted, 1000u);
  EXPECT_EQ(failures, 0u);
}

TEST(BlobCorpus, OwnFullCorporaRoundTrip) {
  const char* dir = std::getenv("TMAPGEN_BLOB_CORPUS");
  if (!dir) GTEST_SKIP() << "TMAPGEN_BLOB_CORPUS (a directory of tools/tmap_corpus outputs) is not set";
  size_t accepted = 0, failures = 0;
  for (const std::string& f : testing::FilesIn(dir, ".jsonl.gz")) {
    const Tally t = CheckFile(f);
    accepted += t.accepted;
    failures += t.failures;
    std::printf("%s: %zu lines, %zu accepted, %zu failures\n", f.c_str(), t.lines, t.accepted, t.failures);
  }
  EXPECT_GT(accepted, 0u);
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace tmapgen::blob
