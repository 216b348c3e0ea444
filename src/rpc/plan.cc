// plan.cc: see plan.h.
#include "src/rpc/plan.h"

#include <algorithm>

#include "src/report/diagnostics.h"
#include "src/report/report_proto.h"
#include "src/schema/proto_convert.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::BadEnum;
using detail::EnumFromProto;
using detail::EnumToProto;

namespace {

constexpr size_t kMaxNamespaceBytes = 256;

// The planner's own check names its request's fields; where the message's field is called otherwise, the
// error gets the message's name.
absl::Status Renamed(const absl::Status& s, std::string_view from, std::string_view to) {
  const std::string m(StatusMessage(s));
  const std::string prefix = StrCat(from, ": ");
  if (m.rfind(prefix, 0) != 0) return s;
  return absl::Status(s.code(), ToAbsl(StrCat(to, ": ", m.substr(prefix.size()))));
}

absl::Status ElemTypeFromProto(int v, std::string_view field, desc::ElemType* out) {
  if (v == v2::ELEMENT_TYPE_UNSPECIFIED) return absl::OkStatus();  // the default stays
  if (!EnumFromProto(v, desc::kNumElemTypes, out)) return BadEnum(field, v);
  return absl::OkStatus();
}

absl::Status MajorFromProto(int v, std::string_view field, desc::Major* out) {
  if (v == v2::MAJOR_UNSPECIFIED) return absl::OkStatus();
  if (!EnumFromProto(v, 2, out)) return BadEnum(field, v);
  return absl::OkStatus();
}

absl::Status SwizzleFromProto(int v, std::string_view field, bool* has, desc::DescSwizzle* out) {
  *has = false;
  if (v == v2::DESCRIPTOR_SWIZZLE_UNSPECIFIED) return absl::OkStatus();  // the widest that fits
  if (!EnumFromProto(v, desc::kNumDescSwizzles, out)) return BadEnum(field, v);
  *has = true;
  return absl::OkStatus();
}

absl::Status IssueFromProto(int v, std::string_view field, plan::McastIssue* out) {
  switch (v) {
    case v2::MULTICAST_ISSUE_UNSPECIFIED: case v2::MULTICAST_SLICE: *out = plan::McastIssue::kSlice; return absl::OkStatus();
    case v2::MULTICAST_LEADER: *out = plan::McastIssue::kLeader; return absl::OkStatus();
    default: return BadEnum(field, v);
  }
}

int IssueToProto(plan::McastIssue v) {
  return v == plan::McastIssue::kLeader ? v2::MULTICAST_LEADER : v2::MULTICAST_SLICE;
}

// A tensor-map data type (the cuda.h numbers of tmapgen.v1.TensorDataType).
absl::Status DataTypeFromProto(int v, std::string_view field, DataType* out) {
  if (v < 0 || v >= kNumDataTypes) return BadEnum(field, v);
  *out = static_cast<DataType>(v);
  return absl::OkStatus();
}

absl::Status TargetOf(const std::string& s, std::string_view field, Target* t) {
  bool has = false;
  Target got = Target::kSm90a;
  if (absl::Status st = detail::TargetFromProto(s, field, &has, &got); !st.ok()) return st;
  if (has) *t = got;
  return absl::OkStatus();
}

// Cluster sides are checked one by one before their product (which the planner checks) can overflow.
absl::Status ClusterSide(uint32_t v, std::string_view field) {
  if (v == 0) return Bad(field, "must be at least 1");
  if (v > 16) return Bad(field, StrCat(v, " CTAs: a cluster holds at most 16 (ctaMask has 16 bits)"));
  return absl::OkStatus();
}

// The fields a GEMM and a convolution request share, with the same names in both messages and both requests:
// the tile (bm, bn, bk), the stages, the cluster, B's multicast and how it is issued, the target. One body
// for both, so that a shared field is converted and checked the same way (the same error) in both.
template <typename Request, typename Message>
void SharedToProto(const Request& r, Message* m) {
  m->set_bm(r.bm);
  m->set_bn(r.bn);
  m->set_bk(r.bk);
  m->set_stages(r.stages);
  m->set_cluster_m(r.cluster_m);
  m->set_cluster_n(r.cluster_n);
  m->set_multicast_b(r.multicast_b);
  m->set_multicast_issue(static_cast<v2::MulticastIssue>(IssueToProto(r.mcast_issue)));
  m->set_target(std::string(Name(r.target)));
}

template <typename Message, typename Request>
absl::Status SharedFromProto(const Message& m, Request* r) {
  if (m.has_bm()) r->bm = m.bm();
  if (m.has_bn()) r->bn = m.bn();
  if (m.has_bk()) r->bk = m.bk();
  r->stages = m.stages();
  if (m.has_cluster_m()) r->cluster_m = m.cluster_m();
  if (m.has_cluster_n()) r->cluster_n = m.cluster_n();
  if (absl::Status s = ClusterSide(r->cluster_m, "cluster_m"); !s.ok()) return s;
  if (absl::Status s = ClusterSide(r->cluster_n, "cluster_n"); !s.ok()) return s;
  r->multicast_b = m.multicast_b();
  if (absl::Status s = IssueFromProto(m.multicast_issue(), "multicast_issue", &r->mcast_issue); !s.ok()) return s;
  return TargetOf(m.target(), "target", &r->target);
}

void OutputToProto(const PlanOutputOptions& o, v2::PlanOutput* m) {
  m->mutable_render()->set_format(o.render == PlanOutputOptions::Render::kJson   ? v2::Rendering::JSON
                                  : o.render == PlanOutputOptions::Render::kText ? v2::Rendering::TEXT
                                                                                 : v2::Rendering::NONE);
  m->set_pretty(o.pretty);
  m->set_header(o.header);
  m->set_cpp_namespace(o.name_space);
}

absl::Status OutputFromProto(const v2::PlanOutput& m, PlanOutputOptions* o) {
  *o = PlanOutputOptions();
  switch (m.render().format()) {
    case v2::Rendering::NONE: o->render = PlanOutputOptions::Render::kNone; break;
    case v2::Rendering::TEXT: o->render = PlanOutputOptions::Render::kText; break;
    case v2::Rendering::JSON: o->render = PlanOutputOptions::Render::kJson; break;
    default: return BadEnum("output.render.format", m.render().format());
  }
  if (m.render().color()) return Bad("output.render.color", "plan reports have no color");
  o->pretty = m.pretty();
  o->header = m.header();
  if (m.cpp_namespace().size() > kMaxNamespaceBytes)
    return Bad("output.cpp_namespace", StrCat(m.cpp_namespace().size(), " bytes; at most ", kMaxNamespaceBytes));
  o->name_space = m.cpp_namespace();
  return absl::OkStatus();
}

void Diagnostics(const TensorMapSpec& spec, const Validation& v, google::protobuf::RepeatedPtrField<v1::Diagnostic>* out) {
  for (const Diagnostic& d : MakeDiagnostics(spec, v)) DiagnosticToProto(d, out->Add());
}

void CopyToProto(const plan::PlannedCopy& c, const plan::GemmPlan& p, v2::PlanCopy* m) {
  if (c.map < p.maps.size()) m->set_map(p.maps[c.map].name);
  m->set_slab(c.slab);
  m->set_coord0_offset(c.coord0_offset);
  m->set_coord1_offset(c.coord1_offset);
  m->set_smem_offset(c.smem_offset);
  m->set_bytes(c.bytes);
  m->set_mask(c.mask);
  m->set_to_leader_barrier(c.to_leader_barrier);
}

// A descriptor finding as the plan keeps it, "severity[rule] field: message" (gemm_plan.cc), as a diagnostic.
void FindingToProto(const std::string& f, v1::Diagnostic* d) {
  const size_t open = f.find('['), close = f.find("] "), colon = f.find(": ", close == std::string::npos ? 0 : close);
  if (open == std::string::npos || close == std::string::npos || close < open || colon == std::string::npos) {
    d->set_message(f);
    return;
  }
  d->set_severity(f.substr(0, open));
  d->set_rule(f.substr(open + 1, close - open - 1));
  d->set_field(f.substr(close + 2, colon - close - 2));
  d->set_message(f.substr(colon + 2));
}

void MapToProto(const plan::PlannedMap& pm, v2::PlanMap* x) {
  x->set_name(pm.name);
  x->set_operand(pm.operand);
  x->set_coords(pm.coords);
  SpecToProto(pm.spec, x->mutable_spec());
  x->set_valid(pm.validation.valid);
  Diagnostics(pm.spec, pm.validation, x->mutable_diagnostics());
}

void SmemToProto(const plan::SmemBuffer& b, v2::PlanSmemBuffer* x) {
  x->set_name(b.name);
  x->set_offset(b.offset);
  x->set_bytes(b.bytes);
  x->set_alignment(b.alignment);
  x->set_cute(b.cute);
}

void KStepToProto(const std::string& operand, const plan::KStepDesc& k, v2::PlanKStep* x) {
  x->set_operand(operand);
  x->set_k_step(k.k_step);
  x->set_mn_offset(k.mn_offset);
  x->set_value(k.desc.bits());
  x->set_start_offset(k.start_offset);
  x->set_base_offset(k.base_offset);
  x->set_valid(k.validation.valid);
  for (const std::string& msg : k.messages) FindingToProto(msg, x->add_diagnostics());
}

void WideToProto(const plan::WideForm& w, v2::PlanWideForm* x) {
  x->set_name(w.name);
  x->set_applies(w.applies);
  for (const std::string& y : w.why) x->add_why(y);
  MapToProto(w.map, x->mutable_map());
  MapToProto(w.d_map, x->mutable_d_map());
  x->set_coords(w.coords);
  x->set_pixels(w.pixels);
  x->set_slabs(w.slabs);
  for (const plan::WideBuffer& b : w.buffers) {
    v2::PlanWideBuffer* y = x->add_buffers();
    y->set_w_offset(b.w_offset);
    y->set_w_halo(b.w_halo);
    y->set_rows(b.rows);
    y->set_rows_padded(b.rows_padded);
    y->set_smem_offset(b.smem_offset);
    y->set_copy_bytes(b.copy_bytes);
  }
  for (const plan::WideTap& t : w.taps) {
    v2::PlanWideTap* y = x->add_taps();
    y->set_s(t.s);
    y->set_buffer(t.buffer);
    y->set_row(t.row);
    for (uint32_t r : t.runs) y->add_runs(r);
    y->set_start_offset(t.start_offset);
    for (const plan::KStepDesc& k : t.steps) KStepToProto("A", k, y->add_descriptors());
  }
  x->set_k_iterations(w.k_iterations);
  x->set_copies_a(w.copies_a);
  x->set_copies_b(w.copies_b);
  x->set_expect_tx(w.expect_tx);
  x->set_stages(w.stages);
  x->set_max_stages(w.max_stages);
  for (const plan::SmemBuffer& b : w.smem) SmemToProto(b, x->add_smem());
  x->set_smem_total(w.smem_total);
  x->set_mma(w.mma);
  x->set_idesc(w.idesc);
  x->set_idesc_valid(w.idesc_valid);
}

}  // namespace

// ---------------------------------------------------------------------------------------------- gemm

void ToProto(const plan::GemmRequest& r, const PlanOutputOptions& o, v2::PlanGemmRequest* m) {
  m->Clear();
  m->set_m(r.m);
  m->set_n(r.n);
  m->set_k(r.k);
  m->set_a_type(static_cast<v2::ElementType>(EnumToProto(r.a_type)));
  m->set_b_type(static_cast<v2::ElementType>(EnumToProto(r.b_type)));
  m->set_a_major(static_cast<v2::Major>(EnumToProto(r.a_major)));
  m->set_b_major(static_cast<v2::Major>(EnumToProto(r.b_major)));
  m->set_lda(r.lda);
  m->set_ldb(r.ldb);
  m->set_ldc(r.ldc);
  m->set_ldd(r.ldd);
  if (r.has_c) m->set_c_type(static_cast<v1::TensorDataType>(r.c_type));
  m->set_d_type(static_cast<v1::TensorDataType>(r.d_type));
  m->set_cd_layout(r.cd_layout == plan::CdLayout::kCol ? v2::CD_COL : v2::CD_ROW);
  if (r.has_accumulator) m->set_accumulator(static_cast<v2::AccumulatorType>(EnumToProto(r.accumulator)));
  SharedToProto(r, m);
  m->set_multicast_a(r.multicast_a);
  m->set_cta_group(static_cast<uint32_t>(r.cta_group));
  if (r.has_swizzle_a) m->set_swizzle_a(static_cast<v2::DescriptorSwizzle>(EnumToProto(r.swizzle_a)));
  if (r.has_swizzle_b) m->set_swizzle_b(static_cast<v2::DescriptorSwizzle>(EnumToProto(r.swizzle_b)));
  if (r.has_swizzle_cd) m->set_swizzle_cd(static_cast<v2::DescriptorSwizzle>(EnumToProto(r.swizzle_cd)));
  m->set_warpgroups(r.math_warpgroups);
  m->set_no_epilogue(!r.epilogue);
  OutputToProto(o, m->mutable_output());
}

absl::Status FromProto(const v2::PlanGemmRequest& m, const RequestLimits&, plan::GemmRequest* r, PlanOutputOptions* o) {
  *r = plan::GemmRequest();
  if (m.has_m()) r->m = m.m();
  if (m.has_n()) r->n = m.n();
  if (m.has_k()) r->k = m.k();
  if (absl::Status s = ElemTypeFromProto(m.a_type(), "a_type", &r->a_type); !s.ok()) return s;
  if (absl::Status s = ElemTypeFromProto(m.b_type(), "b_type", &r->b_type); !s.ok()) return s;
  if (absl::Status s = MajorFromProto(m.a_major(), "a_major", &r->a_major); !s.ok()) return s;
  if (absl::Status s = MajorFromProto(m.b_major(), "b_major", &r->b_major); !s.ok()) return s;
  r->lda = m.lda();
  r->ldb = m.ldb();
  r->ldc = m.ldc();
  r->ldd = m.ldd();
  if (m.has_c_type()) {
    if (absl::Status s = DataTypeFromProto(m.c_type(), "c_type", &r->c_type); !s.ok()) return s;
    r->has_c = true;
  }
  if (m.has_d_type())
    if (absl::Status s = DataTypeFromProto(m.d_type(), "d_type", &r->d_type); !s.ok()) return s;
  switch (m.cd_layout()) {
    case v2::CD_LAYOUT_UNSPECIFIED: case v2::CD_ROW: r->cd_layout = plan::CdLayout::kRow; break;
    case v2::CD_COL: r->cd_layout = plan::CdLayout::kCol; break;
    default: return BadEnum("cd_layout", m.cd_layout());
  }
  if (m.accumulator() != v2::ACCUMULATOR_UNSPECIFIED) {
    if (!EnumFromProto(m.accumulator(), 3, &r->accumulator)) return BadEnum("accumulator", m.accumulator());
    r->has_accumulator = true;
  }
  if (absl::Status s = SharedFromProto(m, r); !s.ok()) return s;
  r->multicast_a = m.multicast_a();
  if (m.has_cta_group()) {
    if (m.cta_group() > 2) return Bad("cta_group", StrCat("expected 1 or 2, got ", m.cta_group()));
    r->cta_group = static_cast<int>(m.cta_group());
  }
  if (absl::Status s = SwizzleFromProto(m.swizzle_a(), "swizzle_a", &r->has_swizzle_a, &r->swizzle_a); !s.ok()) return s;
  if (absl::Status s = SwizzleFromProto(m.swizzle_b(), "swizzle_b", &r->has_swizzle_b, &r->swizzle_b); !s.ok()) return s;
  if (absl::Status s = SwizzleFromProto(m.swizzle_cd(), "swizzle_cd", &r->has_swizzle_cd, &r->swizzle_cd); !s.ok()) return s;
  r->math_warpgroups = m.warpgroups();
  r->epilogue = !m.no_epilogue();
  if (absl::Status s = OutputFromProto(m.output(), o); !s.ok()) return s;
  absl::Status s = plan::CheckGemmRequest(*r);
  if (s.ok()) return s;
  s = Renamed(s, "math_warpgroups", "warpgroups");
  s = Renamed(s, "cluster", "cluster_n");
  return Renamed(s, "multicast", r->multicast_a ? "multicast_a" : "multicast_b");
}

// ---------------------------------------------------------------------------------------------- conv

void ToProto(const plan::ConvRequest& r, const PlanOutputOptions& o, v2::PlanConvRequest* m) {
  m->Clear();
  const bool d3 = r.spatial == 3;
  m->set_spatial(static_cast<uint32_t>(r.spatial));
  m->set_n(r.n);
  m->set_c(r.c);
  m->set_k(r.k);
  m->set_w(r.in[0]);
  m->set_h(r.in[1]);
  m->set_s(r.filter[0]);
  m->set_r(r.filter[1]);
  m->set_pad_w(r.pad[0]);
  m->set_pad_h(r.pad[1]);
  m->set_stride_w(r.stride[0]);
  m->set_stride_h(r.stride[1]);
  m->set_dilation_w(r.dilation[0]);
  m->set_dilation_h(r.dilation[1]);
  if (d3) {
    m->set_d(r.in[2]);
    m->set_t(r.filter[2]);
    m->set_pad_d(r.pad[2]);
    m->set_stride_d(r.stride[2]);
    m->set_dilation_d(r.dilation[2]);
  }
  m->set_dtype(static_cast<v2::ElementType>(EnumToProto(r.type)));
  m->set_out_type(static_cast<v1::TensorDataType>(r.out_type));
  SharedToProto(r, m);
  if (r.has_swizzle) m->set_swizzle(static_cast<v2::DescriptorSwizzle>(EnumToProto(r.swizzle)));
  OutputToProto(o, m->mutable_output());
}

absl::Status FromProto(const v2::PlanConvRequest& m, const RequestLimits& limits, plan::ConvRequest* r,
                       PlanOutputOptions* o) {
  *r = plan::ConvRequest();
  if (m.spatial() != 0 && m.spatial() != 2 && m.spatial() != 3)
    return Bad("spatial", StrCat("expected 2 or 3, got ", m.spatial()));
  r->spatial = m.spatial() == 3 ? 3 : 2;
  const bool d3 = r->spatial == 3;
  if (!d3) {
    const char* d_field = m.has_d() ? "d" : m.has_t() ? "t" : m.has_pad_d() ? "pad_d" : m.has_stride_d() ? "stride_d"
                        : m.has_dilation_d() ? "dilation_d" : nullptr;
    if (d_field != nullptr) return Bad(d_field, "a 2D convolution has no D dimension (set spatial = 3)");
  }
  if (m.has_n()) r->n = m.n();
  if (m.has_c()) r->c = m.c();
  if (m.has_k()) r->k = m.k();
  if (m.has_w()) r->in[0] = m.w();
  if (m.has_h()) r->in[1] = m.h();
  if (m.has_d()) r->in[2] = m.d();
  if (m.has_s()) r->filter[0] = m.s();
  if (m.has_r()) r->filter[1] = m.r();
  if (m.has_t()) r->filter[2] = m.t();
  if (m.has_pad_w()) r->pad[0] = m.pad_w();
  if (m.has_pad_h()) r->pad[1] = m.pad_h();
  if (m.has_pad_d()) r->pad[2] = m.pad_d();
  if (m.has_stride_w()) r->stride[0] = m.stride_w();
  if (m.has_stride_h()) r->stride[1] = m.stride_h();
  if (m.has_stride_d()) r->stride[2] = m.stride_d();
  if (m.has_dilation_w()) r->dilation[0] = m.dilation_w();
  if (m.has_dilation_h()) r->dilation[1] = m.dilation_h();
  if (m.has_dilation_d()) r->dilation[2] = m.dilation_d();
  static const char* kFilter[3] = {"s", "r", "t"};
  static const char* kStride[3] = {"stride_w", "stride_h", "stride_d"};
  static const char* kDilation[3] = {"dilation_w", "dilation_h", "dilation_d"};
  uint64_t taps = 1;
  size_t widest = 0;
  for (size_t i = 0; i < static_cast<size_t>(r->spatial); ++i) {
    // The command line's bounds (tmapgen plan conv --s, --stride, --dilation), named by the message's fields.
    if (r->filter[i] > 255) return Bad(kFilter[i], StrCat(r->filter[i], " is more than 255"));
    if (r->stride[i] == 0 || r->stride[i] > 8)
      return Bad(kStride[i], StrCat(r->stride[i], " is outside 1..8 (the map's element strides, cuda.h)"));
    if (r->dilation[i] == 0) return Bad(kDilation[i], "must be at least 1");
    taps *= std::max<uint32_t>(r->filter[i], 1);
    if (r->filter[i] > r->filter[widest]) widest = i;
  }
  // The plan lists every tap: bounded before any work. Every valid plan has fewer (an im2col offset is below
  // 255 for a 2D convolution and below 31 for a 3D one, so at most 255 x 255 taps).
  if (taps > limits.max_plan_taps)
    return absl::ResourceExhaustedError(ToAbsl(StrCat(kFilter[widest], ": the filter has ", taps, " taps; a plan call takes at most ",
                                                      limits.max_plan_taps, " (every valid plan has fewer)")));
  if (absl::Status s = ElemTypeFromProto(m.dtype(), "dtype", &r->type); !s.ok()) return s;
  if (m.has_out_type())
    if (absl::Status s = DataTypeFromProto(m.out_type(), "out_type", &r->out_type); !s.ok()) return s;
  if (absl::Status s = SharedFromProto(m, r); !s.ok()) return s;
  if (absl::Status s = SwizzleFromProto(m.swizzle(), "swizzle", &r->has_swizzle, &r->swizzle); !s.ok()) return s;
  if (absl::Status s = OutputFromProto(m.output(), o); !s.ok()) return s;
  absl::Status s = plan::CheckConvRequest(*r);
  if (s.ok()) return s;
  return Renamed(s, "cluster", "cluster_n");
}

// ---------------------------------------------------------------------------------------------- the plan

void ToProto(const plan::GemmPlan& p, v2::PlanResponse* m) {
  m->set_valid(p.valid);
  m->set_exit_status(p.valid ? 0 : 1);
  m->set_errors(p.errors);
  m->set_warnings(p.warnings);
  for (const plan::PlanIssue& i : p.issues) {
    v1::Diagnostic* d = m->add_issues();
    d->set_rule(i.id);
    d->set_severity(std::string(Name(i.severity)));
    d->set_field(i.field);
    d->set_message(i.message);
    d->set_source(i.source);
  }
  for (const plan::PlannedMap& pm : p.maps) MapToProto(pm, m->add_maps());
  m->set_stages(p.stages);
  m->set_max_stages(p.max_stages);
  m->set_stage_bytes(p.stage_bytes);
  m->set_smem_total(p.smem_total);
  m->set_smem_limit(p.smem_limit);
  for (const plan::SmemBuffer& b : p.smem) SmemToProto(b, m->add_smem());
  for (const plan::CtaPlan& c : p.ctas) {
    v2::PlanCta* x = m->add_ctas();
    x->set_rank(c.rank);
    x->set_x(c.x);
    x->set_y(c.y);
    for (const plan::PlannedCopy& cp : c.copies) CopyToProto(cp, p, x->add_copies());
    x->set_mask_a(c.mask_a);
    x->set_mask_b(c.mask_b);
    x->set_issued_bytes(c.issued_bytes);
    x->set_received_bytes(c.received_bytes);
    x->set_expect_tx(c.expect_tx);
    x->set_full_arrivals(c.full_arrivals);
    x->set_empty_arrivals(c.empty_arrivals);
    x->set_release_mask(c.release_mask);
  }
  for (const plan::PlannedCopy& cp : p.epilogue_copies) CopyToProto(cp, p, m->add_epilogue_copies());
  for (const plan::OperandPlan* op : {&p.a, &p.b})
    for (const plan::KStepDesc& k : op->steps) KStepToProto(op->name, k, m->add_descriptors());
  v2::PlanMma* mma = m->mutable_mma();
  mma->set_instruction(p.mma.instruction);
  mma->set_m(p.mma.m);
  mma->set_n(p.mma.n);
  mma->set_k(p.mma.k);
  mma->set_per_k_step(p.mma.per_k_step);
  mma->set_k_steps(p.mma.k_steps);
  mma->set_warpgroups(p.mma.warpgroups);
  mma->set_idesc(p.mma.idesc);
  for (const std::string& w : p.mma.why) mma->add_why(w);
  v2::PlanEdges* e = m->mutable_edges();
  e->set_tiles_m(p.edges.tiles_m);
  e->set_tiles_n(p.edges.tiles_n);
  e->set_k_tiles(p.edges.k_tiles);
  e->set_last_m(p.edges.last_m);
  e->set_last_n(p.edges.last_n);
  e->set_last_k(p.edges.last_k);
  e->set_idle_ctas(p.edges.idle_ctas);
}

void ToProto(const plan::ConvPlan& p, v2::PlanResponse* m) {
  ToProto(p.gemm, m);
  m->set_valid(p.valid);
  m->set_exit_status(p.valid ? 0 : 1);
  const size_t ns = static_cast<size_t>(p.request.spatial);
  v2::PlanConvFacts* c = m->mutable_conv();
  for (size_t i = 0; i < ns; ++i) c->add_out(p.out[i]);
  c->set_gemm_m(p.gemm_m);
  c->set_gemm_n(p.gemm_n);
  c->set_gemm_k(p.gemm_k);
  c->set_channel_blocks(p.channel_blocks);
  for (const plan::ConvTap& t : p.taps) {
    v2::PlanConvTap* x = c->add_taps();
    for (size_t i = 0; i < ns; ++i) x->add_trs(t.trs[i]);
    for (size_t i = 0; i < ns; ++i) x->add_offsets(t.offsets[i]);
  }
  c->set_origin(p.origin);
  c->set_k_order(p.k_order);
  for (const plan::WideForm& w : p.wide) WideToProto(w, c->add_wide());
}

}  // namespace tmapgen::rpc
