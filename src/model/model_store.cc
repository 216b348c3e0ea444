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
using internal::Row;

absl::Status Invalid(const std::string& msg) { return absl::InvalidArgumentError(ToAbsl(msg)); }

void GatherRow(Swizzle sw, uint64_t src, uint64_t row_off, const uint8_t* smem, uint32_t n, uint8_t* buf) {
  for (uint32_t k = 0; k < n; k += 8) {
    const uint64_t a = src + row_off + k;
    const uint64_t off = SwizzleAddress(sw, a) - src;
    std::memcpy(buf + k, smem + off, std::min<uint32_t>(8, n - k));
  }
}

}  // namespace

absl::Status ModelStore(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* smem, size_t smem_size,
                        uint8_t* global, size_t global_size, std::vector<uint8_t>* written_mask, StoreResult* result) {
  Plan p;
  if (absl::Status st = internal::BuildPlan(spec, instr, &p); !st.ok()) return st;
  if (p.load) return Invalid(StrCat("ModelStore needs a store or reduction; direction is ", Name(instr.direction)));
  const CopyLayout& L = p.layout;
  if (global_size < L.required_global_bytes)
    return Invalid(StrCat("the global buffer has ", global_size, " bytes; the tensor spans ", L.required_global_bytes));
  if (smem_size < L.footprint_bytes)
    return Invalid(StrCat("the shared-memory source has ", smem_size, " bytes; the copy reads ", L.footprint_bytes));
  if (written_mask != nullptr) written_mask->assign(global_size, 0);
  StoreResult res;
  res.transaction_bytes = L.transaction_bytes;
  const int gbits = L.global_element_bits;
  const int sbits = L.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  const bool reduce = instr.direction == Direction::kReduce;
  std::vector<uint8_t> buf(L.row_bytes + 8);
  bool stopped = false;
  // Measured on an H200 (docs/model.md M7): along dimension 0 a store or reduction writes every element of
  // the 16-byte chunk that holds the tensor's last element, so the bound is global_dim[0] rounded up to 16 bytes.
  const int64_t store_dim0 = static_cast<int64_t>(
      CeilDiv(spec.global_dim[0] * static_cast<uint64_t>(gbits), 128) * 128 / static_cast<uint64_t>(gbits));
  for (const Row& row : p.rows) {
    if (p.stop_at_first_oob && row.outer_oob) stopped = true;  // reading R9
    if (stopped || row.outer_oob) {
      res.elements_skipped += row.count;
      continue;
    }
    GatherRow(spec.swizzle, instr.smem_address, row.linear_offset, smem, L.row_bytes, buf.data());
    std::array<int64_t, kMaxRank> c = row.coord;
    c[0] = 0;
    const uint64_t row_gbit = GlobalBit(spec, p.rank, c, gbits);
    if (!reduce && row.step0 == 1 && p.packing == Packing::kPlain && (gbits & 7) == 0 && gbits == sbits) {
      // Fast path: one contiguous range of whole-byte elements.
      const int64_t lo = std::clamp<int64_t>(-row.coord[0], 0, row.count);
      const int64_t hi = std::clamp<int64_t>(store_dim0 - row.coord[0], lo, row.count);
      const size_t eb = static_cast<size_t>(gbits / 8);
      if (hi > lo) {
        const uint64_t b0 = row_gbit / 8 + static_cast<uint64_t>(row.coord[0] + lo) * eb;
        const size_t nb = static_cast<size_t>(hi - lo) * eb;
        std::memcpy(global + b0, buf.data() + static_cast<size_t>(lo) * eb, nb);
        if (written_mask != nullptr) std::memset(written_mask->data() + b0, 1, nb);
        res.bytes_written += nb;
        res.elements_written += static_cast<uint32_t>(hi - lo);
      }
      res.elements_skipped += static_cast<uint32_t>(row.count - (hi - lo));
      continue;
    }
    for (uint32_t e = 0; e < row.count; ++e) {
      const int64_t x0 = row.coord[0] + static_cast<int64_t>(e) * row.step0;
      if (x0 < 0 || x0 >= store_dim0) {
        ++res.elements_skipped;
        continue;
      }
      const uint64_t gbit = row_gbit + static_cast<uint64_t>(x0) * static_cast<uint64_t>(gbits);
      const uint64_t sbit = ElementBit(p.packing, sbits, e);
      if (reduce) {
        if ((gbit & 7) != 0 || (sbit & 7) != 0 || (gbits & 7) != 0)
          return absl::UnimplementedError("reductions of sub-byte types are not supported");
        if (!ReduceElement(spec.data_type, instr.reduce_op, global + gbit / 8, buf.data() + sbit / 8))
          return Invalid(StrCat("cp.reduce.async.bulk.tensor .", Name(instr.reduce_op), " does not support ",
                                 PtxElemType(spec.data_type)));
      } else {
        CopyBits(global, gbit, buf.data(), sbit, dbits);
      }
      ++res.elements_written;
      const uint64_t b0 = gbit / 8, b1 = CeilDiv(gbit + gbits, 8);
      res.bytes_written += b1 - b0;
      if (written_mask != nullptr)
        for (uint64_t b = b0; b < b1; ++b) (*written_mask)[b] = 1;
    }
  }
  if (result != nullptr) *result = res;
  return absl::OkStatus();
}

}  // namespace tmapgen::model
