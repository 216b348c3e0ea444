// conv_plan.cc: the implicit-GEMM forward convolution plan (conv_plan.h).
#include "src/plan/conv_plan.h"

#include <algorithm>
#include <string>

#include "src/desc/desc_render.h"
#include "src/json/json_writer.h"
#include "src/report/diagnostics.h"
#include "src/schema/spec_json.h"
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


uint64_t CeilDivU(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

std::string Hex(uint64_t v) { return StrCat("0x", absl::Hex(v)); }

std::vector<std::string> SpecMessages(const TensorMapSpec& spec, const Validation& v) {
  std::vector<std::string> out;
  for (const Diagnostic& d : MakeDiagnostics(spec, v))
    out.push_back(StrCat(Name(d.severity), "[", d.rule, "] ", d.field, ": ", d.message));
  return out;
}

PlannedMap MakeMap(TensorMapSpec spec, std::string operand, std::string coords) {
  PlannedMap m;
  m.name = spec.name;
  m.operand = std::move(operand);
  m.coords = std::move(coords);
  m.spec = std::move(spec);
  Validate(m.spec, &m.validation);
  m.messages = SpecMessages(m.spec, m.validation);
  return m;
}

uint64_t SmemOffsetOf(const GemmPlan& g, const std::string& name) {
  for (const SmemBuffer& b : g.smem)
    if (b.name == name) return b.offset;
  return 0;
}

// The descriptors of tap `tap`: for each of its row runs (the one run from tap.row; ::w::128 with a halo: four), every
// K step, checked by the descriptor rules.
void WideDescriptors(const ConvPlan& p, const WideForm& f, WideTap* tap) {
  std::vector<uint32_t> rows = tap->runs;
  if (rows.empty() || f.runs_per_tap == 1) rows = {tap->row};
  const GemmPlan& g = p.gemm;
  const WideBuffer& b = f.buffers[tap->buffer];
  desc::OperandLayout l = g.a.layout;
  l.mn = b.rows_padded;  // the slab region: slab i starts i x rows_padded rows later
  l.smem_address = SmemOffsetOf(g, "A[0]") + b.smem_offset;
  const desc::LayoutFacts facts = desc::ComputeLayoutFacts(l);
  const desc::SmemDesc base = desc::BuildSmemDesc(l, facts);
  // Warnings repeat for every K step of a tap: step 0's are shown, and any error.
  for (uint32_t row : rows)
    for (uint32_t k = 0; k < facts.k_slices; ++k)
      tap->steps.push_back(PlanKStep(l, facts, base, p.request.target, row, k, nullptr, k == 0 && row == rows[0]));
}

// One sm_100 form (conv_plan.h): its map, buffers, taps, stage and why it applies or not.
WideForm PlanWide(const ConvPlan& p, Mode mode) {
  const ConvRequest& r = p.request;
  const GemmPlan& g = p.gemm;
  const int ns = r.spatial;
  const bool w128 = mode == Mode::kIm2colW128;
  WideForm f;
  f.mode = mode;
  f.name = w128 ? "im2col::w::128" : "im2col::w";
  f.applies = true;
  auto fail = [&](std::string why) {
    f.applies = false;
    f.why.push_back(StrCat("does not apply: ", why));
  };
  const uint32_t eb = static_cast<uint32_t>(DataTypeSmemBits(OperandMapType(r.type)) / 8);
  const desc::DescSwizzle sw = g.a.swizzle;
  const uint32_t row_pitch = sw == desc::DescSwizzle::kNone ? 16u : static_cast<uint32_t>(desc::RowBytes(sw));
  const uint32_t repeat_rows = std::max<uint32_t>(1, g.a.repeat / row_pitch);
  f.slabs = g.a.slabs;
  f.slab_elems = g.a.slab_elems;
  f.pixels = w128 ? 128u : r.bm;

  f.why.push_back(StrCat(".", f.name, " needs an sm_100a-family target (PTX ISA 9.2 section 9.7.9.25.5.2: sm_100a from PTX 8.6, "
                         "sm_100f from 8.8); ", Name(r.target), " has it"));
  if (sw != desc::DescSwizzle::k64B && sw != desc::DescSwizzle::k128B && sw != desc::DescSwizzle::k128BAtom32B)
    fail(StrCat("the channel slab's swizzle is ", desc::Name(sw), "; cuTensorMapEncodeIm2colWide takes SWIZZLE_64B, "
                "SWIZZLE_128B or SWIZZLE_128B_ATOM_32B only (cuda.h; PTX ISA 5.5.5: a swizzle is required)"));
  if (w128 && r.bm != 128)
    fail(StrCat("BM is ", r.bm, "; .im2col::w::128 always loads 128 pixels (PTX ISA 5.5.5.1)"));
  if (r.pad[0] > 32767)
    fail(StrCat("pad_w ", r.pad[0], " does not fit the W corners' [-32768, 32767] (cuda.h cuTensorMapEncodeIm2colWide)"));

  // The taps of one W phase share a buffer (conv_plan.h).
  const uint32_t u = r.stride[0];
  std::vector<uint32_t> phase_of_buffer;
  for (uint32_t si = 0; si < r.filter[0]; ++si) {
    const uint32_t off = si * r.dilation[0];
    const uint32_t phase = off % u, j = off / u;
    uint32_t b = 0;
    while (b < phase_of_buffer.size() && phase_of_buffer[b] != phase) ++b;
    if (b == phase_of_buffer.size()) {
      phase_of_buffer.push_back(phase);
      WideBuffer nb;
      nb.w_offset = phase;
      f.buffers.push_back(nb);
    }
    f.buffers[b].w_halo = std::max(f.buffers[b].w_halo, j);
    WideTap t;
    t.s = si;
    t.buffer = b;
    t.row = j;
    f.taps.push_back(t);
  }
  // Buffers in phase order (the taps keep their buffer through the permutation).
  std::vector<uint32_t> order(f.buffers.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return f.buffers[a].w_offset < f.buffers[b].w_offset; });
  std::vector<WideBuffer> sorted;
  std::vector<uint32_t> new_index(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = i;
    sorted.push_back(f.buffers[order[i]]);
  }
  f.buffers = sorted;
  for (WideTap& t : f.taps) t.buffer = new_index[t.buffer];

  const uint32_t halo_limit = w128 ? 32u : 512u;
  uint64_t offset = 0;
  for (WideBuffer& b : f.buffers) {
    if (b.w_halo >= halo_limit)
      fail(StrCat("wOffset ", b.w_offset, "'s taps need wHalo ", b.w_halo, "; .", f.name, " takes wHalo below ", halo_limit,
                  " (PTX ISA 9.2 section 9.7.9.25.5.2, im2colInfo)"));
    b.rows = w128 ? 128u + 4u * b.w_halo : r.bm + b.w_halo;
    b.rows_padded = static_cast<uint32_t>(CeilDivU(b.rows, repeat_rows) * repeat_rows);
    b.smem_offset = offset;
    b.copy_bytes = uint64_t{b.rows} * f.slab_elems * eb;
    offset += uint64_t{f.slabs} * b.rows_padded * row_pitch;
    f.rows_wide += b.rows;
  }
  f.slab_pitch = 0;  // per buffer: rows_padded x row pitch
  f.a_stage_bytes = offset;
  f.rows_im2col = uint64_t{r.filter[0]} * r.bm;
  for (WideTap& t : f.taps) {
    const WideBuffer& b = f.buffers[t.buffer];
    t.start_offset = b.smem_offset + uint64_t{t.row} * row_pitch;
    if (w128)
      for (uint32_t gi = 0; gi < 4; ++gi) t.runs.push_back(gi * (32u + b.w_halo) + t.row);
  }
  f.why.push_back(StrCat("wOffset < 32: the phases are below stride_w (", u, "), at most 8 (PTX ISA 9.7.9.25.5.2)"));

  // The map: the .im2col map's tensor, W corners of the padded row, pixels per column = BM (ignored by ::w::128).
  TensorMapSpec a = g.maps[g.a.map].spec;
  a.name = w128 ? "A_w128" : "A_w";
  a.mode = mode;
  a.wide_mode = w128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  a.pixel_box_lower_corner = {};
  a.pixel_box_upper_corner = {};
  a.pixel_box_lower_corner_width = -static_cast<int32_t>(std::min<uint32_t>(r.pad[0], 32768));
  a.pixel_box_upper_corner_width = static_cast<int32_t>(std::min<uint32_t>(r.pad[0], 32767));
  a.pixels_per_column = w128 ? 128u : r.bm;
  a.direction = Direction::kLoadCta;
  a.set_fields &= ~(kFieldLowerCorner | kFieldUpperCorner);
  a.set_fields |= kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode | kFieldDirection;
  std::string c = StrCat("{c0 + slab x ", f.slab_elems, ", q0 x stride_w - pad_w, p x stride_h - pad_h + r x dilation_h");
  if (ns == 3) StrAppend(&c, ", o x stride_d - pad_d + t x dilation_d");
  StrAppend(&c, ", n}, wHalo and wOffset of the buffer");
  f.coords = c;
  f.map = MakeMap(a, "A", c);
  if (!f.map.validation.valid) fail("the map breaks a tensor-map rule (below)");

  // The output store, clipped at the end of every output row: {K, Q, P, (O,) N}.
  if (g.d_map >= 0) {
    TensorMapSpec d = g.maps[static_cast<size_t>(g.d_map)].spec;
    const uint64_t deb = static_cast<uint64_t>(DataTypeSmemBits(d.data_type)) / 8;
    d.name = "D_rows";
    d.rank = static_cast<uint32_t>(ns + 2);
    d.global_dim = {r.k, p.out[0], p.out[1], ns == 3 ? p.out[2] : r.n, ns == 3 ? r.n : 1};
    uint64_t pitch = r.k * deb;
    for (int i = 0; i + 1 < ns + 2; ++i) {
      d.global_strides[static_cast<size_t>(i)] = pitch;
      pitch *= d.global_dim[static_cast<size_t>(i + 1)];
    }
    const uint32_t box0 = d.box_dim[0];
    d.box_dim = {box0, std::min<uint32_t>(r.bm, 256), 1, 1, 1};
    d.element_strides = {1, 1, 1, 1, 1};
    std::string dc = ns == 2 ? "{k0 + slab x " : "{k0 + slab x ";
    StrAppend(&dc, box0, ", q0, p, ", ns == 3 ? "o, " : "", "n}");
    f.d_map = MakeMap(d, "D", dc);
    if (!f.d_map.validation.valid) fail("the row-clipped output map breaks a tensor-map rule (below)");
    if (r.bm > 256) f.why.push_back(StrCat("the output store takes ", CeilDivU(r.bm, 256), " copies of 256 pixels (box limit)"));
  }

  // The stage: a filter row (t, r) and a channel block, all S taps.
  const uint64_t taps_tr = (ns == 3 ? r.filter[2] : 1u) * uint64_t{r.filter[1]};
  f.k_iterations = static_cast<uint32_t>(taps_tr * p.channel_blocks);
  f.copies_a = static_cast<uint32_t>(f.buffers.size()) * f.slabs;
  f.copies_b = r.filter[0] * g.b.slabs;
  for (const WideBuffer& b : f.buffers) f.a_tx += uint64_t{f.slabs} * b.copy_bytes;
  f.b_stage_bytes = uint64_t{r.filter[0]} * g.b.stage_bytes;
  f.b_tx = f.b_stage_bytes;
  f.expect_tx = f.a_tx + f.b_tx;
  // Shared memory as the GEMM plan lays it out (CUTLASS's TensorStorage order): every stage of A, every stage of B,
  // the epilogue, the barriers, the tensor-memory slots; as many stages as fit.
  auto lay_out = [&](uint32_t stages, std::vector<SmemBuffer>* out) {
    uint64_t at = 0;
    auto put = [&](std::string name, uint64_t bytes, uint32_t align) {
      at = CeilDivU(at, align) * align;
      if (out) out->push_back({std::move(name), at, bytes, align, ""});
      at += bytes;
    };
    for (uint32_t st = 0; st < stages; ++st) put(StrCat("A[", st, "]"), f.a_stage_bytes, g.a.repeat);
    for (uint32_t st = 0; st < stages; ++st) put(StrCat("B[", st, "]"), f.b_stage_bytes, g.b.repeat);
    for (const SmemBuffer& b : g.smem)
      if (b.name == "C" || b.name == "D") put(b.name, b.bytes, b.alignment);
    for (uint32_t st = 0; st < stages; ++st) put(StrCat("full_barrier[", st, "]"), 8, 8);
    for (uint32_t st = 0; st < stages; ++st) put(StrCat("empty_barrier[", st, "]"), 8, 8);
    for (const SmemBuffer& b : g.smem)
      if (b.name == "tmem_full_barrier" || b.name == "tmem_address") put(b.name, b.bytes, b.alignment);
    return at;
  };
  f.max_stages = 0;
  for (uint32_t st = 1; st <= 64 && lay_out(st, nullptr) <= g.smem_limit; ++st) f.max_stages = st;
  f.stages = r.stages != 0 ? r.stages : f.max_stages;
  f.smem_total = lay_out(f.stages, &f.smem);
  if (f.max_stages == 0)
    fail(StrCat("one stage (A ", f.a_stage_bytes, " B + B ", f.b_stage_bytes, " B) does not fit ", Name(r.target),
                "'s shared memory beside the epilogue"));
  else if (f.stages == 1)
    f.why.push_back("one stage: the copies of a stage and its MMAs do not overlap (as the GEMM's plan-one-stage)");
  if (f.max_stages != 0 && f.smem_total > g.smem_limit)
    fail(StrCat(f.stages, " stages need ", f.smem_total, " B; ", Name(r.target), " allows ", g.smem_limit, " per block"));

  // The M tiles: BM pixels of one output row.
  uint64_t rows_out = r.n * p.out[1] * (ns == 3 ? p.out[2] : 1);
  f.q_tiles = CeilDivU(p.out[0], r.bm);
  f.m_tiles = rows_out * f.q_tiles;
  f.idle_pixels = f.m_tiles * r.bm - rows_out * p.out[0];

  if (f.q_tiles * r.bm > p.out[0])
    f.why.push_back(StrCat("an output row of Q = ", p.out[0], " pixels fills ", p.out[0], " of the ", f.q_tiles * r.bm,
                           " pixel slots of its ", f.q_tiles, " tile(s): the rest are loaded and not stored"));
  // The MMA: the GEMM's (M = BM) when every tap's pixels are BM consecutive rows; for ::w::128 with a halo they are
  // four runs of 32 rows, 32 + wHalo apart, and one descriptor walks 8-row groups at a single stride (SBO), so each
  // run is one tcgen05.mma.ws of M = 32 (PTX ISA 9.2 Table 39: .ws, cta_group 1, 32xNxK with N 64, 128, 256).
  f.runs_per_tap = 1;
  f.mma = g.mma.instruction;
  f.idesc = g.mma.idesc;
  f.idesc_valid = g.mma.idesc_validation.valid;
  if (w128)
    for (const WideBuffer& b : f.buffers)
      if (b.w_halo != 0) f.runs_per_tap = 4;
  if (f.runs_per_tap == 4) {
    desc::IdescSpec is;
    is.kind = r.type == desc::ElemType::kTF32 ? desc::MmaKind::kTf32
              : desc::IsInt8(r.type)          ? desc::MmaKind::kI8
              : (r.type == desc::ElemType::kF16 || r.type == desc::ElemType::kBF16) ? desc::MmaKind::kF16
                                                                                      : desc::MmaKind::kF8f6f4;
    is.ws = true;
    is.a_type = is.b_type = r.type;
    is.d_type = desc::IsInt8(r.type) ? desc::DType::kS32 : desc::DType::kF32;
    is.m = 32;
    is.n = r.bn;
    is.has_target = true;
    is.target = r.target;
    desc::IdescCheck c;
    c.spec = is;
    f.idesc = desc::EncodeIdesc(is);
    c.fields = desc::DecodeIdescFields(f.idesc, is.kind);
    desc::DescValidation v;
    desc::ValidateIdesc(c, &v);
    f.idesc_valid = v.valid;
    f.mma = StrCat("tcgen05.mma.ws.cta_group::1.kind::", desc::Name(is.kind), " M 32 N ", r.bn, " K ", desc::InstrK(is),
                   ", one per run of 32 pixels");
    f.why.push_back("a tap's pixels are four runs of 32 rows, 32 + wHalo rows apart: one descriptor walks 8-row groups "
                    "at a single stride (SBO), so each run is its own tcgen05.mma.ws of M = 32 (PTX ISA 9.2 Table 39: "
                    ".ws, cta_group 1, 32xNxK, N 64, 128 or 256); the accumulator's place in tensor memory per run is "
                    "the kernel's (not planned)");
    if (!v.valid) {
      desc::DescContext ctx;
      ctx.idesc = &c;
      for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, v))
        if (d.severity == Severity::kError) fail(StrCat("the M = 32 .ws instruction descriptor: ", d.rule, ": ", d.message));
    }
  }
  f.mmas = r.filter[0] * f.runs_per_tap * g.mma.k_steps;
  if (f.applies) {
    for (WideTap& t : f.taps) WideDescriptors(p, f, &t);
    for (const WideTap& t : f.taps)
      for (const KStepDesc& d : t.steps)
        if (!d.validation.valid) {
          fail(StrCat("tap s = ", t.s, "'s descriptor breaks a descriptor rule (below)"));
          break;
        }
  }
  if (f.applies)
    f.why.push_back(StrCat("applies: ", f.buffers.size(), " buffer(s) hold the S = ", r.filter[0], " taps' pixels; ", f.rows_wide,
                           " pixel rows per stage and slab where .im2col loads ", f.rows_im2col, " (", r.filter[0], " x ",
                           r.bm, ")"));
  return f;
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
  // A plan lists every tap. No valid plan has more than 65,025 (a tap's im2col offset stays below 255 in 2D,
  // 31 in 3D: RunConvPlan's offset check), so a larger filter is refused before any work (a 255^3 filter
  // took 11 s and 4 GB to list), with the bound tmapd applies to PlanConv by default.
  uint64_t taps = 1;
  int widest = 0;
  for (int i = 0; i < r.spatial; ++i) {
    taps *= r.filter[i];
    if (r.filter[i] > r.filter[widest]) widest = i;
  }
  if (taps > kMaxConvTaps)
    return Bad(kFilterName[widest], StrCat("the filter has ", taps, " taps; a plan lists every tap and takes at most ",
                                           kMaxConvTaps, " (no valid plan has more: im2col offsets stay below 255 in 2D, "
                                           "31 in 3D)"));
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
  if (desc::TargetHasTcgen05(r.target)) {
    p.notes.push_back("the GEMM uses .im2col, as CUTLASS's sm100 collectives do for every filter and stride "
                      "(conv/collective/builders/sm100_common.inl: SM90_TMA_LOAD_IM2COL(_MULTICAST), "
                      "SM100_TMA_2SM_LOAD_IM2COL(_MULTICAST)); the im2col::w forms below are the alternatives");
    p.wide.push_back(PlanWide(p, Mode::kIm2colW));
    p.wide.push_back(PlanWide(p, Mode::kIm2colW128));
  }
}

namespace {

std::string WideMapText(const PlannedMap& m) {
  const TensorMapSpec& s = m.spec;
  std::string o = StrCat("  ", m.name, ": ", Name(s.direction), " ", ShortName(s.data_type), " dims [");
  for (uint32_t i = 0; i < s.rank; ++i) StrAppend(&o, i ? ", " : "", s.global_dim[i]);
  StrAppend(&o, "] row pitch ", s.global_strides[0], " B, ");
  if (s.mode == Mode::kTiled) {
    StrAppend(&o, "box [");
    for (uint32_t i = 0; i < s.rank; ++i) StrAppend(&o, i ? ", " : "", s.box_dim[i]);
    StrAppend(&o, "]");
  } else {
    StrAppend(&o, Name(s.mode), " ", s.channels_per_pixel, " channels x ", s.pixels_per_column, " pixels, W stride ",
              s.element_strides[1], ", W corners lower ", s.pixel_box_lower_corner_width, " upper ",
              s.pixel_box_upper_corner_width);
  }
  StrAppend(&o, ", swizzle ", ShortName(s.swizzle), ", coords ", m.coords, "  ", m.validation.valid ? "valid" : "INVALID", "\n");
  for (const std::string& msg : m.messages) StrAppend(&o, "      ", msg, "\n");
  return o;
}

std::string RenderWideText(const ConvPlan& p) {
  const ConvRequest& r = p.request;
  std::string o = StrCat("\nsm_100 forms: im2col::w and im2col::w::128 (beside the GEMM's .im2col map; PTX ISA 9.2 section 5.5.5)\n");
  StrAppend(&o, "  a tile: BM pixels of one output row from q0 (tiles per row ceil(Q / BM)); a stage: one filter row (",
            r.spatial == 3 ? "t, " : "", "r) and one channel block, all S taps\n");
  for (const WideForm& f : p.wide) {
    StrAppend(&o, "\n", f.name, ": ", f.applies ? "applies" : "does not apply", "\n");
    for (const std::string& w : f.why) StrAppend(&o, "  - ", w, "\n");
    o += WideMapText(f.map);
    if (!f.d_map.name.empty()) o += WideMapText(f.d_map);
    StrAppend(&o, "  per stage: ", f.copies_a, " A copies (", f.a_tx, " B) + ", f.copies_b, " B copies (", f.b_tx,
              " B); expect_tx ", f.expect_tx, " B; shared memory A ", f.a_stage_bytes, " B + B ", f.b_stage_bytes, " B; ",
              f.mmas, " MMAs (S x runs x K steps); ", f.k_iterations, " stages per tile\n");
    StrAppend(&o, "  shared memory: stages ", f.stages, " (at most ", f.max_stages, " fit), total ", f.smem_total, " B of ",
              p.gemm.smem_limit, ":");
    for (const SmemBuffer& b : f.smem)
      if (b.name.find('[') == std::string::npos || b.name.find("[0]") != std::string::npos)
        StrAppend(&o, " ", b.name, " ", Hex(b.offset));
    StrAppend(&o, "\n");
    StrAppend(&o, "  MMA: ", f.mma, ", instruction descriptor ", Hex(f.idesc), f.idesc_valid ? "" : " INVALID", "\n");
    StrAppend(&o, "  tiles: ", f.q_tiles, " per output row, ", f.m_tiles, " along M, ", f.idle_pixels, " pixel slots past Q (loaded, not stored)\n");
    for (size_t i = 0; i < f.buffers.size(); ++i) {
      const WideBuffer& b = f.buffers[i];
      StrAppend(&o, "  buffer ", i, ": wOffset ", b.w_offset, ", wHalo ", b.w_halo, "; ", b.rows, " pixels (", b.rows_padded,
                " rows in shared memory) per slab, +", Hex(b.smem_offset), ", ", b.copy_bytes, " B per copy\n");
    }
    for (const WideTap& t : f.taps) {
      StrAppend(&o, "  tap s ", t.s, ": buffer ", t.buffer, ", rows from ", t.row, ", start +", Hex(t.start_offset));
      if (f.runs_per_tap == 4) {
        StrAppend(&o, ", runs of 32 from rows");
        for (uint32_t run : t.runs) StrAppend(&o, " ", run);
      }
      for (const KStepDesc& d : t.steps)
        StrAppend(&o, "\n      ", f.runs_per_tap == 4 ? StrCat("row ", d.mn_offset, " ") : "", "k ", d.k_step, "  ", Hex(d.desc.bits()), "  start ", Hex(d.start_offset), "  base ", d.base_offset, "  ",
                  d.validation.valid ? "ok" : "INVALID");
      StrAppend(&o, "\n");
      for (const KStepDesc& d : t.steps)
        for (const std::string& m : d.messages) StrAppend(&o, "      ", m, "\n");
    }
  }
  return o;
}

void WriteWideMapJson(const PlannedMap& m, json::Writer* w) {
  w->BeginObject();
  w->Key("name").String(m.name);
  w->Key("coords").String(m.coords);
  w->Key("valid").Bool(m.validation.valid);
  w->Key("transaction_bytes").Uint(m.validation.facts.transaction_bytes);
  w->Key("messages").BeginArray();
  for (const std::string& s : m.messages) w->String(s);
  w->EndArray();
  w->Key("spec");
  WriteSpecJson(m.spec, w);
  w->EndObject();
}

void WriteWideJson(const ConvPlan& p, json::Writer* w) {
  w->Key("wide_forms").BeginArray();
  for (const WideForm& f : p.wide) {
    w->BeginObject();
    w->Key("mode").String(f.name);
    w->Key("applies").Bool(f.applies);
    w->Key("why").BeginArray();
    for (const std::string& s : f.why) w->String(s);
    w->EndArray();
    w->Key("map");
    WriteWideMapJson(f.map, w);
    if (!f.d_map.name.empty()) {
      w->Key("d_map");
      WriteWideMapJson(f.d_map, w);
    }
    w->Key("pixels").Uint(f.pixels).Key("slabs").Uint(f.slabs).Key("channels_per_pixel").Uint(f.slab_elems);
    w->Key("buffers").BeginArray();
    for (const WideBuffer& b : f.buffers) {
      w->BeginObject();
      w->Key("w_offset").Uint(b.w_offset).Key("w_halo").Uint(b.w_halo).Key("rows").Uint(b.rows);
      w->Key("rows_padded").Uint(b.rows_padded).Key("smem_offset").Uint(b.smem_offset).Key("copy_bytes").Uint(b.copy_bytes);
      w->EndObject();
    }
    w->EndArray();
    w->Key("taps").BeginArray();
    for (const WideTap& t : f.taps) {
      w->BeginObject();
      w->Key("s").Uint(t.s).Key("buffer").Uint(t.buffer).Key("row").Uint(t.row).Key("start_offset").Uint(t.start_offset);
      if (f.runs_per_tap == 4) {
        w->Key("runs").BeginArray();
        for (uint32_t run : t.runs) w->Uint(run);
        w->EndArray();
      }
      w->Key("steps").BeginArray();
      for (const KStepDesc& d : t.steps) {
        w->BeginObject();
        w->Key("k_step").Uint(d.k_step).Key("row").Uint(d.mn_offset).Key("desc").String(Hex(d.desc.bits())).Key("start").Uint(d.start_offset);
        w->Key("base_offset").Uint(d.base_offset).Key("valid").Bool(d.validation.valid);
        w->Key("messages").BeginArray();
        for (const std::string& m : d.messages) w->String(m);
        w->EndArray();
        w->EndObject();
      }
      w->EndArray();
      w->EndObject();
    }
    w->EndArray();
    w->Key("stage").BeginObject();
    w->Key("k_iterations").Uint(f.k_iterations).Key("copies_a").Uint(f.copies_a).Key("copies_b").Uint(f.copies_b);
    w->Key("a_bytes").Uint(f.a_tx).Key("b_bytes").Uint(f.b_tx).Key("expect_tx").Uint(f.expect_tx);
    w->Key("smem_a").Uint(f.a_stage_bytes).Key("smem_b").Uint(f.b_stage_bytes).Key("max_stages").Uint(f.max_stages);
    w->Key("stages").Uint(f.stages).Key("smem_total").Uint(f.smem_total);
    w->Key("mmas").Uint(f.mmas).Key("runs_per_tap").Uint(f.runs_per_tap);
    w->Key("mma").String(f.mma).Key("idesc").String(Hex(f.idesc)).Key("idesc_valid").Bool(f.idesc_valid);
    w->EndObject();
    w->Key("smem").BeginArray();
    for (const SmemBuffer& b : f.smem) {
      w->BeginObject();
      w->Key("name").String(b.name).Key("offset").Uint(b.offset).Key("bytes").Uint(b.bytes).Key("alignment").Uint(b.alignment);
      w->EndObject();
    }
    w->EndArray();
    w->Key("rows_per_slab").BeginObject().Key("wide").Uint(f.rows_wide).Key("im2col").Uint(f.rows_im2col).EndObject();
    w->Key("tiles").BeginObject().Key("per_output_row").Uint(f.q_tiles).Key("m").Uint(f.m_tiles);
    w->Key("idle_pixels").Uint(f.idle_pixels).EndObject();
    w->EndObject();
  }
  w->EndArray();
}

}  // namespace

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
  o += RenderGemmText(p.gemm);
  if (!p.wide.empty()) o += RenderWideText(p);
  return o;
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
  if (!p.wide.empty()) WriteWideJson(p, &w);
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
