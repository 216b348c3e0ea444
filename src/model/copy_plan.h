// copy_plan.h: how the copy model lays one copy out before it moves a byte: the rows of the copy, their
// coordinates and offsets in shared memory, and the packing of elements in a row. Internal to src/model
// (copy_plan.cc builds it; model_load.cc and model_store.cc move the bytes by it).
#ifndef TMAPGEN_SRC_MODEL_COPY_PLAN_H_
#define TMAPGEN_SRC_MODEL_COPY_PLAN_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/model/copy_model.h"

namespace tmapgen::model::internal {

// One row of the copy: elements contiguous in shared memory (before the swizzle).
struct Row {
  std::array<int64_t, kMaxRank> coord{};  // accessed coordinates of the row's first element
  uint64_t linear_offset = 0;             // from the destination, before the swizzle
  uint32_t step0 = 1;                     // dimension-0 traversal stride
  uint32_t count = 0;                     // elements
  bool outer_oob = false;                 // a coordinate other than dimension 0 is out of bounds
  bool halo = false;
};

// How elements sit inside a row in shared memory.
enum class Packing : uint8_t {
  kPlain,    // element e at bit e * smem_bits
  kP64,      // 16U4_ALIGN16B load (.b4x16_p64): 16 nibbles, then 8 undefined bytes
  kP32,      // 16U6_ALIGN16B load (.b6x16_p32): 16 packed 6-bit values (12 B), then 4 undefined bytes
  kP2x16,    // 16U6_ALIGN16B store (.b6p2x16): one byte per element, data in the 6 low bits
};

struct Plan {
  const TensorMapSpec* spec = nullptr;
  CopyLayout layout;
  int rank = 0;
  bool load = true;
  bool stop_at_first_oob = false;  // stores with .im2col_no_offs
  Packing packing = Packing::kPlain;
  uint64_t smem_address = 0;
  std::vector<Row> rows;
};

inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }
inline uint64_t RoundUp(uint64_t a, uint64_t m) { return m == 0 ? a : CeilDiv(a, m) * m; }


// The element bits and bytes of a row: inline, since the load and store loops call them per element.
// Element bit offset inside a row (before the swizzle) and whether a byte of a row is undefined padding.
inline uint64_t ElementBit(Packing p, int smem_bits, uint32_t e) {
  switch (p) {
    case Packing::kPlain: return static_cast<uint64_t>(e) * static_cast<uint64_t>(smem_bits);
    case Packing::kP64: return static_cast<uint64_t>(e / 16) * 128 + (e % 16) * 4;
    case Packing::kP32: return static_cast<uint64_t>(e / 16) * 128 + (e % 16) * 6;
    case Packing::kP2x16: return static_cast<uint64_t>(e) * 8;
  }
  return 0;
}
// Bits of data an element has in shared memory (what is copied).
inline int ElementDataBits(Packing p, int smem_bits) {
  switch (p) {
    case Packing::kP64: return 4;
    case Packing::kP32: case Packing::kP2x16: return 6;
    default: return smem_bits;
  }
}

inline uint64_t GetBits(const uint8_t* p, uint64_t bit, int n) {
  if ((bit & 7) == 0 && (n & 7) == 0) {
    uint64_t v = 0;
    std::memcpy(&v, p + bit / 8, static_cast<size_t>(n / 8));  // little endian host
    return v;
  }
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>((p[(bit + i) >> 3] >> ((bit + i) & 7)) & 1u) << i;
  return v;
}
inline void PutBits(uint8_t* p, uint64_t bit, int n, uint64_t v);
// Copies n bits; whole bytes by memcpy (interleaved slices are 128 or 256 bits).
inline void CopyBits(uint8_t* dst, uint64_t dbit, const uint8_t* src, uint64_t sbit, int n) {
  if ((dbit & 7) == 0 && (sbit & 7) == 0 && (n & 7) == 0) {
    std::memcpy(dst + dbit / 8, src + sbit / 8, static_cast<size_t>(n / 8));
    return;
  }
  PutBits(dst, dbit, n, GetBits(src, sbit, n));
}
inline void PutBits(uint8_t* p, uint64_t bit, int n, uint64_t v) {
  if ((bit & 7) == 0 && (n & 7) == 0) {
    std::memcpy(p + bit / 8, &v, static_cast<size_t>(n / 8));
    return;
  }
  for (int i = 0; i < n; ++i) {
    const uint64_t b = bit + i;
    const uint8_t m = static_cast<uint8_t>(1u << (b & 7));
    if ((v >> i) & 1u) p[b >> 3] |= m; else p[b >> 3] &= static_cast<uint8_t>(~m);
  }
}

// Byte offset in global memory of the element at `coord` (dimension 0 in elements, as a bit offset).
inline uint64_t GlobalBit(const TensorMapSpec& s, int rank, const std::array<int64_t, kMaxRank>& coord, int gbits) {
  uint64_t byte = 0;
  for (int d = 1; d < rank; ++d) byte += static_cast<uint64_t>(coord[d]) * s.global_strides[d - 1];
  return byte * 8 + static_cast<uint64_t>(coord[0]) * static_cast<uint64_t>(gbits);
}

// The plan of one copy: checks spec + instruction (the spec must validate with the instruction's mode and
// direction) and places its rows. kInvalidArgument naming the problem; kUnimplemented for what the model
// does not cover (copy_model.h).
absl::Status BuildPlan(const TensorMapSpec& spec, const CopyInstruction& in, Plan* plan);

}  // namespace tmapgen::model::internal

#endif  // TMAPGEN_SRC_MODEL_COPY_PLAN_H_
