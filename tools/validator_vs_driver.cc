// validator_vs_driver.cc: the validator timed next to the real CUDA driver's encoders, in one process
// (docs/perf.md, "The validator next to the driver", has the figures).
//
// tmapgen_validator_vs_driver [--rounds R] [--batch-ms M] [--cpu N] [--no-driver] [--mode NAME]
//                             [--kind valid|1error|several] [--column NAME] [--calls N]
//
// Cases, for every mode the driver encodes (tiled, im2col, im2col::w, im2col::w::128, gather4, scatter4):
//   valid       8 specs the driver accepts and the validator calls valid for the mode's target (sm_90a for
//               tiled and im2col, sm_100a for the others, which the sm_90 driver still encodes). Tiled uses
//               GEMM tiles (the maps of tests/gpu/specs/bench_specs.jsonl and the default); the other modes
//               their DefaultSpec with 8 outermost dimensions.
//   1 error     the valid specs with global_strides[0] 8 bytes off a multiple of 16.
//   several     global_strides[0] off by 8, plus box_dim[0] = 300 (and box_dim[1] = 300 for tiled), or for
//               im2col channels_per_pixel = 300 and pixels_per_column = 2000 (the microbench/validate.cc
//               recipe): 3 to 8 findings.
// Columns (ns per call, median of R rounds):
//   driver        the encoder's entry point (cuTensorMapEncodeTiled / Im2col / Im2colWide, looked up through
//                 src/driver's GetProcAddress) called with arguments prepared before timing: the driver's
//                 own cost, the partner of the ratios.
//   EncodeSpec    the same through src/driver's wrapper (parameter packing; a rejection builds its message).
//   Validate      the core's Validate with the target set, one Validation reused.
//   +explained    Validate then MakeDiagnostics: every finding with its field, message, fix and source (invalid
//                 cases only), into one Diagnostics reused from call to call, as the report writers do (its
//                 text buffer keeps its memory; every text is still written, in full, each call).
//   +explained-fresh  the same into a new Diagnostics each call (allocations included).
// Ratios: driver / Validate for valid specs (goal >= 2), driver / +explained for rejected ones (goal > 1).
// The findings column of a valid case says how many of its specs Validate's fast path decides (src/tmap/fast_path.h;
// the others go through the rule table).
//
// Setup checks, before any timing: the valid specs validate and the driver accepts them; the invalid ones
// have errors and the driver rejects them; the bare call and EncodeSpec return the same CUresult and, on
// success, the same 128 bytes. A case that fails a check is reported and not timed.
// Timing: each column runs batches of calls of about M ms (calibrated once); every round runs each column's
// batch once, in an order that rotates from round to round, so slow drifts of the machine hit all columns.
// The process pins itself to one CPU (--cpu, default: the CPU it starts on).
//
// --calls N fixes every batch at N calls (no calibration), and --kind / --column / --mode pick one case and
// column: with --rounds 1 that makes a run whose instruction count is reproducible under
// valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*RunBatch*' (Ir / N = instructions per call).
//
// Exit status: 0 when every case ran, 1 when a setup check failed, 2 on a usage error or when the driver is
// not available (--no-driver times the validator columns alone, for hosts without a GPU).
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/report/report.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

constexpr int kSpecs = 8;  // specs cycled through per case (a power of 2)

// cuda.h ABI of the three encoders (enums are 32-bit; see src/driver/cuda_driver.cc).
using EncodeTiledFn = int (*)(void* map, uint32_t data_type, uint32_t rank, void* address, const uint64_t* dims,
                              const uint64_t* strides, const uint32_t* box, const uint32_t* element_strides,
                              uint32_t interleave, uint32_t swizzle, uint32_t l2, uint32_t oob);
using EncodeIm2colFn = int (*)(void* map, uint32_t data_type, uint32_t rank, void* address, const uint64_t* dims,
                               const uint64_t* strides, const int* lower, const int* upper, uint32_t channels,
                               uint32_t pixels, const uint32_t* element_strides, uint32_t interleave,
                               uint32_t swizzle, uint32_t l2, uint32_t oob);
using EncodeIm2colWideFn = int (*)(void* map, uint32_t data_type, uint32_t rank, void* address,
                                   const uint64_t* dims, const uint64_t* strides, int lower_w, int upper_w,
                                   uint32_t channels, uint32_t pixels, const uint32_t* element_strides,
                                   uint32_t interleave, uint32_t wide_mode, uint32_t swizzle, uint32_t l2,
                                   uint32_t oob);

struct Encoders {
  EncodeTiledFn tiled = nullptr;
  EncodeIm2colFn im2col = nullptr;
  EncodeIm2colWideFn wide = nullptr;
};

// One driver call with its arguments laid out as cuda.h wants them (what a caller of the driver holds).
struct BareCall {
  Encoder encoder = Encoder::kTiled;
  uint32_t data_type = 0, rank = 0;
  void* address = nullptr;
  uint64_t dims[kMaxRank] = {}, strides[kMaxRank] = {};
  uint32_t box[kMaxRank] = {}, element_strides[kMaxRank] = {};
  int lower[3] = {}, upper[3] = {};
  int lower_w = 0, upper_w = 0;
  uint32_t channels = 0, pixels = 0, interleave = 0, swizzle = 0, l2 = 0, oob = 0, wide_mode = 0;
};

BareCall MakeBareCall(const TensorMapSpec& s) {
  BareCall c;
  const uint32_t n = std::min<uint32_t>(s.rank, kMaxRank);
  c.encoder = EncoderFor(s.mode);
  c.data_type = static_cast<uint32_t>(s.data_type);
  c.rank = s.rank;
  c.address = reinterpret_cast<void*>(static_cast<uintptr_t>(kPlaceholderAddress));
  for (uint32_t i = 0; i < n; ++i) {
    c.dims[i] = s.global_dim[i];
    c.box[i] = s.box_dim[i];
    c.element_strides[i] = s.element_strides[i];
    if (i + 1 < n) c.strides[i] = s.global_strides[i];
  }
  for (int i = 0; i < 3; ++i) {
    c.lower[i] = s.pixel_box_lower_corner[i];
    c.upper[i] = s.pixel_box_upper_corner[i];
  }
  c.lower_w = s.pixel_box_lower_corner_width;
  c.upper_w = s.pixel_box_upper_corner_width;
  c.channels = s.channels_per_pixel;
  c.pixels = s.pixels_per_column;
  c.interleave = static_cast<uint32_t>(s.interleave);
  c.swizzle = static_cast<uint32_t>(s.swizzle);
  c.l2 = static_cast<uint32_t>(s.l2_promotion);
  c.oob = static_cast<uint32_t>(s.oob_fill);
  c.wide_mode = static_cast<uint32_t>(s.wide_mode);
  return c;
}

inline int CallBare(const Encoders& e, const BareCall& c, void* map) {
  switch (c.encoder) {
    case Encoder::kTiled:
      return e.tiled(map, c.data_type, c.rank, c.address, c.dims, c.strides, c.box, c.element_strides, c.interleave,
                     c.swizzle, c.l2, c.oob);
    case Encoder::kIm2col:
      return e.im2col(map, c.data_type, c.rank, c.address, c.dims, c.strides, c.lower, c.upper, c.channels,
                      c.pixels, c.element_strides, c.interleave, c.swizzle, c.l2, c.oob);
    case Encoder::kIm2colWide:
      return e.wide(map, c.data_type, c.rank, c.address, c.dims, c.strides, c.lower_w, c.upper_w, c.channels,
                    c.pixels, c.element_strides, c.interleave, c.wide_mode, c.swizzle, c.l2, c.oob);
  }
  return -1;
}

Target TargetFor(Mode m) { return m == Mode::kTiled || m == Mode::kIm2col ? Target::kSm90a : Target::kSm100a; }

TensorMapSpec WithTarget(TensorMapSpec s) {
  s.target = TargetFor(s.mode);
  s.set_fields |= kFieldTarget;
  return s;
}

// Tiled GEMM tiles: the maps of tests/gpu/specs/bench_specs.jsonl ([4096, 4096], sm_90a) and the default.
TensorMapSpec GemmTile(int k) {
  struct Tile {
    DataType t;
    uint32_t bx, by;
    Swizzle sw;
  };
  static const Tile kTiles[kSpecs] = {
      {DataType::kBfloat16, 64, 128, Swizzle::k128B}, {DataType::kBfloat16, 64, 256, Swizzle::k128B},
      {DataType::kFloat32, 32, 128, Swizzle::k128B},  {DataType::kFloat16, 32, 128, Swizzle::k64B},
      {DataType::kFloat16, 16, 128, Swizzle::k32B},   {DataType::kUint8, 256, 64, Swizzle::kNone},
      {DataType::kBfloat16, 64, 32, Swizzle::k128B},  {DataType::kFloat16, 64, 128, Swizzle::k128B},
  };
  TensorMapSpec s = DefaultSpec(Mode::kTiled);
  s.data_type = kTiles[k].t;
  s.box_dim = {kTiles[k].bx, kTiles[k].by, 0, 0, 0};
  s.swizzle = kTiles[k].sw;
  FillPaddedStrides(&s);
  return WithTarget(s);
}

TensorMapSpec ValidSpec(Mode mode, int k) {
  if (mode == Mode::kTiled) return GemmTile(k);
  TensorMapSpec s = DefaultSpec(mode);
  s.global_dim[s.rank - 1] += static_cast<uint64_t>(k) * 16;
  FillPaddedStrides(&s);
  return WithTarget(s);
}

TensorMapSpec OneError(Mode mode, int k) {
  TensorMapSpec s = ValidSpec(mode, k);
  s.global_strides[0] += 8;
  return s;
}

TensorMapSpec SeveralErrors(Mode mode, int k) {
  TensorMapSpec s = mode == Mode::kTiled ? WithTarget(DefaultSpec(mode)) : ValidSpec(mode, k);
  if (mode == Mode::kTiled) s.global_dim[1] += static_cast<uint64_t>(k) * 16;
  s.global_strides[0] = 1000 + 32 * static_cast<uint64_t>(k);
  if (IsIm2colMode(mode)) {
    s.channels_per_pixel = 300;
    if (mode != Mode::kIm2colW128) s.pixels_per_column = 2000;
  } else {
    s.box_dim[0] = 300;
    if (mode == Mode::kTiled) s.box_dim[1] = 300;
  }
  return s;
}

enum class Kind { kValid, kOneError, kSeveral };
const char* KindName(Kind k) { return k == Kind::kValid ? "valid" : k == Kind::kOneError ? "1 error" : "several"; }
const char* KindFlag(Kind k) { return k == Kind::kValid ? "valid" : k == Kind::kOneError ? "1error" : "several"; }

struct Case {
  Mode mode;
  Kind kind;
  TensorMapSpec specs[kSpecs];
  BareCall calls[kSpecs];
  std::string problem;  // why the case is not timed
  int findings_min = 0, findings_max = 0;
  int fast_path = 0;    // how many of the specs Validate's fast path decides (src/tmap/fast_path.h)
  std::string rules;    // the error rule ids of the first spec
};

uint64_t g_sink = 0;

double NowNs() {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

enum Column { kDriver, kWrapper, kValidate, kExplained, kExplainedFresh, kColumns };
const char* const kColumnNames[kColumns] = {"driver", "EncodeSpec", "Validate", "+explained", "+explained-fresh"};

// Runs `n` calls of column `col` on the case's specs; returns ns per call.
double RunBatch(const Case& c, Column col, const Encoders& enc, const driver::CudaDriver* drv, Validation* v,
                Diagnostics* diags, uint64_t n) {
  alignas(64) uint64_t map[16];
  const double t0 = NowNs();
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(i & (kSpecs - 1));
    switch (col) {
      case kDriver:
        acc += static_cast<uint64_t>(CallBare(enc, c.calls[k], map)) + map[1];
        break;
      case kWrapper: {
        const auto r = EncodeSpec(*drv, c.specs[k], kPlaceholderAddress);
        acc += static_cast<uint64_t>(r.cu_result) + r.map[1] + r.message.size();
        break;
      }
      case kValidate:
        Validate(c.specs[k], v);
        acc += static_cast<uint64_t>(v->errors) + (v->valid ? 1 : 0);
        break;
      case kExplained: {
        Validate(c.specs[k], v);
        MakeDiagnostics(c.specs[k], *v, diags);
        for (const Diagnostic& x : *diags) acc += x.message.size() + x.fix.size() + x.source.size() + x.field.size();
        break;
      }
      case kExplainedFresh: {
        Validate(c.specs[k], v);
        const Diagnostics d = MakeDiagnostics(c.specs[k], *v);
        for (const Diagnostic& x : d) acc += x.message.size() + x.fix.size() + x.source.size() + x.field.size();
        break;
      }
      default: break;
    }
  }
  const double t1 = NowNs();
  g_sink += acc;
  return (t1 - t0) / static_cast<double>(n);
}

int Usage() {
  std::fprintf(stderr,
               "usage: tmapgen_validator_vs_driver [--rounds R] [--batch-ms M] [--cpu N] [--no-driver] [--mode NAME]\n"
               "                                   [--kind valid|1error|several] [--column NAME] [--calls N]\n"
               "  times the CUDA driver's tensor-map encoders next to tmapgen's Validate (and its explained\n"
               "  findings) for valid and rejected specs of every mode, in one process\n");
  return 2;
}

bool ParseInt(const char* s, long lo, long hi, long* out) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int Main(int argc, char** argv) {
  long rounds = 15, batch_ms = 4, cpu = -1, calls = 0;
  bool use_driver = true;
  std::string only_mode, only_kind, only_column;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](long lo, long hi, long* out) { return i + 1 < argc && ParseInt(argv[++i], lo, hi, out); };
    if (a == "--rounds") {
      if (!value(1, 1000, &rounds)) return std::fprintf(stderr, "--rounds needs 1..1000\n"), Usage();
    } else if (a == "--batch-ms") {
      if (!value(1, 1000, &batch_ms)) return std::fprintf(stderr, "--batch-ms needs 1..1000\n"), Usage();
    } else if (a == "--cpu") {
      if (!value(0, 4095, &cpu)) return std::fprintf(stderr, "--cpu needs a CPU number\n"), Usage();
    } else if (a == "--no-driver") {
      use_driver = false;
    } else if (a == "--mode") {
      if (i + 1 >= argc) return std::fprintf(stderr, "--mode needs a mode name\n"), Usage();
      only_mode = argv[++i];
    } else if (a == "--kind") {
      if (i + 1 >= argc) return std::fprintf(stderr, "--kind needs valid, 1error or several\n"), Usage();
      only_kind = argv[++i];
    } else if (a == "--column") {
      if (i + 1 >= argc) return std::fprintf(stderr, "--column needs a column name\n"), Usage();
      only_column = argv[++i];
    } else if (a == "--calls") {
      if (!value(1, 1000000000, &calls)) return std::fprintf(stderr, "--calls needs 1..1e9\n"), Usage();
    } else if (a == "--help" || a == "-h") {
      Usage();
      return 0;
    } else {
      return std::fprintf(stderr, "unknown argument %s\n", a.c_str()), Usage();
    }
  }
  if (cpu < 0) cpu = sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<int>(cpu), &set);
  const bool pinned = sched_setaffinity(0, sizeof set, &set) == 0;

  driver::CudaDriver* drv = nullptr;
  Encoders enc;
  std::string device = "no driver (--no-driver)";
  if (use_driver) {
    drv = &driver::CudaDriver::Get();
    absl::Status st = drv->MakeCurrent(0);  // kUnavailable, saying why, without a driver
    const absl::StatusOr<driver::DeviceInfo> got = st.ok() ? drv->GetDevice(0) : absl::StatusOr<driver::DeviceInfo>(st);
    if (!got.ok()) {
      std::fprintf(stderr, "tmapgen_validator_vs_driver: no CUDA driver: %s\n", std::string(got.status().message()).c_str());
      return 2;
    }
    const driver::DeviceInfo& dev = *got;
    enc.tiled = reinterpret_cast<EncodeTiledFn>(drv->GetProcAddress("cuTensorMapEncodeTiled", 12000));
    enc.im2col = reinterpret_cast<EncodeIm2colFn>(drv->GetProcAddress("cuTensorMapEncodeIm2col", 12000));
    enc.wide = reinterpret_cast<EncodeIm2colWideFn>(drv->GetProcAddress("cuTensorMapEncodeIm2colWide", 12080));
    if (!enc.tiled || !enc.im2col) {
      std::fprintf(stderr, "tmapgen_validator_vs_driver: the driver lacks cuTensorMapEncodeTiled/Im2col\n");
      return 2;
    }
    device = dev.name + " (sm_" + std::to_string(dev.cc_major) + std::to_string(dev.cc_minor) + "), driver " +
             std::to_string(drv->info().driver_version);
  }

  // Build and check the cases.
  std::vector<Case> cases;
  bool setup_failed = false;
  for (int m = 0; m < kNumModes; ++m) {
    const Mode mode = static_cast<Mode>(m);
    if (!only_mode.empty() && only_mode != Name(mode)) continue;
    for (Kind kind : {Kind::kValid, Kind::kOneError, Kind::kSeveral}) {
      if (!only_kind.empty() && only_kind != KindFlag(kind)) continue;
      Case c;
      c.mode = mode;
      c.kind = kind;
      c.findings_min = 1 << 30;
      Validation v;
      for (int k = 0; k < kSpecs; ++k) {
        c.specs[k] = kind == Kind::kValid ? ValidSpec(mode, k) : kind == Kind::kOneError ? OneError(mode, k)
                                                                                          : SeveralErrors(mode, k);
        c.calls[k] = MakeBareCall(c.specs[k]);
        Validation fast;
        c.fast_path += ValidateFastPath(c.specs[k], &fast) ? 1 : 0;
        Validate(c.specs[k], &v);
        if (kind == Kind::kValid && !v.valid) c.problem = "spec " + std::to_string(k) + " does not validate";
        if (kind != Kind::kValid && v.errors == 0) c.problem = "spec " + std::to_string(k) + " has no error";
        const Diagnostics d = MakeDiagnostics(c.specs[k], v);
        c.findings_min = std::min<int>(c.findings_min, static_cast<int>(d.size()));
        c.findings_max = std::max<int>(c.findings_max, static_cast<int>(d.size()));
        if (k == 0)
          for (const Diagnostic& x : d)
            if (x.severity == Severity::kError) c.rules += (c.rules.empty() ? "" : ",") + std::string(x.rule);
        if (drv != nullptr) {
          if (c.calls[k].encoder == Encoder::kIm2colWide && enc.wide == nullptr) {
            c.problem = "the driver lacks cuTensorMapEncodeIm2colWide";
            continue;
          }
          alignas(64) uint64_t map[16] = {};
          const int bare = CallBare(enc, c.calls[k], map);
          const auto w = EncodeSpec(*drv, c.specs[k], kPlaceholderAddress);
          if (bare != w.cu_result || (bare == 0 && std::memcmp(map, w.map, 128) != 0))
            c.problem = "the bare call and EncodeSpec disagree on spec " + std::to_string(k);
          if (kind == Kind::kValid && bare != 0)
            c.problem = "the driver rejects valid spec " + std::to_string(k) + " (" + w.error_name + ")";
          if (kind != Kind::kValid && bare == 0) c.problem = "the driver accepts invalid spec " + std::to_string(k);
        }
      }
      if (!c.problem.empty()) setup_failed = true;
      cases.push_back(std::move(c));
    }
  }

  // Calibrate and time.
  std::printf("validator vs driver on %s; CPU %ld%s; %ld rounds of ~%ld ms batches per column\n", device.c_str(), cpu,
              pinned ? " (pinned)" : " (not pinned)", rounds, batch_ms);
  std::printf("| mode | specs | findings | driver ns | EncodeSpec ns | Validate ns | +explained ns | +explained, fresh "
              "vector ns | driver / Validate | driver / +explained |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  Validation v;
  Diagnostics diags;
  for (const Case& c : cases) {
    const std::string label = std::string(Name(c.mode)) + " | " + KindName(c.kind);
    if (!c.problem.empty()) {
      std::printf("| %s | not timed: %s |\n", label.c_str(), c.problem.c_str());
      continue;
    }
    std::vector<Column> cols;
    if (drv != nullptr) cols = {kDriver, kWrapper};
    cols.push_back(kValidate);
    if (c.kind != Kind::kValid) {
      cols.push_back(kExplained);
      cols.push_back(kExplainedFresh);
    }
    if (!only_column.empty())
      cols.erase(std::remove_if(cols.begin(), cols.end(), [&](Column x) { return only_column != kColumnNames[x]; }),
                 cols.end());
    uint64_t n[kColumns] = {};
    for (Column col : cols) {
      if (calls > 0) {
        n[col] = static_cast<uint64_t>(calls);
        continue;
      }
      uint64_t k = 64;
      while (true) {
        const double ns = RunBatch(c, col, enc, drv, &v, &diags, k);
        if (ns * static_cast<double>(k) >= 0.25e6 * static_cast<double>(batch_ms) || k >= (uint64_t{1} << 30)) {
          n[col] = std::max<uint64_t>(64, static_cast<uint64_t>(batch_ms * 1e6 / ns));
          break;
        }
        k *= 2;
      }
    }
    std::vector<double> t[kColumns];
    for (long r = 0; r < rounds; ++r)
      for (size_t j = 0; j < cols.size(); ++j) {
        const Column col = cols[(j + static_cast<size_t>(r)) % cols.size()];
        t[col].push_back(RunBatch(c, col, enc, drv, &v, &diags, n[col]));
      }
    double med[kColumns] = {};
    for (Column col : cols) med[col] = Median(t[col]);
    auto cell = [&](Column col) {
      char b[32];
      if (t[col].empty()) return std::string("-");
      std::snprintf(b, sizeof b, "%.1f", med[col]);
      return std::string(b);
    };
    auto ratio = [&](Column num, Column den) {
      char b[32];
      if (t[num].empty() || t[den].empty()) return std::string("-");
      std::snprintf(b, sizeof b, "%.2fx", med[num] / med[den]);
      return std::string(b);
    };
    const std::string findings = c.kind == Kind::kValid
                                     ? std::to_string(c.findings_min) + "-" + std::to_string(c.findings_max) +
                                           " (fast path " + std::to_string(c.fast_path) + "/" +
                                           std::to_string(kSpecs) + ")"
                                     : std::to_string(c.findings_min) + "-" + std::to_string(c.findings_max) + " (" +
                                           c.rules + ")";
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label.c_str(), findings.c_str(),
                cell(kDriver).c_str(), cell(kWrapper).c_str(), cell(kValidate).c_str(), cell(kExplained).c_str(),
                cell(kExplainedFresh).c_str(), ratio(kDriver, kValidate).c_str(), ratio(kDriver, kExplained).c_str());
    std::fflush(stdout);
  }
  std::printf("(checksum %llu)\n", static_cast<unsigned long long>(g_sink & 0xffff));
  return setup_failed ? 1 : 0;
}

}  // namespace
}  // namespace tmapgen

int main(int argc, char** argv) { return tmapgen::Main(argc, argv); }
