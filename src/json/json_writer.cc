// json_writer.cc: see json_writer.h for the contract.
#include "src/json/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tmapgen::json {
namespace {

// Length (2..4) of the valid UTF-8 sequence at s[0] >= 0x80, or 0 (RFC 3629).
int Utf8Length(const unsigned char* s, const unsigned char* end) {
  const unsigned c = s[0];
  int n;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c == 0xE0) {
    n = 3, lo = 0xA0;
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    n = 3;
  } else if (c == 0xED) {
    n = 3, hi = 0x9F;
  } else if (c == 0xF0) {
    n = 4, lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3) {
    n = 4;
  } else if (c == 0xF4) {
    n = 4, hi = 0x8F;
  } else {
    return 0;
  }
  if (end - s < n) return 0;
  for (int i = 1; i < n; ++i) {
    const unsigned b = s[i];
    if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return n;
}

// Copies n < 16 bytes from s to block with overlapping fixed-size moves (no call to memcpy).
inline void Gather(unsigned char* block, const unsigned char* s, size_t n) {
  if (n >= 8) {
    std::memcpy(block, s, 8);
    std::memcpy(block + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(block, s, 4);
    std::memcpy(block + n - 4, s + n - 4, 4);
  } else if (n > 0) {
    block[0] = s[0];
    block[n / 2] = s[n / 2];
    block[n - 1] = s[n - 1];
  }
}

#if !defined(__SSE2__)
// Bytes copied as they are: 0x20..0x7F except '"' and '\\'.
struct PlainTable {
  bool v[256];
  constexpr PlainTable() : v() {
    for (int c = 0x20; c < 0x80; ++c) v[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;
#endif


}  // namespace

#if defined(__SSE2__)
namespace {
// The bytes of x that need escaping: controls (< 0x20) and, as signed bytes also below 0x20, non-ASCII
// bytes (>= 0x80, copied after a UTF-8 check); '"' and '\\'.
inline __m128i Special(__m128i x) {
  return _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                      _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
}
}  // namespace
#endif

char* Writer::Quote(char* p, std::string_view value) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(value.data());
  const unsigned char* const end = s + value.size();
  const size_t n = value.size();
#if defined(__SSE2__)
  // A string of 4 bytes or more with nothing to escape (names, keys, most messages): loaded in pieces that
  // stay inside `value` (the first and the last 16 bytes, overlapping; for 4..15 bytes the first and last 8
  // or 4), checked, and stored whole at once. 32 bytes and more: 32 per step, and the last 32 bytes, which
  // overlap the ones before, stored again over them.
  if (n >= 16) {
    if (n <= 32) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 16));
      if (__builtin_expect(_mm_movemask_epi8(_mm_or_si128(Special(a), Special(b))) == 0, 1)) {
        *p = '"';
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 1), a);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 1 + n - 16), b);
        p[n + 1] = '"';
        return p + n + 2;
      }
    } else {
      char* q = p + 1;
      const unsigned char* t = s;
      for (; end - t >= 32; t += 32, q += 32) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16));
        if (_mm_movemask_epi8(_mm_or_si128(Special(a), Special(b))) != 0) break;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q), a);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q + 16), b);
      }
      if (t == end || end - t < 32) {  // all plain so far: the last 32 bytes, over the ones before
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 32));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 16));
        if (__builtin_expect(_mm_movemask_epi8(_mm_or_si128(Special(a), Special(b))) == 0, 1)) {
          *p = '"';
          _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 1 + n - 32), a);
          _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 1 + n - 16), b);
          p[n + 1] = '"';
          return p + n + 2;
        }
      }
      // Something to escape: the general loop below from the first byte of the block where it is.
      *p = '"';
      p = q;
      s = t;
      goto general;
    }
  } else if (n >= 4) {
    uint64_t a, b;
    unsigned live;
    if (n >= 8) {
      std::memcpy(&a, s, 8), std::memcpy(&b, end - 8, 8);
      live = 0xFF;
    } else {
      uint32_t a4, b4;
      std::memcpy(&a4, s, 4), std::memcpy(&b4, end - 4, 4);
      a = a4, b = b4;
      live = 0xF;
    }
    const __m128i x = _mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(Special(x)));
    if (__builtin_expect(((m | m >> 8) & live) == 0, 1)) {
      *p = '"';
      if (n >= 8) {
        std::memcpy(p + 1, &a, 8), std::memcpy(p + 1 + n - 8, &b, 8);
      } else {
        uint32_t a4 = static_cast<uint32_t>(a), b4 = static_cast<uint32_t>(b);
        std::memcpy(p + 1, &a4, 4), std::memcpy(p + 1 + n - 4, &b4, 4);
      }
      p[n + 1] = '"';
      return p + n + 2;
    }
  }
#else
  if (n <= 32) {
    // A short string (names, most keys): gathered into a 32-byte block with overlapping fixed-size loads
    // (no call to memcpy, nothing read outside `value`), checked at once and stored whole.
    unsigned char block[32] = {};
    if (n >= 16) {
      std::memcpy(block, s, 16);
      std::memcpy(block + n - 16, s + n - 16, 16);
    } else {
      Gather(block, s, n);
    }
    if (IsPlainBlock(block, n)) {
      *p = '"';
      std::memcpy(p + 1, block, 32);
      p[n + 1] = '"';
      return p + n + 2;
    }
  }
#endif
  *p++ = '"';
#if defined(__SSE2__)
general:
#endif
  while (s < end) {
#if defined(__SSE2__)
    // 16 bytes at a time, stored before they are looked at (QuotedBound leaves room for that): the
    // plain ones stay, the first special one is rewritten below. As signed bytes, controls (< 0x20) and
    // non-ASCII bytes (>= 0x80) are both below 0x20. The last few bytes of a string are copied to a
    // local block first, so nothing past the end of `value` is read.
    const size_t avail = static_cast<size_t>(end - s);
    if (avail >= 32) {
      // 32 plain bytes at a time while there are (messages and fixes: 100-200 plain bytes each).
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16), b);
      const __m128i lo = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
      const __m128i sa = _mm_or_si128(_mm_cmplt_epi8(a, lo), _mm_or_si128(_mm_cmpeq_epi8(a, quote), _mm_cmpeq_epi8(a, backslash)));
      const __m128i sb = _mm_or_si128(_mm_cmplt_epi8(b, lo), _mm_or_si128(_mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, backslash)));
      if (_mm_movemask_epi8(_mm_or_si128(sa, sb)) == 0) {
        s += 32;
        p += 32;
        continue;
      }
    }
    __m128i x;
    if (avail >= 16) {
      x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    } else {
      alignas(16) unsigned char tail[16] = {};
      Gather(tail, s, avail);
      x = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
    const __m128i special = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                                         _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                                      _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if (avail < 16) mask |= 0xFFFFu << avail;  // stop at the end
    const size_t k = mask == 0 ? 16 : static_cast<size_t>(__builtin_ctz(mask));
    s += k;
    p += k;
    if (k == 16 || s == end) continue;
#else
    const unsigned char* run = s;
    while (s < end && kPlain.v[*s]) ++s;
    if (s != run) {
      std::memcpy(p, run, static_cast<size_t>(s - run));
      p += s - run;
    }
    if (s == end) break;
#endif
    const unsigned char c = *s;
    if (c >= 0x80) {
      const int n = Utf8Length(s, end);
      if (n > 0) {
        std::memcpy(p, s, static_cast<size_t>(n));
        p += n;
        s += n;
      } else {
        std::memcpy(p, "\xEF\xBF\xBD", 3);  // U+FFFD
        p += 3;
        ++s;
      }
      continue;
    }
    ++s;
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\b': *p++ = 'b'; break;
      case '\f': *p++ = 'f'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default: {
        static const char kHex[] = "0123456789abcdef";
        const char esc[5] = {'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        std::memcpy(p, esc, 5);
        p += 5;
      }
    }
  }
  *p++ = '"';
  return p;
}

void Writer::AppendQuoted(std::string_view value, std::string* out) {
  const size_t old = out->size();
  out->resize(old + QuotedBound(value.size()));
  char* const begin = &(*out)[0];
  out->resize(static_cast<size_t>(Quote(begin + old, value) - begin));
}

char* Writer::Grow(size_t n) {
  const size_t cap = std::max({len_ + n, 2 * cap_, size_t{1024}});
  std::unique_ptr<char[]> bigger(new char[cap]);
  if (len_ > 0) std::memcpy(bigger.get(), buf_.get(), len_);
  buf_ = std::move(bigger);
  cap_ = cap;
  return buf_.get() + len_;
}

bool Writer::Misuse(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

char* Writer::ValueMisuse(const char* what) {
  if (stack_.empty()) Misuse(std::string(what) + " after the top-level value was complete");
  else Misuse(std::string(what) + " inside an object without a Key");
  return nullptr;
}

Writer& Writer::KeyMisuse() {
  if (stack_.empty() || stack_.back() != '{') Misuse("Key outside an object");
  else Misuse("Key after a Key without a value");
  return *this;
}

Writer& Writer::CloseMisuse(char bracket) {
  const char open = bracket == '}' ? '{' : '[';
  const char* what = bracket == '}' ? "EndObject" : "EndArray";
  if (stack_.empty() || stack_.back() != open) {
    Misuse(std::string(what) + (stack_.empty() ? " with no open container" : " closing the wrong kind of container"));
  } else {
    Misuse(std::string(what) + " after a Key without a value");
  }
  return *this;
}

Writer& Writer::Uint(uint64_t value) {
  char* p = BeforeValue(24, "Uint");  // 20 digits at most
  if (p != nullptr) len_ = static_cast<size_t>(decimal::WriteDecimal(value, false, p) - buf_.get());
  return *this;
}

Writer& Writer::Int(int64_t value) {
  char* p = BeforeValue(24, "Int");  // 19 digits and a sign at most
  if (p != nullptr) len_ = static_cast<size_t>(decimal::WriteSigned(value, p) - buf_.get());
  return *this;
}

Writer& Writer::Double(double value) {
  char* p = BeforeValue(64, "Double");
  if (p == nullptr) return *this;
  if (!std::isfinite(value)) {
    std::memcpy(p, "null", 4);
    len_ = static_cast<size_t>(p + 4 - buf_.get());
    Misuse("Double with a non-finite value (written as null)");
    return *this;
  }
  // The shortest form that reads back as the same double (std::to_chars), written as a JSON number
  // that readers take for a double: an integer-looking form gets ".0" (simdjson reads "-0" as the
  // integer 0, losing the sign, and rejects integers above 2^64), or the exponent form when long.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), value);
  size_t n = static_cast<size_t>(r.ptr - buf);
  if (std::string_view(buf, n).find_first_of(".e") == std::string_view::npos) {
    if (n <= 17) {
      buf[n++] = '.';
      buf[n++] = '0';
    } else {
      r = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
      n = static_cast<size_t>(r.ptr - buf);
    }
  }
  std::memcpy(p, buf, n);
  len_ = static_cast<size_t>(p + n - buf_.get());
  return *this;
}

const std::string& Writer::str() const {
  str_.assign(buf_.get(), len_);
  return str_;
}

std::string Writer::Take() {
  std::string s(buf_.get(), len_);
  Clear();
  return s;
}

void Writer::Clear() {
  len_ = 0;
  stack_.clear();
  top_ = 0;
  error_.clear();
  str_.clear();
  has_items_ = key_pending_ = done_ = false;
}

}  // namespace tmapgen::json
