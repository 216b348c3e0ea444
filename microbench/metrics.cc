// The metrics hooks' cost per call (server/metrics.h; docs/perf.md, "tmapd under load"): what the service adds to a
// unary call when --metrics-listen is on (CallStarted + CallEnded: gauge up and down, the counter of the
// method and code, the latency histogram, and for Validate the two spec counters), on one thread and on
// two threads at once (the histogram's mutex and the atomics shared).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "server/metrics.h"

namespace {

tmapgen::server::Metrics* Shared() {
  static std::unique_ptr<tmapgen::server::Metrics> m = [] {
    absl::StatusOr<std::unique_ptr<tmapgen::server::Metrics>> p = tmapgen::server::Metrics::Start("127.0.0.1:0", false);
    if (!p.ok()) {
      std::fprintf(stderr, "tmapgen_microbench_metrics: %s\n", std::string(p.status().message()).c_str());
      return std::unique_ptr<tmapgen::server::Metrics>();
    }
    return *std::move(p);
  }();
  return m.get();
}

void BM_UnaryValidateHooks(benchmark::State& state) {
  tmapgen::server::Metrics* m = Shared();
  if (m == nullptr) {
    state.SkipWithError("metrics unavailable");
    return;
  }
  int64_t us = 40;
  for (auto _ : state) {
    m->CallStarted("Validate");
    m->CallEnded("Validate", 0, us);
    us = (us * 7 + 13) % 3000;  // latencies over many buckets
  }
}
BENCHMARK(BM_UnaryValidateHooks)->Threads(1)->Threads(2);

void BM_DescribeHooks(benchmark::State& state) {
  tmapgen::server::Metrics* m = Shared();
  if (m == nullptr) {
    state.SkipWithError("metrics unavailable");
    return;
  }
  for (auto _ : state) {
    m->CallStarted("Describe");
    m->CallEnded("Describe", 0, 20);
  }
}
BENCHMARK(BM_DescribeHooks);

}  // namespace

BENCHMARK_MAIN();
