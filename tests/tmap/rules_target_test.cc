// Per-target rules, the per-target verdict logic of Validate(), derived facts, NearestValid(), field paths,
// the embedded defaults and the coverage of the rule table.
//
// Every expectation comes from a document named in the comment above it (short names in test_specs.h);
// numbers in derived-fact tests are computed by hand in the comments.

#include <gtest/gtest.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/tmap/test_specs.h"

namespace tmapgen {
namespace {

using namespace test_specs;  // NOLINT

constexpr uint32_t Bit(Target t) { return 1u << static_cast<int>(t); }
constexpr uint32_t kAllTargets = (1u << kNumTargets) - 1;
// Targets of compute capability 10.0 or later.
constexpr uint32_t kCc100Up = kAllTargets & ~(Bit(Target::kSm90) | Bit(Target::kSm90a));
// [SPEC] 2.4 target table, ".tile::scatter4, .im2col::w::128: sm_100a, sm_101a(=sm_110a from 9.0); family
// sm_100f+, sm_110f+ from 8.8" (sm_103a/sm_103f are members of the sm_100f family).
constexpr uint32_t kDatacenterBlackwell = Bit(Target::kSm100a) | Bit(Target::kSm100f) | Bit(Target::kSm101a) |
                                          Bit(Target::kSm103a) | Bit(Target::kSm103f) | Bit(Target::kSm110a) |
                                          Bit(Target::kSm110f);
constexpr uint32_t kSm120Class = Bit(Target::kSm120) | Bit(Target::kSm120a) | Bit(Target::kSm120f) |
                                 Bit(Target::kSm121a);

// ============================== target-swizzle-atomicity ==============================
// [SPEC] 6: "SWIZZLE_128B_ATOM_32B, _ATOM_32B_FLIP_8B and _ATOM_64B: rejected (1). They are Blackwell-only."
// [SPEC] 2.5: ".swizzle_atomicity ...: sm_100a, sm_101a/sm_110a, sm_120a + family targets (NOT sm_90a)".
TEST(TargetSwizzleAtomicity, Sm90RejectsSm100aAccepts) {
  TensorMapSpec s = TiledF16();  // sm_90a
  s.swizzle = Swizzle::k128BAtom32B;
  EXPECT_TRUE(TripsError(s, "target-swizzle-atomicity"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-swizzle-atomicity"));
  s.swizzle = Swizzle::k128BAtom64B;
  EXPECT_TRUE(TripsError(WithTarget(s, Target::kSm90), "target-swizzle-atomicity"));
  s.swizzle = Swizzle::k128BAtom32BFlip8B;
  EXPECT_TRUE(TripsError(s, "target-swizzle-atomicity"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-swizzle-atomicity"));
  // The 16-byte-atomicity 128B swizzle is fine on sm_90a.
  EXPECT_TRUE(Clear(TiledF16(), "target-swizzle-atomicity"));
}

// validator.h: without a target, `valid_targets` lists the targets for which the spec is valid.
TEST(TargetSwizzleAtomicity, NoTargetSetsValidTargetBits) {
  TensorMapSpec s = WithoutTarget(TiledF16());
  s.swizzle = Swizzle::k128BAtom32B;
  const Validation v = ValidateSpec(s);
  EXPECT_TRUE(v.valid) << Dump(s, v);
  EXPECT_EQ(v.valid_targets & Bit(Target::kSm90a), 0u) << Dump(s, v);
  EXPECT_EQ(v.valid_targets & Bit(Target::kSm90), 0u) << Dump(s, v);
  EXPECT_NE(v.valid_targets & Bit(Target::kSm100a), 0u) << Dump(s, v);
  EXPECT_EQ(v.facts.valid_targets, v.valid_targets);
  // The findings shown are those of a valid target: no atomicity error among them.
  EXPECT_NE(v.valid_targets & Bit(v.reported_target), 0u) << Dump(s, v);
  EXPECT_FALSE(HasRule(v, "target-swizzle-atomicity")) << Dump(s, v);
  EXPECT_EQ(v.errors, 0) << Dump(s, v);
}

// ============================== target-sub-byte ==============================
// [SPEC] 6: "16U4_ALIGN8B and 16U4_ALIGN16B data types: rejected on sm_90"; [SPEC] 2.5: ".elemtype 13-15:
// sm_100a, sm_101a/sm_110a, sm_120a + family targets (NOT sm_90a)".
TEST(TargetSubByte, Sm90RejectsSm100aAccepts) {
  EXPECT_TRUE(TripsError(WithTarget(PackedU4Align8(), Target::kSm90a), "target-sub-byte"));
  EXPECT_TRUE(Clear(PackedU4Align8(), "target-sub-byte"));  // sm_100a
  EXPECT_TRUE(TripsError(WithTarget(PackedU4Align16(), Target::kSm90), "target-sub-byte"));
  EXPECT_TRUE(TripsError(WithTarget(PackedU6Align16(), Target::kSm90a), "target-sub-byte"));
  EXPECT_TRUE(Clear(PackedU6Align16(), "target-sub-byte"));
  EXPECT_TRUE(Clear(TiledF16(), "target-sub-byte"));

  const TensorMapSpec n = WithoutTarget(PackedU4Align8());
  const Validation v = ValidateSpec(n);
  EXPECT_TRUE(v.valid) << Dump(n, v);
  EXPECT_EQ(v.valid_targets & (Bit(Target::kSm90) | Bit(Target::kSm90a)), 0u) << Dump(n, v);
  EXPECT_NE(v.valid_targets & Bit(Target::kSm100a), 0u) << Dump(n, v);
}

// ============================== target-mode ==============================
// [SPEC] 2.4 target table: ".tile::gather4, .im2col::w: .shared::cluster dst: sm_100a (sm_100f from PTX 8.8);
// .shared::cta dst: sm_100 or higher"; ".tile::scatter4, .im2col::w::128: sm_100a, sm_101a(=sm_110a); family
// sm_100f+, sm_110f+"; "prefetch .tile::gather4, .im2col::w, .im2col::w::128: sm_100a, sm_101a/sm_110a; family".
TEST(TargetMode, Gather4ToSharedCtaNeedsSm100OrHigher) {
  TensorMapSpec s = WithTarget(Gather4F16(), Target::kSm90a);
  EXPECT_TRUE(TripsError(s, "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm120), "target-mode"));

  const TensorMapSpec n = WithoutTarget(Gather4F16());
  const Validation v = ValidateSpec(n);
  EXPECT_EQ(v.valid_targets, kCc100Up) << "got " << TargetMask(v.valid_targets) << "\n" << Dump(n, v);
}

TEST(TargetMode, Gather4ToClusterAndPrefetchNeedArchOrFamilyTargets) {
  TensorMapSpec s = Gather4F16();
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(TripsError(WithTarget(s, Target::kSm100), "target-mode"));
  EXPECT_TRUE(TripsError(WithTarget(s, Target::kSm90a), "target-mode"));
  EXPECT_TRUE(TripsError(WithTarget(s, Target::kSm120a), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100f), "target-mode"));

  s.direction = Direction::kPrefetch;
  EXPECT_TRUE(TripsError(WithTarget(s, Target::kSm100), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-mode"));
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm110a), "target-mode"));
}

// [CUDA_H] Im2colWide: "This API is only supported on devices of compute capability 10.0 or higher"; [SPEC] 6:
// the sm_90 driver encodes it anyway, but (target table) .im2col::w needs sm_100 or higher => error on sm_90a.
TEST(TargetMode, Im2colWNeedsSm100) {
  EXPECT_TRUE(TripsError(WithTarget(WideW(), Target::kSm90a), "target-mode"));
  EXPECT_TRUE(Clear(WideW(), "target-mode"));  // sm_100a
  EXPECT_TRUE(Clear(WithTarget(WideW(), Target::kSm100), "target-mode"));
}

TEST(TargetMode, Scatter4AndW128NeedDatacenterBlackwellTargets) {
  EXPECT_TRUE(TripsError(WithTarget(Scatter4F16(), Target::kSm100), "target-mode"));
  EXPECT_TRUE(TripsError(WithTarget(Scatter4F16(), Target::kSm120a), "target-mode"));
  EXPECT_TRUE(TripsError(WithTarget(Scatter4F16(), Target::kSm90a), "target-mode"));
  EXPECT_TRUE(Clear(Scatter4F16(), "target-mode"));  // sm_100a
  EXPECT_TRUE(Clear(WithTarget(Scatter4F16(), Target::kSm110f), "target-mode"));

  EXPECT_TRUE(TripsError(WithTarget(WideW128(), Target::kSm100), "target-mode"));
  EXPECT_TRUE(TripsError(WithTarget(WideW128(), Target::kSm120a), "target-mode"));
  EXPECT_TRUE(Clear(WideW128(), "target-mode"));

  const TensorMapSpec n = WithoutTarget(Scatter4F16());
  const Validation v = ValidateSpec(n);
  EXPECT_EQ(v.valid_targets, kDatacenterBlackwell) << "got " << TargetMask(v.valid_targets) << "\n" << Dump(n, v);
  const TensorMapSpec m = WithoutTarget(WideW128());
  const Validation w = ValidateSpec(m);
  EXPECT_EQ(w.valid_targets, kDatacenterBlackwell) << "got " << TargetMask(w.valid_targets) << "\n" << Dump(m, w);
}

// .tile and .im2col exist on sm_90 ([SPEC] 2.4: "base instruction ... sm_90+").
TEST(TargetMode, TiledAndIm2colRunEverywhere) {
  EXPECT_TRUE(Clear(WithTarget(TiledF16(), Target::kSm90), "target-mode"));
  EXPECT_TRUE(Clear(Im2colF16(), "target-mode"));
  const Validation v = ValidateSpec(WithoutTarget(TiledF16()));
  EXPECT_EQ(v.valid_targets, kAllTargets) << TargetMask(v.valid_targets);
}

// ============================== target-sm120-cluster ==============================
// [SPEC] 2.3: "sm_120a: .shared::cluster.global does not support the sub-byte types nor .swizzle_atomicity."
TEST(TargetSm120Cluster, NoSubByteOrAtomicityToCluster) {
  TensorMapSpec s = WithTarget(TiledF16(), Target::kSm120a);
  s.swizzle = Swizzle::k128BAtom32B;
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(TripsError(s, "target-sm120-cluster"));
  s.direction = Direction::kLoadCta;
  EXPECT_TRUE(Clear(s, "target-sm120-cluster"));
  s.direction = Direction::kLoadCluster;
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm100a), "target-sm120-cluster"));
  s.swizzle = Swizzle::k128B;
  EXPECT_TRUE(Clear(s, "target-sm120-cluster"));

  TensorMapSpec u = WithTarget(PackedU4Align8(), Target::kSm120a);
  u.direction = Direction::kLoadCluster;
  EXPECT_TRUE(TripsError(u, "target-sm120-cluster"));
  u.direction = Direction::kLoadCta;
  EXPECT_TRUE(Clear(u, "target-sm120-cluster"));
}

// ============================== target-smem-capacity ==============================
// [CPG] compute-capability table, "maximum amount of shared memory per thread block": 227 KB (232448 B) on
// compute capability 9.0 and 10.x, 99 KB (101376 B) on 12.x; [SPEC] 5.3: CCCL checks "total box bytes <=
// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"; [SPEC] 6: the driver encodes larger boxes anyway.
TensorMapSpec U8Box(uint32_t rows) {
  TensorMapSpec s = TiledF16NoSwizzle();
  s.data_type = DataType::kUint8;
  s.rank = 3;
  s.global_dim = {256, 256, 8, 0, 0};
  s.global_strides = {256, 65536, 0, 0};
  s.box_dim = {256, rows, 4, 0, 0};  // 256 x rows x 4 bytes
  return s;
}
TEST(TargetSmemCapacity, TwoTwentySevenAndNinetyNineKiB) {
  EXPECT_TRUE(Clear(U8Box(227), "target-smem-capacity"));  // 232448 B on sm_90a
  EXPECT_TRUE(TripsError(U8Box(228), "target-smem-capacity"));  // 233472 B
  EXPECT_TRUE(Clear(WithTarget(U8Box(99), Target::kSm120a), "target-smem-capacity"));  // 101376 B
  EXPECT_TRUE(TripsError(WithTarget(U8Box(100), Target::kSm120a), "target-smem-capacity"));  // 102400 B
  EXPECT_TRUE(Clear(U8Box(100), "target-smem-capacity"));

  // A prefetch lands in L2, not in shared memory: the capacity rule does not apply, but the driver rejects
  // a box over 232448 B for every use (docs/hardware.md B1), so the spec is still invalid.
  TensorMapSpec p = U8Box(228);
  p.direction = Direction::kPrefetch;
  EXPECT_FALSE(HasRule(ValidateSpec(p), "target-smem-capacity"));
  EXPECT_TRUE(TripsError(p = U8Box(230), "box-driver-size-limit"));  // 235520 B > 235,008 B rejected (B1)
  EXPECT_TRUE(Clear(p = U8Box(227), "box-driver-size-limit"));

  // The box of [SPEC] 6, 256 x 256 f16 = 131072 B: fits 227 KiB, not 99 KiB.
  TensorMapSpec b = TiledF16NoSwizzle();
  b.box_dim = {256, 256, 0, 0, 0};
  EXPECT_TRUE(Clear(b, "target-smem-capacity"));
  EXPECT_TRUE(TripsError(WithTarget(b, Target::kSm120), "target-smem-capacity"));

  // No target: valid everywhere except the sm_120 class.
  const TensorMapSpec n = WithoutTarget(U8Box(100));
  const Validation v = ValidateSpec(n);
  EXPECT_EQ(v.valid_targets, kAllTargets & ~kSm120Class) << TargetMask(v.valid_targets) << "\n" << Dump(n, v);
}

// ============================== driver-oob-address-bug ==============================
// NVIDIA Data Center driver release notes 595.71.05 (and 595.91.07), known issues, quoted in
// triton-lang/triton#10442: "Applications using cuTensorMapEncodeTiled() or cuTensorMapEncodeIm2col*() on
// Blackwell GPUs may encounter sporadic illegal memory accesses (IMA) or MMU faults (like XID 13) due to driver
// incorrectly configuring TMA descriptors when the tensor's backing memory allocation is less than 128KB and it is
// not a dense non-overlapping tensor." Those are CUDA 13.2 drivers (r595, cuDriverGetVersion 13020; CUDA 13.2 GA
// needs >= 595.45.04) and name no fixed version, so the warning does not stop at 13.2 (CUTLASS, CCCL and Triton
// stop clearing bit 85 there; triton-lang/triton#11011 reports 13.2/13.3 forward-compatibility drivers still
// affected). Legal but risky => a warning, per Blackwell target.
TensorMapSpec SmallTensor(uint64_t rows, uint64_t pitch) {
  TensorMapSpec s = WithTarget(TiledF16(), Target::kSm100a);
  s.global_dim = {64, rows, 0, 0, 0};  // 128-byte rows
  s.global_strides = {pitch, 0, 0, 0};
  s.box_dim = {64, 64, 0, 0, 0};
  return s;
}
TEST(DriverOobAddressBug, DenseNonOverlappingTensorsAreNotAffected) {
  TensorMapSpec s = SmallTensor(64, 128);  // dense, 8192 B
  s.driver_version = 13010;
  EXPECT_TRUE(Clear(s, "driver-oob-address-bug"));
  // Dense with the dimensions in another order: [64, 4, 8] with strides {1024, 128} (dimension 2 inside 1).
  TensorMapSpec p = s;
  p.rank = 3;
  p.global_dim = {64, 4, 8, 0, 0};
  p.global_strides = {1024, 128, 0, 0};
  p.box_dim = {64, 4, 8, 0, 0};
  EXPECT_TRUE(Clear(p, "driver-oob-address-bug"));
  // An extent-1 dimension moves nothing, whatever its stride: still dense.
  TensorMapSpec one = s;
  one.rank = 3;
  one.global_dim = {64, 64, 1, 0, 0};
  one.global_strides = {128, 16, 0, 0};
  one.box_dim = {64, 64, 1, 0, 0};
  EXPECT_TRUE(Clear(one, "driver-oob-address-bug"));
}
TEST(DriverOobAddressBug, PaddedOrOverlappingSmallTensorsOnBlackwellWhateverTheDriver) {
  for (uint32_t driver : {12080u, 13000u, 13010u, 13020u, 13030u}) {
    SCOPED_TRACE(driver);
    TensorMapSpec s = SmallTensor(64, 256);  // padded rows: 63 x 256 + 128 = 16,256 B
    s.driver_version = driver;
    EXPECT_TRUE(TripsWarning(s, "driver-oob-address-bug"));
    const Validation v = ValidateSpec(s);
    ASSERT_NE(FindingOf(v, "driver-oob-address-bug"), nullptr) << Dump(s, v);
    EXPECT_EQ(FindingOf(v, "driver-oob-address-bug")->value, 16256);
    TensorMapSpec b = SmallTensor(64, 0);  // a broadcast: every row the same bytes
    b.driver_version = driver;
    EXPECT_TRUE(TripsWarning(b, "driver-oob-address-bug"));
  }
  TensorMapSpec s = SmallTensor(64, 256);
  s.driver_version = 0;  // unknown driver
  EXPECT_TRUE(Clear(s, "driver-oob-address-bug"));
  s.driver_version = 13010;
  EXPECT_TRUE(Clear(WithTarget(s, Target::kSm90a), "driver-oob-address-bug"));
  EXPECT_TRUE(TripsWarning(WithTarget(s, Target::kSm120a), "driver-oob-address-bug"));

  // The span against 128 KiB: 256-byte rows (f16 x 128) at a 512-byte pitch.
  TensorMapSpec b = SmallTensor(256, 512);
  b.global_dim[0] = 128;
  b.driver_version = 13010;
  EXPECT_TRUE(TripsWarning(b, "driver-oob-address-bug"));  // 255 x 512 + 256 = 130,816 B
  b.global_dim[1] = 257;
  EXPECT_TRUE(Clear(b, "driver-oob-address-bug"));  // 131,328 B
}
TEST(DriverOobAddressBug, EveryEncoderIncludingIm2colWide) {
  // "cuTensorMapEncodeIm2col*()": the wide encoder too. A [64, 14, 14, 2] f16 tensor with 256-byte pixels
  // (padded): 57,472 B.
  TensorMapSpec w = WideW();
  w.global_dim = {64, 14, 14, 2, 0};
  w.global_strides = {256, 3584, 50176, 0};
  w.driver_version = 13010;
  EXPECT_TRUE(TripsWarning(w, "driver-oob-address-bug"));
  TensorMapSpec i = WithTarget(Im2colF16(), Target::kSm100a);
  i.global_dim = {64, 14, 14, 2, 0};
  i.global_strides = {256, 3584, 50176, 0};
  i.driver_version = 13020;
  EXPECT_TRUE(TripsWarning(i, "driver-oob-address-bug"));
}

// ============================== per-target verdicts ==============================
// validator.h: "With a target (kFieldTarget set), the verdict is for that target"; "when none is valid, [the
// findings shown are those] of the target with the fewest errors".
// The minimum target is the lowest on which the map is valid, whatever target was asked. [PTX] cp.async.bulk.tensor
// .tile into .shared::cta: sm_90 or higher; .tile::gather4 into .shared::cta: sm_100 or higher
// (tma-spec.md section 2).
TEST(PerTarget, LowestValidTargetIgnoresTheAskedTarget) {
  Target t;
  for (const Target asked : {Target::kSm90a, Target::kSm100a, Target::kSm120a}) {
    const TensorMapSpec s = WithTarget(TiledF16(), asked);
    const Validation v = ValidateSpec(s);
    ASSERT_TRUE(v.valid);
    ASSERT_TRUE(LowestValidTarget(s, v.valid_targets, &t));
    EXPECT_EQ(t, Target::kSm90) << Name(asked);
  }
  TensorMapSpec g = TiledF16();
  g.mode = Mode::kGather4;
  g.box_dim = {64, 1, 0, 0, 0};
  SetTarget(g, Target::kSm120a);
  const Validation gv = ValidateSpec(g);
  ASSERT_TRUE(gv.valid);
  ASSERT_TRUE(LowestValidTarget(g, gv.valid_targets, &t));
  EXPECT_EQ(t, Target::kSm100);
  // Invalid on every target: none.
  TensorMapSpec bad = TiledF16();
  bad.box_dim[0] = 3;
  EXPECT_FALSE(LowestValidTarget(bad, ValidateSpec(bad).valid_targets, &t));
}

TEST(PerTarget, ExplicitTargetDecidesAlone) {
  TensorMapSpec s = TiledF16();
  s.swizzle = Swizzle::k128BAtom32B;
  const Validation v90 = ValidateSpec(s);
  EXPECT_FALSE(v90.valid);
  EXPECT_EQ(v90.valid_targets, 0u);
  EXPECT_EQ(v90.reported_target, Target::kSm90a);
  const Finding* f = FindingOf(v90, "target-swizzle-atomicity");
  ASSERT_NE(f, nullptr) << Dump(s, v90);
  EXPECT_EQ(static_cast<Target>(f->target), Target::kSm90a);

  const Validation v100 = ValidateSpec(WithTarget(s, Target::kSm100a));
  EXPECT_TRUE(v100.valid);
  EXPECT_EQ(v100.valid_targets, Bit(Target::kSm100a));
}

TEST(PerTarget, NoValidTargetReportsTheFewestErrors) {
  // 256 KiB box: too large for every target; with 128B_ATOM_32B, sm_90/sm_90a also fail the atomicity rule.
  // u8 box [128, 256, 8]: 128-byte rows (the 128B span), 128 x 256 x 8 = 262144 B > 227 KiB.
  TensorMapSpec s = WithoutTarget(U8Box(256));
  s.swizzle = Swizzle::k128BAtom32B;
  s.box_dim = {128, 256, 8, 0, 0};
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(v.valid) << Dump(s, v);
  EXPECT_EQ(v.valid_targets, 0u);
  EXPECT_GE(Info(v.reported_target).cc, 100) << Dump(s, v);
  // Two errors on the best target: the shared-memory capacity, and the driver's box limit (hardware.md B1).
  EXPECT_EQ(v.errors, 2) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "target-smem-capacity")) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "box-driver-size-limit")) << Dump(s, v);
}

// validator.h: "Without a target ... `valid` is true when there is at least one"; a target-independent error
// makes every target invalid.
TEST(PerTarget, IndependentErrorsInvalidateEveryTarget) {
  TensorMapSpec s = WithoutTarget(TiledF16());
  s.box_dim[1] = 257;
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.valid_targets, 0u) << Dump(s, v);
}

// validator.h: "reports all findings at once, never just the first".
TEST(AllViolations, FourBrokenRulesFourErrors) {
  TensorMapSpec s = WithGlobalAddress(TiledF16(), 0x10008);  // global-address-align-16
  s.global_strides[0] = 8200;                                 // global-stride-align-16 (>= the 8192 B row)
  s.box_dim[1] = 257;                                         // box-dim-range
  s.element_strides[1] = 9;                                   // element-stride-range
  const Validation v = ValidateSpec(s);
  EXPECT_FALSE(v.valid);
  EXPECT_TRUE(HasRule(v, "global-address-align-16")) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "global-stride-align-16")) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "box-dim-range")) << Dump(s, v);
  EXPECT_TRUE(HasRule(v, "element-stride-range")) << Dump(s, v);
  EXPECT_EQ(v.errors, 4) << Dump(s, v);
  EXPECT_EQ(v.warnings, 0) << Dump(s, v);

  // Plus a warning ([SPEC] 6: elementStrides[0] with interleave NONE is accepted and ignored).
  s.element_strides[0] = 2;
  const Validation w = ValidateSpec(s);
  EXPECT_EQ(w.errors, 4) << Dump(s, w);
  EXPECT_EQ(w.warnings, 1) << Dump(s, w);
  EXPECT_TRUE(HasRule(w, "element-stride-dim0")) << Dump(s, w);

  // The same in an im2col map: corner range, pixels range, channel bytes, element-stride range.
  TensorMapSpec i = Im2colF16();
  i.pixel_box_lower_corner[0] = -129;
  i.pixels_per_column = 1025;
  i.channels_per_pixel = 60;
  i.element_strides[2] = 0;
  const Validation vi = ValidateSpec(i);
  EXPECT_TRUE(HasRule(vi, "im2col-lower-corner-range")) << Dump(i, vi);
  EXPECT_TRUE(HasRule(vi, "im2col-pixels-range")) << Dump(i, vi);
  EXPECT_TRUE(HasRule(vi, "im2col-channels-bytes-16")) << Dump(i, vi);
  EXPECT_TRUE(HasRule(vi, "element-stride-range")) << Dump(i, vi);
  EXPECT_EQ(vi.errors, 4) << Dump(i, vi);
}

// ============================== derived facts ==============================
// [CUDA_H]: elements loaded along dim i = ceil(boxDim[i] / elementStrides[i]); elementStrides[0] ignored with
// interleave NONE. 64 x 128 f16 = 8192 elements = 16384 B.
TEST(DerivedFacts, TiledTransactionBytes) {
  const Validation v = ValidateSpec(TiledF16());
  EXPECT_EQ(v.facts.encoder, Encoder::kTiled);
  EXPECT_EQ(v.facts.element_bits, 16);
  EXPECT_EQ(v.facts.inner_box_bytes, 128u);
  EXPECT_EQ(v.facts.elements_per_copy, 8192u);
  EXPECT_EQ(v.facts.transaction_bytes, 16384u);
  EXPECT_EQ(v.facts.smem_footprint_bytes, 16384u);
  EXPECT_EQ(v.facts.global_extent_bytes, 8192ull * 4096);  // stride[0] x dim[1] = 33554432

  TensorMapSpec s = TiledF16();
  s.element_strides = {1, 2, 1, 1, 1};  // 64 x ceil(128 / 2) x 2 B = 8192 B
  EXPECT_EQ(ValidateSpec(s).facts.transaction_bytes, 8192u);
  s.element_strides = {1, 3, 1, 1, 1};  // 64 x ceil(128 / 3) = 64 x 43 x 2 B = 5504 B
  EXPECT_EQ(ValidateSpec(s).facts.transaction_bytes, 5504u);
  s.element_strides = {2, 1, 1, 1, 1};  // dim 0 ignored: still 16384 B
  EXPECT_EQ(ValidateSpec(s).facts.transaction_bytes, 16384u);
}

// [SPEC] 5.2 (CUTLASS gather4): "bytes per TMA = 4 x box": 4 x 64 x 2 B = 512 B.
TEST(DerivedFacts, Gather4FourRows) {
  const Validation v = ValidateSpec(Gather4F16());
  EXPECT_EQ(v.facts.elements_per_copy, 256u);
  EXPECT_EQ(v.facts.transaction_bytes, 512u);
  // scatter4 is a store: the same 512 bytes move, but through a bulk async-group, with no mbarrier to count them
  // (PTX ISA 9.2 section 9.7.9.25.5.2: .global destination, .bulk_group).
  EXPECT_EQ(ValidateSpec(Scatter4F16()).facts.bytes_per_copy, 512u);
  EXPECT_EQ(ValidateSpec(Scatter4F16()).facts.transaction_bytes, 0u);
}

// [PTX-CN] 5.5.4.1: Pixels-per-Column elements in NDHW space x Channels-per-Pixel along C: 128 x 64 x 2 B =
// 16384 B; 5.5.4.2: the traversal stride does not change the count; 5.5.5: im2col::w::128 moves 128 pixels
// whatever pixelsPerColumn says.
TEST(DerivedFacts, Im2colTransactionBytes) {
  const Validation v = ValidateSpec(Im2colF16());
  EXPECT_EQ(v.facts.encoder, Encoder::kIm2col);
  EXPECT_EQ(v.facts.inner_box_bytes, 128u);
  EXPECT_EQ(v.facts.elements_per_copy, 8192u);
  EXPECT_EQ(v.facts.transaction_bytes, 16384u);
  TensorMapSpec s = Im2colF16();
  s.element_strides = {1, 2, 2, 1, 1};
  EXPECT_EQ(ValidateSpec(s).facts.transaction_bytes, 16384u);

  TensorMapSpec w = WideW128();
  w.pixels_per_column = 64;
  const Validation vw = ValidateSpec(w);
  EXPECT_EQ(vw.facts.encoder, Encoder::kIm2colWide);
  EXPECT_EQ(vw.facts.transaction_bytes, 16384u);  // 128 x 64 x 2
  TensorMapSpec ww = WideW();
  ww.pixels_per_column = 64;
  EXPECT_EQ(ValidateSpec(ww).facts.transaction_bytes, 8192u);  // 64 x 64 x 2
}

// Shared memory: [PTX-CN] 5.5.1.1: .b4x16_p64 appends 64 bits of padding to every 16 4-bit elements (64 + 64 =
// 128 bits per 16 elements: 1 B each in shared memory); .b6x16_p32 appends 32 bits to 16 x 6 bits (96 + 32 = 128
// bits); .b4x16 has no padding. A 128-element row: 128 B, 128 B, 64 B of shared memory.
// Transaction bytes: the packed size, as production kernels arm their mbarriers:
//   CUTLASS include/cutlass/gemm/collective/sm100_blockscaled_mma_warpspecialized.hpp (commit 7107b0553),
//     l. 262-263 SmemAllocTypeA/B = uint8_t for the sub-byte f8f6f4 types (the footprint, 1 B per element), and
//     l. 294-296 ABTmaTransactionBytes = bits_to_bytes(cosize(SmemLayoutA) * sizeof_bits_v<ElementA>) with
//     ElementA the 4- or 6-bit type (cute/arch/copy_sm90_desc.hpp l. 225-233 maps those types to
//     16U4_ALIGN16B / 16U6_ALIGN16B);
//   CUTLASS include/cutlass/gemm/collective/sm120_blockscaled_mma_tma.hpp l. 252-264 (the same: uint8_t
//     storage, TmaTransactionBytesMK/NK from sizeof_bits<ElementA/B>);
//   DeepGEMM deep_gemm/include/deep_gemm/impls/sm100_fp8_fp4_gemm_1d1d.cuh (commit 54e2261) l. 86-87
//     SMEM_B_SIZE_PER_STAGE = LOAD_BLOCK_N * BLOCK_K * sizeof(b_dtype_t) (1 B per element), l. 257-258 arms
//     SMEM_B_SIZE_PER_STAGE / 2 for FP4; csrc/jit_kernels/impls/runtime_utils.hpp l. 87 encodes that operand
//     as CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B.
// So a 128 x 64 box: 16U4_ALIGN16B 8192 elements x 4 bits = 4096 B, 16U6_ALIGN16B 8192 x 6 bits = 6144 B, into an
// 8192-byte image; 16U4_ALIGN8B (no padding) 4096 B into 4096 B.
TEST(DerivedFacts, PackedTypesInSharedMemory) {
  const Validation u4 = ValidateSpec(PackedU4Align16());
  EXPECT_EQ(u4.facts.element_bits, 4);
  EXPECT_EQ(u4.facts.smem_element_bits, 8);
  EXPECT_EQ(u4.facts.inner_box_bytes, 128u);
  EXPECT_EQ(u4.facts.transaction_bytes, 4096u);
  EXPECT_EQ(u4.facts.smem_footprint_bytes, 8192u);

  const Validation u6 = ValidateSpec(PackedU6Align16());
  EXPECT_EQ(u6.facts.element_bits, 6);
  EXPECT_EQ(u6.facts.inner_box_bytes, 128u);
  EXPECT_EQ(u6.facts.transaction_bytes, 6144u);
  EXPECT_EQ(u6.facts.smem_footprint_bytes, 8192u);

  const Validation u48 = ValidateSpec(PackedU4Align8());
  EXPECT_EQ(u48.facts.inner_box_bytes, 64u);
  EXPECT_EQ(u48.facts.transaction_bytes, 64u * 64);
  EXPECT_EQ(u48.facts.smem_footprint_bytes, 64u * 64);

  // Global extent uses the packed size: 2048-byte rows x 256 rows.
  EXPECT_EQ(u4.facts.global_extent_bytes, 2048u * 256);
}

// Two sub-byte boxes of production GEMMs, same sources: a 128 x 128 16U4_ALIGN16B box (DeepGEMM's BLOCK_K = 128 x a
// 128-row block) moves 8,192 transaction bytes into a 16,384-byte footprint; a 128 x 32 16U6_ALIGN16B box 3,072
// bytes into 4,096. The report says so in words.
TEST(DerivedFacts, PackedTransactionBytesOfProductionBoxes) {
  TensorMapSpec u4 = PackedU4Align16();
  u4.box_dim = {128, 128, 0, 0, 0};
  const Validation v4 = ValidateSpec(u4);
  EXPECT_TRUE(v4.valid) << Dump(u4, v4);
  EXPECT_EQ(v4.facts.transaction_bytes, 8192u);
  EXPECT_EQ(v4.facts.smem_footprint_bytes, 16384u);

  TensorMapSpec u6 = PackedU6Align16();
  u6.box_dim = {128, 32, 0, 0, 0};
  const Validation v6 = ValidateSpec(u6);
  EXPECT_TRUE(v6.valid) << Dump(u6, v6);
  EXPECT_EQ(v6.facts.transaction_bytes, 3072u);
  EXPECT_EQ(v6.facts.smem_footprint_bytes, 4096u);
}

// [PTX-CN] 5.5.7 / [SPEC] 2.2: the 32B / 64B / 128B patterns start on 256 / 512 / 1024-byte boundaries;
// base offset = (dstMem / 128) % 2, % 4, % 8. [CPG]: "if the swizzle width exceeds the inner dimension,
// ensure that the shared memory is allocated to accommodate the full swizzle width".
TEST(DerivedFacts, SwizzleRepeatAndBaseOffset) {
  EXPECT_EQ(ValidateSpec(TiledF16()).facts.swizzle_repeat, 1024u);
  EXPECT_EQ(ValidateSpec(TiledF16()).facts.swizzle_span, 128u);
  EXPECT_EQ(ValidateSpec(TiledF16()).facts.smem_alignment_recommended, 1024u);
  EXPECT_EQ(ValidateSpec(TiledF16()).facts.smem_alignment_required, 128u);
  EXPECT_EQ(ValidateSpec(TiledF16NoSwizzle()).facts.swizzle_repeat, 0u);
  EXPECT_EQ(ValidateSpec(Interleave32Rank3()).facts.swizzle_repeat, 256u);
  TensorMapSpec s64 = TiledF16();
  s64.swizzle = Swizzle::k64B;
  s64.box_dim[0] = 32;
  EXPECT_EQ(ValidateSpec(s64).facts.swizzle_repeat, 512u);

  EXPECT_EQ(ValidateSpec(WithSmemAddress(TiledF16(), 0x400 + 0x80)).facts.swizzle_base_offset, 1);
  EXPECT_EQ(ValidateSpec(WithSmemAddress(TiledF16(), 0x800)).facts.swizzle_base_offset, 0);
  EXPECT_EQ(ValidateSpec(WithSmemAddress(TiledF16(), 0x380)).facts.swizzle_base_offset, 7);
  EXPECT_EQ(ValidateSpec(WithSmemAddress(s64, 0x180)).facts.swizzle_base_offset, 3);
  EXPECT_EQ(ValidateSpec(WithSmemAddress(s64, 0x380)).facts.swizzle_base_offset, 3);  // (0x380/128)%4 = 7%4
  EXPECT_EQ(ValidateSpec(WithSmemAddress(Interleave32Rank3(), 0x80)).facts.swizzle_base_offset, 1);
  EXPECT_EQ(ValidateSpec(WithSmemAddress(Interleave32Rank3(), 0x180)).facts.swizzle_base_offset, 1);  // 3%2
  EXPECT_EQ(ValidateSpec(WithSmemAddress(TiledF16NoSwizzle(), 0x180)).facts.swizzle_base_offset, 0);
  EXPECT_EQ(ValidateSpec(TiledF16()).facts.swizzle_base_offset, -1);  // address unknown

  TensorMapSpec row = TiledF16();  // one 64-byte row under a 128-byte swizzle
  row.box_dim = {32, 1, 0, 0, 0};
  const Validation v = ValidateSpec(row);
  EXPECT_EQ(v.facts.transaction_bytes, 64u);
  EXPECT_EQ(v.facts.smem_footprint_bytes, 128u);
}

// [SPEC] 2.4: cp.async.bulk.prefetch.tensor goes to .L2 and has neither a shared-memory destination nor an
// mbarrier, so it moves no bytes into shared memory.
TEST(DerivedFacts, PrefetchMovesNothingIntoSharedMemory) {
  TensorMapSpec s = TiledF16();
  s.direction = Direction::kPrefetch;
  const Validation v = ValidateSpec(s);
  EXPECT_EQ(v.facts.transaction_bytes, 0u);
  EXPECT_EQ(v.facts.smem_footprint_bytes, 0u);
}

// ============================== NearestValid ==============================
// validator.h: NearestValid "returns a spec that validates ... and differs from `spec` only where a rule's
// fix said so". [CUDA_H]: strides are multiples of 16 (1000 -> 1008); SWIZZLE_64B needs an inner box <= 64 B
// (64 f16 -> 32 f16).
TEST(NearestValid, PadsTheStride) {
  TensorMapSpec bad = TiledF16Pitch1008();
  bad.global_strides[0] = 1000;
  TensorMapSpec out;
  ASSERT_TRUE(NearestValid(bad, &out));
  EXPECT_EQ(out.global_strides[0], 1008u);
  EXPECT_TRUE(ValidateSpec(out).valid) << Dump(out, ValidateSpec(out));
  TensorMapSpec expect = bad;
  expect.global_strides[0] = 1008;
  EXPECT_EQ(out.global_dim, expect.global_dim);
  EXPECT_EQ(out.box_dim, expect.box_dim);
  EXPECT_EQ(out.swizzle, expect.swizzle);
  EXPECT_EQ(out.data_type, expect.data_type);
}

TEST(NearestValid, ShrinksTheBoxToTheSwizzleSpan) {
  TensorMapSpec bad = TiledF16();
  bad.swizzle = Swizzle::k64B;  // box_dim[0] = 64 f16 = 128 B
  TensorMapSpec out;
  ASSERT_TRUE(NearestValid(bad, &out));
  EXPECT_EQ(out.swizzle, Swizzle::k64B);
  EXPECT_EQ(out.box_dim[0], 32u);
  EXPECT_EQ(out.box_dim[1], 128u);
  EXPECT_EQ(out.global_strides[0], 8192u);
  EXPECT_TRUE(ValidateSpec(out).valid) << Dump(out, ValidateSpec(out));
}

// [CUDA_H]: boxDim is 1..256, so the nearest valid extent for 257 is 256 (and 1 for 0).
TEST(NearestValid, ClampsTheBox) {
  TensorMapSpec bad = TiledF16();
  bad.box_dim[1] = 257;
  TensorMapSpec out;
  ASSERT_TRUE(NearestValid(bad, &out));
  EXPECT_EQ(out.box_dim[1], 256u);
  EXPECT_EQ(out.box_dim[0], 64u);
  bad.box_dim[1] = 0;
  ASSERT_TRUE(NearestValid(bad, &out));
  EXPECT_EQ(out.box_dim[1], 1u);
  EXPECT_TRUE(ValidateSpec(out).valid);
}

// Several errors repaired together, over more than one round when one fix uncovers another.
TEST(NearestValid, RepairsSeveralErrors) {
  TensorMapSpec bad = TiledF16Pitch1008();
  bad.global_strides[0] = 1000;  // -> 1008
  bad.box_dim[1] = 300;          // -> 256
  bad.element_strides[1] = 0;    // -> 1
  TensorMapSpec out;
  ASSERT_TRUE(NearestValid(bad, &out));
  EXPECT_EQ(out.global_strides[0], 1008u);
  EXPECT_EQ(out.box_dim[1], 256u);
  EXPECT_EQ(out.element_strides[1], 1u);
  EXPECT_TRUE(ValidateSpec(out).valid) << Dump(out, ValidateSpec(out));
}

TEST(NearestValid, ValidSpecIsUnchangedAndUnfixableFails) {
  TensorMapSpec out;
  ASSERT_TRUE(NearestValid(TiledF16(), &out));
  EXPECT_EQ(out.box_dim, TiledF16().box_dim);
  EXPECT_EQ(out.global_strides, TiledF16().global_strides);

  TensorMapSpec huge = TiledF16();
  huge.global_strides[0] = k2Pow40;  // no automatic fix is known for a 1 TiB pitch
  EXPECT_FALSE(NearestValid(huge, &out));
}

// ============================== field paths ==============================
// rule.h: "field path; "[i]" stands for the finding's index". The paths are the spec's own keys.
std::string PathOf(const TensorMapSpec& s, std::string_view id) {
  const Validation v = ValidateSpec(s);
  const Finding* f = FindingOf(v, id);
  if (f == nullptr) return "(no finding of " + std::string(id) + ")\n" + Dump(s, v);
  return FieldPath(Rules()[f->rule], s, *f);
}

TEST(FieldPath, IndexedPaths) {
  TensorMapSpec s = TiledF16Pitch1008();
  s.global_strides[0] = 1000;
  EXPECT_EQ(PathOf(s, "global-stride-align-16"), "global_strides[0]");
  TensorMapSpec t = Tiled3dF16();
  t.global_strides[1] = 8200;
  EXPECT_EQ(PathOf(t, "global-stride-align-16"), "global_strides[1]");
  s = TiledF16();
  s.global_dim[1] = k2Pow32 + 1;
  EXPECT_EQ(PathOf(s, "global-dim-range"), "global_dim[1]");
  s = TiledF16();
  s.box_dim[1] = 257;
  EXPECT_EQ(PathOf(s, "box-dim-range"), "box_dim[1]");
  s = TiledF16();
  s.element_strides[1] = 9;
  EXPECT_EQ(PathOf(s, "element-stride-range"), "element_strides[1]");
  s = TiledF16();
  s.rank = 6;
  EXPECT_EQ(PathOf(s, "rank-range"), "tensor_rank");
  TensorMapSpec i = Im2colRank4WideW();
  i.pixel_box_lower_corner[1] = -129;
  EXPECT_EQ(PathOf(i, "im2col-lower-corner-range"), "pixel_box_lower_corner[1]");
}

TEST(FieldPath, ModeDependentPaths) {
  TensorMapSpec s = TiledF16();
  s.swizzle = Swizzle::k64B;
  EXPECT_EQ(PathOf(s, "swizzle-inner-span"), "box_dim[0]");
  TensorMapSpec i = Im2colF16();
  i.channels_per_pixel = 128;
  EXPECT_EQ(PathOf(i, "swizzle-inner-span"), "channels_per_pixel");

  TensorMapSpec st = Im2colF16();
  st.direction = Direction::kStore;  // lower {-1,-1}, upper {-1,-1}: the two lower corners are wrong
  EXPECT_EQ(PathOf(st, "im2col-store-corners"), "pixel_box_lower_corner[0]");
  st.pixel_box_lower_corner = {0, 0, 0};
  st.pixel_box_upper_corner = {0, 1, 0};
  EXPECT_EQ(PathOf(st, "im2col-store-corners"), "pixel_box_upper_corner[1]");
  TensorMapSpec w = WideW();
  w.direction = Direction::kStore;
  EXPECT_EQ(PathOf(w, "im2col-store-corners"), "pixel_box_lower_corner_width");
  w.pixel_box_lower_corner_width = 0;
  w.pixel_box_upper_corner_width = 2;
  EXPECT_EQ(PathOf(w, "im2col-store-corners"), "pixel_box_upper_corner_width");

  EXPECT_EQ(PathOf(WithSmemAddress(TiledF16(), 0x440), "smem-align-128"), "smem_address");
  EXPECT_EQ(PathOf(WithSmemAlignment(TiledF16(), 64), "smem-align-128"), "smem_alignment");
  EXPECT_EQ(PathOf(WithSmemAlignment(TiledF16(), 256), "smem-swizzle-phase"), "smem_alignment");

  s = TiledF16();
  s.channels_per_pixel = 64;
  s.set_fields |= kFieldChannelsPerPixel;
  EXPECT_EQ(PathOf(s, "unused-field"), "channels_per_pixel");
  i = Im2colF16();
  i.set_fields |= kFieldBoxDim;
  EXPECT_EQ(PathOf(i, "unused-field"), "box_dim");
}

// A path must name a field of the spec: the JSON keys of a spec (tensor_rank, tensor_data_type, global_dim,
// ...). An im2col map has no box_dim ([CUDA_H] cuTensorMapEncodeIm2col has no boxDim parameter; this table's
// own unused-field rule says "box_dim is ignored with mode im2col"): its copy size is pixels_per_column x
// channels_per_pixel, and the rule's fix text says "halve pixels_per_column".
TEST(FieldPath, SmemCapacityOfAnIm2colMapNamesAnIm2colField) {
  TensorMapSpec i = Im2colF16NoSwizzle();
  i.channels_per_pixel = 256;
  i.pixels_per_column = 1024;  // 256 x 1024 x 2 B = 512 KiB
  const std::string path = PathOf(i, "target-smem-capacity");
  EXPECT_TRUE(path == "pixels_per_column" || path == "channels_per_pixel") << path;
  // For a tiled map box_dim is right.
  EXPECT_EQ(PathOf(U8Box(228), "target-smem-capacity").substr(0, 7), "box_dim");
}

TEST(FieldPath, EveryRuleNamesASpecField) {
  static const std::set<std::string_view> kKeys = {
      "mode", "direction", "reduce_op", "tensor_data_type", "tensor_rank", "global_address", "global_dim",
      "global_strides", "box_dim", "element_strides", "interleave", "swizzle", "l2_promotion", "oob_fill",
      "pixel_box_lower_corner", "pixel_box_upper_corner", "pixel_box_lower_corner_width",
      "pixel_box_upper_corner_width", "channels_per_pixel", "pixels_per_column", "wide_mode", "target",
      "smem_address", "smem_alignment", "driver_version"};
  for (int i = 0; i < NumRules(); ++i) {
    const Rule& r = Rules()[i];
    if (r.id == "unused-field") continue;  // its path is the ignored field itself (tested above)
    const std::string_view root = r.field.substr(0, r.field.find('['));
    EXPECT_EQ(kKeys.count(root), 1u) << r.id << ": field '" << r.field << "'";
  }
}

// ============================== embedded defaults ==============================
// tensor_map_spec.h: "DefaultSpec(mode) is the embedded default of each mode: a realistic shape that validates
// cleanly"; the targets are those that run each mode ([SPEC] 2.4 target table).
TEST(DefaultSpecs, EachModeValidatesCleanlyOnATargetThatRunsIt) {
  const struct {
    Mode mode;
    Target target;
  } cases[] = {
      {Mode::kTiled, Target::kSm90a},        {Mode::kIm2col, Target::kSm90a},
      {Mode::kIm2colW, Target::kSm100a},     {Mode::kIm2colW128, Target::kSm100a},
      {Mode::kGather4, Target::kSm100a},     {Mode::kScatter4, Target::kSm100a},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(Name(c.mode)));
    const TensorMapSpec s = WithTarget(DefaultSpec(c.mode), c.target);
    const Validation v = ValidateSpec(s);
    EXPECT_EQ(s.mode, c.mode);
    EXPECT_TRUE(v.valid) << Dump(s, v);
    EXPECT_EQ(v.errors, 0) << Dump(s, v);
    EXPECT_EQ(v.warnings, 0) << Dump(s, v);
    const Validation any = ValidateSpec(DefaultSpec(c.mode));  // no target: valid for at least one
    EXPECT_TRUE(any.valid) << Dump(DefaultSpec(c.mode), any);
    EXPECT_NE(any.valid_targets & Bit(c.target), 0u) << TargetMask(any.valid_targets);
  }
  // The documented shapes (tensor_map_spec.h): tiled box [64, 128] f16 -> 16384 B; gather4 [64, 1] -> 512 B;
  // im2col 64 channels x 128 pixels -> 16384 B.
  EXPECT_EQ(ValidateSpec(DefaultSpec(Mode::kTiled)).facts.transaction_bytes, 16384u);
  EXPECT_EQ(ValidateSpec(DefaultSpec(Mode::kGather4)).facts.transaction_bytes, 512u);
  EXPECT_EQ(ValidateSpec(DefaultSpec(Mode::kIm2col)).facts.transaction_bytes, 16384u);
  EXPECT_EQ(DefaultSpec(Mode::kScatter4).direction, Direction::kStore);
}

// ============================== one violating spec per rule ==============================
// The same violations as the per-rule tests (each cites its document there), gathered so that one test can
// check at run time that every rule of the table fires on some spec, and that every finding renders.
struct Violation {
  std::string_view id;
  TensorMapSpec spec;
};
std::vector<Violation> OneViolationPerRule() {
  std::vector<Violation> v;
  auto add = [&v](std::string_view id, const TensorMapSpec& s) { v.push_back({id, s}); };
  TensorMapSpec s;
  s = TiledF16(); s.rank = 6; add("rank-range", s);
  s = Im2colF16(); s.rank = 2; add("im2col-rank", s);
  s = TiledF16(); s.interleave = Interleave::k16B; add("interleave-rank", s);
  s = Scatter4F16(); s.rank = 1; s.global_dim = {4096, 0, 0, 0, 0}; s.global_strides = {}; add("gather4-rank", s);
  s = TiledF16(); s.global_dim[1] = k2Pow32 + 1; add("global-dim-range", s);
  s = PackedU4Align8(); s.global_dim[0] = 4095; add("global-dim-packed", s);
  s = TiledF16Pitch1008(); s.global_strides[0] = 1000; add("global-stride-align-16", s);
  s = PackedU4Align16(); s.global_strides[0] = 2064; add("global-stride-align-32", s);
  s = TiledF16(); s.global_strides[0] = k2Pow40; add("global-stride-max", s);
  s = TiledF16(); s.global_strides[0] = 8176; add("global-stride-overlap", s);
  add("global-address-align-16", WithGlobalAddress(TiledF16(), 0x10008));
  add("global-address-align-32", WithGlobalAddress(Interleave32Rank3(), 0x10010));
  add("global-address-align-128-swizzle", WithGlobalAddress(TiledF16(), 0x10040));
  s = TiledF16(); s.box_dim[1] = 257; add("box-dim-range", s);
  s = TiledF16NoSwizzle(); s.box_dim[0] = 60; add("box-inner-bytes-16", s);
  s = PackedU4Align16(); s.box_dim[0] = 64; add("box-packed-128", s);
  s = TiledF16(); s.global_dim[1] = 100; add("box-exceeds-tensor", s);
  s = Gather4F16(); s.box_dim[1] = 2; add("gather4-box-rows", s);
  s = TiledF16(); s.element_strides[1] = 9; add("element-stride-range", s);
  s = TiledF16(); s.element_strides[0] = 3; add("element-stride-dim0", s);
  s = TiledF16(); s.swizzle = Swizzle::k64B; add("swizzle-inner-span", s);
  s = TiledF16(); s.box_dim[0] = 32; add("swizzle-inner-below-span", s);
  s = Interleave32Rank3(); s.swizzle = Swizzle::k128B; add("interleave-32b-swizzle", s);
  s = Gather4F16(); s.interleave = Interleave::k16B; add("interleave-mode", s);
  s = PackedU6Rank3(); s.interleave = Interleave::k16B; add("packed-u6-interleave", s);
  s = PackedU4Align16(); s.swizzle = Swizzle::k64B; add("packed-swizzle", s);
  s = PackedU4Align16(); s.direction = Direction::kStore; add("packed-direction", s);
  s = TiledF32(); s.data_type = DataType::kInt32; s.oob_fill = OobFill::kNanRequestZeroFma; add("oob-nan-float", s);
  s = Im2colRank4WideW(); s.pixel_box_lower_corner[0] = -129; add("im2col-lower-corner-range", s);
  s = Im2colRank4WideW(); s.pixel_box_upper_corner[0] = 128; add("im2col-upper-corner-range", s);
  s = Im2colSmall14(); s.pixel_box_lower_corner[0] = 5; s.pixel_box_upper_corner[0] = -20; add("im2col-box-area", s);
  s = Im2colF16(); s.channels_per_pixel = 0; add("im2col-channels-range", s);
  s = Im2colF16NoSwizzle(); s.channels_per_pixel = 60; add("im2col-channels-bytes-16", s);
  s = Im2colF16(); s.pixels_per_column = 1025; add("im2col-pixels-range", s);
  s = WideW(); s.pixel_box_lower_corner_width = -32769; add("wide-lower-corner-range", s);
  s = WideW(); s.pixel_box_upper_corner_width = 32768; add("wide-upper-corner-range", s);
  s = WideW(); s.pixel_box_lower_corner_width = 0; s.pixel_box_upper_corner_width = -56; add("wide-box-area", s);
  s = WideW(); s.swizzle = Swizzle::kNone; add("wide-swizzle", s);
  s = WideW(); s.wide_mode = Im2colWideMode::kW128; s.set_fields |= kFieldWideMode; add("wide-mode-mismatch", s);
  s = WideW128(); s.pixels_per_column = 64; s.set_fields |= kFieldPixelsPerColumn; add("wide-w128-pixels", s);
  s = Im2colF16(); s.direction = Direction::kStore; add("im2col-store-corners", s);
  s = Gather4F16(); s.direction = Direction::kStore; add("mode-direction", s);
  s = WithTarget(TiledF16(), Target::kSm100a); s.swizzle = Swizzle::k128BAtom32BFlip8B;
  s.direction = Direction::kStore; add("swizzle-flip8b-load-only", s);
  s = TiledF16(); s.direction = Direction::kReduce; s.reduce_op = ReduceOp::kInc; add("reduce-op-type", s);
  s = TiledF16NoSwizzle(); s.direction = Direction::kStore; s.data_type = DataType::kUint8; s.global_dim[0] = 466;
  s.global_strides[0] = 480; add("store-past-row-end", s);
  s = TiledF16(); s.swizzle = Swizzle::k128BAtom32B; add("target-swizzle-atomicity", s);
  add("target-sub-byte", WithTarget(PackedU4Align8(), Target::kSm90a));
  add("target-mode", WithTarget(Scatter4F16(), Target::kSm100));
  s = WithTarget(TiledF16(), Target::kSm120a); s.swizzle = Swizzle::k128BAtom32B;
  s.direction = Direction::kLoadCluster; add("target-sm120-cluster", s);
  add("target-smem-capacity", U8Box(228));
  s = U8Box(230); s.direction = Direction::kPrefetch; add("box-driver-size-limit", s);
  s = Im2colRank3(); s.interleave = Interleave::k16B; s.swizzle = Swizzle::kNone; s.channels_per_pixel = 8;
  s.global_dim = {1, 64, 64, 0, 0}; s.global_strides = {16, 1024, 0, 0};
  s.pixel_box_lower_corner = {1, 0, 0}; s.pixel_box_upper_corner = {-1, 0, 0}; add("im2col-interleave-box-area", s);
  s = Im2colRank3(); s.global_dim[1] = 2147483649ull; s.global_strides[1] = 128ull * 2147483649ull;
  add("im2col-spatial-dim-int32", s);
  add("smem-align-128", WithSmemAddress(TiledF16(), 0x440));
  add("smem-swizzle-phase", WithSmemAddress(TiledF16(), 0x480));
  s = TiledF16(); s.driver_version = 11080; add("driver-version", s);
  s = SmallTensor(64, 256); s.driver_version = 13010; add("driver-oob-address-bug", s);
  s = TiledF16(); s.set_fields |= kFieldChannelsPerPixel; add("unused-field", s);
  return v;
}

TEST(RulesTable, EveryRuleFiresOnSomeSpecAndEveryFindingRenders) {
  std::set<std::string_view> fired;
  for (const Violation& c : OneViolationPerRule()) {
    SCOPED_TRACE(std::string(c.id));
    const Validation v = ValidateSpec(c.spec);
    EXPECT_TRUE(HasRule(v, c.id)) << Dump(c.spec, v);
    EXPECT_EQ(v.valid, Rules()[FindRule(c.id)].severity != Severity::kError) << Dump(c.spec, v);
    for (const Finding& f : v.findings) {
      const Rule& r = Rules()[f.rule];
      fired.insert(r.id);
      EXPECT_FALSE(MessageText(r, c.spec, f).empty()) << r.id;
      EXPECT_FALSE(FixText(r, c.spec, f).empty()) << r.id;
      EXPECT_FALSE(FieldPath(r, c.spec, f).empty()) << r.id;
    }
  }
  for (int i = 0; i < NumRules(); ++i)
    EXPECT_EQ(fired.count(Rules()[i].id), 1u) << "no spec trips '" << Rules()[i].id << "'";
}

// derived_facts.h: "ComputeDerivedFacts() is total: it never fails and never divides by zero, whatever the spec
// holds"; validator.h: Validate() reports, it does not crash. Absurd specs are invalid and render.
TEST(RulesTable, AbsurdSpecsAreInvalidAndRender) {
  std::vector<TensorMapSpec> specs;
  specs.push_back(TensorMapSpec{});  // all zero
  TensorMapSpec s = TiledF16();
  s.rank = 200;
  specs.push_back(s);
  s = TiledF16();
  s.global_dim = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
  s.global_strides = {~0ull, ~0ull, ~0ull, ~0ull};
  s.box_dim = {~0u, ~0u, ~0u, ~0u, ~0u};
  s.element_strides = {0, 0, 0, 0, 0};
  s.rank = 5;
  specs.push_back(s);
  s = Im2colF16();
  s.pixel_box_lower_corner = {INT32_MIN, INT32_MAX, INT32_MIN};
  s.pixel_box_upper_corner = {INT32_MAX, INT32_MIN, INT32_MAX};
  s.channels_per_pixel = ~0u;
  s.pixels_per_column = ~0u;
  specs.push_back(s);
  s = WideW();
  s.pixel_box_lower_corner_width = INT32_MAX;
  s.pixel_box_upper_corner_width = INT32_MIN;
  s.global_dim[1] = ~0ull;
  specs.push_back(s);
  for (size_t k = 0; k < specs.size(); ++k) {
    SCOPED_TRACE("absurd spec " + std::to_string(k));
    for (TensorMapSpec t : {specs[k], WithoutTarget(specs[k])}) {
      const Validation v = ValidateSpec(t);
      EXPECT_FALSE(v.valid) << Dump(t, v);
      EXPECT_GE(v.errors, 1);
      EXPECT_FALSE(Dump(t, v).empty());
    }
  }
}

// validator.h: "It is allocation-free and thread-safe (one Validation per thread)". Two threads validating
// different specs at once get the same answers as one thread alone.
TEST(Validator, ThreadSafe) {
  const std::vector<Violation> corpus = OneViolationPerRule();
  std::vector<int> expect_errors;
  for (const Violation& c : corpus) expect_errors.push_back(ValidateSpec(c.spec).errors);
  std::atomic<int> mismatches{0};
  auto work = [&](size_t offset) {
    Validation v;
    for (int round = 0; round < 200; ++round) {
      for (size_t k = 0; k < corpus.size(); ++k) {
        const size_t j = (k + offset) % corpus.size();
        Validate(corpus[j].spec, &v);
        if (v.errors != expect_errors[j]) ++mismatches;
      }
    }
  };
  std::thread a(work, 0), b(work, corpus.size() / 2);
  a.join();
  b.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// ============================== the table ==============================
TEST(RulesTable, Coverage) {
  std::set<std::string_view> covered(std::begin(kCoveredRuleIds), std::end(kCoveredRuleIds));
  EXPECT_EQ(covered.size(), std::size(kCoveredRuleIds)) << "duplicate id in kCoveredRuleIds";
  for (int i = 0; i < NumRules(); ++i)
    EXPECT_EQ(covered.count(Rules()[i].id), 1u) << "rule '" << Rules()[i].id << "' has no test";
  for (std::string_view id : kCoveredRuleIds) EXPECT_GE(FindRule(id), 0) << "'" << id << "' is not in the table";
  EXPECT_EQ(static_cast<size_t>(NumRules()), covered.size());
}

// rule.h: ids are stable and unique; every rule has a statement and a source.
TEST(RulesTable, IdsUniqueAndSourced) {
  std::set<std::string_view> ids;
  for (int i = 0; i < NumRules(); ++i) {
    const Rule& r = Rules()[i];
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
    EXPECT_EQ(FindRule(r.id), i);
    EXPECT_FALSE(r.summary.empty()) << r.id;
    EXPECT_FALSE(r.source.empty()) << r.id;
    EXPECT_NE(r.check, nullptr) << r.id;
    EXPECT_NE(r.message, nullptr) << r.id;
    EXPECT_NE(r.fix, nullptr) << r.id;
    EXPECT_NE(r.modes & kAllModes, 0) << r.id;
  }
  EXPECT_EQ(FindRule("no-such-rule"), -1);
}

}  // namespace
}  // namespace tmapgen
