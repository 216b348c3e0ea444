// random_spec.cc: see random_spec.h.
#include "src/specgen/random_spec.h"

#include <algorithm>

#include "src/specgen/spec_bounds.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"
#include "src/util/strings.h"

namespace tmapgen::specgen {

namespace {

uint64_t RandomDim(Rng& r, int i, DataType dt) {
  if (i == 0 && IsAlign16BPacked(dt) && r.Chance(60)) return 128 * r.Range(1, 64);
  if (i == 0 && dt == DataType::k16U4Align8B && r.Chance(60)) return 2 * r.Range(1, 2048);
  const uint64_t k = r.Below(100);
  if (k < 2) return 0;
  if (k < 10) return 1;
  if (k < 20) return r.Range(2, 16);
  if (k < 50) return r.Range(1, 512);
  if (k < 60) return uint64_t{1} << r.Below(33);
  if (k < 72) return 128 * r.Range(1, 64);
  if (k < 78) {
    const uint64_t v[] = {k2Pow32 - 1, k2Pow32, k2Pow32 + 1, k2Pow32 - 128, k2Pow32 + 128};
    return r.Pick(v);
  }
  if (k < 82) return r.Range(1, static_cast<int64_t>(k2Pow32));
  return r.Range(1, 65536);
}

uint64_t VaryStride(Rng& r, uint64_t dense, uint64_t align) {
  const uint64_t k = r.Below(100);
  if (k < 66) return dense;
  if (k < 74) return dense + 16 * r.Range(1, 8);
  if (k < 77) return dense >= 16 ? dense - 16 : 0;
  if (k < 80) return 0;
  if (k < 85) return dense + static_cast<uint64_t>(r.Range(1, 15));
  if (k < 90) {
    const uint64_t v[] = {k2Pow40 - 32, k2Pow40 - 16, k2Pow40, k2Pow40 + 16, k2Pow40 + 32};
    return r.Pick(v);
  }
  if (k < 94) return static_cast<uint64_t>(r.Range(1, static_cast<int64_t>(k2Pow40 / 16))) * 16;
  if (k < 97) return (2 * static_cast<uint64_t>(r.Range(0, 4096)) + 1) * 16;  // multiple of 16, not of 32
  return RoundUp(dense, align * 2);
}

uint32_t RandomInner(Rng& r, int bits, Swizzle sw) {
  // An element count whose byte size sits around a multiple of 16 or the swizzle span.
  const uint64_t span = static_cast<uint64_t>(SwizzleSpanBytes(sw));
  uint64_t bytes;
  const uint64_t k = r.Below(100);
  if (k < 40) bytes = 16 * static_cast<uint64_t>(r.Range(1, 16));
  else if (k < 60 && span != 0) bytes = span;
  else if (k < 70 && span != 0) bytes = span + 16;
  else if (k < 78 && span != 0) bytes = span >= 32 ? span - 16 : span;
  else if (k < 90) bytes = 16 * static_cast<uint64_t>(r.Range(0, 16)) + 8;
  else bytes = static_cast<uint64_t>(r.Range(1, 512));
  uint64_t n = bytes * 8 / static_cast<uint64_t>(bits);
  const uint64_t j = r.Below(10);
  if (j == 0) n += 1;
  if (j == 1 && n > 0) n -= 1;
  return static_cast<uint32_t>(std::min<uint64_t>(n, 300));
}

int32_t RandomCorner(Rng& r, uint32_t rank) {
  const int32_t lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  const uint64_t k = r.Below(100);
  if (k < 30) return 0;
  if (k < 45) return r.Chance(50) ? -1 : 1;
  if (k < 70) return static_cast<int32_t>(r.Range(-lim, lim - 1));
  if (k < 90) {
    const int32_t v[] = {-lim, -lim - 1, lim - 1, lim};
    return r.Pick(v);
  }
  return static_cast<int32_t>(r.Range(-40000, 40000));
}

int32_t RandomWideCorner(Rng& r) {
  const uint64_t k = r.Below(100);
  if (k < 25) return 0;
  if (k < 40) return r.Chance(50) ? -1 : 1;
  if (k < 55) return static_cast<int32_t>(r.Range(-16, 16));
  if (k < 75) {
    const int32_t v[] = {-32768, -32769, 32767, 32768, -16384, 16383, -16385, 16384};
    return r.Pick(v);
  }
  if (k < 90) return static_cast<int32_t>(r.Range(-32768, 32767));
  return static_cast<int32_t>(r.Range(-70000, 70000));
}

}  // namespace

TensorMapSpec RandomSpec(Rng& r) {
  TensorMapSpec s;
  const uint64_t mk = r.Below(100);
  s.mode = mk < 34 ? Mode::kTiled : mk < 58 ? Mode::kIm2col : mk < 70 ? Mode::kIm2colW
         : mk < 82 ? Mode::kIm2colW128 : mk < 91 ? Mode::kGather4 : Mode::kScatter4;
  s.target = kRandomSpecTarget;
  s.set_fields = kFieldTarget;
  s.direction = r.Chance(8) ? static_cast<Direction>(r.Below(kNumDirections)) : NaturalDirection(s.mode);
  s.reduce_op = static_cast<ReduceOp>(r.Below(kNumReduceOps));
  s.data_type = static_cast<DataType>(r.Below(kNumDataTypes));
  const int bits = DataTypeBits(s.data_type);

  if (r.Chance(6)) {
    s.rank = static_cast<uint32_t>(r.Below(7));
  } else if (IsIm2colMode(s.mode)) {
    s.rank = static_cast<uint32_t>(r.Range(3, 5));
  } else if (IsGatherScatter(s.mode)) {
    s.rank = r.Chance(90) ? 2 : static_cast<uint32_t>(r.Range(1, 5));
  } else {
    s.rank = static_cast<uint32_t>(r.Range(1, 5));
  }
  const uint32_t n = std::min<uint32_t>(s.rank, kMaxRank);

  const bool plain = IsWideMode(s.mode) || IsGatherScatter(s.mode);
  const uint64_t ik = r.Below(100);
  s.interleave = ik < (plain ? 86u : 70u) ? Interleave::kNone : ik < (plain ? 93u : 85u) ? Interleave::k16B : Interleave::k32B;

  if (IsWideMode(s.mode) && r.Chance(70)) {
    const Swizzle w[] = {Swizzle::k64B, Swizzle::k128B, Swizzle::k128BAtom32B};
    s.swizzle = r.Pick(w);
  } else {
    const uint64_t k = r.Below(100);
    s.swizzle = k < 30 ? Swizzle::kNone : k < 45 ? Swizzle::k32B : k < 60 ? Swizzle::k64B : k < 85 ? Swizzle::k128B
              : static_cast<Swizzle>(r.Range(4, 6));
  }
  s.l2_promotion = static_cast<L2Promotion>(r.Below(kNumL2Promotions));
  s.oob_fill = r.Chance(20) ? OobFill::kNanRequestZeroFma : OobFill::kNone;

  for (uint32_t i = 0; i < n; ++i) s.global_dim[i] = RandomDim(r, static_cast<int>(i), s.data_type);

  const uint64_t align = (s.interleave == Interleave::k32B || IsAlign16BPacked(s.data_type)) ? 32 : 16;
  uint64_t dense = RoundUp(RowBytes(s), r.Chance(85) ? align : 16);
  for (uint32_t i = 0; i + 1 < n; ++i) {
    s.global_strides[i] = VaryStride(r, dense, align);
    dense = SatMul(s.global_strides[i], s.global_dim[i + 1]);
    if (r.Chance(80)) dense = RoundUp(dense, align);
  }

  if (!IsIm2colMode(s.mode)) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t k = r.Below(100);
      uint32_t b;
      if (i == 0 && k < 45) b = RandomInner(r, bits, s.swizzle);
      else if (k < 47) b = 0;
      else if (k < 60) b = 1;
      else if (k < 68) { const uint32_t v[] = {255, 256, 257}; b = r.Pick(v); }
      else if (k < 90) b = static_cast<uint32_t>(r.Range(1, 256));
      else b = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(s.global_dim[i], 1), 256));
      s.box_dim[i] = b;
    }
    if (IsAlign16BPacked(s.data_type) && r.Chance(60)) s.box_dim[0] = 128;
    if (IsGatherScatter(s.mode) && r.Chance(85)) s.box_dim[1] = 1;
  }

  if (!r.Chance(55)) {
    for (uint32_t i = 0; i < n; ++i) s.element_strides[i] = r.Chance(50) ? 1 : static_cast<uint32_t>(r.Range(0, 9));
  }

  if (IsIm2colMode(s.mode)) {
    const uint64_t k = r.Below(100);
    if (IsAlign16BPacked(s.data_type) && r.Chance(50)) s.channels_per_pixel = 128;
    else if (k < 3) s.channels_per_pixel = 0;
    else if (k < 23) s.channels_per_pixel = static_cast<uint32_t>(r.Range(1, 257));
    else if (k < 53) s.channels_per_pixel = 8 * static_cast<uint32_t>(r.Range(1, 32));
    else if (k < 88) s.channels_per_pixel = RandomInner(r, bits, s.swizzle);
    else { const uint32_t v[] = {128, 256, 257, 1, 2, 4}; s.channels_per_pixel = r.Pick(v); }
    const uint64_t p = r.Below(100);
    if (p < 4) s.pixels_per_column = 0;
    else if (p < 12) s.pixels_per_column = 1;
    else if (p < 20) s.pixels_per_column = r.Chance(50) ? 1024 : 1025;
    else if (p < 50) s.pixels_per_column = 128;
    else s.pixels_per_column = static_cast<uint32_t>(r.Range(1, 1100));
    if (s.mode == Mode::kIm2col) {
      const uint32_t cr = (s.rank >= 3 && s.rank <= 5) ? s.rank : static_cast<uint32_t>(r.Range(3, 5));
      for (int i = 0; i < 3; ++i) {
        s.pixel_box_lower_corner[i] = RandomCorner(r, cr);
        s.pixel_box_upper_corner[i] = RandomCorner(r, cr);
      }
    } else {
      s.pixel_box_lower_corner_width = RandomWideCorner(r);
      s.pixel_box_upper_corner_width = RandomWideCorner(r);
      s.wide_mode = NaturalWideMode(s.mode);
      if (r.Chance(4)) {
        s.wide_mode = s.wide_mode == Im2colWideMode::kW ? Im2colWideMode::kW128 : Im2colWideMode::kW;
        s.set_fields |= kFieldWideMode;
      }
    }
  }

  if (r.Chance(40)) {
    s.set_fields |= kFieldGlobalAddress;
    if (r.Chance(5)) {
      s.global_address = 0;
    } else {
      const uint64_t aligns[] = {8, 16, 32, 64, 128, 256, 4, 1};
      const uint64_t a = aligns[r.Below(r.Chance(85) ? 6 : 8)];
      s.global_address = (2 * static_cast<uint64_t>(r.Range(1, 1 << 20)) + 1) * a;  // exactly a-aligned
    }
  }
  return s;
}

// A near-valid spec: the wild spec repaired with the validator's own automatic patches (NearestValid), which
// stop exactly at the rules' limits, then sometimes pushed across one boundary. gather4/scatter4 are repaired
// as the tiled map the driver sees, im2col::w as for sm_100a (where the mode exists); the target is then set
// back to sm_90a.
void PerturbOne(Rng& r, TensorMapSpec* s) {
  const uint32_t n = std::max<uint32_t>(1, std::min<uint32_t>(s->rank, kMaxRank));
  const uint32_t i = static_cast<uint32_t>(r.Below(n));
  const int bits = DataTypeBits(s->data_type);
  const uint32_t step = static_cast<uint32_t>(std::max(1, 128 / std::max(1, bits)));  // elements per 16 B
  switch (r.Below(16)) {
    case 0: s->box_dim[0] += r.Chance(50) ? 1 : step; break;
    case 1: if (s->box_dim[0] > 1) s->box_dim[0] -= 1; break;
    case 2: if (i + 1 < n) s->global_strides[i] += r.Chance(50) ? 16 : 8; break;
    case 3: if (i + 1 < n) s->global_strides[i] = s->global_strides[i] >= 16 ? s->global_strides[i] - 16 : 0; break;
    case 4: s->global_dim[i] = r.Chance(50) ? k2Pow32 : k2Pow32 + 1; break;
    case 5: s->element_strides[i] = static_cast<uint32_t>(r.Range(0, 9)); break;
    case 6: s->swizzle = static_cast<Swizzle>(r.Below(4)); break;
    case 7: s->interleave = static_cast<Interleave>(r.Below(kNumInterleaves)); break;
    case 8:
      s->set_fields |= kFieldGlobalAddress;
      s->global_address = (2 * static_cast<uint64_t>(r.Range(1, 1 << 20)) + 1) * (r.Chance(50) ? 8 : 16);
      break;
    case 9: s->channels_per_pixel += r.Chance(50) ? step : 1; break;
    case 10: s->pixels_per_column = r.Chance(50) ? 1025 : 1024; break;
    case 11: {
      const int32_t lim = s->rank == 3 ? 32768 : s->rank == 4 ? 128 : 16;
      (r.Chance(50) ? s->pixel_box_lower_corner : s->pixel_box_upper_corner)[r.Below(3)] =
          r.Chance(50) ? -lim : lim - 1;
      break;
    }
    case 12: {
      const int32_t v[] = {-32768, 32767, -16384, 16383, 16384, -16385};
      (r.Chance(50) ? s->pixel_box_lower_corner_width : s->pixel_box_upper_corner_width) = r.Pick(v);
      break;
    }
    case 13: s->box_dim[i] = r.Chance(50) ? 256 : 257; break;
    case 14: s->oob_fill = OobFill::kNanRequestZeroFma; break;
    default: s->data_type = static_cast<DataType>(r.Below(kNumDataTypes)); break;
  }
}

TensorMapSpec Tame(Rng& r, const TensorMapSpec& wild) {
  TensorMapSpec t = wild;
  if (IsGatherScatter(t.mode)) { t.mode = Mode::kTiled; t.direction = Direction::kLoadCta; }
  if (IsWideMode(t.mode)) t.target = Target::kSm100a;
  if (IsSubByte(t.data_type) && r.Chance(70)) t.data_type = static_cast<DataType>(r.Below(13));
  if (IsAtomicitySwizzle(t.swizzle) && r.Chance(70)) t.swizzle = Swizzle::k128B;
  TensorMapSpec u;
  NearestValid(t, &u);
  u.mode = wild.mode;
  u.direction = wild.direction;
  u.target = kRandomSpecTarget;
  if (r.Chance(40)) PerturbOne(r, &u);
  return u;
}


}  // namespace tmapgen::specgen
