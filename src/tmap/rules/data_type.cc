// data_type.cc: messages, fixes, patches and field paths of the rules about the element type: packed sub-byte
//   types and the NaN fill (data_type.h).
#include "src/tmap/rules/data_type.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "src/util/strings.h"

namespace tmapgen::rules {

// ---- helpers ----

// ---- packed (sub-byte) types ----
RuleText MsgPackedU6Interleave(const TensorMapSpec& s, const Finding&) {
  return TextCat("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires CU_TENSOR_MAP_INTERLEAVE_NONE, not ", FullName(s.interleave));
}
RuleText MsgPackedSwizzle(const TensorMapSpec& s, const Finding&) {
  RuleText allowed;
  for (int w = 0; w < kNumSwizzles; ++w) {
    if (SwizzleAllowedForPacked(s, static_cast<Swizzle>(w))) {
      if (!allowed.empty()) allowed += ", ";
      allowed += ShortName(static_cast<Swizzle>(w));
    }
  }
  return TextCat(FullName(s.data_type), " in a ", Name(EncoderFor(s.mode)), " map supports only these swizzles: ",
             allowed, "; not ", SW(s.swizzle));
}
RuleText FixPackedSwizzle(const TensorMapSpec&, const Finding&) { return "use CU_TENSOR_MAP_SWIZZLE_128B"; }
bool PatchSwizzle128(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k128B;
  return true;
}
RuleText MsgPackedDirection(const TensorMapSpec& s, const Finding& f) {
  switch (f.value) {
    case 1: return "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (.b4x16_p64) is load only: stores from shared memory do not support it";
    case 2: return "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B is store only";
    default: return TextCat("cp.reduce.async.bulk.tensor does not support sub-byte types (", FullName(s.data_type), ")");
  }
}
RuleText FixPackedDirection(const TensorMapSpec&, const Finding& f) {
  switch (f.value) {
    case 1: return "store with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B (unpadded) or a byte type";
    case 2: return "load with CU_TENSOR_MAP_SWIZZLE_128B or CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B";
    default: return "reduce in a byte-sized type, or load, combine and store";
  }
}
bool PatchPackedDirection(const Finding& f, TensorMapSpec* s) {
  if (f.value != 2) return false;
  s->swizzle = Swizzle::k128B;
  return true;
}
RuleText MsgOobNanFloat(const TensorMapSpec& s, const Finding&) {
  return TextCat("CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point data type; ",
             FullName(s.data_type), " is not one");
}
RuleText FixOobNanFloat(const TensorMapSpec&, const Finding&) {
  return "use oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zero fill)";
}
bool PatchOobNone(const Finding&, TensorMapSpec* s) {
  s->oob_fill = OobFill::kNone;
  return true;
}

}  // namespace tmapgen::rules
