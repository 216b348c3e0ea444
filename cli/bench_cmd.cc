#include "cli/bench_cmd.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cli/check_cmd.h"
#include "cli/common_flags.h"
#include "src/gpu/bandwidth/copy_bandwidth.h"
#include "src/gpu/bandwidth/mcast_bandwidth.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

constexpr char kUsageLine[] =
    "usage: tmapgen bench SPEC [--gib G] [--iters N] [--rounds R] [--stages S] [--blocks-per-sm B] [--row-bytes N] [--sms N] [--one-way] [--check-all]\n"
    "       tmapgen bench SPEC --multicast C [--gib G] [--iters N] [--rounds R] [--stages S] [--blocks-per-sm B] [--row-bytes N] [--sms N]\n";

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen bench: %s\n%s", msg.c_str(), HelpHint("bench").c_str());
  return 2;
}

}  // namespace

int RunBenchCommand(const std::vector<std::string>& args_in) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "bench") args.erase(args.begin());
  gpu::CopyBandwidthOptions opt;
  std::string file;
  uint32_t multicast = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto num = [&](double* v) {
      if (i + 1 >= args.size()) return false;
      char* end = nullptr;
      *v = std::strtod(args[++i].c_str(), &end);
      return end != nullptr && *end == '\0' && *v > 0;
    };
    double v = 0;
    if (a == "--help" || a == "-h") {
      std::printf("%s"
                  "  TMA load+store copy of a ~G GiB tensor with SPEC's type, box and swizzle vs cuMemcpyDtoD, a TMA\n"
                  "  bulk copy of the same bytes without a map and an SM copy kernel, each tuned in the run and\n"
                  "  checked; R alternating rounds of N copies each (default 5 x 5)\n"
                  "  --row-bytes N: rows of N bytes (default 16384); --sms N: a grid for N SMs (default all)\n"
                  "  --one-way: also time the map's and the bulk copy's loads alone and stores alone\n"
                  "  --check-all: seed the whole source and compare every byte of each checked copy (default: the\n"
                  "  first and last 16 MiB)\n"
                  "  --multicast C: instead, loads of every box into every CTA of clusters of C CTAs (2-8), by\n"
                  "  .multicast::cluster slices and by each CTA loading every box itself, in the same run\n",
                  kUsageLine);
      return 0;
    }
    if (a == "--gib") {
      if (!num(&v)) return Usage("--gib needs a positive number");
      opt.bytes = static_cast<uint64_t>(v * 1073741824.0);
    } else if (a == "--iters") {
      if (!num(&v)) return Usage("--iters needs a positive number");
      opt.iters = static_cast<int>(v);
    } else if (a == "--rounds") {
      if (!num(&v)) return Usage("--rounds needs a positive number");
      opt.rounds = static_cast<int>(v);
    } else if (a == "--stages") {
      if (!num(&v)) return Usage("--stages needs a positive number");
      opt.stages = static_cast<int>(v);
      opt.stages_set = true;
    } else if (a == "--blocks-per-sm") {
      if (!num(&v)) return Usage("--blocks-per-sm needs a positive number");
      opt.blocks_per_sm = static_cast<int>(v);
    } else if (a == "--row-bytes") {
      if (!num(&v) || v < 16 || v > 1e12) return Usage("--row-bytes needs a number of bytes from 16");
      opt.row_bytes = static_cast<uint64_t>(v);
    } else if (a == "--multicast") {
      if (!num(&v) || v < 2 || v > 8 || v != static_cast<int>(v)) return Usage("--multicast needs a cluster size from 2 to 8");
      multicast = static_cast<uint32_t>(v);
    } else if (a == "--one-way") {
      opt.one_way = true;
    } else if (a == "--check-all") {
      opt.check_all = true;
    } else if (a == "--sms") {
      if (!num(&v) || v > 100000) return Usage("--sms needs a positive number");
      opt.sms = static_cast<int>(v);
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return Usage(StrCat("unknown flag ", a,
                          DidYouMean(a, {"--gib", "--iters", "--rounds", "--stages", "--blocks-per-sm", "--row-bytes",
                                         "--sms", "--one-way", "--check-all", "--multicast", "--help"})));
    } else if (file.empty()) {
      file = a;
    } else {
      return Usage("one SPEC only");
    }
  }
  if (file.empty()) return Usage("missing SPEC");
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  if (const absl::Status st = ReadSpecsFile(file, &specs, &names); !st.ok()) return Usage(std::string(StatusMessage(st)));
  opt.progress = isatty(fileno(stderr)) != 0;
  int rc = 0;
  std::vector<std::string> summary;
  for (size_t i = 0; i < specs.size(); ++i) {
    Validation v;
    Validate(specs[i], &v);
    std::printf("%s== %s\n", i ? "\n" : "", names[i].c_str());
    if (!v.valid) {
      std::printf("invalid spec (run tmapgen validate): not benchmarked\n");
      rc = std::max(rc, 1);
      continue;
    }
    std::fflush(stdout);
    if (multicast != 0) {
      rc = std::max(rc, gpu::RunMcastBandwidth(specs[i], multicast, opt, stdout));
      continue;
    }
    gpu::CopyBandwidthResult r;
    const int one = gpu::RunCopyBandwidth(specs[i], opt, stdout, &r);
    rc = std::max(rc, one);
    if (one <= 1) {
      char line[768];
      const double best_sm = std::max(r.linear_gbs, r.sm_copy_gbs);
      std::snprintf(line, sizeof line, "| %s | %.0f GB/s | %.0f GB/s | %.1f%% | %.0f GB/s | %.0f GB/s | %.1f%% | %s | %s |",
                    names[i].c_str(), r.tma_gbs, r.copy_gbs, r.copy_gbs > 0 ? 100.0 * r.tma_gbs / r.copy_gbs : 0.0,
                    r.linear_gbs, r.sm_copy_gbs, best_sm > 0 ? 100.0 * r.tma_gbs / best_sm : 0.0,
                    r.promotion.c_str(), r.shape.c_str());
      summary.push_back(line);
    }
  }
  if (summary.size() > 1) {
    std::printf("\n| map | TMA load + store | cuMemcpyDtoD | ratio | TMA bulk copy, no map | SM copy kernel | TMA / best SM-issued "
                "| L2 promotion | shape |\n|---|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (const std::string& l : summary) std::printf("%s\n", l.c_str());
  }
  return rc;
}

}  // namespace tmapgen::cli
