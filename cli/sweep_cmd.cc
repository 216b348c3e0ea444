#include "cli/sweep_cmd.h"

#include <cstdio>
#include <cstdlib>

#include "cli/common_flags.h"
#include "src/driver/cuda_driver.h"
#include "src/gpu/agreement/random_sweep.h"
#include "src/gpu/matrix/matrix.h"
#include "src/json/json_writer.h"

namespace tmapgen::cli {
namespace {

const char kSweepUsage[] =
    "usage: tmapgen sweep --random N [--seed S] [--json FILE] [--max-print K]\n"
    "       tmapgen sweep --matrix [--count N] [--seed S] [--unit U] [--max-seconds T]\n";

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen sweep: %s\n%s", msg.c_str(), HelpHint("sweep").c_str());
  return 2;
}

bool ParseU64(const std::string& s, uint64_t* v) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || end == nullptr || *end != '\0') return false;
  *v = x;
  return true;
}

}  // namespace

int RunSweepCommand(const std::vector<std::string>& args_in) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "sweep") args.erase(args.begin());
  uint64_t random_n = 0, seed = 1, count = 20000, unit = 512, max_print = 20, max_seconds = 120;
  bool matrix = false, random = false;
  std::string json_path;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto num = [&](uint64_t* v) { return i + 1 < args.size() && ParseU64(args[++i], v); };
    if (a == "--help" || a == "-h") {
      std::fputs(kSweepUsage, stdout);
      return 0;
    } else if (a == "--random") {
      random = true;
      if (!num(&random_n)) return Usage("--random needs a count");
    } else if (a == "--matrix") {
      matrix = true;
    } else if (a == "--seed") {
      if (!num(&seed)) return Usage("--seed needs a number");
    } else if (a == "--max-seconds") {
      if (!num(&max_seconds)) return Usage("--max-seconds needs a number");
    } else if (a == "--count") {
      if (!num(&count)) return Usage("--count needs a number");
    } else if (a == "--unit") {
      if (!num(&unit) || unit == 0 || unit > 4096) return Usage("--unit needs a number in [1, 4096]");
    } else if (a == "--max-print") {
      if (!num(&max_print)) return Usage("--max-print needs a number");
    } else if (a == "--json") {
      if (i + 1 >= args.size()) return Usage("--json needs a file");
      json_path = args[++i];
    } else {
      return Usage("unknown argument " + a);
    }
  }
  if (random == matrix) return Usage("give one of --random N or --matrix");
  if (matrix) {
    gpu::MatrixOptions o;
    o.count = count;
    o.seed = seed;
    o.unit = static_cast<int>(unit);
    o.max_seconds = static_cast<double>(max_seconds);
    return gpu::RunMatrix(o, stdout);
  }
  // --random: the encoders only (no kernels), in this process.
  driver::CudaDriver& drv = driver::CudaDriver::Get();
  if (!drv.info().available) {
    std::fprintf(stderr, "tmapgen sweep: no CUDA driver: %s\n", drv.info().why_unavailable.c_str());
    return 2;
  }
  const absl::StatusOr<driver::DeviceInfo> got = drv.GetDevice(0);
  const absl::Status current = got.ok() ? drv.MakeCurrent(0) : got.status();
  if (!current.ok()) {
    std::fprintf(stderr, "tmapgen sweep: %s\n", std::string(current.message()).c_str());
    return 2;
  }
  const driver::DeviceInfo& dev = *got;
  std::printf("validator (target sm_90a) vs the driver's encoders on %s (sm_%d%d), driver %d: %llu random specs, "
              "seed %llu\n",
              dev.name.c_str(), dev.cc_major, dev.cc_minor, drv.info().driver_version,
              static_cast<unsigned long long>(random_n), static_cast<unsigned long long>(seed));
  json::Writer w(json::WriterOptions{true});
  json::Writer* jw = json_path.empty() ? nullptr : &w;
  if (jw) w.BeginObject();
  const int bad = gpu::RunRandomAgreement(drv, random_n, seed, static_cast<int>(max_print), jw);
  if (jw) {
    w.EndObject();
    FILE* f = std::fopen(json_path.c_str(), "w");
    if (!f) return Usage("cannot write " + json_path);
    std::fwrite(w.str().data(), 1, w.str().size(), f);
    std::fputc('\n', f);
    std::fclose(f);
  }
  std::printf("valid but rejected by the driver (BAD): %d\n", bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace tmapgen::cli
