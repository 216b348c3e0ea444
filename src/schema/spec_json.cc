// spec_json.cc: see spec_json.h for the contract.
//
// Reading: a text in the common form is read by FastReader, one pass without simdjson (docs/lab/perf-history.md
// section 13); any other text, and every error, by the full reader: simdjson's On-Demand front end walks
// the object once and each field is read straight into the spec (docs/lab/perf-history.md, section 13, measures it against
// the DOM front end). simdjson reports failures as codes without
// a place; the first failure is then explained and placed by json_diagnostics (FindSyntaxError for text
// that is not JSON, Describe for "got ..."), on the error path only.
#include "src/schema/spec_json.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen {
namespace {

// Each byte's value as a hex digit, or 0x10 for a byte that is none.
struct HexValues {
  uint8_t v[256];
  constexpr HexValues() : v() {
    for (int c = 0; c < 256; ++c)
      v[c] = c >= '0' && c <= '9' ? static_cast<uint8_t>(c - '0')
             : c >= 'a' && c <= 'f' ? static_cast<uint8_t>(c - 'a' + 10)
             : c >= 'A' && c <= 'F' ? static_cast<uint8_t>(c - 'A' + 10)
                                    : uint8_t{0x10};
  }
};
constexpr HexValues kHexValue;

// An address written as a string: "0x..." (hex) or decimal digits, the whole text, within 64 bits. What went wrong
// is told by the result: std::errc::result_out_of_range for more than 64 bits, another error otherwise.
std::errc ParseAddressText(std::string_view sv, uint64_t* out) {
  int base = 10;
  if (sv.size() > 2 && sv[0] == '0' && (sv[1] == 'x' || sv[1] == 'X')) {
    sv.remove_prefix(2);
    base = 16;
  }
  uint64_t x = 0;
  if (base == 16 && !sv.empty() && sv.size() <= 16) {
    // Up to 16 hex digits cannot overflow: read them directly (from_chars checks for overflow at each digit);
    // anything else is left to from_chars below, whose answer this is on the texts it accepts.
    unsigned bad = 0;
    for (const char c : sv) {
      const uint8_t v = kHexValue.v[static_cast<unsigned char>(c)];
      bad |= v;
      x = x << 4 | (v & 15u);
    }
    if ((bad & 0x10u) == 0) {
      *out = x;
      return std::errc();
    }
    x = 0;
  }
  const auto res = std::from_chars(sv.data(), sv.data() + sv.size(), x, base);
  if (res.ec != std::errc()) return res.ec;
  if (sv.empty() || res.ptr != sv.data() + sv.size()) return std::errc::invalid_argument;
  *out = x;
  return std::errc();
}

namespace od = simdjson::ondemand;
static_assert(json::kPadding >= simdjson::SIMDJSON_PADDING, "json::kPadding must cover simdjson's padding");

struct KeyInfo {
  std::string_view name;
  uint32_t field;
};
constexpr std::array<KeyInfo, 26> kKeys = {{
    {"name", kFieldName},
    {"mode", kFieldMode},
    {"direction", kFieldDirection},
    {"reduce_op", kFieldReduceOp},
    {"tensor_data_type", kFieldDataType},
    {"tensor_rank", kFieldRank},
    {"global_address", kFieldGlobalAddress},
    {"global_dim", kFieldGlobalDim},
    {"global_strides", kFieldGlobalStrides},
    {"box_dim", kFieldBoxDim},
    {"element_strides", kFieldElementStrides},
    {"interleave", kFieldInterleave},
    {"swizzle", kFieldSwizzle},
    {"l2_promotion", kFieldL2Promotion},
    {"oob_fill", kFieldOobFill},
    {"pixel_box_lower_corner", kFieldLowerCorner},
    {"pixel_box_upper_corner", kFieldUpperCorner},
    {"pixel_box_lower_corner_width", kFieldLowerCornerWidth},
    {"pixel_box_upper_corner_width", kFieldUpperCornerWidth},
    {"channels_per_pixel", kFieldChannelsPerPixel},
    {"pixels_per_column", kFieldPixelsPerColumn},
    {"wide_mode", kFieldWideMode},
    {"target", kFieldTarget},
    {"smem_address", kFieldSmemAddress},
    {"smem_alignment", kFieldSmemAlignment},
    {"driver_version", kFieldDriverVersion},
}};

// The index in kKeys of a field's key (for switches on the index).
constexpr size_t KeyOf(uint32_t field) {
  for (size_t i = 0; i < kKeys.size(); ++i)
    if (kKeys[i].field == field) return i;
  return kKeys.size();
}

constexpr bool KeyLengthsFit() {
  for (const KeyInfo& k : kKeys)
    if (k.name.size() < 4 || k.name.size() > 29) return false;
  return true;
}
static_assert(KeyLengthsFit(), "FindKey takes keys of 4..29 bytes (its hash and SameBytes read 4 bytes at least; "
                               "a key with its quotes and colon fits the fast path's 32-byte patterns)");

// A key's hash: three 4-byte words (first, middle, last; they overlap in short keys) and the length,
// times a multiplier; the top 7 bits pick one of 128 slots. The multiplier is the first of a fixed
// sequence for which no two keys share a slot (found at compile time), so a key is found with one
// hash and one compare. Only for keys of 4..kMaxLen bytes.
constexpr uint32_t Word4(const char* p) {
  return static_cast<uint32_t>(static_cast<unsigned char>(p[0])) |
         static_cast<uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<uint32_t>(static_cast<unsigned char>(p[2])) << 16 |
         static_cast<uint32_t>(static_cast<unsigned char>(p[3])) << 24;
}
inline uint32_t LoadWord4(const char* p) {
  uint32_t x;
  std::memcpy(&x, p, 4);
  return x;  // little-endian hosts: the same as Word4 (checked below)
}
constexpr uint32_t KeyMix(uint32_t first, uint32_t middle, uint32_t last, size_t n) {
  return first + last * 3u + middle * 5u + static_cast<uint32_t>(n);
}
constexpr uint32_t KeyMultiplier(uint32_t i) { return (i * 2654435761u + 12345u) | 1u; }
struct KeyTable {
  static constexpr size_t kMaxLen = 32;
  uint32_t multiplier = 0;
  std::array<uint8_t, 128> slot{};  // 1 + index into kKeys, 0: empty
  constexpr KeyTable() {
    for (uint32_t i = 1; i < 4096 && multiplier == 0; ++i) {
      const uint32_t m = KeyMultiplier(i);
      std::array<uint8_t, 128> t{};
      bool ok = true;
      for (size_t k = 0; k < kKeys.size() && ok; ++k) {
        const char* p = kKeys[k].name.data();
        const size_t n = kKeys[k].name.size();
        const uint32_t h = (KeyMix(Word4(p), Word4(p + n / 2 - 2), Word4(p + n - 4), n) * m) >> 25;
        if (t[h] != 0) ok = false;
        t[h] = static_cast<uint8_t>(k + 1);
      }
      if (ok) multiplier = m, slot = t;
    }
  }
};
constexpr KeyTable kKeyTable;
static_assert(kKeyTable.multiplier != 0, "no collision-free multiplier for the keys: widen the search");

// a == b for n bytes, n >= 4, inline: word loads, the last one overlapping (no call to memcmp).
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n < 8) {
    uint32_t x, y, x2, y2;
    std::memcpy(&x, a, 4), std::memcpy(&y, b, 4);
    std::memcpy(&x2, a + n - 4, 4), std::memcpy(&y2, b + n - 4, 4);
    return ((x ^ y) | (x2 ^ y2)) == 0;
  }
  uint64_t diff = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8), std::memcpy(&y, b + i, 8);
    diff |= x ^ y;
  }
  if (i < n) {
    uint64_t x, y;
    std::memcpy(&x, a + n - 8, 8), std::memcpy(&y, b + n - 8, 8);
    diff |= x ^ y;
  }
  return diff == 0;
}

inline const KeyInfo* FindKey(std::string_view key) {
  const size_t n = key.size();
  if (n < 4 || n > KeyTable::kMaxLen) return nullptr;
  const char* p = key.data();
  uint32_t first = LoadWord4(p), middle = LoadWord4(p + n / 2 - 2), last = LoadWord4(p + n - 4);
  if constexpr (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) first = Word4(p), middle = Word4(p + n / 2 - 2), last = Word4(p + n - 4);
  const uint8_t s = kKeyTable.slot[(KeyMix(first, middle, last, n) * kKeyTable.multiplier) >> 25];
  if (s == 0) return nullptr;
  const KeyInfo& k = kKeys[s - 1];
  return k.name.size() == n && SameBytes(k.name.data(), p, n) ? &k : nullptr;
}

std::string Suggest(std::string_view key) {
  for (const KeyInfo& k : kKeys) {  // a prefix is the likeliest slip ("box" for "box_dim")
    if (key.size() >= 3 && k.name.substr(0, key.size()) == key) return StrCat(" (did you mean \"", k.name, "\"?)");
  }
  size_t best = 99;
  std::string_view name;
  for (const KeyInfo& k : kKeys) {
    const size_t d = EditDistance(key, k.name);
    if (d < best) {
      best = d;
      name = k.name;
    }
  }
  if (best <= 3) return StrCat(" (did you mean \"", name, "\"?)");
  return "";
}

// The first '"' or '\\' at or after p, 16 bytes at a time. Only for p inside a text that stage 1 accepted
// (every string closed) and that is followed by simdjson's padding, so the 16-byte loads stay in the buffer.
inline const char* QuoteOrBackslash(const char* p) {
#if defined(__SSE2__)
  for (;; p += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))));
    if (m != 0) return p + __builtin_ctz(m);
  }
#else
  while (*p != '"' && *p != '\\') ++p;
  return p;
#endif
}

// ParseDriverVersion without the error's text (the fast path reads many).
bool DriverVersionOf(std::string_view s, uint32_t* out) {
  const size_t dot = s.find('.');
  uint32_t major = 0, minor = 0;
  if (dot == std::string_view::npos) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), major);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
    if (major < 1000) major *= 1000;  // "13" means 13.0
    *out = major;
    return true;
  }
  auto r1 = std::from_chars(s.data(), s.data() + dot, major);
  auto r2 = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
  if (dot == 0 || dot + 1 >= s.size() || r1.ec != std::errc() || r1.ptr != s.data() + dot || r2.ec != std::errc() ||
      r2.ptr != s.data() + s.size() || major > 999 || minor > 99)
    return false;
  *out = major * 1000 + minor * 10;
  return true;
}

// ------------------------------------------------------------------------------------------ fast path

// What the fast path keeps from text to text: the count of texts it read, and for each key (and the
// object's start, index kKeys.size()) the key that followed it last time, tried first at the next key
// (files repeat their key order; a guess only saves time, what is read is the same).
// And for each key whose value is an enum name, the names it read and what they stood for, in 8 slots chosen
// by a hash of the name's first bytes: files repeat their names ("f16", "128B", "sm_90a"), often cycling
// through a few, and comparing 32 bytes with the slot's name costs less than the case-folding hash-table
// lookup of Parse, whose answer for the same bytes is the same.
struct FastState {
  size_t reads = 0;
  std::array<uint8_t, kKeys.size() + 1> next{};
  struct LastName {
    alignas(16) char bytes[32] = {};  // the name, zero-filled to 32 bytes
    uint8_t size = 0xff;              // 0xff: empty (a name of 32 bytes or more is not remembered)
    uint8_t value = 0;
    uint8_t alias = 0;  // tensor_data_type: the data alias the name is (kNoDataAlias for a map type's name)
  };
  static constexpr int kNameSlots = 8;
  std::array<std::array<LastName, kNameSlots>, kKeys.size()> names{};
};

#if defined(__SSE2__)
// Each key as it is usually written, quotes and colon included ("name":), in a 32-byte block, and the
// mask of its bytes, for comparing 32 bytes of input with one key at once.
struct KeyPatterns {
  struct Pattern {
    char bytes[32] = {};
    uint32_t mask = 0;
  };
  std::array<Pattern, kKeys.size()> p{};
  constexpr KeyPatterns() {
    for (size_t k = 0; k < kKeys.size(); ++k) {
      const std::string_view n = kKeys[k].name;  // at most 29 bytes: KeyLengthsFit
      p[k].bytes[0] = '"';
      for (size_t i = 0; i < n.size(); ++i) p[k].bytes[i + 1] = n[i];
      p[k].bytes[n.size() + 1] = '"';
      p[k].bytes[n.size() + 2] = ':';
      p[k].mask = static_cast<uint32_t>((uint64_t{1} << (n.size() + 3)) - 1);
    }
  }
};
constexpr KeyPatterns kKeyPatterns;
#endif
//
// The common form of a spec read in one pass without simdjson: one object of known keys, each once,
// whose values are strings of plain ASCII (0x20..0x7F but '"' and '\'), integers in their plain form
// (digits, a '-' where the field is signed, at most 19 digits) and arrays of integers, with JSON
// whitespace between any two tokens. Anything else (an escape, a non-ASCII byte, a fraction or an
// exponent, an unknown key or name, a value outside its field's range, a duplicate, a `trace` member,
// text that is not JSON, an array over its bound) makes Read return false, and the full reader below
// (simdjson, every problem explained and placed) reads the text again from the start. What the fast path
// accepts is RFC 8259 JSON that the full reader reads into the same spec: each value is converted by the
// same code or by a conversion that agrees with it on the accepted forms (tests/schema/spec_json_test.cc
// `SpecJsonFastPath.*` and fuzz/spec_json_fuzz.cc compare the two readers on every text).
//
// Each step takes the position and returns the one after what it read, or nullptr when it declines, so
// that the position lives in a register (as a member it was stored and loaded around every step).
class FastReader {
 public:
  // `text` is followed by json::kPadding readable bytes (their values do not matter).
  FastReader(std::string_view text, TensorMapSpec* spec, uint32_t* counts, FastState* state)
      : begin_(text.data()), end_(text.data() + text.size()), s_(spec), counts_(counts), state_(state) {}

#if defined(__GNUC__)
  __attribute__((noinline))  // its own registers: inlined into ObjectReader::Read it spilled (perf)
#endif
  bool Read() {
    // The text without its trailing whitespace must end with the object's '}'. Then every scan below
    // (whitespace, digits) stops at that '}' at the latest, so none needs to check for the end: p stays
    // before end_ until the closing '}' is read, and only a string's scan, which may run through a '}',
    // compares with end_.
    while (end_ > begin_ && IsWs(end_[-1])) --end_;
    if (end_ == begin_ || end_[-1] != '}') return false;
    const char* p = Ws(begin_);
    if (*p++ != '{') return false;
    p = Ws(p);
    if (*p == '}') return p + 1 == end_;
    TensorMapSpec& s = *s_;
    size_t prev = kKeys.size();  // the object's start
    for (;;) {
      uint8_t& guess = state_->next[prev];
      size_t key = guess;
      if (Written(p, key)) {  // "key": as the text before wrote it here (the '}' at end_ - 1 is no part of it)
        p += kKeys[key].name.size() + 3;
      } else {
        std::string_view name;
        if ((p = Str(p, &name)) == nullptr) return false;
        p = Ws(p);
        if (*p++ != ':') return false;
        const KeyInfo* info = FindKey(name);
        if (info == nullptr) return false;
        key = static_cast<size_t>(info - kKeys.data());
        guess = static_cast<uint8_t>(key);
      }
      const uint32_t field = kKeys[key].field;
      if ((s.set_fields & field) != 0) return false;
      s.set_fields |= field;
      if ((p = Value(key, Ws(p))) == nullptr) return false;
      prev = key;
      p = Ws(p);
      const char c = *p++;
      if (c == '}') return p == end_;  // the last '}', or something after the object
      if (c != ',') return false;
      p = Ws(p);
    }
  }

 private:
  static bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
  // Whether the 32 bytes at p (inside the padding) begin with kKeys[key] written as "key": (no space).
  static bool Written(const char* p, size_t key) {
#if defined(__SSE2__)
    const KeyPatterns::Pattern& k = kKeyPatterns.p[key];
    const __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(k.bytes)));
    const __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)),
                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(k.bytes + 16)));
    const uint32_t same = static_cast<uint32_t>(_mm_movemask_epi8(a)) |
                          static_cast<uint32_t>(_mm_movemask_epi8(b)) << 16;
    return (~same & k.mask) == 0;
#else
    (void)p, (void)key;
    return false;
#endif
  }
  // Whitespace is rare between tokens (JSON Lines as written): one compare when there is none.
  static const char* Ws(const char* p) {
    if (__builtin_expect(static_cast<unsigned char>(*p) <= ' ', 0))
      while (IsWs(*p)) ++p;
    return p;
  }

  // A string of plain bytes at p (which must be its opening quote); *out: the bytes between the quotes.
  const char* Str(const char* p, std::string_view* out) const {
    if (*p != '"') return nullptr;
    const char* const begin = p + 1;
#if defined(__SSE2__)
    // 16 bytes at a time; a load starts before end_, so it stays inside the padding.
    for (const char* q = begin; q < end_; q += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
      // As signed bytes, controls (< 0x20) and non-ASCII bytes (>= 0x80) are both below 0x20.
      const __m128i special = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                                           _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                                        _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
      const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(special));
      if (m == 0) continue;
      const char* const at = q + __builtin_ctz(m);
      if (at >= end_ || *at != '"') return nullptr;
      *out = std::string_view(begin, static_cast<size_t>(at - begin));
      return at + 1;
    }
    return nullptr;
#else
    const char* q = begin;
    while (q < end_ && static_cast<unsigned char>(*q) >= 0x20 && static_cast<unsigned char>(*q) < 0x80 &&
           *q != '"' && *q != '\\')
      ++q;
    if (q >= end_ || *q != '"') return nullptr;
    *out = std::string_view(begin, static_cast<size_t>(q - begin));
    return q + 1;
#endif
  }

  // Digits at p: 1 to 19 of them (so no overflow), the first not '0' unless it is the only one. What
  // follows is left to the caller's structure check (a '.', 'e' or digit after a leading 0 fails there).
  static const char* Digits(const char* p, uint64_t* out) {
    const char* const begin = p;
    uint64_t x = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (x > 9) return nullptr;
    ++p;
    if (x != 0) {
      for (;;) {
        const uint64_t d = static_cast<unsigned char>(*p) - unsigned{'0'};
        if (d > 9) break;
        x = x * 10 + d;
        ++p;
      }
      if (p - begin > 19) return nullptr;
    }
    *out = x;
    return p;
  }
  static const char* U64(const char* p, uint64_t* out) { return Digits(p, out); }
  static const char* U32(const char* p, uint32_t* out) {
    uint64_t x;
    if ((p = Digits(p, &x)) == nullptr || x > UINT32_MAX) return nullptr;
    *out = static_cast<uint32_t>(x);
    return p;
  }
  static const char* I32(const char* p, int32_t* out) {
    const bool negative = *p == '-';
    uint64_t x;
    if ((p = Digits(p + negative, &x)) == nullptr || x > (negative ? uint64_t{1} << 31 : uint64_t{INT32_MAX}))
      return nullptr;
    *out = negative ? static_cast<int32_t>(-static_cast<int64_t>(x)) : static_cast<int32_t>(x);
    return p;
  }

  // The slot of the n bytes at p (8 bytes readable there): a multiplicative hash of the first 8 of them (those
  // past the name masked off) and the length.
  static size_t NameSlot(const char* p, size_t n) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (n < 8) w &= (uint64_t{1} << (8 * n)) - 1;
    return static_cast<size_t>(((w ^ n) * 0x9E3779B97F4A7C15ull) >> 61);
  }
  // Whether the n bytes at p (n < 32; 32 bytes readable there: inside the text or its padding) are the
  // name remembered in m.
  static bool SameName(const char* p, size_t n, const FastState::LastName& m) {
    if (n != m.size) return false;
#if defined(__SSE2__)
    const __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                     _mm_load_si128(reinterpret_cast<const __m128i*>(m.bytes)));
    const __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)),
                                     _mm_load_si128(reinterpret_cast<const __m128i*>(m.bytes + 16)));
    const uint32_t same = static_cast<uint32_t>(_mm_movemask_epi8(a)) |
                          static_cast<uint32_t>(_mm_movemask_epi8(b)) << 16;
    return (~same & ((uint32_t{1} << n) - 1)) == 0;
#else
    return std::memcmp(p, m.bytes, n) == 0;
#endif
  }
  // A name (count == 0), or also the cuda.h integer below count; `key` is the field's index in kKeys (whose
  // last name is remembered in the state).
  template <typename E>
  const char* Enum(const char* p, E* out, int count, size_t key) const {
    static_assert(sizeof(E) == 1, "enum values are remembered as one byte");
    if (count > 0 && *p != '"') {
      uint64_t x;
      if ((p = Digits(p, &x)) == nullptr || x >= static_cast<uint64_t>(count)) return nullptr;
      *out = static_cast<E>(x);
      return p;
    }
    std::string_view sv;
    if ((p = Str(p, &sv)) == nullptr) return nullptr;
    FastState::LastName& m = state_->names[key][NameSlot(sv.data(), sv.size())];
    if (SameName(sv.data(), sv.size(), m)) {
      *out = static_cast<E>(m.value);
      return p;
    }
    if (!Parse(sv, out)) return nullptr;
    if (sv.size() < sizeof(m.bytes)) {
      std::memset(m.bytes, 0, sizeof(m.bytes));
      std::memcpy(m.bytes, sv.data(), sv.size());
      m.size = static_cast<uint8_t>(sv.size());
      m.value = static_cast<uint8_t>(*out);
    }
    return p;
  }
  // tensor_data_type: as Enum, and a data alias ("e4m3") is remembered in the spec (types.h ParseDataType).
  const char* DataTypeValue(const char* p, TensorMapSpec* s) const {
    if (*p != '"') {
      s->data_type_alias = kNoDataAlias;
      return Enum(p, &s->data_type, kNumDataTypes, KeyOf(kFieldDataType));
    }
    std::string_view sv;
    if ((p = Str(p, &sv)) == nullptr) return nullptr;
    FastState::LastName& m = state_->names[KeyOf(kFieldDataType)][NameSlot(sv.data(), sv.size())];
    if (SameName(sv.data(), sv.size(), m)) {
      s->data_type = static_cast<DataType>(m.value);
      s->data_type_alias = m.alias;
      return p;
    }
    if (!ParseDataType(sv, &s->data_type, &s->data_type_alias)) return nullptr;
    if (sv.size() < sizeof(m.bytes)) {
      std::memset(m.bytes, 0, sizeof(m.bytes));
      std::memcpy(m.bytes, sv.data(), sv.size());
      m.size = static_cast<uint8_t>(sv.size());
      m.value = static_cast<uint8_t>(s->data_type);
      m.alias = s->data_type_alias;
    }
    return p;
  }
  // An integer, or a "0x..." / decimal string read as the full reader's Address reads it.
  const char* Address(const char* p, uint64_t* out) const {
    if (*p != '"') return U64(p, out);
    std::string_view sv;
    if ((p = Str(p, &sv)) == nullptr) return nullptr;
    if (ParseAddressText(sv, out) != std::errc()) return nullptr;
    return p;
  }
  const char* DriverVersion(const char* p, uint32_t* out) const {
    if (*p != '"') return U32(p, out);
    std::string_view sv;
    if ((p = Str(p, &sv)) == nullptr || !DriverVersionOf(sv, out)) return nullptr;
    return p;
  }

  template <typename T, size_t N>
  const char* Array(const char* p, std::array<T, N>* out, int which) {
    if (*p != '[') return nullptr;
    p = Ws(p + 1);
    uint32_t n = 0;
    if (*p == ']') {
      ++p;
    } else {
      for (;;) {
        if (n >= N) return nullptr;
        T x;
        if constexpr (std::is_same_v<T, uint64_t>) p = U64(p, &x);
        else if constexpr (std::is_same_v<T, uint32_t>) p = U32(p, &x);
        else p = I32(p, &x);
        if (p == nullptr) return nullptr;
        (*out)[n++] = x;
        p = Ws(p);
        const char c = *p++;
        if (c == ']') break;
        if (c != ',') return nullptr;
        p = Ws(p);
      }
    }
    counts_[which] = n;
    return p;
  }

  // The value of kKeys[key] at p (a dense switch: a jump table, where the fields' bits would be a search).
  const char* Value(size_t key, const char* p) {
    TensorMapSpec& s = *s_;
    switch (key) {
      case KeyOf(kFieldName): {
        std::string_view sv;
        if ((p = Str(p, &sv)) == nullptr) return nullptr;
        s.name.assign(sv.data(), sv.size());
        return p;
      }
      case KeyOf(kFieldMode): return Enum(p, &s.mode, 0, KeyOf(kFieldMode));
      case KeyOf(kFieldDirection): return Enum(p, &s.direction, 0, KeyOf(kFieldDirection));
      case KeyOf(kFieldReduceOp): return Enum(p, &s.reduce_op, 0, KeyOf(kFieldReduceOp));
      case KeyOf(kFieldDataType): return DataTypeValue(p, &s);
      case KeyOf(kFieldRank): return U32(p, &s.rank);
      case KeyOf(kFieldGlobalAddress): return Address(p, &s.global_address);
      case KeyOf(kFieldGlobalDim): return Array(p, &s.global_dim, kArrGlobalDim);
      case KeyOf(kFieldGlobalStrides): return Array(p, &s.global_strides, kArrGlobalStrides);
      case KeyOf(kFieldBoxDim): return Array(p, &s.box_dim, kArrBoxDim);
      case KeyOf(kFieldElementStrides): return Array(p, &s.element_strides, kArrElementStrides);
      case KeyOf(kFieldInterleave): return Enum(p, &s.interleave, kNumInterleaves, KeyOf(kFieldInterleave));
      case KeyOf(kFieldSwizzle): return Enum(p, &s.swizzle, kNumSwizzles, KeyOf(kFieldSwizzle));
      case KeyOf(kFieldL2Promotion): return Enum(p, &s.l2_promotion, kNumL2Promotions, KeyOf(kFieldL2Promotion));
      case KeyOf(kFieldOobFill): return Enum(p, &s.oob_fill, kNumOobFills, KeyOf(kFieldOobFill));
      case KeyOf(kFieldLowerCorner): return Array(p, &s.pixel_box_lower_corner, kArrLowerCorner);
      case KeyOf(kFieldUpperCorner): return Array(p, &s.pixel_box_upper_corner, kArrUpperCorner);
      case KeyOf(kFieldLowerCornerWidth): return I32(p, &s.pixel_box_lower_corner_width);
      case KeyOf(kFieldUpperCornerWidth): return I32(p, &s.pixel_box_upper_corner_width);
      case KeyOf(kFieldChannelsPerPixel): return U32(p, &s.channels_per_pixel);
      case KeyOf(kFieldPixelsPerColumn): return U32(p, &s.pixels_per_column);
      case KeyOf(kFieldWideMode): return Enum(p, &s.wide_mode, kNumIm2colWideModes, KeyOf(kFieldWideMode));
      case KeyOf(kFieldTarget): return Enum(p, &s.target, 0, KeyOf(kFieldTarget));
      case KeyOf(kFieldSmemAddress): return Address(p, &s.smem_address);
      case KeyOf(kFieldSmemAlignment): return U32(p, &s.smem_alignment);
      case KeyOf(kFieldDriverVersion): return DriverVersion(p, &s.driver_version);
    }
    return nullptr;
  }

  const char* const begin_;
  const char* end_;
  TensorMapSpec* const s_;
  uint32_t* const counts_;
  FastState* const state_;
};

// Where a value is: the field's key and, inside an array, the element's index. Rendered only for errors.
struct Path {
  std::string_view key;
  int index = -1;
  std::string str() const { return index < 0 ? std::string(key) : StrCat(key, "[", index, "]"); }
};

// One parse: reads the fields of the object into the spec; the first problem wins, except that text
// that is not JSON wins over a problem with a value (see Fail).
class ObjectReader {
 public:
  ObjectReader(std::string_view text, json::TextPos at, TensorMapSpec* spec) : text_(text), at_(at), s_(spec) {}

  // `fast` (the parser's FastState): try FastReader first, and the full reader when it declines;
  // nullptr: the full reader only.
  absl::Status Read(od::parser* parser, const char* data, size_t capacity, FastState* fast) {
    base_ = data;
    *s_ = TensorMapSpec();
    counts_.fill(kAbsentCount);
    if (fast != nullptr) {
      if (FastReader(std::string_view(data, text_.size()), s_, counts_.data(), fast).Read()) {
        ++fast->reads;
        return FinishSpec(s_, counts_.data());
      }
      *s_ = TensorMapSpec();  // what the fast path had read
      counts_.fill(kAbsentCount);
    }
    od::document doc;
    if (parser->iterate(simdjson::padded_string_view(data, text_.size(), capacity)).get(doc)) return NotJson();
    od::object obj;
    if (const simdjson::error_code e = doc.get_object().get(obj)) {
      if (e != simdjson::INCORRECT_TYPE) return NotJson();
      const size_t p = FirstByte();
      Value(p, Path(), StrCat("expected an object (a spec), got ", json::Describe(text_, p)));
      return Result();
    }
    for (auto member : obj) {
      od::field f;
      if (std::move(member).get(f)) return NotJson();
      const char* key_raw = f.key().raw();  // past the opening quote
      // In place when it has no escape (stage 1 has checked the text's strings: UTF-8, no control
      // characters); else unescaped by simdjson.
      std::string_view key;
      const char* q = QuoteOrBackslash(key_raw);  // the closing quote is there: stage 1 found it
      if (*q == '"') key = std::string_view(key_raw, static_cast<size_t>(q - key_raw));
      else if (f.unescaped_key().get(key)) return NotJson();
      const KeyInfo* info = FindKey(key);
      if (info == nullptr && (key == "trace" || key == "bytes")) {
        // Members of a `tmapgen trace` record (docs/trace.md): what the driver returned and wrote, and
        // who called. They describe the map; they are not part of its spec. On-Demand skips them
        // unread, so the text is checked whole at the end (strictness stays).
        continue;
      }
      if (info == nullptr) {
        Value(Offset(key_raw) - 1, Path{key}, StrCat("unknown field \"", key, "\"", Suggest(key)));
        continue;  // On-Demand skips the value
      }
      if (s_->set_fields & info->field) {
        Value(Offset(key_raw) - 1, Path{key}, StrCat("field \"", key, "\" appears twice"));
        continue;
      }
      s_->set_fields |= info->field;
      if (!Field(info->field, info->name, f.value())) return NotJson();
    }
    // After the object: only whitespace (else simdjson still points at what follows).
    if (!doc.current_location().error()) return NotJson();
    if (failed_) return Result();
    // On-Demand does not check the structure of what it skips: a trace member, and also any value read
    // in place (Str, keys) is skipped by the next step, so `{"name":"a":"b",...}\n,...}` could pass as an
    // object without its second member (spec_json_fuzz found this). The text is checked whole
    // before it is accepted; this reader runs only for the texts the fast path declines.
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    return FinishSpec(s_, counts_.data());
  }

 private:
  // Field readers return false only when simdjson failed in a way that means the text is not JSON
  // (the caller then stops); a value that is JSON but wrong for the field is recorded with Value().

  size_t Offset(const char* p) const { return static_cast<size_t>(p - base_); }
  size_t ValueOffset(od::value& v) const { return Offset(v.raw_json_token().data()); }
  size_t FirstByte() const {
    size_t p = 0;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r')) ++p;
    return p;
  }

  // A problem with a value (the first one is kept; reading goes on so that text that is not JSON is
  // still found and reported instead).
  void Value(size_t offset, const Path& path, std::string message) {
    if (failed_) return;
    failed_ = true;
    err_offset_ = offset;
    err_path_ = path.str();
    err_message_ = std::move(message);
  }
  absl::Status At(size_t offset, std::string_view path, std::string_view message) const {
    const json::TextPos pos = json::PositionOf(text_, offset, at_);
    return InputErrorAt(path, message, pos.line, pos.column);
  }
  absl::Status Result() {
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    return At(err_offset_, err_path_, err_message_);
  }
  // simdjson stopped: the text is not JSON. FindSyntaxError says where and why; should it find nothing
  // (it and simdjson disagree, which the fuzzer looks for), simdjson's own word is reported.
  absl::Status NotJson() {
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    if (failed_) return At(err_offset_, err_path_, err_message_);
    return At(0, "", "not a JSON object that simdjson can read");
  }

  // --- scalars ------------------------------------------------------------------------------------

  // The number token of a value that failed a typed read, without trailing whitespace.
  std::string_view Token(od::value& v) const {
    std::string_view t = v.raw_json_token();
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
    return t;
  }
  bool WrongType(od::value& v, const Path& path, const char* expected) {
    const size_t off = ValueOffset(v);
    Value(off, path, StrCat("expected ", expected, ", got ", json::Describe(text_, off)));
    return true;
  }

  // *ok: the value was read. Returns false when the text is not JSON.
  bool U64(od::value& v, const Path& path, uint64_t* out, bool* ok) {
    *ok = false;
    const simdjson::error_code e = v.get_uint64().get(*out);
    if (!e) return *ok = true;
    return U64Slow(v, path, out, ok);
  }
  bool U64Slow(od::value& v, const Path& path, uint64_t* out, bool* ok) {
    od::json_type t;
    if (v.type().get(t)) return false;
    if (t != od::json_type::number) return WrongType(v, path, "an unsigned integer");
    uint64_t mag = 0;
    bool negative = false;
    const size_t off = ValueOffset(v);
    switch (json::ExactInteger(Token(v), &mag, &negative)) {
      case json::IntegerClass::kNotNumber: return false;
      case json::IntegerClass::kNotInteger: return WrongType(v, path, "an unsigned integer");
      case json::IntegerClass::kTooBig:
        Value(off, path,
              negative ? StrCat("expected an unsigned integer, got ", json::Describe(text_, off))
                       : StrCat("expected an unsigned integer <= 18446744073709551615, got ", json::Describe(text_, off)));
        return true;
      case json::IntegerClass::kOk:
        if (negative && mag != 0) return WrongType(v, path, "an unsigned integer");
        *out = mag;
        return *ok = true;
    }
    return false;
  }
  bool I64(od::value& v, const Path& path, int64_t* out, bool* ok) {
    *ok = false;
    const simdjson::error_code e = v.get_int64().get(*out);
    if (!e) return *ok = true;
    od::json_type t;
    if (v.type().get(t)) return false;
    if (t != od::json_type::number) return WrongType(v, path, "an integer");
    uint64_t mag = 0;
    bool negative = false;
    const size_t off = ValueOffset(v);
    constexpr uint64_t kMaxPos = static_cast<uint64_t>(INT64_MAX);
    switch (json::ExactInteger(Token(v), &mag, &negative)) {
      case json::IntegerClass::kNotNumber: return false;
      case json::IntegerClass::kNotInteger: return WrongType(v, path, "an integer");
      case json::IntegerClass::kTooBig: break;
      case json::IntegerClass::kOk:
        if (mag <= kMaxPos + (negative ? 1 : 0)) {
          *out = !negative ? static_cast<int64_t>(mag) : mag == kMaxPos + 1 ? INT64_MIN : -static_cast<int64_t>(mag);
          return *ok = true;
        }
        break;
    }
    Value(off, path, StrCat("expected an integer in [-9223372036854775808, 9223372036854775807], got ",
                            json::Describe(text_, off)));
    return true;
  }
  bool U32(od::value& v, const Path& path, uint32_t* out, bool* ok) {
    uint64_t x = 0;
    if (!U64(v, path, &x, ok)) return false;
    if (!*ok) return true;
    if (x > UINT32_MAX) {
      *ok = false;
      Value(ValueOffset(v), path, StrCat("value ", x, " does not fit in 32 bits"));
      return true;
    }
    *out = static_cast<uint32_t>(x);
    return true;
  }
  bool I32(od::value& v, const Path& path, int32_t* out, bool* ok) {
    int64_t x = 0;
    if (!I64(v, path, &x, ok)) return false;
    if (!*ok) return true;
    if (x < INT32_MIN || x > INT32_MAX) {
      *ok = false;
      Value(ValueOffset(v), path, StrCat("value ", x, " does not fit in a 32-bit int"));
      return true;
    }
    *out = static_cast<int32_t>(x);
    return true;
  }
  bool Str(od::value& v, const Path& path, std::string_view* out, bool* ok) {
    // A string without escapes is read in place: the bytes between its quotes (stage 1 has checked
    // them); On-Demand skips the value unread. Anything else goes through get_string.
    std::string_view t = v.raw_json_token();
    if (t.size() >= 2 && t[0] == '"') {
      while (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r') t.remove_suffix(1);
      const std::string_view in = t.substr(1, t.size() - 2);
      if (t.size() >= 2 && t.back() == '"' && QuoteOrBackslash(in.data()) == in.data() + in.size()) {
        *out = in;
        return *ok = true;
      }
    }
    *ok = false;
    const simdjson::error_code e = v.get_string().get(*out);
    if (!e) return *ok = true;
    if (e != simdjson::INCORRECT_TYPE) return false;
    return WrongType(v, path, "a string");
  }

  // Integer or "0x..." / decimal string.
  bool Address(od::value& v, const Path& path, uint64_t* out) {
    od::json_type t;
    if (v.type().get(t)) return false;
    bool ok = false;
    if (t != od::json_type::string) return U64(v, path, out, &ok);
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (!ok) return true;
    const std::errc ec = ParseAddressText(sv, out);
    if (ec != std::errc()) {
      Value(ValueOffset(v), path,
            StrCat("expected an address (integer or \"0x...\" string), got \"", sv, "\"",
                   ec == std::errc::result_out_of_range ? ": out of range (more than 64 bits)" : ""));
    }
    return true;
  }

  template <typename E>
  bool UnknownName(od::value& v, const Path& path, std::string_view sv) {
    Value(ValueOffset(v), path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
    return true;
  }
  // A name, or (with `count` > 0) the cuda.h integer below `count`.
  template <typename E>
  bool Enum(od::value& v, const Path& path, E* out, int count) {
    bool ok = false;
    if (count > 0) {
      od::json_type t;
      if (v.type().get(t)) return false;
      if (t == od::json_type::number) {
        uint64_t x = 0;
        if (!U64(v, path, &x, &ok)) return false;
        if (!ok) return true;
        if (x >= static_cast<uint64_t>(count)) {
          Value(ValueOffset(v), path, StrCat("enum value ", x, " is out of range; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
          return true;
        }
        *out = static_cast<E>(x);
        return true;
      }
    }
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (ok && !Parse(sv, out)) return UnknownName<E>(v, path, sv);
    return true;
  }

  // tensor_data_type: as Enum, and a data alias ("e4m3") is remembered in the spec (types.h ParseDataType).
  bool DataTypeValue(od::value& v, const Path& path, TensorMapSpec* s) {
    od::json_type t;
    if (v.type().get(t)) return false;
    s->data_type_alias = kNoDataAlias;
    if (t == od::json_type::number) return Enum(v, path, &s->data_type, kNumDataTypes);
    std::string_view sv;
    bool ok = false;
    if (!Str(v, path, &sv, &ok)) return false;
    if (ok && !ParseDataType(sv, &s->data_type, &s->data_type_alias)) return UnknownName<DataType>(v, path, sv);
    return true;
  }

  bool DriverVersion(od::value& v, const Path& path, uint32_t* out) {
    od::json_type t;
    if (v.type().get(t)) return false;
    bool ok = false;
    if (t != od::json_type::string) return U32(v, path, out, &ok);
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (!ok) return true;
    absl::StatusOr<uint32_t> dv = ParseDriverVersion(sv);
    if (!dv.ok()) {
      Value(ValueOffset(v), path, StrCat("expected a driver version such as 13000 or \"13.0\", got \"", sv, "\""));
      return true;
    }
    *out = *dv;
    return true;
  }

  // --- arrays -------------------------------------------------------------------------------------

  template <typename T, size_t N, typename F>
  bool Array(od::value& v, std::string_view name, std::array<T, N>* out, int which, F read_one) {
    od::array arr;
    if (const simdjson::error_code e = v.get_array().get(arr)) {
      if (e != simdjson::INCORRECT_TYPE) return false;
      return WrongType(v, Path{name}, "an array");
    }
    uint32_t n = 0;
    for (auto element : arr) {
      od::value ev;
      if (std::move(element).get(ev)) return false;
      const Path path{name, static_cast<int>(n)};
      if (n >= N) {
        Value(ValueOffset(ev), path, StrCat(name, " has more than ", N, " entries (tensor_rank is at most ", kMaxRank, ")"));
        ++n;
        continue;
      }
      T x{};
      bool ok = false;
      if (!(this->*read_one)(ev, path, &x, &ok)) return false;
      if (ok) (*out)[n] = x;
      ++n;
    }
    counts_[static_cast<size_t>(which)] = n;
    return true;
  }

  bool Field(uint32_t field, std::string_view key, od::value& v) {
    TensorMapSpec& s = *s_;
    const Path path{key};
    bool ok = false;
    switch (field) {
      case kFieldName: {
        std::string_view sv;
        if (!Str(v, path, &sv, &ok)) return false;
        if (ok) s.name.assign(sv.data(), sv.size());
        return true;
      }
      case kFieldMode: return Enum(v, path, &s.mode, 0);
      case kFieldDirection: return Enum(v, path, &s.direction, 0);
      case kFieldReduceOp: return Enum(v, path, &s.reduce_op, 0);
      case kFieldDataType: return DataTypeValue(v, path, &s);
      case kFieldRank: return U32(v, path, &s.rank, &ok);
      case kFieldGlobalAddress: return Address(v, path, &s.global_address);
      case kFieldGlobalDim: return Array(v, key, &s.global_dim, kArrGlobalDim, &ObjectReader::U64);
      case kFieldGlobalStrides: return Array(v, key, &s.global_strides, kArrGlobalStrides, &ObjectReader::U64);
      case kFieldBoxDim: return Array(v, key, &s.box_dim, kArrBoxDim, &ObjectReader::U32);
      case kFieldElementStrides: return Array(v, key, &s.element_strides, kArrElementStrides, &ObjectReader::U32);
      case kFieldInterleave: return Enum(v, path, &s.interleave, kNumInterleaves);
      case kFieldSwizzle: return Enum(v, path, &s.swizzle, kNumSwizzles);
      case kFieldL2Promotion: return Enum(v, path, &s.l2_promotion, kNumL2Promotions);
      case kFieldOobFill: return Enum(v, path, &s.oob_fill, kNumOobFills);
      case kFieldLowerCorner: return Array(v, key, &s.pixel_box_lower_corner, kArrLowerCorner, &ObjectReader::I32);
      case kFieldUpperCorner: return Array(v, key, &s.pixel_box_upper_corner, kArrUpperCorner, &ObjectReader::I32);
      case kFieldLowerCornerWidth: return I32(v, path, &s.pixel_box_lower_corner_width, &ok);
      case kFieldUpperCornerWidth: return I32(v, path, &s.pixel_box_upper_corner_width, &ok);
      case kFieldChannelsPerPixel: return U32(v, path, &s.channels_per_pixel, &ok);
      case kFieldPixelsPerColumn: return U32(v, path, &s.pixels_per_column, &ok);
      case kFieldWideMode: return Enum(v, path, &s.wide_mode, kNumIm2colWideModes);
      case kFieldTarget: return Enum(v, path, &s.target, 0);
      case kFieldSmemAddress: return Address(v, path, &s.smem_address);
      case kFieldSmemAlignment: return U32(v, path, &s.smem_alignment, &ok);
      case kFieldDriverVersion: return DriverVersion(v, path, &s.driver_version);
    }
    return true;
  }

  std::string_view text_;
  json::TextPos at_;
  TensorMapSpec* s_;
  const char* base_ = nullptr;
  std::array<uint32_t, kNumSpecArrays> counts_{};
  bool failed_ = false;
  size_t err_offset_ = 0;
  std::string err_path_;
  std::string err_message_;
};

}  // namespace

struct SpecJsonParser::Impl {
  od::parser parser;
  bool fast_path = true;
  FastState fast;
  FastState* FastReads() { return fast_path ? &fast : nullptr; }
  std::string copy;  // unpadded texts are copied here, followed by json::kPadding bytes
};

SpecJsonParser::SpecJsonParser() : impl_(std::make_unique<Impl>()) {}
SpecJsonParser::~SpecJsonParser() = default;
void SpecJsonParser::set_fast_path(bool on) { impl_->fast_path = on; }
size_t SpecJsonParser::fast_reads() const { return impl_->fast.reads; }

absl::Status SpecJsonParser::Parse(std::string_view text, json::TextPos at, bool padded, TensorMapSpec* spec) {
  ObjectReader reader(text, at, spec);
  if (padded) return reader.Read(&impl_->parser, text.data(), text.size() + json::kPadding, impl_->FastReads());
  std::string& copy = impl_->copy;
  copy.resize(text.size() + json::kPadding);
  if (!text.empty()) std::memcpy(copy.data(), text.data(), text.size());
  return reader.Read(&impl_->parser, copy.data(), copy.size(), impl_->FastReads());
}

absl::Status SpecJsonParser::ParseSpecOrWrapped(std::string_view text, json::TextPos at, bool padded,
                                                TensorMapSpec* spec) {
  const absl::Status own = Parse(text, at, padded, spec);
  if (own.ok() || text.find("\"spec\"") == std::string_view::npos) return own;
  if (json::FindSyntaxError(text).has_value()) return own;  // not JSON: the spec's error says where
  // The text is JSON; find its "spec" member. Work on a padded copy, in which the member is read in place.
  std::string copy(text);
  copy.append(json::kPadding, ' ');
  od::parser parser;
  od::document doc;
  od::object obj;
  if (parser.iterate(simdjson::padded_string_view(copy.data(), text.size(), copy.size())).get(doc) ||
      doc.get_object().get(obj))
    return own;
  for (auto member : obj) {
    od::field f;
    std::string_view key;
    if (std::move(member).get(f) || f.unescaped_key().get(key)) return own;
    od::json_type t;
    if (key != "spec" || f.value().type().get(t) || t != od::json_type::object) continue;
    od::object inner;
    std::string_view raw;
    if (f.value().get_object().get(inner) || inner.raw_json().get(raw)) return own;
    const size_t offset = static_cast<size_t>(raw.data() - copy.data());
    return Parse(std::string_view(text.data() + offset, raw.size()), json::PositionOf(text, offset, at), false, spec);
  }
  return own;
}

absl::StatusOr<TensorMapSpec> ParseSpecJson(std::string_view text, size_t first_line) {
  // One parser per thread keeps simdjson's buffers between calls; a text over 1 MiB gets its own parser
  // so that the thread's does not stay that large.
  constexpr size_t kKeepLimit = size_t{1} << 20;
  thread_local SpecJsonParser parser;
  TensorMapSpec spec;
  json::TextPos at;
  at.line = first_line;
  absl::Status st;
  if (text.size() <= kKeepLimit) {
    st = parser.Parse(text, at, false, &spec);
  } else {
    SpecJsonParser big;
    st = big.Parse(text, at, false, &spec);
  }
  if (!st.ok()) return st;
  return spec;
}

absl::StatusOr<uint32_t> ParseDriverVersion(std::string_view s) {
  uint32_t v = 0;
  if (DriverVersionOf(s, &v)) return v;
  return absl::InvalidArgumentError(StrCat("expected a driver version such as 13000 or \"13.0\", got \"", s, "\""));
}

absl::Status FinishSpec(TensorMapSpec* s, const uint32_t counts[kNumSpecArrays]) {
  if (!s->Has(kFieldDataType)) {
    return InputErrorAt("tensor_data_type", "missing; every spec needs its data type (e.g. \"bf16\")");
  }
  if (!s->Has(kFieldGlobalDim) || counts[kArrGlobalDim] == 0) {
    return InputErrorAt("global_dim", "missing; give the tensor's size per dimension, innermost first");
  }
  const uint32_t ndims = counts[kArrGlobalDim];
  if (!s->Has(kFieldRank)) {
    s->rank = ndims;
  } else if (s->rank != ndims) {
    return InputErrorAt("global_dim", StrCat("has ", ndims, " entries but tensor_rank is ", s->rank));
  }
  const uint32_t rank = s->rank;
  if (counts[kArrGlobalStrides] != kAbsentCount && counts[kArrGlobalStrides] != rank - 1) {
    return InputErrorAt("global_strides",
                       StrCat("has ", counts[kArrGlobalStrides], " entries; tensor_rank ", rank, " needs ", rank - 1,
                           " (the stride of dimension 0 is the element size and is not given)"));
  }
  if (counts[kArrGlobalStrides] == kAbsentCount) FillDenseStrides(s);
  if (counts[kArrElementStrides] != kAbsentCount && counts[kArrElementStrides] != rank) {
    return InputErrorAt("element_strides", StrCat("has ", counts[kArrElementStrides], " entries; tensor_rank ", rank, " needs ", rank));
  }
  const bool tiled_like = !IsIm2colMode(s->mode);
  if (tiled_like) {
    if (counts[kArrBoxDim] == kAbsentCount) {
      return InputErrorAt("box_dim", StrCat("missing; mode ", Name(s->mode), " needs the box size per dimension"));
    }
    if (counts[kArrBoxDim] != rank) {
      return InputErrorAt("box_dim", StrCat("has ", counts[kArrBoxDim], " entries; tensor_rank ", rank, " needs ", rank));
    }
  } else {
    if (!s->Has(kFieldChannelsPerPixel)) {
      return InputErrorAt("channels_per_pixel", StrCat("missing; mode ", Name(s->mode), " needs it"));
    }
    if (!s->Has(kFieldPixelsPerColumn)) {
      if (s->mode != Mode::kIm2colW128) {
        return InputErrorAt("pixels_per_column", StrCat("missing; mode ", Name(s->mode), " needs it"));
      }
      s->pixels_per_column = 128;
    }
    if (s->mode == Mode::kIm2col) {
      const uint32_t need = rank >= 2 ? rank - 2 : 0;
      for (int a : {static_cast<int>(kArrLowerCorner), static_cast<int>(kArrUpperCorner)}) {
        if (counts[a] != kAbsentCount && counts[a] != need) {
          return InputErrorAt(a == kArrLowerCorner ? "pixel_box_lower_corner" : "pixel_box_upper_corner",
                             StrCat("has ", counts[a], " entries; tensor_rank ", rank, " needs ", need, " (one per D, H, W dimension)"));
        }
      }
    }
    if (IsWideMode(s->mode) && !s->Has(kFieldWideMode))
      s->wide_mode = s->mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  }
  return absl::OkStatus();
}


}  // namespace tmapgen
