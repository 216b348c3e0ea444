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
void MsgDriverOobBug(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  return TextAppend(&o, "driver ", s.driver_version, " has a known tensor-map bug on Blackwell for tensors whose memory spans less "
             "than 128 KiB (this one spans ", f.value, " B): copies can fail now and then (CUTLASS CHANGELOG "
             "4.3.4; CCCL nvbug 5736804)");
}
void FixDriverOobBug(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "after encoding, clear bit 21 of word 1 of the map (bit 85) when the tensor is not dense, as CUTLASS and "
         "CCCL do, or use a driver of 13.2 or later");
}

}  // namespace tmapgen::rules
