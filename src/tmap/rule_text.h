// rule_text.h: the text of a rule's message, fix or field path, written where it is wanted.
//
// Contract
// - TextOut is where a text is written: a range of memory filled through a pointer, one bounds test per
//   piece, grown (out of line, rarely) when a piece does not fit. It is the one interface of the rule texts
//   of src/tmap/rules/: each writes its text into the TextOut it is handed, so that explaining a finding
//   costs no temporary text and no copy. Two kinds exist:
//   - RuleText: a text of its own, held inline (kInline bytes) and moved to the heap once when it grows
//     longer, so appending never truncates. Building one costs no allocation below kInline bytes.
//   - TextArena (src/report/diagnostics.h uses it): one growing buffer that many texts are written into one
//     after the other, reused from call to call; a report's diagnostics are views into it.
// - TextCat(args...) makes a RuleText of its arguments in order: string literals and other char arrays
//   (up to their first NUL), const char*, std::string, std::string_view, absl::string_view, RuleText, char
//   (one character), integers of any width and signedness except char (in decimal; signed char and
//   unsigned char are numbers, as with absl::StrCat), and the small text values below (Bytes).
// - TextAppend(&out, args...) appends the same pieces to any TextOut and returns void, so that a rule text
//   can end in `return TextAppend(&o, ...);`.
// - When(condition, pieces...) is one piece: the pieces when the condition holds, else nothing, so that a text
//   whose parts depend on conditions is one TextAppend (one bounds test) rather than one per part.
// - RuleText converts to std::string_view (a view into it, valid while it lives) and, by str(), to std::string.
// - A text is never appended to itself (its memory may move while it grows).
#ifndef TMAPGEN_SRC_TMAP_RULE_TEXT_H_
#define TMAPGEN_SRC_TMAP_RULE_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/strings/string_view.h"
#include "src/util/decimal.h"

namespace tmapgen {

// TextCat and its pieces are inlined at every call so that a literal's length is a constant there and its
// copy a few moves (an out-of-line TextCat would call strlen and memcpy for every piece).
#define TMAPGEN_TEXT_INLINE inline __attribute__((always_inline))

namespace rule_text_internal {
using decimal::WriteDecimal;  // src/util/decimal.h: the digits of every number a text prints

// Copies n bytes to p. A length known at compile time (a literal's) is left to memcpy, which the compiler
// turns into moves; any other (an enumerator's name, a text made before) would be a call to the library's
// memcpy, about a dozen instructions and the call's own for a name of a few bytes, so up to 32 bytes are
// copied inline, in two moves that overlap in the middle. For TextAppend's pieces only: TextOut::Append keeps
// memcpy, because with this code inlined wherever it is used, GCC stopped inlining a check into RunRules in
// rules.cc (which appends field paths), and Validate of a rejected spec took 15 instructions more.
template <typename Word>  // n is between sizeof(Word) and twice that
TMAPGEN_TEXT_INLINE void CopyTwo(char* p, const char* s, size_t n) {
  constexpr size_t w = sizeof(Word);
  Word head, tail;
  std::memcpy(&head, s, w);
  std::memcpy(&tail, s + n - w, w);
  std::memcpy(p, &head, w);
  std::memcpy(p + n - w, &tail, w);
}
struct Word16 {
  char b[16];
};
TMAPGEN_TEXT_INLINE void Copy(char* p, const char* s, size_t n) {
  if (__builtin_constant_p(n) || n > 32) {
    if (n != 0) std::memcpy(p, s, n);
    return;
  }
  if (n >= 16) return CopyTwo<Word16>(p, s, n);
  if (n >= 8) return CopyTwo<uint64_t>(p, s, n);
  if (n >= 4) return CopyTwo<uint32_t>(p, s, n);
  if (n != 0) {  // 1 to 3 bytes
    p[0] = s[0];
    p[n / 2] = s[n / 2];
    p[n - 1] = s[n - 1];
  }
}
}  // namespace rule_text_internal

// Where a text is written. Not copyable: a TextOut points into memory its owner holds.
class TextOut {
 public:
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  TMAPGEN_TEXT_INLINE void Append(const char* s, size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) Grow(n);
    if (n != 0) std::memcpy(p_, s, n);  // the test folds away for a literal
    p_ += n;
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  TMAPGEN_TEXT_INLINE void AppendChar(char c) {
    if (p_ == end_) Grow(1);
    *p_++ = c;
  }
  // Room for n more bytes, at the returned pointer: a writer that knows the most it will write (TextAppend)
  // tests once, fills the room through a pointer held in a register, and ends with Commit(end of its bytes).
  TMAPGEN_TEXT_INLINE char* Reserve(size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) Grow(n);
    return p_;
  }
  TMAPGEN_TEXT_INLINE void Commit(char* end) { p_ = end; }
  TextOut& operator+=(std::string_view s) {
    Append(s.data(), s.size());
    return *this;
  }
  TextOut& operator+=(const char* s) {
    Append(s, std::strlen(s));
    return *this;
  }
  TextOut& operator+=(char c) {
    AppendChar(c);
    return *this;
  }

  // Everything written so far (for a TextArena: every text since the last Clear).
  const char* data() const { return begin_; }
  size_t size() const { return static_cast<size_t>(p_ - begin_); }
  const char* end() const { return p_; }  // data() + size(): where the next byte goes
  bool empty() const { return p_ == begin_; }
  std::string_view view() const { return std::string_view(begin_, size()); }

 protected:
  // Called when `need` more bytes do not fit: must leave room for them (begin_/p_/end_ moved to larger memory
  // holding what was written).
  using GrowFn = void (*)(TextOut* t, size_t need);
  TextOut(char* begin, char* end, GrowFn grow) : begin_(begin), p_(begin), end_(end), grow_(grow) {}
  ~TextOut() = default;
  // Points the text at memory [begin, end) that holds its `used` bytes.
  void Rebase(char* begin, size_t used, char* end) {
    begin_ = begin;
    p_ = begin + used;
    end_ = end;
  }
  size_t capacity() const { return static_cast<size_t>(end_ - begin_); }
  void Rewind() { p_ = begin_; }
  // Moves the text to a new heap block with room for `need` more bytes: twice the present capacity, at least
  // `min_capacity`. *heap, the owner's block (null before the first), is freed and replaced.
  void MoveToHeap(char** heap, size_t need, size_t min_capacity) {
    const size_t used = size();
    size_t cap = 2 * capacity();
    if (cap < min_capacity) cap = min_capacity;
    if (cap < used + need) cap = used + need;
    char* block = new char[cap];
    if (used != 0) std::memcpy(block, begin_, used);
    delete[] *heap;
    *heap = block;
    Rebase(block, used, block + cap);
  }

 private:
  __attribute__((noinline)) void Grow(size_t need) { grow_(this, need); }


  char* begin_;
  char* p_;
  char* end_;
  GrowFn grow_;
};

// A text of its own: inline up to kInline bytes, then on the heap.
class RuleText : public TextOut {
 public:
  static constexpr size_t kInline = 480;

  RuleText() : TextOut(buf_, buf_ + kInline, &GrowRuleText) {}
  RuleText(const char* s) : RuleText() { Append(s, std::strlen(s)); }          // NOLINT: implicit on purpose
  RuleText(std::string_view s) : RuleText() { Append(s.data(), s.size()); }    // NOLINT
  RuleText(const std::string& s) : RuleText() { Append(s.data(), s.size()); }  // NOLINT
  RuleText(const RuleText& o) : RuleText() { Append(o.data(), o.size()); }
  RuleText& operator=(const RuleText& o) {
    if (this != &o) {
      Rewind();
      Append(o.data(), o.size());
    }
    return *this;
  }
  ~RuleText() { delete[] heap_; }

  void Clear() { Rewind(); }
  operator std::string_view() const { return view(); }  // NOLINT: implicit on purpose
  std::string str() const { return std::string(data(), size()); }
  bool operator==(std::string_view s) const { return view() == s; }
  bool operator!=(std::string_view s) const { return view() != s; }

 private:
  static void GrowRuleText(TextOut* t, size_t need) {
    RuleText* r = static_cast<RuleText*>(t);
    r->MoveToHeap(&r->heap_, need, 0);
  }

  char* heap_ = nullptr;  // owned; null while the text is inline
  char buf_[kInline];
};

// Many texts, one after the other, in one buffer that grows (doubling) and is kept from use to use: Clear()
// forgets the texts, not the memory. A text is a range [start, end) of offsets (size() before and after it
// was written); views into data() stay valid until the next append that grows the buffer, or Clear().
class TextArena : public TextOut {
 public:
  TextArena() : TextOut(nullptr, nullptr, &GrowArena) {}
  TextArena(TextArena&& o) noexcept : TextArena() { Take(&o); }
  TextArena& operator=(TextArena&& o) noexcept {
    if (this != &o) {
      delete[] heap_;
      heap_ = nullptr;
      Rebase(nullptr, 0, nullptr);
      Take(&o);
    }
    return *this;
  }
  ~TextArena() { delete[] heap_; }

  void Clear() { Rewind(); }
  std::string_view Range(size_t start, size_t end) const { return std::string_view(data() + start, end - start); }

 private:
  void Take(TextArena* o) {
    heap_ = o->heap_;
    Rebase(o->heap_, o->size(), o->heap_ + o->capacity());
    o->heap_ = nullptr;
    o->Rebase(nullptr, 0, nullptr);
  }
  static void GrowArena(TextOut* t, size_t need) {
    TextArena* a = static_cast<TextArena*>(t);
    a->MoveToHeap(&a->heap_, need, 4096);
  }

  char* heap_ = nullptr;  // owned
};

// The text of a byte count given in bits: "600 B", or "0.500 B" for a sub-byte count (4 bits), as the
// messages print element and row sizes of the packed types.
struct Bytes {
  int64_t bits;
};

namespace rule_text_internal {

// For each kind of piece: the most bytes it takes, and writing it at p (returning the end of what it wrote).
template <size_t N>
constexpr size_t MostBytes(const char (&s)[N]) {
  return std::char_traits<char>::length(s);  // a literal's length folds to a constant when inlined
}
template <size_t N>
TMAPGEN_TEXT_INLINE char* Write(char* p, const char (&s)[N]) {
  const size_t n = std::char_traits<char>::length(s);
  std::memcpy(p, s, n);
  return p + n;
}
TMAPGEN_TEXT_INLINE size_t MostBytes(std::string_view s) { return s.size(); }
TMAPGEN_TEXT_INLINE char* Write(char* p, std::string_view s) {
  Copy(p, s.data(), s.size());
  return p + s.size();
}
TMAPGEN_TEXT_INLINE size_t MostBytes(const char* s) { return std::strlen(s); }
TMAPGEN_TEXT_INLINE char* Write(char* p, const char* s) { return Write(p, std::string_view(s)); }
TMAPGEN_TEXT_INLINE size_t MostBytes(const std::string& s) { return s.size(); }
TMAPGEN_TEXT_INLINE char* Write(char* p, const std::string& s) { return Write(p, std::string_view(s)); }
TMAPGEN_TEXT_INLINE size_t MostBytes(absl::string_view s) { return s.size(); }
TMAPGEN_TEXT_INLINE char* Write(char* p, absl::string_view s) { return Write(p, std::string_view(s.data(), s.size())); }
TMAPGEN_TEXT_INLINE size_t MostBytes(const TextOut& s) { return s.size(); }
TMAPGEN_TEXT_INLINE char* Write(char* p, const TextOut& s) { return Write(p, s.view()); }
constexpr size_t MostBytes(char) { return 1; }
TMAPGEN_TEXT_INLINE char* Write(char* p, char c) {
  *p = c;
  return p + 1;
}
template <typename T>
using IfNumber = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>>;
template <typename T, typename = IfNumber<T>>
constexpr size_t MostBytes(T) {
  return 21;  // 20 digits and a sign
}
template <typename T, typename = IfNumber<T>>
TMAPGEN_TEXT_INLINE char* Write(char* p, T v) {
  if constexpr (std::is_signed_v<T>) {
    return decimal::WriteSigned(static_cast<int64_t>(v), p);
  } else {
    return WriteDecimal(static_cast<uint64_t>(v), false, p);
  }
}
// As the texts always wrote it: bits / 8, then "." and the eighths in thousandths when there are any.
constexpr size_t MostBytes(Bytes) { return 21 + 1 + 21 + 2; }
TMAPGEN_TEXT_INLINE char* Write(char* p, Bytes b) {
  p = Write(p, b.bits / 8);
  if (b.bits % 8 != 0) {
    *p++ = '.';
    p = Write(p, (b.bits % 8) * 125);
  }
  std::memcpy(p, " B", 2);
  return p + 2;
}

// When(): the pieces, referred to (they live until the end of the TextAppend they are handed to). Expanded
// by index here rather than by std::apply, which the compiler may leave out of line, and with it the lengths
// of the literals (strlen calls).
template <typename... Pieces>
struct Optional {
  bool on;
  std::tuple<const Pieces&...> pieces;
};
template <typename Tuple, size_t... I>
TMAPGEN_TEXT_INLINE size_t MostBytesOfAll(const Tuple& t, std::index_sequence<I...>) {
  return (MostBytes(std::get<I>(t)) + ... + size_t{0});
}
template <typename Tuple, size_t... I>
TMAPGEN_TEXT_INLINE char* WriteAll(char* p, const Tuple& t, std::index_sequence<I...>) {
  ((p = Write(p, std::get<I>(t))), ...);
  return p;
}
template <typename... Pieces>
TMAPGEN_TEXT_INLINE size_t MostBytes(const Optional<Pieces...>& w) {
  return MostBytesOfAll(w.pieces, std::index_sequence_for<Pieces...>{});
}
template <typename... Pieces>
TMAPGEN_TEXT_INLINE char* Write(char* p, const Optional<Pieces...>& w) {
  return w.on ? WriteAll(p, w.pieces, std::index_sequence_for<Pieces...>{}) : p;
}

}  // namespace rule_text_internal

template <typename... Pieces>
TMAPGEN_TEXT_INLINE rule_text_internal::Optional<Pieces...> When(bool on, const Pieces&... pieces) {
  return {on, std::tuple<const Pieces&...>(pieces...)};
}

// TextAppend(&t, args...) appends to t what TextCat(args...) would make: one text built in place where its
// pieces depend on conditions, instead of temporaries (and std::strings) joined afterwards. It reserves the
// most the pieces can take (a literal's length, 21 bytes per integer, a view's size) once, then writes them
// through a local pointer: one bounds test per call, not per piece.
template <typename... Args>
TMAPGEN_TEXT_INLINE void TextAppend(TextOut* t, const Args&... args) {
  const size_t most = (rule_text_internal::MostBytes(args) + ... + size_t{0});
  char* p = t->Reserve(most);
  ((p = rule_text_internal::Write(p, args)), ...);
  t->Commit(p);
}

template <typename... Args>
TMAPGEN_TEXT_INLINE RuleText TextCat(const Args&... args) {
  RuleText t;
  TextAppend(&t, args...);
  return t;
}

}  // namespace tmapgen

#undef TMAPGEN_TEXT_INLINE

#endif  // TMAPGEN_SRC_TMAP_RULE_TEXT_H_
