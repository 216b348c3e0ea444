// driver_version.h: the rules about the driver version: what each version encodes, and a known driver bug.
//
// Contract (src/tmap/rule.h)
// - The checks are defined here, inline, so that the table in src/tmap/rules.cc calls them directly and
//   the compiler can inline them; they only append Findings (no allocation, no text).
// - The messages, fixes, patches and field paths are declared here and defined in driver_version.cc; they run
//   only
//   when a report is rendered or a spec is repaired.
#ifndef TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_
#define TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/rule.h"
#include "src/tmap/rules/common.h"

namespace tmapgen::rules {

// ---- driver version ----
inline bool NeedsDriver12080(const TensorMapSpec& s) {
  return IsSubByte(s.data_type) || IsAtomicitySwizzle(s.swizzle) || IsWideMode(s.mode);
}
inline void CheckDriverVersion(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint32_t v = c.spec.driver_version;
  if (v == 0) return;
  if (v < 12000) o->Add(r, -1, v, 12000);
  else if (v < 12080 && NeedsDriver12080(c.spec)) o->Add(r, -1, v, 12080);
}
void MsgDriverVersion(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixDriverVersion(const TensorMapSpec&, const Finding& f, TextOut& o);
// The Blackwell tensor-map bug of NVIDIA's driver release notes (595.71.05 and 595.91.07, known issues):
// "Applications using cuTensorMapEncodeTiled() or cuTensorMapEncodeIm2col*() on Blackwell GPUs may encounter
// sporadic illegal memory accesses (IMA) or MMU faults (like XID 13) due to driver incorrectly configuring TMA
// descriptors when the tensor's backing memory allocation is less than 128KB and it is not a dense
// non-overlapping tensor" (work-around: clear bit 85 of the map). So a dense, non-overlapping tensor is not
// affected, every encoder is (im2col::w included), and no driver version is known to fix it: those release
// notes are of CUDA 13.2 drivers (r595, cuDriverGetVersion 13020), and CUDA 13.2/13.3 forward-compatibility
// drivers were reported still affected (triton-lang/triton#11011), although CUTLASS, CCCL and Triton stop
// clearing the bit at 13.2. The allocation is unknown here; the bytes the tensor spans are a lower bound of it.
namespace internal_oob_bug {
// The bytes from the tensor's first to its last byte: the row plus (extent - 1) strides along each dimension.
inline uint64_t SpanBytes(const TensorMapSpec& s) {
  uint64_t span = RowBytes(s);
  for (uint32_t i = 1; i < Rank(s); ++i) {
    const uint64_t d = s.global_dim[i];
    uint64_t step;
    if (d > 1 && (__builtin_mul_overflow(d - 1, s.global_strides[i - 1], &step) ||
                  __builtin_add_overflow(span, step, &span)))
      return UINT64_MAX;
  }
  return span;
}
// Dense and non-overlapping: the dimensions of extent > 1, by stride, each start where the ones below end
// (their strides are the row bytes times the extents below, in some order of the dimensions): no padding, no
// byte reached twice. Extent-1 dimensions move nothing, whatever their stride.
inline bool DenseNonOverlapping(const TensorMapSpec& s) {
  uint64_t stride[kMaxRank], size[kMaxRank];
  int n = 0;
  for (uint32_t i = 1; i < Rank(s); ++i) {
    if (s.global_dim[i] <= 1) continue;
    int j = n++;
    while (j > 0 && stride[j - 1] > s.global_strides[i - 1]) { stride[j] = stride[j - 1]; size[j] = size[j - 1]; --j; }
    stride[j] = s.global_strides[i - 1];
    size[j] = s.global_dim[i];
  }
  uint64_t expected = RowBytes(s);
  for (int j = 0; j < n; ++j) {
    if (stride[j] != expected || __builtin_mul_overflow(expected, size[j], &expected)) return false;
  }
  return true;
}
}  // namespace internal_oob_bug
inline void CheckDriverOobBug(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.driver_version == 0 || Info(c.target).cc < 100) return;
  const uint64_t span = internal_oob_bug::SpanBytes(c.spec);
  if (span < 131072 && !internal_oob_bug::DenseNonOverlapping(c.spec))
    o->Add(r, -1, static_cast<int64_t>(span), 131072, c.target);
}
void MsgDriverOobBug(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixDriverOobBug(const TensorMapSpec&, const Finding&, TextOut& o);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_
