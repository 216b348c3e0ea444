// matrix.h: `tmapgen sweep --matrix`: a coverage matrix of the copies this GPU executes, every
// configuration checked byte for byte against the model on the hardware (check_runner.h, batched).
//
// Contract
// - Generates `count` configurations from `seed` (deterministic): for each copy kind (tile load to
//   .shared::cta / .shared::cluster, tile store, tile reduce with every op its type supports, im2col load,
//   im2col_no_offs store) x swizzle (none, 32B, 64B, 128B) x data type (the 13 that sm_90 copies), random
//   ranks 1-5 (im2col 3-5), dims, boxes, element strides, padded strides, OOB fill, coordinates from the
//   coordinate set (edges, negative, hanging past the end) and shared-memory phases. Only configurations
//   the validator accepts (target sm_90a) and the model describes are kept.
// - Runs them in launches of `unit` blocks, prints the matrix (checked / mismatching per cell), the totals
//   and the end-to-end rate (configurations per second, generation + encode + GPU + compare).
// - Returns 0 when every configuration passed, 1 on any mismatch, timeout or fault, 2 when no GPU.
#ifndef TMAPGEN_SRC_GPU_MATRIX_MATRIX_H_
#define TMAPGEN_SRC_GPU_MATRIX_MATRIX_H_

#include <cstdint>
#include <cstdio>
#include <vector>

#include "src/gpu/check/check_plan.h"

namespace tmapgen::gpu {

struct MatrixOptions {
  uint64_t count = 20000;
  uint64_t seed = 1;
  int unit = 512;
  int max_failures_shown = 10;
  double max_seconds = 120;  // time budget: configurations not started by then are reported as not run
};

// The configurations (CPU only; tests use it). Every one validates for sm_90a: what the validator rejects
// (for example the and/or/xor reductions of float and s64 tensors, which trap on the H200) is never run.
std::vector<CheckCase> MatrixCases(uint64_t count, uint64_t seed);

int RunMatrix(const MatrixOptions& opt, FILE* out);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_MATRIX_MATRIX_H_
