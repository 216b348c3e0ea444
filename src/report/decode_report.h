// decode_report.h: what `tmapgen decode` says about one 128-byte map (blob.h Decode): every field, the
// recognised and unexplained bits, the findings, and the validation report of the recovered spec, as text
// for people or one JSON object (the spec in the schema form, so that `tmapgen validate` reads it back).
// The command line (cli/blob_cmd.cc) and tmapd's Decode (server/engine.cc) print the same.
//
// Contract
// - Render*/Decode* fill *valid: the recovered spec validates (for the options' target, or every target), or
//   with validate off, it was recovered. Clean(): no unexplained bit and no finding other than notes.
// - No I/O.
#ifndef TMAPGEN_SRC_REPORT_DECODE_REPORT_H_
#define TMAPGEN_SRC_REPORT_DECODE_REPORT_H_

#include <string>
#include <string_view>

#include "src/blob/blob.h"
#include "src/json/json_writer.h"
#include "src/tmap/types.h"

namespace tmapgen::blob {

struct DecodeOptions {
  bool json = false;
  bool validate = true;
  bool color = false;
  bool has_target = false;
  Target target = Target::kSm90a;
};

// A field's value in words ("CU_TENSOR_MAP_DATA_TYPE_FLOAT16 (f16; code 6)", "256 B").
std::string ValueText(const FieldValue& fv, const TensorMapSpec& s);
std::string UnexplainedText(const Decoded& d);
bool Clean(const Decoded& d);

std::string DecodeText(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o,
                       bool* valid);
void DecodeJson(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o, bool* valid,
                json::Writer* w);
// Text or JSON (per o.json) with its line end, as `tmapgen decode` prints one map; `w` is scratch.
std::string RenderDecoded(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o,
                          bool* valid, json::Writer* w);
// The spec the report validates: the recovered one, with the options' target.
TensorMapSpec ReportedSpec(const Decoded& d, const DecodeOptions& o);

}  // namespace tmapgen::blob

#endif  // TMAPGEN_SRC_REPORT_DECODE_REPORT_H_
