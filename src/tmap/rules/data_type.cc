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
void MsgPackedU6Interleave(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires CU_TENSOR_MAP_INTERLEAVE_NONE, not ", FullName(s.interleave));
}
void MsgPackedSwizzle(const TensorMapSpec& s, const Finding&, TextOut& o) {
  RuleText allowed;
  for (int w = 0; w < kNumSwizzles; ++w) {
    if (SwizzleAllowedForPacked(s, static_cast<Swizzle>(w))) {
      if (!allowed.empty()) allowed += ", ";
      allowed += ShortName(static_cast<Swizzle>(w));
    }
  }
  return TextAppend(&o, FullName(s.data_type), " in a ", Name(EncoderFor(s.mode)), " map supports only these swizzles: ",
             allowed, "; not ", SW(s.swizzle));
}
void FixPackedSwizzle(const TensorMapSpec&, const Finding&, TextOut& o) { return TextAppend(&o, "use CU_TENSOR_MAP_SWIZZLE_128B"); }
bool PatchSwizzle128(const Finding&, TensorMapSpec* s) {
  s->swizzle = Swizzle::k128B;
  return true;
}
void MsgPackedDirection(const TensorMapSpec& s, const Finding& f, TextOut& o) {
  switch (f.value) {
    case 1: return TextAppend(&o, "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (.b4x16_p64) is load only: stores from shared memory do not support it");
    case 2: return TextAppend(&o, "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B is store only");
    default: return TextAppend(&o, "cp.reduce.async.bulk.tensor does not support sub-byte types (", FullName(s.data_type), ")");
  }
}
void FixPackedDirection(const TensorMapSpec&, const Finding& f, TextOut& o) {
  switch (f.value) {
    case 1: return TextAppend(&o, "store with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B (unpadded) or a byte type");
    case 2: return TextAppend(&o, "load with CU_TENSOR_MAP_SWIZZLE_128B or CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
    default: return TextAppend(&o, "reduce in a byte-sized type, or load, combine and store");
  }
}
bool PatchPackedDirection(const Finding& f, TensorMapSpec* s) {
  if (f.value != 2) return false;
  s->swizzle = Swizzle::k128B;
  return true;
}
void MsgOobNanFloat(const TensorMapSpec& s, const Finding&, TextOut& o) {
  return TextAppend(&o, "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point data type; ",
             FullName(s.data_type), " is not one");
}
void FixOobNanFloat(const TensorMapSpec&, const Finding&, TextOut& o) {
  return TextAppend(&o, "use oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zero fill)");
}
bool PatchOobNone(const Finding&, TensorMapSpec* s) {
  s->oob_fill = OobFill::kNone;
  return true;
}

}  // namespace tmapgen::rules
