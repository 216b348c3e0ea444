// driver_agreement.cc: compares the validator's verdict with the real CUDA driver's, spec by spec.
//
// tmapgen_driver_agreement [--random N] [--seed S] [--boundaries] [--json FILE] [--max-print K]
//
//   --random N     N random specs biased to the rules' boundaries, for every mode the encoders serve
//                  (tiled, gather4, scatter4, im2col, im2col::w, im2col::w::128), each with target sm_90a.
//   --boundaries   a fixed list of hand-made probes and bisection searches that settle open questions
//                  (im2col::w corner / extent limits, im2col channel bytes, interleave box bytes, ...).
//   --json FILE    also write the results as JSON.
//
// For each spec: Validate (target sm_90a), then EncodeSpec with the spec's global_address when it has
// one, else kPlaceholderAddress (0x200000). Classes:
//   both accept | both reject
//   BAD          the validator calls the spec valid, the driver rejects it (a validator bug)
//   reject-only  the validator rejects, the driver accepts; grouped by the set of error rule ids.
//                "explained" when one of the errors is a target/use rule (what the driver never sees:
//                the target, the mode of use, the direction, shared memory) or its message says that the
//                driver does not enforce it ("accepts", "encodes ... anyway", "does not enforce").
//   masked       both reject, but only through target/use rules: the validator's driver-level rules
//                (the "driver view": gather4/scatter4 as a tiled map, direction load, target rules other
//                than the mode and shared-memory checks kept) accept a spec the driver rejects. On sm_90a
//                every im2col::w and gather4 spec is rejected by target-mode, so this is how a gap in the
//                driver-level rules of those modes shows.
// BAD and masked cases are shrunk greedily (simplifying mutations kept while the case stays BAD / masked)
// and grouped by the fields that could not be simplified.
//
// Needs a GPU and its driver (libcuda.so.1, or $TMAPGEN_LIBCUDA). Exit status: 0 = no BAD case,
// 1 = at least one BAD case, 2 = usage error or no driver.
// The random comparison lives in src/gpu/agreement/random_sweep.cc (shared with `tmapgen sweep --random`); the
// boundary probes, which only this tool runs, in tools/boundary_probes.cc.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/driver/cuda_driver.h"
#include "src/gpu/agreement/random_sweep.h"
#include "tools/boundary_probes.h"
#include "src/json/json_writer.h"
#include "src/util/strings.h"
#include "src/tmap/types.h"

namespace tmapgen {
namespace {

using tools::RunBoundaryProbes;
constexpr Target kTarget = Target::kSm90a;
int RunBoundaries(const driver::CudaDriver& drv, json::Writer* jw, int* bad) {
  RunBoundaryProbes(drv, jw, bad);
  return 0;
}
int RunRandom(const driver::CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw) {
  return gpu::RunRandomAgreement(drv, n, seed, max_print, jw);
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--random N] [--seed S] [--boundaries] [--json FILE] [--max-print K]\n"
               "  compares tmapgen's validator (target sm_90a) with the CUDA driver's cuTensorMapEncode*\n",
               argv0);
  return 2;
}

bool ParseU64(const char* s, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace
}  // namespace tmapgen

int main(int argc, char** argv) {
  using namespace tmapgen;
  uint64_t random_n = 0, seed = 1, max_print = 40;
  bool boundaries = false;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](uint64_t* v) { return i + 1 < argc && ParseU64(argv[++i], v); };
    if (a == "--random") { if (!next(&random_n)) return Usage(argv[0]); }
    else if (a == "--seed") { if (!next(&seed)) return Usage(argv[0]); }
    else if (a == "--max-print") { if (!next(&max_print)) return Usage(argv[0]); }
    else if (a == "--boundaries") boundaries = true;
    else if (a == "--json") { if (i + 1 >= argc) return Usage(argv[0]); json_path = argv[++i]; }
    else if (a == "-h" || a == "--help") { Usage(argv[0]); return 0; }
    else return Usage(argv[0]);
  }
  if (random_n == 0 && !boundaries) return Usage(argv[0]);

  driver::CudaDriver& drv = driver::CudaDriver::Get();
  if (!drv.info().available) {
    std::fprintf(stderr, "tmapgen_driver_agreement: no CUDA driver: %s\n", drv.info().why_unavailable.c_str());
    return 2;
  }
  const absl::StatusOr<driver::DeviceInfo> got = drv.GetDevice(0);
  const absl::Status current = got.ok() ? drv.MakeCurrent(0) : got.status();
  if (!current.ok()) {
    std::fprintf(stderr, "tmapgen_driver_agreement: %s\n", std::string(current.message()).c_str());
    return 2;
  }
  const driver::DeviceInfo& dev = *got;
  const int dv = drv.info().driver_version;
  std::printf("device 0: %s, compute capability %d.%d, %d SMs, %d B shared memory per block (opt-in)\n",
              dev.name.c_str(), dev.cc_major, dev.cc_minor, dev.sm_count, dev.max_smem_per_block_optin);
  std::printf("driver: %s, cuDriverGetVersion = %d (CUDA %d.%d); Im2colWide entry point %s\n",
              drv.info().library_path.c_str(), dv, dv / 1000, (dv % 1000) / 10,
              drv.has_im2col_wide() ? "found" : "MISSING");
  std::printf("validator target: %s\n", std::string(Name(kTarget)).c_str());

  json::Writer w(json::WriterOptions{true});
  json::Writer* jw = json_path.empty() ? nullptr : &w;
  if (jw != nullptr) {
    w.BeginObject();
    w.Key("device").String(dev.name);
    w.Key("compute_capability").String(StrCat(dev.cc_major, ".", dev.cc_minor));
    w.Key("driver_version").Int(dv);
    w.Key("library").String(drv.info().library_path);
    w.Key("target").String(Name(kTarget));
  }
  int bad = 0;
  if (boundaries) RunBoundaries(drv, jw, &bad);
  if (random_n > 0) bad += RunRandom(drv, random_n, seed, static_cast<int>(max_print), jw);
  if (jw != nullptr) {
    w.EndObject();
    FILE* f = std::fopen(json_path.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "tmapgen_driver_agreement: cannot write %s\n", json_path.c_str());
      return 2;
    }
    std::fwrite(w.str().data(), 1, w.str().size(), f);
    std::fputc('\n', f);
    std::fclose(f);
    if (!w.complete()) std::fprintf(stderr, "tmapgen_driver_agreement: JSON writer: %s\n", w.error().c_str());
  }
  return bad == 0 ? 0 : 1;
}
