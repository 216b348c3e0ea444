// spec_json.h: the JSON form of a tensor-map spec (read and write).
//
// Contract
// - Field names are the cuda.h parameter names in snake_case (docs/schema.md lists them all):
//   tensor_data_type, tensor_rank, global_address, global_dim, global_strides, box_dim,
//   element_strides, interleave, swizzle, l2_promotion, oob_fill, pixel_box_lower_corner,
//   pixel_box_upper_corner, pixel_box_lower_corner_width, pixel_box_upper_corner_width,
//   channels_per_pixel, pixels_per_column, wide_mode; plus name, mode, direction, reduce_op, target,
//   smem_address, smem_alignment, driver_version. The members "bytes" and "trace" of a `tmapgen trace`
//   record (docs/trace.md) are accepted and skipped: they describe the driver call, not the spec.
// - Enums are strings in either form (`CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` or `128B_atom_32B`) or the
//   cuda.h integer. Addresses are integers or "0x..." strings. driver_version is 13000 or "13.0".
// - Strict: unknown and duplicate keys, wrong types, negative or > 2^64-1 values, out-of-type-range
//   values (box_dim entries above 2^32-1), and array lengths that disagree with tensor_rank are input
//   errors naming the field ("global_dim[2]: expected an unsigned integer, got -4"). Values inside the
//   type's range but outside the driver's limits are NOT input errors: the validator explains them.
// - Defaults: mode tiled, direction load, element_strides all 1, interleave/swizzle none, l2_promotion
//   128B, oob_fill zero, corners 0; tensor_rank = the length of global_dim; global_strides dense (rows
//   padded to 16 bytes). Required: tensor_data_type, global_dim; box_dim for tiled/gather4/scatter4;
//   channels_per_pixel and pixels_per_column for im2col (pixels_per_column optional for im2col::w::128).
// - No I/O. One parser can parse many specs; it keeps buffers between calls.
#ifndef TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_
#define TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_

#include <string>
#include <string_view>

#include "src/json/json_reader.h"
#include "src/json/json_writer.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

struct InputError {
  std::string field;    // JSON path of the offending field, "" when about the whole text
  std::string message;  // "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4"
  size_t line = 0;
  size_t column = 0;
};

// Parses one JSON object (the whole of `text`) into *spec. `first_line` is the line number of the
// text's first line in its file (JSON Lines). On failure returns false and fills *error; *spec is then
// unspecified.
bool ParseSpecJson(std::string_view text, size_t first_line, TensorMapSpec* spec, InputError* error);

// Reads one spec object from a reader positioned on a pending value (used for arrays of specs).
// Semantic errors are recorded in *error (the first one) and the object is still consumed to its end,
// so that the caller can continue with the next array element; syntax errors stop the reader.
bool ReadSpecObject(json::Reader* reader, TensorMapSpec* spec, InputError* error);

// Writes *spec as a JSON object in the canonical form (short enum names, only the fields its mode
// uses, plus every field the user set).
void WriteSpecJson(const TensorMapSpec& spec, json::Writer* w);

// Parses "13.0", "12.8", "13000" into 13000, 12080, 13000.
bool ParseDriverVersion(std::string_view s, uint32_t* out);

// Checks the cross-field facts a parser can check (array lengths vs rank, required fields) and fills
// the defaults listed above. Shared by the JSON, text-format and command-line front ends.
bool FinishSpec(TensorMapSpec* spec, uint32_t counts_given[8], InputError* error);

// Indices into counts_given of FinishSpec (number of entries given for each array field; ~0u = absent).
enum SpecArray { kArrGlobalDim, kArrGlobalStrides, kArrBoxDim, kArrElementStrides, kArrLowerCorner,
                 kArrUpperCorner, kNumSpecArrays };

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_
