#include "src/tmap/derived_facts.h"

namespace tmapgen {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }
// m is a power of two (16, 32, 64 or 128).
uint64_t RoundUpPow2(uint64_t a, uint64_t m) { return a > UINT64_MAX - (m - 1) ? UINT64_MAX : (a + m - 1) & ~(m - 1); }

// Saturating multiply so absurd inputs cannot wrap around into plausible numbers.
uint64_t SatMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace

DerivedFacts ComputeDerivedFacts(const TensorMapSpec& s) {
  DerivedFacts f;
  ComputeDerivedFacts(s, &f);
  return f;
}

void ComputeDerivedFacts(const TensorMapSpec& s, DerivedFacts* out) {
  DerivedFacts& f = *out;
  // Every field is set on every path (the validator reuses *out from spec to spec).
  f.inner_box_bytes = 0;
  f.elements_per_copy = 0;
  f.halo_adds_bytes = false;
  f.bytes_per_halo_pixel = 0;
  f.swizzle_base_offset = -1;
  f.global_extent_bytes = 0;
  f.smem_alignment_required = kSmemMinAlignment;
  f.valid_targets = 0;
  f.encoder = EncoderFor(s.mode);
  f.element_bits = DataTypeBits(s.data_type);
  f.smem_element_bits = DataTypeSmemBits(s.data_type);
  f.swizzle_span = static_cast<uint32_t>(SwizzleSpanBytes(s.swizzle));
  f.swizzle_repeat = static_cast<uint32_t>(SwizzleRepeatBytes(s.swizzle));
  f.swizzle_atomicity = static_cast<uint32_t>(SwizzleAtomicityBytes(s.swizzle));
  f.smem_alignment_recommended = f.swizzle_repeat > kSmemMinAlignment ? f.swizzle_repeat : kSmemMinAlignment;
  const uint32_t rank = s.rank > kMaxRank ? kMaxRank : s.rank;
  const uint64_t sbits = static_cast<uint64_t>(f.smem_element_bits);

  if (IsIm2colMode(s.mode)) {
    f.inner_box_bytes = CeilDiv(SatMul(s.channels_per_pixel, sbits), 8);
    const uint64_t pixels = s.mode == Mode::kIm2colW128 ? 128 : s.pixels_per_column;
    f.elements_per_copy = SatMul(pixels, s.channels_per_pixel);
    f.halo_adds_bytes = IsWideMode(s.mode) && !IsStoreLike(s.direction);  // set with the transaction bytes
  } else {
    f.inner_box_bytes = CeilDiv(SatMul(s.box_dim[0], sbits), 8);
    if (IsGatherScatter(s.mode)) {
      f.elements_per_copy = SatMul(4, s.box_dim[0]);
    } else if (s.interleave != Interleave::kNone && rank >= 3 && sbits > 0) {
      // Measured on an H200 (docs/model.md M6): an interleaved map counts dimension 0 in 16- or 32-byte
      // slices whatever the type, and a copy moves one position along dimension rank-2 (box_dim[rank-2]
      // is not used). Rows follow each other without padding.
      const uint64_t slice = s.interleave == Interleave::k32B ? 32 : 16;
      uint64_t slices = 1;
      for (uint32_t i = 0; i < rank; ++i) {
        if (i == rank - 2) continue;
        const uint64_t stride = s.element_strides[i];
        slices = SatMul(slices, stride <= 1 ? s.box_dim[i] : CeilDiv(s.box_dim[i], stride));
      }
      const uint64_t es0 = s.element_strides[0];
      f.inner_box_bytes = SatMul(es0 <= 1 ? s.box_dim[0] : CeilDiv(s.box_dim[0], es0), slice);
      f.elements_per_copy = SatMul(slices, slice * 8 / sbits);
    } else {
      uint64_t n = 1;
      for (uint32_t i = 0; i < rank; ++i) {
        const uint64_t stride = (i == 0 && s.interleave == Interleave::kNone) ? 1 : s.element_strides[i];
        n = SatMul(n, stride <= 1 ? s.box_dim[i] : CeilDiv(s.box_dim[i], stride));
      }
      f.elements_per_copy = rank == 0 ? 0 : n;
    }
  }
  // The mbarrier counts the tensor data in its global (packed) size: 4 or 6 bits per element for the
  // ALIGN16B types, whose shared-memory image is 1 byte per element (CUTLASS's block-scaled collectives
  // count sizeof_bits of the 4/6-bit type, DeepGEMM arms SMEM_B_SIZE_PER_STAGE / 2; docs/hardware.md).
  const uint64_t gbits = static_cast<uint64_t>(f.element_bits);
  f.bytes_per_copy = CeilDiv(SatMul(f.elements_per_copy, gbits), 8);
  f.transaction_bytes = IsLoad(s.direction) ? f.bytes_per_copy : 0;
  if (f.halo_adds_bytes) f.bytes_per_halo_pixel = CeilDiv(SatMul(s.channels_per_pixel, gbits), 8);
  const uint64_t smem_bytes = CeilDiv(SatMul(f.elements_per_copy, sbits), 8);  // the image in shared memory
  const uint64_t granule = f.swizzle_span > 16 ? f.swizzle_span : 16;
  const uint64_t inner = f.inner_box_bytes;
  if (s.swizzle != Swizzle::kNone && s.interleave == Interleave::kNone && inner > 0 && inner < f.swizzle_span) {
    f.smem_row_pitch = f.swizzle_span;
    f.smem_footprint_bytes = SatMul(CeilDiv(smem_bytes, inner), f.swizzle_span);
  } else {
    f.smem_row_pitch = inner;
    f.smem_footprint_bytes = RoundUpPow2(smem_bytes, granule);
  }
  if (s.direction == Direction::kPrefetch) f.smem_footprint_bytes = 0;
  if (s.interleave != Interleave::kNone && !IsIm2colMode(s.mode)) {
    f.coord0_multiple = 1;  // coords[0] counts whole slices (M6)
  } else if (IsAlign16BPacked(s.data_type)) {
    f.coord0_multiple = 128;
  } else {
    const uint32_t bits = static_cast<uint32_t>(f.element_bits);  // 4, 8, 16, 32 or 64 here: a shift
    f.coord0_multiple = bits >= 128 ? 1 : (bits & (bits - 1)) == 0 ? 128u >> __builtin_ctz(bits) : 128 / bits;
  }

  if (s.Has(kFieldSmemAddress) && f.swizzle_repeat != 0) {
    f.swizzle_base_offset = static_cast<int>((s.smem_address / 128) % (f.swizzle_repeat / 128));
  } else if (s.Has(kFieldSmemAddress)) {
    f.swizzle_base_offset = 0;
  }

  if (rank >= 2) {
    f.global_extent_bytes = SatMul(s.global_strides[rank - 2], s.global_dim[rank - 1]);
  } else if (rank == 1) {
    f.global_extent_bytes = RowBytes(s);
  }
}

}  // namespace tmapgen
