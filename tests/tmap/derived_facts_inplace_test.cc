// ComputeDerivedFacts(spec, &facts) sets every field whatever *facts held before (the validator reuses one
// DerivedFacts from spec to spec): compared field by field with a fresh ComputeDerivedFacts(spec), after the
// reused one was filled from very different specs first.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "src/tmap/derived_facts.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {
namespace {

void ExpectSameFacts(const DerivedFacts& a, const DerivedFacts& b) {
  EXPECT_EQ(a.encoder, b.encoder);
  EXPECT_EQ(a.element_bits, b.element_bits);
  EXPECT_EQ(a.smem_element_bits, b.smem_element_bits);
  EXPECT_EQ(a.inner_box_bytes, b.inner_box_bytes);
  EXPECT_EQ(a.elements_per_copy, b.elements_per_copy);
  EXPECT_EQ(a.bytes_per_copy, b.bytes_per_copy);
  EXPECT_EQ(a.transaction_bytes, b.transaction_bytes);
  EXPECT_EQ(a.halo_adds_bytes, b.halo_adds_bytes);
  EXPECT_EQ(a.bytes_per_halo_pixel, b.bytes_per_halo_pixel);
  EXPECT_EQ(a.smem_footprint_bytes, b.smem_footprint_bytes);
  EXPECT_EQ(a.smem_row_pitch, b.smem_row_pitch);
  EXPECT_EQ(a.coord0_multiple, b.coord0_multiple);
  EXPECT_EQ(a.smem_alignment_required, b.smem_alignment_required);
  EXPECT_EQ(a.smem_alignment_recommended, b.smem_alignment_recommended);
  EXPECT_EQ(a.swizzle_span, b.swizzle_span);
  EXPECT_EQ(a.swizzle_repeat, b.swizzle_repeat);
  EXPECT_EQ(a.swizzle_atomicity, b.swizzle_atomicity);
  EXPECT_EQ(a.swizzle_base_offset, b.swizzle_base_offset);
  EXPECT_EQ(a.global_extent_bytes, b.global_extent_bytes);
  EXPECT_EQ(a.valid_targets, b.valid_targets);
}

TEST(DerivedFactsInPlace, EveryFieldIsSetWhateverWasThere) {
  // Specs that set different fields: im2col::w (halo), a known shared-memory address (base offset), a
  // rank-1 tiled map (extent from the row), an interleaved map, a prefetch.
  std::vector<TensorMapSpec> specs;
  for (Mode m : {Mode::kTiled, Mode::kIm2col, Mode::kIm2colW, Mode::kIm2colW128, Mode::kGather4, Mode::kScatter4})
    specs.push_back(DefaultSpec(m));
  TensorMapSpec a = DefaultSpec(Mode::kTiled);
  a.smem_address = 0x1180;
  a.set_fields |= kFieldSmemAddress;
  specs.push_back(a);
  TensorMapSpec r1 = DefaultSpec(Mode::kTiled);
  r1.rank = 1;
  r1.box_dim = {64, 0, 0, 0, 0};
  specs.push_back(r1);
  TensorMapSpec il = DefaultSpec(Mode::kTiled);
  il.rank = 3;
  il.global_dim = {64, 32, 16, 0, 0};
  il.box_dim = {8, 4, 2, 0, 0};
  il.interleave = Interleave::k16B;
  il.swizzle = Swizzle::kNone;
  FillPaddedStrides(&il);
  specs.push_back(il);
  TensorMapSpec pf = DefaultSpec(Mode::kTiled);
  pf.direction = Direction::kPrefetch;
  specs.push_back(pf);
  for (size_t i = 0; i < specs.size(); ++i) {
    for (size_t j = 0; j < specs.size(); ++j) {
      DerivedFacts reused;
      ComputeDerivedFacts(specs[j], &reused);
      reused.valid_targets = 0x5a5a;  // as the validator leaves it
      ComputeDerivedFacts(specs[i], &reused);
      SCOPED_TRACE(testing::Message() << "spec " << i << " after spec " << j);
      ExpectSameFacts(reused, ComputeDerivedFacts(specs[i]));
    }
  }
}

}  // namespace
}  // namespace tmapgen
