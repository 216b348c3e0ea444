#include "src/tmap/validator.h"

#include "src/tmap/fast_path.h"
#include "src/tmap/rules/per_target.h"

namespace tmapgen {
namespace {

// ------------------------------------------------------------------------------------------- fast path
// See src/tmap/fast_path.h: one test per mode that proves that no rule of the table fires for the spec and its
// target, and the derived facts computed for that scope alone (interleave NONE, no sub-byte type, no reduction,
// element strides 1). The conditions are combined with & (not &&) so that the common case runs straight
// through, one loop over the dimensions; tests/tmap/fast_path_test.cc compares the outcome with the table's on
// large corpora.

// Per swizzle: span, repeat, atomicity, the recommended destination alignment, whether it is a 128B_ATOM_*.
struct SwizzleFacts {
  uint32_t span, repeat, atomicity, need;
  bool atomicity_swizzle;
};
constexpr SwizzleFacts SwizzleFactsOf(Swizzle w) {
  const uint32_t rep = static_cast<uint32_t>(SwizzleRepeatBytes(w));
  return {static_cast<uint32_t>(SwizzleSpanBytes(w)), rep, static_cast<uint32_t>(SwizzleAtomicityBytes(w)),
          rep > kSmemMinAlignment ? rep : kSmemMinAlignment, IsAtomicitySwizzle(w)};
}
constexpr SwizzleFacts kSwizzleFacts[kNumSwizzles] = {
    SwizzleFactsOf(Swizzle::kNone),         SwizzleFactsOf(Swizzle::k32B),
    SwizzleFactsOf(Swizzle::k64B),          SwizzleFactsOf(Swizzle::k128B),
    SwizzleFactsOf(Swizzle::k128BAtom32B),  SwizzleFactsOf(Swizzle::k128BAtom32BFlip8B),
    SwizzleFactsOf(Swizzle::k128BAtom64B)};

// Per data type below the sub-byte ones (0-12): log2 of the element size in bytes, whether it is a float type.
struct TypeFacts {
  uint8_t log2_bytes;
  bool is_float;
};
constexpr TypeFacts TypeFactsOf(DataType t) {
  const int bits = DataTypeBits(t);
  return {static_cast<uint8_t>(bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3), IsFloat(t)};
}
constexpr TypeFacts kTypeFacts[13] = {
    TypeFactsOf(DataType::kUint8),    TypeFactsOf(DataType::kUint16),     TypeFactsOf(DataType::kUint32),
    TypeFactsOf(DataType::kInt32),    TypeFactsOf(DataType::kUint64),     TypeFactsOf(DataType::kInt64),
    TypeFactsOf(DataType::kFloat16),  TypeFactsOf(DataType::kFloat32),    TypeFactsOf(DataType::kFloat64),
    TypeFactsOf(DataType::kBfloat16), TypeFactsOf(DataType::kFloat32Ftz), TypeFactsOf(DataType::kTfloat32),
    TypeFactsOf(DataType::kTfloat32Ftz)};
static_assert(kTypeFacts[6].log2_bytes == 1 && kTypeFacts[4].log2_bytes == 3 && kTypeFacts[0].log2_bytes == 0);

// The im2col corner range of ranks 3, 4 and 5: [-limit, limit - 1].
constexpr int64_t kCornerLimit[kMaxRank + 1] = {0, 0, 0, 32768, 128, 16};

// Fields that each mode ignores (the unused-field note), reduce_op included: the scope has no reduction.
constexpr uint32_t IgnoredFields(Mode m) {
  uint32_t ignored = kFieldReduceOp;
  if (IsIm2colMode(m)) ignored |= kFieldBoxDim;
  if (!IsIm2colMode(m)) ignored |= kFieldChannelsPerPixel | kFieldPixelsPerColumn;
  if (m != Mode::kIm2col) ignored |= kFieldLowerCorner | kFieldUpperCorner;
  if (!IsWideMode(m)) ignored |= kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode;
  return ignored;
}

constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
constexpr uint64_t k2Pow40 = uint64_t{1} << 40;
constexpr int64_t kInt32Max = 2147483647;

// kHasTarget: the spec names its target (the common case, compiled without the no-target loop), or names
// none (every target's per-target rules).
template <Mode M, bool kHasTarget>
bool FastFor(const TensorMapSpec& s, Validation* v) {
  constexpr bool kIm2col = IsIm2colMode(M), kWide = IsWideMode(M), kGS = IsGatherScatter(M);
  const uint32_t rank = s.rank;
  const uint8_t dt = static_cast<uint8_t>(s.data_type);
  const uint8_t sw = static_cast<uint8_t>(s.swizzle);
  const uint8_t tg = static_cast<uint8_t>(s.target);
  const Direction dir = s.direction;
  // Scope, and what the tables below are indexed with.
  bool ok = (s.interleave == Interleave::kNone) & (dt < 13) & (sw < kNumSwizzles) & ((tg < kNumTargets) | !kHasTarget) &
            ((dir != Direction::kReduce) & (static_cast<uint8_t>(dir) < kNumDirections));
  if constexpr (kGS) ok &= rank == 2;
  else if constexpr (kIm2col) ok &= rank - 3 < 3;
  else ok &= rank - 1 < 5;
  if (!ok) return false;

  const TypeFacts ty = kTypeFacts[dt];
  const SwizzleFacts sf = kSwizzleFacts[sw];
  const unsigned lb = ty.log2_bytes;  // element size 1 << lb bytes
  const bool prefetch = dir == Direction::kPrefetch;
  const uint32_t set = s.set_fields;

  // Dimension 0, then the others: element strides 1, global dims 1..2^32, box 1..256 and within the tensor,
  // strides multiples of 16 below 2^40, and no overlap: each dimension (all of size > 1) starts at or past the
  // end of the ones before it.
  const uint64_t d0 = s.global_dim[0];
  ok &= (s.element_strides[0] == 1) & (d0 - 1 < k2Pow32);
  const uint64_t row = d0 << lb;
  uint64_t elements = 1;
  if constexpr (!kIm2col) {
    const uint32_t b = s.box_dim[0];
    ok &= (b - 1 < 256) & (b <= d0);
    elements = b;
  }
  uint64_t end = row;
  for (uint32_t i = 1; i < rank; ++i) {
    const uint64_t d = s.global_dim[i], st = s.global_strides[i - 1];
    ok &= (s.element_strides[i] == 1) & (d - 1 < k2Pow32) & (d > 1) & ((st & 15) == 0) & (st < k2Pow40) &
          (st >= end);
    if (i + 1 < rank) {  // the end is compared with the next stride only
      const unsigned __int128 e = static_cast<unsigned __int128>(st) * (d - 1) + end;  // saturated below
      end = (e >> 64) != 0 ? UINT64_MAX : static_cast<uint64_t>(e);
    }
    if constexpr (!kIm2col) {
      const uint32_t b = s.box_dim[i];
      ok &= (b - 1 < 256) & (b <= d);
      elements *= b;  // at most 256^5
    }
  }

  if (!ok) return false;  // most rejected specs stop here, before the rest of the fast path costs them anything

  // The box along dimension 0 and the swizzle span; what one copy moves.
  uint64_t inner;
  if constexpr (kIm2col) {
    const uint32_t ch = s.channels_per_pixel, px = s.pixels_per_column;
    inner = static_cast<uint64_t>(ch) << lb;
    ok &= (ch - 1 < 256) & ((inner & 15) == 0) & (px - 1 < 1024);
    elements = static_cast<uint64_t>(M == Mode::kIm2colW128 ? 128 : px) * ch;
  } else {
    inner = static_cast<uint64_t>(s.box_dim[0]) << lb;
    ok &= (inner & 15) == 0;
    if constexpr (kGS) {
      ok &= s.box_dim[1] == 1;
      elements = 4ull * s.box_dim[0];
    }
  }
  ok &= (sw == 0) | (inner == sf.span);
  if (!ok) return false;
  ok &= (s.oob_fill == OobFill::kNone) | ty.is_float;
  ok &= (set & IgnoredFields(M)) == 0;
  ok &= (s.swizzle != Swizzle::k128BAtom32BFlip8B) | (dir != Direction::kStore);
  ok &= (dir != Direction::kStore) | ((row & 15) == 0);  // store-past-row-end
  if constexpr (M == Mode::kGather4 || M == Mode::kIm2colW128) ok &= dir != Direction::kStore;
  if constexpr (M == Mode::kScatter4) ok &= dir == Direction::kStore;

  // im2col corners; the wide modes' width corners, swizzle and wide_mode.
  if constexpr (M == Mode::kIm2col) {
    const int64_t lim = kCornerLimit[rank];
    const uint64_t range = static_cast<uint64_t>(2 * lim);
    for (uint32_t i = 0; i + 2 < rank; ++i) {
      const int64_t lo = s.pixel_box_lower_corner[i], up = s.pixel_box_upper_corner[i];
      const int64_t d = static_cast<int64_t>(s.global_dim[i + 1]);
      ok &= (static_cast<uint64_t>(lo + lim) < range) & (static_cast<uint64_t>(up + lim) < range) &
            (d + up - lo >= 1) & (d + up <= kInt32Max);
    }
    if (dir == Direction::kStore)
      for (uint32_t i = 0; i + 2 < rank; ++i)
        ok &= (s.pixel_box_lower_corner[i] >= 0) & (s.pixel_box_upper_corner[i] <= 0);
  }
  if constexpr (kWide) {
    const int64_t lim = kCornerLimit[rank];
    const uint64_t range = static_cast<uint64_t>(2 * lim);
    const int64_t lo = s.pixel_box_lower_corner_width, up = s.pixel_box_upper_corner_width;
    ok &= (static_cast<uint64_t>(lo + lim) < range) & (static_cast<uint64_t>(up + lim) < range);
    ok &= static_cast<int64_t>(s.global_dim[1]) + up - lo >= 1;
    ok &= static_cast<int64_t>(s.global_dim[1]) + up <= kInt32Max;  // W carries the width corner
    for (uint32_t i = 2; i + 1 < rank; ++i) ok &= s.global_dim[i] <= static_cast<uint64_t>(kInt32Max);  // H, D: 0
    ok &= (s.swizzle == Swizzle::k64B) | (s.swizzle == Swizzle::k128B) | (s.swizzle == Swizzle::k128BAtom32B);
    ok &= ((set & kFieldWideMode) == 0) |
          (s.wide_mode == (M == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW));
    if constexpr (M == Mode::kIm2colW128) ok &= ((set & kFieldPixelsPerColumn) == 0) | (s.pixels_per_column == 128);
    if constexpr (M == Mode::kIm2colW) ok &= (dir != Direction::kStore) | ((lo >= 0) & (up <= 0));
  }


  // What the per-target rules read.
  const uint64_t granule = sf.span > 16 ? sf.span : 16;
  const uint64_t smem_bytes = elements << lb;
  const uint64_t footprint = prefetch ? 0 : (smem_bytes + granule - 1) & ~(granule - 1);
  uint64_t extent = row;
  if (rank >= 2 && __builtin_mul_overflow(s.global_strides[rank - 2], s.global_dim[rank - 1], &extent))
    extent = UINT64_MAX;
  const uint64_t driver_box =
      (kIm2col ? static_cast<uint64_t>(s.channels_per_pixel) * s.pixels_per_column : elements) << lb;

  // The per-target errors for one target: whether none of them fires (the per-target warning,
  // driver-oob-address-bug, needs a driver version: below, with the other rules that read it).
  const uint32_t ver = s.driver_version;
  auto target_ok = [&](Target t) {
    const TargetInfo& info = Info(t);
    const uint64_t cap = static_cast<uint64_t>(info.max_smem_per_block);
    bool pass = (!sf.atomicity_swizzle) | (info.cc >= 100);
    if constexpr (M != Mode::kTiled && M != Mode::kIm2col) pass &= rules::TargetRunsMode(t, M, dir);
    pass &= !((info.cc >= 120) & (dir == Direction::kLoadCluster) & sf.atomicity_swizzle);
    pass &= (footprint <= cap) & (driver_box <= cap + 1024);
    return pass;
  };
  // With a target, that target must pass. Without one, the table runs the per-target rules for every target:
  // valid_targets are those where none fires (an error each: the warning is ruled out by asking for no driver
  // version), the reported target the first of them (the first with the fewest errors), and its findings are
  // the report's: none. Every target failing is the table's case (its findings are the report's).
  uint32_t valid_mask;
  if constexpr (kHasTarget) {
    ok &= target_ok(s.target);
    valid_mask = 1u << tg;
  } else {
    ok &= ver == 0;
    valid_mask = 0;
    for (int t = 0; t < kNumTargets; ++t) valid_mask |= static_cast<uint32_t>(target_ok(static_cast<Target>(t))) << t;
    ok &= valid_mask != 0;
  }
  // What most specs leave out: the global address, the shared-memory destination (on the swizzle repeat, for
  // both smem rules), the driver version (what it encodes).
  const uint32_t need = sf.need;
  if (((set & (kFieldGlobalAddress | kFieldSmemAddress | kFieldSmemAlignment)) | ver) != 0) {
    ok &= ((set & kFieldGlobalAddress) == 0) | ((s.global_address & (sw == 0 ? 15 : 127)) == 0);
    ok &= prefetch | ((((set & kFieldSmemAddress) == 0) | ((s.smem_address & (need - 1)) == 0)) &
                      (((set & kFieldSmemAlignment) == 0) | (s.smem_alignment >= need)));
    ok &= (ver == 0) | ((ver >= 12000) & ((ver >= 12080) | ((!sf.atomicity_swizzle) & !kWide)));
    // driver-oob-address-bug (per target; without a target ver is 0 here). The tensor spans at least one row
    // plus (extent - 1) outermost strides; below 128 KiB the table decides (dense or not).
    if constexpr (kHasTarget) {
      if (ver != 0) {
        const uint64_t outer = rank >= 2 ? s.global_strides[rank - 2] : 0;
        const uint64_t span_low = extent == UINT64_MAX ? extent : extent >= outer ? extent - outer + row : 0;
        ok &= (Info(s.target).cc < 100) | (span_low >= 131072);
      }
    }
  }
  if (!ok) return false;

  DerivedFacts& f = v->facts;
  f.encoder = EncoderFor(M);
  f.element_bits = 8 << lb;
  f.smem_element_bits = 8 << lb;
  f.inner_box_bytes = inner;
  f.elements_per_copy = elements;
  f.bytes_per_copy = smem_bytes;
  f.transaction_bytes = IsLoad(dir) ? smem_bytes : 0;
  const bool halo = kWide && dir != Direction::kStore;  // loads and prefetches take wHalo; stores do not
  f.halo_adds_bytes = halo;
  f.bytes_per_halo_pixel = halo ? static_cast<uint64_t>(s.channels_per_pixel) << lb : 0;
  f.smem_footprint_bytes = footprint;
  f.smem_row_pitch = inner;
  f.coord0_multiple = 16u >> lb;  // 16 bytes of elements
  f.smem_alignment_required = kSmemMinAlignment;
  f.smem_alignment_recommended = need;
  f.swizzle_span = sf.span;
  f.swizzle_repeat = sf.repeat;
  f.swizzle_atomicity = sf.atomicity;
  f.swizzle_base_offset = (set & kFieldSmemAddress) == 0 ? -1
                          : sf.repeat == 0               ? 0
                                                         : static_cast<int>((s.smem_address >> 7) & ((sf.repeat >> 7) - 1));
  f.global_extent_bytes = extent;
  f.valid_targets = valid_mask;
  v->findings.Clear();
  v->valid = true;
  v->valid_targets = valid_mask;
  v->reported_target = kHasTarget ? s.target : static_cast<Target>(__builtin_ctz(valid_mask));
  v->failed_targets = kHasTarget ? 0 : ((1u << kNumTargets) - 1) & ~valid_mask;
  v->errors = v->warnings = v->notes = 0;
  return true;
}


SeverityCounts RunPerTarget(const TensorMapSpec& spec, const DerivedFacts& facts, Target t, FindingList* out) {
  const CheckContext ctx{spec, facts, t};
  return RunRules(ctx, /*per_target=*/true, out);
}

template <bool kHasTarget>
bool FastForMode(const TensorMapSpec& spec, Validation* v) {
  switch (spec.mode) {
    case Mode::kTiled: return FastFor<Mode::kTiled, kHasTarget>(spec, v);
    case Mode::kIm2col: return FastFor<Mode::kIm2col, kHasTarget>(spec, v);
    case Mode::kIm2colW: return FastFor<Mode::kIm2colW, kHasTarget>(spec, v);
    case Mode::kIm2colW128: return FastFor<Mode::kIm2colW128, kHasTarget>(spec, v);
    case Mode::kGather4: return FastFor<Mode::kGather4, kHasTarget>(spec, v);
    case Mode::kScatter4: return FastFor<Mode::kScatter4, kHasTarget>(spec, v);
  }
  return false;
}

}  // namespace

bool ValidateFastPath(const TensorMapSpec& spec, Validation* v) {
  return spec.has_target() ? FastForMode<true>(spec, v) : FastForMode<false>(spec, v);
}

void Validate(const TensorMapSpec& spec, Validation* v) {
  if (ValidateFastPath(spec, v)) return;
  ValidateByTable(spec, v);
}

void ValidateByTable(const TensorMapSpec& spec, Validation* v) {
  ComputeDerivedFacts(spec, &v->facts);
  v->findings.Clear();
  v->failed_targets = 0;
  const CheckContext ctx{spec, v->facts, spec.target};
  const SeverityCounts independent = RunRules(ctx, /*per_target=*/false, &v->findings);

  // The counts come from the runs whose findings land in v->findings: the independent rules, and the
  // per-target rules of the reported target.
  SeverityCounts reported;
  uint32_t valid_targets = 0;
  if (spec.has_target()) {
    reported = RunPerTarget(spec, v->facts, spec.target, &v->findings);
    v->reported_target = spec.target;
    if (reported.errors == 0 && independent.errors == 0) valid_targets = 1u << static_cast<int>(spec.target);
  } else {
    FindingList scratch;
    int best = -1, best_errors = 1 << 30;
    uint32_t failed = 0;
    int errors_of[kNumTargets];
    for (int t = 0; t < kNumTargets; ++t) {
      // Targets of one class get one verdict (rules/per_target.h, PerTargetClassKey): counted once.
      const int first = rules::kPerTargetClasses.first[t];
      if (first == t) {
        scratch.Clear();
        errors_of[t] = RunPerTarget(spec, v->facts, static_cast<Target>(t), &scratch).errors;
      } else {
        errors_of[t] = errors_of[first];
      }
      const int e = errors_of[t];
      if (e == 0) valid_targets |= 1u << t;
      else failed |= 1u << t;
      if (e < best_errors) { best_errors = e; best = t; }
    }
    v->failed_targets = failed;
    v->reported_target = static_cast<Target>(best);
    reported = RunPerTarget(spec, v->facts, v->reported_target, &v->findings);
    if (independent.errors != 0) valid_targets = 0;
  }
  v->valid_targets = valid_targets;
  v->facts.valid_targets = valid_targets;
  v->valid = valid_targets != 0;
  v->errors = independent.errors + reported.errors;
  v->warnings = independent.warnings + reported.warnings;
  v->notes = independent.notes + reported.notes;
}

bool FailedTargetFinding(const TensorMapSpec& spec, const DerivedFacts& facts, Target target, Finding* out) {
  FindingList list;
  RunPerTarget(spec, facts, target, &list);
  const Rule* rules = Rules();
  for (const Finding& f : list) {
    if (rules[f.rule].severity == Severity::kError) {
      *out = f;
      return true;
    }
  }
  return false;
}

bool MinTarget(uint32_t mask, Target* out) {
  for (int t = 0; t < kNumTargets; ++t) {
    if (mask & (1u << t)) {
      *out = static_cast<Target>(t);
      return true;
    }
  }
  return false;
}

bool LowestValidTarget(const TensorMapSpec& spec, uint32_t valid_targets, Target* out) {
  if (!spec.has_target()) return MinTarget(valid_targets, out);
  TensorMapSpec any = spec;
  any.set_fields &= ~static_cast<uint32_t>(kFieldTarget);
  Validation all;
  Validate(any, &all);
  return MinTarget(all.valid_targets, out);
}

namespace {
// Applies the patches of v's error findings to *out; false when none changed it.
bool Patch(const Validation& v, TensorMapSpec* out) {
  const Rule* rules = Rules();
  bool changed = false;
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    if (r.severity == Severity::kError && r.patch != nullptr && r.patch(f, out)) changed = true;
  }
  return changed;
}
}  // namespace

bool NearestValid(const TensorMapSpec& spec, const Validation& first, TensorMapSpec* out, int max_rounds) {
  *out = spec;
  if (max_rounds <= 0) return first.valid;
  if (first.valid) return true;
  if (!Patch(first, out)) return false;
  Validation v;
  for (int round = 1; round < max_rounds; ++round) {
    Validate(*out, &v);
    if (v.valid) return true;
    if (!Patch(v, out)) return false;
  }
  Validate(*out, &v);
  return v.valid;
}

bool NearestValid(const TensorMapSpec& spec, TensorMapSpec* out, int max_rounds) {
  Validation v;
  Validate(spec, &v);
  return NearestValid(spec, v, out, max_rounds);
}

}  // namespace tmapgen
