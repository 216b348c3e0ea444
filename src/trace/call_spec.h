// call_spec.h: what a traced driver call means in tmapgen's terms: the spec it encodes, and the
// configuration it is an instance of (the key the recorder counts identical calls under).
//
// Contract
// - CallToSpec() gives the TensorMapSpec of the parameters the driver was passed: the mode follows the
//   encoder (Tiled -> tiled, Im2col -> im2col, Im2colWide -> im2col::w or im2col::w::128 by its `mode`
//   argument), the direction is left at its default (load: the driver never learns how a kernel uses
//   a map), target and driver_version are set when the call carries them. Every parameter field is
//   marked as given (set_fields), so reports and records show what the driver got.
// - A value the spec cannot hold (an enum value cuda.h does not define, tensorRank 0 or above 5) is
//   not silently changed into a legal one: its Field bit is set in *unrepresentable and the spec field
//   keeps a placeholder (0); record_json.h then writes the raw integer, so a replay names the field.
//   An argument array that could not be read (EncodeCall::unreadable) is unrepresentable too (written
//   as null).
// - ConfigKeyOf() is the identity of a configuration: every parameter, the encoder, the result and the
//   unreadable bits, with the global address reduced to its alignment (its lowest set bit, capped at
//   256 bytes: what the rules look at). Two calls that differ only in where the tensor lives are the
//   same configuration; the bytes the driver wrote are not part of the key (they contain the address).
// - Pure functions, no allocation except the spec's name string (left empty).
#ifndef TMAPGEN_SRC_TRACE_CALL_SPEC_H_
#define TMAPGEN_SRC_TRACE_CALL_SPEC_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "src/tmap/tensor_map_spec.h"
#include "src/trace/call.h"

namespace tmapgen::trace {

// Fills *spec from the call's parameters; returns the Field bits of values the spec cannot represent
// (0 when the whole call is representable).
uint32_t CallToSpec(const EncodeCall& call, TensorMapSpec* spec);

// The alignment class of an address: its lowest set bit, capped at 256 (0 -> 256).
uint64_t AddressAlignment(uint64_t address);

struct ConfigKey {
  uint64_t w[26];
  bool operator==(const ConfigKey& o) const { return std::memcmp(w, o.w, sizeof(w)) == 0; }
};
ConfigKey ConfigKeyOf(const EncodeCall& call);
uint64_t HashKey(const ConfigKey& key);

// The CUresult name for the codes cuda.h (CUDA 13.0) defines that tensor-map calls return, else
// "CUDA_ERROR_<n>".
std::string CuResultName(int32_t result);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_CALL_SPEC_H_
