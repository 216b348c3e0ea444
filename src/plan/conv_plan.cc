// conv_plan.cc: the implicit-GEMM forward convolution plan (conv_plan.h).
#include "src/plan/conv_plan.h"

#include <string>

#include "src/json/json_writer.h"
#include "src/plan/plan_render.h"
#include "src/util/strings.h"

namespace tmapgen::plan {

namespace {

absl::Status Bad(std::string_view field, std::string_view what) {
  return absl::InvalidArgumentError(StrCat(field, ": ", what));
}

const char* kDimName[3] = {"w", "h", "d"};
const char* kFilterName[3] = {"s", "r", "t"};

uint64_t OutExtent(const ConvRequest& r, int i) {
  const int64_t span = static_cast<int64_t>(r.in[i]) + 2 * int64_t{r.pad[i]} -
                       int64_t{r.dilation[i]} * (int64_t{r.filter[i]} - 1) - 1;
  return span < 0 ? 0 : static_cast<uint64_t>(span) / r.stride[i] + 1;
}

}  // namespace

absl::Status CheckConvRequest(const ConvRequest& r) {
  if (r.spatial != 2 && r.spatial != 3) return Bad("spatial", StrCat("expected 2 or 3, got ", r.spatial));
  if (r.n == 0) return Bad("n", "must be at least 1");
  if (r.c == 0) return Bad("c", "must be at least 1");
  if (r.k == 0) return Bad("k", "must be at least 1");
  for (int i = 0; i < r.spatial; ++i) {
    if (r.in[i] == 0) return Bad(kDimName[i], "must be at least 1");
    if (r.filter[i] == 0) return Bad(kFilterName[i], "must be at least 1");
    if (r.stride[i] == 0 || r.stride[i] > 8)
      return Bad("stride", StrCat(r.stride[i], " is outside 1..8 (the map's element strides, cuda.h)"));
    if (r.dilation[i] == 0) return Bad("dilation", "must be at least 1");
    if (OutExtent(r, i) == 0)
      return Bad(kFilterName[i], StrCat("the dilated filter (", r.dilation[i] * (r.filter[i] - 1) + 1, ") is larger than the ",
                                        "padded input (", r.in[i] + 2 * r.pad[i], ")"));
  }
  if (desc::IsSubByte(r.type)) return Bad("dtype", "sub-byte operands are not planned yet");
  if (r.bm == 0 || r.bm > 1024) return Bad("bm", StrCat(r.bm, " is outside 1..1024 (pixels per column)"));
  if (r.bn == 0 || r.bn > 256) return Bad("bn", StrCat(r.bn, " is outside 1..256"));
  if (r.bk == 0 || r.bk > 256) return Bad("bk", StrCat(r.bk, " is outside 1..256 (channels of one tap per K tile)"));
  if (r.stages > 64) return Bad("stages", StrCat(r.stages, " is more than 64"));  // as a GEMM's (CheckGemmRequest)
  if (!desc::TargetHasWgmma(r.target) && !desc::TargetHasTcgen05(r.target))
    return Bad("target", StrCat(Name(r.target), " has neither wgmma (sm_90a) nor tcgen05 (sm_100a family)"));
  if (r.cluster_m == 0 || r.cluster_n == 0 || uint64_t{r.cluster_m} * r.cluster_n > 16)
    return Bad("cluster", "1 to 16 CTAs per cluster");
  return absl::OkStatus();
}

void RunConvPlan(const ConvRequest& req, ConvPlan* out) {
  ConvPlan& p = *out;
  p = ConvPlan();
  p.request = req;
  const ConvRequest& r = p.request;
  const int ns = r.spatial;
  const int rank = ns + 2;
  const DataType t = OperandMapType(r.type);
  const uint64_t eb = static_cast<uint64_t>(DataTypeSmemBits(t)) / 8;
  uint64_t pixels = 1, taps = 1;
  for (int i = 0; i < ns; ++i) {
    p.out[static_cast<size_t>(i)] = OutExtent(r, i);
    pixels *= p.out[static_cast<size_t>(i)];
    taps *= r.filter[i];
  }
  p.channel_blocks = static_cast<uint32_t>((r.c + r.bk - 1) / r.bk);
  p.gemm_m = r.n * pixels;
  p.gemm_n = r.k;
  p.gemm_k = taps * r.c;

  // The swizzle of both operand tiles: BK channels per row.
  const desc::DescSwizzle sw = r.has_swizzle ? r.swizzle : WidestSwizzle(uint64_t{r.bk} * eb);
  const uint32_t slab_elems = static_cast<uint32_t>(desc::RowBytes(sw) / eb);

  GemmRequest g;
  g.m = p.gemm_m;
  g.n = p.gemm_n;
  g.k = uint64_t{p.channel_blocks} * r.bk * taps;  // the K loop: every tap's channel blocks
  g.a_type = g.b_type = r.type;
  g.d_type = r.out_type;
  g.bm = r.bm;
  g.bn = r.bn;
  g.bk = r.bk;
  g.stages = r.stages;
  g.cluster_m = r.cluster_m;
  g.cluster_n = r.cluster_n;
  g.multicast_b = r.multicast_b;
  g.mcast_issue = r.mcast_issue;
  g.target = r.target;
  g.has_swizzle_a = g.has_swizzle_b = true;
  g.swizzle_a = g.swizzle_b = sw;

  GemmOverrides ov;
  // The activations: im2col over NHWC (NDHWC).
  TensorMapSpec a;
  a.mode = Mode::kIm2col;
  a.data_type = t;
  a.rank = static_cast<uint32_t>(rank);
  a.global_dim = {r.c, 1, 1, 1, 1};
  for (int i = 0; i < ns; ++i) a.global_dim[static_cast<size_t>(i + 1)] = r.in[i];
  a.global_dim[static_cast<size_t>(ns + 1)] = r.n;
  uint64_t pitch = r.c * eb;
  for (int i = 0; i + 1 < rank; ++i) {
    a.global_strides[static_cast<size_t>(i)] = pitch;
    pitch *= a.global_dim[static_cast<size_t>(i + 1)];
  }
  a.element_strides = {1, 1, 1, 1, 1};
  for (int i = 0; i < ns; ++i) {
    a.element_strides[static_cast<size_t>(i + 1)] = r.stride[i];
    a.pixel_box_lower_corner[static_cast<size_t>(i)] = -static_cast<int32_t>(r.pad[i]);
    a.pixel_box_upper_corner[static_cast<size_t>(i)] =
        static_cast<int32_t>(r.pad[i]) - static_cast<int32_t>((r.filter[i] - 1) * r.dilation[i]);
  }
  a.channels_per_pixel = slab_elems;
  a.pixels_per_column = r.bm;
  a.swizzle = desc::MapSwizzleFor(sw);
  a.set_fields = kFieldMode | kFieldDataType | kFieldRank | kFieldGlobalDim | kFieldGlobalStrides | kFieldElementStrides |
                 kFieldSwizzle | kFieldLowerCorner | kFieldUpperCorner | kFieldChannelsPerPixel | kFieldPixelsPerColumn;
  ov.a.given = true;
  ov.a.spec = a;
  ov.a.coords = ns == 2 ? "{c0 + slab x " + std::to_string(slab_elems) + ", q x stride_w - pad_w, p x stride_h - pad_h, n}"
                        : "{c0 + slab x " + std::to_string(slab_elems) +
                              ", q x stride_w - pad_w, p x stride_h - pad_h, o x stride_d - pad_d, n}";
  ov.a.coords += ", im2col offsets of the tap";

  // The filter: KRSC (KTRSC) as a tiled map {C, S, R, (T,) K}.
  TensorMapSpec b;
  b.mode = Mode::kTiled;
  b.data_type = t;
  b.rank = static_cast<uint32_t>(rank);
  b.global_dim = {r.c, 1, 1, 1, 1};
  for (int i = 0; i < ns; ++i) b.global_dim[static_cast<size_t>(i + 1)] = r.filter[i];
  b.global_dim[static_cast<size_t>(ns + 1)] = r.k;
  pitch = r.c * eb;
  for (int i = 0; i + 1 < rank; ++i) {
    b.global_strides[static_cast<size_t>(i)] = pitch;
    pitch *= b.global_dim[static_cast<size_t>(i + 1)];
  }
  b.box_dim = {slab_elems, 1, 1, 1, 1};
  b.box_dim[static_cast<size_t>(ns + 1)] = r.bn;
  b.swizzle = a.swizzle;
  b.set_fields = kFieldMode | kFieldDataType | kFieldRank | kFieldGlobalDim | kFieldGlobalStrides | kFieldBoxDim |
                 kFieldSwizzle;
  ov.b.given = true;
  ov.b.spec = b;
  ov.b.coords = ns == 2 ? "{c0 + slab x " + std::to_string(slab_elems) + ", s, r, k0}"
                        : "{c0 + slab x " + std::to_string(slab_elems) + ", s, r, t, k0}";
  ov.b.strided_dim = static_cast<uint32_t>(ns + 1);

  RunGemmPlanWith(g, ov, &p.gemm);

  // The taps, in the K loop's order: t, then r, then s (CUTLASS walks the filter with S fastest, KRSC).
  const uint32_t tt = ns == 3 ? r.filter[2] : 1;
  for (uint32_t ti = 0; ti < tt; ++ti)
    for (uint32_t ri = 0; ri < r.filter[1]; ++ri)
      for (uint32_t si = 0; si < r.filter[0]; ++si) {
        ConvTap tap;
        tap.trs = {si, ri, ti};
        tap.offsets = {si * r.dilation[0], ri * r.dilation[1], ns == 3 ? ti * r.dilation[2] : 0};
        p.taps.push_back(tap);
      }
  p.origin = ns == 2 ? "output pixel m0 = (n x P + p) x Q + q: base point {c0, q x stride_w - pad_w, p x stride_h - pad_h, n}"
                     : "output pixel m0 = ((n x O + o) x P + p) x Q + q: base point {c0, q x stride_w - pad_w, "
                       "p x stride_h - pad_h, o x stride_d - pad_d, n}";
  p.k_order = StrCat("K tile j: tap j / ", p.channel_blocks, " (s fastest), channels c0 = (j % ", p.channel_blocks,
                     ") x ", r.bk, "; ", p.taps.size() * p.channel_blocks, " K tiles");

  // Offsets: 16 bits over the spatial dimensions (CUTLASS can_implement: (filter - 1) x dilation < 2^(16 / ns) - 1).
  const uint32_t offset_limit = (1u << (16 / ns)) - 1;
  for (int i = 0; i < ns; ++i) {
    const uint32_t last = (r.filter[i] - 1) * r.dilation[i];
    if (last >= offset_limit) {
      p.gemm.issues.push_back({"plan-conv-offset", Severity::kError, StrCat("dilation"),
                               StrCat("the last tap's im2col offset along ", kDimName[i], " is ", last, "; a rank-", rank,
                                      " im2col copy holds offsets below ", offset_limit),
                               "CUTLASS sm90_implicit_gemm_gmma_ss_warpspecialized.hpp can_implement (offset_limit)"});
      ++p.gemm.errors;
    }
  }
  // The edges of the K loop and of the pixels.
  EdgePlan& e = p.gemm.edges;
  e.k_tiles = p.taps.size() * p.channel_blocks;
  e.last_k = static_cast<uint32_t>(r.c - (p.channel_blocks - 1) * uint64_t{r.bk});
  if (e.last_k != r.bk)
    p.notes.push_back(StrCat("each tap's last channel block holds ", e.last_k, " of ", r.bk,
                             " channels: the rest loads as zeros from both maps (channels past C are outside both tensors)"));
  if (e.last_m != r.bm)
    p.notes.push_back(StrCat("the last M tile holds ", e.last_m, " output pixels: the walk carries past the last image and ",
                             "loads zeros; the D store skips the pixels past N x P x Q"));
  p.notes.push_back("padding needs no special case: base points and offsets outside the image load zeros "
                    "(the corners keep the walk inside the padded box)");
  p.valid = p.gemm.errors == 0;
  p.gemm.valid = p.valid;
}

std::string RenderConvText(const ConvPlan& p) {
  const ConvRequest& r = p.request;
  const int ns = r.spatial;
  std::string o = StrCat("convolution plan (forward, implicit GEMM): N ", r.n, ", C ", r.c, ", K ", r.k, ", input ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, r.in[i], i ? " x " : "");
  StrAppend(&o, " (", ns == 2 ? "H x W" : "D x H x W", "), filter ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, r.filter[i], i ? " x " : "");
  StrAppend(&o, ", pad ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, r.pad[i], i ? "," : "");
  StrAppend(&o, ", stride ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, r.stride[i], i ? "," : "");
  StrAppend(&o, ", dilation ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, r.dilation[i], i ? "," : "");
  StrAppend(&o, "\n  output ");
  for (int i = ns - 1; i >= 0; --i) StrAppend(&o, p.out[static_cast<size_t>(i)], i ? " x " : "");
  StrAppend(&o, "; GEMM M ", p.gemm_m, " (output pixels), N ", p.gemm_n, " (output channels), K ", p.gemm_k, " (",
            p.taps.size(), " taps x ", r.c, " channels)\n");
  StrAppend(&o, "  tile origin: ", p.origin, "\n  ", p.k_order, "\n  taps (im2col offsets W, H", ns == 3 ? ", D" : "", "):");
  for (size_t i = 0; i < p.taps.size(); ++i) {
    if (i == 32) {
      StrAppend(&o, " ... (", p.taps.size() - 32, " more)");
      break;
    }
    const ConvTap& t = p.taps[i];
    StrAppend(&o, " {", t.offsets[0], ",", t.offsets[1], ns == 3 ? StrCat(",", t.offsets[2]) : "", "}");
  }
  StrAppend(&o, "\n");
  for (const std::string& n : p.notes) StrAppend(&o, "  - ", n, "\n");
  StrAppend(&o, "\nthe equivalent GEMM (A = the im2col map, B = the filter map):\n");
  return o + RenderGemmText(p.gemm);
}

std::string RenderConvJson(const ConvPlan& p, bool pretty) {
  const ConvRequest& r = p.request;
  json::WriterOptions opt;
  opt.pretty = pretty;
  json::Writer w(opt);
  w.BeginObject();
  w.Key("plan").String("conv");
  w.Key("valid").Bool(p.valid);
  w.Key("spatial").Int(r.spatial);
  w.Key("n").Uint(r.n).Key("c").Uint(r.c).Key("k").Uint(r.k);
  auto arr3 = [&](const char* key, auto a) {
    w.Key(key).BeginArray();
    for (int i = 0; i < r.spatial; ++i) w.Uint(a[static_cast<size_t>(i)]);
    w.EndArray();
  };
  arr3("input_whd", r.in);
  arr3("filter_srt", r.filter);
  arr3("pad_whd", r.pad);
  arr3("stride_whd", r.stride);
  arr3("dilation_whd", r.dilation);
  arr3("output_qpo", p.out);
  w.Key("gemm_mnk").BeginArray().Uint(p.gemm_m).Uint(p.gemm_n).Uint(p.gemm_k).EndArray();
  w.Key("channel_blocks").Uint(p.channel_blocks);
  w.Key("origin").String(p.origin);
  w.Key("k_order").String(p.k_order);
  w.Key("taps").BeginArray();
  for (const ConvTap& t : p.taps) {
    w.BeginObject();
    w.Key("srt").BeginArray();
    for (int i = 0; i < r.spatial; ++i) w.Uint(t.trs[static_cast<size_t>(i)]);
    w.EndArray();
    w.Key("offsets").BeginArray();
    for (int i = 0; i < r.spatial; ++i) w.Uint(t.offsets[static_cast<size_t>(i)]);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes").BeginArray();
  for (const std::string& n : p.notes) w.String(n);
  w.EndArray();
  w.Key("gemm").Null();
  w.EndObject();
  // The GEMM report in place of the null (the last "null": every string before it is quoted).
  std::string s = w.str();
  std::string g = RenderGemmJson(p.gemm, pretty);
  g.pop_back();
  s.replace(s.rfind("null"), 4, g);
  return s + "\n";
}

}  // namespace tmapgen::plan
