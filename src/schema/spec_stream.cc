// spec_stream.cc: see spec_stream.h for the contract.
#include "src/schema/spec_stream.h"

#include <algorithm>
#include <cstring>

#include "src/util/strings.h"

namespace tmapgen {
namespace {

// json::Describe looks at most this far (a string of 24 bytes and its quotes, a number of 32).
constexpr size_t kDescribeBytes = 40;

bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void Step(json::TextPos* pos, char c) {
  if (c == '\n') {
    ++pos->line;
    pos->column = 1;
  } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
    ++pos->column;
  }
}

// Whether a line that has not ended yet may still turn out to be a "---" separator.
bool CouldBeSeparator(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && i < 3 && s[i] == '-') ++i;
  if (i < 3) return i == s.size();
  for (; i < s.size(); ++i)
    if (s[i] != ' ' && s[i] != '\r') return false;
  return true;
}

bool Blank(std::string_view s) {
  for (const char c : s)
    if (!IsWs(c)) return false;
  return true;
}

std::string TooLongMessage(const char* what, size_t max) {
  return StrCat(what, " is longer than ", max, " bytes, the limit for one spec (docs/schema.md); it was skipped");
}

}  // namespace

SpecSplitter::SpecSplitter(StreamFormat format, size_t max_spec_bytes)
    : format_(format),
      max_(max_spec_bytes == 0 ? kMaxSpecBytes : max_spec_bytes),
      data_(new char[json::kPadding]()),
      cap_(json::kPadding) {}

char* SpecSplitter::Room(size_t n) {
  if (keep_ > 0) {  // drop what is no longer needed
    std::memmove(data_.get(), data_.get() + keep_, len_ - keep_);
    len_ -= keep_;
    scan_ -= keep_;
    if (block_begin_ >= keep_) block_begin_ -= keep_;
    if (element_begin_ >= keep_) element_begin_ -= keep_;
    keep_ = 0;
  }
  const size_t need = len_ + n + json::kPadding;
  if (need > cap_) {
    // Grow by doubling, but not past what one spec and a chunk can need. Only the unread bytes move; the
    // new room is not cleared (the caller writes it, and Commit clears the padding after what it wrote).
    const size_t most = std::max(need, max_ + n + json::kPadding);
    const size_t cap = std::max(need, std::min(cap_ * 2, most));
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (len_ > 0) std::memcpy(bigger.get(), data_.get(), len_);
    data_ = std::move(bigger);
    cap_ = cap;
  }
  return data_.get() + len_;
}

void SpecSplitter::Commit(size_t k) {
  if (finished_ || done_) return;
  len_ += k;
  std::memset(data_.get() + len_, 0, json::kPadding);  // the padding's bytes are set (their values do not matter)
}

void SpecSplitter::Feed(std::string_view chunk) {
  if (finished_ || done_) return;
  char* const p = Room(chunk.size());
  if (!chunk.empty()) std::memcpy(p, chunk.data(), chunk.size());
  Commit(chunk.size());
}

void SpecSplitter::Finish() { finished_ = true; }

bool SpecSplitter::Next(SpecPiece* piece) {
  switch (format_) {
    case StreamFormat::kJsonLines: return NextLine(piece);
    case StreamFormat::kTextproto: return NextBlock(piece);
    case StreamFormat::kJson: return NextJson(piece);
  }
  return false;
}

bool SpecSplitter::Emit(SpecPiece* piece, SpecPiece::Kind kind, size_t begin, size_t end, json::TextPos at,
                        std::string message) {
  piece->kind = kind;
  piece->text = kind == SpecPiece::kSpec ? Bytes(begin, end) : std::string_view();
  piece->at = at;
  piece->index = kind == SpecPiece::kError ? count_ : count_++;
  piece->message = std::move(message);
  return true;
}

void SpecSplitter::Advance(size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) Step(&pos_, data_[i]);
}

size_t SpecSplitter::SkipWs(size_t p) {
  while (p < len_ && IsWs(data_[p])) Step(&pos_, data_[p++]);
  scan_ = p;
  return p;
}

// ------------------------------------------------------------------------------------------- JSON Lines

bool SpecSplitter::NextLine(SpecPiece* piece) {
  while (!done_) {
    const char* base = data_.get();
    const void* hit = std::memchr(base + scan_, '\n', len_ - scan_);
    if (skipping_) {  // the rest of an over-long line
      if (hit == nullptr) {
        keep_ = scan_ = len_;
        if (finished_) done_ = true;
        return false;
      }
      keep_ = scan_ = static_cast<size_t>(static_cast<const char*>(hit) - base) + 1;
      ++line_no_;
      skipping_ = false;
      continue;
    }
    size_t end, next;
    if (hit == nullptr) {
      if (len_ - scan_ > max_) {  // too long already, before its end: drop it as it comes
        skipping_ = true;
        keep_ = scan_ = len_;
        return Emit(piece, SpecPiece::kTooLong, 0, 0, json::TextPos{line_no_ + 1, 1}, TooLongMessage("the line", max_));
      }
      if (!finished_) {
        keep_ = scan_;
        return false;
      }
      if (scan_ == len_) {
        done_ = true;
        return false;
      }
      end = next = len_;  // the last line, without LF
    } else {
      end = static_cast<size_t>(static_cast<const char*>(hit) - base);
      next = end + 1;
    }
    const size_t begin = scan_;
    keep_ = scan_ = next;
    ++line_no_;
    if (end - begin > max_)
      return Emit(piece, SpecPiece::kTooLong, 0, 0, json::TextPos{line_no_, 1}, TooLongMessage("the line", max_));
    size_t e = end;
    if (e > begin && base[e - 1] == '\r') --e;
    if (e == begin || (base[begin] != '{' && Blank(Bytes(begin, e)))) continue;
    return Emit(piece, SpecPiece::kSpec, begin, e, json::TextPos{line_no_, 1}, std::string());
  }
  return false;
}

// ------------------------------------------------------------------------------------------- text format

bool SpecSplitter::NextBlock(SpecPiece* piece) {
  while (!done_) {
    const char* base = data_.get();
    const void* hit = std::memchr(base + scan_, '\n', len_ - scan_);
    if (hit == nullptr) {  // [scan_, len_) is the start of a line
      // The block's bytes so far: without that line when it may still be the separator that ends it.
      const bool maybe_separator = !partial_line_ && len_ - scan_ <= max_ && CouldBeSeparator(Bytes(scan_, len_));
      if (!skipping_ && (maybe_separator ? scan_ : len_) - block_begin_ > max_) {
        skipping_ = true;
        return Emit(piece, SpecPiece::kTooLong, 0, 0, block_at_, TooLongMessage("the spec", max_));
      }
      if (!skipping_) {
        keep_ = block_begin_;
      } else if (maybe_separator) {
        keep_ = scan_;  // it may be the "---" that ends the skipped block: keep it whole
      } else {
        keep_ = scan_ = len_;  // drop it; the rest of this line cannot make it a separator
        partial_line_ = true;
      }
      if (!finished_) return false;
      done_ = true;
      if (skipping_ || Blank(Bytes(block_begin_, len_))) return false;
      if (len_ - block_begin_ > max_) return Emit(piece, SpecPiece::kTooLong, 0, 0, block_at_, TooLongMessage("the spec", max_));
      return Emit(piece, SpecPiece::kSpec, block_begin_, len_, block_at_, std::string());
    }
    const size_t end = static_cast<size_t>(static_cast<const char*>(hit) - base);
    const size_t next = end + 1;
    const size_t line_begin = scan_;
    const bool partial = partial_line_;
    partial_line_ = false;
    scan_ = next;
    ++line_no_;
    std::string_view l = Bytes(line_begin, end);
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
    if (partial || l != "---" || end - line_begin > max_) {  // a separator line is at most max_ bytes too
      if (skipping_) keep_ = scan_;
      continue;
    }
    const size_t begin = block_begin_;
    const json::TextPos at = block_at_;
    const bool was_skipping = skipping_;
    block_begin_ = keep_ = next;
    block_at_ = json::TextPos{line_no_ + 1, 1};
    skipping_ = false;
    if (was_skipping) continue;
    if (line_begin - begin > max_) return Emit(piece, SpecPiece::kTooLong, 0, 0, at, TooLongMessage("the spec", max_));
    if (Blank(Bytes(begin, line_begin))) continue;
    return Emit(piece, SpecPiece::kSpec, begin, line_begin, at, std::string());
  }
  return false;
}

// ------------------------------------------------------------------------------------------- JSON

bool SpecSplitter::NextJson(SpecPiece* piece) {
  while (!done_) {
    switch (state_) {
      case JsonState::kStart:
      case JsonState::kBeforeElement: {
        const bool start = state_ == JsonState::kStart;
        const size_t p = SkipWs(scan_);
        keep_ = scan_;
        if (p == len_) {
          if (!finished_) return false;
          done_ = true;
          return Emit(piece, SpecPiece::kError, 0, 0, pos_,
                      start ? "unexpected end of input, expected a value" : "unexpected end of input in an array");
        }
        const char c = data_[p];
        if (start && c == '[') {
          array_ = true;
          Step(&pos_, c);
          scan_ = p + 1;
          state_ = JsonState::kBeforeElement;
          continue;
        }
        if (!start && c == ']') {
          if (!first_element_) {
            done_ = true;
            return Emit(piece, SpecPiece::kError, 0, 0, comma_at_, "trailing comma before ']'");
          }
          Step(&pos_, c);
          scan_ = p + 1;
          state_ = JsonState::kAfterTop;
          continue;
        }
        element_begin_ = p;
        element_at_ = pos_;
        element_kind_ = c;
        element_bytes_ = 0;
        depth_ = 0;
        in_string_ = escape_ = false;
        state_ = JsonState::kInElement;
        continue;
      }
      case JsonState::kInElement: {
        const bool bracketed = element_kind_ == '{' || element_kind_ == '[';
        const bool quoted = element_kind_ == '"';
        bool complete = false;
        size_t i = scan_;
        for (; i < len_; ++i) {
          const char c = data_[i];
          if (!bracketed && !quoted && (IsWs(c) || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' ||
                                        (c == '"' && element_bytes_ > 0))) {
            complete = true;  // a scalar ends before the byte that cannot be part of it
            break;
          }
          Step(&pos_, c);
          ++element_bytes_;
          if (in_string_) {
            if (escape_) escape_ = false;
            else if (c == '\\') escape_ = true;
            else if (c == '"') {
              in_string_ = false;
              if (quoted) complete = true;
            }
          } else if (c == '"') {
            in_string_ = true;
          } else if (bracketed && (c == '{' || c == '[')) {
            ++depth_;
          } else if (bracketed && (c == '}' || c == ']')) {
            if (--depth_ == 0) complete = true;
          }
          if (element_bytes_ > max_ && !skipping_) {
            skipping_ = true;
            scan_ = keep_ = i + 1;
            if (complete) {
              state_ = JsonState::kAfterElement;
              skipping_ = false;
            }
            return Emit(piece, SpecPiece::kTooLong, 0, 0, element_at_, TooLongMessage("the element", max_));
          }
          if (complete) {
            ++i;
            break;
          }
        }
        scan_ = i;
        if (!complete) {
          keep_ = skipping_ ? scan_ : element_begin_;
          if (!finished_) return false;
          done_ = true;  // cut short inside the element: its parser says so
          if (skipping_) return false;
          return Emit(piece, SpecPiece::kSpec, element_begin_, len_, element_at_, std::string());
        }
        state_ = JsonState::kAfterElement;
        keep_ = scan_;
        if (skipping_) {
          skipping_ = false;
          continue;
        }
        return Emit(piece, SpecPiece::kSpec, element_begin_, scan_, element_at_, std::string());
      }
      case JsonState::kAfterElement: {
        if (!array_) {
          state_ = JsonState::kAfterTop;
          continue;
        }
        const size_t p = SkipWs(scan_);
        keep_ = scan_;
        if (p == len_) {
          if (!finished_) return false;
          done_ = true;
          return Emit(piece, SpecPiece::kError, 0, 0, pos_, "unexpected end of input in an array");
        }
        const char c = data_[p];
        if (c == ',' || c == ']') {
          if (c == ',') comma_at_ = pos_;
          Step(&pos_, c);
          scan_ = keep_ = p + 1;
          first_element_ = false;
          state_ = c == ',' ? JsonState::kBeforeElement : JsonState::kAfterTop;
          continue;
        }
        if (!finished_ && len_ - p < kDescribeBytes) return false;  // the same words whatever the chunks
        done_ = true;
        return Emit(piece, SpecPiece::kError, 0, 0, pos_,
                    StrCat("expected ',' or ']' after an array element, got ", json::Describe(Bytes(p, len_), 0)));
      }
      case JsonState::kAfterTop: {
        const size_t p = SkipWs(scan_);
        keep_ = scan_;
        if (p == len_) {
          if (finished_) done_ = true;
          return false;
        }
        if (!finished_ && len_ - p < kDescribeBytes) return false;
        done_ = true;
        return Emit(piece, SpecPiece::kError, 0, 0, pos_,
                    StrCat("unexpected text after the JSON value: ", json::Describe(Bytes(p, len_), 0)));
      }
    }
  }
  return false;
}

}  // namespace tmapgen
