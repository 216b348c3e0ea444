// strides_address.cc: messages, fixes, patches and field paths of the rules about global strides and the
//   global address (strides_address.h).
#include "src/tmap/rules/strides_address.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- global strides ----
namespace {
std::string Why32(const TensorMapSpec& s) {
  return s.interleave == Interleave::k32B ? std::string("with CU_TENSOR_MAP_INTERLEAVE_32B")
                                          : StrCat("with ", FullName(s.data_type));
}
}  // namespace
std::string MsgStrideAlign16(const TensorMapSpec&, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not a multiple of 16 bytes");
}
std::string FixStrideAlign16(const TensorMapSpec& s, const Finding& f) {
  const uint64_t m = NeedsStride32(s) ? 32 : 16;
  return StrCat("pad global_strides[", f.index, "] from ", f.value, " to ",
             RoundUpTo(static_cast<uint64_t>(f.value), m), " bytes");
}
bool PatchStrideAlign(const Finding& f, TensorMapSpec* s) {
  const uint64_t m = NeedsStride32(*s) ? 32 : 16;
  s->global_strides[f.index] = RoundUpTo(static_cast<uint64_t>(f.value), m);
  return true;
}
std::string MsgStrideAlign32(const TensorMapSpec& s, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not a multiple of 32 bytes, required ", Why32(s));
}
std::string FixStrideAlign32(const TensorMapSpec&, const Finding& f) {
  return StrCat("pad global_strides[", f.index, "] from ", f.value, " to ", RoundUpTo(static_cast<uint64_t>(f.value), 32),
             " bytes");
}
std::string MsgStrideMax(const TensorMapSpec&, const Finding& f) {
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is not below 2^40 = 1099511627776 bytes");
}
std::string FixStrideMax(const TensorMapSpec&, const Finding& f) {
  return StrCat("strides must stay below 2^40 B: map the tensor in pieces, each with its own global_address, "
             "so that dimension ", f.index + 1, " spans less than 1 TiB per step");
}
std::string MsgStrideOverlap(const TensorMapSpec& s, const Finding& f) {
  std::string what = f.index == 0 ? StrCat("one row of global_dim[0] = ", s.global_dim[0], " ", DT(s), " elements")
                                  : StrCat("global_strides[", f.index - 1, "] x global_dim[", f.index, "]");
  std::string effect = IsStoreLike(s.direction)
                           ? "stores and reductions write the same bytes more than once"
                           : "loads read overlapping rows (a broadcast when the stride is 0)";
  return StrCat("global_strides[", f.index, "] = ", f.value, " B is smaller than ", what, " = ", f.limit,
             " B: dimensions overlap, so ", effect, "; the driver accepts this (", kMeasured, ")");
}
std::string FixStrideOverlap(const TensorMapSpec&, const Finding& f) {
  return StrCat("use global_strides[", f.index, "] >= ", RoundUpTo(static_cast<uint64_t>(f.limit), 16),
             " bytes unless the overlap is intended");
}

// ---- global address ----
std::string MsgAddrAlign16(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 16-byte aligned");
}
std::string FixAddrAlign(const TensorMapSpec& s, const Finding& f) {
  const uint64_t a = s.global_address;
  const uint64_t down = a / static_cast<uint64_t>(f.limit) * static_cast<uint64_t>(f.limit);
  return StrCat("allocate with at least ", f.limit, "-byte alignment (cudaMalloc gives 256), or map from ", Hex(down),
             " and add ", (a - down), " B to the coordinates' byte offset");
}
std::string MsgAddrAlign32(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 32-byte aligned, required ", Why32(s));
}
std::string MsgAddrAlign128Swizzle(const TensorMapSpec& s, const Finding&) {
  return StrCat("global_address = ", Hex(s.global_address), " is not 128-byte aligned with ", SW(s.swizzle),
             ": the Programming Guide asks for 128-byte aligned global memory when swizzling; the driver "
             "accepts 16 (", kMeasured, "), but rows then straddle 128-byte lines and every copy costs extra "
             "memory transactions");
}

}  // namespace tmapgen::rules
