// bench.h: `tmapgen bench SPEC`: the bandwidth of a TMA load-then-store copy of a large 2D tensor with the
// spec's data type, box (box_dim[0] x box_dim[1]) and swizzle, next to the device's plain device-to-device
// copy (cuMemcpyDtoD) measured in the same run. Bandwidth counts bytes read plus bytes written.
//
// The pipeline shape (stages per block, refill lag, blocks per SM) is tuned in the run: every shape that fits
// is timed briefly and the fastest is measured and reported with its shape.
//
// Contract: runs in the calling process (no fork); prints one table; returns 0 on success, 1 when the copy's
// first bytes differ from the source (checked after timing), 2 when there is no GPU or the spec cannot run
// here (sm_100-only forms on an sm_90 GPU, a box that does not fit shared memory).
#ifndef TMAPGEN_SRC_GPU_BENCH_H_
#define TMAPGEN_SRC_GPU_BENCH_H_

#include <cstdint>
#include <cstdio>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct BenchOptions {
  uint64_t bytes = uint64_t{4} << 30;  // tensor size (each of source and destination)
  int iters = 5;
  int stages = 4;          // used only when stages_set
  bool stages_set = false;
  int blocks_per_sm = 0;   // 0: tuned
};

int RunBench(const TensorMapSpec& spec, const BenchOptions& opt, FILE* out);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_BENCH_H_
