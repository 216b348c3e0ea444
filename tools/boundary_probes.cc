// boundary_probes.cc: see boundary_probes.h.
#include "tools/boundary_probes.h"

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
#include "src/gpu/agreement/agreement_eval.h"
#include "src/gpu/agreement/agreement_util.h"

namespace tmapgen::tools {
namespace {

using driver::CudaDriver;
using namespace tmapgen::gpu;

TensorMapSpec Base(Mode mode) {
  TensorMapSpec s = DefaultSpec(mode);
  s.target = kAgreementTarget;
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
              std::string(Name(kAgreementTarget)).c_str());

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
      // The stride of an extent-1 dimension addresses nothing: which values does the driver take there
      // (global-stride-max's fix offers the dense value or 0)?
      for (uint64_t st : {uint64_t{0}, uint64_t{65536}, (uint64_t{1} << 40) - 16, uint64_t{1} << 40,
                          uint64_t{0xffffffff00000000}, uint64_t{8}}) {
        TensorMapSpec one = Tiled(DataType::kFloat16, {512, 64, 1}, {64, 16, 1});  // dense stride1: 65536
        one.global_strides[1] = st;
        p.Probe(StrCat("tiled extent-1 dim 2, stride1=", st), one);
      }
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

void RunBoundaryProbes(const driver::CudaDriver& drv, json::Writer* jw, int* bad_out) { RunBoundaries(drv, jw, bad_out); }

}  // namespace tmapgen::tools
