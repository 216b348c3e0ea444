#include "src/model/bank_conflicts.h"

#include <algorithm>

#include "src/model/swizzle.h"

namespace tmapgen::model {
namespace {

uint64_t ChunkAddress(const CopyLayout& L, Swizzle s, uint64_t dst, uint32_t row, uint32_t chunk) {
  const uint32_t rows = std::max<uint32_t>(1, L.rows);
  const uint32_t chunks = std::max<uint32_t>(1, (L.row_bytes + 15) / 16);
  row %= rows;
  chunk %= chunks;
  return SwizzleAddress(s, dst + static_cast<uint64_t>(row) * L.row_pitch + static_cast<uint64_t>(chunk) * 16);
}

}  // namespace

int Wavefronts16(const std::vector<uint64_t>& addresses, int* worst_phase) {
  int total = 0, worst = 0;
  for (size_t p = 0; p < addresses.size(); p += 8) {
    // Distinct 16-byte addresses per bank group within the phase.
    std::vector<uint64_t> seen[8];
    for (size_t i = p; i < p + 8 && i < addresses.size(); ++i) {
      const uint64_t a = addresses[i] / 16;
      std::vector<uint64_t>& g = seen[a % 8];
      if (std::find(g.begin(), g.end(), a) == g.end()) g.push_back(a);
    }
    int w = 0;
    for (const auto& g : seen) w = std::max(w, static_cast<int>(g.size()));
    total += w;
    worst = std::max(worst, w);
  }
  if (worst_phase != nullptr) *worst_phase = worst;
  return total;
}

std::vector<BankPattern> AnalyzeBankConflicts(const CopyLayout& L, Swizzle s, uint64_t dst) {
  std::vector<BankPattern> out;
  const uint32_t chunks = std::max<uint32_t>(1, (L.row_bytes + 15) / 16);
  auto add = [&](const char* name, const char* desc, const std::vector<uint64_t>& a) {
    BankPattern b;
    b.name = name;
    b.description = desc;
    b.wavefronts = Wavefronts16(a, &b.worst_phase);
    b.ideal = static_cast<int>((a.size() + 7) / 8);
    out.push_back(b);
  };
  std::vector<uint64_t> a;
  for (uint32_t t = 0; t < 32; ++t) a.push_back(ChunkAddress(L, s, dst, t / chunks, t % chunks));
  add("row", "a warp reads 32 consecutive 16-byte chunks along the rows (LDS.128 of a row)", a);
  a.clear();
  for (uint32_t t = 0; t < 32; ++t) a.push_back(ChunkAddress(L, s, dst, t, 0));
  add("column", "a warp reads the first 16-byte chunk of 32 consecutive rows (a column)", a);
  a.clear();
  // ldmatrix.x4: matrix m = t / 8 covers rows (m % 2) * 8 .. +7 and chunk m / 2.
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t m = t / 8;
    a.push_back(ChunkAddress(L, s, dst, (m % 2) * 8 + t % 8, m / 2));
  }
  add("ldmatrix", "ldmatrix.x4 of a 16x16 b16 tile: chunks 0-1 of rows 0-15, one 8x8 matrix per phase", a);
  return out;
}

}  // namespace tmapgen::model
