// proto_convert.cc: see proto_convert.h. The conversions are the ones cli/textproto_protobuf.cc had.
#include "src/schema/proto_convert.h"

#include "src/util/strings.h"

namespace tmapgen {
namespace {

template <typename R, typename A>
absl::Status CopyRepeated(const R& from, A* to, uint32_t* count, const char* name) {
  if (static_cast<size_t>(from.size()) > to->size())
    return InputErrorAt(name, StrCat("has ", from.size(), " entries; at most ", to->size()));
  for (int i = 0; i < from.size(); ++i) (*to)[static_cast<size_t>(i)] = from.Get(i);
  *count = static_cast<uint32_t>(from.size());
  return absl::OkStatus();
}

}  // namespace

absl::Status SpecFromProto(const v1::TensorMapSpec& m, TensorMapSpec* s) {
  // Binary Protobuf keeps enum numbers the schema does not name; the core would misread them.
#define TMAPGEN_CHECK_ENUM(F, PType, CType)                                                          \
  if (m.has_##F() && !v1::PType##_IsValid(m.F())) {                                                \
    return InputErrorAt(#F, StrCat("unknown value ", static_cast<int>(m.F()), "; expected one of: ",    \
                                   AcceptedNames(static_cast<CType*>(nullptr))));                    \
  }
  TMAPGEN_CHECK_ENUM(mode, Mode, Mode)
  TMAPGEN_CHECK_ENUM(direction, Direction, Direction)
  TMAPGEN_CHECK_ENUM(reduce_op, ReduceOp, ReduceOp)
  TMAPGEN_CHECK_ENUM(tensor_data_type, TensorDataType, DataType)
  TMAPGEN_CHECK_ENUM(interleave, Interleave, Interleave)
  TMAPGEN_CHECK_ENUM(swizzle, Swizzle, Swizzle)
  TMAPGEN_CHECK_ENUM(l2_promotion, L2Promotion, L2Promotion)
  TMAPGEN_CHECK_ENUM(oob_fill, OobFill, OobFill)
  TMAPGEN_CHECK_ENUM(wide_mode, Im2colWideMode, Im2colWideMode)
#undef TMAPGEN_CHECK_ENUM
  *s = TensorMapSpec();
  uint32_t counts[kNumSpecArrays];
  for (uint32_t& c : counts) c = kAbsentCount;
  uint32_t& set = s->set_fields;
  if (m.has_name()) { s->name = m.name(); set |= kFieldName; }
  if (m.has_mode()) { s->mode = static_cast<Mode>(m.mode()); set |= kFieldMode; }
  if (m.has_direction()) { s->direction = static_cast<Direction>(m.direction()); set |= kFieldDirection; }
  if (m.has_reduce_op()) { s->reduce_op = static_cast<ReduceOp>(m.reduce_op()); set |= kFieldReduceOp; }
  if (m.has_tensor_data_type()) { s->data_type = static_cast<DataType>(m.tensor_data_type()); set |= kFieldDataType; }
  if (m.has_tensor_rank()) { s->rank = m.tensor_rank(); set |= kFieldRank; }
  if (m.has_global_address()) { s->global_address = m.global_address(); set |= kFieldGlobalAddress; }
  if (m.global_dim_size() > 0) {
    if (absl::Status st = CopyRepeated(m.global_dim(), &s->global_dim, &counts[kArrGlobalDim], "global_dim"); !st.ok()) return st;
    set |= kFieldGlobalDim;
  }
  if (m.global_strides_size() > 0) {
    if (absl::Status st = CopyRepeated(m.global_strides(), &s->global_strides, &counts[kArrGlobalStrides], "global_strides"); !st.ok()) return st;
    set |= kFieldGlobalStrides;
  }
  if (m.box_dim_size() > 0) {
    if (absl::Status st = CopyRepeated(m.box_dim(), &s->box_dim, &counts[kArrBoxDim], "box_dim"); !st.ok()) return st;
    set |= kFieldBoxDim;
  }
  if (m.element_strides_size() > 0) {
    if (absl::Status st = CopyRepeated(m.element_strides(), &s->element_strides, &counts[kArrElementStrides], "element_strides"); !st.ok()) return st;
    set |= kFieldElementStrides;
  }
  if (m.has_interleave()) { s->interleave = static_cast<Interleave>(m.interleave()); set |= kFieldInterleave; }
  if (m.has_swizzle()) { s->swizzle = static_cast<Swizzle>(m.swizzle()); set |= kFieldSwizzle; }
  if (m.has_l2_promotion()) { s->l2_promotion = static_cast<L2Promotion>(m.l2_promotion()); set |= kFieldL2Promotion; }
  if (m.has_oob_fill()) { s->oob_fill = static_cast<OobFill>(m.oob_fill()); set |= kFieldOobFill; }
  if (m.pixel_box_lower_corner_size() > 0) {
    if (absl::Status st = CopyRepeated(m.pixel_box_lower_corner(), &s->pixel_box_lower_corner, &counts[kArrLowerCorner], "pixel_box_lower_corner"); !st.ok()) return st;
    set |= kFieldLowerCorner;
  }
  if (m.pixel_box_upper_corner_size() > 0) {
    if (absl::Status st = CopyRepeated(m.pixel_box_upper_corner(), &s->pixel_box_upper_corner, &counts[kArrUpperCorner], "pixel_box_upper_corner"); !st.ok()) return st;
    set |= kFieldUpperCorner;
  }
  if (m.has_pixel_box_lower_corner_width()) { s->pixel_box_lower_corner_width = m.pixel_box_lower_corner_width(); set |= kFieldLowerCornerWidth; }
  if (m.has_pixel_box_upper_corner_width()) { s->pixel_box_upper_corner_width = m.pixel_box_upper_corner_width(); set |= kFieldUpperCornerWidth; }
  if (m.has_channels_per_pixel()) { s->channels_per_pixel = m.channels_per_pixel(); set |= kFieldChannelsPerPixel; }
  if (m.has_pixels_per_column()) { s->pixels_per_column = m.pixels_per_column(); set |= kFieldPixelsPerColumn; }
  if (m.has_wide_mode()) { s->wide_mode = static_cast<Im2colWideMode>(m.wide_mode()); set |= kFieldWideMode; }
  if (m.has_target()) {
    if (!Parse(m.target(), &s->target))
      return InputErrorAt("target", StrCat("unknown value \"", m.target(), "\"; expected one of: ",
                                           AcceptedNames(static_cast<Target*>(nullptr))));
    set |= kFieldTarget;
  }
  if (m.has_smem_address()) { s->smem_address = m.smem_address(); set |= kFieldSmemAddress; }
  if (m.has_smem_alignment()) { s->smem_alignment = m.smem_alignment(); set |= kFieldSmemAlignment; }
  if (m.has_driver_version()) { s->driver_version = m.driver_version(); set |= kFieldDriverVersion; }
  return FinishSpec(s, counts);
}

void SpecToProto(const TensorMapSpec& s, v1::TensorMapSpec* m) {
  const uint32_t r = s.rank > kMaxRank ? kMaxRank : s.rank;
  if (!s.name.empty()) m->set_name(s.name);
  m->set_mode(static_cast<v1::Mode>(s.mode));
  m->set_direction(static_cast<v1::Direction>(s.direction));
  if (s.direction == Direction::kReduce) m->set_reduce_op(static_cast<v1::ReduceOp>(s.reduce_op));
  m->set_tensor_data_type(static_cast<v1::TensorDataType>(s.data_type));
  m->set_tensor_rank(s.rank);
  if (s.Has(kFieldGlobalAddress)) m->set_global_address(s.global_address);
  for (uint32_t i = 0; i < r; ++i) m->add_global_dim(s.global_dim[i]);
  for (uint32_t i = 0; i + 1 < r; ++i) m->add_global_strides(s.global_strides[i]);
  if (!IsIm2colMode(s.mode)) for (uint32_t i = 0; i < r; ++i) m->add_box_dim(s.box_dim[i]);
  for (uint32_t i = 0; i < r; ++i) m->add_element_strides(s.element_strides[i]);
  m->set_interleave(static_cast<v1::Interleave>(s.interleave));
  m->set_swizzle(static_cast<v1::Swizzle>(s.swizzle));
  m->set_l2_promotion(static_cast<v1::L2Promotion>(s.l2_promotion));
  m->set_oob_fill(static_cast<v1::OobFill>(s.oob_fill));
  if (s.mode == Mode::kIm2col) {
    for (uint32_t i = 0; i + 2 < r; ++i) m->add_pixel_box_lower_corner(s.pixel_box_lower_corner[i]);
    for (uint32_t i = 0; i + 2 < r; ++i) m->add_pixel_box_upper_corner(s.pixel_box_upper_corner[i]);
  }
  if (IsWideMode(s.mode)) {
    m->set_pixel_box_lower_corner_width(s.pixel_box_lower_corner_width);
    m->set_pixel_box_upper_corner_width(s.pixel_box_upper_corner_width);
    m->set_wide_mode(static_cast<v1::Im2colWideMode>(s.wide_mode));
  }
  if (IsIm2colMode(s.mode)) {
    m->set_channels_per_pixel(s.channels_per_pixel);
    m->set_pixels_per_column(s.pixels_per_column);
  }
  if (s.has_target()) m->set_target(std::string(Name(s.target)));
  if (s.Has(kFieldSmemAddress)) m->set_smem_address(s.smem_address);
  if (s.Has(kFieldSmemAlignment)) m->set_smem_alignment(s.smem_alignment);
  if (s.Has(kFieldDriverVersion)) m->set_driver_version(s.driver_version);
}
void DiagnosticToProto(const Diagnostic& d, v1::Diagnostic* p) {
  p->set_rule(std::string(d.rule));
  p->set_severity(std::string(Name(d.severity)));
  p->set_field(d.field.data(), d.field.size());
  p->set_message(d.message.data(), d.message.size());
  p->set_fix(d.fix.data(), d.fix.size());
  p->set_source(std::string(d.source));
  p->set_target(std::string(d.target));
  p->set_value(d.value);
  p->set_limit(d.limit);
}

void FillReport(int index, const TensorMapSpec& s, const Validation& v, const Encoding& enc, v1::Report* r) {
  r->set_index(index);
  r->set_name(s.name);
  r->set_valid(v.valid);
  if (s.has_target()) r->set_target(std::string(Name(s.target)));
  for (int t = 0; t < kNumTargets; ++t)
    if (v.valid_targets & (1u << t)) r->add_valid_targets(std::string(Name(static_cast<Target>(t))));
  Target min_target;
  if (LowestValidTarget(s, v.valid_targets, &min_target)) r->set_min_target(std::string(Name(min_target)));
  for (const Diagnostic& d : MakeDiagnostics(s, v)) DiagnosticToProto(d, r->add_diagnostics());
  const DerivedFacts& f = v.facts;
  v1::DerivedFacts* df = r->mutable_derived();
  df->set_encoder(std::string(Name(f.encoder)));
  df->set_element_bits(f.element_bits);
  df->set_smem_element_bits(f.smem_element_bits);
  df->set_inner_box_bytes(f.inner_box_bytes);
  df->set_elements_per_copy(f.elements_per_copy);
  df->set_transaction_bytes(f.transaction_bytes);
  df->set_bytes_per_halo_pixel(f.bytes_per_halo_pixel);
  df->set_smem_footprint_bytes(f.smem_footprint_bytes);
  df->set_smem_alignment_required(f.smem_alignment_required);
  df->set_smem_alignment_recommended(f.smem_alignment_recommended);
  df->set_swizzle_span(f.swizzle_span);
  df->set_swizzle_repeat(f.swizzle_repeat);
  df->set_swizzle_atomicity(f.swizzle_atomicity);
  if (f.swizzle_base_offset >= 0) df->set_swizzle_base_offset(f.swizzle_base_offset);
  df->set_global_extent_bytes(f.global_extent_bytes);
  df->set_smem_row_pitch(f.smem_row_pitch);
  df->set_coord0_multiple(f.coord0_multiple);
  df->set_bytes_per_copy(f.bytes_per_copy);
  df->set_completion(std::string(Name(CompletionOf(s.direction))));
  df->set_smem_role(std::string(Name(SmemRoleOf(s.direction))));
  for (const std::string& p : PtxForms(s)) df->add_ptx(p);
  SpecToProto(s, r->mutable_spec());
  if (!v.valid) {
    TensorMapSpec fixed;
    if (NearestValid(s, &fixed)) {
      for (const std::string& c : DescribeChanges(s, fixed)) r->add_nearest_valid_changes(c);
      SpecToProto(fixed, r->mutable_nearest_valid());
    }
  }
  if (enc.attempted) {
    v1::Encoding* e = r->mutable_encoding();
    e->set_cu_result(enc.cu_result);
    e->set_error_name(enc.error_name);
    e->set_device(enc.device);
    e->set_note(enc.note);
    if (enc.cu_result == 0) for (uint64_t w : enc.map) e->add_words(w);
  }
}

void FillInputErrorReport(int index, const InputError& e, v1::Report* r) {
  r->set_index(index);
  r->set_valid(false);
  v1::Diagnostic* d = r->add_diagnostics();
  d->set_rule("input-error");
  d->set_severity("error");
  d->set_field(e.field);
  d->set_message(e.message);
  d->set_fix("correct the input; docs/schema.md describes every field");
  d->set_source("tmapgen spec schema (docs/schema.md)");
}

}  // namespace tmapgen
