// validation_compare.h: whether two Validations are identical (verdict, targets, counts, every finding, every
// derived fact), for the fuzz targets that hold Validate's fast path to the rule table (src/tmap/fast_path.h).
#ifndef TMAPGEN_FUZZ_VALIDATION_COMPARE_H_
#define TMAPGEN_FUZZ_VALIDATION_COMPARE_H_

#include "src/tmap/validator.h"

namespace tmapgen::fuzz {

inline bool SameFacts(const DerivedFacts& a, const DerivedFacts& b) {
  return a.encoder == b.encoder && a.element_bits == b.element_bits && a.smem_element_bits == b.smem_element_bits &&
         a.inner_box_bytes == b.inner_box_bytes && a.elements_per_copy == b.elements_per_copy &&
         a.bytes_per_copy == b.bytes_per_copy && a.transaction_bytes == b.transaction_bytes &&
         a.halo_adds_bytes == b.halo_adds_bytes &&
         a.bytes_per_halo_pixel == b.bytes_per_halo_pixel && a.smem_footprint_bytes == b.smem_footprint_bytes &&
         a.smem_row_pitch == b.smem_row_pitch && a.coord0_multiple == b.coord0_multiple &&
         a.smem_alignment_required == b.smem_alignment_required &&
         a.smem_alignment_recommended == b.smem_alignment_recommended && a.swizzle_span == b.swizzle_span &&
         a.swizzle_repeat == b.swizzle_repeat && a.swizzle_atomicity == b.swizzle_atomicity &&
         a.swizzle_base_offset == b.swizzle_base_offset && a.global_extent_bytes == b.global_extent_bytes &&
         a.valid_targets == b.valid_targets;
}

inline bool SameValidation(const Validation& a, const Validation& b) {
  if (a.valid != b.valid || a.valid_targets != b.valid_targets || a.reported_target != b.reported_target ||
      a.failed_targets != b.failed_targets || a.errors != b.errors || a.warnings != b.warnings || a.notes != b.notes ||
      a.findings.size() != b.findings.size() || a.findings.dropped() != b.findings.dropped())
    return false;
  for (int i = 0; i < a.findings.size(); ++i) {
    const Finding &x = a.findings[i], &y = b.findings[i];
    if (x.rule != y.rule || x.index != y.index || x.target != y.target || x.value != y.value || x.limit != y.limit ||
        x.value_unsigned != y.value_unsigned)
      return false;
  }
  return SameFacts(a.facts, b.facts);
}

// Validate (fast path first) against the table alone on one spec; the fast path alone, where it answers,
// must agree too and may only answer for a spec on which the table finds nothing.
inline bool FastPathAgrees(const TensorMapSpec& spec) {
  Validation fast, table, alone;
  Validate(spec, &fast);
  ValidateByTable(spec, &table);
  if (!SameValidation(fast, table)) return false;
  if (ValidateFastPath(spec, &alone))
    return SameValidation(alone, table) && table.valid && table.findings.size() == 0;
  return true;
}

}  // namespace tmapgen::fuzz

#endif  // TMAPGEN_FUZZ_VALIDATION_COMPARE_H_
