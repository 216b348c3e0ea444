// Swizzle tables of PTX ISA 9.2 section 5.5.7 (the Chinese seed, sections 5.5.7, and tma-spec.md 2.2), typed
// in by hand: row r of a table lists, for each 16-byte chunk position of a 128-byte shared-memory line, the
// chunk of the unswizzled data that lands there. The model's rule must reproduce every row, for every mode
// and atomicity, and the properties that make it a swizzle.
#include "src/model/swizzle.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace tmapgen::model {
namespace {

using Table = std::vector<std::vector<int>>;

// Which source chunk lands at each position of line `row` (line = 128 bytes, repeat-aligned destination).
std::vector<int> LineContents(Swizzle s, int row) {
  std::vector<int> out(8, -1);
  for (int chunk = 0; chunk < 8; ++chunk) out[SwizzledChunk(s, row, chunk)] = chunk;
  return out;
}

void ExpectTable(Swizzle s, const Table& t) {
  for (size_t r = 0; r < t.size(); ++r) EXPECT_EQ(LineContents(s, static_cast<int>(r)), t[r]) << ShortName(s) << " row " << r;
  // "... the pattern repeats": the row after the table equals its first row.
  EXPECT_EQ(LineContents(s, static_cast<int>(t.size())), t[0]) << ShortName(s) << " repeat";
  EXPECT_EQ(SwizzlePatternRows(s), static_cast<int>(t.size()));
}

TEST(SwizzleTable, None) { ExpectTable(Swizzle::kNone, {{0, 1, 2, 3, 4, 5, 6, 7}}); }

TEST(SwizzleTable, Swizzle32B) {
  ExpectTable(Swizzle::k32B, {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}});
}

TEST(SwizzleTable, Swizzle64B) {
  ExpectTable(Swizzle::k64B, {{0, 1, 2, 3, 4, 5, 6, 7},
                              {1, 0, 3, 2, 5, 4, 7, 6},
                              {2, 3, 0, 1, 6, 7, 4, 5},
                              {3, 2, 1, 0, 7, 6, 5, 4}});
}

TEST(SwizzleTable, Swizzle128BAtomicity16B) {
  ExpectTable(Swizzle::k128B, {{0, 1, 2, 3, 4, 5, 6, 7},
                               {1, 0, 3, 2, 5, 4, 7, 6},
                               {2, 3, 0, 1, 6, 7, 4, 5},
                               {3, 2, 1, 0, 7, 6, 5, 4},
                               {4, 5, 6, 7, 0, 1, 2, 3},
                               {5, 4, 7, 6, 1, 0, 3, 2},
                               {6, 7, 4, 5, 2, 3, 0, 1},
                               {7, 6, 5, 4, 3, 2, 1, 0}});
}

TEST(SwizzleTable, Swizzle128BAtomicity32B) {
  ExpectTable(Swizzle::k128BAtom32B, {{0, 1, 2, 3, 4, 5, 6, 7},
                                      {2, 3, 0, 1, 6, 7, 4, 5},
                                      {4, 5, 6, 7, 0, 1, 2, 3},
                                      {6, 7, 4, 5, 2, 3, 0, 1}});
}

TEST(SwizzleTable, Swizzle128BAtomicity32BFlip8BMovesChunksLikeAtom32B) {
  ExpectTable(Swizzle::k128BAtom32BFlip8B, {{0, 1, 2, 3, 4, 5, 6, 7},
                                            {2, 3, 0, 1, 6, 7, 4, 5},
                                            {4, 5, 6, 7, 0, 1, 2, 3},
                                            {6, 7, 4, 5, 2, 3, 0, 1}});
}

TEST(SwizzleTable, Swizzle128BAtomicity64B) {
  ExpectTable(Swizzle::k128BAtom64B, {{0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}});
}

TEST(Swizzle, Flip8BSwapsHalvesOnAlternateLines) {
  // "a flip of adjacent 8 bytes within the 16-byte data at every alternate shared memory line".
  for (int row = 0; row < 4; ++row) {
    EXPECT_EQ(ChunkFlipped(Swizzle::k128BAtom32BFlip8B, row), row % 2 == 1);
    const uint64_t a = static_cast<uint64_t>(row) * 128;  // byte 0 of chunk 0
    const uint64_t s = SwizzleAddress(Swizzle::k128BAtom32BFlip8B, a);
    EXPECT_EQ(s & 8, row % 2 == 1 ? 8u : 0u) << row;
    EXPECT_EQ(SwizzleAddress(Swizzle::k128BAtom32BFlip8B, a + 8) & 8, row % 2 == 1 ? 0u : 8u) << row;
  }
  EXPECT_FALSE(ChunkFlipped(Swizzle::k128BAtom32B, 1));
}

TEST(Swizzle, GranuleAndRepeat) {
  EXPECT_EQ(SwizzleGranuleBytes(Swizzle::k128B), 16);
  EXPECT_EQ(SwizzleGranuleBytes(Swizzle::k128BAtom32B), 32);
  EXPECT_EQ(SwizzleGranuleBytes(Swizzle::k128BAtom64B), 64);
  EXPECT_EQ(SwizzleGranuleBytes(Swizzle::k128BAtom32BFlip8B), 8);
  EXPECT_EQ(SwizzlePatternRows(Swizzle::kNone), 1);
}

// Base offset: (dstMem / 128) % (repeat / 128) (PTX ISA 9.2 5.5.7 table; CUDA Programming Guide Table 24).
TEST(Swizzle, BaseOffsetFormula) {
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128B, 0), 0);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128B, 1024), 0);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128B, 128 * 3), 3);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128B, 1024 + 128 * 7), 7);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k64B, 128 * 5), 1);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k32B, 128 * 3), 1);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128BAtom64B, 128 * 3), 1);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::k128BAtom32B, 128 * 6), 2);
  EXPECT_EQ(SwizzleBaseOffset(Swizzle::kNone, 128 * 6), 0);
}

// With a destination `offset` lines into the pattern, row y of the copy uses pattern row (y + offset):
// the Programming Guide's smem[y][x] <-> smem[y][((y + offset) % N) ^ x].
TEST(Swizzle, PhaseFollowsTheProgrammingGuideIndexRelation) {
  const Swizzle modes[] = {Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
  for (Swizzle s : modes) {
    const int n = SwizzlePatternRows(s);
    for (int offset = 0; offset < 8; ++offset) {
      const uint64_t dst = 4096 + 128 * static_cast<uint64_t>(offset);
      for (int y = 0; y < 16; ++y) {
        for (int x = 0; x < 8; ++x) {
          const uint64_t a = dst + 128 * static_cast<uint64_t>(y) + 16 * static_cast<uint64_t>(x);
          const int got = static_cast<int>(((SwizzleAddress(s, a) - dst) % 128) / 16);
          EXPECT_EQ(got, ((y + offset) % n) ^ x) << ShortName(s) << " offset " << offset << " y " << y << " x " << x;
        }
      }
    }
  }
}

// Properties: a permutation of every repeat (and of every 128-byte line), an involution, and granules of
// SwizzleGranuleBytes() stay together.
TEST(SwizzleProperty, PermutationWithinRepeatInvolutionGranules) {
  for (int m = 0; m < kNumSwizzles; ++m) {
    const Swizzle s = static_cast<Swizzle>(m);
    const uint64_t repeat = SwizzleRepeatBytes(s) == 0 ? 128 : static_cast<uint64_t>(SwizzleRepeatBytes(s));
    for (uint64_t base : {uint64_t{0}, uint64_t{1024}, uint64_t{3 * 1024}}) {
      std::set<uint64_t> seen;
      for (uint64_t a = base; a < base + repeat; ++a) {
        const uint64_t b = SwizzleAddress(s, a);
        EXPECT_GE(b, base);
        EXPECT_LT(b, base + repeat);
        EXPECT_EQ(b / 128, a / 128) << "stays in its 128-byte line";
        EXPECT_EQ(SwizzleAddress(s, b), a) << "involution";
        seen.insert(b);
        const uint64_t g = static_cast<uint64_t>(SwizzleGranuleBytes(s));
        EXPECT_EQ(b % g, a % g) << ShortName(s);
      }
      EXPECT_EQ(seen.size(), repeat) << ShortName(s);
    }
  }
}

}  // namespace
}  // namespace tmapgen::model
