// matrix_descriptor.cc: see matrix_descriptor.h.
#include "src/rpc/matrix_descriptor.h"

#include "src/desc/desc_rules.h"
#include "src/rpc/common.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::BadEnum;
using detail::DiagnosticToProto;
using detail::EnumFromProto;
using detail::EnumToProto;
using detail::FieldToProto;
using detail::SpecFromMessage;
using detail::TargetFromProto;
using desc::DescArch;
using desc::DescSwizzle;
using desc::Major;

namespace {

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

}  // namespace tmapgen::rpc
