// libFuzzer target: untrusted spec text through every front end that parses it, then the validator
// and both report writers. Anything may be rejected; nothing may crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/json/json_reader.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tmapgen::TensorMapSpec spec;
  tmapgen::InputError err;
  if (tmapgen::ParseSpecJson(text, 1, &spec, &err)) {
    tmapgen::Validation v;
    tmapgen::Validate(spec, &v);
    tmapgen::json::Writer w;
    tmapgen::WriteReportJson(0, spec, v, tmapgen::Encoding(), tmapgen::ReportOptions(), &w);
    tmapgen::RenderReportText(0, spec, v, tmapgen::Encoding(), tmapgen::ReportOptions());
  }
  // JSON Lines through the splitter, a line at a time.
  tmapgen::json::LineSplitter split;
  split.Feed(text);
  split.Finish();
  std::string_view line;
  size_t line_no = 0;
  while (split.Next(&line, &line_no)) tmapgen::ParseSpecJson(line, line_no, &spec, &err);
  return 0;
}
