// spec_json_fast.cc: the fast path of the JSON spec reader; see spec_json_fast.h.
#include "src/schema/spec_json_fast.h"

#include <array>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "src/schema/spec_json.h"
#include "src/schema/spec_json_keys.h"

namespace tmapgen::internal_spec_json {
namespace {

#if defined(__SSE2__)
// Each key as it is usually written, quotes and colon included ("name":), in a 32-byte block, and the
// mask of its bytes, for comparing 32 bytes of input with one key at once.
struct KeyPatterns {
  struct Pattern {
    char bytes[32] = {};
    uint32_t mask = 0;
  };
  std::array<Pattern, kNumSpecFields> p{};
  constexpr KeyPatterns() {
    for (size_t k = 0; k < kNumSpecFields; ++k) {
      const std::string_view n = kSpecFields[k].key;  // at most 29 bytes: KeyLengthsFit
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

// Each step takes the position and returns the one after what it read, or nullptr when it declines, so
// that the position lives in a register (as a member it was stored and loaded around every step).
class FastReader {
 public:
  // `text` is followed by json::kPadding readable bytes (their values do not matter).
  FastReader(std::string_view text, TensorMapSpec* spec, uint32_t* counts, FastState* state)
      : begin_(text.data()), end_(text.data() + text.size()), s_(spec), counts_(counts), state_(state) {}

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
    size_t prev = kNumSpecFields;  // the object's start
    for (;;) {
      uint8_t& guess = state_->next[prev];
      size_t key = guess;
      if (Written(p, key)) {  // "key": as the text before wrote it here (the '}' at end_ - 1 is no part of it)
        p += kSpecFields[key].key.size() + 3;
      } else {
        std::string_view name;
        if ((p = Str(p, &name)) == nullptr) return false;
        p = Ws(p);
        if (*p++ != ':') return false;
        key = FindKey(name);
        if (key == kNumSpecFields) return false;
        guess = static_cast<uint8_t>(key);
      }
      const uint32_t field = kSpecFields[key].bit;
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
  // Whether the 32 bytes at p (inside the padding) begin with the key of row `key` written as "key": (no space).
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
  // A name (count == 0), or also the cuda.h integer below count; `key` is the field's row in kSpecFields (whose
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
      return Enum(p, &s->data_type, kNumDataTypes, kFieldIndexDataType);
    }
    std::string_view sv;
    if ((p = Str(p, &sv)) == nullptr) return nullptr;
    FastState::LastName& m = state_->names[kFieldIndexDataType][NameSlot(sv.data(), sv.size())];
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

  // The value of row `key` of the field table at p, read as its kind says (WithField: a switch, a jump table).
  const char* Value(size_t key, const char* p) {
    TensorMapSpec& s = *s_;
    return WithField(
        s, key,
        [&](auto tag, auto& m) -> const char* {
          constexpr size_t kRow = decltype(tag)::value;
          constexpr FieldKind kind = kSpecFields[kRow].kind;
          if constexpr (kind == FieldKind::kText) {
            std::string_view sv;
            if ((p = Str(p, &sv)) == nullptr) return nullptr;
            m.assign(sv.data(), sv.size());
            return p;
          } else if constexpr (kind == FieldKind::kName) {
            return Enum(p, &m, 0, kRow);
          } else if constexpr (kind == FieldKind::kEnum) {
            return Enum(p, &m, EnumCount(&m), kRow);
          } else if constexpr (kind == FieldKind::kDataType) {
            return DataTypeValue(p, &s);
          } else if constexpr (kind == FieldKind::kU32) {
            return U32(p, &m);
          } else if constexpr (kind == FieldKind::kI32) {
            return I32(p, &m);
          } else if constexpr (kind == FieldKind::kAddress) {
            return Address(p, &m);
          } else if constexpr (kind == FieldKind::kDriverVersion) {
            return DriverVersion(p, &m);
          } else {
            return Array(p, &m, ArrayNumber(kRow));
          }
        },
        static_cast<const char*>(nullptr));
  }

  const char* const begin_;
  const char* end_;
  TensorMapSpec* const s_;
  uint32_t* const counts_;
  FastState* const state_;
};

}  // namespace

#if defined(__GNUC__)
__attribute__((noinline))  // its own registers: inlined into the full reader's Read it spilled (perf)
#endif
bool ReadFast(std::string_view text, TensorMapSpec* spec, uint32_t* counts, FastState* state) {
  return FastReader(text, spec, counts, state).Read();
}

}  // namespace tmapgen::internal_spec_json
