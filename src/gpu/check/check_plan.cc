#include "src/gpu/check/check_plan.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <set>
#include <tuple>

#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {
namespace {

using model::CopyInstruction;
using model::CopyMode;

int64_t FloorTo(int64_t v, int64_t unit) {
  if (unit <= 1) return v;
  const int64_t q = v >= 0 ? v / unit : -((-v + unit - 1) / unit);
  return q * unit;
}

void AddUnique(std::vector<int64_t>* v, int64_t x) {
  if (x < INT32_MIN || x > INT32_MAX) return;
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

// Start, interior, last full box, hanging past the end, last element, hanging before 0 (loads).
std::vector<int64_t> EdgeCandidates(int64_t n, int64_t box, int64_t unit, bool allow_negative) {
  std::vector<int64_t> c;
  const int64_t mid = n > box ? (n - box) / 2 : 0;
  const int64_t raw[] = {0, mid, n - box, n - box / 2, n - 1, allow_negative ? -(box / 2) : 0,
                         allow_negative ? -std::max<int64_t>(1, box - unit) : 0};
  for (int64_t x : raw) {
    x = FloorTo(x, unit);
    if (!allow_negative && x < 0) x = 0;
    AddUnique(&c, x);
  }
  return c;
}

struct Key {
  std::array<int32_t, kMaxRank> coords;
  std::array<int32_t, 4> rows;
  std::array<uint16_t, 3> offs;
  uint16_t halo, woff;
  bool operator<(const Key& o) const {
    return std::tie(coords, rows, offs, halo, woff) < std::tie(o.coords, o.rows, o.offs, o.halo, o.woff);
  }
};

class Collector {
 public:
  explicit Collector(const CopyInstruction& base) : base_(base) {}
  void Add(const std::vector<int64_t>& coords, std::array<int32_t, 4> rows = {0, 0, 0, 0},
           std::array<uint16_t, 3> offs = {0, 0, 0}, uint16_t halo = 0, uint16_t woff = 0) {
    CopyInstruction in = base_;
    for (size_t i = 0; i < coords.size() && i < kMaxRank; ++i) in.coords[i] = static_cast<int32_t>(coords[i]);
    in.rows = rows;
    for (int i = 0; i < 3; ++i) in.im2col_offsets[i] = offs[i];
    in.w_halo = halo;
    in.w_offset = woff;
    Key k{in.coords, in.rows, offs, halo, woff};
    if (!seen_.insert(k).second) return;
    out_.push_back(in);
  }
  std::vector<CopyInstruction> Take() { return std::move(out_); }

 private:
  CopyInstruction base_;
  std::set<Key> seen_;
  std::vector<CopyInstruction> out_;
};

void TileCoords(const TensorMapSpec& s, bool load, bool gather, Collector* col) {
  const int bits = DataTypeBits(s.data_type);
  const int64_t unit0 = std::max(1, 128 / std::max(1, bits));
  const uint32_t rank = gather ? 1 : s.rank;
  std::vector<std::vector<int64_t>> cand(rank);
  std::vector<int64_t> mid(rank), hang(rank), neg(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    const int64_t n = static_cast<int64_t>(std::min<uint64_t>(s.global_dim[d], INT32_MAX));
    const int64_t box = std::max<int64_t>(1, s.box_dim[d]);
    const int64_t unit = d == 0 ? unit0 : 1;
    cand[d] = EdgeCandidates(n, box, unit, load);
    mid[d] = FloorTo(n > box ? (n - box) / 2 : 0, unit);
    hang[d] = std::max<int64_t>(0, FloorTo(n - box / 2, unit));
    neg[d] = load ? FloorTo(-(box / 2), unit) : 0;
  }
  if (gather) {
    const int64_t n1 = static_cast<int64_t>(std::min<uint64_t>(s.global_dim[1], INT32_MAX - 8));
    const std::array<int32_t, 4> row_sets[] = {
        {0, 1, 2, 3},
        {static_cast<int32_t>(n1 - 1), 0, static_cast<int32_t>(n1 / 2), static_cast<int32_t>(std::max<int64_t>(0, n1 - 2))},
        {static_cast<int32_t>(n1), 1, static_cast<int32_t>(n1 + 3), 0},
    };
    for (int64_t c0 : cand[0]) col->Add({c0}, row_sets[0]);
    for (const auto& r : row_sets) col->Add({mid[0]}, r);
    return;
  }
  col->Add(std::vector<int64_t>(rank, 0));
  col->Add(mid);
  for (uint32_t d = 0; d < rank; ++d)
    for (int64_t x : cand[d]) {
      std::vector<int64_t> c = mid;
      c[d] = x;
      col->Add(c);
    }
  col->Add(hang);
  if (load) col->Add(neg);
}

void Im2colCoords(const TensorMapSpec& s, const CopyInstruction& base, bool load, Collector* col) {
  const uint32_t r = s.rank;
  if (r < 3) return;
  const int bits = DataTypeBits(s.data_type);
  const int64_t unit = std::max(1, 128 / std::max(1, bits));
  const int64_t C = static_cast<int64_t>(s.global_dim[0]);
  const int64_t cpp = std::max<uint32_t>(1, s.channels_per_pixel);
  std::vector<int64_t> ccand;
  AddUnique(&ccand, 0);
  if (C > cpp) AddUnique(&ccand, FloorTo((C - cpp) / 2, unit));
  if (C - cpp / 2 > 0) AddUnique(&ccand, FloorTo(C - cpp / 2, unit));
  const bool wide = base.mode == CopyMode::kIm2colW || base.mode == CopyMode::kIm2colW128 ||
                    (base.mode == CopyMode::kIm2colNoOffs && IsWideMode(s.mode));
  // Spatial dims 1..r-2: the base point must lie inside the bounding box (docs/model.md M4).
  std::vector<std::vector<int64_t>> sc(r - 2);
  std::vector<int64_t> mid(r, 0);
  for (uint32_t i = 1; i + 1 < r; ++i) {
    const int64_t n = static_cast<int64_t>(s.global_dim[i]);
    int64_t lo, hi;
    if (wide) {
      if (i == 1) {
        lo = s.pixel_box_lower_corner_width;
        hi = n - 1 + s.pixel_box_upper_corner_width;
      } else {
        lo = 0;
        hi = n - 1;
      }
    } else {
      lo = s.pixel_box_lower_corner[i - 1];
      hi = n - 1 + s.pixel_box_upper_corner[i - 1];
    }
    if (!load) {
      lo = std::max<int64_t>(lo, 0);
      hi = std::min<int64_t>(hi, n - 1);
    }
    if (lo > hi) return;  // no valid base point
    AddUnique(&sc[i - 1], lo);
    AddUnique(&sc[i - 1], (lo + hi) / 2);
    AddUnique(&sc[i - 1], hi);
    mid[i] = (lo + hi) / 2;
  }
  const int64_t N = static_cast<int64_t>(s.global_dim[r - 1]);
  std::vector<int64_t> b = mid;
  b[0] = 0;
  b[r - 1] = 0;
  col->Add(b);
  for (int64_t c : ccand) {
    std::vector<int64_t> v = b;
    v[0] = c;
    col->Add(v);
  }
  for (uint32_t i = 1; i + 1 < r; ++i)
    for (int64_t x : sc[i - 1]) {
      std::vector<int64_t> v = b;
      v[i] = x;
      col->Add(v);
    }
  {
    std::vector<int64_t> v = b;
    v[r - 1] = N - 1;
    col->Add(v);
    for (uint32_t i = 1; i + 1 < r; ++i) v[i] = sc[i - 1].back();
    col->Add(v);  // the last image, the far corner of the box: the walk runs past the end
  }
  if (base.mode == CopyMode::kIm2col) {
    std::array<uint16_t, 3> offs = {0, 0, 0};
    for (uint32_t i = 0; i + 2 < r; ++i) offs[i] = 1;
    col->Add(b, {0, 0, 0, 0}, offs);
  }
  if (base.mode == CopyMode::kIm2colW || base.mode == CopyMode::kIm2colW128) {
    col->Add(b, {0, 0, 0, 0}, {0, 0, 0}, 1, 0);
    col->Add(b, {0, 0, 0, 0}, {0, 0, 0}, 2, 1);
  }
}

struct Template {
  Direction dir;
  CopyMode mode;
  bool prefetch;
};

}  // namespace

std::vector<CopyInstruction> CoordinateSet(const TensorMapSpec& spec, const CopyInstruction& base) {
  Collector col(base);
  const bool load = IsLoad(base.direction);
  switch (base.mode) {
    case CopyMode::kTile: TileCoords(spec, load, false, &col); break;
    case CopyMode::kTileGather4: case CopyMode::kTileScatter4: TileCoords(spec, load, true, &col); break;
    default: Im2colCoords(spec, base, load, &col); break;
  }
  std::vector<CopyInstruction> out = col.Take();
  for (size_t k = 0; k < out.size(); ++k)
    if (!spec.Has(kFieldSmemAddress)) out[k].smem_address = 1024 + 128 * (k % 8);
  return out;
}

std::string CopyKindName(const CheckCase& c) {
  std::string s;
  switch (c.in.direction) {
    case Direction::kLoadCta: s = c.prefetch ? "prefetch+load" : "load cta"; break;
    case Direction::kLoadCluster: s = "load cluster"; break;
    case Direction::kStore: s = "store"; break;
    case Direction::kReduce: s = "reduce " + std::string(Name(c.in.reduce_op)); break;
    default: s = std::string(Name(c.in.direction));
  }
  if (c.in.mode != CopyMode::kTile) s += " " + std::string(model::Name(c.in.mode));
  return s;
}

std::string CoordText(const TensorMapSpec& spec, const CopyInstruction& in) {
  std::string s = "(";
  const bool g = in.mode == CopyMode::kTileGather4 || in.mode == CopyMode::kTileScatter4;
  const uint32_t n = g ? 1 : spec.rank;
  for (uint32_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(in.coords[i]);
  s += ")";
  if (g) s += " rows " + std::to_string(in.rows[0]) + "," + std::to_string(in.rows[1]) + "," +
              std::to_string(in.rows[2]) + "," + std::to_string(in.rows[3]);
  if (in.mode == CopyMode::kIm2col && spec.rank >= 3) {
    s += " offsets";
    for (uint32_t i = 0; i + 2 < spec.rank; ++i) s += (i ? "," : " ") + std::to_string(in.im2col_offsets[i]);
  }
  if (in.mode == CopyMode::kIm2colW || in.mode == CopyMode::kIm2colW128)
    s += " wHalo " + std::to_string(in.w_halo) + " wOffset " + std::to_string(in.w_offset);
  char buf[32];
  std::snprintf(buf, sizeof buf, " smem 0x%llx", static_cast<unsigned long long>(in.smem_address));
  return s + buf;
}

void PlanChecks(const TensorMapSpec& spec, int spec_index, uint64_t seed, Plan* plan) {
  std::vector<Template> t;
  auto add = [&t](Direction d, CopyMode m, bool p) { t.push_back(Template{d, m, p}); };
  switch (spec.mode) {
    case Mode::kTiled:
      add(Direction::kLoadCta, CopyMode::kTile, false);
      add(Direction::kLoadCluster, CopyMode::kTile, false);
      add(Direction::kLoadCta, CopyMode::kTile, true);
      add(Direction::kStore, CopyMode::kTile, false);
      add(Direction::kReduce, CopyMode::kTile, false);
      break;
    case Mode::kIm2col:
      add(Direction::kLoadCta, CopyMode::kIm2col, false);
      add(Direction::kLoadCluster, CopyMode::kIm2col, false);
      add(Direction::kStore, CopyMode::kIm2colNoOffs, false);
      break;
    case Mode::kIm2colW:
      add(Direction::kLoadCta, CopyMode::kIm2colW, false);
      add(Direction::kStore, CopyMode::kIm2colNoOffs, false);
      break;
    case Mode::kIm2colW128:
      add(Direction::kLoadCta, CopyMode::kIm2colW128, false);
      add(Direction::kStore, CopyMode::kIm2colNoOffs, false);
      break;
    case Mode::kGather4: add(Direction::kLoadCta, CopyMode::kTileGather4, false); break;
    case Mode::kScatter4: add(Direction::kStore, CopyMode::kTileScatter4, false); break;
  }
  uint64_t k = 0;
  for (const Template& tp : t) {
    TensorMapSpec s = spec;
    s.direction = tp.dir;
    s.set_fields |= kFieldDirection;
    if (tp.dir == Direction::kReduce) {
      s.reduce_op = ReduceOp::kAdd;
      s.set_fields |= kFieldReduceOp;
      uint8_t a[8] = {}, b[8] = {};
      if (!model::ReduceElement(s.data_type, ReduceOp::kAdd, a, b)) continue;
    }
    model::CopyInstruction base = model::DefaultInstruction(s);
    base.mode = tp.mode;
    base.direction = tp.dir;
    base.reduce_op = s.reduce_op;
    for (model::CopyInstruction in : CoordinateSet(s, base)) {
      absl::StatusOr<model::CopyLayout> L = model::DescribeCopy(s, in);
      if (!L.ok()) {
        const uint64_t phase_addr = in.smem_address;
        in.smem_address = 1024;  // some swizzles want a 1024-aligned destination
        if (phase_addr != 1024) L = model::DescribeCopy(s, in);
        if (!L.ok()) {
          if (plan->skipped++ == 0) plan->first_skip_reason = std::string(StatusMessage(L.status()));
          continue;
        }
      }
      CheckCase c;
      c.spec = s;
      c.in = in;
      c.prefetch = tp.prefetch;
      c.spec_index = spec_index;
      c.seed = seed * 0x9E3779B97F4A7C15ull + (++k);
      c.label = CopyKindName(c) + " at " + CoordText(s, in);
      plan->cases.push_back(std::move(c));
    }
  }
}

std::string HardwareRequirement(const TensorMapSpec& spec, const CopyInstruction& in, int cc_major, int cc_minor) {
  const bool sm100 = in.mode == CopyMode::kTileGather4 || in.mode == CopyMode::kTileScatter4 ||
                     in.mode == CopyMode::kIm2colW || in.mode == CopyMode::kIm2colW128 || IsWideMode(spec.mode) ||
                     IsAtomicitySwizzle(spec.swizzle) || IsSubByte(spec.data_type);
  const std::string here = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
  if (sm100 && cc_major != 10) return "needs sm_100a; this GPU is " + here;
  if (cc_major != 9 && cc_major != 10) return "the embedded kernels are for sm_90a and sm_100a; this GPU is " + here;
  return "";
}

std::string GlobalCoordOf(const TensorMapSpec& s, uint64_t off) {
  const uint32_t r = std::max<uint32_t>(1, std::min<uint32_t>(s.rank, kMaxRank));
  std::array<uint64_t, kMaxRank> x{};
  for (uint32_t d = r - 1; d >= 1; --d) {
    const uint64_t st = s.global_strides[d - 1];
    if (st == 0) break;
    x[d] = off / st;
    off %= st;
  }
  const int bits = DataTypeBits(s.data_type);
  x[0] = off * 8 / static_cast<uint64_t>(std::max(1, bits));
  std::string t = "(";
  for (uint32_t d = 0; d < r; ++d) t += (d ? ", " : "") + std::to_string(x[d]);
  return t + ")";
}

namespace {
const char* StateName(uint8_t st) {
  switch (st) {
    case model::kUntouched: return "untouched";
    case model::kData: return "data";
    case model::kFill: return "OOB fill";
    case model::kPadding: return "padding";
  }
  return "?";
}
}  // namespace

Comparison CompareLoad(const TensorMapSpec& spec, const CopyInstruction& in, const model::SmemImage& img,
                       const uint8_t* gpu, size_t n, int max_shown) {
  Comparison c;
  std::vector<model::ElementPlacement> places;
  bool have_places = false;
  const int bits = DataTypeBits(spec.data_type);
  const size_t m = std::min(n, img.bytes.size());
  for (size_t i = 0; i < m; ++i) {
    const uint8_t st = img.state[i];
    const uint8_t want = st == model::kUntouched ? kSentinelByte : img.bytes[i];
    if (st == model::kPadding || gpu[i] == want) continue;
    if (c.equal) {
      c.first.present = true;
      c.first.offset = i;
      for (size_t j = i; j < m && j < i + kMismatchWindow; ++j) {
        const uint8_t sj = img.state[j];
        c.first.expected.push_back(static_cast<char>(sj == model::kUntouched ? kSentinelByte
                                                     : sj == model::kPadding   ? gpu[j]
                                                                                : img.bytes[j]));
        c.first.actual.push_back(static_cast<char>(gpu[j]));
      }
    }
    c.equal = false;
    if (c.differing++ >= static_cast<uint64_t>(max_shown)) continue;
    if (!have_places) {
      model::ModelPlacements(spec, in, &places, nullptr).IgnoreError();  // no places: no location shown
      have_places = true;
    }
    std::string where = "";
    for (const auto& p : places) {
      if (p.smem_bit / 8 <= i && i < (p.smem_bit + static_cast<uint64_t>(bits) + 7) / 8) {
        where = " element (";
        const uint32_t rr = (in.mode == CopyMode::kTileGather4 || in.mode == CopyMode::kTileScatter4) ? 2 : spec.rank;
        for (uint32_t d = 0; d < rr; ++d) where += (d ? ", " : "") + std::to_string(p.coord[d]);
        where += ") row " + std::to_string(p.row) + (p.oob ? " out of bounds" : "");
        break;
      }
    }
    char buf[200];
    std::snprintf(buf, sizeof buf, "    smem byte %zu%s: expected 0x%02x (%s) got 0x%02x\n", i, where.c_str(), want,
                  StateName(st), gpu[i]);
    c.report += buf;
  }
  if (!c.equal) c.report = std::to_string(c.differing) + " of " + std::to_string(m) + " shared-memory bytes differ\n" + c.report;
  c.first.differing = c.differing;
  c.first.compared = m;
  return c;
}

Comparison CompareStore(const TensorMapSpec& spec, const uint8_t* before, const uint8_t* expected, const uint8_t* gpu,
                        size_t n, int max_shown) {
  Comparison c;
  for (size_t i = 0; i < n; ++i) {
    if (gpu[i] == expected[i]) continue;
    if (c.equal) {
      c.first.present = true;
      c.first.global = true;
      c.first.offset = i;
      const size_t e = std::min(n, i + kMismatchWindow);
      c.first.expected.assign(reinterpret_cast<const char*>(expected + i), e - i);
      c.first.actual.assign(reinterpret_cast<const char*>(gpu + i), e - i);
    }
    c.equal = false;
    if (c.differing++ >= static_cast<uint64_t>(max_shown)) continue;
    char buf[200];
    std::snprintf(buf, sizeof buf, "    global byte %zu element %s: expected 0x%02x got 0x%02x (before the copy 0x%02x)\n",
                  i, GlobalCoordOf(spec, i).c_str(), expected[i], gpu[i], before[i]);
    c.report += buf;
  }
  if (!c.equal) c.report = std::to_string(c.differing) + " of " + std::to_string(n) + " global bytes differ\n" + c.report;
  c.first.differing = c.differing;
  c.first.compared = n;
  return c;
}

void FillRandom(uint64_t seed, uint8_t* p, size_t n) {
  uint64_t x = seed ^ 0x243F6A8885A308D3ull;
  size_t i = 0;
  auto next = [&x] {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (; i + 8 <= n; i += 8) {
    const uint64_t v = next();
    std::memcpy(p + i, &v, 8);
  }
  if (i < n) {
    const uint64_t v = next();
    std::memcpy(p + i, &v, n - i);
  }
}

}  // namespace tmapgen::gpu
