#include "src/gpu/matrix/matrix.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>

#include "src/gpu/check/check_runner.h"
#include "src/tmap/validator.h"

namespace tmapgen::gpu {
namespace {

using model::CopyMode;

struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int Pick(int lo, int hi) { return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1)); }
};

enum Kind { kLoadCta, kLoadCluster, kStore, kReduce, kIm2colLoad, kIm2colStore, kNumKinds };
const char* const kKindNames[kNumKinds] = {"tile load .shared::cta", "tile load .shared::cluster", "tile store",
                                           "tile reduce", "im2col load", "im2col_no_offs store"};

// Small tensors keep the host side (seeded fill, upload, whole-tensor compare of stores) far below the GPU's
// pace: the matrix is about many configurations, not big ones (tmapgen check and bench cover big tensors).
constexpr uint64_t kMaxTensorBytes = 96 * 1024;
uint64_t TensorBytes(const TensorMapSpec& s) {
  if (s.rank <= 1) return s.global_dim[0] * static_cast<uint64_t>(DataTypeBits(s.data_type)) / 8;
  return s.global_strides[s.rank - 2] * s.global_dim[s.rank - 1];
}

bool MakeTiled(Rng& r, DataType t, Swizzle sw, TensorMapSpec* out) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(r.Pick(1, 5));
  s.swizzle = sw;
  const uint32_t eb = static_cast<uint32_t>(DataTypeBits(t) / 8);
  const uint32_t span = sw == Swizzle::kNone ? 256 : static_cast<uint32_t>(SwizzleSpanBytes(sw));
  const uint32_t unit = 16 / eb;
  const uint32_t max_inner = std::min<uint32_t>(256, span / eb);
  s.box_dim[0] = unit * static_cast<uint32_t>(r.Pick(1, static_cast<int>(std::max<uint32_t>(1, max_inner / unit))));
  s.global_dim[0] = static_cast<uint64_t>(r.Pick(1, 3 * static_cast<int>(s.box_dim[0])));
  uint64_t rows = 1;
  for (uint32_t d = 1; d < s.rank; ++d) {
    s.global_dim[d] = static_cast<uint64_t>(r.Pick(1, 12));
    s.box_dim[d] = static_cast<uint32_t>(r.Pick(1, 8));
    s.element_strides[d] = static_cast<uint32_t>(r.Pick(1, 3));
    rows *= (s.box_dim[d] + s.element_strides[d] - 1) / s.element_strides[d];
  }
  if (rows * std::max<uint32_t>(span, s.box_dim[0] * eb) > 48000) return false;
  if (IsFloat(t) && r.Pick(0, 1)) s.oob_fill = OobFill::kNanRequestZeroFma;
  FillPaddedStrides(&s);
  if (s.rank >= 2 && r.Pick(0, 3) == 0) {
    s.global_strides[0] += 16 * static_cast<uint64_t>(r.Pick(1, 4));
    for (uint32_t d = 1; d + 1 < s.rank; ++d) s.global_strides[d] = s.global_strides[d - 1] * s.global_dim[d];
  }
  if (TensorBytes(s) > kMaxTensorBytes) return false;
  *out = s;
  return true;
}

bool MakeIm2col(Rng& r, DataType t, Swizzle sw, TensorMapSpec* out) {
  TensorMapSpec s;
  s.mode = Mode::kIm2col;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(r.Pick(3, 5));
  s.swizzle = sw;
  const uint32_t eb = static_cast<uint32_t>(DataTypeBits(t) / 8);
  const uint32_t span = sw == Swizzle::kNone ? 256 : static_cast<uint32_t>(SwizzleSpanBytes(sw));
  const uint32_t unit = 16 / eb;
  const uint32_t max_c = std::min<uint32_t>(256, span / eb);
  s.channels_per_pixel = unit * static_cast<uint32_t>(r.Pick(1, static_cast<int>(std::max<uint32_t>(1, max_c / unit))));
  s.global_dim[0] = unit * static_cast<uint64_t>(r.Pick(1, 2 * static_cast<int>(s.channels_per_pixel / unit) + 1));
  const int corner_max = s.rank == 3 ? 3 : (s.rank == 4 ? 3 : 2);
  for (uint32_t d = 1; d + 1 < s.rank; ++d) {
    s.global_dim[d] = static_cast<uint64_t>(r.Pick(2, 10));
    s.pixel_box_lower_corner[d - 1] = -r.Pick(0, corner_max);
    s.pixel_box_upper_corner[d - 1] = -r.Pick(0, corner_max);
    s.element_strides[d] = static_cast<uint32_t>(r.Pick(1, 2));
  }
  s.global_dim[s.rank - 1] = static_cast<uint64_t>(r.Pick(1, 3));
  s.pixels_per_column = static_cast<uint32_t>(r.Pick(1, 64));
  if (static_cast<uint64_t>(s.pixels_per_column) * std::max<uint32_t>(span, s.channels_per_pixel * eb) > 48000)
    return false;
  if (IsFloat(t) && r.Pick(0, 1)) s.oob_fill = OobFill::kNanRequestZeroFma;
  FillPaddedStrides(&s);
  if (TensorBytes(s) > kMaxTensorBytes) return false;
  *out = s;
  return true;
}

std::string KindOfCase(const CheckCase& c) {
  switch (c.in.mode) {
    case CopyMode::kIm2col: return kKindNames[kIm2colLoad];
    case CopyMode::kIm2colNoOffs: return kKindNames[kIm2colStore];
    default: break;
  }
  switch (c.in.direction) {
    case Direction::kLoadCta: return kKindNames[kLoadCta];
    case Direction::kLoadCluster: return kKindNames[kLoadCluster];
    case Direction::kStore: return kKindNames[kStore];
    default: return kKindNames[kReduce];
  }
}

}  // namespace

std::vector<CheckCase> MatrixCases(uint64_t count, uint64_t seed) {
  std::vector<CheckCase> out;
  out.reserve(count);
  Rng r{seed};
  const int kTypes = 13;  // every non-sub-byte type: what sm_90 copies
  const Swizzle sws[4] = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
  uint64_t tries = 0, cell = 0;
  while (out.size() < count && tries < count * 50) {
    ++tries;
    const uint64_t c = cell++;
    const int kind = static_cast<int>(c % kNumKinds);
    const Swizzle sw = sws[(c / kNumKinds) % 4];
    const DataType t = static_cast<DataType>((c / (kNumKinds * 4)) % kTypes);
    TensorMapSpec s;
    const bool im2col = kind == kIm2colLoad || kind == kIm2colStore;
    if (!(im2col ? MakeIm2col(r, t, sw, &s) : MakeTiled(r, t, sw, &s))) continue;
    model::CopyInstruction in;
    switch (kind) {
      case kLoadCta: in.direction = Direction::kLoadCta; in.mode = CopyMode::kTile; break;
      case kLoadCluster: in.direction = Direction::kLoadCluster; in.mode = CopyMode::kTile; break;
      case kStore: in.direction = Direction::kStore; in.mode = CopyMode::kTile; break;
      case kReduce: {
        in.direction = Direction::kReduce;
        in.mode = CopyMode::kTile;
        in.reduce_op = static_cast<ReduceOp>(r.Pick(0, 7));
        uint8_t a[8] = {}, b[8] = {};
        if (!model::ReduceElement(t, in.reduce_op, a, b)) continue;
        break;
      }
      case kIm2colLoad: in.direction = Direction::kLoadCta; in.mode = CopyMode::kIm2col; break;
      default: in.direction = Direction::kStore; in.mode = CopyMode::kIm2colNoOffs; break;
    }
    s.direction = in.direction;
    s.reduce_op = in.reduce_op;
    s.target = Target::kSm90a;
    s.set_fields |= kFieldTarget | kFieldDirection | kFieldReduceOp;
    Validation v;
    Validate(s, &v);
    if (!v.valid) continue;
    std::vector<model::CopyInstruction> coords = CoordinateSet(s, in);
    if (coords.empty()) continue;
    model::CopyInstruction pick = coords[r.Next() % coords.size()];
    pick.smem_address = 1024 + 128 * static_cast<uint64_t>(r.Pick(0, 7));
    if (!model::DescribeCopy(s, pick).ok()) continue;
    CheckCase cc;
    cc.spec = s;
    cc.in = pick;
    cc.seed = r.Next();
    cc.spec_index = static_cast<int>(out.size());
    cc.label = CopyKindName(cc) + " " + std::string(ShortName(t)) + " " + std::string(ShortName(sw)) + " rank " +
               std::to_string(s.rank) + " at " + CoordText(s, pick);
    out.push_back(std::move(cc));
  }
  return out;
}

int RunMatrix(const MatrixOptions& opt, FILE* out) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<CheckCase> cases = MatrixCases(opt.count, opt.seed);
  const double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RunOptions ro;
  ro.unit = opt.unit;
  ro.max_seconds = opt.max_seconds;
  ro.watchdog_s = 20;
  std::vector<CaseResult> res;
  RunSummary sum;
  RunChecks(cases, ro, &res, &sum);
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!sum.gpu_available) {
    std::fprintf(out, "tmapgen sweep --matrix: no GPU: %s\n", sum.why_no_gpu.c_str());
    return 2;
  }
  std::fprintf(out, "coverage matrix on %s: %zu configurations (seed %llu), byte-exact against the model\n",
               sum.device.c_str(), cases.size(), static_cast<unsigned long long>(opt.seed));
  // cell key: kind x swizzle -> {checked, bad}
  std::map<std::pair<std::string, std::string>, std::pair<int, int>> cells;
  std::map<std::string, std::pair<int, int>> by_type;
  std::map<std::string, int> failures_by_kind;  // "FAULT reduce and f32" -> count
  int pass = 0, bad = 0, notrun = 0, shown = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const CheckCase& c = cases[i];
    const std::string k = KindOfCase(c);
    const std::string sw(ShortName(c.spec.swizzle));
    auto& cell = cells[{k, sw}];
    auto& ty = by_type[std::string(ShortName(c.spec.data_type))];
    if (res[i].outcome == Outcome::kNotRun) {
      ++notrun;
      continue;
    }
    ++cell.first;
    ++ty.first;
    if (res[i].outcome == Outcome::kPass) {
      ++pass;
    } else {
      ++bad;
      ++cell.second;
      ++ty.second;
      ++failures_by_kind[std::string(OutcomeName(res[i].outcome)) + " " + CopyKindName(c) + " " +
                         std::string(ShortName(c.spec.data_type))];
      if (shown++ < opt.max_failures_shown)
        std::fprintf(out, "%s %s\n%s", OutcomeName(res[i].outcome), c.label.c_str(), res[i].detail.c_str());
      if (!res[i].detail.empty() && res[i].detail.back() != '\n') std::fputc('\n', out);
    }
  }
  const char* swz[4] = {"none", "32B", "64B", "128B"};
  std::fprintf(out, "\n%-28s", "checked (mismatches)");
  for (const char* s : swz) std::fprintf(out, " %14s", s);
  std::fprintf(out, "\n");
  for (const char* k : kKindNames) {
    std::fprintf(out, "%-28s", k);
    for (const char* s : swz) {
      const auto it = cells.find({k, s});
      const auto v = it == cells.end() ? std::make_pair(0, 0) : it->second;
      std::fprintf(out, " %8d (%3d)", v.first, v.second);
    }
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "\nby data type:");
  for (const auto& [t, v] : by_type) std::fprintf(out, " %s %d(%d)", t.c_str(), v.first, v.second);
  std::fprintf(out, "\n\n%d checked on hardware: %d pass, %d mismatch/timeout/fault; %d not run (time budget or "
                    "this GPU); %d child process(es)\n",
               pass + bad, pass, bad, notrun, sum.children);
  std::fprintf(out, "time: %.2f s end to end (generation %.2f s, GPU run + compare %.2f s): %.0f configurations/s\n",
               total_s, gen_s, sum.seconds, total_s > 0 ? (pass + bad) / total_s : 0.0);
  if (!failures_by_kind.empty()) {
    std::fprintf(out, "failures by copy kind and type:");
    for (const auto& [k, n] : failures_by_kind) std::fprintf(out, " [%s: %d]", k.c_str(), n);
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "not covered on this GPU: gather4, scatter4, im2col::w, im2col::w::128, the 128B atomicity "
                    "swizzles and the sub-byte types (they need sm_100a)\n");
  return bad == 0 ? 0 : 1;
}

}  // namespace tmapgen::gpu
