// report_proto.cc: see report_proto.h.
#include "src/report/report_proto.h"

#include "src/report/diagnostics.h"
#include "src/schema/proto_convert.h"

namespace tmapgen {

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
