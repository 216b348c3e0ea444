// spec_json.h: the JSON form of a tensor-map spec (read by a one-pass fast path for the common form and
// otherwise with simdjson, written with json::Writer).
//
// Contract
// - Field names are the keys of the field table (src/tmap/spec_fields.h), the cuda.h parameter names in
//   snake_case (docs/schema.md lists them all):
//   tensor_data_type, tensor_rank, global_address, global_dim, global_strides, box_dim,
//   element_strides, interleave, swizzle, l2_promotion, oob_fill, pixel_box_lower_corner,
//   pixel_box_upper_corner, pixel_box_lower_corner_width, pixel_box_upper_corner_width,
//   channels_per_pixel, pixels_per_column, wide_mode; plus name, mode, direction, reduce_op, target,
//   smem_address, smem_alignment, driver_version. The members "bytes" and "trace" of a `tmapgen trace`
//   record (docs/trace.md) are accepted and skipped: they describe the driver call, not the spec.
// - Enums are strings in either form (`CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` or `128B_atom_32B`) or the
//   cuda.h integer. Addresses are integers or "0x..." strings. driver_version is 13000 or "13.0".
//   Integers may be written in any JSON form whose exact value is an integer (1e3, 10.0, -0).
// - Strict: text that is not one RFC 8259 JSON object, unknown and duplicate keys (with "did you mean"),
//   wrong types, negative or > 2^64-1 values, out-of-type-range values (box_dim entries above 2^32-1), and
//   array lengths that disagree with tensor_rank are input errors naming the field, with the 1-based line
//   and column in the file: "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4"
//   (input_error.h: a kInvalidArgument status whose payload holds field, line and column). When a text
//   has several problems, one that makes it not JSON is reported before one about a field's value.
//   Values inside the type's range but outside the driver's limits are NOT input errors: the validator
//   explains them.
// - Defaults: mode tiled, direction load, element_strides all 1, interleave/swizzle none, l2_promotion
//   128B, oob_fill zero, corners 0; tensor_rank = the length of global_dim; global_strides dense (the tensor
//   with no padding: global_dim[0] x element size per row, FillDenseStrides). Required: tensor_data_type, global_dim; box_dim for tiled/gather4/scatter4;
//   channels_per_pixel and pixels_per_column for im2col (pixels_per_column optional for im2col::w::128).
// - No I/O. A SpecJsonParser parses many texts and keeps its buffers (simdjson's On-Demand parser) and
//   the fast path's guess of the next key (the order of the text before; it changes speed, never a
//   result); it is not thread-safe. ParseSpecJson uses one parser per thread.
#ifndef TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_
#define TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_

#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/json/json_writer.h"
#include "src/schema/input_error.h"
#include "src/schema/json_diagnostics.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

class SpecJsonParser {
 public:
  SpecJsonParser();
  ~SpecJsonParser();
  SpecJsonParser(const SpecJsonParser&) = delete;
  SpecJsonParser& operator=(const SpecJsonParser&) = delete;

  // Parses `text`, which must be exactly one JSON object, into *spec (unspecified on failure). `at` is the
  // position of text[0] in its file, for the line and column of errors. `padded`: the caller promises
  // json::kPadding readable bytes after the text (their values do not matter), so it is read in place;
  // otherwise it is copied first.
  absl::Status Parse(std::string_view text, json::TextPos at, bool padded, TensorMapSpec* spec);

  // A spec, or a JSON object that carries one under "spec" (the output of `tmapgen decode --format json`),
  // so that decoded maps can be validated again. When `text` is not a spec and holds a "spec" object, that
  // object's verdict is returned (its errors placed in the file); otherwise the spec's own error.
  absl::Status ParseSpecOrWrapped(std::string_view text, json::TextPos at, bool padded, TensorMapSpec* spec);

  // On (the default): a text in the common form (known keys once each, plain ASCII strings, integers in
  // their plain form, no escapes) is read by a one-pass reader without simdjson; any other text, and
  // every error, by simdjson (the full reader). The two give the same spec and the same status for every
  // text the fast path reads; off reads every text with the full reader (tests, fuzzers).
  void set_fast_path(bool on);
  // How many texts the fast path has read so far (tests: that the common form takes it).
  size_t fast_reads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One spec from a whole text whose first line is line `first_line` of its file.
absl::StatusOr<TensorMapSpec> ParseSpecJson(std::string_view text, size_t first_line = 1);

// Writes *spec as a JSON object in the canonical form (short enum names, only the fields its mode
// uses, plus every field the user set).
void WriteSpecJson(const TensorMapSpec& spec, json::Writer* w);
// Its compact form written through o (for writers of a fixed shape, the report): the bytes WriteSpecJson
// writes in compact mode, in room for CompactSpecJsonBound(spec) bytes.
size_t CompactSpecJsonBound(const TensorMapSpec& spec);
void WriteCompactSpecJson(const TensorMapSpec& spec, json::RawText* o);

// Parses "13.0", "12.8", "13000", "13" into 13000, 12080, 13000, 13000.
absl::StatusOr<uint32_t> ParseDriverVersion(std::string_view s);

// Indices into the counts of FinishSpec (number of entries given for each array field; kAbsentCount
// when the field was not given): the array rows of the field table, numbered in its order (ArrayNumber).
enum SpecArray : int {
  kArrGlobalDim = ArrayNumber(kFieldIndexGlobalDim),
  kArrGlobalStrides = ArrayNumber(kFieldIndexGlobalStrides),
  kArrBoxDim = ArrayNumber(kFieldIndexBoxDim),
  kArrElementStrides = ArrayNumber(kFieldIndexElementStrides),
  kArrLowerCorner = ArrayNumber(kFieldIndexLowerCorner),
  kArrUpperCorner = ArrayNumber(kFieldIndexUpperCorner),
  kNumSpecArrays = kNumArrayFields
};
inline constexpr uint32_t kAbsentCount = ~0u;

// Checks the cross-field facts a parser can check (array lengths vs rank, required fields) and fills
// the defaults listed above. Shared by the JSON, text-format, Protobuf and command-line front ends.
// Errors are input errors without a position ("global_dim: missing; ...").
absl::Status FinishSpec(TensorMapSpec* spec, const uint32_t counts[kNumSpecArrays]);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_SPEC_JSON_H_
