// conv_plan.h: a forward convolution as an implicit GEMM (2D and 3D, channels last): the im2col map of the
// activations, the filter map, the coordinates of each tile and the offsets of each filter tap, on top of the
// GEMM plan of the equivalent product (gemm_plan.h: shared memory, per-CTA copies and barriers, descriptors, MMA).
//
// Contract
// - Pure: no I/O. CheckConvRequest() says whether a request is well formed (INVALID_ARGUMENT naming the field);
//   RunConvPlan() is total for a request it accepts.
// - Layouts (CUTLASS's and cuDNN's channels-last forward convolution): activation NHWC (NDHWC), filter KRSC
//   (KTRSC), output NPQK (NOPQK). The GEMM: M = N x P x Q (x O) output pixels, N = K output channels, K = the
//   filter taps (T x R x S) times C, walked tap by tap, BK channels at a time (tiles of a tap's channels past C
//   are zero-filled).
// - The im2col map (cuTensorMapEncodeIm2col): dims {C, W, H, (D,) N}; elementStrides {1, stride_w, stride_h,
//   (stride_d,) 1}; pixelBoxLowerCorner = -pad (W, H, D order); pixelBoxUpperCorner = pad - (filter - 1) x
//   dilation (CUTLASS conv/collective/detail.hpp compute_lower_corner_whd / compute_upper_corner_whd, fprop);
//   channelsPerPixel = the channels of one slab, pixelsPerColumn = BM. The walk (tmapgen's copy model, measured on
//   the H200, docs/model.md): the base point steps by the stride along W inside the box, then carries into H, D
//   and N; so the box holds exactly Q (P, O) positions per row and output pixel m = (n, o, p, q) has the base
//   point {q x stride_w - pad_w, p x stride_h - pad_h, (o x stride_d - pad_d,) n}. Tap (t, r, s) adds the
//   im2col offsets {s x dilation_w, r x dilation_h, (t x dilation_d)} (CUTLASS compute_lower_srt: 0 for fprop).
// - The filter map: tiled, dims {C, S, R, (T,) K}, box {channels of a slab, 1, 1, (1,) BN}: a tap's channels past
//   C are zero-filled rather than read from the next tap.
// - The sm_100 forms (targets with tcgen05; PTX ISA 9.2 section 5.5.5, im2col::w and im2col::w::128), planned
//   beside the GEMM, which keeps the .im2col map (CUTLASS's sm100 fprop collectives issue .im2col for every filter
//   and stride: SM90_TMA_LOAD_IM2COL(_MULTICAST), SM100_TMA_2SM_LOAD_IM2COL(_MULTICAST); nothing in CUTLASS issues
//   .im2col::w). Only W walks, H and D are the copy's coordinates: a tile is BM output pixels of one output row
//   (n, o, p) from q0, and the filter rows r (t) go into the H (D) coordinate. Tap s reads input column
//   q x stride_w - pad_w + s x dilation_w = (q + j) x stride_w - pad_w + phase, with phase = (s x dilation_w) mod
//   stride_w and j = (s x dilation_w) / stride_w: the taps of one phase share one buffer, loaded by one copy with
//   wOffset = phase and wHalo = the largest j of its taps; tap s's pixels are rows j .. j + BM - 1 of it (PTX
//   5.5.5.3 wHalo: halo pixels follow the main pixels; 5.5.5.4 wOffset: the box and W move by wOffset). The box
//   is the padded row, corners {-pad_w, +pad_w}, so every pixel an output inside the row reads lies in the box
//   (the walk leaves the box only for pixels past Q, which are not stored). im2col::w::128 writes 128 pixels in
//   four runs of 32, each followed by wHalo halo pixels (copy model reading R7): tap s's pixels are four runs of
//   32 rows at g x (32 + wHalo) + j.
#ifndef TMAPGEN_SRC_PLAN_CONV_PLAN_H_
#define TMAPGEN_SRC_PLAN_CONV_PLAN_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/plan/gemm_plan.h"

namespace tmapgen::plan {

struct ConvRequest {
  int spatial = 2;  // 2 (NHWC) or 3 (NDHWC)
  uint64_t n = 32, c = 64, k = 128;
  // W, H, D (index 0 = W), as the map's dimensions; filter S, R, T.
  std::array<uint64_t, 3> in = {56, 56, 1};
  std::array<uint32_t, 3> filter = {3, 3, 1};
  std::array<uint32_t, 3> pad = {1, 1, 0};  // the same before and after
  std::array<uint32_t, 3> stride = {1, 1, 1};
  std::array<uint32_t, 3> dilation = {1, 1, 1};
  desc::ElemType type = desc::ElemType::kBF16;
  DataType out_type = DataType::kBfloat16;
  uint32_t bm = 128, bn = 128, bk = 64;  // BM output pixels, BN output channels, BK channels of one tap
  uint32_t stages = 0;
  uint32_t cluster_m = 1, cluster_n = 1;
  bool multicast_b = false;  // the filter tile, shared by the CTAs of one cluster column
  McastIssue mcast_issue = McastIssue::kSlice;
  Target target = Target::kSm90a;
  bool has_swizzle = false;
  desc::DescSwizzle swizzle = desc::DescSwizzle::k128B;
};

// The most filter taps a request may have: a plan lists every tap, and no valid plan has more than 255 x 255.
inline constexpr uint64_t kMaxConvTaps = 65536;
absl::Status CheckConvRequest(const ConvRequest& r);

struct ConvTap {
  std::array<uint32_t, 3> trs{};      // s, r, t
  std::array<uint32_t, 3> offsets{};  // the im2col offsets W, H, D
};

// One buffer of a wide form: the taps of one W phase.
struct WideBuffer {
  uint32_t w_offset = 0;     // wOffset = the phase
  uint32_t w_halo = 0;       // wHalo = the largest row shift j of its taps
  uint32_t rows = 0;         // pixels one copy writes: BM + wHalo (im2col::w), 128 + 4 x wHalo (::w::128)
  uint32_t rows_padded = 0;  // the rows a slab region takes: rows rounded up to the swizzle repeat
  uint64_t smem_offset = 0;  // slab 0 of this buffer, from the stage's A buffer
  uint64_t copy_bytes = 0;   // one copy (one slab): rows x channels per pixel x element bytes (complete_tx)
};

// One filter column s (the taps t, r go into the copy's coordinates).
struct WideTap {
  uint32_t s = 0;
  uint32_t buffer = 0;
  uint32_t row = 0;             // j: the first row of its pixels in the buffer
  std::vector<uint32_t> runs;   // ::w::128: the first row of each run of 32 pixels
  uint64_t start_offset = 0;    // bytes from the stage's A buffer, slab 0
  std::vector<KStepDesc> steps; // the A descriptor of every run (mn_offset = its first row) and K step
};

struct WideForm {
  Mode mode = Mode::kIm2colW;
  std::string name;                  // "im2col::w", "im2col::w::128"
  bool applies = false;
  std::vector<std::string> why;      // why it applies or not, with sources
  PlannedMap map;                    // the activations (buffer 0, slab 0 destination)
  PlannedMap d_map;                  // the output store, clipped at the end of each output row
  std::string coords;                // the copy's coordinates, in words
  uint32_t pixels = 0;               // main pixels per copy
  uint32_t slabs = 0;                // copies per buffer (channel slabs of BK)
  uint32_t slab_elems = 0;
  uint64_t slab_pitch = 0;           // bytes between slab regions of one buffer
  std::vector<WideBuffer> buffers;
  std::vector<WideTap> taps;
  uint32_t k_iterations = 0;         // stages per tile: T x R x channel blocks (each covers all S taps)
  uint32_t copies_a = 0, copies_b = 0;  // per stage
  uint64_t a_stage_bytes = 0;        // shared memory of A per stage (slab regions)
  uint64_t a_tx = 0, b_tx = 0;       // bytes the copies move per stage
  uint64_t expect_tx = 0;            // A + B, the stage's full barrier
  uint64_t b_stage_bytes = 0;
  uint32_t max_stages = 0;           // the largest count that fits
  uint32_t stages = 0;               // the request's, else max_stages
  std::vector<SmemBuffer> smem;      // A and B stages, epilogue, barriers, TMEM slots
  uint64_t smem_total = 0;
  uint32_t mmas = 0;                 // per stage: S x runs x K steps
  uint32_t runs_per_tap = 1;         // 1: the GEMM's MMA (M = BM); 4: ::w::128 with a halo, tcgen05.mma.ws M = 32 per run
  std::string mma;                   // the instruction
  uint32_t idesc = 0;                // its instruction descriptor
  bool idesc_valid = false;
  uint64_t rows_wide = 0, rows_im2col = 0;  // pixel rows loaded per stage and slab: this form, and .im2col for S taps
  uint64_t q_tiles = 0, m_tiles = 0, idle_pixels = 0;  // tiles per output row, all tiles, pixel slots past Q
};

struct ConvPlan {
  ConvRequest request;
  std::array<uint64_t, 3> out{};  // Q, P, O
  uint64_t gemm_m = 0, gemm_n = 0, gemm_k = 0;
  uint32_t channel_blocks = 0;    // ceil(C / BK) per tap
  std::vector<ConvTap> taps;
  std::string origin;             // the im2col coordinates of a tile's first pixel, in words
  std::string k_order;            // how k tile j maps to a tap and channels
  GemmPlan gemm;                  // maps[gemm.a.map] is the im2col map, maps[gemm.b.map] the filter map
  std::vector<std::string> notes;
  std::vector<WideForm> wide;     // targets with tcgen05: im2col::w and im2col::w::128
  bool valid = false;
};

void RunConvPlan(const ConvRequest& r, ConvPlan* out);

std::string RenderConvText(const ConvPlan& p);
std::string RenderConvJson(const ConvPlan& p, bool pretty = false);

}  // namespace tmapgen::plan

#endif  // TMAPGEN_SRC_PLAN_CONV_PLAN_H_
