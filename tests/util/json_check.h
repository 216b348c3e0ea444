// json_check.h (tests only): simdjson's DOM parser as the judge of JSON text the tests read back.
//
// The tests that check "this output is JSON" or read fields out of a report use the library, not
// tmapgen's own code (src/schema/json_diagnostics), so that a bug there cannot hide a bug here.
#ifndef TMAPGEN_TESTS_UTIL_JSON_CHECK_H_
#define TMAPGEN_TESTS_UTIL_JSON_CHECK_H_

#include <simdjson.h>

#include <string>
#include <string_view>

namespace tmapgen::testing_json {

// True iff `text` is exactly one RFC 8259 JSON value (surrounded by whitespace), as simdjson's DOM
// parser decides. max_depth: simdjson's limit on nesting.
inline bool IsValidJson(std::string_view text, size_t max_depth = simdjson::DEFAULT_MAX_DEPTH) {
  simdjson::dom::parser parser(simdjson::SIMDJSON_MAXSIZE_BYTES);
  if (parser.allocate(text.size() + 1, max_depth)) return false;
  simdjson::dom::element e;
  return !parser.parse(text.data(), text.size(), true).get(e);
}

// The minified JSON text of a DOM element (to hand a sub-document to a parser under test).
inline std::string Minified(const simdjson::dom::element& e) { return simdjson::minify(e); }

}  // namespace tmapgen::testing_json

#endif  // TMAPGEN_TESTS_UTIL_JSON_CHECK_H_
