// tmap_corpus.cc: asks the real CUDA driver to encode tensor maps and writes what it wrote, one JSON line
// per call, in the format of the shared corpus (shared/data/driver-encodings/README.md) plus a "probe" key
// naming the experiment. This is the evidence the 128-byte layout in src/blob is derived from
// (docs/tensormap-layout.md).
//
// tmap_corpus [--probes] [--random N] [--accepted K] [--seed S] [--seconds T] [--time] [--out FILE]
//
//   --probes      one field at a time from valid base maps of every mode and rank: every data type,
//                 interleave x swizzle, element strides, L2 promotion, OOB fill, rank, bit walks of the
//                 address / dims / strides, every box size, every im2col corner / channel / pixel value,
//                 the wide modes; plus prefill probes (does the driver write all 128 bytes?) and
//                 cuTensorMapReplaceAddress probes (which bits does it change?).
//   --random N    N random configurations (mostly valid for the sm_90 driver, some invalid on purpose),
//                 stopping early once K were accepted (--accepted K, default: no early stop).
//   --seconds T   stop any phase when T seconds have passed in total (default 100); the last line written
//                 is always complete.
//   --time        after the random sweep, time the driver's encode alone on its accepted calls (best of 3
//                 passes, ns per call, on standard error), for the comparison with the offline encoder.
//   --out FILE    the JSON Lines file (default: standard output). A summary goes to standard error.
//
// Lines: mode ("tiled", "im2col", "im2col_wide"), tensor_data_type, interleave, swizzle, l2_promotion,
// oob_fill, im2col_wide_mode as the cuda.h enumerator without its prefix (an integer when cuda.h has no
// name for the value passed), tensor_rank, global_address, global_dim, global_strides, box_dim,
// element_strides, pixel_box_{lower,upper}_corner[_width], channels_per_pixel, pixels_per_column as
// passed (arrays of the passed rank, at most 5 entries), driver_result, bytes (256 lowercase hex digits
// of the map, "" when rejected). Probe lines may carry: "prefill" (the byte the map was filled with
// before the call; default 0), "replace_address" and "replace_result" and "bytes_before" (for
// cuTensorMapReplaceAddress probes, where "bytes" is the map after the call).
// The first line is a header: {"header": true, "driver_version": ..., "device": ..., "cc": ...}.
//
// Needs a GPU (libcuda.so.1 or $TMAPGEN_LIBCUDA) and uses only src/driver/cuda_driver.{h,cc}, so it also
// builds without CMake:  g++ -O2 -std=c++17 -I. tools/tmap_corpus.cc src/driver/cuda_driver.cc -ldl -lpthread
// Exit status: 0 done, 2 usage error or no driver.
#include <chrono>
#include <cmath>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "src/driver/cuda_driver.h"

namespace {

using tmapgen::driver::CudaDriver;

// ---- the driver entry points, called directly (so that the map can be prefilled) ---------------------
struct alignas(128) Map {
  uint64_t w[16];
};
using PFN_Tiled = int (*)(Map*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const uint32_t*,
                          const uint32_t*, int, int, int, int);
using PFN_Im2col = int (*)(Map*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const int*,
                           const int*, uint32_t, uint32_t, const uint32_t*, int, int, int, int);
using PFN_Im2colWide = int (*)(Map*, int, uint32_t, void*, const uint64_t*, const uint64_t*, int, int,
                               uint32_t, uint32_t, const uint32_t*, int, int, int, int, int);
using PFN_Replace = int (*)(Map*, void*);

enum class Kind { kTiled, kIm2col, kWide };

// One call's parameters (arrays have room for 8 entries so that ranks up to 8 can be passed safely).
struct Call {
  Kind kind = Kind::kTiled;
  int data_type = 6;
  uint32_t rank = 2;
  uint64_t address = 1u << 21;
  uint64_t dim[8] = {};
  uint64_t stride[8] = {};
  uint32_t box[8] = {};
  uint32_t es[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  int interleave = 0, swizzle = 0, l2 = 2, oob = 0, wide_mode = 0;
  int lower[8] = {}, upper[8] = {};
  int lower_w = 0, upper_w = 0;
  uint32_t channels = 0, pixels = 0;
  int prefill = 0;
};

const char* const kDataTypes[] = {"UINT8",   "UINT16",       "UINT32",   "INT32",        "UINT64",
                                  "INT64",   "FLOAT16",      "FLOAT32",  "FLOAT64",      "BFLOAT16",
                                  "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ", "16U4_ALIGN8B",
                                  "16U4_ALIGN16B", "16U6_ALIGN16B"};
const char* const kInterleaves[] = {"NONE", "16B", "32B"};
const char* const kSwizzles[] = {"NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B",
                                 "128B_ATOM_64B"};
const char* const kL2[] = {"NONE", "L2_64B", "L2_128B", "L2_256B"};
const char* const kOob[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};
const char* const kWideModes[] = {"W", "W128"};

int ElemBytesX2(int dt) {  // element size x 2 (so that 4-bit types are exact)
  static const int k[] = {2, 4, 8, 8, 16, 16, 4, 8, 16, 4, 8, 8, 8, 1, 1, 2};
  return dt >= 0 && dt < 16 ? k[dt] : 2;
}

class Out {
 public:
  explicit Out(FILE* f) : f_(f) {}
  void Str(const char* key, const char* v) { Key(key); std::fprintf(f_, "\"%s\"", v); }
  void Enum(const char* key, int v, const char* const* names, int n) {
    if (v >= 0 && v < n) Str(key, names[v]); else Int(key, v);
  }
  void Int(const char* key, long long v) { Key(key); std::fprintf(f_, "%lld", v); }
  void U64(const char* key, uint64_t v) { Key(key); std::fprintf(f_, "%" PRIu64, v); }
  template <typename T>
  void Arr(const char* key, const T* v, int n) {
    Key(key);
    std::fputc('[', f_);
    for (int i = 0; i < n; ++i) {
      if (i) std::fputc(',', f_);
      if constexpr (std::is_signed<T>::value) std::fprintf(f_, "%lld", static_cast<long long>(v[i]));
      else std::fprintf(f_, "%llu", static_cast<unsigned long long>(v[i]));
    }
    std::fputc(']', f_);
  }
  void Hex(const char* key, const Map& m, bool ok) {
    Key(key);
    std::fputc('"', f_);
    if (ok) {
      const unsigned char* b = reinterpret_cast<const unsigned char*>(m.w);
      for (int i = 0; i < 128; ++i) std::fprintf(f_, "%02x", b[i]);
    }
    std::fputc('"', f_);
  }
  void Begin() { std::fputc('{', f_); first_ = true; }
  void End() { std::fputs("}\n", f_); }
  void Raw(const char* key, const char* json) { Key(key); std::fputs(json, f_); }

 private:
  void Key(const char* k) {
    if (!first_) std::fputc(',', f_);
    first_ = false;
    std::fprintf(f_, "\"%s\":", k);
  }
  FILE* f_;
  bool first_ = true;
};

class Gen {
 public:
  Gen(FILE* out, double seconds) : out_(out), seconds_(seconds), t0_(std::chrono::steady_clock::now()) {}

  absl::Status Init() {
    CudaDriver& drv = CudaDriver::Get();
    if (!drv.info().available) return absl::UnavailableError(drv.info().why_unavailable);
    if (absl::Status st = drv.MakeCurrent(0); !st.ok()) return st;
    tiled_ = reinterpret_cast<PFN_Tiled>(drv.GetProcAddress("cuTensorMapEncodeTiled", 12000));
    im2col_ = reinterpret_cast<PFN_Im2col>(drv.GetProcAddress("cuTensorMapEncodeIm2col", 12000));
    wide_ = reinterpret_cast<PFN_Im2colWide>(drv.GetProcAddress("cuTensorMapEncodeIm2colWide", 12080));
    replace_ = reinterpret_cast<PFN_Replace>(drv.GetProcAddress("cuTensorMapReplaceAddress", 12000));
    if (!tiled_ || !im2col_) return absl::NotFoundError("cuTensorMapEncodeTiled/Im2col not found");
    const tmapgen::driver::DeviceInfo dev = drv.GetDevice(0).value_or(tmapgen::driver::DeviceInfo());
    Out o(out_);
    o.Begin();
    o.Raw("header", "true");
    o.Int("driver_version", drv.info().driver_version);
    o.Str("device", dev.name.c_str());
    o.Int("cc", dev.cc_major * 10 + dev.cc_minor);
    o.Int("has_im2col_wide", wide_ != nullptr);
    o.End();
    return absl::OkStatus();
  }

  bool TimeLeft() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() < seconds_;
  }

  // Calls the driver, writes the line. Returns the CUresult (-1 when the entry point is missing).
  int Run(const Call& c, const char* probe, Map* result = nullptr) {
    Map m;
    std::memset(&m, c.prefill, sizeof(m));
    int r = -1;
    void* addr = reinterpret_cast<void*>(static_cast<uintptr_t>(c.address));
    switch (c.kind) {
      case Kind::kTiled:
        r = tiled_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.box, c.es, c.interleave, c.swizzle, c.l2,
                   c.oob);
        break;
      case Kind::kIm2col:
        r = im2col_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.lower, c.upper, c.channels, c.pixels,
                    c.es, c.interleave, c.swizzle, c.l2, c.oob);
        break;
      case Kind::kWide:
        if (!wide_) return -1;
        r = wide_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.lower_w, c.upper_w, c.channels, c.pixels,
                  c.es, c.interleave, c.wide_mode, c.swizzle, c.l2, c.oob);
        break;
    }
    ++calls_;
    if (r == 0) ++accepted_;
    Write(c, probe, r, m);
    if (result) *result = m;
    return r;
  }

  // The driver call alone (no output), for timing.
  int RunQuiet(const Call& c) {
    Map m;
    std::memset(&m, 0, sizeof(m));
    void* addr = reinterpret_cast<void*>(static_cast<uintptr_t>(c.address));
    switch (c.kind) {
      case Kind::kTiled:
        return tiled_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.box, c.es, c.interleave, c.swizzle, c.l2, c.oob);
      case Kind::kIm2col:
        return im2col_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.lower, c.upper, c.channels, c.pixels, c.es,
                       c.interleave, c.swizzle, c.l2, c.oob);
      case Kind::kWide:
        return wide_ ? wide_(&m, c.data_type, c.rank, addr, c.dim, c.stride, c.lower_w, c.upper_w, c.channels, c.pixels, c.es,
                             c.interleave, c.wide_mode, c.swizzle, c.l2, c.oob)
                     : -1;
    }
    return -1;
  }

  void RunReplace(const Call& c, const Map& before, uint64_t new_address) {
    Map m = before;
    const int r = replace_ ? replace_(&m, reinterpret_cast<void*>(static_cast<uintptr_t>(new_address))) : -1;
    ++calls_;
    Out o(out_);
    o.Begin();
    WriteParams(&o, c, "replace_address");
    o.Int("driver_result", 0);
    o.Hex("bytes_before", before, true);
    o.U64("replace_address", new_address);
    o.Int("replace_result", r);
    o.Hex("bytes", m, r == 0);
    o.End();
  }

  uint64_t calls() const { return calls_; }
  uint64_t accepted() const { return accepted_; }
  bool has_wide() const { return wide_ != nullptr; }

 private:
  void WriteParams(Out* o, const Call& c, const char* probe) {
    o->Str("probe", probe);
    o->Str("mode", c.kind == Kind::kTiled ? "tiled" : c.kind == Kind::kIm2col ? "im2col" : "im2col_wide");
    o->Enum("tensor_data_type", c.data_type, kDataTypes, 16);
    o->Int("tensor_rank", c.rank);
    o->U64("global_address", c.address);
    const int n = c.rank > 5 ? 5 : static_cast<int>(c.rank);
    o->Arr("global_dim", c.dim, n);
    o->Arr("global_strides", c.stride, n > 0 ? n - 1 : 0);
    if (c.kind == Kind::kTiled) o->Arr("box_dim", c.box, n);
    if (c.kind == Kind::kIm2col) {
      o->Arr("pixel_box_lower_corner", c.lower, n > 2 ? n - 2 : 0);
      o->Arr("pixel_box_upper_corner", c.upper, n > 2 ? n - 2 : 0);
    }
    if (c.kind == Kind::kWide) {
      o->Int("pixel_box_lower_corner_width", c.lower_w);
      o->Int("pixel_box_upper_corner_width", c.upper_w);
    }
    if (c.kind != Kind::kTiled) {
      o->Int("channels_per_pixel", c.channels);
      o->Int("pixels_per_column", c.pixels);
    }
    if (c.kind == Kind::kWide) o->Enum("im2col_wide_mode", c.wide_mode, kWideModes, 2);
    o->Arr("element_strides", c.es, n);
    o->Enum("interleave", c.interleave, kInterleaves, 3);
    o->Enum("swizzle", c.swizzle, kSwizzles, 7);
    o->Enum("l2_promotion", c.l2, kL2, 4);
    o->Enum("oob_fill", c.oob, kOob, 2);
    if (c.prefill) o->Int("prefill", c.prefill);
  }
  void Write(const Call& c, const char* probe, int r, const Map& m) {
    Out o(out_);
    o.Begin();
    WriteParams(&o, c, probe);
    o.Int("driver_result", r);
    o.Hex("bytes", m, r == 0);
    o.End();
  }

  FILE* out_;
  double seconds_;
  std::chrono::steady_clock::time_point t0_;
  PFN_Tiled tiled_ = nullptr;
  PFN_Im2col im2col_ = nullptr;
  PFN_Im2colWide wide_ = nullptr;
  PFN_Replace replace_ = nullptr;
  uint64_t calls_ = 0, accepted_ = 0;
};

// Dense strides for dims (padded to 16 bytes per row).
void DenseStrides(Call* c) {
  const uint64_t eb2 = ElemBytesX2(c->data_type);
  uint64_t pitch = (c->dim[0] * eb2 / 2 + 15) / 16 * 16;
  if (c->interleave == 2) pitch = (pitch + 31) / 32 * 32;
  for (uint32_t i = 0; i + 1 < c->rank && i < 7; ++i) {
    c->stride[i] = pitch;
    pitch *= c->dim[i + 1];
  }
}

// Valid base maps (for the sm_90 driver) of each mode and rank.
Call BaseTiled(uint32_t rank) {
  Call c;
  c.kind = Kind::kTiled;
  c.data_type = 6;  // FLOAT16
  c.rank = rank;
  const uint64_t dims[5] = {1024, 512, 64, 16, 8};
  const uint32_t box[5] = {64, 32, 4, 2, 2};
  for (uint32_t i = 0; i < rank; ++i) { c.dim[i] = dims[i]; c.box[i] = box[i]; }
  c.swizzle = 3;  // 128B
  c.l2 = 2;
  DenseStrides(&c);
  return c;
}
Call BaseIm2col(uint32_t rank, Kind kind) {
  Call c;
  c.kind = kind;
  c.data_type = 6;
  c.rank = rank;
  // [C, W, H, D, N] with W (and H, D) large enough for every corner value of the rank.
  const uint64_t dims3[3] = {64, 1u << 17, 32};
  const uint64_t dims4[4] = {64, 512, 512, 32};
  const uint64_t dims5[5] = {64, 64, 64, 64, 8};
  const uint64_t* d = rank == 3 ? dims3 : rank == 4 ? dims4 : dims5;
  for (uint32_t i = 0; i < rank; ++i) c.dim[i] = d[i];
  c.swizzle = 3;
  c.l2 = 2;
  c.channels = 64;
  c.pixels = 128;
  if (kind == Kind::kIm2col) {
    for (uint32_t i = 0; i + 2 < rank; ++i) { c.lower[i] = -1; c.upper[i] = -1; }
  } else {
    c.lower_w = -1;
    c.upper_w = -1;
  }
  DenseStrides(&c);
  return c;
}

std::vector<Call> Bases(bool with_wide) {
  std::vector<Call> v;
  for (uint32_t r = 1; r <= 5; ++r) v.push_back(BaseTiled(r));
  for (uint32_t r = 3; r <= 5; ++r) v.push_back(BaseIm2col(r, Kind::kIm2col));
  if (with_wide)
    for (uint32_t r = 3; r <= 5; ++r) v.push_back(BaseIm2col(r, Kind::kWide));
  return v;
}

// Bit-walk values: 0, 1, 2^k - 1, 2^k, 2^k + 1 up to 2^max_bit, and the all-ones of widths.
std::vector<uint64_t> Walk(int max_bit, uint64_t unit) {
  std::vector<uint64_t> v = {0, unit};
  for (int k = 1; k <= max_bit; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (uint64_t x : {p - unit, p, p + unit})
      if (x % unit == 0) v.push_back(x);
  }
  return v;
}

void Probes(Gen& g, std::mt19937_64& rng) {
  const std::vector<Call> bases = Bases(g.has_wide());
  char name[96];
  for (const Call& base : bases) {
    if (!g.TimeLeft()) return;
    g.Run(base, "base");
    // Data types, with the box / channels kept at the same bytes where possible and as given.
    for (int dt = 0; dt <= 16; ++dt) {
      Call c = base;
      c.data_type = dt;
      g.Run(c, "data_type");
      // Same inner bytes (64 fp16 = 128 bytes): scale box[0] / channels; packed types take 128.
      const int eb2 = ElemBytesX2(dt);
      const uint32_t inner = dt >= 13 ? 128 : static_cast<uint32_t>(256 / eb2);
      if (c.kind == Kind::kTiled) c.box[0] = inner > 256 ? 256 : inner; else c.channels = inner > 256 ? 256 : inner;
      if (dt >= 13) c.dim[0] = 1024;
      DenseStrides(&c);
      if (dt >= 13) c.address = 1u << 21;
      g.Run(c, "data_type_fitted");
      c.oob = 1;
      g.Run(c, "data_type_fitted_oob");
      for (int sw = 0; sw <= 6; ++sw) {
        Call s = c;
        s.oob = 0;
        s.swizzle = sw;
        g.Run(s, "data_type_swizzle");
      }
    }
    // Interleave x swizzle, with inner bytes 8..256.
    for (int il = 0; il <= 3; ++il)
      for (int sw = 0; sw <= 7; ++sw)
        for (uint32_t bytes : {8u, 16u, 32u, 64u, 128u, 256u}) {
          Call c = base;
          c.interleave = il;
          c.swizzle = sw;
          if (c.kind == Kind::kTiled) c.box[0] = bytes / 2; else c.channels = bytes / 2;
          DenseStrides(&c);
          g.Run(c, "interleave_swizzle");
        }
    // Element strides, one dimension at a time.
    for (uint32_t d = 0; d < base.rank; ++d)
      for (uint32_t v = 0; v <= 9; ++v) {
        Call c = base;
        c.es[d] = v;
        std::snprintf(name, sizeof(name), "element_strides[%u]", d);
        g.Run(c, name);
      }
    for (int l2 = 0; l2 <= 4; ++l2) { Call c = base; c.l2 = l2; g.Run(c, "l2_promotion"); }
    for (int oob = 0; oob <= 2; ++oob) { Call c = base; c.oob = oob; g.Run(c, "oob_fill"); }
    for (uint32_t r = 0; r <= 7; ++r) {
      Call c = base;
      c.rank = r;
      for (uint32_t i = base.rank; i < 8; ++i) { c.dim[i] = 4; c.box[i] = 1; c.es[i] = 1; }
      DenseStrides(&c);
      g.Run(c, "rank");
    }
    // Address bit walk (the full 64 bits, aligned and not).
    for (int k = 0; k < 64; ++k) {
      Call c = base;
      c.address = uint64_t{1} << k;
      g.Run(c, "global_address");
      c.address = (~uint64_t{0}) << k;
      g.Run(c, "global_address");
    }
    for (int i = 0; i < 16; ++i) {
      Call c = base;
      c.address = rng() & ~uint64_t{15};
      g.Run(c, "global_address_random");
      c.address &= (uint64_t{1} << 57) - 1;
      g.Run(c, "global_address_random");
    }
    // Dims and strides: bit walks, one entry at a time.
    for (uint32_t d = 0; d < base.rank; ++d)
      for (uint64_t v : Walk(34, 1)) {
        Call c = base;
        c.dim[d] = v;
        std::snprintf(name, sizeof(name), "global_dim[%u]", d);
        g.Run(c, name);
      }
    for (uint32_t d = 0; d + 1 < base.rank; ++d) {
      for (uint64_t v : Walk(42, 16)) {
        Call c = base;
        c.stride[d] = v;
        std::snprintf(name, sizeof(name), "global_strides[%u]", d);
        g.Run(c, name);
      }
      for (uint64_t v : {8ull, 24ull, 40ull, 48ull, (1ull << 40) - 32, (1ull << 40) - 16, (1ull << 40) - 8}) {
        Call c = base;
        c.stride[d] = v;
        std::snprintf(name, sizeof(name), "global_strides[%u]", d);
        g.Run(c, name);
      }
      for (int i = 0; i < 64; ++i) {
        Call c = base;
        c.stride[d] = (rng() & ((uint64_t{1} << 40) - 1)) & ~uint64_t{15};
        std::snprintf(name, sizeof(name), "global_strides[%u]_random", d);
        g.Run(c, name);
      }
    }
    if (base.kind == Kind::kTiled) {
      // Every box size of every dimension; dim 0 with swizzle NONE so that 256 elements fit.
      for (uint32_t d = 0; d < base.rank; ++d)
        for (uint32_t v = 0; v <= 258; ++v) {
          Call c = base;
          if (d == 0) c.swizzle = 0;
          c.box[d] = v;
          std::snprintf(name, sizeof(name), "box_dim[%u]", d);
          g.Run(c, name);
        }
      // Large boxes: the box-bytes word at its largest.
      for (int dt : {0, 4, 8}) {
        Call c = base;
        c.data_type = dt;
        c.swizzle = 0;
        for (uint32_t i = 0; i < base.rank; ++i) { c.dim[i] = 1u << 12; c.box[i] = 256; }
        c.box[0] = dt == 0 ? 256 : 32;
        DenseStrides(&c);
        g.Run(c, "box_large");
        for (uint32_t i = 0; i < base.rank; ++i) c.es[i] = 3;
        g.Run(c, "box_large_es");
      }
    } else {
      // Channels and pixels: every value.
      for (uint32_t v = 0; v <= 258; ++v) {
        Call c = base;
        c.swizzle = 0;
        c.channels = v;
        g.Run(c, "channels_per_pixel");
      }
      for (uint32_t v = 0; v <= 1026; ++v) {
        Call c = base;
        c.pixels = v;
        g.Run(c, "pixels_per_column");
        if (c.kind == Kind::kWide) { c.wide_mode = 1; g.Run(c, "pixels_per_column_w128"); }
      }
      if (base.kind == Kind::kIm2col) {
        const int range = base.rank == 3 ? 32768 : base.rank == 4 ? 128 : 16;
        for (uint32_t s = 0; s + 2 < base.rank; ++s) {
          std::vector<int> vals;
          if (range <= 128) {
            for (int v = -range - 2; v <= range + 1; ++v) vals.push_back(v);
          } else {
            for (int k = 0; k <= 16; ++k) for (int sgn : {1, -1}) for (int d : {-1, 0, 1}) vals.push_back(sgn * (1 << k) + d);
            for (int i = 0; i < 200; ++i) vals.push_back(static_cast<int>(rng() % 65536) - 32768);
          }
          for (int v : vals) {
            Call c = base;
            c.lower[s] = v;
            std::snprintf(name, sizeof(name), "pixel_box_lower_corner[%u]", s);
            g.Run(c, name);
            c = base;
            c.upper[s] = v;
            std::snprintf(name, sizeof(name), "pixel_box_upper_corner[%u]", s);
            g.Run(c, name);
          }
        }
      } else {
        std::vector<int> vals;
        for (int k = 0; k <= 16; ++k) for (int sgn : {1, -1}) for (int d : {-1, 0, 1}) vals.push_back(sgn * (1 << k) + d);
        for (int v = -40; v <= 40; ++v) vals.push_back(v);
        for (int v : vals)
          for (int wm = 0; wm <= 2; ++wm) {
            Call c = base;
            c.lower_w = v;
            c.wide_mode = wm;
            g.Run(c, "pixel_box_lower_corner_width");
            c = base;
            c.upper_w = v;
            c.wide_mode = wm;
            g.Run(c, "pixel_box_upper_corner_width");
          }
        for (int wm = 0; wm <= 3; ++wm) { Call c = base; c.wide_mode = wm; g.Run(c, "im2col_wide_mode"); }
      }
    }
    // Prefill: is every byte written? (The same call with the map filled with 0xff and 0x5a first.)
    for (int fill : {0xff, 0x5a}) { Call c = base; c.prefill = fill; g.Run(c, "prefill"); }
  }
  // cuTensorMapReplaceAddress on a few accepted maps: which bits change?
  for (const Call& base : bases) {
    Map m;
    if (g.Run(base, "replace_base", &m) != 0) continue;
    for (int k = 0; k < 64; ++k) {
      g.RunReplace(base, m, uint64_t{1} << k);
      g.RunReplace(base, m, (~uint64_t{0}) << k);
    }
    for (int i = 0; i < 8; ++i) g.RunReplace(base, m, rng() & ~uint64_t{15});
  }
}

// ---- random sweep --------------------------------------------------------------------------------------
uint64_t LogUniform(std::mt19937_64& rng, uint64_t lo, uint64_t hi) {  // inclusive, lo >= 1
  const double a = std::log2(static_cast<double>(lo)), b = std::log2(static_cast<double>(hi) + 1);
  const double x = a + (b - a) * std::uniform_real_distribution<double>(0, 1)(rng);
  uint64_t v = static_cast<uint64_t>(std::exp2(x));
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return v;
}

Call RandomCall(std::mt19937_64& rng) {
  auto u = [&](uint64_t n) { return static_cast<uint64_t>(rng() % n); };
  Call c;
  const uint64_t m = u(10);
  c.kind = m < 6 ? Kind::kTiled : m < 8 ? Kind::kIm2col : Kind::kWide;
  c.data_type = u(100) < 3 ? static_cast<int>(13 + u(3)) : static_cast<int>(u(13));
  c.rank = c.kind == Kind::kTiled ? static_cast<uint32_t>(1 + u(5)) : static_cast<uint32_t>(3 + u(3));
  c.interleave = 0;
  if (c.rank >= 3 && u(100) < 12) c.interleave = static_cast<int>(1 + u(2));
  c.swizzle = static_cast<int>(u(4));
  if (u(100) < 2) c.swizzle = static_cast<int>(4 + u(3));
  if (c.kind == Kind::kWide && u(100) < 85) c.swizzle = static_cast<int>(2 + u(2));
  if (c.interleave == 2 && u(100) < 70) c.swizzle = 1;
  c.l2 = static_cast<int>(u(4));
  const bool is_float = (c.data_type >= 6 && c.data_type <= 12);
  c.oob = is_float && u(100) < 30 ? 1 : 0;
  c.wide_mode = static_cast<int>(u(2));
  const uint64_t align = c.interleave == 2 ? 32 : 16;
  // Addresses: mostly below 2^49 (device-like), some up to 2^64.
  const int abits = u(100) < 90 ? 49 : 64;
  c.address = (abits == 64 ? rng() : rng() & ((uint64_t{1} << abits) - 1)) & ~(align - 1);
  for (uint32_t i = 0; i < c.rank; ++i) c.dim[i] = LogUniform(rng, 1, uint64_t{1} << 32);
  for (uint32_t i = 0; i + 1 < c.rank; ++i)
    c.stride[i] = LogUniform(rng, 1, (uint64_t{1} << 40) / align - 1) * align;
  for (uint32_t i = 0; i < c.rank; ++i) c.es[i] = static_cast<uint32_t>(1 + u(u(4) == 0 ? 8 : 2));
  const int eb2 = ElemBytesX2(c.data_type);
  const int span = c.swizzle == 0 ? 0 : c.swizzle == 1 ? 32 : c.swizzle == 2 ? 64 : 128;
  // Inner extent in bytes: a multiple of 16 up to the swizzle span (none: up to 256 elements).
  auto inner_elems = [&]() -> uint32_t {
    if (c.interleave != 0) return static_cast<uint32_t>(1 + u(u(2) ? 256 : 32));
    const int max_bytes = span ? span : 256 * eb2 / 2;
    const int units = max_bytes / 16;
    const int bytes = 16 * static_cast<int>(1 + u(units < 1 ? 1 : units));
    uint32_t e = static_cast<uint32_t>(bytes * 2 / eb2);
    if (e > 256) e = 256;
    if (e == 0) e = 1;
    return e;
  };
  if (c.kind == Kind::kTiled) {
    c.box[0] = inner_elems();
    for (uint32_t i = 1; i < c.rank; ++i) c.box[i] = static_cast<uint32_t>(1 + u(u(2) ? 256 : 16));
  } else {
    c.channels = inner_elems();
    c.pixels = static_cast<uint32_t>(1 + u(u(2) ? 1024 : 128));
    // Keep the spatial dims at least as large as the corner spread, so the box is not empty.
    const int range = c.kind == Kind::kWide ? 32768 : c.rank == 3 ? 32768 : c.rank == 4 ? 128 : 16;
    auto corner = [&]() {
      if (u(3) == 0) return static_cast<int>(u(7)) - 3;
      return static_cast<int>(u(2 * static_cast<uint64_t>(range))) - range;
    };
    if (c.kind == Kind::kIm2col) {
      for (uint32_t i = 0; i + 2 < c.rank; ++i) {
        c.lower[i] = corner();
        c.upper[i] = corner();
        const int64_t need = static_cast<int64_t>(c.lower[i]) - c.upper[i] + 1;
        if (need > 0 && static_cast<int64_t>(c.dim[i + 1]) < need && u(10) < 9) c.dim[i + 1] = static_cast<uint64_t>(need);
      }
    } else {
      c.lower_w = corner();
      c.upper_w = corner();
      const int64_t need = static_cast<int64_t>(c.lower_w) - c.upper_w + 1;
      if (need > 0 && static_cast<int64_t>(c.dim[1]) < need && u(10) < 9) c.dim[1] = static_cast<uint64_t>(need);
    }
  }
  return c;
}

void Random(Gen& g, std::mt19937_64& rng, uint64_t n, uint64_t accepted_goal, bool time_driver) {
  const uint64_t acc0 = g.accepted();
  std::vector<Call> accepted;
  for (uint64_t i = 0; i < n; ++i) {
    if ((i & 1023) == 0 && !g.TimeLeft()) break;
    if (accepted_goal && g.accepted() - acc0 >= accepted_goal) break;
    const Call c = RandomCall(rng);
    if (g.Run(c, "random") == 0 && time_driver && accepted.size() < 200000) accepted.push_back(c);
  }
  if (!time_driver || accepted.empty()) return;
  // The driver's encode alone, on the accepted calls of this sweep: best of 3 passes.
  double best = 1e30;
  int bad = 0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const Call& c : accepted) bad += g.RunQuiet(c) != 0;
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    if (ns < best) best = ns;
  }
  std::fprintf(stderr, "tmap_corpus: driver encode time: %zu accepted calls, %.1f ns per call (best of 3 passes)%s\n",
               accepted.size(), best / static_cast<double>(accepted.size()), bad ? " (some calls failed on replay)" : "");
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--probes] [--random N] [--accepted K] [--seed S] [--seconds T] [--time] [--out FILE]\n"
               "  writes the driver's own tensor-map encodings as JSON Lines (see the header of tools/tmap_corpus.cc)\n",
               argv0);
  return 2;
}

bool ParseU64(const char* s, uint64_t* out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool probes = false, time_driver = false;
  uint64_t random_n = 0, accepted_goal = 0, seed = 1, seconds = 100;
  const char* out_path = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next_u64 = [&](uint64_t* v) { return i + 1 < argc && ParseU64(argv[++i], v); };
    if (a == "--probes") probes = true;
    else if (a == "--time") time_driver = true;
    else if (a == "--random") { if (!next_u64(&random_n)) return Usage(argv[0]); }
    else if (a == "--accepted") { if (!next_u64(&accepted_goal)) return Usage(argv[0]); }
    else if (a == "--seed") { if (!next_u64(&seed)) return Usage(argv[0]); }
    else if (a == "--seconds") { if (!next_u64(&seconds)) return Usage(argv[0]); }
    else if (a == "--out") { if (i + 1 >= argc) return Usage(argv[0]); out_path = argv[++i]; }
    else return Usage(argv[0]);
  }
  if (!probes && random_n == 0) return Usage(argv[0]);
  FILE* out = out_path ? std::fopen(out_path, "w") : stdout;
  if (!out) { std::fprintf(stderr, "tmap_corpus: cannot write %s\n", out_path); return 2; }
  Gen g(out, static_cast<double>(seconds));
  if (const absl::Status st = g.Init(); !st.ok()) {
    std::fprintf(stderr, "tmap_corpus: no CUDA driver: %s\n", std::string(st.message()).c_str());
    return 2;
  }
  std::mt19937_64 rng(seed);
  const auto t0 = std::chrono::steady_clock::now();
  if (probes) Probes(g, rng);
  const uint64_t probe_calls = g.calls(), probe_acc = g.accepted();
  if (random_n) Random(g, rng, random_n, accepted_goal, time_driver);
  if (out != stdout) std::fclose(out);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "tmap_corpus: probes %" PRIu64 " calls (%" PRIu64 " accepted), random %" PRIu64
               " calls (%" PRIu64 " accepted), %.1f s, time left: %s\n",
               probe_calls, probe_acc, g.calls() - probe_calls, g.accepted() - probe_acc, s,
               g.TimeLeft() ? "yes" : "no (stopped by --seconds)");
  return 0;
}
