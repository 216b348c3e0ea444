// name_index.h: a small compile-time hash table from names (ASCII case-insensitive) to small values,
// for the enum names of specs (tmapgen::Parse in src/tmap/types.cc), so that a name is found with one
// hash and one compare instead of a scan over every name and alias.
//
// Contract
// - NameIndex<kSlots>: open addressing with linear probing over kSlots slots (a power of two); Add()
//   ignores a name already present (so the first name added wins, as a scan in the same order would),
//   and fails (returns false) when the table is full. Built in a constexpr context, it costs nothing at
//   run time.
// - Find(s, &v): true and the value of the name equal to s ignoring ASCII case; false otherwise. Each
//   slot keeps its name's hash, so a probe compares names only when the hashes agree.
// - The hash (length, first, middle and last byte) folds ASCII upper case to lower case, so names
//   differing only in case hash alike.
#ifndef TMAPGEN_SRC_UTIL_NAME_INDEX_H_
#define TMAPGEN_SRC_UTIL_NAME_INDEX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "src/util/text_util.h"

namespace tmapgen {

template <size_t kSlots>
class NameIndex {
  static_assert(kSlots >= 2 && (kSlots & (kSlots - 1)) == 0, "a power of two");

 public:
  constexpr NameIndex() = default;

  constexpr bool Add(std::string_view name, uint8_t value) {
    const uint32_t h = Hash(name);
    size_t i = h & (kSlots - 1);
    for (size_t probes = 0; probes < kSlots; ++probes, i = (i + 1) & (kSlots - 1)) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.name = name;
        s.value = value;
        s.hash = h;
        return true;
      }
      if (EqualsIgnoreCase(s.name, name)) return true;  // the first one wins
    }
    return false;
  }

  bool Find(std::string_view name, uint8_t* value) const {
    // A slot is compared only when its stored hash is the name's: names equal ignoring case hash alike.
    const uint32_t h = Hash(name);
    size_t i = h & (kSlots - 1);
    for (size_t probes = 0; probes < kSlots; ++probes, i = (i + 1) & (kSlots - 1)) {
      const Slot& s = slots_[i];
      if (!s.used) return false;
      if (s.hash == h && s.name.size() == name.size() &&
          (SameBytes(s.name.data(), name.data(), name.size()) || EqualsIgnoreCase(s.name, name))) {
        *value = s.value;
        return true;
      }
    }
    return false;
  }

  // The length and three bytes (first, middle, last), case folded: enough to spread the few names of an
  // enum, and a handful of instructions.
  static constexpr uint32_t Hash(std::string_view s) {
    const size_t n = s.size();
    if (n == 0) return 0;
    const uint32_t h = static_cast<uint32_t>(n) * 0x9E3779B1u ^ Lower(s[0]) * 0x85EBCA77u ^
                       Lower(s[n / 2]) * 0xC2B2AE3Du ^ Lower(s[n - 1]) * 0x27D4EB2Fu;
    return h ^ (h >> 16);
  }

 private:
  // Exact equality of n bytes: overlapping word loads inside both names (no call, no byte loop).
  static bool SameBytes(const char* a, const char* b, size_t n) {
    if (n >= 8) {
      uint64_t diff = 0;
      size_t i = 0;
      for (; i + 8 < n; i += 8) diff |= Load8(a + i) ^ Load8(b + i);
      return (diff | (Load8(a + n - 8) ^ Load8(b + n - 8))) == 0;
    }
    if (n >= 4) return ((Load4(a) ^ Load4(b)) | (Load4(a + n - 4) ^ Load4(b + n - 4))) == 0;
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  static uint64_t Load8(const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
  }
  static uint32_t Load4(const char* p) {
    uint32_t x;
    std::memcpy(&x, p, 4);
    return x;
  }
  static constexpr uint32_t Lower(char c) {
    return static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  struct Slot {
    std::string_view name;
    uint32_t hash = 0;
    uint8_t value = 0;
    bool used = false;
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_NAME_INDEX_H_
