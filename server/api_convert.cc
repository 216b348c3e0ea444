// api_convert.cc: see api_convert.h.
#include "server/api_convert.h"

#include "src/blob/layout_doc.h"
#include "src/desc/desc_rules.h"
#include "src/tmap/validator.h"
#include "src/report/report.h"
#include "src/schema/proto_convert.h"
#include "src/tmap/rule.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::server {
namespace {

using desc::DescArch;
using desc::DescSwizzle;
using desc::ElemType;
using desc::Major;
using desc::MmaKind;
using desc::Operand;

absl::Status Bad(std::string_view field, std::string_view what) {
  return absl::InvalidArgumentError(ToAbsl(StrCat(field, ": ", what)));
}
absl::Status TooMany(std::string_view field, size_t n, uint32_t max) {
  return absl::ResourceExhaustedError(ToAbsl(StrCat(field, ": ", n, " entries; at most ", max)));
}

// Proto enums are the core's + 1 (0 = unspecified). Returns false for numbers outside the schema.
template <typename Core>
bool EnumFromProto(int v, int count, Core* out) {
  if (v < 1 || v > count) return false;
  *out = static_cast<Core>(v - 1);
  return true;
}
template <typename Core>
int EnumToProto(Core v) {
  return static_cast<int>(v) + 1;
}

absl::Status BadEnum(std::string_view field, int v) { return Bad(field, StrCat("unknown value ", v)); }

absl::Status TargetFromProto(const std::string& s, std::string_view field, bool* has, Target* t) {
  *has = false;
  if (s.empty()) return absl::OkStatus();
  if (!Parse(s, t))
    return Bad(field, StrCat("unknown value \"", s, "\"; expected one of: ", AcceptedNames(static_cast<Target*>(nullptr))));
  *has = true;
  return absl::OkStatus();
}

absl::Status SpecFromMessage(const v1::TensorMapSpec& m, const std::string& prefix, TensorMapSpec* s) {
  const absl::Status st = SpecFromProto(m, s);
  if (st.ok()) return st;
  return absl::InvalidArgumentError(ToAbsl(StrCat(prefix, StatusMessage(st))));
}

void DiagnosticToProto(const desc::DescDiagnostic& d, v1::Diagnostic* p) {
  p->set_rule(d.rule);
  p->set_severity(std::string(Name(d.severity)));
  p->set_field(d.field);
  p->set_message(d.message);
  p->set_fix(d.fix);
  p->set_source(d.source);
}

void FieldToProto(const desc::BitField& f, uint64_t v, std::string meaning, v2::BitField* p) {
  p->set_name(std::string(f.name));
  p->set_lo(f.lo);
  p->set_width(f.width);
  p->set_encoded(v);
  if (f.unit_shift == 4) p->set_bytes(v << 4);
  p->set_meaning(std::move(meaning));
}

void CanonicalToProto(const desc::CanonicalLayout& c, v2::CanonicalLayout* p) {
  p->set_defined(c.defined);
  p->set_cute_swizzle(c.cute_swizzle);
  p->set_generic(c.generic);
  p->set_instantiated(c.instantiated);
  p->set_atom(c.atom);
  p->set_lbo_meaning(c.lbo_meaning);
  p->set_sbo_meaning(c.sbo_meaning);
}

void Placements(const std::vector<desc::ChunkPlace>& ps, google::protobuf::RepeatedPtrField<v2::ChunkPlacement>* out) {
  for (const desc::ChunkPlace& c : ps) {
    v2::ChunkPlacement* p = out->Add();
    p->set_row(c.row);
    p->set_col(c.col);
    p->set_address(c.address);
  }
}

}  // namespace

std::string FieldOf(const absl::Status& s) {
  const std::string m(s.message());
  const size_t c = m.find(": ");
  if (c == std::string::npos || m.find(' ') < c) return "";
  return m.substr(0, c);
}

// ---------------------------------------------------------------------------------------------- matrix

void ToProto(const desc::MatrixRequest& r, v2::MatrixDescriptorRequest* m) {
  m->Clear();
  switch (r.op) {
    case desc::MatrixOp::kBuild: m->set_operation(v2::MatrixDescriptorRequest::BUILD); break;
    case desc::MatrixOp::kDerive: m->set_operation(v2::MatrixDescriptorRequest::DERIVE); break;
    case desc::MatrixOp::kCheck: m->set_operation(v2::MatrixDescriptorRequest::CHECK); break;
    case desc::MatrixOp::kDecode: m->set_operation(v2::MatrixDescriptorRequest::DECODE); break;
  }
  if (r.has_arch) m->set_family(static_cast<v2::DescriptorFamily>(EnumToProto(r.arch)));
  v2::MatrixLayout* l = m->mutable_layout();
  if (r.layout_given) {
    l->set_operand(static_cast<v2::Operand>(EnumToProto(r.layout.operand)));
    l->set_major(static_cast<v2::Major>(EnumToProto(r.layout.major)));
  }
  if (r.has_type) l->set_dtype(static_cast<v2::ElementType>(EnumToProto(r.layout.type)));
  l->set_padded(r.layout.padded);
  if (r.has_swizzle) l->set_swizzle(static_cast<v2::DescriptorSwizzle>(EnumToProto(r.layout.swizzle)));
  if (r.has_tile) {
    l->mutable_tile()->set_mn(r.layout.mn);
    l->mutable_tile()->set_k(r.layout.k);
  }
  if (r.has_smem_address) l->set_smem_address(r.layout.smem_address);
  if (r.layout.has_lbo) l->set_lbo(r.layout.lbo);
  if (r.layout.has_sbo) l->set_sbo(r.layout.sbo);
  if (r.layout.has_base_offset) l->set_base_offset(r.layout.base_offset);
  l->set_lbo_absolute(r.layout.lbo_absolute);
  l->set_mma_k(r.layout.mma_k);
  if (r.has_map) {
    SpecToProto(r.map, m->mutable_map());
    m->set_map_name(r.map_source);
  }
  m->set_value(r.value);
  if (r.has_target) m->set_target(std::string(Name(r.target)));
  if (r.advance == desc::AdvanceKind::kKSlice) m->set_k_slice(r.k_slice);
  if (r.advance == desc::AdvanceKind::kSubTile) {
    m->mutable_sub_tile()->set_mn(r.sub_mn);
    m->mutable_sub_tile()->set_k(r.sub_k);
  }
  m->set_draw(r.draw);
  if (r.max_lines != 32) m->set_max_lines(static_cast<uint32_t>(r.max_lines));
}

absl::Status FromProto(const v2::MatrixDescriptorRequest& m, desc::MatrixRequest* out) {
  desc::MatrixRequest r;
  switch (m.operation()) {
    case v2::MatrixDescriptorRequest::BUILD: r.op = desc::MatrixOp::kBuild; break;
    case v2::MatrixDescriptorRequest::DERIVE: r.op = desc::MatrixOp::kDerive; break;
    case v2::MatrixDescriptorRequest::CHECK: r.op = desc::MatrixOp::kCheck; break;
    case v2::MatrixDescriptorRequest::DECODE: r.op = desc::MatrixOp::kDecode; break;
    default: return Bad("operation", "expected BUILD, DERIVE, CHECK or DECODE");
  }
  r.has_arch = m.family() != v2::FAMILY_UNSPECIFIED;
  if (r.has_arch && !EnumFromProto(m.family(), 2, &r.arch)) return BadEnum("family", m.family());
  if (!r.has_arch && r.op == desc::MatrixOp::kDecode)
    r.arch = ((m.value() >> 46) & 7) == 1 ? DescArch::kTcgen05 : DescArch::kWgmma;
  const v2::MatrixLayout& l = m.layout();
  desc::OperandLayout& ol = r.layout;
  ol.arch = r.arch;
  if (l.operand() != v2::OPERAND_UNSPECIFIED) {
    if (!EnumFromProto(l.operand(), 2, &ol.operand)) return BadEnum("layout.operand", l.operand());
    r.layout_given = true;
  }
  if (l.major() != v2::MAJOR_UNSPECIFIED) {
    if (!EnumFromProto(l.major(), 2, &ol.major)) return BadEnum("layout.major", l.major());
    r.layout_given = true;
  }
  if (l.dtype() != v2::ELEMENT_TYPE_UNSPECIFIED) {
    if (!EnumFromProto(l.dtype(), desc::kNumElemTypes, &ol.type)) return BadEnum("layout.dtype", l.dtype());
    r.has_type = r.layout_given = true;
  }
  if (l.padded()) ol.padded = r.layout_given = true;
  if (l.swizzle() != v2::DESCRIPTOR_SWIZZLE_UNSPECIFIED) {
    if (!EnumFromProto(l.swizzle(), desc::kNumDescSwizzles, &ol.swizzle)) return BadEnum("layout.swizzle", l.swizzle());
    r.has_swizzle = true;
  }
  if (l.has_tile()) {
    ol.mn = l.tile().mn();
    ol.k = l.tile().k();
    r.has_tile = r.layout_given = true;
  }
  if (l.has_smem_address()) {
    ol.smem_address = l.smem_address();
    r.has_smem_address = true;
  }
  if (l.has_lbo()) {
    ol.lbo = l.lbo();
    ol.has_lbo = true;
  }
  if (l.has_sbo()) {
    ol.sbo = l.sbo();
    ol.has_sbo = true;
  }
  if (l.has_base_offset()) {
    ol.base_offset = l.base_offset();
    ol.has_base_offset = true;
  }
  ol.lbo_absolute = l.lbo_absolute();
  ol.mma_k = l.mma_k();
  if (m.has_map()) {
    if (absl::Status s = SpecFromMessage(m.map(), "map.", &r.map); !s.ok()) return s;
    r.has_map = true;
    r.map_source = m.map_name().empty() ? "inline" : m.map_name();
  } else if (!m.map_name().empty()) {
    return Bad("map_name", "names a map, but there is no map");
  }
  r.value = m.value();
  if (absl::Status s = TargetFromProto(m.target(), "target", &r.has_target, &r.target); !s.ok()) return s;
  if (m.advance_case() == v2::MatrixDescriptorRequest::kKSlice) {
    r.advance = desc::AdvanceKind::kKSlice;
    r.k_slice = m.k_slice();
  } else if (m.advance_case() == v2::MatrixDescriptorRequest::kSubTile) {
    r.advance = desc::AdvanceKind::kSubTile;
    r.sub_mn = m.sub_tile().mn();
    r.sub_k = m.sub_tile().k();
  }
  r.draw = m.draw();
  if (m.has_max_lines()) {
    if (m.max_lines() > 100000) return Bad("max_lines", StrCat(m.max_lines(), " is over 100000"));
    r.max_lines = static_cast<int>(m.max_lines());
  }
  if (m.svg() && !desc::MatrixRequestHasTile(r)) return Bad("svg", "the drawing needs the tile (a layout or a map)");
  if (absl::Status s = desc::CheckMatrixRequest(r); !s.ok()) return s;
  *out = std::move(r);
  return absl::OkStatus();
}

void ToProto(const desc::SmemDescReport& r, v2::MatrixDescriptorResponse* m) {
  const desc::SmemDesc& d = r.desc;
  m->set_valid(r.validation.valid);
  m->set_value(d.bits());
  m->set_family(static_cast<v2::DescriptorFamily>(EnumToProto(d.arch())));
  m->set_family_guessed(r.arch_guessed);
  if (r.has_target) m->set_target(std::string(Name(r.target)));
  int n = 0;
  const desc::BitField* fs = desc::DescFields(d.arch(), &n);
  for (int i = 0; i < n; ++i) {
    const uint64_t v = desc::FieldGet(d.bits(), fs[i]);
    FieldToProto(fs[i], v, desc::FieldMeaning(d, fs[i], v), m->add_fields());
  }
  m->set_reserved_bits(d.reserved_bits());
  DescSwizzle sw = DescSwizzle::kNone;
  const bool sw_ok = d.swizzle(&sw);
  if (sw_ok) m->set_swizzle(static_cast<v2::DescriptorSwizzle>(EnumToProto(sw)));
  if (r.has_layout) {
    const desc::OperandLayout& l = r.layout;
    const desc::LayoutFacts& f = r.facts;
    v2::MatrixLayoutFacts* p = m->mutable_layout();
    p->set_operand(static_cast<v2::Operand>(EnumToProto(l.operand)));
    p->set_major(static_cast<v2::Major>(EnumToProto(l.major)));
    p->set_dtype(static_cast<v2::ElementType>(EnumToProto(l.type)));
    p->set_padded(l.padded);
    p->set_swizzle(static_cast<v2::DescriptorSwizzle>(EnumToProto(l.swizzle)));
    p->mutable_tile()->set_mn(l.mn);
    p->mutable_tile()->set_k(l.k);
    p->set_smem_address(l.smem_address);
    p->set_smem_bits(f.smem_bits);
    p->set_elements_per_16_bytes(f.t);
    p->set_row_bytes(f.row_bytes);
    p->set_repeat_bytes(f.repeat_bytes);
    p->set_base_offset(f.base_offset);
    p->set_lbo_bytes(f.lbo);
    p->set_sbo_bytes(f.sbo);
    p->set_canonical_lbo_bytes(f.canonical_lbo);
    p->set_canonical_sbo_bytes(f.canonical_sbo);
    p->set_lbo_used(f.lbo_used);
    p->set_mma_k(f.mma_k);
    p->set_k_slices(f.k_slices);
    p->set_footprint_bytes(f.footprint_bytes);
    CanonicalToProto(desc::ReportCanonical(r), p->mutable_canonical());
    for (uint32_t k = 0; k < desc::KSliceDescriptorsShown(r); ++k) {
      const desc::Advance a = desc::AdvanceKSlice(l, f, d, k);
      v2::KSlice* ks = p->add_k_slice_descriptors();
      ks->set_k(k);
      ks->set_value(a.desc.bits());
      ks->set_start(a.start_bytes);
      ks->set_delta_bytes(a.delta_bytes);
      ks->set_base_offset(a.base_offset);
    }
  } else {
    for (int mj = 0; mj < 2; ++mj) {
      const Major major = static_cast<Major>(mj);
      v2::Interpretation* p = m->add_interpretations();
      p->set_major(static_cast<v2::Major>(EnumToProto(major)));
      CanonicalToProto(desc::DescribeCanonical(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone, 0, d.lbo_bytes(),
                                               d.sbo_bytes(), 0, 0),
                       p->mutable_canonical());
      p->set_element_types(desc::LegalElementTypes(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone));
    }
  }
  if (r.has_map) {
    const desc::MapDerivation& md = r.map;
    v2::MapComparison* p = m->mutable_map();
    p->set_source(r.map_source);
    p->set_derived_value(md.desc.bits());
    p->set_inner_bytes(md.inner_bytes);
    p->set_rows(md.rows);
    p->set_slabs(md.slabs);
    p->set_destination(md.dst);
    p->set_destination_known(md.smem_known);
    p->set_dtype(static_cast<v2::ElementType>(EnumToProto(md.layout.type)));
    p->set_dtype_inferred(md.type_inferred);
    if (r.user_value) {
      const desc::ChunkCompare cc = desc::CompareChunks(md, d);
      p->set_compared(cc.compared);
      p->set_chunks_compared(cc.compared ? cc.total : 0);
      p->set_chunks_mismatched(cc.mismatched);
    }
  }
  if (r.has_advance) {
    const desc::Advance& a = r.advance;
    v2::AdvanceResult* p = m->mutable_advance();
    if (r.advance_is_sub_tile) {
      p->mutable_sub_tile()->set_mn(r.advance_mn);
      p->mutable_sub_tile()->set_k(r.advance_k);
    } else {
      p->set_k_slice(r.advance_k_slice);
    }
    p->set_value(a.desc.bits());
    p->set_start(a.start_bytes);
    p->set_delta_bytes(a.delta_bytes);
    p->set_base_offset(a.base_offset);
    p->set_base_offset_changed(a.base_offset_changed);
    p->set_aligned_16(a.aligned_16);
  }
  m->set_errors(r.validation.errors);
  m->set_warnings(r.validation.warnings);
  m->set_notes(r.validation.notes);
  const desc::SmemCheck chk = desc::MakeSmemCheck(r);
  desc::DescContext ctx;
  ctx.smem = &chk;
  for (const desc::DescDiagnostic& dd : desc::MakeDescDiagnostics(ctx, r.validation))
    DiagnosticToProto(dd, m->add_diagnostics());
  if (r.draw && r.has_layout) {
    Placements(desc::MmaPlacements(r), m->mutable_mma_chunks());
    if (r.has_map) Placements(desc::TmaPlacements(r), m->mutable_tma_chunks());
  }
}

// ---------------------------------------------------------------------------------------------- idesc

void ToProto(const desc::IdescSpec& s, v2::InstructionDescriptorSpec* m) {
  m->set_kind(static_cast<v2::MmaKind>(EnumToProto(s.kind)));
  m->set_cta_group(static_cast<uint32_t>(s.cta_group));
  m->set_ws(s.ws);
  m->set_sparse(s.sparse);
  m->set_sparse_selector(s.sparse_selector);
  m->set_saturate(s.saturate);
  m->set_d_type(static_cast<v2::AccumulatorType>(EnumToProto(s.d_type)));
  m->set_a_type(static_cast<v2::ElementType>(EnumToProto(s.a_type)));
  m->set_b_type(static_cast<v2::ElementType>(EnumToProto(s.b_type)));
  m->set_negate_a(s.negate_a);
  m->set_negate_b(s.negate_b);
  m->set_a_major(static_cast<v2::Major>(EnumToProto(s.a_major)));
  m->set_b_major(static_cast<v2::Major>(EnumToProto(s.b_major)));
  m->set_m(s.m);
  m->set_n(s.n);
  if (s.k96) m->set_k(96);
  m->set_max_shift(s.max_shift);
  m->set_scale_type(static_cast<v2::ScaleType>(EnumToProto(s.scale_type)));
  m->set_a_sf_id(s.a_sf_id);
  m->set_b_sf_id(s.b_sf_id);
  if (s.has_target) m->set_target(std::string(Name(s.target)));
  m->set_a_tmem(s.a_tmem);
}

absl::Status FromProto(const v2::InstructionDescriptorSpec& m, bool build, const std::string& prefix, desc::IdescSpec* out,
                       bool* kind_given) {
  desc::IdescSpec s;
  *kind_given = m.kind() != v2::KIND_UNSPECIFIED;
  if (*kind_given && !EnumFromProto(m.kind(), desc::kNumMmaKinds, &s.kind)) return BadEnum(prefix + "kind", m.kind());
  if (m.has_cta_group()) {
    if (m.cta_group() != 1 && m.cta_group() != 2) return Bad(prefix + "cta_group", StrCat("expected 1 or 2, got ", m.cta_group()));
    s.cta_group = static_cast<int>(m.cta_group());
  }
  s.ws = m.ws();
  s.a_tmem = m.a_tmem();
  if (absl::Status st = TargetFromProto(m.target(), prefix + "target", &s.has_target, &s.target); !st.ok()) return st;
  if (!build) {
    // The rest comes from the value.
    const char* given = m.sparse() ? "sparse" : m.sparse_selector() ? "sparse_selector" : m.saturate() ? "saturate"
                        : m.d_type() ? "d_type" : m.a_type() ? "a_type" : m.b_type() ? "b_type"
                        : m.negate_a() ? "negate_a" : m.negate_b() ? "negate_b" : m.a_major() ? "a_major"
                        : m.b_major() ? "b_major" : m.has_m() ? "m" : m.has_n() ? "n" : m.has_k() ? "k"
                        : m.max_shift() ? "max_shift" : m.scale_type() ? "scale_type" : m.a_sf_id() ? "a_sf_id"
                        : m.b_sf_id() ? "b_sf_id" : nullptr;
    if (given != nullptr) return Bad(prefix + given, "DECODE takes it from the value");
    *out = s;
    return absl::OkStatus();
  }
  if (!*kind_given) *kind_given = true;  // BUILD: unspecified is f16
  s.a_type = s.b_type = desc::DefaultOperandType(s.kind);
  s.d_type = desc::DefaultAccumulator(s.kind);
  s.sparse = m.sparse();
  s.sparse_selector = m.sparse_selector();
  if (s.sparse_selector > 3) return Bad(prefix + "sparse_selector", "the field has 2 bits (0..3)");
  s.saturate = m.saturate();
  if (m.d_type() != v2::ACCUMULATOR_UNSPECIFIED && !EnumFromProto(m.d_type(), 3, &s.d_type))
    return BadEnum(prefix + "d_type", m.d_type());
  if (m.a_type() != v2::ELEMENT_TYPE_UNSPECIFIED && !EnumFromProto(m.a_type(), desc::kNumElemTypes, &s.a_type))
    return BadEnum(prefix + "a_type", m.a_type());
  if (m.b_type() != v2::ELEMENT_TYPE_UNSPECIFIED && !EnumFromProto(m.b_type(), desc::kNumElemTypes, &s.b_type))
    return BadEnum(prefix + "b_type", m.b_type());
  s.negate_a = m.negate_a();
  s.negate_b = m.negate_b();
  if (m.a_major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(m.a_major(), 2, &s.a_major))
    return BadEnum(prefix + "a_major", m.a_major());
  if (m.b_major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(m.b_major(), 2, &s.b_major))
    return BadEnum(prefix + "b_major", m.b_major());
  if (m.has_m()) s.m = m.m();
  if (m.has_n()) s.n = m.n();
  s.max_shift = m.max_shift();
  if (m.scale_type() != v2::SCALE_TYPE_UNSPECIFIED && !EnumFromProto(m.scale_type(), 2, &s.scale_type))
    return BadEnum(prefix + "scale_type", m.scale_type());
  s.a_sf_id = m.a_sf_id();
  s.b_sf_id = m.b_sf_id();
  if (m.has_k()) {
    if (m.k() == 96 && (s.kind == MmaKind::kMxf4 || s.kind == MmaKind::kMxf4nvf4)) {
      s.k96 = true;
    } else if (m.k() != desc::InstrK(s)) {
      return Bad(prefix + "k", StrCat(".kind::", desc::Name(s.kind), s.sparse ? " (sparse)" : "", " has K = ", desc::InstrK(s),
                                      "; only .kind::mxf4/.kind::mxf4nvf4 can choose K = 96"));
    }
  }
  *out = s;
  return absl::OkStatus();
}

void ToProto(const desc::IdescRequest& r, v2::InstructionDescriptorRequest* m) {
  m->Clear();
  m->set_operation(r.decode ? v2::InstructionDescriptorRequest::DECODE : v2::InstructionDescriptorRequest::BUILD);
  v2::InstructionDescriptorSpec* s = m->mutable_spec();
  if (r.decode) {
    if (r.kind_given) s->set_kind(static_cast<v2::MmaKind>(EnumToProto(r.spec.kind)));
    s->set_cta_group(static_cast<uint32_t>(r.spec.cta_group));
    s->set_ws(r.spec.ws);
    s->set_a_tmem(r.spec.a_tmem);
    if (r.spec.has_target) s->set_target(std::string(Name(r.spec.target)));
    m->set_value(r.value);
  } else {
    ToProto(r.spec, s);
  }
}

absl::Status FromProto(const v2::InstructionDescriptorRequest& m, desc::IdescRequest* out) {
  desc::IdescRequest r;
  if (m.operation() == v2::InstructionDescriptorRequest::BUILD) r.decode = false;
  else if (m.operation() == v2::InstructionDescriptorRequest::DECODE) r.decode = true;
  else return Bad("operation", "expected BUILD or DECODE");
  if (!r.decode && m.value() != 0) return Bad("value", "BUILD encodes the spec; the value is for DECODE");
  if (absl::Status s = FromProto(m.spec(), !r.decode, "spec.", &r.spec, &r.kind_given); !s.ok()) return s;
  r.value = m.value();
  if (absl::Status s = desc::CheckIdescRequest(r); !s.ok()) return s;
  *out = r;
  return absl::OkStatus();
}

namespace {

void IdescReportToProto(const desc::IdescReport& r, v2::InstructionDescriptorResponse* m) {
  const desc::IdescSpec& s = r.check.spec;
  const uint32_t v = r.check.fields.raw;
  m->set_valid(r.validation.valid);
  m->set_value(v);
  m->set_kind(static_cast<v2::MmaKind>(EnumToProto(s.kind)));
  if (s.has_target) m->set_target(std::string(Name(s.target)));
  int n = 0;
  const desc::BitField* fs = desc::IdescFieldTable(s.kind, &n);
  for (int i = 0; i < n; ++i) {
    const uint32_t fv = static_cast<uint32_t>(desc::FieldGet(v, fs[i]));
    FieldToProto(fs[i], fv, desc::FieldMeaning(s, fs[i], fv), m->add_fields());
  }
  m->set_reserved_bits(r.check.fields.reserved);
  ToProto(s, m->mutable_decoded());
  m->set_k(desc::InstrK(s));
  m->set_valid_m(desc::ValidMText(s));
  m->set_valid_n(desc::ValidNText(s));
  m->set_ptx(desc::IdescPtx(s));
  m->set_form(desc::FormText(s));
  m->set_valid_shapes(desc::FormShapeText(s));
  m->set_errors(r.validation.errors);
  m->set_warnings(r.validation.warnings);
  m->set_notes(r.validation.notes);
  const desc::DescContext ctx{nullptr, &r.check};
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, r.validation)) DiagnosticToProto(d, m->add_diagnostics());
}

}  // namespace

void ToProto(const desc::IdescResult& r, v2::InstructionDescriptorResponse* m) {
  if (!r.all_kinds) {
    IdescReportToProto(r.report, m);
    return;
  }
  m->set_valid(r.valid);
  m->set_value(r.value);
  for (int k = 0; k < desc::kNumMmaKinds; ++k) {
    desc::IdescRequest q;
    q.decode = true;
    q.value = r.value;
    q.spec = r.context;
    q.spec.kind = static_cast<MmaKind>(k);
    desc::IdescResult one;
    desc::RunIdescRequest(q, &one);
    IdescReportToProto(one.report, m->add_by_kind());
  }
}

// ---------------------------------------------------------------------------------------------- codegen

void ToProto(const codegen::Input& in, const codegen::Options& opt, codegen::Lang lang, v2::CodegenRequest* m) {
  m->Clear();
  for (const TensorMapSpec& s : in.specs) SpecToProto(s, m->add_specs());
  m->set_language(lang == codegen::Lang::kCpp ? v2::CPP : lang == codegen::Lang::kJson ? v2::JSON : v2::PTX);
  if (opt.has_target) m->set_target(std::string(Name(opt.target)));
  m->set_cpp_namespace(opt.name_space);
  for (const codegen::DescRequest& d : in.descs) {
    v2::CodegenMatrixDescriptor* p = m->add_matrix_descriptors();
    p->set_map(d.map);
    p->set_family(static_cast<v2::DescriptorFamily>(EnumToProto(d.arch)));
    p->set_operand(static_cast<v2::Operand>(EnumToProto(d.operand)));
    p->set_major(static_cast<v2::Major>(EnumToProto(d.major)));
    if (d.has_type) p->set_dtype(static_cast<v2::ElementType>(EnumToProto(d.type)));
  }
  for (const codegen::IdescRequest& d : in.idescs) {
    v2::CodegenInstructionDescriptor* p = m->add_instruction_descriptors();
    p->set_name(d.name);
    ToProto(d.spec, p->mutable_spec());
  }
  for (const std::string& s : opt.sources) m->add_sources(s);
}

absl::Status FromProto(const v2::CodegenRequest& m, const RequestLimits& limits, codegen::Input* in,
                       codegen::Options* opt, codegen::Lang* lang) {
  *in = codegen::Input();
  *opt = codegen::Options();
  if (m.specs_size() == 0) return Bad("specs", "no spec");
  if (static_cast<uint32_t>(m.specs_size()) > limits.max_specs) return TooMany("specs", m.specs_size(), limits.max_specs);
  const size_t descs = static_cast<size_t>(m.matrix_descriptors_size()) + static_cast<size_t>(m.instruction_descriptors_size());
  if (descs > limits.max_descriptors) return TooMany("matrix_descriptors + instruction_descriptors", descs, limits.max_descriptors);
  if (static_cast<uint32_t>(m.sources_size()) > limits.max_specs) return TooMany("sources", m.sources_size(), limits.max_specs);
  for (int i = 0; i < m.specs_size(); ++i) {
    TensorMapSpec s;
    if (absl::Status st = SpecFromMessage(m.specs(i), StrCat("specs[", i, "]."), &s); !st.ok()) return st;
    in->specs.push_back(std::move(s));
  }
  switch (m.language()) {
    case v2::LANGUAGE_UNSPECIFIED: case v2::CPP: *lang = codegen::Lang::kCpp; break;
    case v2::JSON: *lang = codegen::Lang::kJson; break;
    case v2::PTX: *lang = codegen::Lang::kPtx; break;
    default: return BadEnum("language", m.language());
  }
  if (absl::Status s = TargetFromProto(m.target(), "target", &opt->has_target, &opt->target); !s.ok()) return s;
  if (!m.cpp_namespace().empty()) {
    if (codegen::SanitizeIdentifier(m.cpp_namespace(), "") != m.cpp_namespace())
      return Bad("cpp_namespace", StrCat("\"", m.cpp_namespace(), "\" is not a plain C++ identifier"));
    opt->name_space = m.cpp_namespace();
  }
  for (int i = 0; i < m.matrix_descriptors_size(); ++i) {
    const v2::CodegenMatrixDescriptor& p = m.matrix_descriptors(i);
    const std::string f = StrCat("matrix_descriptors[", i, "].");
    codegen::DescRequest d;
    d.map = p.map();
    if (d.map.empty()) return Bad(f + "map", "required: the spec's name or #INDEX");
    if (!EnumFromProto(p.family(), 2, &d.arch)) return Bad(f + "family", "required: WGMMA or TCGEN05");
    if (p.operand() != v2::OPERAND_UNSPECIFIED && !EnumFromProto(p.operand(), 2, &d.operand)) return BadEnum(f + "operand", p.operand());
    if (p.major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(p.major(), 2, &d.major)) return BadEnum(f + "major", p.major());
    if (p.dtype() != v2::ELEMENT_TYPE_UNSPECIFIED) {
      if (!EnumFromProto(p.dtype(), desc::kNumElemTypes, &d.type)) return BadEnum(f + "dtype", p.dtype());
      d.has_type = true;
    }
    in->descs.push_back(d);
  }
  for (int i = 0; i < m.instruction_descriptors_size(); ++i) {
    const v2::CodegenInstructionDescriptor& p = m.instruction_descriptors(i);
    const std::string f = StrCat("instruction_descriptors[", i, "].");
    codegen::IdescRequest d;
    d.name = p.name().empty() ? "idesc" : p.name();
    bool kind_given = false;
    if (absl::Status s = FromProto(p.spec(), true, f + "spec.", &d.spec, &kind_given); !s.ok()) return s;
    in->idescs.push_back(d);
  }
  for (const std::string& s : m.sources()) opt->sources.push_back(s);
  return absl::OkStatus();
}

void ToProto(const codegen::Plan& plan, const codegen::Output& out, codegen::Lang lang, v2::CodegenResponse* m) {
  m->set_generated(out.generated);
  if (out.generated) {
    v2::GeneratedFile* f = m->add_files();
    f->set_name(codegen::DefaultFileName(plan, lang));
    f->set_content(out.text);
  } else {
    m->set_rejection(out.rejection);
  }
  for (const codegen::PlannedMap& p : plan.maps) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::MAP);
    it->set_identifier(p.ident);
    it->set_valid(p.validation.valid);
    for (const Diagnostic& d : MakeDiagnostics(p.spec, p.validation)) DiagnosticToProto(d, it->add_diagnostics());
  }
  for (const codegen::PlannedDesc& p : plan.descs) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::MATRIX_DESCRIPTOR);
    it->set_identifier(StrCat(plan.maps[p.map_index].ident, "::", p.ident));
    it->set_valid(p.validation.valid);
    for (const desc::DescDiagnostic& d : codegen::Diagnostics(p)) DiagnosticToProto(d, it->add_diagnostics());
  }
  for (const codegen::PlannedIdesc& p : plan.idescs) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::INSTRUCTION_DESCRIPTOR);
    it->set_identifier(p.ident);
    it->set_valid(p.validation.valid);
    for (const desc::DescDiagnostic& d : codegen::Diagnostics(p)) DiagnosticToProto(d, it->add_diagnostics());
  }
}

// ---------------------------------------------------------------------------------------------- check

void ToProto(const std::vector<TensorMapSpec>& specs, const std::vector<std::string>& names, uint64_t seed, bool verbose,
             v2::CheckRequest* m) {
  m->Clear();
  for (size_t i = 0; i < specs.size(); ++i) {
    v2::NamedSpec* n = m->add_specs();
    n->set_name(i < names.size() ? names[i] : specs[i].name);
    SpecToProto(specs[i], n->mutable_spec());
  }
  m->set_seed(seed);
  m->set_verbose(verbose);
  m->mutable_render()->set_format(v2::Rendering::TEXT);
}

absl::Status FromProto(const v2::CheckRequest& m, const RequestLimits& limits, std::vector<TensorMapSpec>* specs,
                       std::vector<std::string>* names, uint64_t* seed) {
  specs->clear();
  names->clear();
  if (m.specs_size() == 0) return Bad("specs", "no spec");
  if (static_cast<uint32_t>(m.specs_size()) > limits.max_check_specs)
    return TooMany("specs", m.specs_size(), limits.max_check_specs);
  if (m.render().format() == v2::Rendering::JSON) return Bad("render.format", "Check renders TEXT only");
  for (int i = 0; i < m.specs_size(); ++i) {
    TensorMapSpec s;
    if (absl::Status st = SpecFromMessage(m.specs(i).spec(), StrCat("specs[", i, "].spec."), &s); !st.ok()) return st;
    specs->push_back(std::move(s));
    names->push_back(m.specs(i).name().empty() ? StrCat("spec ", i) : m.specs(i).name());
  }
  *seed = m.has_seed() ? m.seed() : 1;
  return absl::OkStatus();
}

void ToProto(const gpu::CheckReport& r, v2::CheckResponse* m) {
  m->set_device(r.device);
  m->set_seed(r.seed);
  for (const gpu::SpecCheck& sc : r.specs) {
    v2::SpecCheck* p = m->add_specs();
    p->set_name(sc.name);
    p->set_valid(sc.invalid.empty());
    p->set_invalid_reason(sc.invalid);
    p->set_skipped_coordinates(static_cast<uint32_t>(sc.skipped));
    p->set_skip_reason(sc.skip_reason);
    for (const gpu::CopyCheck& c : sc.copies) {
      v2::CopyResult* q = p->add_copies();
      q->set_kind(c.kind);
      q->set_label(c.label);
      for (int64_t x : c.coords) q->add_coordinates(x);
      q->set_outcome(static_cast<v2::CopyOutcome>(static_cast<int>(c.outcome) + 1));
      q->set_passed(c.outcome == gpu::Outcome::kPass);
      q->set_detail(c.detail);
      if (c.mismatch.present) {
        v2::Mismatch* mm = q->mutable_first_mismatch();
        mm->set_global(c.mismatch.global);
        mm->set_offset(c.mismatch.offset);
        mm->set_expected(c.mismatch.expected);
        mm->set_actual(c.mismatch.actual);
        mm->set_differing_bytes(c.mismatch.differing);
        mm->set_compared_bytes(c.mismatch.compared);
      }
    }
  }
  m->set_passed(static_cast<uint32_t>(r.passed));
  m->set_failed(static_cast<uint32_t>(r.failed));
  m->set_not_run(static_cast<uint32_t>(r.not_run));
  m->set_invalid_specs(static_cast<uint32_t>(r.invalid_specs));
  m->set_processes(static_cast<uint32_t>(r.processes));
  m->set_all_passed(gpu::Passed(r));
}

// ---------------------------------------------------------------------------------------------- decode

void ToProto(const std::vector<blob::MapBytes>& maps, const std::vector<std::string>& labels, const blob::DecodeOptions& o,
             v2::DecodeRequest* m) {
  m->Clear();
  for (const blob::MapBytes& b : maps) m->add_maps(reinterpret_cast<const char*>(b.data()), b.size());
  for (const std::string& l : labels) m->add_labels(l);
  if (o.has_target) m->set_target(std::string(Name(o.target)));
  m->set_no_validate(!o.validate);
  m->mutable_render()->set_format(o.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
  m->mutable_render()->set_color(o.color);
}

absl::Status FromProto(const v2::DecodeRequest& m, const RequestLimits& limits, std::vector<blob::MapBytes>* maps,
                       std::vector<std::string>* labels, blob::DecodeOptions* o) {
  maps->clear();
  labels->clear();
  *o = blob::DecodeOptions();
  if (m.maps_size() == 0) return Bad("maps", "no map");
  if (static_cast<uint32_t>(m.maps_size()) > limits.max_decode_maps) return TooMany("maps", m.maps_size(), limits.max_decode_maps);
  if (m.labels_size() > m.maps_size()) return Bad("labels", StrCat(m.labels_size(), " labels for ", m.maps_size(), " maps"));
  for (int i = 0; i < m.maps_size(); ++i) {
    const std::string& b = m.maps(i);
    if (b.size() != blob::kMapBytes)
      return Bad(StrCat("maps[", i, "]"), StrCat(b.size(), " bytes; a CUtensorMap is ", blob::kMapBytes));
    blob::MapBytes mb;
    std::copy(b.begin(), b.end(), reinterpret_cast<char*>(mb.data()));
    maps->push_back(mb);
    labels->push_back(i < m.labels_size() && !m.labels(i).empty() ? m.labels(i) : StrCat("map ", i));
  }
  if (absl::Status s = TargetFromProto(m.target(), "target", &o->has_target, &o->target); !s.ok()) return s;
  o->validate = !m.no_validate();
  if (m.render().format() < v2::Rendering::NONE || m.render().format() > v2::Rendering::JSON)
    return BadEnum("render.format", m.render().format());
  o->json = m.render().format() == v2::Rendering::JSON;
  o->color = !o->json && m.render().color();
  return absl::OkStatus();
}

void ToProto(int index, const std::string& label, const blob::Decoded& d, const blob::DecodeOptions& o, bool* valid,
             v2::DecodedMap* m) {
  m->set_label(label);
  m->set_layout(std::string(blob::LayoutName(d.layout)));
  m->set_reencodes(d.reencodes);
  m->set_maybe_wide(d.maybe_wide);
  m->set_spec_recovered(d.spec_ok);
  const TensorMapSpec spec = blob::ReportedSpec(d, o);
  if (d.spec_ok) SpecToProto(spec, m->mutable_spec());
  for (const blob::FieldValue& fv : d.fields) {
    v2::DecodedField* f = m->add_fields();
    f->set_name(std::string(fv.field->name));
    f->set_bits(blob::BitsText(*fv.field));
    f->set_kind(std::string(blob::KindName(fv.field->kind)));
    f->set_raw(fv.raw);
    f->set_value(fv.value);
    f->set_text(blob::ValueText(fv, d.spec));
  }
  for (const blob::FieldValue& fv : d.recognised) {
    v2::RecognisedBit* r = m->add_recognised();
    r->set_name(std::string(fv.field->name));
    r->set_bits(blob::BitsText(*fv.field));
    r->set_raw(fv.raw);
    r->set_meaning(std::string(fv.field->meaning));
  }
  for (const blob::UnexplainedBit& u : d.unexplained) {
    v2::UnexplainedBit* x = m->add_unexplained();
    x->set_bit(u.bit);
    x->set_other_field(std::string(u.other_field));
  }
  for (const blob::DecodeFinding& f : d.findings) {
    v2::DecodeFinding* x = m->add_findings();
    x->set_field(f.field);
    x->set_message(f.message);
    x->set_note(f.note);
  }
  *valid = d.spec_ok;
  if (d.spec_ok && o.validate) {
    Validation v;
    Validate(spec, &v);
    *valid = v.valid;
    FillReport(index, spec, v, tmapgen::Encoding(), m->mutable_report());
  }
  m->set_valid(*valid);
  m->set_clean(blob::Clean(d));
}

}  // namespace tmapgen::server
