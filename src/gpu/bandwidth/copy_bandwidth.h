// copy_bandwidth.h: `tmapgen bench SPEC`: the bandwidth of a TMA load-then-store copy of a large 2D tensor with the
// spec's data type, box (box_dim[0] x box_dim[1]) and swizzle, next to the device's plain device-to-device
// copy (cuMemcpyDtoD) measured in the same run. Bandwidth counts bytes read plus bytes written.
//
// The tensor has rows of opt.row_bytes (16 KiB by default, a GEMM operand's width; a row of one group of
// boxes makes every stage one contiguous piece of memory, which tells the 2D access pattern's cost apart).
// The kernel (kernels/copy_bandwidth.cuh) and its shape are tuned in the run: boxes per stage (1, 2 or 4 adjacent
// boxes, at most 512 bytes of each row), stages, blocks per SM, refill lag and issue scheme (one thread, or a
// load warp and a store warp), with 32 to 192 KiB in flight per SM, each timed briefly; then the best shape
// with and without the L2 evict_last hint on its loads and, when the spec leaves l2_promotion open, with
// every L2 promotion (none, 64B, 128B, 256B; the shapes are tuned with 256B). The chosen shape is checked (destination cleared, one copy, the first and last
// 16 MiB compared with the source) and timed in alternating rounds with cuMemcpyDtoD; the medians are
// reported with the shape and the promotion used.
//
// Two more partners, tuned and checked the same way and timed in the same rounds, say what any SM-issued copy
// reaches on this GPU, so that the map's fraction of cuMemcpyDtoD (which runs on the copy engines, not the
// SMs) can be read: the same pipeline moving each group as one contiguous piece with cp.async.bulk (the TMA
// unit without a tensor map: what the map's boxes cost), and a plain SM copy kernel with 16-byte loads and
// stores (what a kernel without TMA gets; 6 launch shapes, plain or streaming cache hints).
//
// opt.one_way adds a timing of the map's copy and of the bulk copy split into their loads alone and their
// stores alone (the chosen shapes, one issuing thread; nothing checked), so that the cost of the map's boxes
// can be placed on the load side or the store side.
//
// Contract: runs in the calling process (no fork); prints one table; returns 0 on success, 1 when the copy
// differs from the source, 2 when there is no GPU or the spec cannot run here (sm_100-only forms on an sm_90
// GPU, a box that does not fit shared memory). Progress goes to stderr when opt.progress is set.
#ifndef TMAPGEN_SRC_GPU_BANDWIDTH_COPY_BANDWIDTH_H_
#define TMAPGEN_SRC_GPU_BANDWIDTH_COPY_BANDWIDTH_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct CopyBandwidthOptions {
  uint64_t bytes = uint64_t{4} << 30;  // tensor size (each of source and destination)
  int iters = 5;           // copies per timed batch
  int rounds = 5;          // alternating batches of the plain copy and the TMA copy
  bool progress = false;   // tuning progress on stderr
  int stages = 4;          // used only when stages_set
  bool stages_set = false;
  int blocks_per_sm = 0;   // 0: tuned
  uint64_t row_bytes = 16384;  // bytes of one row of the tensor (global_strides[0]); rounded down to whole boxes
  int sms = 0;             // blocks are placed on this many SMs' worth of the grid (0: every SM)
  bool one_way = false;    // also time the map's and the bulk copy's loads alone and stores alone
  bool check_all = false;  // seed the whole source and compare every byte of each checked copy (else the
                           // first and last 16 MiB are seeded and compared, the rest a byte pattern)
};

// What a run measured (filled on success).
struct CopyBandwidthResult {
  double tma_gbs = 0, copy_gbs = 0;  // bytes read + written per second, 1e9
  double linear_gbs = 0;             // the TMA bulk copy of the same bytes without a map
  double sm_copy_gbs = 0;            // the SM copy kernel
  std::string promotion;             // the L2 promotion of the maps timed
  std::string shape;                 // the kernel shape, in words
  bool equal = false;                // the checked bytes of every copy equal the source
};

int RunCopyBandwidth(const TensorMapSpec& spec, const CopyBandwidthOptions& opt, FILE* out,
                     CopyBandwidthResult* result = nullptr);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_BANDWIDTH_COPY_BANDWIDTH_H_
