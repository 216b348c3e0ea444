// driver_version.cc: messages, fixes, patches and field paths of the rules about the driver version: what each
//   version encodes, and a known driver bug (driver_version.h).
#include "src/tmap/rules/driver_version.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- driver version ----
void MsgDriverVersion(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.limit == 12000) return TextAppend(&o, "driver_version = ", f.value, ": tensor maps need a CUDA 12.0 driver or later");
  const std::string_view what = IsWideMode(s.mode) ? std::string_view("cuTensorMapEncodeIm2colWide")
                                : IsSubByte(s.data_type) ? FullName(s.data_type) : FullName(s.swizzle);
  return TextAppend(&o, "driver_version = ", f.value, ": ", what, " needs a CUDA 12.8 driver (r570) or later");
}
void FixDriverVersion(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "install a driver that reports at least ", f.limit, " (cuDriverGetVersion)");
}
namespace {
// The bytes from the tensor's first to its last byte: the row plus (extent - 1) strides along each dimension.
uint64_t SpanBytes(const TensorMapSpec& s) {
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
bool DenseNonOverlapping(const TensorMapSpec& s) {
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
}  // namespace
void CheckDriverOobBugLayout(const CheckContext& c, uint16_t r, FindingList* o) {
  const uint64_t span = SpanBytes(c.spec);
  if (span < 131072 && !DenseNonOverlapping(c.spec))
    o->Add(r, -1, static_cast<int64_t>(span), 131072, c.target);
}
void MsgDriverOobBug(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "driver ", s.driver_version, ": on Blackwell, NVIDIA lists a driver bug for tensors that are not "
             "dense and non-overlapping and whose allocation is under 128 KiB (this one spans ", f.value,
             " B and is not dense): copies can fault now and then (illegal address, XID 13); NVIDIA names no driver "
             "that fixes it (release notes 595.71.05 and 595.91.07, CUDA 13.2 drivers, known issues)");
}
void FixDriverOobBug(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "after encoding, clear bit 21 of word 1 of the map (bit 85), NVIDIA's work-around; CUTLASS, CCCL "
         "and Triton do it only for drivers before 13.2 (a 13.2 or 13.3 forward-compatibility driver was reported still "
         "affected: triton-lang/triton#11011); or lay the tensor out densely, or back it with at least 128 KiB");
}

}  // namespace tmapgen::rules
