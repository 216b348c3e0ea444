// element_ops.h: what the copy engine does to one element's value: the out-of-bounds fill, the
// reduction of cp.reduce.async.bulk.tensor, and the binary16 / bfloat16 conversions they need.
//
// Contract
// - Pure functions on little-endian element bytes; no I/O, no global state.
#ifndef TMAPGEN_SRC_MODEL_ELEMENT_OPS_H_
#define TMAPGEN_SRC_MODEL_ELEMENT_OPS_H_

#include <cstdint>

#include "src/tmap/types.h"

namespace tmapgen::model {

// The bytes written for one out-of-bounds element: zeros, or the OOB-NaN pattern of a float type
// (reading: the all-ones-payload quiet NaN, 0x7fff / 0x7fffffff / 0x7fffffffffffffff). Returns the byte count
// (0 for the sub-byte types, whose fill is zero bits).
int OobFillBytes(DataType type, OobFill fill, uint8_t out[8]);

// The reduction of one element, exposed for tests: *dst = op(*dst, src) for the PTX type of `type`.
// Returns false when the combination is not supported by cp.reduce.async.bulk.tensor.
bool ReduceElement(DataType type, ReduceOp op, uint8_t* dst, const uint8_t* src);

// IEEE binary16 / bfloat16 helpers (round to nearest even), exposed for tests.
uint16_t FloatToHalf(double v);
double HalfToFloat(uint16_t h);
uint16_t FloatToBf16(double v);
double Bf16ToFloat(uint16_t h);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_ELEMENT_OPS_H_
