// spec_json_fuzz.cc: libFuzzer target: untrusted spec text through every JSON front end, then the
// validator and both report writers. Anything may be rejected; nothing may crash, hang or read out of
// bounds (AddressSanitizer, UndefinedBehaviorSanitizer). Oracles:
// - A text the spec parser accepts is JSON for simdjson's DOM parser, and the spec it gives writes
//   (WriteSpecJson) to a text that parses back to the same fields.
// - A rejected text gets an input error with a message, a line >= 1 when it has a place, and a column
//   inside the text's bounds.
// - The same text as JSON Lines and as a JSON array (pieces from SpecSplitter, read in place with the
//   splitter's padding) gives, for each piece, the verdict ParseSpecJson gives for the piece alone.
// - Validate's fast path gives the rule table's Validation (fuzz/validation_compare.h).
// - The spec reader's fast path (FastReader in src/schema/spec_json.cc) and the full reader (simdjson)
//   give the same status (message, field, line, column) and, when the text is accepted, the same spec,
//   with the text copied and in place before padding bytes that would continue it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "fuzz/validation_compare.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/schema/spec_stream.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"

namespace {

using namespace tmapgen;

void CheckSpec(std::string_view text) {
  const absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(text);
  if (!parsed.ok()) {
    CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
    const InputError e = InputErrorOf(parsed.status());
    CHECK(!e.message.empty());
    CHECK(e.line == 0 || (e.line >= 1 && e.column >= 1 && e.column <= text.size() + 1));
    return;
  }
  CHECK(fuzz::DomVerdict(text, 1024) == simdjson::SUCCESS);
  const TensorMapSpec& spec = *parsed;
  Validation v;
  Validate(spec, &v);
  CHECK(fuzz::FastPathAgrees(spec));  // the fast path and the rule table (src/tmap/fast_path.h)
  json::Writer w;
  WriteReportJson(0, spec, v, Encoding(), ReportOptions(), &w);
  CHECK(w.complete());
  CHECK(fuzz::DomVerdict(w.str(), 1024) == simdjson::SUCCESS);
  RenderReportText(0, spec, v, Encoding(), ReportOptions());
  // Write the spec and read it back.
  json::Writer ws;
  WriteSpecJson(spec, &ws);
  const absl::StatusOr<TensorMapSpec> again = ParseSpecJson(ws.str());
  if (spec.rank >= 1 && spec.rank <= static_cast<uint32_t>(kMaxRank)) {
    CHECK(again.ok());
    CHECK(again->mode == spec.mode && again->rank == spec.rank && again->global_dim == spec.global_dim &&
          again->data_type == spec.data_type && again->swizzle == spec.swizzle && again->name == spec.name);
  }
}

void CheckFastPath(std::string_view text) {
  static SpecJsonParser* const fast = new SpecJsonParser;
  static SpecJsonParser* const full = [] {
    SpecJsonParser* p = new SpecJsonParser;
    p->set_fast_path(false);
    return p;
  }();
  const json::TextPos at{2, 3};
  TensorMapSpec want, got;
  const absl::Status want_st = full->Parse(text, at, false, &want);
  std::string buf(text);
  for (const char pad : {'\0', ' ', '}', '"', '1'}) {
    buf.resize(text.size());
    buf.append(json::kPadding, pad);
    const absl::Status st = pad == '\0' ? fast->Parse(text, at, false, &got)
                                         : fast->Parse(std::string_view(buf.data(), text.size()), at, true, &got);
    CHECK(st.ok() == want_st.ok());
    if (st.ok()) {
      CHECK(SameSpec(got, want));
    } else {
      CHECK(StatusMessage(st) == StatusMessage(want_st));
      const InputError a = InputErrorOf(st), b = InputErrorOf(want_st);
      CHECK(a.field == b.field && a.line == b.line && a.column == b.column);
    }
  }
}

void CheckStream(std::string_view text, StreamFormat f) {
  SpecSplitter split(f);
  split.Feed(text);
  split.Finish();
  SpecJsonParser parser;
  TensorMapSpec spec;
  SpecPiece p;
  int pieces = 0;
  while (split.Next(&p) && pieces++ < 64) {
    if (p.kind != SpecPiece::kSpec) continue;
    const absl::Status in_place = parser.Parse(p.text, p.at, true, &spec);
    const absl::StatusOr<TensorMapSpec> alone = ParseSpecJson(p.text, p.at.line);
    CHECK(in_place.ok() == alone.ok());
    if (!in_place.ok() && p.at.column == 1) CHECK(StatusMessage(in_place) == StatusMessage(alone.status()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckSpec(text);
  CheckFastPath(text);
  CheckStream(text, StreamFormat::kJsonLines);
  CheckStream(text, StreamFormat::kJson);
  return 0;
}
