#include <algorithm>
#include <cstring>
#include <vector>

#include "src/model/copy_model.h"
#include "src/model/copy_plan.h"
#include "src/model/swizzle.h"
#include "src/util/strings.h"

namespace tmapgen::model {
namespace {

using internal::CeilDiv;
using internal::CopyBits;
using internal::ElementBit;
using internal::ElementDataBits;
using internal::GlobalBit;
using internal::Packing;
using internal::Plan;
using internal::PutBits;
using internal::Row;

absl::Status Invalid(const std::string& msg) { return absl::InvalidArgumentError(ToAbsl(msg)); }

// Fills `n` elements starting at element `e0` of a row buffer with the out-of-bounds pattern.
void FillElements(const Plan& p, uint8_t* buf, uint8_t* st, uint32_t e0, uint32_t n, const uint8_t* pat, int pat_bytes) {
  const int sbits = p.layout.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  if (p.packing == Packing::kPlain && pat_bytes > 0 && dbits == pat_bytes * 8) {
    // Whole-byte elements: the pattern repeated over the range.
    const size_t b0 = static_cast<size_t>(e0) * static_cast<size_t>(pat_bytes);
    const size_t nb = static_cast<size_t>(n) * static_cast<size_t>(pat_bytes);
    if (nb > 0) {
      std::memcpy(buf + b0, pat, static_cast<size_t>(pat_bytes));
      for (size_t done = static_cast<size_t>(pat_bytes); done < nb; done *= 2)
        std::memcpy(buf + b0 + done, buf + b0, std::min(done, nb - done));
    }
    std::memset(st + b0, kFill, nb);
    return;
  }
  for (uint32_t e = e0; e < e0 + n; ++e) {
    const uint64_t bit = ElementBit(p.packing, sbits, e);
    if (pat_bytes > 0 && (bit & 7) == 0 && dbits == pat_bytes * 8) {
      std::memcpy(buf + bit / 8, pat, static_cast<size_t>(pat_bytes));
    } else if (dbits > 64) {
      std::memset(buf + bit / 8, 0, static_cast<size_t>(dbits / 8));  // interleaved slices: zero fill only
    } else {
      PutBits(buf, bit, dbits, 0);
    }
    for (uint64_t b = bit / 8; b < CeilDiv(bit + dbits, 8); ++b) st[b] = kFill;
  }
}

void LoadRow(const Plan& p, const Row& row, const uint8_t* global, uint8_t* buf, uint8_t* st, const uint8_t* pat,
             int pat_bytes) {
  const TensorMapSpec& s = *p.spec;
  const CopyLayout& L = p.layout;
  const int gbits = L.global_element_bits;
  const int sbits = L.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  std::memset(buf, 0, L.row_bytes);
  std::memset(st, kUntouched, L.row_bytes);
  if (p.packing == Packing::kP64 || p.packing == Packing::kP32) {
    // The gap after every 16 packed elements is written with undefined contents.
    const uint32_t data = p.packing == Packing::kP64 ? 8 : 12;
    for (uint32_t g = 0; g < L.row_bytes; g += 16)
      for (uint32_t b = data; b < 16; ++b) st[g + b] = kPadding;
  }
  if (row.outer_oob) {
    FillElements(p, buf, st, 0, row.count, pat, pat_bytes);
    return;
  }
  const int64_t dim0 = static_cast<int64_t>(s.global_dim[0]);
  const int64_t c0 = row.coord[0];
  // Elements [lo, hi) are inside the tensor along dimension 0.
  int64_t lo = 0, hi = row.count;
  if (row.step0 == 1) {
    lo = std::clamp<int64_t>(-c0, 0, row.count);
    hi = std::clamp<int64_t>(dim0 - c0, lo, row.count);
  }
  if (row.step0 == 1 && p.packing == Packing::kPlain && gbits == sbits && (gbits & 7) == 0) {
    if (lo > 0) FillElements(p, buf, st, 0, static_cast<uint32_t>(lo), pat, pat_bytes);
    if (hi < row.count) FillElements(p, buf, st, static_cast<uint32_t>(hi), static_cast<uint32_t>(row.count - hi), pat, pat_bytes);
    if (hi > lo) {
      std::array<int64_t, kMaxRank> c = row.coord;
      c[0] = c0 + lo;
      const uint64_t gbyte = GlobalBit(s, p.rank, c, gbits) / 8;
      const size_t eb = static_cast<size_t>(gbits / 8);
      std::memcpy(buf + lo * eb, global + gbyte, static_cast<size_t>(hi - lo) * eb);
      std::memset(st + lo * eb, kData, static_cast<size_t>(hi - lo) * eb);
    }
    return;
  }
  // General path: strided dimension 0, sub-byte and packed types, element by element.
  std::array<int64_t, kMaxRank> c = row.coord;
  const uint64_t row_gbit = GlobalBit(s, p.rank, [&] { auto z = row.coord; z[0] = 0; return z; }(), gbits);
  for (uint32_t e = 0; e < row.count; ++e) {
    c[0] = c0 + static_cast<int64_t>(e) * row.step0;
    if (c[0] < 0 || c[0] >= dim0) {
      FillElements(p, buf, st, e, 1, pat, pat_bytes);
      continue;
    }
    const uint64_t gbit = row_gbit + static_cast<uint64_t>(c[0]) * static_cast<uint64_t>(gbits);
    const uint64_t sbit = ElementBit(p.packing, sbits, e);
    CopyBits(buf, sbit, global, gbit, dbits);
    for (uint64_t b = sbit / 8; b < CeilDiv(sbit + dbits, 8); ++b) st[b] = kData;
  }
}

// Measured on an H200 (docs/model.md M5): loads of TFLOAT32 and TFLOAT32_FTZ round every element to tf32
// (round to nearest even at bit 13, low 13 bits cleared; NaN becomes 0x7fffe000; no flush of denormals).
void RoundTf32(uint8_t* buf, const uint8_t* st, uint32_t n) {
  for (uint32_t i = 0; i + 4 <= n; i += 4) {
    if (st[i] != kData) continue;
    uint32_t v;
    std::memcpy(&v, buf + i, 4);
    if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x007fffffu) != 0) v = 0x7fffe000u;
    else v = (v + 0xfffu + ((v >> 13) & 1u)) & ~0x1fffu;
    std::memcpy(buf + i, &v, 4);
  }
}

// Copies `n` row bytes (a multiple of 8) between a row buffer and the image through the swizzle.
void ScatterRow(Swizzle sw, uint64_t dst, uint64_t row_off, const uint8_t* buf, const uint8_t* st, uint32_t n,
                uint8_t* img, uint8_t* img_st) {
  for (uint32_t k = 0; k < n; k += 8) {
    const uint64_t a = dst + row_off + k;
    const uint64_t off = SwizzleAddress(sw, a) - dst;
    const uint32_t len = std::min<uint32_t>(8, n - k);
    std::memcpy(img + off, buf + k, len);
    std::memcpy(img_st + off, st + k, len);
  }
}

}  // namespace

absl::Status ModelLoad(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* global,
                       size_t global_size, SmemImage* out) {
  Plan p;
  if (absl::Status st = internal::BuildPlan(spec, instr, &p); !st.ok()) return st;
  if (!p.load) return Invalid(StrCat("ModelLoad needs a load; direction is ", Name(instr.direction)));
  if (global_size < p.layout.required_global_bytes)
    return Invalid(StrCat("the global buffer has ", global_size, " bytes; the tensor spans ", p.layout.required_global_bytes));
  const CopyLayout& L = p.layout;
  out->address = instr.smem_address;
  out->transaction_bytes = L.transaction_bytes;
  out->bytes.assign(L.footprint_bytes, 0);
  out->state.assign(L.footprint_bytes, kUntouched);
  uint8_t pat[8];
  const int pat_bytes = OobFillBytes(spec.data_type, spec.oob_fill, pat);
  std::vector<uint8_t> buf(L.row_bytes + 8), st(L.row_bytes + 8);
  const bool tf32 = spec.data_type == DataType::kTfloat32 || spec.data_type == DataType::kTfloat32Ftz;
  for (const Row& row : p.rows) {
    LoadRow(p, row, global, buf.data(), st.data(), pat, pat_bytes);
    if (tf32) RoundTf32(buf.data(), st.data(), L.row_bytes);
    ScatterRow(spec.swizzle, instr.smem_address, row.linear_offset, buf.data(), st.data(), L.row_bytes,
               out->bytes.data(), out->state.data());
  }
  return absl::OkStatus();
}
}  // namespace tmapgen::model
