// blob_text.h: the text forms of 128-byte tensor maps that users paste: hex digits, 64-bit words, bytes.
//
// Contract
// - ParseBlobText reads a sequence of maps from `text`. Tokens are separated by whitespace, commas,
//   semicolons, colons, '=' and the brackets {}[](); everything else must be hex digits, optionally with a
//   0x/0X prefix. Each map is one of:
//     (a) 256 hex digits without prefixes, grouped into tokens any way (one token of 256, 128 tokens of
//         2, 16 of 16, ...): byte 0 first (the shared corpus form, the form `bytes` fields print);
//     (b) 16 tokens with the 0x prefix, of at most 16 digits each: the 64-bit little-endian words of a
//         CUTLASS-style dump, word 0 first;
//     (c) 128 tokens with the 0x prefix, of at most 2 digits each: the bytes, byte 0 first.
//   A run of prefixed tokens is read as words when any of them has more than 2 digits or when it has 16
//   tokens (then 16 per map), else as bytes (128 per map). With `unprefixed_words`, unprefixed tokens of
//   exactly 16 digits are read as 64-bit words as well (a word dump printed without 0x).
//   Without it, a map of exactly 16 unprefixed tokens of 16 digits is either (a) or such a word dump: it is
//   read the way whose decoded parameters encode back to the same bytes (blob::Decode's `reencodes`); when
//   the two readings differ and both or neither re-encode, it is an error that names both forms and the fix.
// - Errors are kInvalidArgument naming the offending token (1-based position) and what was expected; no
//   partial result.
// - No I/O.
#ifndef TMAPGEN_SRC_BLOB_BLOB_TEXT_H_
#define TMAPGEN_SRC_BLOB_BLOB_TEXT_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/blob/layout.h"

namespace tmapgen::blob {

absl::StatusOr<std::vector<MapBytes>> ParseBlobText(std::string_view text, bool unprefixed_words);

// True when `data` looks like text (printable ASCII and whitespace only), so that a file is read as hex text
// rather than as binary maps.
bool LooksLikeText(std::string_view data);

// Binary maps: data.size() must be a positive multiple of 128 (else kInvalidArgument).
absl::StatusOr<std::vector<MapBytes>> ParseBlobBinary(std::string_view data);

}  // namespace tmapgen::blob

#endif  // TMAPGEN_SRC_BLOB_BLOB_TEXT_H_
