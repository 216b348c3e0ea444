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
// - sm_100 im2col::w forms are not planned yet.
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

absl::Status CheckConvRequest(const ConvRequest& r);

struct ConvTap {
  std::array<uint32_t, 3> trs{};      // s, r, t
  std::array<uint32_t, 3> offsets{};  // the im2col offsets W, H, D
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
  bool valid = false;
};

void RunConvPlan(const ConvRequest& r, ConvPlan* out);

std::string RenderConvText(const ConvPlan& p);
std::string RenderConvJson(const ConvPlan& p, bool pretty = false);

}  // namespace tmapgen::plan

#endif  // TMAPGEN_SRC_PLAN_CONV_PLAN_H_
