// corpus_json.h: one line of a driver-encodings corpus (shared/data/driver-encodings/README.md, and the
// corpora of tools/tmap_corpus): the parameters of one cuTensorMapEncode* call, the driver's verdict and
// the 128 bytes it wrote. Also the "bytes" of any JSON object, for `tmapgen decode` on JSON Lines.
//
// Contract
// - ParseCorpusLine reads one JSON object. Keys: mode ("tiled", "im2col", "im2col_wide"), tensor_data_type,
//   interleave, swizzle, l2_promotion, oob_fill, im2col_wide_mode (the cuda.h enumerator without its prefix,
//   or the integer passed when cuda.h has no name for it), tensor_rank, global_address, global_dim,
//   global_strides, box_dim, element_strides, pixel_box_lower_corner, pixel_box_upper_corner,
//   pixel_box_lower_corner_width, pixel_box_upper_corner_width, channels_per_pixel, pixels_per_column,
//   driver_result, bytes; tmap_corpus adds probe, prefill, replace_address, replace_result, bytes_before.
//   Other keys are ignored. A header line ({"header": true, ...}) gives is_header = true.
// - `representable` is false when the call passed something a TensorMapSpec cannot hold (an enum value
//   cuda.h does not define, a rank above 5, an array longer than 5); `spec` is then partial.
// - The spec's mode is kTiled, kIm2col, or kIm2colW / kIm2colW128 from im2col_wide_mode; global_address
//   is marked given. Nothing else is inferred.
// - Errors (not JSON, wrong types, bytes that are not 256 hex digits) name the key. No I/O.
#ifndef TMAPGEN_SRC_SCHEMA_CORPUS_JSON_H_
#define TMAPGEN_SRC_SCHEMA_CORPUS_JSON_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

struct CorpusEntry {
  bool is_header = false;
  std::string probe;          // "" for the shared corpus
  TensorMapSpec spec;
  bool representable = true;
  int driver_result = -1;     // CUresult (0 accepted)
  bool has_bytes = false;     // bytes non-empty
  std::array<uint8_t, 128> bytes{};
  int prefill = 0;
  bool is_replace = false;    // a cuTensorMapReplaceAddress probe: bytes is the map after the call
  uint64_t replace_address = 0;
  int replace_result = -1;
  std::array<uint8_t, 128> bytes_before{};
};

// kInvalidArgument, naming the key, when the line is not a corpus line.
absl::StatusOr<CorpusEntry> ParseCorpusLine(std::string_view line);

// The value of the "bytes" key of a JSON object (any other keys are ignored). kInvalidArgument when the
// text is not a JSON object or has no string "bytes".
absl::StatusOr<std::string> ExtractBytesField(std::string_view line);

// 256 hex digits (either case) -> 128 bytes.
bool ParseHex128(std::string_view hex, std::array<uint8_t, 128>* out);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_CORPUS_JSON_H_
