// swizzle.h: the shared-memory address permutation of the tensor copy engine, for all seven swizzles.
//
// Contract
// - The swizzle is a function of the absolute shared-memory byte address: SwizzleAddress(s, a) XORs
//   low address bits with bits 7 and up (PTX ISA 9.2 section 5.5.7; the bit form is derived in
//   tma-spec.md section 2.2):
//     NONE                        identity
//     32B                         a[4]   ^= a[7]
//     64B                         a[5:4] ^= a[8:7]
//     128B                        a[6:4] ^= a[9:7]
//     128B_ATOM_32B               a[6:5] ^= a[8:7]
//     128B_ATOM_32B_FLIP_8B       a[6:5] ^= a[8:7], and a[3] ^= a[7]      (reading: "alternate row" = odd 128-B line)
//     128B_ATOM_64B               a[6]   ^= a[7]
//   Only bits below 7 change and the bits that steer them are never changed, so every swizzle is an
//   involution (applying it twice gives the address back) and a permutation of each 128-byte line.
// - Because the rule reads absolute address bits, the "swizzle base offset" of a destination that is not
//   on a repeat boundary, (dst / 128) % (repeat / 128), is built in: SwizzleBaseOffset() reports it.
// - Pure functions, no allocation, constexpr-friendly; safe from any thread.
#ifndef TMAPGEN_SRC_MODEL_SWIZZLE_H_
#define TMAPGEN_SRC_MODEL_SWIZZLE_H_

#include <cstdint>

#include "src/tmap/types.h"

namespace tmapgen::model {

// The XOR mask that the swizzle applies to address `a` (a ^ mask is the swizzled address).
inline uint64_t SwizzleMask(Swizzle s, uint64_t a) {
  switch (s) {
    case Swizzle::kNone: return 0;
    case Swizzle::k32B: return ((a >> 7) & 1u) << 4;
    case Swizzle::k64B: return ((a >> 7) & 3u) << 4;
    case Swizzle::k128B: return ((a >> 7) & 7u) << 4;
    case Swizzle::k128BAtom32B: return ((a >> 7) & 3u) << 5;
    case Swizzle::k128BAtom32BFlip8B: return (((a >> 7) & 3u) << 5) | (((a >> 7) & 1u) << 3);
    case Swizzle::k128BAtom64B: return ((a >> 7) & 1u) << 6;
  }
  return 0;
}

// Swizzled shared-memory address of the byte whose unswizzled (linear) address is `a`. Its own inverse.
inline uint64_t SwizzleAddress(Swizzle s, uint64_t a) { return a ^ SwizzleMask(s, a); }

// Bytes kept together by the swizzle: 16, or 32/64 for the atomicity variants; 8 for FLIP_8B, whose
// halves of each 16-byte chunk move independently.
int SwizzleGranuleBytes(Swizzle s);

// (dst / 128) % (repeat / 128): the row of the repeating pattern at which a copy to `dst` starts.
// 0 for SWIZZLE_NONE.
int SwizzleBaseOffset(Swizzle s, uint64_t dst);

// The 16-byte chunk (0..7) of a 128-byte line that chunk `chunk` of pattern row `row` lands in, as the
// PTX tables print it (row = (address / 128) % rows). For FLIP_8B the chunk moves as for ATOM_32B; the
// 8-byte flip inside it is reported by ChunkFlipped().
int SwizzledChunk(Swizzle s, int row, int chunk);
bool ChunkFlipped(Swizzle s, int row);

// Rows of the repeating pattern (repeat / 128): 1 for NONE, 2, 4, 8, 4, 4, 2.
int SwizzlePatternRows(Swizzle s);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_SWIZZLE_H_
