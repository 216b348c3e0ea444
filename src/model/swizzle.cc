#include "src/model/swizzle.h"

namespace tmapgen::model {

int SwizzleGranuleBytes(Swizzle s) {
  switch (s) {
    case Swizzle::k128BAtom32B: return 32;
    case Swizzle::k128BAtom64B: return 64;
    case Swizzle::k128BAtom32BFlip8B: return 8;
    default: return 16;
  }
}

int SwizzlePatternRows(Swizzle s) {
  const int repeat = SwizzleRepeatBytes(s);
  return repeat == 0 ? 1 : repeat / 128;
}

int SwizzleBaseOffset(Swizzle s, uint64_t dst) {
  return static_cast<int>((dst / 128) % static_cast<uint64_t>(SwizzlePatternRows(s)));
}

int SwizzledChunk(Swizzle s, int row, int chunk) {
  const uint64_t a = static_cast<uint64_t>(row) * 128 + static_cast<uint64_t>(chunk) * 16;
  return static_cast<int>((SwizzleAddress(s, a) >> 4) & 7u);
}

bool ChunkFlipped(Swizzle s, int row) { return s == Swizzle::k128BAtom32BFlip8B && (row & 1) != 0; }

}  // namespace tmapgen::model
