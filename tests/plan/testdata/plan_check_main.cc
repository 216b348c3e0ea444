// The generated plan headers' constants against values computed by hand from the sources (no tmapgen output):
//   [CUTLASS] sm90_mma_tma_gmma_ss_warpspecialized.hpp: TmaTransactionBytes = 128 x 64 x 2 + 128 x 64 x 2 = 32768;
//             mcast masks over a column-major 2 x 2 cluster (rank = x + 2y): A of rank 1 = bits {1, 3} = 0xA,
//             B of rank 1 = bits {0, 1} = 0x3; sm90_pipeline.hpp: empty arrivals (2 + 2 - 1) x 2 warpgroups = 6.
//   [PTX]     wgmma descriptor: layout 1 (128B) at bits 62-63, SBO 1024 B = 64 at bits 32-45, LBO 1 at 16-29;
//             m64n128k16 for bf16 (K 16: 4 steps of 32 B in a 64-element tile).
//   [CUTLASS] fprop corners for a 3 x 3 filter with padding 1: offsets of tap (s 2, r 1) = {2, 1}.
//   The accessors device code uses (CopyOf, ExpectTx, ..., TapOffset) hold the same values as the arrays.
#include "gemm.gen.h"
#include "conv.gen.h"

namespace g = gemm_gen::plan;
static_assert(g::kStageBytes == 32768u, "CUTLASS TmaTransactionBytes");
static_assert(g::kExpectTx[0] == 32768u && g::kExpectTx[3] == 32768u, "every receiving CTA expects the whole stage");
static_assert(g::kClusterSize == 4u, "2 x 2");
static_assert(g::kCopies[1][0].mask == 0xAu, "A of rank 1 goes to ranks 1 and 3");
static_assert(g::kCopies[1][1].mask == 0x3u, "B of rank 1 goes to ranks 0 and 1");
static_assert(g::kCopies[1][0].bytes == 8192u, "each CTA issues half of A");
static_assert(g::kEmptyArrivals[2] == 6u, "(2 + 2 - 1) x 2 consumer warpgroups");
static_assert(g::kKSteps == 4u && g::kMmaN == 128u && g::kMmaK == 16u, "m64n128k16, 4 K steps");
static_assert(g::kDescA[0] == ((1ull << 62) | (64ull << 32) | (1ull << 16)), "SBO 1024, LBO 1, 128B");
static_assert(g::DescA(0u, 0u, 1u) - g::DescA(0u, 0u, 0u) == 2ull, "the next K step starts 32 B further");
static_assert(g::DescA(0u, 1u, 0u) - g::DescA(0u, 0u, 0u) == 16384ull / 16ull, "the next stage's A");
static_assert(g::kNumMaps == 5u && g::MapOperand(g::kMap_A_slice) == 'A' && g::MapOperand(g::kMap_B_slice) == 'B' &&
                  g::MapOperand(g::kMap_D) == 'D', "A, A_slice, B, B_slice, D");
static_assert(g::CopyOf(1u, 0u).mask == 0xAu && g::CopyOf(1u, 1u).mask == 0x3u && g::CopyOf(1u, 0u).bytes == 8192u,
              "the accessor's copies are kCopies");
static_assert(g::ExpectTx(3u) == 32768u && g::EmptyArrivals(2u) == 6u && g::FullArrivals(0u) == 1u,
              "the accessors' counts are CUTLASS's");
static_assert(g::NumCopies(0u) == 2u && g::ReleaseMask(0u) == g::kReleaseMask[0], "one A and one B slice per CTA");
static_assert(g::EpilogueCopy(1u).coord0 == 64u, "the second D slab starts 64 columns in (a 128B row of bf16)");

namespace c = conv_gen::conv;
static_assert(c::TapOffset(5u, 0u) == 2u && c::TapOffset(5u, 1u) == 1u, "tap (s 2, r 1)");
static_assert(c::TapFilter(5u, 0u) == 2u && c::TapFilter(5u, 1u) == 1u && c::kTapFilter[8][1] == 2u,
              "tap 5 is filter position s 2, r 1 (s fastest); tap 8 is s 2, r 2");
static_assert(c::kFilterS == 3u && c::kFilterR == 3u && c::kDilationW == 1u && c::kBatch == 8ull && c::kChannels == 64ull,
              "the problem as requested");
static_assert(c::kNumTaps == 9u && c::kTapOffsets[5][0] == 2u && c::kTapOffsets[5][1] == 1u, "tap (s 2, r 1)");
static_assert(c::kOutQ == 28ull && c::kOutP == 28ull, "(28 + 2 - 2 - 1) / 1 + 1");

int main() { return 0; }
