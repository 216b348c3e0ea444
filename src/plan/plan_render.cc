// plan_render.cc: text and JSON reports of a GEMM plan.
#include "src/plan/plan_render.h"

#include <string>

#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"

namespace tmapgen::plan {

namespace {

std::string Hex(uint64_t v) { return StrCat("0x", absl::Hex(v)); }

std::string Dims(const TensorMapSpec& s) {
  std::string o = "[";
  for (uint32_t i = 0; i < s.rank; ++i) StrAppend(&o, i ? ", " : "", s.global_dim[i]);
  return o + "]";
}
std::string Box(const TensorMapSpec& s) {
  std::string o = "[";
  for (uint32_t i = 0; i < s.rank; ++i) StrAppend(&o, i ? ", " : "", s.box_dim[i]);
  return o + "]";
}

std::string MajorText(desc::Major m, bool is_a) {
  if (m == desc::Major::kK) return is_a ? "K-major (row-major M x K)" : "K-major (B stored N x K)";
  return is_a ? "MN-major (column-major: M contiguous)" : "MN-major (N contiguous: B stored K x N)";
}

std::string Mask(uint16_t m) { return m == 0 ? std::string("-") : StrCat("0x", absl::Hex(m)); }

void OperandDescText(const GemmPlan& p, const OperandPlan& o, std::string* out) {
  StrAppend(out, "  ", o.name, ": ", desc::Name(o.type), " ", desc::Name(o.major), "-major, swizzle ", desc::Name(o.swizzle),
            o.swizzle_chosen ? " (widest that fits)" : "", ", LBO ", o.facts.lbo, " B", o.facts.lbo_used ? "" : " (unused)",
            ", SBO ", o.facts.sbo, " B, ", o.facts.k_slices, " K steps of ", o.facts.mma_k, " (",
            o.major == desc::Major::kK ? StrCat(o.facts.kstep_bytes, " B along each row") : StrCat(o.facts.kstep_rows, " rows"),
            ")\n");
  StrAppend(out, "     CuTe: ", o.cute_swizzle, "; stage s adds s x ", o.name == "A" ? p.a_stage_stride : p.b_stage_stride,
            " B to the start address\n");
  for (const KStepDesc& k : o.steps) {
    StrAppend(out, "     k ", k.k_step, (o.name == "A" && p.arch == desc::DescArch::kWgmma) ? StrCat(" m+", k.mn_offset) : "",
              "  ", Hex(k.desc.bits()), "  start ", Hex(k.start_offset), "  base ", k.base_offset, "  ",
              k.validation.errors ? "INVALID" : "ok", "\n");
    for (const std::string& m : k.messages) StrAppend(out, "         ", m, "\n");
  }
}

void CopyText(const GemmPlan& p, const PlannedCopy& c, std::string* out) {
  const PlannedMap& m = p.maps[c.map];
  StrAppend(out, "      ", m.name, " slab ", c.slab, ": coords +{", c.coord0_offset, ", ", c.coord1_offset, "}, smem +",
            Hex(c.smem_offset), ", ", c.bytes, " B", c.mask ? StrCat(", .multicast::cluster ctaMask ", Mask(c.mask)) : "",
            c.to_leader_barrier ? ", .cta_group::2 (signals the even CTA's barrier)" : "", "\n");
}

}  // namespace

std::string RenderGemmText(const GemmPlan& p) {
  const GemmRequest& r = p.request;
  std::string o;
  StrAppend(&o, "GEMM plan: D = A x B", r.has_c ? " + C" : "", ", M ", r.m, ", N ", r.n, ", K ", r.k, ", ", Name(r.target),
            " (", desc::Name(p.arch), p.arch == desc::DescArch::kTcgen05 ? StrCat(", cta_group ", r.cta_group, "; modelled, not run") : "",
            ")\n");
  StrAppend(&o, "  A ", desc::Name(r.a_type), " ", MajorText(r.a_major, true), "; B ", desc::Name(r.b_type), " ",
            MajorText(r.b_major, false), "\n");
  StrAppend(&o, "  D ", ShortName(r.d_type), " ", Name(r.cd_layout), "-major", r.has_c ? StrCat(", C ", ShortName(r.c_type)) : "",
            ", accumulator ", desc::Name(r.accumulator), "\n");
  StrAppend(&o, "  tile ", r.bm, " x ", r.bn, " x ", r.bk, " per CTA, cluster ", r.cluster_m, " x ", r.cluster_n);
  if (r.multicast_a || r.multicast_b)
    StrAppend(&o, ", multicast ", r.multicast_a ? "A" : "", r.multicast_a && r.multicast_b ? "+" : "", r.multicast_b ? "B" : "",
              " (", Name(r.mcast_issue), ")");
  StrAppend(&o, "\n");
  StrAppend(&o, "verdict: ", p.valid ? "valid" : "INVALID", " (", p.errors, " errors, ", p.warnings, " warnings)\n");

  StrAppend(&o, "\nmaps (each validated for ", Name(r.target), ")\n");
  for (const PlannedMap& m : p.maps) {
    const TensorMapSpec& s = m.spec;
    std::string shape;
    if (s.mode == Mode::kTiled) {
      shape = StrCat("box ", Box(s));
    } else {
      shape = StrCat(Name(s.mode), " ", s.channels_per_pixel, " channels x ", s.pixels_per_column, " pixels, element strides [");
      for (uint32_t i = 0; i < s.rank; ++i) StrAppend(&shape, i ? ", " : "", s.element_strides[i]);
      StrAppend(&shape, "], corners lower {");
      for (uint32_t i = 0; i + 2 < s.rank; ++i) StrAppend(&shape, i ? ", " : "", s.pixel_box_lower_corner[i]);
      StrAppend(&shape, "} upper {");
      for (uint32_t i = 0; i + 2 < s.rank; ++i) StrAppend(&shape, i ? ", " : "", s.pixel_box_upper_corner[i]);
      StrAppend(&shape, "}");
    }
    StrAppend(&o, "  ", m.name, ": ", Name(s.direction), " ", ShortName(s.data_type), " dims ", Dims(s), " row pitch ",
              s.global_strides[0], " B, ", shape, ", swizzle ", ShortName(s.swizzle), ", coords ", m.coords, "  ",
              m.validation.valid ? "valid" : "INVALID", "\n");
    if (!m.note.empty()) StrAppend(&o, "      (", m.note, ")\n");
    for (const std::string& msg : m.messages) StrAppend(&o, "      ", msg, "\n");
  }

  StrAppend(&o, "\nshared memory (offsets from a base aligned to ", std::max(p.a.repeat, p.b.repeat), " B)\n");
  StrAppend(&o, "  stages ", p.stages, p.stages_chosen ? " (as many as fit)" : "", "; at most ", p.max_stages, " fit\n");
  StrAppend(&o, "  per stage: A ", p.a.stage_bytes, " B (", p.a.slabs, " slab(s) of ", p.a.slab_bytes, " B) + B ", p.b.stage_bytes,
            " B (", p.b.slabs, " slab(s) of ", p.b.slab_bytes, " B) = ", p.stage_bytes, " B\n");
  for (const SmemBuffer& b : p.smem)
    StrAppend(&o, "  ", b.name, ": ", Hex(b.offset), " .. +", b.bytes, " B, align ", b.alignment,
              b.cute.empty() ? "" : StrCat(", ", b.cute), "\n");
  StrAppend(&o, "  total ", p.smem_total, " B of ", p.smem_limit, " B (", Name(r.target), " per block)\n");

  StrAppend(&o, "\nper CTA, per stage (rank = x + y x cluster_m)\n");
  for (const CtaPlan& c : p.ctas) {
    StrAppend(&o, "  CTA ", c.rank, " (x ", c.x, ", y ", c.y, "): issues ", c.copies.size(), " copies, ", c.issued_bytes,
              " B; receives ", c.received_bytes, " B; full barrier: ", c.full_arrivals, " arrival(s), expect_tx ", c.expect_tx,
              " B; empty barrier: ", c.empty_arrivals, " arrival(s); its consumers release ", Mask(c.release_mask));
    if (c.mask_a || c.mask_b) StrAppend(&o, "; masks A ", Mask(c.mask_a), ", B ", Mask(c.mask_b));
    StrAppend(&o, "\n");
    for (const PlannedCopy& pc : c.copies) CopyText(p, pc, &o);
  }
  if (!p.epilogue_copies.empty()) {
    StrAppend(&o, "  epilogue (each CTA, per tile; a bulk group, no barrier):\n");
    for (const PlannedCopy& pc : p.epilogue_copies) CopyText(p, pc, &o);
  }

  StrAppend(&o, "\ndescriptors (stage 0; checked by the descriptor rules, K step 0 rows against the map)\n");
  OperandDescText(p, p.a, &o);
  OperandDescText(p, p.b, &o);

  StrAppend(&o, "\nMMA\n  ", p.mma.instruction, "\n");
  if (p.arch == desc::DescArch::kWgmma)
    StrAppend(&o, "  ", p.mma.warpgroups, " consumer warpgroup(s) of ", p.mma.rows_per_warpgroup, " rows: ", p.mma.per_k_step,
              " instruction(s) per K step each, ", p.mma.k_steps, " K steps per stage, ", p.mma.accum_regs,
              " accumulator registers per thread\n");
  else
    StrAppend(&o, "  instruction descriptor ", Hex(p.mma.idesc), ", ", p.mma.k_steps, " K steps per stage\n");
  for (const std::string& w : p.mma.why) StrAppend(&o, "  - ", w, "\n");

  const EdgePlan& e = p.edges;
  StrAppend(&o, "\nedges\n  tiles ", e.tiles_m, " x ", e.tiles_n, ", ", e.k_tiles, " K tiles; grid ", e.grid_m, " x ", e.grid_n,
            " CTAs\n");
  for (const std::string& n : e.notes) StrAppend(&o, "  - ", n, "\n");

  if (!p.issues.empty()) {
    StrAppend(&o, "\nissues\n");
    for (const PlanIssue& i : p.issues)
      StrAppend(&o, "  ", Name(i.severity), "[", i.id, "] ", i.field, ": ", i.message,
                i.source.empty() ? "" : StrCat(" (", i.source, ")"), "\n");
  }
  return o;
}

namespace {

void WriteDescJson(const GemmPlan& p, const OperandPlan& o, json::Writer* w) {
  w->BeginObject();
  w->Key("type").String(desc::Name(o.type));
  w->Key("major").String(desc::Name(o.major));
  w->Key("swizzle").String(desc::Name(o.swizzle));
  w->Key("swizzle_chosen").Bool(o.swizzle_chosen);
  w->Key("cute").String(o.cute_swizzle);
  w->Key("rows").Uint(o.rows);
  w->Key("slabs").Uint(o.slabs);
  w->Key("slab_bytes").Uint(o.slab_bytes);
  w->Key("stage_bytes").Uint(o.stage_bytes);
  w->Key("stage_stride").Uint(o.name == "A" ? p.a_stage_stride : p.b_stage_stride);
  w->Key("lbo").Uint(o.facts.lbo);
  w->Key("sbo").Uint(o.facts.sbo);
  w->Key("mma_k").Uint(o.facts.mma_k);
  w->Key("k_steps").Uint(o.facts.k_slices);
  w->Key("steps").BeginArray();
  for (const KStepDesc& k : o.steps) {
    w->BeginObject();
    w->Key("k_step").Uint(k.k_step);
    w->Key("mn_offset").Uint(k.mn_offset);
    w->Key("desc").String(Hex(k.desc.bits()));
    w->Key("start").Uint(k.start_offset);
    w->Key("base_offset").Uint(k.base_offset);
    w->Key("valid").Bool(k.validation.valid);
    w->Key("messages").BeginArray();
    for (const std::string& m : k.messages) w->String(m);
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

void WriteCopyJson(const PlannedCopy& c, const GemmPlan& p, json::Writer* w) {
  w->BeginObject();
  w->Key("map").String(p.maps[c.map].name);
  w->Key("slab").Uint(c.slab);
  w->Key("coord_offset").BeginArray().Uint(c.coord0_offset).Uint(c.coord1_offset).EndArray();
  w->Key("smem_offset").Uint(c.smem_offset);
  w->Key("bytes").Uint(c.bytes);
  w->Key("mask").Uint(c.mask);
  w->Key("to_leader_barrier").Bool(c.to_leader_barrier);
  w->EndObject();
}

}  // namespace

std::string RenderGemmJson(const GemmPlan& p, bool pretty) {
  json::WriterOptions opt;
  opt.pretty = pretty;
  json::Writer w(opt);
  const GemmRequest& r = p.request;
  w.BeginObject();
  w.Key("plan").String("gemm");
  w.Key("valid").Bool(p.valid);
  w.Key("counts").BeginObject().Key("errors").Int(p.errors).Key("warnings").Int(p.warnings).EndObject();
  w.Key("target").String(Name(r.target));
  w.Key("family").String(desc::Name(p.arch));
  w.Key("modelled_only").Bool(p.arch == desc::DescArch::kTcgen05);
  w.Key("problem").BeginObject();
  w.Key("m").Uint(r.m).Key("n").Uint(r.n).Key("k").Uint(r.k);
  w.Key("a_type").String(desc::Name(r.a_type)).Key("b_type").String(desc::Name(r.b_type));
  w.Key("a_major").String(desc::Name(r.a_major)).Key("b_major").String(desc::Name(r.b_major));
  w.Key("d_type").String(ShortName(r.d_type));
  if (r.has_c) w.Key("c_type").String(ShortName(r.c_type));
  w.Key("cd_layout").String(Name(r.cd_layout));
  w.Key("accumulator").String(desc::Name(r.accumulator));
  w.Key("tile").BeginArray().Uint(r.bm).Uint(r.bn).Uint(r.bk).EndArray();
  w.Key("cluster").BeginArray().Uint(r.cluster_m).Uint(r.cluster_n).EndArray();
  w.Key("multicast_a").Bool(r.multicast_a).Key("multicast_b").Bool(r.multicast_b);
  w.Key("multicast_issue").String(Name(r.mcast_issue));
  w.Key("cta_group").Int(r.cta_group);
  w.EndObject();

  w.Key("maps").BeginArray();
  for (const PlannedMap& m : p.maps) {
    w.BeginObject();
    w.Key("name").String(m.name);
    w.Key("operand").String(m.operand);
    w.Key("coords").String(m.coords);
    if (!m.note.empty()) w.Key("note").String(m.note);
    w.Key("valid").Bool(m.validation.valid);
    w.Key("transaction_bytes").Uint(m.validation.facts.transaction_bytes);
    w.Key("messages").BeginArray();
    for (const std::string& s : m.messages) w.String(s);
    w.EndArray();
    w.Key("spec");
    WriteSpecJson(m.spec, &w);
    w.EndObject();
  }
  w.EndArray();

  w.Key("smem").BeginObject();
  w.Key("stages").Uint(p.stages);
  w.Key("stages_chosen").Bool(p.stages_chosen);
  w.Key("max_stages").Uint(p.max_stages);
  w.Key("stage_bytes").Uint(p.stage_bytes);
  w.Key("total").Uint(p.smem_total);
  w.Key("limit").Uint(p.smem_limit);
  w.Key("buffers").BeginArray();
  for (const SmemBuffer& b : p.smem) {
    w.BeginObject().Key("name").String(b.name).Key("offset").Uint(b.offset).Key("bytes").Uint(b.bytes);
    w.Key("alignment").Uint(b.alignment);
    if (!b.cute.empty()) w.Key("cute").String(b.cute);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  w.Key("ctas").BeginArray();
  for (const CtaPlan& c : p.ctas) {
    w.BeginObject();
    w.Key("rank").Uint(c.rank).Key("x").Uint(c.x).Key("y").Uint(c.y);
    w.Key("mask_a").Uint(c.mask_a).Key("mask_b").Uint(c.mask_b);
    w.Key("issued_bytes").Uint(c.issued_bytes).Key("received_bytes").Uint(c.received_bytes);
    w.Key("expect_tx").Uint(c.expect_tx);
    w.Key("full_arrivals").Uint(c.full_arrivals).Key("empty_arrivals").Uint(c.empty_arrivals);
    w.Key("release_mask").Uint(c.release_mask);
    w.Key("copies").BeginArray();
    for (const PlannedCopy& pc : c.copies) WriteCopyJson(pc, p, &w);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("epilogue_copies").BeginArray();
  for (const PlannedCopy& pc : p.epilogue_copies) WriteCopyJson(pc, p, &w);
  w.EndArray();

  w.Key("descriptors").BeginObject();
  w.Key("A");
  WriteDescJson(p, p.a, &w);
  w.Key("B");
  WriteDescJson(p, p.b, &w);
  w.EndObject();

  w.Key("mma").BeginObject();
  w.Key("instruction").String(p.mma.instruction);
  w.Key("shape").BeginArray().Uint(p.mma.m).Uint(p.mma.n).Uint(p.mma.k).EndArray();
  w.Key("k_steps").Uint(p.mma.k_steps);
  w.Key("per_k_step").Uint(p.mma.per_k_step);
  if (p.arch == desc::DescArch::kWgmma) {
    w.Key("warpgroups").Uint(p.mma.warpgroups);
    w.Key("rows_per_warpgroup").Uint(p.mma.rows_per_warpgroup);
    w.Key("accumulator_registers").Uint(p.mma.accum_regs);
    w.Key("trans_a").Bool(p.mma.trans_a).Key("trans_b").Bool(p.mma.trans_b);
  } else {
    w.Key("idesc").String(Hex(p.mma.idesc));
  }
  w.Key("why").BeginArray();
  for (const std::string& s : p.mma.why) w.String(s);
  w.EndArray();
  w.EndObject();

  const EdgePlan& e = p.edges;
  w.Key("edges").BeginObject();
  w.Key("tiles").BeginArray().Uint(e.tiles_m).Uint(e.tiles_n).Uint(e.k_tiles).EndArray();
  w.Key("last").BeginArray().Uint(e.last_m).Uint(e.last_n).Uint(e.last_k).EndArray();
  w.Key("grid").BeginArray().Uint(e.grid_m).Uint(e.grid_n).EndArray();
  w.Key("idle_ctas").Uint(e.idle_ctas);
  w.Key("notes").BeginArray();
  for (const std::string& n : e.notes) w.String(n);
  w.EndArray();
  w.EndObject();

  w.Key("issues").BeginArray();
  for (const PlanIssue& i : p.issues) {
    w.BeginObject().Key("rule").String(i.id).Key("severity").String(Name(i.severity)).Key("field").String(i.field);
    w.Key("message").String(i.message).Key("source").String(i.source).EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str() + "\n";
}

}  // namespace tmapgen::plan
