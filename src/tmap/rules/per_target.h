// per_target.h: the rules checked once per target: Blackwell-only features, shared-memory
//   capacity, the driver's box limit.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in per_target.cc; they run only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_PER_TARGET_H_
#define TMAPGEN_SRC_TMAP_RULES_PER_TARGET_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// What the per-target checks below may read of their target: whether its compute capability is at least
// 10.0 and at least 12.0, whether it is an arch-specific or family target (variant 'a' or 'f'), and its
// shared memory per block. Targets alike in these get the same verdict from every per-target rule (their
// findings differ only in the target they name and the capability they print), so the validator counts a
// spec's per-target errors once per class (validator.cc, specs without a target). A check that reads more of
// the target must add it here; tests/tmap/per_target_class_test.cc runs every rule for every target on the
// corpora and requires the same error count within each class.
constexpr uint64_t PerTargetClassKey(Target t) {
  const TargetInfo& i = Info(t);
  return (uint64_t{i.cc >= 100} << 0) | (uint64_t{i.cc >= 120} << 1) | (uint64_t{i.variant != ' '} << 2) |
         (static_cast<uint64_t>(static_cast<uint32_t>(i.max_smem_per_block)) << 8);
}
// For each target, the first target of its class (itself when it is the first).
struct PerTargetClasses {
  uint8_t first[kNumTargets];
  constexpr PerTargetClasses() : first() {
    for (int t = 0; t < kNumTargets; ++t) {
      first[t] = static_cast<uint8_t>(t);
      for (int u = 0; u < t; ++u)
        if (PerTargetClassKey(static_cast<Target>(u)) == PerTargetClassKey(static_cast<Target>(t))) {
          first[t] = static_cast<uint8_t>(u);
          break;
        }
    }
  }
};
inline constexpr PerTargetClasses kPerTargetClasses;

// ---- targets ----
inline void CheckTargetAtomicity(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsAtomicitySwizzle(c.spec.swizzle) && Info(c.target).cc < 100) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
void MsgTargetAtomicity(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixTargetAtomicity(const TensorMapSpec&, const Finding&, TextOut& o);
inline void CheckTargetSubByte(const CheckContext& c, uint16_t r, FindingList* o) {
  if (IsSubByte(c.spec.data_type) && Info(c.target).cc < 100) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
void MsgTargetSubByte(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixTargetSubByte(const TensorMapSpec&, const Finding&, TextOut& o);
// Which targets can execute the mode in the declared direction (PTX ISA 9.7.9.25.5.2 target table).
inline bool TargetRunsMode(Target t, Mode m, Direction d) {
  const TargetInfo& i = Info(t);
  switch (m) {
    case Mode::kTiled: case Mode::kIm2col: return true;
    case Mode::kGather4: case Mode::kIm2colW:
      if (d == Direction::kLoadCta) return i.cc >= 100;
      if (d == Direction::kLoadCluster || d == Direction::kPrefetch) return HasBlackwellDatacenterFeatures(t);
      return i.cc >= 100;  // im2col::w stores (.im2col_no_offs) need an Im2colWide map: cc >= 10.0
    case Mode::kScatter4: case Mode::kIm2colW128:
      return HasBlackwellDatacenterFeatures(t);
  }
  return false;
}
inline void CheckTargetMode(const CheckContext& c, uint16_t r, FindingList* o) {
  if (!TargetRunsMode(c.target, c.spec.mode, c.spec.direction)) o->Add(r, -1, Info(c.target).cc, 100, c.target);
}
void MsgTargetMode(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixTargetMode(const TensorMapSpec& s, const Finding&, TextOut& o);
inline void CheckTargetSm120Cluster(const CheckContext& c, uint16_t r, FindingList* o) {
  const TensorMapSpec& s = c.spec;
  if (Info(c.target).cc >= 120 && s.direction == Direction::kLoadCluster &&
      (IsSubByte(s.data_type) || IsAtomicitySwizzle(s.swizzle)))
    o->Add(r, -1, Info(c.target).cc, 0, c.target);
}
void MsgTargetSm120Cluster(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixTargetSm120Cluster(const TensorMapSpec&, const Finding&, TextOut& o);
inline void CheckTargetSmemCapacity(const CheckContext& c, uint16_t r, FindingList* o) {
  const int cap = Info(c.target).max_smem_per_block;
  if (c.spec.direction != Direction::kPrefetch && c.facts.smem_footprint_bytes > static_cast<uint64_t>(cap))
    o->AddU(r, -1, c.facts.smem_footprint_bytes, cap, c.target);
}
void MsgTargetSmemCapacity(const TensorMapSpec&, const Finding& f, TextOut& o);
// Measured (docs/hardware.md B1): the driver rejects a map whose box is larger than the device's opt-in
// shared memory per block (232,448 B on the H200), whatever the map is used for (it never sees the
// direction). Its box size: tiled prod(floor(box_dim[i] / element_strides[i])) x element size, im2col
// channels x pixels_per_column x element size -- im2col::w::128 too, although a copy of that mode always
// moves 128 pixels (PTX ISA 5.5.5): the driver sizes the box from pixels_per_column (an H200 sweep,
// docs/hardware.md B5). Other targets are assumed to use their own shared-memory size. (What the hardware
// moves -- element_strides[0] ignored, 128 pixels for im2col::w::128 -- is checked by target-smem-capacity.)
inline uint64_t DriverBoxBytes(const TensorMapSpec& s) {
  const uint64_t bits = static_cast<uint64_t>(DataTypeSmemBits(s.data_type));
  uint64_t n = 1;
  if (IsIm2colMode(s.mode)) {
    n = static_cast<uint64_t>(s.channels_per_pixel) * s.pixels_per_column;  // both 32-bit: no overflow
  } else if (IsGatherScatter(s.mode)) {
    n = 4ull * s.box_dim[0];  // 34 bits at most
  } else {
    // The driver divides dimension 0 too, even without interleave where the hardware ignores
    // element_strides[0] (measured: f32 box [256, 256] with element_strides [7, 1] accepted).
    for (uint32_t i = 0; i < Rank(s); ++i) {
      const uint64_t es = s.element_strides[i];
      const uint64_t b = es <= 1 ? s.box_dim[i] : s.box_dim[i] / es;  // no division in the common case
      if (__builtin_mul_overflow(n, b, &n)) return UINT64_MAX;
    }
  }
  uint64_t nbits;
  if (__builtin_mul_overflow(n, bits, &nbits)) return UINT64_MAX;
  return nbits / 8 + (nbits % 8 != 0);
}
// The driver's limit, bracketed on the H200 by a 233,472 B box accepted and a 234,496 B box rejected
// (docs/hardware.md B5), is taken as the shared memory of one SM: the per-block maximum plus the 1 KiB the
// hardware reserves per block (228 KiB on sm_90). An inference from the bracket, not a bisection to the byte.
inline int DriverBoxLimit(Target t) { return Info(t).max_smem_per_block + 1024; }
inline void CheckBoxDriverLimit(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint64_t b = DriverBoxBytes(c.spec);
  const int cap = DriverBoxLimit(c.target);
  if (b > static_cast<uint64_t>(cap)) o->AddU(r, -1, b, cap, c.target);
}
void MsgBoxDriverLimit(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixTargetSmemCapacity(const TensorMapSpec& s, const Finding& f, TextOut& o);

// ---- field paths that depend on the spec ----
std::string_view FieldOfBoxSize(const TensorMapSpec& s, const Finding&);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_PER_TARGET_H_
