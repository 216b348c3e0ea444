// blob_fuzz.cc: the CUtensorMap decoder and the blob text parser on untrusted input.
//   - any 128 bytes (the first 128 of the input, zero-padded): Decode must not crash, must account for every
//     set bit exactly once (fields + recognised + unexplained rebuild the map), and `reencodes` must be
//     exactly whether Encode(spec) gives the bytes back;
//   - the whole input as BLOB text (ParseBlobText, both word modes), as binary maps, as a JSON object with
//     "bytes" (ExtractBytesField) and as a corpus line (ParseCorpusLine): no crash, and every map parsed decodes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "src/blob/blob.h"
#include "src/blob/blob_text.h"
#include "src/schema/corpus_json.h"

using namespace tmapgen::blob;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  MapBytes m{};
  std::memcpy(m.data(), data, size < 128 ? size : 128);
  static Decoded d;
  Decode(m, &d);
  MapBytes again{};
  for (const FieldValue& f : d.fields) Scatter(&again, *f.field, f.raw);
  for (const FieldValue& f : d.recognised) Scatter(&again, *f.field, f.raw);
  for (const UnexplainedBit& u : d.unexplained) again[u.bit / 8] |= static_cast<uint8_t>(1u << (u.bit % 8));
  if (again != m) std::abort();
  // `reencodes` (computed without encoding) is exactly whether Encode gives the bytes back.
  {
    MapBytes e;
    const bool same = d.spec_ok && EncodeInto(d.spec, &e).ok() && e == m;
    if (same != d.reencodes) std::abort();
  }
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool words : {false, true}) {
    if (const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobText(text, words); maps.ok())
      for (const MapBytes& x : *maps) Decode(x, &d);
  }
  if (const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobBinary(text); maps.ok())
    for (const MapBytes& x : *maps) Decode(x, &d);
  (void)LooksLikeText(text);
  // The JSON Lines forms `tmapgen decode` reads: "bytes" of any object, and corpus lines.
  if (const absl::StatusOr<std::string> hex = tmapgen::ExtractBytesField(text); hex.ok())
    if (const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobText(*hex, false); maps.ok())
      for (const MapBytes& x : *maps) Decode(x, &d);
  (void)tmapgen::ParseCorpusLine(text);
  return 0;
}
