// fast_path.h: the rules the validator's fast path answers for, and how.
//
// Contract
// - Validate() (validator.cc) first tries a fused check for plainly valid specs (ValidateFastPath): one
//   straight-line test per mode that proves, conservatively, that no rule of the table fires -- no error, no
//   warning, no note, the per-target rules of the spec's target included. For a spec without a target it
//   evaluates the per-target rules for each of the 16 targets, as the table does, and proves that at least one
//   passes (valid_targets, failed_targets and the reported target, the first that passes, as the table
//   derives them); it asks for no driver version there, so that the one per-target warning cannot fire. When it proves
//   it, the Validation is filled as the table would fill it (valid, no findings, the same derived facts);
//   otherwise nothing it computed is kept and the table runs as before. It may refuse a spec that is valid (the
//   table then decides); it must never accept one on which a rule fires.
// - kFastPathCovers lists every rule of the table, in table order, with the severity, modes and per_target
//   flag the fast path was written against, and the condition by which it rules the rule out. rules.cc
//   static_asserts that the table and this list agree, so adding, removing or re-scoping a rule without
//   revisiting the fast path does not build; tests/tmap/fast_path_test.cc runs both paths on corpora and
//   requires identical Validations, and fuzz/spec_json_fuzz.cc does the same on every input.
#ifndef TMAPGEN_SRC_TMAP_FAST_PATH_H_
#define TMAPGEN_SRC_TMAP_FAST_PATH_H_

#include <cstdint>
#include <string_view>

#include "src/tmap/rule.h"
#include "src/tmap/types.h"

namespace tmapgen::fast_path {

struct Covered {
  std::string_view id;
  Severity severity;
  uint8_t modes;
  bool per_target;
  std::string_view how;  // the condition of the fast path that keeps the rule from firing
};

namespace internal {
constexpr uint8_t kT = ModeBit(Mode::kTiled), kI = ModeBit(Mode::kIm2col), kW = ModeBit(Mode::kIm2colW),
                  kW128 = ModeBit(Mode::kIm2colW128), kG = ModeBit(Mode::kGather4), kS = ModeBit(Mode::kScatter4);
}  // namespace internal

// In the fast path's scope only: interleave NONE, a data type that is not sub-byte (13-15), no reduction,
// every element stride 1; everything else goes to the table.
inline constexpr Covered kFastPathCovers[] = {
    {"rank-range", Severity::kError, internal::kT, false, "rank 1..5"},
    {"im2col-rank", Severity::kError, internal::kI | internal::kW | internal::kW128, false, "rank 3..5"},
    {"interleave-rank", Severity::kError, kAllModes, false, "scope: interleave NONE"},
    {"gather4-rank", Severity::kError, internal::kG | internal::kS, false, "rank 2"},
    {"global-dim-range", Severity::kError, kAllModes, false, "1 <= global_dim[i] <= 2^32"},
    {"global-dim-packed", Severity::kError, kAllModes, false, "scope: no sub-byte type"},
    {"global-stride-align-16", Severity::kError, kAllModes, false, "global_strides[i] % 16 == 0"},
    {"global-stride-align-32", Severity::kError, kAllModes, false, "scope: interleave NONE, no sub-byte type"},
    {"global-stride-max", Severity::kError, kAllModes, false, "global_strides[i] < 2^40"},
    {"global-stride-overlap", Severity::kWarning, kAllModes, false,
     "every dimension of size > 1, in order, starts at or past the end of those before it (FindOverlap's own fast "
     "case)"},
    {"global-address-align-16", Severity::kError, kAllModes, false, "no address, or 16-aligned"},
    {"global-address-align-32", Severity::kError, kAllModes, false, "scope: interleave NONE, no sub-byte type"},
    {"global-address-align-128-swizzle", Severity::kWarning, kAllModes, false, "no address, or 128-aligned when swizzled"},
    {"box-dim-range", Severity::kError, internal::kT | internal::kG | internal::kS, false, "1 <= box_dim[i] <= 256"},
    {"box-inner-bytes-16", Severity::kError, internal::kT | internal::kG | internal::kS, false, "box_dim[0] bytes % 16 == 0"},
    {"box-packed-128", Severity::kError, internal::kT | internal::kG | internal::kS, false, "scope: no sub-byte type"},
    {"box-exceeds-tensor", Severity::kNote, internal::kT | internal::kG | internal::kS, false, "box_dim[i] <= global_dim[i]"},
    {"gather4-box-rows", Severity::kError, internal::kG | internal::kS, false, "box_dim[1] == 1"},
    {"element-stride-range", Severity::kError, kAllModes, false, "scope: element strides 1"},
    {"element-stride-dim0", Severity::kWarning, kAllModes, false, "scope: element strides 1"},
    {"swizzle-inner-span", Severity::kError, kAllModes, false, "no swizzle, or inner box bytes == span"},
    {"swizzle-inner-below-span", Severity::kNote, kAllModes, false, "no swizzle, or inner box bytes == span"},
    {"interleave-32b-swizzle", Severity::kError, kAllModes, false, "scope: interleave NONE"},
    {"interleave-mode", Severity::kError, internal::kG | internal::kS | internal::kW | internal::kW128, false,
     "scope: interleave NONE"},
    {"packed-u6-interleave", Severity::kError, kAllModes, false, "scope: no sub-byte type"},
    {"packed-swizzle", Severity::kError, kAllModes, false, "scope: no sub-byte type"},
    {"packed-direction", Severity::kError, kAllModes, false, "scope: no sub-byte type"},
    {"oob-nan-float", Severity::kError, kAllModes, false, "OOB fill NONE, or a float type"},
    {"im2col-lower-corner-range", Severity::kError, internal::kI, false, "corners within the rank's range"},
    {"im2col-upper-corner-range", Severity::kError, internal::kI, false, "corners within the rank's range"},
    {"im2col-box-area", Severity::kError, internal::kI, false, "dim + upper - lower >= 1"},
    {"im2col-interleave-box-area", Severity::kError, internal::kI, false, "scope: interleave NONE"},
    {"im2col-spatial-dim-int32", Severity::kError, internal::kI | internal::kW | internal::kW128, false,
     "global_dim + upper corner <= 2^31 - 1"},
    {"im2col-channels-range", Severity::kError, internal::kI | internal::kW | internal::kW128, false, "1..256 channels"},
    {"im2col-channels-bytes-16", Severity::kError, internal::kI | internal::kW | internal::kW128, false,
     "channel bytes % 16 == 0"},
    {"im2col-pixels-range", Severity::kError, internal::kI | internal::kW | internal::kW128, false, "1..1024 pixels"},
    {"wide-lower-corner-range", Severity::kError, internal::kW | internal::kW128, false, "within the rank's range"},
    {"wide-upper-corner-range", Severity::kError, internal::kW | internal::kW128, false, "within the rank's range"},
    {"wide-box-area", Severity::kError, internal::kW | internal::kW128, false, "W + upper - lower >= 1"},
    {"wide-swizzle", Severity::kError, internal::kW | internal::kW128, false, "64B, 128B or 128B_atom_32B"},
    {"wide-mode-mismatch", Severity::kError, internal::kW | internal::kW128, false, "wide_mode unset or matching"},
    {"wide-w128-pixels", Severity::kNote, internal::kW128, false, "pixels_per_column unset or 128"},
    {"im2col-store-corners", Severity::kError, internal::kI | internal::kW, false,
     "not a store, or lower >= 0 and upper <= 0"},
    {"mode-direction", Severity::kError, internal::kG | internal::kS | internal::kW128, false, "the mode's directions"},
    {"swizzle-flip8b-load-only", Severity::kError, kAllModes, false, "not FLIP_8B with a store"},
    {"reduce-op-type", Severity::kError, internal::kT | internal::kI | internal::kW, false, "scope: no reduction"},
    {"store-past-row-end", Severity::kWarning, kAllModes, false, "scope: no reduction; not a store, or row bytes % 16 == 0"},
    {"target-swizzle-atomicity", Severity::kError, kAllModes, true, "no atomicity swizzle below cc 10.0"},
    {"target-sub-byte", Severity::kError, kAllModes, true, "scope: no sub-byte type"},
    {"target-mode", Severity::kError, internal::kW | internal::kW128 | internal::kG | internal::kS, true,
     "TargetRunsMode"},
    {"target-sm120-cluster", Severity::kError, kAllModes, true, "not cc >= 12.0 + load_cluster + atomicity swizzle"},
    {"target-smem-capacity", Severity::kError, kAllModes, true, "prefetch, or footprint <= the target's block smem"},
    {"box-driver-size-limit", Severity::kError, kAllModes, true, "the driver's box bytes <= its limit"},
    {"smem-align-128", Severity::kError, kAllModes, false, "prefetch, or address/alignment on the swizzle repeat"},
    {"smem-swizzle-phase", Severity::kWarning, kAllModes, false, "prefetch, or address/alignment on the swizzle repeat"},
    {"driver-version", Severity::kError, kAllModes, false, "unknown, or new enough for the spec"},
    {"driver-oob-address-bug", Severity::kWarning, kAllModes, true,
     "no driver version, a target below cc 10.0, or a span of 128 KiB or more"},
    {"unused-field", Severity::kNote, kAllModes, false, "no field set that the mode ignores (no reduce_op)"},
};
inline constexpr int kNumFastPathCovers = static_cast<int>(sizeof(kFastPathCovers) / sizeof(kFastPathCovers[0]));

}  // namespace tmapgen::fast_path

#endif  // TMAPGEN_SRC_TMAP_FAST_PATH_H_
