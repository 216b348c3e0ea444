// SpecSplitter: one text per spec from JSON Lines, JSON arrays and the text format, fed in chunks of
// every size; positions in the file; over-long specs skipped without stopping the stream; bounded memory.
#include "src/schema/spec_stream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/util/strings.h"

namespace tmapgen {
namespace {

struct Got {
  SpecPiece::Kind kind;
  std::string text;
  size_t line, column, index;
  std::string message;
  bool operator==(const Got& o) const {
    return kind == o.kind && text == o.text && line == o.line && column == o.column && index == o.index &&
           message == o.message;
  }
};

std::ostream& operator<<(std::ostream& os, const Got& g) {
  return os << "{" << static_cast<int>(g.kind) << " '" << g.text << "' " << g.line << ":" << g.column << " #" << g.index
            << " " << g.message << "}";
}

// Feeds `input` in chunks of `chunk` bytes (0: all at once) and collects every piece. Every other chunk
// goes through Room/Commit (asking room for more than it writes, as a short read does) instead of Feed.
std::vector<Got> Split(StreamFormat f, const std::string& input, size_t chunk = 0, size_t max = kMaxSpecBytes,
                       size_t* max_capacity = nullptr) {
  SpecSplitter s(f, max);
  std::vector<Got> out;
  SpecPiece p;
  auto drain = [&] {
    while (s.Next(&p)) out.push_back(Got{p.kind, std::string(p.text), p.at.line, p.at.column, p.index, p.message});
    if (max_capacity != nullptr) *max_capacity = std::max(*max_capacity, s.capacity());
  };
  if (chunk == 0) chunk = input.size() + 1;
  for (size_t i = 0; i < input.size(); i += chunk) {
    const std::string_view part = std::string_view(input).substr(i, chunk);
    if ((i / chunk) % 2 == 0) {
      s.Feed(part);
    } else {
      char* room = s.Room(part.size() + 5);
      std::memcpy(room, part.data(), part.size());
      s.Commit(part.size());
    }
    drain();
  }
  s.Finish();
  drain();
  return out;
}

// The same pieces whatever the chunk size.
std::vector<Got> SplitEveryWay(StreamFormat f, const std::string& input, size_t max = kMaxSpecBytes) {
  const std::vector<Got> whole = Split(f, input, 0, max);
  for (size_t chunk = 1; chunk <= input.size(); ++chunk) EXPECT_EQ(Split(f, input, chunk, max), whole) << "chunk " << chunk;
  return whole;
}

constexpr SpecPiece::Kind kSpec = SpecPiece::kSpec;
constexpr SpecPiece::Kind kTooLong = SpecPiece::kTooLong;
constexpr SpecPiece::Kind kError = SpecPiece::kError;

TEST(JsonLines, LinesBlanksCrLfAndTheLastLine) {
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kJsonLines, "{a}\n\n \t\r\n{b}\r\n{c} \n{d}");
  const std::vector<Got> want = {{kSpec, "{a}", 1, 1, 0, ""}, {kSpec, "{b}", 4, 1, 1, ""},
                                 {kSpec, "{c} ", 5, 1, 2, ""}, {kSpec, "{d}", 6, 1, 3, ""}};
  EXPECT_EQ(got, want);
  EXPECT_TRUE(Split(StreamFormat::kJsonLines, "").empty());
  EXPECT_TRUE(Split(StreamFormat::kJsonLines, "\n\n").empty());
}

TEST(JsonLines, AnOverLongLineIsSkippedAndTheNextLinesAreRead) {
  // A line over the bound must not stop the whole input: the lines after it are read. Limit 10 bytes here.
  const std::string input = "{short}\n{" + std::string(30, 'x') + "}\n{after}\n{" + std::string(11, 'y') + "}";
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kJsonLines, input, 10);
  const std::string msg = "the line is longer than 10 bytes, the limit for one spec (docs/schema.md); it was skipped";
  const std::vector<Got> want = {{kSpec, "{short}", 1, 1, 0, ""},
                                 {kTooLong, "", 2, 1, 1, msg},
                                 {kSpec, "{after}", 3, 1, 2, ""},
                                 {kTooLong, "", 4, 1, 3, msg}};
  EXPECT_EQ(got, want);
}

TEST(JsonLines, AnOverLongLineIsNeverHeld) {
  // 4 MiB in one line, fed in 64 KiB chunks with a 1 MiB limit: the buffer never grows past about one
  // limit plus one chunk.
  const std::string input = std::string(4 << 20, 'x') + "\n{ok}\n";
  size_t cap = 0;
  const std::vector<Got> got = Split(StreamFormat::kJsonLines, input, 64 << 10, 1 << 20, &cap);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].kind, kTooLong);
  EXPECT_EQ(got[1].text, "{ok}");
  EXPECT_EQ(got[1].line, 2u);
  EXPECT_LT(cap, (size_t{1} << 20) * 3);
}

TEST(Json, ArrayElementsWithTheirPlaces) {
  const std::string input = "[\n {\"a\":1},\n  {\"b\":[1,{}],\"s\":\"]}\\\"[\"} , 3, \"s,]\", {}\n]\n";
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kJson, input);
  const std::vector<Got> want = {{kSpec, "{\"a\":1}", 2, 2, 0, ""},
                                 {kSpec, "{\"b\":[1,{}],\"s\":\"]}\\\"[\"}", 3, 3, 1, ""},
                                 {kSpec, "3", 3, 30, 2, ""},
                                 {kSpec, "\"s,]\"", 3, 33, 3, ""},
                                 {kSpec, "{}", 3, 40, 4, ""}};
  EXPECT_EQ(got, want);
}

TEST(Json, OneDocumentOverManyLines) {
  SpecSplitter s(StreamFormat::kJson);
  s.Feed("  \n  {\n  \"a\": [1,\n 2]\n}\n\n");
  s.Finish();
  SpecPiece p;
  ASSERT_TRUE(s.Next(&p));
  EXPECT_EQ(p.kind, kSpec);
  EXPECT_EQ(p.text, "{\n  \"a\": [1,\n 2]\n}");
  EXPECT_EQ(p.at.line, 2u);
  EXPECT_EQ(p.at.column, 3u);
  EXPECT_FALSE(s.is_array());
  EXPECT_FALSE(s.Next(&p));
}

TEST(Json, TheArraysOwnSyntax) {
  struct Case { std::string input; std::vector<Got> want; } cases[] = {
      {"[]", {}},
      {" [ ] ", {}},
      {"", {{kError, "", 1, 1, 0, "unexpected end of input, expected a value"}}},
      {"[{}{}]", {{kSpec, "{}", 1, 2, 0, ""}, {kError, "", 1, 4, 1, "expected ',' or ']' after an array element, got an object"}}},
      {"[{},]", {{kSpec, "{}", 1, 2, 0, ""}, {kError, "", 1, 4, 1, "trailing comma before ']'"}}},
      {"[{}] x", {{kSpec, "{}", 1, 2, 0, ""}, {kError, "", 1, 6, 1, "unexpected text after the JSON value: 'x'"}}},
      {"{} {}", {{kSpec, "{}", 1, 1, 0, ""}, {kError, "", 1, 4, 1, "unexpected text after the JSON value: an object"}}},
      {"[{}", {{kSpec, "{}", 1, 2, 0, ""}, {kError, "", 1, 4, 1, "unexpected end of input in an array"}}},
      {"[{},", {{kSpec, "{}", 1, 2, 0, ""}, {kError, "", 1, 5, 1, "unexpected end of input in an array"}}},
      // Cut inside an element: the element's text goes to its parser, which says where it was cut.
      {"[{}, {\"a\":[1", {{kSpec, "{}", 1, 2, 0, ""}, {kSpec, "{\"a\":[1", 1, 6, 1, ""}}},
      // Brackets that do not match are the element's parser's business.
      {"[{]}, {}]", {{kSpec, "{]", 1, 2, 0, ""}, {kError, "", 1, 4, 1, "expected ',' or ']' after an array element, got '}'"}}},
  };
  for (const Case& c : cases) EXPECT_EQ(SplitEveryWay(StreamFormat::kJson, c.input), c.want) << c.input;
}

TEST(Json, AnOverLongElementIsSkippedAndTheNextOnesAreRead) {
  const std::string input = "[{\"a\":\"" + std::string(40, 'x') + "\"}, {\"b\":1},\n \"" + std::string(20, 'y') + "\", 7]";
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kJson, input, 16);
  const std::string msg = "the element is longer than 16 bytes, the limit for one spec (docs/schema.md); it was skipped";
  const std::vector<Got> want = {{kTooLong, "", 1, 2, 0, msg},
                                 {kSpec, "{\"b\":1}", 1, 52, 1, ""},
                                 {kTooLong, "", 2, 2, 2, msg},
                                 {kSpec, "7", 2, 26, 3, ""}};
  EXPECT_EQ(got, want);
}

TEST(Json, ABigArrayStreams) {
  // 100,000 elements (about 6 MB) in 64 KiB chunks: the buffer stays near one chunk.
  std::string input = "[";
  for (int i = 0; i < 100000; ++i) StrAppend(&input, i ? ",\n" : "", "{\"tensor_data_type\":\"bf16\",\"n\":", i, "}");
  input += "]";
  size_t cap = 0;
  const std::vector<Got> got = Split(StreamFormat::kJson, input, 64 << 10, kMaxSpecBytes, &cap);
  ASSERT_EQ(got.size(), 100000u);
  EXPECT_EQ(got.back().text, "{\"tensor_data_type\":\"bf16\",\"n\":99999}");
  EXPECT_EQ(got.back().line, 100000u);
  EXPECT_EQ(got.back().index, 99999u);
  EXPECT_LT(cap, size_t{256} << 10);
}

TEST(Textproto, BlocksBetweenSeparatorLines) {
  const std::string input = "a: 1\n---\n\n---  \r\nb: 2\nc: 3\n---\nd: 4";
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kTextproto, input);
  const std::vector<Got> want = {{kSpec, "a: 1\n", 1, 1, 0, ""}, {kSpec, "b: 2\nc: 3\n", 5, 1, 1, ""}, {kSpec, "d: 4", 8, 1, 2, ""}};
  EXPECT_EQ(got, want);
  // " ---" (leading space) is not a separator.
  EXPECT_EQ(Split(StreamFormat::kTextproto, "a: 1\n ---\nb: 2\n").size(), 1u);
}

TEST(Textproto, ASeparatorCutByAChunkEndsASkippedBlock) {
  // The block is over the limit; its "---" arrives in two chunks.
  SpecSplitter s(StreamFormat::kTextproto, 8);
  SpecPiece p;
  s.Feed(std::string(20, 'x') + "\n--");
  ASSERT_TRUE(s.Next(&p));
  EXPECT_EQ(p.kind, kTooLong);
  EXPECT_FALSE(s.Next(&p));
  s.Feed("-\nb: 2\n");
  s.Finish();
  ASSERT_TRUE(s.Next(&p));
  EXPECT_EQ(p.kind, kSpec);
  EXPECT_EQ(p.text, "b: 2\n");
  EXPECT_EQ(p.at.line, 3u);
}

TEST(Textproto, AnOverLongBlockIsSkipped) {
  const std::string input = "a: 1\n---\n" + std::string(30, 'x') + "\nmore\n---\nb: 2\n";
  const std::vector<Got> got = SplitEveryWay(StreamFormat::kTextproto, input, 12);
  const std::string msg = "the spec is longer than 12 bytes, the limit for one spec (docs/schema.md); it was skipped";
  const std::vector<Got> want = {{kSpec, "a: 1\n", 1, 1, 0, ""}, {kTooLong, "", 3, 1, 1, msg}, {kSpec, "b: 2\n", 6, 1, 2, ""}};
  EXPECT_EQ(got, want);
}

TEST(SpecSplitter, PiecesAreFollowedByPadding) {
  // simdjson reads json::kPadding bytes past a text; the splitter's buffer always has them.
  SpecSplitter s(StreamFormat::kJsonLines);
  s.Feed("{a}");
  s.Finish();
  SpecPiece p;
  ASSERT_TRUE(s.Next(&p));
  EXPECT_GE(s.capacity(), static_cast<size_t>(p.text.data() - s.buffer_begin()) + p.text.size() + json::kPadding);
}

// The buffer is not cleared when it grows: bytes a reader put in the room but did not commit, and room that
// was never written, are never part of a piece. Lines fed through Room with 0xFF written past what is
// committed, in chunks that make the buffer grow several times (from its first 64 bytes).
TEST(SpecSplitter, UncommittedRoomIsNeverRead) {
  std::string input;
  std::vector<Got> want;
  for (int i = 0; i < 400; ++i) {
    const std::string line = "{\"spec\":" + std::to_string(i) + std::string(static_cast<size_t>(i % 37), ' ') + "}";
    want.push_back(Got{kSpec, line, static_cast<size_t>(i + 1), 1, static_cast<size_t>(i), ""});
    input += line + "\n";
  }
  for (const size_t chunk : {size_t{1}, size_t{7}, size_t{100}, size_t{4096}, input.size()}) {
    SpecSplitter s(StreamFormat::kJsonLines);
    std::vector<Got> got;
    SpecPiece p;
    for (size_t i = 0; i < input.size(); i += chunk) {
      const std::string_view part = std::string_view(input).substr(i, chunk);
      char* room = s.Room(3 * part.size() + 50);
      std::memset(room, 0xFF, 3 * part.size() + 50);  // the reader's junk after what it commits
      std::memcpy(room, part.data(), part.size());
      s.Commit(part.size());
      while (s.Next(&p)) {
        got.push_back(Got{p.kind, std::string(p.text), p.at.line, p.at.column, p.index, p.message});
        EXPECT_GE(s.capacity(), static_cast<size_t>(p.text.data() - s.buffer_begin()) + p.text.size() + json::kPadding);
      }
    }
    s.Finish();
    while (s.Next(&p)) got.push_back(Got{p.kind, std::string(p.text), p.at.line, p.at.column, p.index, p.message});
    EXPECT_EQ(got, want) << "chunk " << chunk;
  }
}

}  // namespace
}  // namespace tmapgen
