// test_specs.h: shared helpers for the validator rule tests.
//
// Every baseline here is built field by field (not from DefaultSpec) and is valid according to the
// documents for the target it names; BaselinesAreClean in each test file proves that each one yields no
// finding at all, so a test that changes exactly one field proves the one rule it is about.
//
// Documents (the only source of the EXPECTED verdicts in these tests):
//   [CUDA_H]  /usr/local/cuda/include/cuda.h doc comments of cuTensorMapEncodeTiled (l. 23236-23403),
//             cuTensorMapEncodeIm2col (l. 23405-23588), cuTensorMapEncodeIm2colWide (l. 23590-23772).
//   [SPEC]    /work/shared/reference/tma-spec.md (sections 1.4-1.9 driver rules, 2 PTX, 6 measured on an
//             H200 with driver 580.159.04).
//   [PTX-CN]  /work/shared/seeds/000_43c9be3596b84b3d.txt (PTX ISA chapter 5, Chinese), section 5.5.x.
//   [CPG]     CUDA Programming Guide (TMA alignment table, swizzle table, compute-capability table), as
//             quoted in [SPEC] 1.8.
#ifndef TMAPGEN_TESTS_VALIDATOR_TEST_SPECS_H_
#define TMAPGEN_TESTS_VALIDATOR_TEST_SPECS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "src/tmap/derived_facts.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace test_specs {

inline constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
inline constexpr uint64_t k2Pow40 = uint64_t{1} << 40;

// ---- the list of rules these tests cover -----------------------------------------------------------
// RulesTable.Coverage (rules_target_test.cc) checks that every id of Rules() is listed here and that every
// id listed here exists; RulesTable.EveryRuleFiresOnSomeSpecAndEveryFindingRenders trips each one at run
// time. Add a rule here only together with a test that trips it and one that passes at its boundary. The
// comment names the file that holds those tests.
inline constexpr std::string_view kCoveredRuleIds[] = {
    "im2col-interleave-box-area",        // rules_measured_test.cc
    "im2col-spatial-dim-int32",          // rules_measured_test.cc
    "box-driver-size-limit",             // rules_measured_test.cc
    "rank-range",                        // rules_tiled_test.cc
    "im2col-rank",                       // rules_im2col_test.cc
    "interleave-rank",                   // rules_tiled_test.cc
    "gather4-rank",                      // rules_tiled_test.cc
    "global-dim-range",                  // rules_tiled_test.cc
    "global-dim-packed",                 // rules_tiled_test.cc
    "global-stride-align-16",            // rules_tiled_test.cc
    "global-stride-align-32",            // rules_tiled_test.cc
    "global-stride-max",                 // rules_tiled_test.cc
    "global-stride-overlap",             // rules_tiled_test.cc
    "global-address-align-16",           // rules_tiled_test.cc
    "global-address-align-32",           // rules_tiled_test.cc
    "global-address-align-128-swizzle",  // rules_tiled_test.cc
    "box-dim-range",                     // rules_tiled_test.cc
    "box-inner-bytes-16",                // rules_tiled_test.cc
    "box-packed-128",                    // rules_tiled_test.cc
    "box-exceeds-tensor",                // rules_tiled_test.cc
    "gather4-box-rows",                  // rules_tiled_test.cc
    "element-stride-range",              // rules_tiled_test.cc
    "element-stride-dim0",               // rules_tiled_test.cc
    "swizzle-inner-span",                // rules_tiled_test.cc, rules_im2col_test.cc
    "swizzle-inner-below-span",          // rules_tiled_test.cc
    "interleave-32b-swizzle",            // rules_tiled_test.cc
    "interleave-mode",                   // rules_tiled_test.cc, rules_im2col_test.cc
    "packed-u6-interleave",              // rules_tiled_test.cc
    "packed-swizzle",                    // rules_tiled_test.cc, rules_im2col_test.cc
    "packed-direction",                  // rules_tiled_test.cc
    "oob-nan-float",                     // rules_tiled_test.cc
    "im2col-lower-corner-range",         // rules_im2col_test.cc
    "im2col-upper-corner-range",         // rules_im2col_test.cc
    "im2col-box-area",                   // rules_im2col_test.cc
    "im2col-channels-range",             // rules_im2col_test.cc
    "im2col-channels-bytes-16",          // rules_im2col_test.cc
    "im2col-pixels-range",               // rules_im2col_test.cc
    "wide-lower-corner-range",           // rules_im2col_test.cc
    "wide-upper-corner-range",           // rules_im2col_test.cc
    "wide-box-area",                     // rules_im2col_test.cc
    "wide-swizzle",                      // rules_im2col_test.cc
    "wide-mode-mismatch",                // rules_im2col_test.cc
    "wide-w128-pixels",                  // rules_im2col_test.cc
    "im2col-store-corners",              // rules_im2col_test.cc
    "mode-direction",                    // rules_tiled_test.cc, rules_im2col_test.cc
    "swizzle-flip8b-load-only",          // rules_tiled_test.cc
    "reduce-op-type",                    // rules_tiled_test.cc, rules_im2col_test.cc
    "store-past-row-end",                // rules_tiled_test.cc
    "target-swizzle-atomicity",          // rules_target_test.cc
    "target-sub-byte",                   // rules_target_test.cc
    "target-mode",                       // rules_target_test.cc
    "target-sm120-cluster",              // rules_target_test.cc
    "target-smem-capacity",              // rules_target_test.cc
    "smem-align-128",                    // rules_tiled_test.cc
    "smem-swizzle-phase",                // rules_tiled_test.cc
    "driver-version",                    // rules_tiled_test.cc
    "driver-oob-address-bug",            // rules_target_test.cc
    "unused-field",                      // rules_tiled_test.cc
};

// ---- spec construction -----------------------------------------------------------------------------
inline TensorMapSpec& SetTarget(TensorMapSpec& s, Target t) {
  s.target = t;
  s.set_fields |= kFieldTarget;
  return s;
}
inline TensorMapSpec WithTarget(TensorMapSpec s, Target t) { return SetTarget(s, t); }
inline TensorMapSpec WithoutTarget(TensorMapSpec s) {
  s.set_fields &= ~static_cast<uint32_t>(kFieldTarget);
  return s;
}
inline TensorMapSpec WithSmemAddress(TensorMapSpec s, uint64_t a) {
  s.smem_address = a;
  s.set_fields |= kFieldSmemAddress;
  return s;
}
inline TensorMapSpec WithSmemAlignment(TensorMapSpec s, uint32_t a) {
  s.smem_alignment = a;
  s.set_fields |= kFieldSmemAlignment;
  return s;
}
inline TensorMapSpec WithGlobalAddress(TensorMapSpec s, uint64_t a) {
  s.global_address = a;
  s.set_fields |= kFieldGlobalAddress;
  return s;
}

// Tiled f16 matrix 4096 x 4096 with 8192-byte rows, box [64, 128] = 128-byte inner rows, SWIZZLE_128B,
// sm_90a. [CUDA_H] cuTensorMapEncodeTiled: every requirement holds (box[0] x 2 B = 128 B, a multiple
// of 16 and <= 128 for SWIZZLE_128B*).
inline TensorMapSpec TiledF16() {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.direction = Direction::kLoadCta;
  s.data_type = DataType::kFloat16;
  s.rank = 2;
  s.global_dim = {4096, 4096, 0, 0, 0};
  s.global_strides = {8192, 0, 0, 0};
  s.box_dim = {64, 128, 0, 0, 0};
  s.element_strides = {1, 1, 1, 1, 1};
  s.interleave = Interleave::kNone;
  s.swizzle = Swizzle::k128B;
  s.l2_promotion = L2Promotion::k128B;
  s.oob_fill = OobFill::kNone;
  return SetTarget(s, Target::kSm90a);
}

// As TiledF16 without swizzle (no span rule, no below-span note).
inline TensorMapSpec TiledF16NoSwizzle() {
  TensorMapSpec s = TiledF16();
  s.swizzle = Swizzle::kNone;
  return s;
}

// f16 500 x 4096: 1000-byte rows padded to a 1008-byte pitch. The brief's stride example.
inline TensorMapSpec TiledF16Pitch1008() {
  TensorMapSpec s = TiledF16();
  s.global_dim = {500, 4096, 0, 0, 0};
  s.global_strides = {1008, 0, 0, 0};
  return s;
}

// Tiled f16 3D tensor [64, 64, 16] (dense), box [64, 16, 2], SWIZZLE_128B, sm_90a.
inline TensorMapSpec Tiled3dF16() {
  TensorMapSpec s = TiledF16();
  s.rank = 3;
  s.global_dim = {64, 64, 16, 0, 0};
  s.global_strides = {128, 8192, 0, 0};
  s.box_dim = {64, 16, 2, 0, 0};
  return s;
}

// Tiled f32 1024 x 1024, box [32, 64] (128-byte rows), SWIZZLE_128B, sm_90a.
inline TensorMapSpec TiledF32() {
  TensorMapSpec s = TiledF16();
  s.data_type = DataType::kFloat32;
  s.global_dim = {1024, 1024, 0, 0, 0};
  s.global_strides = {4096, 0, 0, 0};
  s.box_dim = {32, 64, 0, 0, 0};
  return s;
}

// NC/8HWC8 with INTERLEAVE_16B ([CUDA_H]: "C8 utilizes 16 bytes in memory assuming 2 byte per channel"):
// f16 [8, 64, 64], strides {16, 1024}, box [8, 8, 8], SWIZZLE_NONE, sm_90a. [SPEC] 6 measured "INTERLEAVE_16B,
// rank 3, fp16, box[0] = 8 (16 B): accepted".
inline TensorMapSpec Interleave16Rank3() {
  TensorMapSpec s = TiledF16();
  s.rank = 3;
  s.global_dim = {8, 64, 64, 0, 0};
  s.global_strides = {16, 1024, 0, 0};
  s.box_dim = {8, 8, 8, 0, 0};
  s.interleave = Interleave::k16B;
  s.swizzle = Swizzle::kNone;
  return s;
}

// NC/16HWC16 with INTERLEAVE_32B and the SWIZZLE_32B it requires ([CUDA_H] "When interleave is
// CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B"): f16 [16, 64, 64],
// strides {32, 2048} (multiples of 32), box [16, 8, 8], sm_90a.
inline TensorMapSpec Interleave32Rank3() {
  TensorMapSpec s = TiledF16();
  s.rank = 3;
  s.global_dim = {16, 64, 64, 0, 0};
  s.global_strides = {32, 2048, 0, 0};
  s.box_dim = {16, 8, 8, 0, 0};
  s.interleave = Interleave::k32B;
  s.swizzle = Swizzle::k32B;
  return s;
}

// 16U4_ALIGN8B [4096, 4096] (2048-byte packed rows), box [128, 64] = 64 B per row, SWIZZLE_64B, sm_100a
// (sub-byte types are Blackwell-only: [SPEC] 2.5 and 6).
inline TensorMapSpec PackedU4Align8() {
  TensorMapSpec s = TiledF16();
  s.data_type = DataType::k16U4Align8B;
  s.global_dim = {4096, 4096, 0, 0, 0};
  s.global_strides = {2048, 0, 0, 0};
  s.box_dim = {128, 64, 0, 0, 0};
  s.swizzle = Swizzle::k64B;
  return SetTarget(s, Target::kSm100a);
}

// 16U4_ALIGN16B [4096, 256]: packed in global memory (PTX 5.5.1.1: 0.5 B per element, 2048-byte rows, a
// multiple of 32), padded to 1 B per element in shared memory; box [128, 64] (boxDim[0] must be 128),
// SWIZZLE_128B (listed "Load only"), direction load, sm_100a.
inline TensorMapSpec PackedU4Align16() {
  TensorMapSpec s = TiledF16();
  s.data_type = DataType::k16U4Align16B;
  s.global_dim = {4096, 256, 0, 0, 0};
  s.global_strides = {2048, 0, 0, 0};
  s.box_dim = {128, 64, 0, 0, 0};
  s.swizzle = Swizzle::k128B;
  return SetTarget(s, Target::kSm100a);
}

// 16U6_ALIGN16B [4096, 256]: 3072-byte packed rows (x32), box [128, 64], SWIZZLE_128B ("Load & Store"),
// load, sm_100a.
inline TensorMapSpec PackedU6Align16() {
  TensorMapSpec s = PackedU4Align16();
  s.data_type = DataType::k16U6Align16B;
  s.global_strides = {3072, 0, 0, 0};
  return s;
}

// 16U6_ALIGN16B rank 3 [4096, 16, 16], strides {3072, 49152}, box [128, 16, 4].
inline TensorMapSpec PackedU6Rank3() {
  TensorMapSpec s = PackedU6Align16();
  s.rank = 3;
  s.global_dim = {4096, 16, 16, 0, 0};
  s.global_strides = {3072, 49152, 0, 0};
  s.box_dim = {128, 16, 4, 0, 0};
  return s;
}

// gather4: f16 [4096, 4096], box [64, 1] (one 128-byte row per box; PTX 5.5.3.4.1 "the bounding box size
// in dimension 1 must be one"), SWIZZLE_128B, load to shared::cta, sm_100a.
inline TensorMapSpec Gather4F16() {
  TensorMapSpec s = TiledF16();
  s.mode = Mode::kGather4;
  s.box_dim = {64, 1, 0, 0, 0};
  return SetTarget(s, Target::kSm100a);
}

// scatter4: as gather4, direction store ([SPEC] 2.4: .tile::scatter4 is a store load_mode), sm_100a.
inline TensorMapSpec Scatter4F16() {
  TensorMapSpec s = Gather4F16();
  s.mode = Mode::kScatter4;
  s.direction = Direction::kStore;
  return s;
}

// im2col NHWC f16 [C=64, W=56, H=56, N=32], dense strides {128, 7168, 401408}, corners lower {-1,-1} /
// upper {-1,-1} (3x3 filter, padding 1), 64 channels (128 B) x 128 pixels, SWIZZLE_128B, sm_90a.
inline TensorMapSpec Im2colF16() {
  TensorMapSpec s;
  s.mode = Mode::kIm2col;
  s.direction = Direction::kLoadCta;
  s.data_type = DataType::kFloat16;
  s.rank = 4;
  s.global_dim = {64, 56, 56, 32, 0};
  s.global_strides = {128, 7168, 401408, 0};
  s.element_strides = {1, 1, 1, 1, 1};
  s.pixel_box_lower_corner = {-1, -1, 0};
  s.pixel_box_upper_corner = {-1, -1, 0};
  s.channels_per_pixel = 64;
  s.pixels_per_column = 128;
  s.interleave = Interleave::kNone;
  s.swizzle = Swizzle::k128B;
  s.l2_promotion = L2Promotion::k128B;
  s.oob_fill = OobFill::kNone;
  return SetTarget(s, Target::kSm90a);
}

inline TensorMapSpec Im2colF16NoSwizzle() {
  TensorMapSpec s = Im2colF16();
  s.swizzle = Swizzle::kNone;
  return s;
}

// im2col rank 4 with a wide W: [C=64, W=1024, H=8, N=4], strides {128, 131072, 1048576}; room for corner
// offsets up to the rank-4 limits without emptying the bounding box.
inline TensorMapSpec Im2colRank4WideW() {
  TensorMapSpec s = Im2colF16();
  s.global_dim = {64, 1024, 8, 4, 0};
  s.global_strides = {128, 131072, 1048576, 0};
  return s;
}

// im2col rank 3 (NWC): [C=64, W=1024, N=32], strides {128, 131072}, corners {-1} / {-1}.
inline TensorMapSpec Im2colRank3() {
  TensorMapSpec s = Im2colF16();
  s.rank = 3;
  s.global_dim = {64, 1024, 32, 0, 0};
  s.global_strides = {128, 131072, 0, 0};
  s.pixel_box_lower_corner = {-1, 0, 0};
  s.pixel_box_upper_corner = {-1, 0, 0};
  return s;
}

// im2col rank 5 (NDHWC): [C=64, W=16, H=16, D=16, N=2], strides {128, 2048, 32768, 524288}, corners -1.
inline TensorMapSpec Im2colRank5() {
  TensorMapSpec s = Im2colF16();
  s.rank = 5;
  s.global_dim = {64, 16, 16, 16, 2};
  s.global_strides = {128, 2048, 32768, 524288};
  s.pixel_box_lower_corner = {-1, -1, -1};
  s.pixel_box_upper_corner = {-1, -1, -1};
  return s;
}

// im2col rank 4 on a 14 x 14 image (the W = 14 of [SPEC] 6): [64, 14, 14, 8], strides {128, 1792, 25088}.
inline TensorMapSpec Im2colSmall14() {
  TensorMapSpec s = Im2colF16();
  s.global_dim = {64, 14, 14, 8, 0};
  s.global_strides = {128, 1792, 25088, 0};
  return s;
}

// im2col::w: the tensor of Im2colF16, W corners -1 / -1, 64 channels x 128 pixels, SWIZZLE_128B, sm_100a
// ([CUDA_H] Im2colWide: "only supported on devices of compute capability 10.0 or higher").
inline TensorMapSpec WideW() {
  TensorMapSpec s = Im2colF16();
  s.mode = Mode::kIm2colW;
  s.pixel_box_lower_corner = {0, 0, 0};
  s.pixel_box_upper_corner = {0, 0, 0};
  s.pixel_box_lower_corner_width = -1;
  s.pixel_box_upper_corner_width = -1;
  s.wide_mode = Im2colWideMode::kW;
  return SetTarget(s, Target::kSm100a);
}

// im2col::w::128: as WideW, sm_100a ([SPEC] 2.4: .im2col::w::128 needs sm_100a/sm_101a or a family target).
inline TensorMapSpec WideW128() {
  TensorMapSpec s = WideW();
  s.mode = Mode::kIm2colW128;
  s.wide_mode = Im2colWideMode::kW128;
  return s;
}

// im2col::w with 16U6_ALIGN16B: [C=128, W=56, H=56, N=32] (96-byte packed pixels), strides
// {96, 5376, 301056} (multiples of 32), 128 channels (required for ALIGN16B), SWIZZLE_128B, sm_100a.
inline TensorMapSpec WideU6() {
  TensorMapSpec s = WideW();
  s.data_type = DataType::k16U6Align16B;
  s.global_dim = {128, 56, 56, 32, 0};
  s.global_strides = {96, 5376, 301056, 0};
  s.channels_per_pixel = 128;
  return s;
}

// ---- validation helpers ----------------------------------------------------------------------------
inline Validation ValidateSpec(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  return v;
}

inline int RuleIndex(std::string_view id) { return FindRule(id); }

inline int CountRule(const Validation& v, std::string_view id) {
  const int r = FindRule(id);
  int n = 0;
  for (const Finding& f : v.findings)
    if (static_cast<int>(f.rule) == r) ++n;
  return n;
}
inline bool HasRule(const Validation& v, std::string_view id) { return CountRule(v, id) > 0; }

inline const Finding* FindingOf(const Validation& v, std::string_view id) {
  const int r = FindRule(id);
  for (const Finding& f : v.findings)
    if (static_cast<int>(f.rule) == r) return &f;
  return nullptr;
}

// The rendered message of the first finding of rule `id` (empty when there is none).
inline std::string MessageOf(const TensorMapSpec& s, const Validation& v, std::string_view id) {
  const Finding* f = FindingOf(v, id);
  return f == nullptr ? std::string() : MessageText(Rules()[f->rule], s, *f).str();
}

// The rendered fix of the first finding of rule `id` (empty when there is none).
inline std::string FixOf(const TensorMapSpec& s, const Validation& v, std::string_view id) {
  const Finding* f = FindingOf(v, id);
  return f == nullptr ? std::string() : FixText(Rules()[f->rule], s, *f).str();
}

inline std::string TargetMask(uint32_t mask) {
  std::string o;
  for (int t = 0; t < kNumTargets; ++t) {
    if (mask & (1u << t)) {
      if (!o.empty()) o += ",";
      o += std::string(Name(static_cast<Target>(t)));
    }
  }
  return "{" + o + "}";
}

// Every finding, one a line, with the rule's message, so that a failing expectation shows why.
inline std::string Dump(const TensorMapSpec& s, const Validation& v) {
  std::string o = "valid=" + std::string(v.valid ? "true" : "false") + " errors=" + std::to_string(v.errors) +
                  " warnings=" + std::to_string(v.warnings) + " notes=" + std::to_string(v.notes) +
                  " valid_targets=" + TargetMask(v.valid_targets) + " reported_target=" +
                  std::string(Name(v.reported_target)) + "\n";
  const Rule* rules = Rules();
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    o += "  [" + std::string(Name(r.severity)) + "] " + std::string(r.id) + " at " + FieldPath(r, s, f) +
         " index=" + std::to_string(f.index) + " value=" + std::to_string(f.value) +
         " limit=" + std::to_string(f.limit) +
         (r.per_target ? " target=" + std::string(Name(static_cast<Target>(f.target))) : std::string()) +
         ": " + MessageText(r, s, f).str() + "\n";
  }
  if (v.findings.size() == 0) o += "  (no findings)\n";
  return o;
}

// The rule `id` exists with severity `sev`, the spec trips it, and the verdict is `expect_valid`.
inline ::testing::AssertionResult Trips(const TensorMapSpec& s, std::string_view id, Severity sev,
                                        bool expect_valid) {
  const int r = FindRule(id);
  if (r < 0) return ::testing::AssertionFailure() << "no rule '" << id << "' in the table";
  if (Rules()[r].severity != sev)
    return ::testing::AssertionFailure() << "rule '" << id << "' has severity " << Name(Rules()[r].severity)
                                         << ", expected " << Name(sev);
  const Validation v = ValidateSpec(s);
  if (!HasRule(v, id))
    return ::testing::AssertionFailure() << "expected rule '" << id << "' to trip; got\n" << Dump(s, v);
  if (v.valid != expect_valid)
    return ::testing::AssertionFailure() << "rule '" << id << "' tripped but valid=" << v.valid << ", expected "
                                         << expect_valid << "\n" << Dump(s, v);
  if (sev == Severity::kError && v.errors < 1)
    return ::testing::AssertionFailure() << "error rule '" << id << "' tripped but errors=0\n" << Dump(s, v);
  return ::testing::AssertionSuccess();
}
inline ::testing::AssertionResult TripsError(const TensorMapSpec& s, std::string_view id) {
  return Trips(s, id, Severity::kError, false);
}
inline ::testing::AssertionResult TripsWarning(const TensorMapSpec& s, std::string_view id) {
  return Trips(s, id, Severity::kWarning, true);
}
inline ::testing::AssertionResult TripsNote(const TensorMapSpec& s, std::string_view id) {
  return Trips(s, id, Severity::kNote, true);
}

// The spec does not trip rule `id`; and when `expect_valid` is given, the verdict is that.
enum class Verdict { kValid, kInvalid, kAny };
inline ::testing::AssertionResult Clear(const TensorMapSpec& s, std::string_view id,
                                        Verdict verdict = Verdict::kValid) {
  if (FindRule(id) < 0) return ::testing::AssertionFailure() << "no rule '" << id << "' in the table";
  const Validation v = ValidateSpec(s);
  if (HasRule(v, id))
    return ::testing::AssertionFailure() << "expected rule '" << id << "' NOT to trip; got\n" << Dump(s, v);
  if (verdict == Verdict::kValid && !v.valid)
    return ::testing::AssertionFailure() << "rule '" << id << "' is clear but the spec is invalid\n" << Dump(s, v);
  if (verdict == Verdict::kInvalid && v.valid)
    return ::testing::AssertionFailure() << "rule '" << id << "' is clear; expected another error\n" << Dump(s, v);
  return ::testing::AssertionSuccess();
}

// No finding of any severity (for the baselines).
inline ::testing::AssertionResult Spotless(const TensorMapSpec& s) {
  const Validation v = ValidateSpec(s);
  if (!v.valid || v.findings.size() != 0)
    return ::testing::AssertionFailure() << "expected a valid spec without findings; got\n" << Dump(s, v);
  return ::testing::AssertionSuccess();
}

}  // namespace test_specs
}  // namespace tmapgen

#endif  // TMAPGEN_TESTS_VALIDATOR_TEST_SPECS_H_
