#include "src/blob/blob_text.h"

#include "src/blob/blob.h"

#include <cstdint>

#include "src/util/strings.h"

namespace tmapgen::blob {
namespace {

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(ToAbsl(message)); }

bool IsSeparator(char c) {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case '\f': case '\v': case ',': case ';': case ':': case '=':
    case '{': case '}': case '[': case ']': case '(': case ')':
      return true;
    default:
      return false;
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

struct Token {
  std::string_view digits;
  bool prefixed = false;
  size_t position = 0;  // 1-based
};

std::string Shown(std::string_view s) { return s.size() > 24 ? StrCat(s.substr(0, 24), "...") : std::string(s); }

uint64_t Value(std::string_view digits) {
  uint64_t v = 0;
  for (char c : digits) v = (v << 4) | static_cast<uint64_t>(HexValue(c));
  return v;
}

// True when tokens [first, end) are exactly 16 unprefixed tokens of 16 hex digits each.
bool SixteenWords(const std::vector<Token>& tokens, size_t first, size_t end) {
  if (end - first != 16) return false;
  for (size_t t = first; t < end; ++t)
    if (tokens[t].prefixed || tokens[t].digits.size() != 16) return false;
  return true;
}

}  // namespace

absl::StatusOr<std::vector<MapBytes>> ParseBlobText(std::string_view text, bool unprefixed_words) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    if (IsSeparator(text[i])) { ++i; continue; }
    size_t j = i;
    while (j < text.size() && !IsSeparator(text[j])) ++j;
    std::string_view t = text.substr(i, j - i);
    Token tok;
    tok.position = tokens.size() + 1;
    if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
      tok.prefixed = true;
      t.remove_prefix(2);
    }
    if (t.empty()) return Invalid(StrCat("token ", tok.position, " (\"0x\"): no hex digits after the prefix"));
    for (char c : t)
      if (HexValue(c) < 0) {
        return Invalid(StrCat("token ", tok.position, " (\"", Shown(text.substr(i, j - i)),
                              "\"): not hex digits (a map is 256 hex digits, 16 words 0x..., or 128 bytes 0x..)"));
      }
    tok.digits = t;
    tokens.push_back(tok);
    i = j;
  }
  if (tokens.empty()) return Invalid("no hex digits (a map is 256 hex digits, 16 words 0x..., or 128 bytes 0x..)");

  std::vector<MapBytes> out;
  size_t k = 0;
  while (k < tokens.size()) {
    const bool words_unprefixed = unprefixed_words && !tokens[k].prefixed && tokens[k].digits.size() == 16;
    if (tokens[k].prefixed || words_unprefixed) {
      // A run of prefixed tokens (or, with unprefixed_words, of 16-digit tokens).
      size_t end = k;
      bool wide = false;
      while (end < tokens.size() &&
             (tokens[end].prefixed == tokens[k].prefixed) &&
             (!words_unprefixed || tokens[end].digits.size() == 16)) {
        if (tokens[end].digits.size() > 2) wide = true;
        ++end;
      }
      const size_t n = end - k;
      const bool as_words = wide || n == 16 || words_unprefixed;
      const size_t per_map = as_words ? 16 : 128;
      const size_t max_digits = as_words ? 16 : 2;
      if (n % per_map != 0) {
        return Invalid(StrCat("tokens ", tokens[k].position, "..", tokens[end - 1].position, ": ", n, " ",
                              as_words ? "64-bit words" : "bytes", "; a map is ", per_map, " of them"));
      }
      for (size_t m = 0; m < n / per_map; ++m) {
        MapBytes map{};
        uint64_t words[16];
        for (size_t w = 0; w < per_map; ++w) {
          const Token& t = tokens[k + m * per_map + w];
          if (t.digits.size() > max_digits) {
            return Invalid(StrCat("token ", t.position, " (0x", Shown(t.digits), "): more than ", max_digits, " hex digits for ",
                                  as_words ? "a 64-bit word" : "a byte"));
          }
          if (as_words) words[w] = Value(t.digits); else map[w] = static_cast<uint8_t>(Value(t.digits));
        }
        out.push_back(as_words ? FromWords(words) : map);
      }
      k = end;
      continue;
    }
    // Unprefixed digits: 256 per map, byte 0 first; a map must end at a token boundary.
    std::string digits;
    const size_t first = k;
    while (k < tokens.size() && !tokens[k].prefixed && digits.size() < 256) {
      if (unprefixed_words && tokens[k].digits.size() == 16 && digits.empty()) break;
      digits.append(tokens[k].digits.data(), tokens[k].digits.size());
      ++k;
    }
    if (digits.size() != 256) {
      bool words_unpadded = k - first == 16;
      for (size_t t = first; t < k && words_unpadded; ++t) words_unpadded = tokens[t].digits.size() <= 16;
      return Invalid(StrCat("tokens ", tokens[first].position, "..", tokens[k - 1].position, ": ", digits.size(),
                            " hex digits; a map is 256 (128 bytes, byte 0 first)",
                            words_unpadded ? "; if these are the 16 64-bit words of a dump printed without leading zeros, "
                                             "write them with 0x (0x7f0000018300 ...)"
                                           : ""));
    }
    MapBytes map{};
    for (int b = 0; b < kMapBytes; ++b)
      map[b] = static_cast<uint8_t>(HexValue(digits[2 * b]) * 16 + HexValue(digits[2 * b + 1]));
    if (!unprefixed_words && SixteenWords(tokens, first, k)) {
      // 16 tokens of 16 digits: a byte string cut every 8 bytes, or the 64-bit words of a dump printed with
      // %016llx. The reading whose decoded parameters encode back to the same 128 bytes is the map the driver
      // wrote; when the readings differ and both or neither do, the text does not say which it is.
      uint64_t words[16];
      for (size_t w = 0; w < 16; ++w) words[w] = Value(tokens[first + w].digits);
      const MapBytes as_words = FromWords(words);
      if (as_words != map) {
        const bool bytes_ok = Decode(map).reencodes, words_ok = Decode(as_words).reencodes;
        if (bytes_ok == words_ok) {
          return Invalid(StrCat("tokens ", tokens[first].position, "..", tokens[k - 1].position,
                                ": 16 tokens of 16 hex digits are either 64-bit words (a dump printed with %016llx, word 0 "
                                "first) or 128 bytes (byte 0 first), and ",
                                bytes_ok ? "both readings are" : "neither reading is",
                                " a map the measured driver writes; pass --words to read them as words, or write the 256 "
                                "digits without spaces to read them as bytes"));
        }
        if (words_ok) map = as_words;
      }
    }
    out.push_back(map);
  }
  return out;
}

bool LooksLikeText(std::string_view data) {
  for (unsigned char c : data)
    if (!(c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\v' || (c >= 0x20 && c < 0x7f))) return false;
  return true;
}

absl::StatusOr<std::vector<MapBytes>> ParseBlobBinary(std::string_view data) {
  if (data.empty() || data.size() % kMapBytes != 0) {
    return Invalid(StrCat(data.size(), " bytes of binary data; maps are 128 bytes each (the size must be a positive multiple "
                          "of 128)"));
  }
  std::vector<MapBytes> maps;
  for (size_t off = 0; off < data.size(); off += kMapBytes) {
    MapBytes m;
    for (int b = 0; b < kMapBytes; ++b) m[b] = static_cast<uint8_t>(data[off + b]);
    maps.push_back(m);
  }
  return maps;
}

}  // namespace tmapgen::blob
