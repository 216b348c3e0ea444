// spec_json_keys.h: what the two JSON readers of a spec share (the full reader, spec_json.cc, and the fast
// path, spec_json_fast.cc): finding a key of the field table (src/tmap/spec_fields.h) with one hash and one
// compare, and reading the texts of an address and of a driver version. Internal to src/schema.
#ifndef TMAPGEN_SRC_SCHEMA_SPEC_JSON_KEYS_H_
#define TMAPGEN_SRC_SCHEMA_SPEC_JSON_KEYS_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>

#include "src/tmap/spec_fields.h"

namespace tmapgen::internal_spec_json {

constexpr bool KeyLengthsFit() {
  for (const FieldInfo& k : kSpecFields)
    if (k.key.size() < 4 || k.key.size() > 29) return false;
  return true;
}
static_assert(KeyLengthsFit(), "FindKey takes keys of 4..29 bytes (its hash and SameBytes read 4 bytes at least; "
                               "a key with its quotes and colon fits the fast path's 32-byte patterns)");

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
  std::array<uint8_t, 128> slot{};  // 1 + index into kSpecFields, 0: empty
  constexpr KeyTable() {
    for (uint32_t i = 1; i < 4096 && multiplier == 0; ++i) {
      const uint32_t m = KeyMultiplier(i);
      std::array<uint8_t, 128> t{};
      bool ok = true;
      for (size_t k = 0; k < kNumSpecFields && ok; ++k) {
        const char* p = kSpecFields[k].key.data();
        const size_t n = kSpecFields[k].key.size();
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

// The row of kSpecFields whose key is `key`, or kNumSpecFields.
inline size_t FindKey(std::string_view key) {
  const size_t n = key.size();
  if (n < 4 || n > KeyTable::kMaxLen) return kNumSpecFields;
  const char* p = key.data();
  uint32_t first = LoadWord4(p), middle = LoadWord4(p + n / 2 - 2), last = LoadWord4(p + n - 4);
  if constexpr (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) first = Word4(p), middle = Word4(p + n / 2 - 2), last = Word4(p + n - 4);
  const uint8_t s = kKeyTable.slot[(KeyMix(first, middle, last, n) * kKeyTable.multiplier) >> 25];
  if (s == 0) return kNumSpecFields;
  const std::string_view k = kSpecFields[s - 1].key;
  return k.size() == n && SameBytes(k.data(), p, n) ? size_t{s} - 1 : size_t{kNumSpecFields};
}

// An address written as a string: "0x..." (hex) or decimal digits, the whole text, within 64 bits. What went
// wrong is told by the result: std::errc::result_out_of_range for more than 64 bits, another error otherwise.
std::errc ParseAddressText(std::string_view sv, uint64_t* out);

// ParseDriverVersion (spec_json.h) without the error's text (the fast path reads many).
bool DriverVersionOf(std::string_view s, uint32_t* out);

}  // namespace tmapgen::internal_spec_json

#endif  // TMAPGEN_SRC_SCHEMA_SPEC_JSON_KEYS_H_
