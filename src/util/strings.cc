#include "src/util/strings.h"

#include <cstring>

namespace tmapgen {
namespace strings_internal {
namespace {

constexpr size_t kStackBytes = 512;

size_t Total(const absl::AlphaNum* pieces, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) total += pieces[i].size();
  return total;
}

// Copies the pieces to buf (which holds at least their total size).
void Join(const absl::AlphaNum* pieces, size_t n, char* buf) {
  for (size_t i = 0; i < n; ++i) {
    const size_t k = pieces[i].size();
    if (k != 0) std::memcpy(buf, pieces[i].data(), k);
    buf += k;
  }
}

}  // namespace

std::string ConcatPieces(const absl::AlphaNum* pieces, size_t n) {
  const size_t total = Total(pieces, n);
  if (total <= kStackBytes) {
    char buf[kStackBytes];
    Join(pieces, n, buf);
    return std::string(buf, total);
  }
  std::string out;
  out.reserve(total);
  for (size_t i = 0; i < n; ++i) out.append(pieces[i].data(), pieces[i].size());
  return out;
}

void AppendPieces(std::string* out, const absl::AlphaNum* pieces, size_t n) {
  const size_t total = Total(pieces, n);
  if (total <= kStackBytes) {
    char buf[kStackBytes];
    Join(pieces, n, buf);
    out->append(buf, total);
    return;
  }
  out->reserve(out->size() + total);
  for (size_t i = 0; i < n; ++i) out->append(pieces[i].data(), pieces[i].size());
}

}  // namespace strings_internal
}  // namespace tmapgen
