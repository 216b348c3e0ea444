// Bank conflicts of the common read patterns, expected values worked out by hand: 32 banks of 4 bytes, a
// 16-byte access covers bank group (address / 16) % 8, 8 threads per phase.
#include "src/model/bank_conflicts.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/model/model_test_util.h"

namespace tmapgen::model {
namespace {

using testing::Instr;
using testing::Tiled;

std::vector<BankPattern> Analyze(DataType t, uint32_t inner, Swizzle s, uint64_t dst = 0) {
  const TensorMapSpec spec = Tiled(t, {4096, 4096}, {inner, 64}, s);
  const absl::StatusOr<CopyLayout> L = DescribeCopy(spec, Instr(CopyMode::kTile, {0, 0}, dst));
  EXPECT_TRUE(L.ok()) << L.status();
  return AnalyzeBankConflicts(L.value_or(CopyLayout()), s, dst);
}

int Get(const std::vector<BankPattern>& v, const std::string& name) {
  for (const BankPattern& p : v)
    if (p.name == name) return p.wavefronts;
  return -1;
}

TEST(Wavefronts, PhasesOfEightAndBroadcast) {
  std::vector<uint64_t> a(32);
  for (int i = 0; i < 32; ++i) a[i] = 16u * static_cast<uint64_t>(i);  // consecutive chunks
  int worst = 0;
  EXPECT_EQ(Wavefronts16(a, &worst), 4);
  EXPECT_EQ(worst, 1);
  for (int i = 0; i < 32; ++i) a[i] = 128u * static_cast<uint64_t>(i);  // one bank group
  EXPECT_EQ(Wavefronts16(a, &worst), 32);
  EXPECT_EQ(worst, 8);
  for (int i = 0; i < 32; ++i) a[i] = 256;  // the same address: broadcast
  EXPECT_EQ(Wavefronts16(a), 4);
}

// 128-byte rows without a swizzle: a column or an ldmatrix phase hits one bank group 8 times.
TEST(BankConflicts, NoSwizzle128ByteRowsConflictOnColumns) {
  const auto r = Analyze(DataType::kBfloat16, 64, Swizzle::kNone);
  EXPECT_EQ(Get(r, "row"), 4);
  EXPECT_EQ(Get(r, "column"), 32);
  EXPECT_EQ(Get(r, "ldmatrix"), 32);
}

// The 128B swizzle spreads the 8 rows of a phase over the 8 bank groups.
TEST(BankConflicts, Swizzle128BIsConflictFree) {
  for (uint64_t dst : {uint64_t{0}, uint64_t{384}}) {
    const auto r = Analyze(DataType::kBfloat16, 64, Swizzle::k128B, dst);
    EXPECT_EQ(Get(r, "row"), 4);
    EXPECT_EQ(Get(r, "column"), 4);
    EXPECT_EQ(Get(r, "ldmatrix"), 4);
  }
}

// 64-byte rows with the 64B swizzle: rows 0..7 of a column land in groups 0 4 1 5 2 6 3 7.
TEST(BankConflicts, Swizzle64BWith64ByteRows) {
  const auto r = Analyze(DataType::kFloat16, 32, Swizzle::k64B);
  EXPECT_EQ(Get(r, "column"), 4);
  EXPECT_EQ(Get(r, "ldmatrix"), 4);
}

// 32-byte rows: without a swizzle, four rows share a line and a column is 2-way; the 32B swizzle fixes it.
TEST(BankConflicts, ThirtyTwoByteRows) {
  EXPECT_EQ(Get(Analyze(DataType::kFloat16, 16, Swizzle::kNone), "column"), 8);
  EXPECT_EQ(Get(Analyze(DataType::kFloat16, 16, Swizzle::k32B), "column"), 4);
}

// 64-byte rows under the 128B swizzle occupy a whole line each (padded, M1). A column is still conflict-free,
// but a phase of the row pattern reads rows r and r+1 (4 chunks each): row 0 uses groups {0 1 2 3}, row 1
// groups {1 0 3 2}: 2-way, 8 wavefronts. The 64B swizzle packs them without conflict.
TEST(BankConflicts, NarrowRowsUnder128BSwizzle) {
  const auto r = Analyze(DataType::kFloat16, 32, Swizzle::k128B);
  EXPECT_EQ(Get(r, "column"), 4);
  EXPECT_EQ(Get(r, "row"), 8);
  EXPECT_EQ(Get(Analyze(DataType::kFloat16, 32, Swizzle::k64B), "row"), 4);
}

}  // namespace
}  // namespace tmapgen::model
