// spec_stream.h: cuts a stream of spec files into one text per spec, in bounded memory.
//
// Contract
// - A SpecSplitter is fed the bytes of one input in chunks of any size and boundary (Feed, then Finish at
//   the end) and hands out its pieces in order (Next): the text of each spec, with the position of its
//   first byte in the file, or a problem with the stream. No I/O, no parsing of the specs themselves.
// - Formats:
//   * kJsonLines: one spec per line (LF, an optional CR before it removed). Blank lines are skipped but
//     counted. A line longer than max_spec_bytes is a kTooLong piece naming the line; its bytes are
//     dropped as they arrive (never held) and the lines after it are read as usual.
//   * kJson: one JSON value (a spec object) or an array of them. Array elements are found by their
//     brackets and strings (the elements themselves are parsed by the caller, so a broken element is that
//     element's error and the next ones are still read); the array's own syntax (',' between elements,
//     the closing ']', nothing after it) is checked here and a violation is a kError piece that ends the
//     stream. An element longer than max_spec_bytes is a kTooLong piece; reading goes on after it. A text
//     cut short inside an element ends with that element's text (its parser reports the cut).
//   * kTextproto: specs separated by lines holding only "---" (trailing spaces and CR ignored, the line
//     at most max_spec_bytes long); blocks of whitespace only are skipped; a block over max_spec_bytes is
//     a kTooLong piece.
// - Memory: at most one spec (<= max_spec_bytes) plus one chunk is held; a 500 MB array of small specs
//   never sits in memory at once.
// - Views: SpecPiece::text points into the splitter's buffer, is valid until the next Feed or Next call,
//   and is followed by at least json::kPadding readable bytes (for simdjson, see spec_json.h).
// - Positions are 1-based lines (LF) and columns (code points), as in json_diagnostics.h.
#ifndef TMAPGEN_SRC_SCHEMA_SPEC_STREAM_H_
#define TMAPGEN_SRC_SCHEMA_SPEC_STREAM_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/schema/json_diagnostics.h"

namespace tmapgen {

// The bound on one spec's text in every format (JSON Lines line, JSON array element, text-format block).
inline constexpr size_t kMaxSpecBytes = size_t{64} << 20;  // 64 MiB

enum class StreamFormat { kJsonLines, kJson, kTextproto };

struct SpecPiece {
  enum Kind { kSpec, kTooLong, kError };
  Kind kind = kSpec;
  std::string_view text;  // kSpec: the spec's text
  json::TextPos at;       // kSpec: of text[0]; kTooLong: the start of the spec; kError: where the problem is
  size_t index = 0;       // 0-based position among the specs of the input (kSpec and kTooLong pieces)
  std::string message;    // kTooLong, kError: what is wrong, without position
};

class SpecSplitter {
 public:
  explicit SpecSplitter(StreamFormat format, size_t max_spec_bytes = kMaxSpecBytes);

  void Feed(std::string_view chunk);
  // Feed without a copy: Room(n) returns where up to n more bytes of input may be written (in the
  // splitter's own buffer; valid until the next call), and Commit(k) feeds the first k <= n of them.
  // Feed(chunk) is Room(chunk.size()), a copy of chunk there, and Commit(chunk.size()).
  char* Room(size_t n);
  void Commit(size_t k);
  // The end of the input: the last line / value / block may lack its terminator.
  void Finish();
  // The next piece; false when more input is needed (or, after Finish(), at the end).
  bool Next(SpecPiece* piece);

  // kJson: whether the input is an array (known once the first value has started).
  bool is_array() const { return array_; }

  // The internal buffer's size and first byte (for tests of the memory bound and the padding).
  size_t capacity() const { return cap_; }
  const char* buffer_begin() const { return data_.get(); }

 private:
  bool NextLine(SpecPiece* piece);
  bool NextBlock(SpecPiece* piece);
  bool NextJson(SpecPiece* piece);
  // Moves the position over data_[from, to).
  void Advance(size_t from, size_t to);
  bool Emit(SpecPiece* piece, SpecPiece::Kind kind, size_t begin, size_t end, json::TextPos at, std::string message);
  std::string_view Bytes(size_t begin, size_t end) const { return std::string_view(data_.get() + begin, end - begin); }
  size_t SkipWs(size_t p);

  StreamFormat format_;
  size_t max_;
  // cap_ bytes, not cleared when grown (a std::vector<char> would zero-fill every resize): bytes [keep_, len_)
  // are unread; json::kPadding bytes follow len_, set to zero by the constructor and by Commit.
  std::unique_ptr<char[]> data_;
  size_t cap_ = 0;
  size_t len_ = 0;
  size_t keep_ = 0;         // nothing before this offset is needed any more
  size_t scan_ = 0;         // where scanning goes on
  json::TextPos pos_;       // position of data_[scan_]
  bool finished_ = false;
  bool done_ = false;
  size_t count_ = 0;        // spec pieces handed out

  // kJsonLines / kTextproto
  bool skipping_ = false;   // dropping an over-long line or block until its end
  size_t line_no_ = 0;      // lines ended so far
  bool partial_line_ = false;  // kTextproto: the start of the line at scan_ was dropped while skipping
  size_t block_begin_ = 0;  // kTextproto: start of the current block
  json::TextPos block_at_;

  // kJson
  enum class JsonState { kStart, kBeforeElement, kInElement, kAfterElement, kAfterTop };
  JsonState state_ = JsonState::kStart;
  bool array_ = false;
  bool first_element_ = true;
  json::TextPos comma_at_;
  size_t element_begin_ = 0;
  json::TextPos element_at_;
  int depth_ = 0;           // brackets open inside the element
  bool in_string_ = false;
  bool escape_ = false;
  char element_kind_ = 0;   // first byte of the element: '{', '[', '"' or a scalar's
  size_t element_bytes_ = 0;  // bytes of the element seen (also those dropped while skipping)
};

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_SPEC_STREAM_H_
