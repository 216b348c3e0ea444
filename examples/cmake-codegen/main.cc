// tile_info: the constants of map tile_a that a kernel uses, from tile.gen.h (generated at build time).
// A bf16 box of 64 x 128 elements is 64 * 128 * 2 = 16384 bytes: the mbarrier's expected transaction count
// for one load (PTX ISA, cp.async.bulk.tensor: complete_tx counts the bytes written to shared memory). A
// 128-byte swizzle repeats every 1024 bytes, the alignment the destination needs (cuda.h,
// CU_TENSOR_MAP_SWIZZLE_128B). Exit 0 when the generated values are these.
#include <cstdio>

#include "tile.gen.h"

int main() {
  namespace gen = tmapgen_gen::tile_a;
  std::printf("tile_a: box %ux%u, %u transaction bytes, shared memory aligned to %u bytes\n", gen::kBoxDim[0],
              gen::kBoxDim[1], gen::kTransactionBytes, gen::kSmemAlignmentRecommended);
  return gen::kBoxDim[0] == 64 && gen::kBoxDim[1] == 128 && gen::kTransactionBytes == 16384 &&
                 gen::kSmemAlignmentRecommended == 1024
             ? 0
             : 1;
}
