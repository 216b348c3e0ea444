// json_fuzz.cc: libFuzzer target for what tmapgen adds to simdjson: json_diagnostics (where and why a
// text is not JSON, exact integers), json::Writer, and the stream splitter (spec_stream).
//
// Each input is used four ways, each with an oracle that aborts on a violation:
// 1. FindSyntaxError must agree with simdjson's DOM parser on whether the input is JSON (same nesting
//    limit). Not compared where simdjson refuses a number it cannot convert (outside the range of a
//    double, or an integer above 2^64: NUMBER_ERROR), which RFC 8259 allows and simdjson gives no
//    finer code for. Errors point inside the text.
// 2. Every number token FindSyntaxError accepts has a consistent ExactInteger class.
// 3. json::Writer, given the input's bytes as strings and numbers, writes JSON that simdjson accepts
//    and reads back to the same strings (valid UTF-8) and numbers.
// 4. SpecSplitter gives the same pieces for the whole input as for a random chunking, in every format;
//    JSON Lines pieces match a straightforward line split; every piece lies inside the input.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "src/json/json_writer.h"
#include "src/schema/json_diagnostics.h"
#include "src/schema/spec_stream.h"

namespace {

using namespace tmapgen;
using tmapgen::fuzz::Rng;

void CheckDiagnostics(std::string_view text) {
  constexpr int kDepth = 64;
  const std::optional<json::SyntaxError> mine = json::FindSyntaxError(text, kDepth);
  if (mine) {
    CHECK(mine->offset <= text.size());
    CHECK(!mine->message.empty());
  }
  const simdjson::error_code dom = fuzz::DomVerdict(text, kDepth);
  if (dom == simdjson::NUMBER_ERROR) {
    // simdjson could not convert a number; the text may still be JSON. Nothing to compare.
    return;
  }
  if (dom == simdjson::DEPTH_ERROR) {
    CHECK(mine.has_value());
    return;
  }
  CHECK(mine.has_value() == (dom != simdjson::SUCCESS));
  // 2. A number token at the start: the class must be consistent with the grammar.
  const size_t n = json::NumberLength(text);
  uint64_t mag = 0;
  bool negative = false;
  const json::IntegerClass c = json::ExactInteger(text.substr(0, n), &mag, &negative);
  CHECK((n == 0) == (c == json::IntegerClass::kNotNumber));
  if (n > 0 && n == text.size()) CHECK(!json::FindSyntaxError(text.substr(0, n)).has_value());
}

void CheckWriter(std::string_view text, Rng* rng) {
  // Pieces of the input as strings, and a few integers from its hash.
  std::vector<std::string_view> pieces;
  for (size_t i = 0; i < text.size() && pieces.size() < 16;) {
    const size_t len = 1 + rng->Below(24);
    pieces.push_back(text.substr(i, len));
    i += len;
  }
  json::Writer w;
  w.BeginObject().Key("s").BeginArray();
  for (const std::string_view p : pieces) w.String(p);
  w.EndArray();
  const uint64_t u = rng->Next();
  const int64_t i = static_cast<int64_t>(rng->Next());
  w.Key("u").Uint(u).Key("i").Int(i);
  const std::string_view key = pieces.empty() ? std::string_view("k") : pieces[0];
  w.Key(key).Bool(true);
  w.EndObject();
  CHECK(w.complete());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  CHECK(!parser.parse(w.str()).get(doc));
  simdjson::dom::array a;
  CHECK(!doc["s"].get_array().get(a));
  CHECK(a.size() == pieces.size());
  size_t k = 0;
  for (simdjson::dom::element e : a) {
    std::string_view back;
    CHECK(!e.get_string().get(back));
    std::string requoted, quoted;
    json::Writer::AppendQuoted(back, &requoted);
    json::Writer::AppendQuoted(pieces[k], &quoted);
    CHECK(requoted == quoted);  // invalid bytes were replaced, so the result re-quotes the same
    if (simdjson::validate_utf8(pieces[k].data(), pieces[k].size())) CHECK(back == pieces[k]);
    ++k;
  }
  uint64_t u2 = 0;
  int64_t i2 = 0;
  CHECK(!doc["u"].get_uint64().get(u2) && u2 == u);
  CHECK(!doc["i"].get_int64().get(i2) && i2 == i);
}

struct Piece {
  int kind;
  std::string text;
  size_t line, column, index;
  std::string message;
  bool operator==(const Piece& o) const {
    return kind == o.kind && text == o.text && line == o.line && column == o.column && index == o.index &&
           message == o.message;
  }
};

std::vector<Piece> Split(StreamFormat f, std::string_view text, size_t max, Rng* rng) {
  SpecSplitter s(f, max);
  std::vector<Piece> out;
  SpecPiece p;
  auto drain = [&] {
    while (s.Next(&p)) {
      if (p.kind == SpecPiece::kSpec) CHECK(p.text.size() <= text.size());
      out.push_back(Piece{p.kind, std::string(p.text), p.at.line, p.at.column, p.index, p.message});
    }
  };
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = rng == nullptr ? text.size() : 1 + rng->Below(text.size() - i);
    s.Feed(text.substr(i, n));
    if (rng == nullptr || rng->Below(2) == 0) drain();
    i += n;
  }
  drain();
  s.Finish();
  drain();
  return out;
}

void CheckSplitter(std::string_view text, Rng* rng) {
  const size_t max = 1 + rng->Below(64);
  for (const StreamFormat f : {StreamFormat::kJsonLines, StreamFormat::kJson, StreamFormat::kTextproto}) {
    const std::vector<Piece> whole = Split(f, text, max, nullptr);
    CHECK(Split(f, text, max, rng) == whole);
    if (f != StreamFormat::kJsonLines) continue;
    // Reference: split at LF, drop one CR before it, skip blank lines, bound the length.
    std::vector<Piece> ref;
    size_t start = 0, line = 0, index = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      const bool last = nl == std::string_view::npos;
      if (last) nl = text.size();
      ++line;
      std::string_view l = text.substr(start, nl - start);
      start = nl + 1;
      if (l.size() > max) {
        ref.push_back(Piece{SpecPiece::kTooLong, "", line, 1, index++, ""});
        continue;
      }
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (l.find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
      ref.push_back(Piece{SpecPiece::kSpec, std::string(l), line, 1, index++, ""});
    }
    CHECK(ref.size() == whole.size());
    for (size_t k = 0; k < ref.size(); ++k) {
      CHECK(ref[k].kind == whole[k].kind && ref[k].text == whole[k].text && ref[k].line == whole[k].line &&
            ref[k].index == whole[k].index);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Rng rng{fuzz::Hash(text)};
  CheckDiagnostics(text);
  CheckWriter(text, &rng);
  CheckSplitter(text, &rng);
  return 0;
}
