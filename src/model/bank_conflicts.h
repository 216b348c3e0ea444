// bank_conflicts.h: shared-memory bank conflicts of the common read patterns over a copy's image.
//
// Contract
// - Shared memory has 32 banks of 4 bytes; a 16-byte access covers a group of 4 banks (bank group = address
//   / 16 % 8). A warp's 16-byte loads (LDS.128, ldmatrix rows) are served in phases of 8 threads; a phase
//   takes as many wavefronts as the largest number of distinct 16-byte addresses in one bank group (equal
//   addresses are broadcast). Ideal = one wavefront per phase.
// - Patterns, in the copy's logical coordinates (row = box row / gather row / im2col pixel as the copy laid
//   them out, chunk = 16-byte chunk of that row before the swizzle):
//     row      a warp reads 32 consecutive chunks of the rows from row 0 on (a row, or rows, of 16-byte vectors)
//     column   a warp reads chunk 0 of rows 0..31 (one 16-byte column: MN-major / transposed reads)
//     ldmatrix an ldmatrix.x4: chunks 0 and 1 of rows 0..15, one 8x8 b16 matrix per phase
//   Rows and chunks that the copy does not have wrap around (modulo), so every pattern has 32 accesses.
// - Pure; no allocation beyond the returned vector.
#ifndef TMAPGEN_SRC_MODEL_BANK_CONFLICTS_H_
#define TMAPGEN_SRC_MODEL_BANK_CONFLICTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/model/copy_model.h"
#include "src/tmap/types.h"

namespace tmapgen::model {

struct BankPattern {
  std::string name;         // "row", "column", "ldmatrix"
  std::string description;  // one sentence
  int wavefronts = 0;       // wavefronts the warp needs
  int ideal = 0;            // wavefronts without conflicts (4)
  int worst_phase = 0;      // largest wavefront count of one phase (1 = conflict-free)
};

// Wavefronts of one warp request of 16-byte accesses at `addresses` (32 or fewer), 8 threads per phase.
int Wavefronts16(const std::vector<uint64_t>& addresses, int* worst_phase = nullptr);

// The three patterns over a copy with this layout, swizzle and destination.
std::vector<BankPattern> AnalyzeBankConflicts(const CopyLayout& layout, Swizzle swizzle, uint64_t smem_address);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_BANK_CONFLICTS_H_
