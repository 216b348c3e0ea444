// spec_json_fast.h: the fast path of the JSON spec reader (SpecJsonParser, spec_json.h): a text in the common
// form read in one pass without simdjson. Internal to src/schema.
//
// Contract
// - The common form: one object of known keys, each once, whose values are strings of plain ASCII (0x20..0x7F but
//   '"' and '\'), integers in their plain form (digits, a '-' where the field is signed, at most 19 digits) and
//   arrays of integers, with JSON whitespace between any two tokens. Anything else (an escape, a non-ASCII byte,
//   a fraction or an exponent, an unknown key or name, a value outside its field's range, a duplicate, a `trace`
//   member, text that is not JSON, an array over its bound) makes ReadFast return false, and the full reader
//   (spec_json.cc: simdjson, every problem explained and placed) reads the text again from the start. What the
//   fast path accepts is RFC 8259 JSON that the full reader reads into the same spec: each value is converted by
//   the same code or by a conversion that agrees with it on the accepted forms (tests/schema/spec_json_test.cc
//   `SpecJsonFastPath.*` and fuzz/spec_json_fuzz.cc compare the two readers on every text).
#ifndef TMAPGEN_SRC_SCHEMA_SPEC_JSON_FAST_H_
#define TMAPGEN_SRC_SCHEMA_SPEC_JSON_FAST_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::internal_spec_json {

// What the fast path keeps from text to text: the count of texts it read, and for each key (and the
// object's start, index kNumSpecFields) the key that followed it last time, tried first at the next key
// (files repeat their key order; a guess only saves time, what is read is the same).
// And for each key whose value is an enum name, the names it read and what they stood for, in 8 slots chosen
// by a hash of the name's first bytes: files repeat their names ("f16", "128B", "sm_90a"), often cycling
// through a few, and comparing 32 bytes with the slot's name costs less than the case-folding hash-table
// lookup of Parse, whose answer for the same bytes is the same.
struct FastState {
  size_t reads = 0;
  std::array<uint8_t, kNumSpecFields + 1> next{};
  struct LastName {
    alignas(16) char bytes[32] = {};  // the name, zero-filled to 32 bytes
    uint8_t size = 0xff;              // 0xff: empty (a name of 32 bytes or more is not remembered)
    uint8_t value = 0;
    uint8_t alias = 0;  // tensor_data_type: the data alias the name is (kNoDataAlias for a map type's name)
  };
  static constexpr int kNameSlots = 8;
  std::array<std::array<LastName, kNameSlots>, kNumSpecFields> names{};
};

// Reads `text` (followed by json::kPadding readable bytes, whatever their values) into *spec and counts
// (the FinishSpec counts, kAbsentCount for arrays not given), or returns false: the text is not in the common
// form (spec and counts are then unspecified). It does not call FinishSpec.
bool ReadFast(std::string_view text, TensorMapSpec* spec, uint32_t* counts, FastState* state);

}  // namespace tmapgen::internal_spec_json

#endif  // TMAPGEN_SRC_SCHEMA_SPEC_JSON_FAST_H_
