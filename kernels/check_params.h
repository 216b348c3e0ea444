// check_params.h: the launch parameters shared by the CUDA kernels (kernels/*.cu) and the host runner
// (src/gpu/). Plain C types only, so both nvcc and the host compiler read the same layout.
#ifndef TMAPGEN_KERNELS_CHECK_PARAMS_H_
#define TMAPGEN_KERNELS_CHECK_PARAMS_H_

#include <stdint.h>

// What one check block does (TmaCheckParams::kind).
enum TmaCheckKind {
  kTmaKindTileLoad = 0,        // cp.async.bulk.tensor.Nd.shared::{cta,cluster}.global.tile
  kTmaKindIm2colLoad = 1,      // .im2col (rank 3-5)
  kTmaKindTileStore = 2,       // cp.async.bulk.tensor.Nd.global.shared::cta.tile
  kTmaKindTileReduce = 3,      // cp.reduce.async.bulk.tensor.Nd.global.shared::cta.<op>.tile
  kTmaKindIm2colNoOffsStore = 4,   // .im2col_no_offs store (rank 3-5)
  kTmaKindPrefetchTileLoad = 5,    // cp.async.bulk.prefetch.tensor.Nd.L2.global.tile, then a tile load
  kTmaKindGather4Load = 6,     // .tile::gather4 (sm_100a)
  kTmaKindScatter4Store = 7,   // .tile::scatter4 (sm_100a)
  kTmaKindIm2colWLoad = 8,     // .im2col::w (sm_100a)
  kTmaKindIm2colW128Load = 9,  // .im2col::w::128 (sm_100a)
  kTmaKindIm2colNoOffsReduce = 10,  // cp.reduce ... .im2col_no_offs (rank 3-5)
};

// Completion status a block writes to *status.
enum TmaCheckStatus {
  kTmaStatusNotRun = 0,
  kTmaStatusDone = 1,
  kTmaStatusTimeout = 2,      // the mbarrier did not complete with tx_bytes in timeout_cycles
  kTmaStatusUnsupported = 3,  // this form is not compiled for the running architecture
  kTmaStatusMisaligned = 4,   // codegen example: the shared buffer is not at kSmemAlignmentRecommended (not loaded)
};

enum TmaCheckFlags {
  kTmaFlagCluster = 1,  // load with the .shared::cluster destination form
};

struct TmaCheckParams {
  int32_t kind;
  int32_t rank;
  int32_t op;     // ReduceOp value (add, min, max, inc, dec, and, or, xor)
  int32_t flags;  // TmaCheckFlags
  int32_t coords[5];
  int32_t rows[4];        // gather4 / scatter4 rows
  uint16_t offs[3];       // im2col offsets {W, H, D}
  uint16_t w_halo;
  uint16_t w_offset;
  uint16_t pad0;
  uint32_t dst_offset;    // shared-memory offset from a 1024-aligned base (steers the swizzle phase)
  uint32_t tx_bytes;      // expected complete_tx bytes (from the model)
  uint32_t footprint;     // bytes of shared memory copied in (stores) or out (loads)
  uint32_t pad1;
  int64_t timeout_cycles; // clock64 cycles to wait on the mbarrier
  uint64_t map;           // batch kernel: device address of the 128-byte CUtensorMap (global memory)
  uint64_t smem_in;       // stores: device address of the bytes placed in shared memory first
  uint64_t out;           // loads: device address receiving the shared-memory image (footprint bytes)
  uint64_t status;        // device address of an int32 status word
};

// Copy-bandwidth kernel parameters (kernels/copy_bandwidth.cuh, `tmapgen bench`): copy a 2D tensor group by
// group (TMA loads, then TMA stores), a group being `boxes` boxes adjacent along dimension 0.
enum CopyBandwidthFlags {
  kCopyBandwidthStoreWarp = 1,      // warp 0 loads, warp 1 stores (64 threads); else one thread does both (32)
  kCopyBandwidthLoadEvictLast = 2,  // loads with an L2 evict_last cache policy
  kCopyBandwidthLinear = 4,         // no map: each group is one contiguous piece of src_addr/dst_addr, moved by
                                    // cp.async.bulk (the TMA unit's plain bulk copy) in the same pipeline
  kCopyBandwidthLoadOnly = 8,       // one thread loads every group and stores none (timing only)
  kCopyBandwidthStoreOnly = 16,     // one thread stores every group from shared memory as it is (timing only)
  kCopyBandwidthTaken = 32,         // groups taken in order from a grid-wide counter (sched_addr) instead of
                                    // block b copying groups b, b + gridDim.x, ...
};
enum { kCopyBandwidthMaxStages = 8 };
struct CopyBandwidthParams {
  uint32_t tiles_x;     // groups along dimension 0
  uint32_t tiles_y;     // boxes along dimension 1
  uint32_t box_x;       // box_dim[0] (elements)
  uint32_t box_y;       // box_dim[1]
  uint32_t box_bytes;   // bytes of one box
  uint32_t boxes;       // boxes per group (stage)
  uint32_t stages;      // 2 .. kCopyBandwidthMaxStages
  uint32_t lag;         // a stage is handed back `lag` stores after its own (1 <= lag < stages)
  uint32_t flags;       // CopyBandwidthFlags
  uint32_t pad;
  uint64_t src_addr;    // kCopyBandwidthLinear: device addresses of the source and destination (16-byte
                        // aligned)
  uint64_t dst_addr;
  uint64_t sched_addr;  // kCopyBandwidthTaken: two zeroed uint32 words (the next group, the blocks done); the
                        // last block of a launch zeroes them again for the next launch
};

// Plain SM copy kernel parameters (kernels/copy_bandwidth.cuh, tmapgen_sm_copy): the same bytes copied by
// every thread of the grid with 16-byte loads and stores, the bench's second partner (what a kernel without TMA gets).
enum SmCopyFlags {
  kSmCopyStreaming = 1,  // ld.global.cs / st.global.cs (evict-first) instead of plain loads and stores
};
struct SmCopyParams {
  uint64_t src_addr;  // 16-byte aligned
  uint64_t dst_addr;
  uint64_t count;     // 16-byte words
  uint32_t flags;     // SmCopyFlags
  uint32_t pad;
};

// wgmma proof kernel parameters: one warpgroup loads A (64 x K) and B (K x 64) through two tensor maps, slab by
// slab (one box per swizzle-row-wide slab), then runs wgmma.mma_async m64n64 over k_slices K slices.
enum WgmmaVariant {
  // bf16: 0..3, f16: 4..7 with (transA, transB) = (v & 2, v & 1); tf32: 8; e4m3: 9 (K-major only).
  kWgmmaTf32 = 8,
  kWgmmaE4m3 = 9,
};
struct WgmmaParams {
  int32_t variant;
  int32_t k_slices;     // at most 8
  int32_t a_slabs, b_slabs;
  int32_t a_row_elems, b_row_elems;  // box width of one slab (elements)
  uint32_t a_off, b_off;             // shared-memory offsets of the tiles from the 1024-aligned base
  uint32_t a_slab_bytes, b_slab_bytes;
  uint32_t tx_bytes;
  uint32_t pad;
  int64_t timeout_cycles;
  uint64_t desc_a[8];   // descriptors with start addresses relative to the base (the kernel adds the base)
  uint64_t desc_b[8];
  uint64_t out;         // 64 x 64 floats, row-major
  uint64_t status;      // int32
};

// Codegen example kernel (kernels/codegen_example.cuh): one tiled TMA load with the map of
// examples/codegen/tile.json, sized and armed with the constants of the generated tile_a.gen.h.
struct CodegenExampleParams {
  int32_t coords[2];      // {x0 (elements, dim 0), x1}
  int32_t pad[2];
  int64_t timeout_cycles; // clock64 cycles to wait on the mbarrier
  uint64_t out;           // device address receiving the kSmemFootprintBytes shared-memory bytes
  uint64_t status;        // device address of an int32 status word (TmaCheckStatus)
};

#endif  // TMAPGEN_KERNELS_CHECK_PARAMS_H_
