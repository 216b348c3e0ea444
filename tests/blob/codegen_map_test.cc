// codegen --lang cpp's whole-map constant kMap against the driver: for maps of the committed corpus sample
// whose parameters validate for sm_90a, the 16 words in the generated header are the driver's own bytes with
// the address field (bits 0-56) cleared. (docs/hardware.md: the same constants in real TMA loads.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "src/blob/blob.h"
#include "src/codegen/codegen.h"
#include "src/schema/corpus_json.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen::blob {
namespace {

bool KMapWords(const std::string& header, uint64_t words[16]) {
  size_t p = header.find("constexpr MapBytes kMap = {{");
  if (p == std::string::npos) return false;
  p += 28;
  for (int i = 0; i < 16; ++i) {
    p = header.find("0x", p);
    if (p == std::string::npos) return false;
    words[i] = std::strtoull(header.c_str() + p + 2, nullptr, 16);
    p += 2;
  }
  return true;
}

TEST(BlobCodegen, KMapIsTheDriversMapWithoutItsAddress) {
  size_t checked = 0, im2col = 0;
  testing::ForEachLine(std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/shared_corpus_sample.jsonl.gz",
                       [&](const std::string& line, size_t no) {
                         if (checked >= 400) return;
                         absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
                         ASSERT_TRUE(entry.ok()) << entry.status();
                         CorpusEntry& e = *entry;
                         if (!e.has_bytes || IsWideMode(e.spec.mode)) return;
                         e.spec.target = Target::kSm90a;
                         e.spec.set_fields |= kFieldTarget;
                         e.spec.name = "m";
                         codegen::Input in;
                         in.specs.push_back(e.spec);
                         const codegen::Options opt;
                         const absl::StatusOr<codegen::Plan> plan = codegen::MakePlan(in, opt);
                         if (!plan.ok() || !plan->valid) return;  // invalid for sm_90a: no header
                         const std::string h = codegen::GenerateCpp(*plan, opt);
                         uint64_t w[16];
                         ASSERT_TRUE(KMapWords(h, w)) << "line " << no << ": no kMap in the header";
                         MapBytes driver;
                         std::copy(e.bytes.begin(), e.bytes.end(), driver.begin());
                         int n = 0;
                         Scatter(&driver, Fields(&n)[0], 0);  // the address field, left for the run time
                         EXPECT_EQ(FromWords(w), driver) << "line " << no;
                         ++checked;
                         if (IsIm2colMode(e.spec.mode)) ++im2col;
                       });
  EXPECT_EQ(checked, 400u);
  EXPECT_GT(im2col, 20u);
}

}  // namespace
}  // namespace tmapgen::blob
