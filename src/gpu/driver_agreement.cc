// driver_agreement.cc: the validator-vs-driver comparison (random specs biased to rule boundaries, and
// hand-made boundary probes), shared by `tmapgen sweep --random` and tools/driver_agreement.cc. Moved here
// from tools/driver_agreement.cc unchanged; the header comment of that tool describes the classes.
#include "src/gpu/driver_agreement.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/json/json_writer.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

using driver::CudaDriver;

constexpr Target kTarget = Target::kSm90a;
constexpr uint64_t k2Pow32 = uint64_t{1} << 32;
constexpr uint64_t k2Pow40 = uint64_t{1} << 40;

// ============================== random numbers ==============================
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  uint64_t Next() {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  int64_t Range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Below(static_cast<uint64_t>(hi - lo + 1))); }
  bool Chance(int percent) { return Below(100) < static_cast<uint64_t>(percent); }
  template <typename T, size_t N>
  T Pick(const T (&a)[N]) { return a[Below(N)]; }
};

uint64_t RoundUp(uint64_t v, uint64_t m) { return m == 0 ? v : (v + m - 1) / m * m; }
uint64_t SatMul(uint64_t a, uint64_t b) { return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b; }

Direction NaturalDirection(Mode m) { return m == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta; }
Im2colWideMode NaturalWideMode(Mode m) { return m == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW; }

// ============================== rule categories ==============================
// Rules about what the driver never sees (target, mode of use, direction, shared memory, driver version).
bool IsUseFinding(const Rule& r, const TensorMapSpec& s) {
  if (r.per_target) return true;
  static const char* const kUse[] = {"mode-direction", "im2col-store-corners", "packed-direction",
                                     "swizzle-flip8b-load-only", "reduce-op-type", "gather4-rank",
                                     "gather4-box-rows", "smem-align-128", "smem-swizzle-phase",
                                     "driver-version", "wide-mode-mismatch"};
  for (const char* u : kUse)
    if (r.id == u) return true;
  if (r.id == "interleave-mode" && IsGatherScatter(s.mode)) return true;  // the driver sees a tiled map
  return false;
}
// The message says that the tested driver does not enforce the rule.
bool SaysNotEnforced(const std::string& msg) {
  return msg.find("accepts") != std::string::npos || msg.find("encodes") != std::string::npos ||
         msg.find("does not enforce") != std::string::npos || msg.find("anyway") != std::string::npos;
}
// Rules ignored in the driver view (target-mode and shared-memory capacity: the driver never sees them).
bool IgnoredInDriverView(const Rule& r) {
  static const char* const kIgnored[] = {"target-mode", "target-smem-capacity", "mode-direction",
                                         "im2col-store-corners", "packed-direction", "swizzle-flip8b-load-only",
                                         "reduce-op-type", "smem-align-128", "smem-swizzle-phase",
                                         "driver-version", "wide-mode-mismatch"};
  for (const char* u : kIgnored)
    if (r.id == u) return true;
  return false;
}

// ============================== evaluation ==============================
struct Eval {
  bool valid = false;
  std::vector<uint16_t> errors;     // distinct error rule indices, sorted
  bool dv_valid = false;            // driver view
  std::vector<uint16_t> dv_errors;
  int cu = driver::kNotSubmitted;
  std::string cu_name;
  bool driver_ok() const { return cu == driver::kCudaSuccess; }
};

std::vector<uint16_t> ErrorRules(const Validation& v, bool driver_view) {
  const Rule* rules = Rules();
  std::vector<uint16_t> out;
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    if (r.severity != Severity::kError) continue;
    if (driver_view && IgnoredInDriverView(r)) continue;
    out.push_back(f.rule);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TensorMapSpec DriverView(const TensorMapSpec& s) {
  TensorMapSpec t = s;
  if (IsGatherScatter(t.mode)) t.mode = Mode::kTiled;
  t.direction = Direction::kLoadCta;
  t.set_fields &= ~(kFieldSmemAddress | kFieldSmemAlignment | kFieldWideMode | kFieldDriverVersion);
  t.target = kTarget;
  t.set_fields |= kFieldTarget;
  return t;
}

uint64_t AddressFor(const TensorMapSpec& s) {
  return s.Has(kFieldGlobalAddress) ? s.global_address : kPlaceholderAddress;
}

int EncodeResult(const CudaDriver& drv, const TensorMapSpec& s, std::string* name) {
  const CudaDriver::EncodeResult r = EncodeSpec(drv, s, AddressFor(s));
  if (name != nullptr) *name = r.error_name;
  return r.cu_result;
}

Eval Evaluate(const CudaDriver& drv, const TensorMapSpec& s, bool driver_view = true) {
  Eval e;
  Validation v;
  Validate(s, &v);
  e.valid = v.valid;
  e.errors = ErrorRules(v, false);
  if (driver_view) {
    Validation dv;
    Validate(DriverView(s), &dv);
    e.dv_errors = ErrorRules(dv, true);
    e.dv_valid = e.dv_errors.empty();
  }
  e.cu = EncodeResult(drv, s, &e.cu_name);
  return e;
}

bool DriverViewValid(const TensorMapSpec& s) {
  Validation dv;
  Validate(DriverView(s), &dv);
  return ErrorRules(dv, true).empty();
}

std::string RuleList(const std::vector<uint16_t>& ids) {
  std::string out;
  for (uint16_t i : ids) {
    if (!out.empty()) out += ",";
    out += Rules()[i].id;
  }
  return out;
}

std::string SpecText(const TensorMapSpec& s) {
  json::Writer w;
  WriteSpecJson(s, &w);
  return w.str();
}

// Messages of the error findings of a spec.
std::vector<std::pair<std::string, std::string>> ErrorMessages(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  std::vector<std::pair<std::string, std::string>> out;
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError) continue;
    out.emplace_back(std::string(r.id), r.message(s, f).str());
  }
  return out;
}

// Whether a reject-only spec is explained: one of its errors is a use/target rule or says "not enforced".
bool Explained(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError) continue;
    if (IsUseFinding(r, s) || SaysNotEnforced(r.message(s, f).str())) return true;
  }
  return false;
}

// For a spec the driver accepted: the driver-level error rules that fired and whose message does not say the
// driver lets it through (a message that says "rejects" is contradicted even for a target rule).
std::vector<std::string> Contradicted(const TensorMapSpec& s) {
  const TensorMapSpec d = DriverView(s);
  Validation v;
  Validate(d, &v);
  std::vector<std::string> out;
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError || IgnoredInDriverView(r)) continue;
    const std::string msg = r.message(d, f).str();
    const bool claims_reject = msg.find("rejects") != std::string::npos;
    if (claims_reject || (!IsUseFinding(r, d) && !SaysNotEnforced(msg))) out.emplace_back(r.id);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ============================== shrinking ==============================
struct Mutation {
  std::string name;
  std::function<bool(TensorMapSpec*)> apply;  // false: nothing to change
};

std::vector<Mutation> Mutations() {
  std::vector<Mutation> m;
  m.push_back({"l2_promotion", [](TensorMapSpec* s) {
                 if (s->l2_promotion == L2Promotion::k128B) return false;
                 s->l2_promotion = L2Promotion::k128B;
                 return true;
               }});
  m.push_back({"oob_fill", [](TensorMapSpec* s) {
                 if (s->oob_fill == OobFill::kNone) return false;
                 s->oob_fill = OobFill::kNone;
                 return true;
               }});
  m.push_back({"global_address", [](TensorMapSpec* s) {
                 if (!s->Has(kFieldGlobalAddress)) return false;
                 s->set_fields &= ~kFieldGlobalAddress;
                 s->global_address = 0;
                 return true;
               }});
  m.push_back({"direction", [](TensorMapSpec* s) {
                 if (s->direction == NaturalDirection(s->mode)) return false;
                 s->direction = NaturalDirection(s->mode);
                 return true;
               }});
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("element_strides[", i, "]"), [i](TensorMapSpec* s) {
                   if (s->element_strides[i] == 1) return false;
                   s->element_strides[i] = 1;
                   return true;
                 }});
  }
  m.push_back({"interleave", [](TensorMapSpec* s) {
                 if (s->interleave == Interleave::kNone) return false;
                 s->interleave = Interleave::kNone;
                 return true;
               }});
  m.push_back({"swizzle(none)", [](TensorMapSpec* s) {
                 if (s->swizzle == Swizzle::kNone || IsWideMode(s->mode)) return false;
                 s->swizzle = Swizzle::kNone;
                 return true;
               }});
  m.push_back({"swizzle(128B)", [](TensorMapSpec* s) {
                 if (s->swizzle == Swizzle::k128B) return false;
                 s->swizzle = Swizzle::k128B;
                 return true;
               }});
  m.push_back({"strides(dense)", [](TensorMapSpec* s) {
                 TensorMapSpec t = *s;
                 const uint64_t align = (s->interleave == Interleave::k32B || IsAlign16BPacked(s->data_type)) ? 32 : 16;
                 uint64_t st = RoundUp(RowBytes(t), align);
                 for (uint32_t i = 0; i + 1 < std::min<uint32_t>(t.rank, kMaxRank); ++i) {
                   t.global_strides[i] = st;
                   st = SatMul(st, t.global_dim[i + 1]);
                 }
                 if (t.global_strides == s->global_strides) return false;
                 *s = t;
                 return true;
               }});
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("global_dim[", i, "]"), [i](TensorMapSpec* s) {
                   const uint64_t small = (i == 0 && IsSubByte(s->data_type)) ? 256 : 64;
                   if (s->global_dim[i] == small || i >= static_cast<int>(s->rank)) return false;
                   s->global_dim[i] = small;
                   return true;
                 }});
  }
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("box_dim[", i, "]"), [i](TensorMapSpec* s) {
                   if (IsIm2colMode(s->mode) || i >= static_cast<int>(s->rank)) return false;
                   const uint32_t want = i == 0 ? std::max<uint32_t>(1, 128u * 8u / static_cast<uint32_t>(DataTypeBits(s->data_type)) / 4)
                                                : 1;
                   if (s->box_dim[i] == want) return false;
                   s->box_dim[i] = want;
                   return true;
                 }});
  }
  m.push_back({"pixel_box_corners", [](TensorMapSpec* s) {
                 if (s->pixel_box_lower_corner == std::array<int32_t, 3>{} &&
                     s->pixel_box_upper_corner == std::array<int32_t, 3>{})
                   return false;
                 s->pixel_box_lower_corner = {};
                 s->pixel_box_upper_corner = {};
                 return true;
               }});
  m.push_back({"pixel_box_lower_corner_width", [](TensorMapSpec* s) {
                 if (s->pixel_box_lower_corner_width == 0) return false;
                 s->pixel_box_lower_corner_width = 0;
                 return true;
               }});
  m.push_back({"pixel_box_upper_corner_width", [](TensorMapSpec* s) {
                 if (s->pixel_box_upper_corner_width == 0) return false;
                 s->pixel_box_upper_corner_width = 0;
                 return true;
               }});
  m.push_back({"pixels_per_column", [](TensorMapSpec* s) {
                 if (!IsIm2colMode(s->mode) || s->pixels_per_column == 128) return false;
                 s->pixels_per_column = 128;
                 return true;
               }});
  m.push_back({"channels_per_pixel", [](TensorMapSpec* s) {
                 if (!IsIm2colMode(s->mode)) return false;
                 const uint32_t want = std::max<uint32_t>(1, 32u * 8u / static_cast<uint32_t>(DataTypeBits(s->data_type)));
                 if (s->channels_per_pixel == want) return false;
                 s->channels_per_pixel = want;
                 return true;
               }});
  m.push_back({"tensor_data_type", [](TensorMapSpec* s) {
                 if (s->data_type == DataType::kFloat16) return false;
                 s->data_type = DataType::kFloat16;
                 return true;
               }});
  return m;
}

// Shrinks `s` while `keep` holds; returns the names of the mutations that were applicable but broke it.
std::vector<std::string> Shrink(TensorMapSpec* s, const std::function<bool(const TensorMapSpec&)>& keep) {
  static const std::vector<Mutation> kMut = Mutations();
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (const Mutation& m : kMut) {
      TensorMapSpec t = *s;
      if (!m.apply(&t)) continue;
      if (keep(t)) {
        *s = t;
        changed = true;
      }
    }
    if (!changed) break;
  }
  std::vector<std::string> essential;
  for (const Mutation& m : kMut) {
    TensorMapSpec t = *s;
    if (m.apply(&t) && !keep(t)) essential.push_back(m.name);
  }
  return essential;
}

std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const std::string& x : v) {
    if (!out.empty()) out += sep;
    out += x;
  }
  return out;
}

// ============================== random specs ==============================
uint64_t RandomDim(Rng& r, int i, DataType dt) {
  if (i == 0 && IsAlign16BPacked(dt) && r.Chance(60)) return 128 * r.Range(1, 64);
  if (i == 0 && dt == DataType::k16U4Align8B && r.Chance(60)) return 2 * r.Range(1, 2048);
  const uint64_t k = r.Below(100);
  if (k < 2) return 0;
  if (k < 10) return 1;
  if (k < 20) return r.Range(2, 16);
  if (k < 50) return r.Range(1, 512);
  if (k < 60) return uint64_t{1} << r.Below(33);
  if (k < 72) return 128 * r.Range(1, 64);
  if (k < 78) {
    const uint64_t v[] = {k2Pow32 - 1, k2Pow32, k2Pow32 + 1, k2Pow32 - 128, k2Pow32 + 128};
    return r.Pick(v);
  }
  if (k < 82) return r.Range(1, static_cast<int64_t>(k2Pow32));
  return r.Range(1, 65536);
}

uint64_t VaryStride(Rng& r, uint64_t dense, uint64_t align) {
  const uint64_t k = r.Below(100);
  if (k < 66) return dense;
  if (k < 74) return dense + 16 * r.Range(1, 8);
  if (k < 77) return dense >= 16 ? dense - 16 : 0;
  if (k < 80) return 0;
  if (k < 85) return dense + static_cast<uint64_t>(r.Range(1, 15));
  if (k < 90) {
    const uint64_t v[] = {k2Pow40 - 32, k2Pow40 - 16, k2Pow40, k2Pow40 + 16, k2Pow40 + 32};
    return r.Pick(v);
  }
  if (k < 94) return static_cast<uint64_t>(r.Range(1, static_cast<int64_t>(k2Pow40 / 16))) * 16;
  if (k < 97) return (2 * static_cast<uint64_t>(r.Range(0, 4096)) + 1) * 16;  // multiple of 16, not of 32
  return RoundUp(dense, align * 2);
}

uint32_t RandomInner(Rng& r, int bits, Swizzle sw) {
  // An element count whose byte size sits around a multiple of 16 or the swizzle span.
  const uint64_t span = static_cast<uint64_t>(SwizzleSpanBytes(sw));
  uint64_t bytes;
  const uint64_t k = r.Below(100);
  if (k < 40) bytes = 16 * static_cast<uint64_t>(r.Range(1, 16));
  else if (k < 60 && span != 0) bytes = span;
  else if (k < 70 && span != 0) bytes = span + 16;
  else if (k < 78 && span != 0) bytes = span >= 32 ? span - 16 : span;
  else if (k < 90) bytes = 16 * static_cast<uint64_t>(r.Range(0, 16)) + 8;
  else bytes = static_cast<uint64_t>(r.Range(1, 512));
  uint64_t n = bytes * 8 / static_cast<uint64_t>(bits);
  const uint64_t j = r.Below(10);
  if (j == 0) n += 1;
  if (j == 1 && n > 0) n -= 1;
  return static_cast<uint32_t>(std::min<uint64_t>(n, 300));
}

int32_t RandomCorner(Rng& r, uint32_t rank) {
  const int32_t lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  const uint64_t k = r.Below(100);
  if (k < 30) return 0;
  if (k < 45) return r.Chance(50) ? -1 : 1;
  if (k < 70) return static_cast<int32_t>(r.Range(-lim, lim - 1));
  if (k < 90) {
    const int32_t v[] = {-lim, -lim - 1, lim - 1, lim};
    return r.Pick(v);
  }
  return static_cast<int32_t>(r.Range(-40000, 40000));
}

int32_t RandomWideCorner(Rng& r) {
  const uint64_t k = r.Below(100);
  if (k < 25) return 0;
  if (k < 40) return r.Chance(50) ? -1 : 1;
  if (k < 55) return static_cast<int32_t>(r.Range(-16, 16));
  if (k < 75) {
    const int32_t v[] = {-32768, -32769, 32767, 32768, -16384, 16383, -16385, 16384};
    return r.Pick(v);
  }
  if (k < 90) return static_cast<int32_t>(r.Range(-32768, 32767));
  return static_cast<int32_t>(r.Range(-70000, 70000));
}

TensorMapSpec RandomSpec(Rng& r) {
  TensorMapSpec s;
  const uint64_t mk = r.Below(100);
  s.mode = mk < 34 ? Mode::kTiled : mk < 58 ? Mode::kIm2col : mk < 70 ? Mode::kIm2colW
         : mk < 82 ? Mode::kIm2colW128 : mk < 91 ? Mode::kGather4 : Mode::kScatter4;
  s.target = kTarget;
  s.set_fields = kFieldTarget;
  s.direction = r.Chance(8) ? static_cast<Direction>(r.Below(kNumDirections)) : NaturalDirection(s.mode);
  s.reduce_op = static_cast<ReduceOp>(r.Below(kNumReduceOps));
  s.data_type = static_cast<DataType>(r.Below(kNumDataTypes));
  const int bits = DataTypeBits(s.data_type);

  if (r.Chance(6)) {
    s.rank = static_cast<uint32_t>(r.Below(7));
  } else if (IsIm2colMode(s.mode)) {
    s.rank = static_cast<uint32_t>(r.Range(3, 5));
  } else if (IsGatherScatter(s.mode)) {
    s.rank = r.Chance(90) ? 2 : static_cast<uint32_t>(r.Range(1, 5));
  } else {
    s.rank = static_cast<uint32_t>(r.Range(1, 5));
  }
  const uint32_t n = std::min<uint32_t>(s.rank, kMaxRank);

  const bool plain = IsWideMode(s.mode) || IsGatherScatter(s.mode);
  const uint64_t ik = r.Below(100);
  s.interleave = ik < (plain ? 86u : 70u) ? Interleave::kNone : ik < (plain ? 93u : 85u) ? Interleave::k16B : Interleave::k32B;

  if (IsWideMode(s.mode) && r.Chance(70)) {
    const Swizzle w[] = {Swizzle::k64B, Swizzle::k128B, Swizzle::k128BAtom32B};
    s.swizzle = r.Pick(w);
  } else {
    const uint64_t k = r.Below(100);
    s.swizzle = k < 30 ? Swizzle::kNone : k < 45 ? Swizzle::k32B : k < 60 ? Swizzle::k64B : k < 85 ? Swizzle::k128B
              : static_cast<Swizzle>(r.Range(4, 6));
  }
  s.l2_promotion = static_cast<L2Promotion>(r.Below(kNumL2Promotions));
  s.oob_fill = r.Chance(20) ? OobFill::kNanRequestZeroFma : OobFill::kNone;

  for (uint32_t i = 0; i < n; ++i) s.global_dim[i] = RandomDim(r, static_cast<int>(i), s.data_type);

  const uint64_t align = (s.interleave == Interleave::k32B || IsAlign16BPacked(s.data_type)) ? 32 : 16;
  uint64_t dense = RoundUp(RowBytes(s), r.Chance(85) ? align : 16);
  for (uint32_t i = 0; i + 1 < n; ++i) {
    s.global_strides[i] = VaryStride(r, dense, align);
    dense = SatMul(s.global_strides[i], s.global_dim[i + 1]);
    if (r.Chance(80)) dense = RoundUp(dense, align);
  }

  if (!IsIm2colMode(s.mode)) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t k = r.Below(100);
      uint32_t b;
      if (i == 0 && k < 45) b = RandomInner(r, bits, s.swizzle);
      else if (k < 47) b = 0;
      else if (k < 60) b = 1;
      else if (k < 68) { const uint32_t v[] = {255, 256, 257}; b = r.Pick(v); }
      else if (k < 90) b = static_cast<uint32_t>(r.Range(1, 256));
      else b = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(s.global_dim[i], 1), 256));
      s.box_dim[i] = b;
    }
    if (IsAlign16BPacked(s.data_type) && r.Chance(60)) s.box_dim[0] = 128;
    if (IsGatherScatter(s.mode) && r.Chance(85)) s.box_dim[1] = 1;
  }

  if (!r.Chance(55)) {
    for (uint32_t i = 0; i < n; ++i) s.element_strides[i] = r.Chance(50) ? 1 : static_cast<uint32_t>(r.Range(0, 9));
  }

  if (IsIm2colMode(s.mode)) {
    const uint64_t k = r.Below(100);
    if (IsAlign16BPacked(s.data_type) && r.Chance(50)) s.channels_per_pixel = 128;
    else if (k < 3) s.channels_per_pixel = 0;
    else if (k < 23) s.channels_per_pixel = static_cast<uint32_t>(r.Range(1, 257));
    else if (k < 53) s.channels_per_pixel = 8 * static_cast<uint32_t>(r.Range(1, 32));
    else if (k < 88) s.channels_per_pixel = RandomInner(r, bits, s.swizzle);
    else { const uint32_t v[] = {128, 256, 257, 1, 2, 4}; s.channels_per_pixel = r.Pick(v); }
    const uint64_t p = r.Below(100);
    if (p < 4) s.pixels_per_column = 0;
    else if (p < 12) s.pixels_per_column = 1;
    else if (p < 20) s.pixels_per_column = r.Chance(50) ? 1024 : 1025;
    else if (p < 50) s.pixels_per_column = 128;
    else s.pixels_per_column = static_cast<uint32_t>(r.Range(1, 1100));
    if (s.mode == Mode::kIm2col) {
      const uint32_t cr = (s.rank >= 3 && s.rank <= 5) ? s.rank : static_cast<uint32_t>(r.Range(3, 5));
      for (int i = 0; i < 3; ++i) {
        s.pixel_box_lower_corner[i] = RandomCorner(r, cr);
        s.pixel_box_upper_corner[i] = RandomCorner(r, cr);
      }
    } else {
      s.pixel_box_lower_corner_width = RandomWideCorner(r);
      s.pixel_box_upper_corner_width = RandomWideCorner(r);
      s.wide_mode = NaturalWideMode(s.mode);
      if (r.Chance(4)) {
        s.wide_mode = s.wide_mode == Im2colWideMode::kW ? Im2colWideMode::kW128 : Im2colWideMode::kW;
        s.set_fields |= kFieldWideMode;
      }
    }
  }

  if (r.Chance(40)) {
    s.set_fields |= kFieldGlobalAddress;
    if (r.Chance(5)) {
      s.global_address = 0;
    } else {
      const uint64_t aligns[] = {8, 16, 32, 64, 128, 256, 4, 1};
      const uint64_t a = aligns[r.Below(r.Chance(85) ? 6 : 8)];
      s.global_address = (2 * static_cast<uint64_t>(r.Range(1, 1 << 20)) + 1) * a;  // exactly a-aligned
    }
  }
  return s;
}

// A near-valid spec: the wild spec repaired with the validator's own automatic patches (NearestValid), which
// stop exactly at the rules' limits, then sometimes pushed across one boundary. gather4/scatter4 are repaired
// as the tiled map the driver sees, im2col::w as for sm_100a (where the mode exists); the target is then set
// back to sm_90a.
void PerturbOne(Rng& r, TensorMapSpec* s) {
  const uint32_t n = std::max<uint32_t>(1, std::min<uint32_t>(s->rank, kMaxRank));
  const uint32_t i = static_cast<uint32_t>(r.Below(n));
  const int bits = DataTypeBits(s->data_type);
  const uint32_t step = static_cast<uint32_t>(std::max(1, 128 / std::max(1, bits)));  // elements per 16 B
  switch (r.Below(16)) {
    case 0: s->box_dim[0] += r.Chance(50) ? 1 : step; break;
    case 1: if (s->box_dim[0] > 1) s->box_dim[0] -= 1; break;
    case 2: if (i + 1 < n) s->global_strides[i] += r.Chance(50) ? 16 : 8; break;
    case 3: if (i + 1 < n) s->global_strides[i] = s->global_strides[i] >= 16 ? s->global_strides[i] - 16 : 0; break;
    case 4: s->global_dim[i] = r.Chance(50) ? k2Pow32 : k2Pow32 + 1; break;
    case 5: s->element_strides[i] = static_cast<uint32_t>(r.Range(0, 9)); break;
    case 6: s->swizzle = static_cast<Swizzle>(r.Below(4)); break;
    case 7: s->interleave = static_cast<Interleave>(r.Below(kNumInterleaves)); break;
    case 8:
      s->set_fields |= kFieldGlobalAddress;
      s->global_address = (2 * static_cast<uint64_t>(r.Range(1, 1 << 20)) + 1) * (r.Chance(50) ? 8 : 16);
      break;
    case 9: s->channels_per_pixel += r.Chance(50) ? step : 1; break;
    case 10: s->pixels_per_column = r.Chance(50) ? 1025 : 1024; break;
    case 11: {
      const int32_t lim = s->rank == 3 ? 32768 : s->rank == 4 ? 128 : 16;
      (r.Chance(50) ? s->pixel_box_lower_corner : s->pixel_box_upper_corner)[r.Below(3)] =
          r.Chance(50) ? -lim : lim - 1;
      break;
    }
    case 12: {
      const int32_t v[] = {-32768, 32767, -16384, 16383, 16384, -16385};
      (r.Chance(50) ? s->pixel_box_lower_corner_width : s->pixel_box_upper_corner_width) = r.Pick(v);
      break;
    }
    case 13: s->box_dim[i] = r.Chance(50) ? 256 : 257; break;
    case 14: s->oob_fill = OobFill::kNanRequestZeroFma; break;
    default: s->data_type = static_cast<DataType>(r.Below(kNumDataTypes)); break;
  }
}

TensorMapSpec Tame(Rng& r, const TensorMapSpec& wild) {
  TensorMapSpec t = wild;
  if (IsGatherScatter(t.mode)) { t.mode = Mode::kTiled; t.direction = Direction::kLoadCta; }
  if (IsWideMode(t.mode)) t.target = Target::kSm100a;
  if (IsSubByte(t.data_type) && r.Chance(70)) t.data_type = static_cast<DataType>(r.Below(13));
  if (IsAtomicitySwizzle(t.swizzle) && r.Chance(70)) t.swizzle = Swizzle::k128B;
  TensorMapSpec u;
  NearestValid(t, &u);
  u.mode = wild.mode;
  u.direction = wild.direction;
  u.target = kTarget;
  if (r.Chance(40)) PerturbOne(r, &u);
  return u;
}

// ============================== random sweep ==============================
struct RejectGroup {
  uint64_t count = 0, explained = 0, unexplained = 0;
  std::map<std::string, uint64_t> by_mode;
  TensorMapSpec example;
  TensorMapSpec unexplained_example;
  bool has_unexplained_example = false;
};

struct Shrunk {
  uint64_t count = 0;
  std::map<std::string, uint64_t> by_mode;
  TensorMapSpec original, minimal;
  std::string driver_error;
  std::vector<uint16_t> orig_errors;
};

const char* kClassNames[] = {"both accept", "both reject", "BAD (validator valid, driver rejects)",
                             "reject-only (validator rejects, driver accepts)"};

void WriteRuleArray(json::Writer* w, const std::vector<uint16_t>& ids) {
  w->BeginArray();
  for (uint16_t i : ids) w->String(Rules()[i].id);
  w->EndArray();
}

void WriteSpecValue(json::Writer* w, const TensorMapSpec& s) { WriteSpecJson(s, w); }

void WriteMessages(json::Writer* w, const TensorMapSpec& s) {
  w->BeginArray();
  for (const auto& m : ErrorMessages(s)) {
    w->BeginObject();
    w->Key("rule").String(m.first);
    w->Key("message").String(m.second);
    w->EndObject();
  }
  w->EndArray();
}

void PrintMessages(const TensorMapSpec& s, const char* indent) {
  for (const auto& m : ErrorMessages(s)) {
    const Rule& r = Rules()[FindRule(m.first)];
    const char* tag = IsUseFinding(r, s) ? "target/use" : SaysNotEnforced(m.second) ? "says not enforced" : "claims driver rule";
    std::printf("%s%s [%s]: %s\n", indent, m.first.c_str(), tag, m.second.c_str());
  }
}

int RunRandom(const CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw) {
  Rng rng(seed);
  uint64_t cls[4] = {0, 0, 0, 0};
  std::map<std::string, std::array<uint64_t, 4>> by_mode;
  std::map<std::string, uint64_t> driver_errors;
  std::map<std::string, RejectGroup> groups;                // reject-only, by rule set
  std::map<std::string, Shrunk> bad_groups, masked_groups;  // by mode + essential fields
  std::vector<std::pair<TensorMapSpec, std::string>> bad_list;
  uint64_t masked = 0, not_submitted = 0;
  std::map<std::string, std::pair<uint64_t, TensorMapSpec>> contradicted;  // rule -> (count, first example)
  uint64_t shrunk_budget = 20000;
  const bool progress = isatty(2) != 0;

  for (uint64_t i = 0; i < n; ++i) {
    if (progress && (i % 4096 == 0)) std::fprintf(stderr, "\r  random: %" PRIu64 " / %" PRIu64, i, n);
    const TensorMapSpec wild = RandomSpec(rng);
    const TensorMapSpec s = rng.Chance(60) ? Tame(rng, wild) : wild;
    Validation v;
    Validate(s, &v);
    std::string cu_name;
    const int cu = EncodeResult(drv, s, &cu_name);
    if (cu == driver::kNotSubmitted) ++not_submitted;
    const bool ok = cu == driver::kCudaSuccess;
    if (!ok) ++driver_errors[cu_name];
    const int c = v.valid ? (ok ? 0 : 2) : (ok ? 3 : 1);
    ++cls[c];
    ++by_mode[std::string(Name(s.mode))][c];
    const std::string mode(Name(s.mode));
    if (c == 2) {
      if (bad_list.size() < 200) bad_list.emplace_back(s, cu_name);
      TensorMapSpec m = s;
      std::vector<std::string> ess;
      if (shrunk_budget > 0) {
        --shrunk_budget;
        ess = Shrink(&m, [&](const TensorMapSpec& t) {
          Validation tv;
          Validate(t, &tv);
          return tv.valid && EncodeResult(drv, t, nullptr) != driver::kCudaSuccess;
        });
      }
      Shrunk& g = bad_groups[mode + " | " + Join(ess, ",")];
      if (g.count == 0) { g.original = s; g.minimal = m; g.driver_error = cu_name; }
      ++g.count;
      ++g.by_mode[mode];
    } else if (c == 3) {
      const std::vector<uint16_t> errs = ErrorRules(v, false);
      RejectGroup& g = groups[RuleList(errs)];
      if (g.count == 0) g.example = s;
      ++g.count;
      ++g.by_mode[mode];
      for (const std::string& id : Contradicted(s)) {
        auto& c = contradicted[id];
        if (c.first++ == 0) c.second = s;
      }
      if (Explained(s)) {
        ++g.explained;
      } else {
        ++g.unexplained;
        if (!g.has_unexplained_example) { g.unexplained_example = s; g.has_unexplained_example = true; }
      }
    } else if (c == 1 && DriverViewValid(s)) {
      ++masked;
      TensorMapSpec m = s;
      std::vector<std::string> ess;
      if (shrunk_budget > 0) {
        --shrunk_budget;
        ess = Shrink(&m, [&](const TensorMapSpec& t) {
          return DriverViewValid(t) && EncodeResult(drv, t, nullptr) != driver::kCudaSuccess;
        });
      }
      Shrunk& g = masked_groups[mode + " | " + Join(ess, ",")];
      if (g.count == 0) { g.original = s; g.minimal = m; g.driver_error = cu_name; g.orig_errors = ErrorRules(v, false); }
      ++g.count;
      ++g.by_mode[mode];
    }
  }
  if (progress) std::fprintf(stderr, "\r  random: %" PRIu64 " / %" PRIu64 "\n", n, n);

  std::printf("\n== random sweep: %" PRIu64 " specs, seed %" PRIu64 ", target %s ==\n\n", n, seed,
              std::string(Name(kTarget)).c_str());
  std::printf("| class | count |\n|---|---:|\n");
  for (int c = 0; c < 4; ++c) std::printf("| %s | %" PRIu64 " |\n", kClassNames[c], cls[c]);
  uint64_t expl = 0, unexpl = 0;
  for (const auto& g : groups) { expl += g.second.explained; unexpl += g.second.unexplained; }
  std::printf("| reject-only, explained (target/use rule, or message says not enforced) | %" PRIu64 " |\n", expl);
  std::printf("| reject-only, UNEXPLAINED | %" PRIu64 " |\n", unexpl);
  std::printf("| masked (both reject; validator's driver-level rules accept) | %" PRIu64 " |\n", masked);
  std::printf("| driver not called (kNotSubmitted) | %" PRIu64 " |\n", not_submitted);

  std::printf("\nper mode:\n\n| mode | both accept | both reject | BAD | reject-only |\n|---|---:|---:|---:|---:|\n");
  for (const auto& m : by_mode)
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n", m.first.c_str(), m.second[0],
                m.second[1], m.second[2], m.second[3]);
  std::printf("\ndriver error codes:");
  for (const auto& e : driver_errors) std::printf(" %s=%" PRIu64, e.first.c_str(), e.second);
  std::printf("\n");

  std::printf("\n-- BAD groups (validator valid, driver rejects), by mode | fields that could not be simplified: %zu --\n",
              bad_groups.size());
  int printed = 0;
  for (const auto& g : bad_groups) {
    std::printf("\n[BAD x%" PRIu64 "] %s  driver: %s\n  spec:    %s\n  minimal: %s\n", g.second.count, g.first.c_str(),
                g.second.driver_error.c_str(), SpecText(g.second.original).c_str(), SpecText(g.second.minimal).c_str());
    if (++printed >= max_print) { std::printf("  ... (%zu groups in all; see JSON)\n", bad_groups.size()); break; }
  }

  std::printf("\n-- masked groups (both reject, only through target/use rules; driver-level rules accept): %zu --\n",
              masked_groups.size());
  printed = 0;
  for (const auto& g : masked_groups) {
    std::printf("\n[MASKED x%" PRIu64 "] %s  driver: %s  validator errors: %s\n  spec:    %s\n  minimal: %s\n",
                g.second.count, g.first.c_str(), g.second.driver_error.c_str(), RuleList(g.second.orig_errors).c_str(),
                SpecText(g.second.original).c_str(), SpecText(g.second.minimal).c_str());
    if (++printed >= max_print) { std::printf("  ... (%zu groups in all; see JSON)\n", masked_groups.size()); break; }
  }

  std::printf("\n-- reject-only groups (validator rejects, driver accepts), by error rule set: %zu --\n\n", groups.size());
  std::vector<std::pair<std::string, const RejectGroup*>> sorted;
  for (const auto& g : groups) sorted.emplace_back(g.first, &g.second);
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second->count > b.second->count; });
  std::printf("| count | explained | unexplained | error rules |\n|---:|---:|---:|---|\n");
  for (const auto& g : sorted)
    std::printf("| %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %s |\n", g.second->count, g.second->explained,
                g.second->unexplained, g.first.c_str());
  // Every rule that fired in a reject-only spec, with how its message reads.
  std::map<std::string, std::array<uint64_t, 3>> rule_tags;  // use, not-enforced, claims-driver
  for (const auto& g : groups) {
    for (const auto& m : ErrorMessages(g.second.example)) {
      const Rule& r = Rules()[FindRule(m.first)];
      auto& t = rule_tags[m.first];
      if (IsUseFinding(r, g.second.example)) ++t[0];
      else if (SaysNotEnforced(m.second)) ++t[1];
      else ++t[2];
    }
  }
  std::printf("\nrules firing in reject-only examples: target/use | says not enforced | claims driver rule (groups)\n");
  for (const auto& t : rule_tags)
    std::printf("  %-34s %4" PRIu64 " %4" PRIu64 " %4" PRIu64 "\n", t.first.c_str(), t.second[0], t.second[1], t.second[2]);
  std::printf("\n-- driver-level rules that fired (driver view) on specs the driver ACCEPTED, although their message does "
              "not say the driver lets them through: %zu --\n", contradicted.size());
  for (const auto& c : contradicted) {
    std::printf("\n[CONTRADICTED x%" PRIu64 "] %s\n  spec: %s\n", c.second.first, c.first.c_str(),
                SpecText(c.second.second).c_str());
    PrintMessages(DriverView(c.second.second), "    ");
  }
  std::printf("\nunexplained reject-only examples (one per group):\n");
  for (const auto& g : sorted) {
    if (!g.second->has_unexplained_example) continue;
    std::printf("\n[UNEXPLAINED x%" PRIu64 "] %s\n  spec: %s\n", g.second->unexplained, g.first.c_str(),
                SpecText(g.second->unexplained_example).c_str());
    PrintMessages(g.second->unexplained_example, "    ");
  }

  if (jw != nullptr) {
    json::Writer& w = *jw;
    w.Key("random").BeginObject();
    w.Key("specs").Uint(n);
    w.Key("seed").Uint(seed);
    w.Key("target").String(Name(kTarget));
    w.Key("counts").BeginObject();
    w.Key("both_accept").Uint(cls[0]);
    w.Key("both_reject").Uint(cls[1]);
    w.Key("bad_validator_valid_driver_rejects").Uint(cls[2]);
    w.Key("reject_only_validator_rejects_driver_accepts").Uint(cls[3]);
    w.Key("reject_only_explained").Uint(expl);
    w.Key("reject_only_unexplained").Uint(unexpl);
    w.Key("masked").Uint(masked);
    w.Key("contradicted_rule_ids").Uint(contradicted.size());
    w.Key("not_submitted").Uint(not_submitted);
    w.EndObject();
    w.Key("by_mode").BeginObject();
    for (const auto& m : by_mode) {
      w.Key(m.first).BeginArray();
      for (int c = 0; c < 4; ++c) w.Uint(m.second[c]);
      w.EndArray();
    }
    w.EndObject();
    w.Key("driver_errors").BeginObject();
    for (const auto& e : driver_errors) w.Key(e.first).Uint(e.second);
    w.EndObject();
    auto write_shrunk = [&](const char* key, const std::map<std::string, Shrunk>& gs) {
      w.Key(key).BeginArray();
      for (const auto& g : gs) {
        w.BeginObject();
        w.Key("signature").String(g.first);
        w.Key("count").Uint(g.second.count);
        w.Key("driver_error").String(g.second.driver_error);
        w.Key("validator_errors");
        WriteRuleArray(&w, g.second.orig_errors);
        w.Key("spec");
        WriteSpecValue(&w, g.second.original);
        w.Key("minimal");
        WriteSpecValue(&w, g.second.minimal);
        w.EndObject();
      }
      w.EndArray();
    };
    write_shrunk("bad_groups", bad_groups);
    w.Key("bad_cases").BeginArray();
    for (const auto& b : bad_list) {
      w.BeginObject();
      w.Key("driver_error").String(b.second);
      w.Key("spec");
      WriteSpecValue(&w, b.first);
      w.EndObject();
    }
    w.EndArray();
    write_shrunk("masked_groups", masked_groups);
    w.Key("contradicted_rules").BeginArray();
    for (const auto& c : contradicted) {
      w.BeginObject();
      w.Key("rule").String(c.first);
      w.Key("count").Uint(c.second.first);
      w.Key("example");
      WriteSpecValue(&w, c.second.second);
      w.Key("messages");
      WriteMessages(&w, DriverView(c.second.second));
      w.EndObject();
    }
    w.EndArray();
    w.Key("reject_only_groups").BeginArray();
    for (const auto& g : sorted) {
      w.BeginObject();
      w.Key("rules").String(g.first);
      w.Key("count").Uint(g.second->count);
      w.Key("explained").Uint(g.second->explained);
      w.Key("unexplained").Uint(g.second->unexplained);
      w.Key("by_mode").BeginObject();
      for (const auto& m : g.second->by_mode) w.Key(m.first).Uint(m.second);
      w.EndObject();
      w.Key("example");
      WriteSpecValue(&w, g.second->example);
      w.Key("messages");
      WriteMessages(&w, g.second->example);
      if (g.second->has_unexplained_example) {
        w.Key("unexplained_example");
        WriteSpecValue(&w, g.second->unexplained_example);
        w.Key("unexplained_messages");
        WriteMessages(&w, g.second->unexplained_example);
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  return cls[2] == 0 ? 0 : 1;
}

// ============================== boundary probes ==============================
TensorMapSpec Base(Mode mode) {
  TensorMapSpec s = DefaultSpec(mode);
  s.target = kTarget;
  s.set_fields = kFieldTarget;
  s.wide_mode = NaturalWideMode(mode);
  s.direction = NaturalDirection(mode);
  return s;
}

void DenseStrides(TensorMapSpec* s, uint64_t align) {
  uint64_t st = RoundUp(RowBytes(*s), align);
  for (uint32_t i = 0; i + 1 < std::min<uint32_t>(s->rank, kMaxRank); ++i) {
    s->global_strides[i] = st;
    st = RoundUp(SatMul(st, s->global_dim[i + 1]), align);
  }
}

// Tiled spec: dims, box, dtype; dense strides (32-byte aligned).
TensorMapSpec Tiled(DataType dt, std::vector<uint64_t> dims, std::vector<uint32_t> box) {
  TensorMapSpec s = Base(Mode::kTiled);
  s.data_type = dt;
  s.swizzle = Swizzle::kNone;
  s.rank = static_cast<uint32_t>(dims.size());
  s.global_dim = {};
  s.box_dim = {};
  for (size_t i = 0; i < dims.size() && i < kMaxRank; ++i) s.global_dim[i] = dims[i];
  for (size_t i = 0; i < box.size() && i < kMaxRank; ++i) s.box_dim[i] = box[i];
  DenseStrides(&s, 32);
  return s;
}

// im2col-family spec: NHWC etc., dims innermost first (C, W, H, N ...).
TensorMapSpec Im2col(Mode mode, DataType dt, std::vector<uint64_t> dims, uint32_t channels, uint32_t pixels,
                     Swizzle sw) {
  TensorMapSpec s = Base(mode);
  s.data_type = dt;
  s.rank = static_cast<uint32_t>(dims.size());
  s.global_dim = {};
  for (size_t i = 0; i < dims.size() && i < kMaxRank; ++i) s.global_dim[i] = dims[i];
  s.channels_per_pixel = channels;
  s.pixels_per_column = pixels;
  s.swizzle = sw;
  s.pixel_box_lower_corner = {};
  s.pixel_box_upper_corner = {};
  s.pixel_box_lower_corner_width = 0;
  s.pixel_box_upper_corner_width = 0;
  DenseStrides(&s, 32);
  return s;
}

struct Prober {
  const CudaDriver& drv;
  json::Writer* jw;
  std::string group;
  int bad = 0, masked = 0, reject_only_unexplained = 0, probes = 0, contradicted = 0;

  static std::string Verdict(bool valid, const std::vector<uint16_t>& errs) {
    return valid ? std::string("valid") : StrCat("reject[", RuleList(errs), "]");
  }

  void Group(const std::string& name, const std::string& question) {
    group = name;
    std::printf("\n### %s\n%s\n\n", name.c_str(), question.c_str());
  }

  // One probe: prints validator (target sm_90a), driver view and driver, and the class.
  void Probe(const std::string& name, const TensorMapSpec& s) {
    ++probes;
    const Eval e = Evaluate(drv, s);
    std::string cls;
    if (e.valid && !e.driver_ok()) { cls = "BAD"; ++bad; }
    else if (e.valid && e.driver_ok()) cls = "agree(accept)";
    else if (!e.valid && !e.driver_ok()) {
      cls = e.dv_valid ? "MASKED" : "agree(reject)";
      if (e.dv_valid) ++masked;
    } else {
      const bool ex = Explained(s);
      cls = ex ? "reject-only(explained)" : "reject-only(UNEXPLAINED)";
      if (!ex) ++reject_only_unexplained;
    }
    std::vector<std::string> contra;
    if (e.driver_ok()) contra = Contradicted(s);
    if (!contra.empty()) { cls += " contradicts:" + Join(contra, ","); ++contradicted; }
    std::printf("  %-56s driver %-26s validator %-44s driver-view %-30s %s\n", name.c_str(),
                e.driver_ok() ? "ACCEPT" : e.cu_name.c_str(), Verdict(e.valid, e.errors).c_str(),
                Verdict(e.dv_valid, e.dv_errors).c_str(), cls.c_str());
    if (jw != nullptr) {
      json::Writer& w = *jw;
      w.BeginObject();
      w.Key("kind").String("probe");
      w.Key("group").String(group);
      w.Key("name").String(name);
      w.Key("driver").String(e.driver_ok() ? "CUDA_SUCCESS" : e.cu_name);
      w.Key("driver_accepts").Bool(e.driver_ok());
      w.Key("validator_valid").Bool(e.valid);
      w.Key("validator_errors");
      WriteRuleArray(&w, e.errors);
      w.Key("driver_view_valid").Bool(e.dv_valid);
      w.Key("driver_view_errors");
      WriteRuleArray(&w, e.dv_errors);
      w.Key("class").String(cls);
      w.Key("spec");
      WriteSpecJson(s, &w);
      w.EndObject();
    }
  }

  bool Accepts(const TensorMapSpec& s) { return EncodeResult(drv, s, nullptr) == driver::kCudaSuccess; }

  // Finds where the driver's (and the validator's driver-view) verdict changes for x in [lo, hi]: 33 evenly
  // spaced samples, then a bisection inside every pair of neighbouring samples that disagree.
  void Search(const std::string& name, int64_t lo, int64_t hi, const std::function<TensorMapSpec(int64_t)>& make) {
    auto drv_ok = [&](int64_t x) { return Accepts(make(x)); };
    auto val_ok = [&](int64_t x) { return DriverViewValid(make(x)); };
    auto transitions = [&](const std::function<bool(int64_t)>& f, std::string* samples) {
      std::vector<std::pair<int64_t, int64_t>> out;  // (last x like the left sample, first x unlike it)
      int64_t prev_x = lo;
      bool prev = f(lo);
      for (int k = 0; k <= 32; ++k) {
        const int64_t x = lo + static_cast<int64_t>((static_cast<__int128>(hi - lo) * k) / 32);
        const bool v = f(x);
        if (samples != nullptr) *samples += v ? '+' : '-';
        if (k > 0 && v != prev) {
          int64_t a = prev_x, b = x;
          while (b - a > 1) {
            const int64_t m = a + (b - a) / 2;
            if (f(m) == prev) a = m; else b = m;
          }
          out.emplace_back(a, b);
        }
        prev = v;
        prev_x = x;
      }
      return out;
    };
    std::string dsamples, vsamples;
    const auto dt = transitions(drv_ok, &dsamples);
    const auto vt = transitions(val_ok, &vsamples);
    auto describe = [&](const char* who, const std::function<bool(int64_t)>& f,
                        const std::vector<std::pair<int64_t, int64_t>>& t) {
      if (t.empty()) return StrCat(who, " ", f(lo) ? "accepts" : "rejects", " every sample");
      std::string out = StrCat(who, " ", f(lo) ? "accepts" : "rejects", " from x=", lo);
      for (const auto& p : t) out += StrCat("; x=", p.first, " ", f(p.first) ? "accept" : "reject", " / x=", p.second, " ",
                                         f(p.second) ? "accept" : "reject");
      return out;
    };
    const bool agree = dt == vt && drv_ok(lo) == val_ok(lo);
    std::printf("  search %s, x in [%" PRId64 ", %" PRId64 "]\n    %s\n    %s\n    driver samples %s%s\n",
                name.c_str(), lo, hi, describe("driver", drv_ok, dt).c_str(),
                describe("validator(driver view)", val_ok, vt).c_str(), dsamples.c_str(),
                agree ? "" : "   <-- validator boundary differs");
    if (jw != nullptr) {
      json::Writer& w = *jw;
      w.BeginObject();
      w.Key("kind").String("search");
      w.Key("group").String(group);
      w.Key("name").String(name);
      w.Key("lo").Int(lo);
      w.Key("hi").Int(hi);
      w.Key("driver_accepts_lo").Bool(drv_ok(lo));
      w.Key("driver_transitions").BeginArray();
      for (const auto& p : dt) { w.BeginArray(); w.Int(p.first); w.Int(p.second); w.EndArray(); }
      w.EndArray();
      w.Key("validator_accepts_lo").Bool(val_ok(lo));
      w.Key("validator_transitions").BeginArray();
      for (const auto& p : vt) { w.BeginArray(); w.Int(p.first); w.Int(p.second); w.EndArray(); }
      w.EndArray();
      w.Key("driver_samples").String(dsamples);
      w.Key("validator_samples").String(vsamples);
      w.Key("agree").Bool(agree);
      w.Key("spec_at_lo");
      WriteSpecJson(make(lo), &w);
      w.EndObject();
    }
  }
};

void RunBoundaries(const CudaDriver& drv, json::Writer* jw, int* bad_out) {
  if (jw != nullptr) jw->Key("boundaries").BeginArray();
  Prober p{drv, jw, "", 0, 0, 0, 0, 0};
  std::printf("\n== boundary probes (target %s; 'driver-view' = the validator's driver-level rules only) ==\n",
              std::string(Name(kTarget)).c_str());

  // ---------------------------------------------------------------- im2col::w corners / extent
  const Mode wide_modes[] = {Mode::kIm2colW, Mode::kIm2colW128};
  for (Mode wm : wide_modes) {
    const std::string mn(Name(wm));
    p.Group(StrCat("A. ", mn, " corners and W extent"),
            "tma-spec section 6: lower -32768 / upper 32767 on W = 14 was rejected; no documented rule explains it. "
            "f16 NHWC [C=64, W, H=1, N=2], 64 channels, 128 pixels, SWIZZLE_128B.");
    auto wide = [wm](uint64_t w, int32_t lo, int32_t up) {
      TensorMapSpec s = Im2col(wm, DataType::kFloat16, {64, w, 1, 2}, 64, 128, Swizzle::k128B);
      s.pixel_box_lower_corner_width = lo;
      s.pixel_box_upper_corner_width = up;
      return s;
    };
    const int32_t pairs[][2] = {{-32768, 32767}, {-32768, 0}, {0, 32767}, {-32768, -1}, {-1, 32767}, {-16384, 16383},
                                {-16384, 16384}, {-16385, 16383}, {-16385, 16384}, {-32768, -32768}, {32767, 32767},
                                {-1, -1}, {0, 0}, {-32767, 32767}, {-32768, 32766}, {-20000, 20000}, {-8, 7}};
    const uint64_t widths[] = {14, 1, 65536};
    for (uint64_t w : widths)
      for (const auto& pr : pairs) p.Probe(StrCat(mn, " W=", w, " lower=", pr[0], " upper=", pr[1]), wide(w, pr[0], pr[1]));
    // The W extent of the bounding box, E = W + upper - lower, around 2^15 and 2^16, reached four ways.
    for (int64_t e : {int64_t{32767}, int64_t{32768}, int64_t{32769}, int64_t{65535}, int64_t{65536}, int64_t{65537}}) {
      p.Probe(StrCat(mn, " E=", e, ": W=E lower=0 upper=0"), wide(static_cast<uint64_t>(e), 0, 0));
      if (e - 14 <= 32768)
        p.Probe(StrCat(mn, " E=", e, ": W=14 lower=", -(e - 14), " upper=0"), wide(14, static_cast<int32_t>(-(e - 14)), 0));
      if (e - 14 <= 32767)
        p.Probe(StrCat(mn, " E=", e, ": W=14 lower=0 upper=", e - 14), wide(14, 0, static_cast<int32_t>(e - 14)));
      if (e - 14 - 16384 <= 32767)
        p.Probe(StrCat(mn, " E=", e, ": W=14 lower=-16384 upper=", e - 14 - 16384),
                wide(14, -16384, static_cast<int32_t>(e - 14 - 16384)));
      if (e - 32767 >= 1)
        p.Probe(StrCat(mn, " E=", e, ": W=", e - 32767, " lower=0 upper=32767"),
                wide(static_cast<uint64_t>(e - 32767), 0, 32767));
      if (e - 32768 >= 1)
        p.Probe(StrCat(mn, " E=", e, ": W=", e - 32768, " lower=-32768 upper=0"),
                wide(static_cast<uint64_t>(e - 32768), -32768, 0));
    }
    // Other ranks (NWC, NDHWC).
    for (uint32_t rank : {3u, 5u}) {
      const int32_t rp[][2] = {{-32768, 0}, {-32767, 0}, {0, 32767}, {-16384, 16383}, {-16384, 16384}, {-1, -1}};
      for (const auto& pr : rp) {
        std::vector<uint64_t> dims = {64, 14};
        for (uint32_t i = 2; i < rank; ++i) dims.push_back(2);
        TensorMapSpec s = Im2col(wm, DataType::kFloat16, dims, 64, 128, Swizzle::k128B);
        s.pixel_box_lower_corner_width = pr[0];
        s.pixel_box_upper_corner_width = pr[1];
        p.Probe(StrCat(mn, " rank ", rank, " W=14 lower=", pr[0], " upper=", pr[1]), s);
      }
    }
    p.Search(StrCat(mn, " W=14 upper=0, lower=x"), -32768, 0, [&](int64_t x) { return wide(14, static_cast<int32_t>(x), 0); });
    p.Search(StrCat(mn, " W=14 lower=0, upper=x"), 0, 32767, [&](int64_t x) { return wide(14, 0, static_cast<int32_t>(x)); });
    p.Search(StrCat(mn, " W=14 lower=-32768, upper=x"), -32768, 32767,
             [&](int64_t x) { return wide(14, -32768, static_cast<int32_t>(x)); });
    p.Search(StrCat(mn, " W=14 upper=32767, lower=x"), -32768, 32767,
             [&](int64_t x) { return wide(14, static_cast<int32_t>(x), 32767); });
    p.Search(StrCat(mn, " W=14 lower=-x, upper=x"), 0, 32767,
             [&](int64_t x) { return wide(14, static_cast<int32_t>(-x), static_cast<int32_t>(x)); });
    p.Search(StrCat(mn, " W=14 lower=-16384, upper=x"), -16384, 32767,
             [&](int64_t x) { return wide(14, -16384, static_cast<int32_t>(x)); });
    p.Search(StrCat(mn, " W=65536 lower=-32768, upper=x"), -32768, 32767,
             [&](int64_t x) { return wide(65536, -32768, static_cast<int32_t>(x)); });
    p.Search(StrCat(mn, " lower=-32768 upper=32767, W=x"), 1, int64_t{1} << 32,
             [&](int64_t x) { return wide(static_cast<uint64_t>(x), -32768, 32767); });
    p.Search(StrCat(mn, " lower=-16384 upper=16384, W=x"), 1, int64_t{1} << 32,
             [&](int64_t x) { return wide(static_cast<uint64_t>(x), -16384, 16384); });
    p.Search(StrCat(mn, " lower=0 upper=0, W=x"), 1, int64_t{1} << 32,
             [&](int64_t x) { return wide(static_cast<uint64_t>(x), 0, 0); });
    p.Search(StrCat(mn, " W=14 lower=-32769 (out of range), upper=x"), -32769, 32767,
             [&](int64_t x) { return wide(14, -32769, static_cast<int32_t>(x)); });
  }

  // ---------------------------------------------------------------- classic im2col corners
  p.Group("B. im2col corners per rank",
          "Documented ranges: rank 3 [-32768, 32767], rank 4 [-128, 127], rank 5 [-16, 15]. Does the same "
          "upper - lower limit as im2col::w apply? f16, C=64, 64 channels, 128 pixels, SWIZZLE_128B.");
  {
    auto im = [](uint32_t rank, uint64_t w, int32_t lo, int32_t up, int axis) {
      std::vector<uint64_t> dims = {64, w};
      for (uint32_t i = 2; i < rank; ++i) dims.push_back(i + 1 == rank ? 2 : 4);
      TensorMapSpec s = Im2col(Mode::kIm2col, DataType::kFloat16, dims, 64, 128, Swizzle::k128B);
      s.pixel_box_lower_corner[axis] = lo;
      s.pixel_box_upper_corner[axis] = up;
      return s;
    };
    const int32_t pairs3[][2] = {{-32768, 32767}, {-32768, 0}, {0, 32767}, {-16384, 16383}, {-16385, 16384},
                                 {-32769, 0}, {0, 32768}, {-1, -1}};
    for (uint64_t w : {uint64_t{14}, uint64_t{65536}})
      for (const auto& pr : pairs3) p.Probe(StrCat("rank3 W=", w, " lower=", pr[0], " upper=", pr[1]), im(3, w, pr[0], pr[1], 0));
    p.Search("rank3 W=14 lower=-32768, upper=x", -32768, 32767,
             [&](int64_t x) { return im(3, 14, -32768, static_cast<int32_t>(x), 0); });
    p.Search("rank3 W=14 upper=32767, lower=x", -32768, 32767,
             [&](int64_t x) { return im(3, 14, static_cast<int32_t>(x), 32767, 0); });
    p.Search("rank3 W=14 lower=-x, upper=x", 0, 32767,
             [&](int64_t x) { return im(3, 14, static_cast<int32_t>(-x), static_cast<int32_t>(x), 0); });
    p.Search("rank3 lower=-32768 upper=32767, W=x", 1, int64_t{1} << 32,
             [&](int64_t x) { return im(3, static_cast<uint64_t>(x), -32768, 32767, 0); });
    const int32_t pairs4[][2] = {{-128, 127}, {-129, 0}, {0, 128}, {-128, -128}, {127, 127}, {-64, 63}};
    for (const auto& pr : pairs4) {
      p.Probe(StrCat("rank4 W=14 corner[0] lower=", pr[0], " upper=", pr[1]), im(4, 14, pr[0], pr[1], 0));
      p.Probe(StrCat("rank4 W=14 corner[1] lower=", pr[0], " upper=", pr[1]), im(4, 14, pr[0], pr[1], 1));
    }
    const int32_t pairs5[][2] = {{-16, 15}, {-17, 0}, {0, 16}, {-16, -16}, {15, 15}};
    for (const auto& pr : pairs5)
      for (int axis = 0; axis < 3; ++axis)
        p.Probe(StrCat("rank5 W=14 corner[", axis, "] lower=", pr[0], " upper=", pr[1]), im(5, 14, pr[0], pr[1], axis));
    {
      TensorMapSpec s = im(4, 14, -128, 127, 0);
      s.pixel_box_lower_corner[1] = -128;
      s.pixel_box_upper_corner[1] = 127;
      p.Probe("rank4 both corners -128/127", s);
    }
    p.Probe("rank4 lower=5 upper=-20 on W=14 (area <= 0)", im(4, 14, 5, -20, 0));
    p.Probe("rank4 lower=5 upper=-8 on W=14 (area 1)", im(4, 14, 5, -8, 0));
    p.Probe("rank4 lower=5 upper=-9 on W=14 (area 0)", im(4, 14, 5, -9, 0));
  }

  // ---------------------------------------------------------------- im2col channel bytes
  p.Group("C. im2col channels x element size vs 16-byte multiples and swizzle",
          "tma-spec section 6: 60 x f16 = 120 B rejected with SWIZZLE_NONE. Does the rule hold with swizzles, for "
          "other types, for interleave and for im2col::w? NHWC [C=256, W=14, H=14, N=2], 128 pixels.");
  {
    struct DtCh { DataType dt; std::vector<uint32_t> ch; };
    const DtCh cases[] = {
        {DataType::kUint8, {1, 4, 8, 12, 16, 24, 32, 48, 64, 100, 128, 144, 256}},
        {DataType::kFloat16, {1, 2, 4, 6, 8, 12, 16, 24, 32, 60, 64, 72, 128}},
        {DataType::kFloat32, {1, 2, 3, 4, 8, 12, 16, 32, 36}},
        {DataType::kFloat64, {1, 2, 3, 4, 8, 16}},
    };
    const Swizzle sws[] = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
    for (const DtCh& c : cases)
      for (Swizzle sw : sws)
        for (uint32_t ch : c.ch) {
          const uint64_t bytes = uint64_t{ch} * static_cast<uint64_t>(DataTypeBits(c.dt)) / 8;
          if (sw != Swizzle::kNone && bytes > static_cast<uint64_t>(SwizzleSpanBytes(sw)) + 16) continue;
          p.Probe(StrCat("im2col ", ShortName(c.dt), " ch=", ch, " (", bytes, " B) swizzle ", ShortName(sw)),
                  Im2col(Mode::kIm2col, c.dt, {256, 14, 14, 2}, ch, 128, sw));
        }
    for (uint32_t ch : {4u, 8u, 12u, 16u, 24u, 32u, 40u, 64u}) {
      for (Interleave il : {Interleave::k16B, Interleave::k32B}) {
        TensorMapSpec s = Im2col(Mode::kIm2col, DataType::kFloat16, {256, 14, 14, 2}, ch, 128,
                                 il == Interleave::k32B ? Swizzle::k32B : Swizzle::kNone);
        s.interleave = il;
        p.Probe(StrCat("im2col f16 ch=", ch, " (", ch * 2, " B) interleave ", ShortName(il)), s);
      }
    }
    for (Mode wm : wide_modes)
      for (Swizzle sw : {Swizzle::k64B, Swizzle::k128B})
        for (uint32_t ch : {4u, 8u, 12u, 16u, 24u, 32u, 36u, 40u, 48u, 64u, 72u}) {
          const uint64_t bytes = uint64_t{ch} * 2;
          if (bytes > static_cast<uint64_t>(SwizzleSpanBytes(sw)) + 16) continue;
          p.Probe(StrCat(Name(wm), " f16 ch=", ch, " (", bytes, " B) swizzle ", ShortName(sw)),
                  Im2col(wm, DataType::kFloat16, {256, 14, 14, 2}, ch, 128, sw));
        }
  }

  // ---------------------------------------------------------------- interleave and box[0] bytes
  p.Group("D. interleave 16B / 32B and box_dim[0] bytes",
          "cuda.h states the 16-byte rule for box_dim[0] only with INTERLEAVE_NONE, and the swizzle-span rule only "
          "with INTERLEAVE_NONE. u8 rank 3 [512, 64, 8], so box_dim[0] = bytes.");
  {
    const uint32_t boxes[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256};
    const Swizzle sws[] = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
    for (Interleave il : {Interleave::k16B, Interleave::k32B})
      for (Swizzle sw : sws)
        for (uint32_t b : boxes) {
          TensorMapSpec s = Tiled(DataType::kUint8, {512, 64, 8}, {b, 8, 2});
          s.interleave = il;
          s.swizzle = sw;
          p.Probe(StrCat("u8 interleave ", ShortName(il), " swizzle ", ShortName(sw), " box0=", b, " B"), s);
        }
    for (Interleave il : {Interleave::kNone, Interleave::k16B, Interleave::k32B})
      for (uint32_t b : {1u, 2u, 4u, 8u, 16u, 32u}) {
        TensorMapSpec s = Tiled(DataType::kFloat32, {512, 64, 8}, {b, 8, 2});
        s.interleave = il;
        s.swizzle = il == Interleave::k32B ? Swizzle::k32B : Swizzle::kNone;
        p.Probe(StrCat("f32 interleave ", ShortName(il), " box0=", b, " (", b * 4, " B)"), s);
      }
    // Interleave with rank 1 and 2 (documented: rank >= 3).
    for (uint32_t rank : {1u, 2u, 3u}) {
      std::vector<uint64_t> dims = {512, 64, 8};
      std::vector<uint32_t> box = {16, 8, 2};
      dims.resize(rank);
      box.resize(rank);
      TensorMapSpec s = Tiled(DataType::kUint8, dims, box);
      s.interleave = Interleave::k16B;
      p.Probe(StrCat("u8 interleave 16B rank ", rank), s);
    }
    // Stride 32-byte rule with INTERLEAVE_32B.
    for (uint64_t st : {uint64_t{512}, uint64_t{528}, uint64_t{544}}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {512, 64, 8}, {32, 8, 2});
      s.interleave = Interleave::k32B;
      s.swizzle = Swizzle::k32B;
      s.global_strides[0] = st;
      s.global_strides[1] = st * 64;
      p.Probe(StrCat("u8 interleave 32B stride0=", st), s);
    }
    for (uint64_t a : {uint64_t{0x200010}, uint64_t{0x200020}, uint64_t{0x200008}}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {512, 64, 8}, {32, 8, 2});
      s.interleave = Interleave::k32B;
      s.swizzle = Swizzle::k32B;
      s.global_address = a;
      s.set_fields |= kFieldGlobalAddress;
      p.Probe(StrCat("u8 interleave 32B address ", Hex(a)), s);
    }
  }

  // ---------------------------------------------------------------- element strides
  p.Group("E. element_strides[0] > 1 with and without interleave",
          "Without interleave cuda.h says element_strides[0] is ignored (section 6: 3 accepted, 9 rejected). With "
          "interleave it is meaningful. f16 rank 3 [512, 64, 8], box [16, 8, 2].");
  {
    for (Interleave il : {Interleave::kNone, Interleave::k16B, Interleave::k32B})
      for (uint32_t e0 : {0u, 1u, 2u, 3u, 4u, 8u, 9u}) {
        TensorMapSpec s = Tiled(DataType::kFloat16, {512, 64, 8}, {16, 8, 2});
        s.interleave = il;
        s.swizzle = il == Interleave::k32B ? Swizzle::k32B : Swizzle::kNone;
        s.element_strides[0] = e0;
        p.Probe(StrCat("interleave ", ShortName(il), " element_strides[0]=", e0), s);
      }
    for (uint32_t e1 : {0u, 3u, 8u, 9u}) {
      TensorMapSpec s = Tiled(DataType::kFloat16, {512, 64, 8}, {16, 8, 2});
      s.element_strides[1] = e1;
      p.Probe(StrCat("interleave none element_strides[1]=", e1, " box1=8"), s);
    }
    for (uint32_t e : {0u, 2u, 9u}) {
      TensorMapSpec s = Im2col(Mode::kIm2col, DataType::kFloat16, {64, 14, 14, 2}, 64, 128, Swizzle::k128B);
      s.element_strides[0] = e;
      p.Probe(StrCat("im2col element_strides[0]=", e), s);
      TensorMapSpec t = Im2col(Mode::kIm2col, DataType::kFloat16, {64, 14, 14, 2}, 64, 128, Swizzle::k128B);
      t.element_strides[1] = e;
      p.Probe(StrCat("im2col element_strides[1]=", e), t);
    }
  }

  // ---------------------------------------------------------------- packed types on sm_90
  p.Group("F. packed / sub-byte data types on sm_90",
          "tma-spec section 6: 16U4_ALIGN8B and 16U4_ALIGN16B rejected on sm_90; 16U6_ALIGN16B was not tried. "
          "Otherwise-valid maps (dim0 multiple of 128, stride multiple of 32, box0 = 128, 32-byte address).");
  {
    for (DataType dt : {DataType::k16U6Align16B, DataType::k16U4Align16B, DataType::k16U4Align8B})
      for (Swizzle sw : {Swizzle::kNone, Swizzle::k128B}) {
        TensorMapSpec s = Tiled(dt, {256, 64}, {128, 16});
        s.swizzle = sw;
        s.global_address = 0x200000;
        s.set_fields |= kFieldGlobalAddress;
        p.Probe(StrCat("tiled ", ShortName(dt), " swizzle ", ShortName(sw)), s);
        TensorMapSpec m = Im2col(Mode::kIm2col, dt, {256, 14, 14, 2}, 128, 128, sw);
        p.Probe(StrCat("im2col ", ShortName(dt), " ch=128 swizzle ", ShortName(sw)), m);
      }
    for (DataType dt : {DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kInt32, DataType::kUint64,
                        DataType::kInt64, DataType::kFloat16, DataType::kFloat32, DataType::kFloat64, DataType::kBfloat16,
                        DataType::kFloat32Ftz, DataType::kTfloat32, DataType::kTfloat32Ftz}) {
      const uint32_t b0 = 64u * 8u / static_cast<uint32_t>(DataTypeBits(dt));
      TensorMapSpec s = Tiled(dt, {512, 64}, {b0, 16});
      s.swizzle = Swizzle::k64B;
      p.Probe(StrCat("tiled ", ShortName(dt), " box0=64 B swizzle 64B"), s);
      s.oob_fill = OobFill::kNanRequestZeroFma;
      p.Probe(StrCat("tiled ", ShortName(dt), " OOB NaN fill"), s);
    }
    for (Swizzle sw : {Swizzle::k128BAtom32B, Swizzle::k128BAtom32BFlip8B, Swizzle::k128BAtom64B}) {
      TensorMapSpec s = Tiled(DataType::kFloat16, {512, 64}, {64, 16});
      s.swizzle = sw;
      p.Probe(StrCat("tiled f16 swizzle ", ShortName(sw)), s);
      p.Probe(StrCat("im2col::w f16 swizzle ", ShortName(sw)),
              Im2col(Mode::kIm2colW, DataType::kFloat16, {64, 14, 14, 2}, 64, 128, sw));
    }
  }

  // ---------------------------------------------------------------- ranges
  p.Group("G. ranges: rank, dims, strides, box, pixels, channels, addresses",
          "Documented limits at their edges.");
  {
    for (uint32_t rank : {0u, 1u, 5u, 6u}) {
      std::vector<uint64_t> dims(std::min<uint32_t>(rank, 5), 8);
      std::vector<uint32_t> box(std::min<uint32_t>(rank, 5), 8);
      if (rank > 0) { dims[0] = 64; box[0] = 64; }
      TensorMapSpec s = Tiled(DataType::kFloat16, dims, box);
      s.rank = rank;
      p.Probe(StrCat("tiled rank ", rank), s);
    }
    for (uint32_t rank : {2u, 3u, 5u, 6u}) {
      std::vector<uint64_t> dims(std::min<uint32_t>(rank, 5), 4);
      dims[0] = 64;
      TensorMapSpec s = Im2col(Mode::kIm2col, DataType::kFloat16, dims, 64, 128, Swizzle::k128B);
      s.rank = rank;
      p.Probe(StrCat("im2col rank ", rank), s);
      TensorMapSpec w = Im2col(Mode::kIm2colW, DataType::kFloat16, dims, 64, 128, Swizzle::k128B);
      w.rank = rank;
      p.Probe(StrCat("im2col::w rank ", rank), w);
    }
    for (uint64_t d : {k2Pow32 - 1, k2Pow32, k2Pow32 + 1}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {d}, {64});
      p.Probe(StrCat("tiled rank 1 u8 dim0=", d), s);
      TensorMapSpec t = Tiled(DataType::kUint8, {64, d}, {64, 8});
      p.Probe(StrCat("tiled rank 2 u8 dim1=", d), t);
    }
    for (uint64_t st : {k2Pow40 - 16, k2Pow40, k2Pow40 + 16}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {64, 4}, {64, 4});
      s.global_strides[0] = st;
      p.Probe(StrCat("tiled stride0=", st), s);
    }
    for (uint32_t b : {0u, 1u, 256u, 257u}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {512, 512}, {64, b});
      p.Probe(StrCat("tiled box1=", b), s);
    }
    for (uint32_t b : {255u, 256u, 257u}) {
      TensorMapSpec s = Tiled(DataType::kUint8, {512, 512}, {b, 4});
      p.Probe(StrCat("tiled u8 box0=", b), s);
    }
    for (Mode m : {Mode::kIm2col, Mode::kIm2colW, Mode::kIm2colW128}) {
      for (uint32_t px : {0u, 1u, 128u, 1024u, 1025u})
        p.Probe(StrCat(Name(m), " pixels=", px), Im2col(m, DataType::kFloat16, {64, 14, 14, 2}, 64, px, Swizzle::k128B));
      for (uint32_t ch : {0u, 8u, 256u, 257u})
        p.Probe(StrCat(Name(m), " u8 ch=", ch, " swizzle none"),
                Im2col(m, DataType::kUint8, {512, 14, 14, 2}, ch, 128, Swizzle::kNone));
      for (uint32_t ch : {128u, 136u})
        p.Probe(StrCat(Name(m), " u8 ch=", ch, " swizzle 128B"),
                Im2col(m, DataType::kUint8, {512, 14, 14, 2}, ch, 128, Swizzle::k128B));
    }
    {
      TensorMapSpec s = Im2col(Mode::kIm2colW, DataType::kFloat16, {64, 14, 14, 2}, 64, 128, Swizzle::k128B);
      s.wide_mode = Im2colWideMode::kW128;
      s.set_fields |= kFieldWideMode;
      p.Probe("im2col::w with wide_mode W128", s);
      TensorMapSpec t = Im2col(Mode::kIm2colW128, DataType::kFloat16, {64, 14, 14, 2}, 64, 1025, Swizzle::k128B);
      p.Probe("im2col::w::128 pixels=1025", t);
      for (Interleave il : {Interleave::k16B, Interleave::k32B}) {
        TensorMapSpec u = Im2col(Mode::kIm2colW, DataType::kFloat16, {64, 14, 14, 2}, 16, 128, Swizzle::k32B);
        u.interleave = il;
        p.Probe(StrCat("im2col::w interleave ", ShortName(il), " swizzle 32B ch=16"), u);
      }
    }
    for (uint64_t a : {uint64_t{0}, uint64_t{0x200008}, uint64_t{0x200010}, uint64_t{0x200020}, uint64_t{0x200080}}) {
      for (Swizzle sw : {Swizzle::kNone, Swizzle::k128B}) {
        TensorMapSpec s = Tiled(DataType::kFloat16, {512, 64}, {64, 16});
        s.swizzle = sw;
        s.global_address = a;
        s.set_fields |= kFieldGlobalAddress;
        p.Probe(StrCat("tiled f16 address ", Hex(a), " swizzle ", ShortName(sw)), s);
      }
    }
    {
      TensorMapSpec s = Tiled(DataType::kFloat16, {512, 64}, {64, 16});
      s.global_strides[0] = 0;
      p.Probe("tiled stride0=0", s);
      s.global_strides[0] = 16;
      p.Probe("tiled stride0=16 (< row 1024 B)", s);
      TensorMapSpec t = Tiled(DataType::kFloat16, {512, 64, 8}, {64, 16, 2});
      t.global_strides[1] = 16;
      p.Probe("tiled stride1 < stride0", t);
      TensorMapSpec g = Base(Mode::kGather4);
      p.Probe("gather4 default", g);
      g.box_dim[1] = 4;
      p.Probe("gather4 box1=4", g);
      TensorMapSpec sc = Base(Mode::kScatter4);
      p.Probe("scatter4 default", sc);
      TensorMapSpec big = Tiled(DataType::kFloat16, {512, 512}, {256, 256});
      p.Probe("tiled f16 box 256x256 (128 KiB)", big);
    }
  }

  if (jw != nullptr) jw->EndArray();
  std::printf("\nboundary probes: %d; BAD %d; MASKED %d; reject-only UNEXPLAINED %d; accepted by the driver although a "
              "driver-level rule fired: %d\n", p.probes, p.bad, p.masked, p.reject_only_unexplained, p.contradicted);
  if (jw != nullptr) {
    jw->Key("boundary_summary").BeginObject();
    jw->Key("probes").Int(p.probes);
    jw->Key("bad").Int(p.bad);
    jw->Key("masked").Int(p.masked);
    jw->Key("reject_only_unexplained").Int(p.reject_only_unexplained);
    jw->Key("contradicted").Int(p.contradicted);
    jw->EndObject();
  }
  *bad_out += p.bad;
}
}  // namespace

namespace gpu {
int RunRandomAgreement(const driver::CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw) {
  return RunRandom(drv, n, seed, max_print, jw);
}
void RunBoundaryProbes(const driver::CudaDriver& drv, json::Writer* jw, int* bad_out) { RunBoundaries(drv, jw, bad_out); }
}  // namespace gpu
}  // namespace tmapgen
