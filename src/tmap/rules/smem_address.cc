// smem_address.cc: messages, fixes, patches and field paths of the rules about the shared-memory destination:
//   alignment and swizzle phase (smem_address.h).
#include "src/tmap/rules/smem_address.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- shared memory ----
void MsgSmemAlign128(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.index == 0)
    return TextAppend(&o, "smem_address = ", Hex(s.smem_address), " is not 128-byte aligned: tensor copies need a 128-byte "
               "aligned shared-memory address (misaligned-address fault or wrong data)");
  return TextAppend(&o, "smem_alignment = ", s.smem_alignment, ": tensor copies need a 128-byte aligned shared-memory address");
}
void FixSmemAlign128(const TensorMapSpec& s, const Finding&, TextOut& o) {
  const uint32_t a = SwizzleRepeatBytes(s.swizzle) > 128 ? static_cast<uint32_t>(SwizzleRepeatBytes(s.swizzle)) : 128u;
  return TextAppend(&o, "declare the buffer alignas(", a, ") (", a == 128 ? "the hardware minimum" : "the swizzle repeat",
             "), or round the dynamic shared-memory offset up to a multiple of ", a);
}
void MsgSmemSwizzlePhase(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  if (f.index == 0)
    return TextAppend(&o, "smem_address = ", Hex(s.smem_address), " is ", f.value, " B past a ", f.limit, " B boundary: ",
               SW(s.swizzle), " repeats every ", f.limit, " B, so the data lands with swizzle base offset ",
               (s.smem_address / 128) % (static_cast<uint64_t>(f.limit) / 128),
               " and every reader (ldmatrix, wgmma/tcgen05 descriptors) must apply the same offset");
  return TextAppend(&o, "smem_alignment = ", f.value, " B is less than the ", f.limit, " B swizzle repeat of ", SW(s.swizzle),
             ": the swizzle phase depends on where the buffer lands, and readers must compute the base offset");
}
void FixSmemSwizzlePhase(const TensorMapSpec&, const Finding& f, TextOut& o) {
  return TextAppend(&o, "align the destination to ", f.limit, " bytes (alignas(", f.limit, ")) so the base offset is 0");
}

// ---- field paths that depend on the spec ----
std::string_view FieldOfSmem(const TensorMapSpec&, const Finding& f) {
  return f.index == 1 ? "smem_alignment" : "smem_address";
}

}  // namespace tmapgen::rules
