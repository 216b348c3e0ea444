// desc_test_util.h: helpers shared by the descriptor tests: run the rules on a layout, a raw value, a
// map or an instruction descriptor, and ask whether a rule tripped.
//
// Short names of the documents the expectations come from (see docs/descriptors.md):
//   [PTX-WGMMA]  PTX ISA 9.2, 9.7.15.5.1.2 (shared memory layout, strides, canonical layouts, worked
//                examples) and 9.7.15.5.1.2.2 (matrix descriptor format)
//   [PTX-TC]     PTX ISA 9.2, 9.7.16.3 (tcgen05 strides, canonical layouts), 9.7.16.4.1 (Tables 40-41)
//   [PTX-ID]     PTX ISA 9.2, 9.7.16.4.2 (Tables 42-44), 9.7.16.2.1 (Table 39)
//   [PTX-SW]     PTX ISA 9.2, 5.5.7 (swizzle patterns and base offset)
//   [SPEC]       /work/shared/reference/tma-spec.md (sections 2.2, 3, 4)
#ifndef TMAPGEN_TESTS_DESC_DESC_TEST_UTIL_H_
#define TMAPGEN_TESTS_DESC_DESC_TEST_UTIL_H_

#include <string>
#include <string_view>

#include "src/desc/desc_rules.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::desc::test {

inline bool Has(const DescValidation& v, std::string_view id) {
  const int r = FindDescRule(id);
  if (r < 0) return false;
  for (const Finding& f : v.findings)
    if (f.rule == r) return true;
  return false;
}

// The default tile of most tests: tcgen05, operand A, K-major bf16, 128B swizzle, 128 x 64 at 0x400.
inline OperandLayout Tile() {
  OperandLayout l;
  l.arch = DescArch::kTcgen05;
  l.operand = Operand::kA;
  l.major = Major::kK;
  l.type = ElemType::kBF16;
  l.swizzle = DescSwizzle::k128B;
  l.mn = 128;
  l.k = 64;
  l.smem_address = 0x400;
  return l;
}

struct LayoutRun {
  OperandLayout layout;
  LayoutFacts facts;
  SmemDesc desc;
  Advance advance;
  DescValidation v;
};

// Builds the descriptor of `l` and validates layout and value (and an advance when asked).
inline LayoutRun RunLayout(const OperandLayout& l, bool has_target = false, Target target = Target::kSm100a,
                           const Advance* advance = nullptr) {
  LayoutRun r;
  r.layout = l;
  r.facts = ComputeLayoutFacts(l);
  r.desc = BuildSmemDesc(r.layout, r.facts);
  SmemCheck c;
  c.desc = r.desc;
  c.layout = &r.layout;
  c.facts = &r.facts;
  c.has_target = has_target;
  c.target = target;
  if (advance != nullptr) {
    r.advance = *advance;
    c.advance = &r.advance;
  }
  ValidateSmem(c, &r.v);
  return r;
}

inline DescValidation RunValue(const SmemDesc& d, bool has_target = false, Target target = Target::kSm100a) {
  SmemCheck c;
  c.desc = d;
  c.user_value = true;
  c.has_target = has_target;
  c.target = target;
  DescValidation v;
  ValidateSmem(c, &v);
  return v;
}

// A tiled 2D map: `dtype` [4096, 4096], box [box0, box1], swizzle, destination.
inline TensorMapSpec Map2d(DataType dtype, uint32_t box0, uint32_t box1, Swizzle sw, uint64_t smem) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = dtype;
  s.rank = 2;
  s.global_dim = {4096, 4096, 0, 0, 0};
  s.global_strides = {4096ull * static_cast<uint64_t>(DataTypeBits(dtype)) / 8, 0, 0, 0};
  s.box_dim = {box0, box1, 0, 0, 0};
  s.swizzle = sw;
  s.smem_address = smem;
  s.set_fields |= kFieldSmemAddress;
  return s;
}

struct MapRun {
  MapDerivation d;
  DescValidation v;
};

// Derives from the map; checks `user` against it when given (else the derived descriptor itself).
inline MapRun RunMap(const TensorMapSpec& map, const MapUse& use, const SmemDesc* user = nullptr) {
  MapRun r;
  DeriveFromMap(map, use, &r.d);
  SmemCheck c;
  c.desc = user ? *user : r.d.desc;
  c.user_value = user != nullptr;
  c.layout = &r.d.layout;
  c.facts = &r.d.facts;
  c.map = &r.d;
  c.has_target = use.has_target;
  c.target = use.target;
  ValidateSmem(c, &r.v);
  return r;
}

inline DescValidation RunIdesc(const IdescSpec& s) {
  IdescCheck c;
  c.spec = s;
  c.fields = DecodeIdescFields(EncodeIdesc(s), s.kind);
  DescValidation v;
  ValidateIdesc(c, &v);
  return v;
}

inline DescValidation RunIdescValue(uint32_t value, MmaKind kind, IdescSpec context = IdescSpec()) {
  context.kind = kind;
  IdescCheck c;
  c.fields = DecodeIdescFields(value, kind);
  c.spec = SpecFromFields(c.fields, context);
  c.user_value = true;
  DescValidation v;
  ValidateIdesc(c, &v);
  return v;
}

}  // namespace tmapgen::desc::test

#endif  // TMAPGEN_TESTS_DESC_DESC_TEST_UTIL_H_
