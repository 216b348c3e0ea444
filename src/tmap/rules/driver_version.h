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
// The span and the density are computed out of line (driver_version.cc): only with a driver version and a
// Blackwell target.
void CheckDriverOobBugLayout(const CheckContext& c, uint16_t r, FindingList* o);
inline void CheckDriverOobBug(const CheckContext& c, uint16_t r, FindingList* o) {
  if (c.spec.driver_version == 0 || Info(c.target).cc < 100) return;
  CheckDriverOobBugLayout(c, r, o);
}
void MsgDriverOobBug(const TensorMapSpec& s, const Finding& f, TextOut& o);
void FixDriverOobBug(const TensorMapSpec&, const Finding&, TextOut& o);

}  // namespace tmapgen::rules

#endif  // TMAPGEN_SRC_TMAP_RULES_DRIVER_VERSION_H_
