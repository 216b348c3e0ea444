// json_writer.cc: see json_writer.h for the contract.
#include "src/json/json_writer.h"

#include <cstring>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tmapgen::json {
namespace {

// Bytes copied as they are without a second look: 0x20..0x7F except '"' and '\\'.
struct PlainTable {
  bool v[256];
  constexpr PlainTable() : v() {
    for (int c = 0x20; c < 0x80; ++c) v[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;

// Length (2..4) of the valid UTF-8 sequence at s[0] >= 0x80, or 0. Same rules as the reader's.
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

template <typename T>
void AppendNumber(std::string* out, T v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace

void Writer::AppendQuoted(std::string_view value, std::string* out) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(value.data());
  const unsigned char* const end = s + value.size();
  out->push_back('"');
  while (s < end) {
    const unsigned char* run = s;
    // Eight bytes at a time while none is special (control, '"', '\\' or non-ASCII), then byte by byte.
    while (end - s >= 8) {
      uint64_t x;
      std::memcpy(&x, s, 8);
      constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
      const uint64_t control = (x - kOnes * 0x20) & ~x;               // bytes < 0x20 (or >= 0x80)
      const uint64_t quote = ((x ^ (kOnes * '"')) - kOnes) & ~(x ^ (kOnes * '"'));
      const uint64_t backslash = ((x ^ (kOnes * '\\')) - kOnes) & ~(x ^ (kOnes * '\\'));
      if (((control | quote | backslash) & kHigh) != 0 || (x & kHigh) != 0) break;
      s += 8;
    }
    while (s < end && kPlain.v[*s]) ++s;
    out->append(reinterpret_cast<const char*>(run), static_cast<size_t>(s - run));
    if (s == end) break;
    const unsigned char c = *s;
    if (c >= 0x80) {
      const int n = Utf8Length(s, end);
      if (n > 0) {
        out->append(reinterpret_cast<const char*>(s), static_cast<size_t>(n));
        s += n;
      } else {
        out->append("\xEF\xBF\xBD");  // U+FFFD
        ++s;
      }
      continue;
    }
    ++s;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default: {
        static const char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out->append(esc, 6);
      }
    }
  }
  out->push_back('"');
}

bool Writer::Misuse(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

void Writer::Newline(size_t depth) {
  out_.push_back('\n');
  out_.append(2 * depth, ' ');
}

bool Writer::BeforeValue(const char* what) {
  if (stack_.empty()) {
    if (done_) return Misuse(std::string(what) + " after the top-level value was complete");
    done_ = true;
    return true;
  }
  if (stack_.back() == '{') {
    if (!key_pending_) return Misuse(std::string(what) + " inside an object without a Key");
    key_pending_ = false;
    return true;
  }
  if (has_items_) out_.push_back(',');
  if (pretty_) Newline(stack_.size());
  has_items_ = true;
  return true;
}

Writer& Writer::Open(char bracket) {
  if (!BeforeValue(bracket == '{' ? "BeginObject" : "BeginArray")) return *this;
  out_.push_back(bracket);
  stack_.push_back(bracket);
  has_items_ = false;
  return *this;
}

Writer& Writer::Close(char bracket) {
  const char open = bracket == '}' ? '{' : '[';
  const char* what = bracket == '}' ? "EndObject" : "EndArray";
  if (stack_.empty() || stack_.back() != open) {
    Misuse(std::string(what) + (stack_.empty() ? " with no open container" : " closing the wrong kind of container"));
    return *this;
  }
  if (key_pending_) {
    Misuse(std::string(what) + " after a Key without a value");
    return *this;
  }
  stack_.pop_back();
  if (pretty_ && has_items_) Newline(stack_.size());
  out_.push_back(bracket);
  has_items_ = true;
  return *this;
}

Writer& Writer::BeginObject() { return Open('{'); }
Writer& Writer::EndObject() { return Close('}'); }
Writer& Writer::BeginArray() { return Open('['); }
Writer& Writer::EndArray() { return Close(']'); }

Writer& Writer::Key(std::string_view key) {
  if (stack_.empty() || stack_.back() != '{') {
    Misuse("Key outside an object");
    return *this;
  }
  if (key_pending_) {
    Misuse("Key after a Key without a value");
    return *this;
  }
  if (has_items_) out_.push_back(',');
  if (pretty_) Newline(stack_.size());
  has_items_ = true;
  AppendQuoted(key, &out_);
  out_.append(pretty_ ? ": " : ":");
  key_pending_ = true;
  return *this;
}

Writer& Writer::String(std::string_view value) {
  if (BeforeValue("String")) AppendQuoted(value, &out_);
  return *this;
}

Writer& Writer::Uint(uint64_t value) {
  if (BeforeValue("Uint")) AppendNumber(&out_, value);
  return *this;
}

Writer& Writer::Int(int64_t value) {
  if (BeforeValue("Int")) AppendNumber(&out_, value);
  return *this;
}

Writer& Writer::Double(double value) {
  if (!BeforeValue("Double")) return *this;
  if (!std::isfinite(value)) {
    out_.append("null");
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
  out_.append(buf, n);
  return *this;
}

Writer& Writer::Bool(bool value) {
  if (BeforeValue("Bool")) out_.append(value ? "true" : "false");
  return *this;
}

Writer& Writer::Null() {
  if (BeforeValue("Null")) out_.append("null");
  return *this;
}

std::string Writer::Take() {
  std::string s = std::move(out_);
  Clear();
  return s;
}

void Writer::Clear() {
  out_.clear();
  stack_.clear();
  error_.clear();
  has_items_ = key_pending_ = done_ = false;
}

}  // namespace tmapgen::json
