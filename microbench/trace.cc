// trace.cc: what `tmapgen trace` adds to each cuTensorMapEncode* call on the CPU side (docs/perf.md,
// "tmapgen trace"). The injection library's callback fills an EncodeCall from the driver's parameter block
// and hands it to the Recorder; these benchmarks time exactly that part (the CUPTI dispatch itself and the
// driver's own encode are measured on the GPU host with and without trace, side by side).
//
//   BM_KnownConfiguration      a configuration already seen: fill + key + lookup + atomic count (the common case)
//   BM_KnownMovingAddress      the same configuration at a new address each call (a framework encoding per launch)
//   BM_KnownThreads            the known case from 1..8 threads at once (the recorder's lock under contention)
//   BM_NewConfiguration        a configuration never seen: also judged by the rule table (once per configuration)
//   BM_RecordJson              one record as a JSON line (done by `tmapgen trace` after the program ends)
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "src/trace/call.h"
#include "src/trace/record_json.h"
#include "src/trace/recorder.h"

namespace tmapgen::trace {
namespace {

class NullSink : public RecordSink {
 public:
  void Record(const EncodeCall& c) override { benchmark::DoNotOptimize(c.seq); }
  void Explain(std::string_view t) override { benchmark::DoNotOptimize(t.size()); }
};

// What the driver passed to cuTensorMapEncodeTiled (the callback's functionParams, generated_cuda_meta.h).
struct Params {
  uint64_t dims[2] = {4096, 4096};
  uint64_t strides[1] = {8192};
  uint32_t box[2] = {64, 128};
  uint32_t es[2] = {1, 1};
  uint64_t map[16] = {};
};

// The callback's work for one call: EncodeCall from the parameter block (as inject.cc does).
inline void Fill(const Params& p, uint64_t address, EncodeCall* c) {
  c->kind = CallKind::kEncodeTiled;
  c->data_type = 9;
  c->rank = 2;
  c->global_address = address;
  std::memcpy(c->global_dim, p.dims, sizeof(p.dims));
  std::memcpy(c->global_strides, p.strides, sizeof(p.strides));
  std::memcpy(c->box_dim, p.box, sizeof(p.box));
  std::memcpy(c->element_strides, p.es, sizeof(p.es));
  c->swizzle = 3;
  c->l2_promotion = 2;
  c->result = 0;
  std::memcpy(c->bytes, p.map, sizeof(p.map));
  c->bytes[0] = address;
  c->flags = kHasBytes | kHasTarget;
  c->target = 1;
  c->pid = 1;
  c->tid = 1;
  c->driver_version = 13000;
}

struct Fixture {
  explicit Fixture(uint32_t capacity) : counts(capacity) {
    RecorderOptions o;
    o.max_configs = capacity;
    recorder = std::make_unique<Recorder>(o, CountStore{counts.data(), capacity}, &sink);
  }
  NullSink sink;
  std::vector<std::atomic<uint64_t>> counts;
  std::unique_ptr<Recorder> recorder;
};

void BM_KnownConfiguration(benchmark::State& state) {
  Fixture f(4096);
  Params p;
  for (auto _ : state) {
    EncodeCall c;
    Fill(p, 0x7f0000000000, &c);
    f.recorder->OnCall(&c, nullptr, nullptr);
  }
  if (f.recorder->stats().records != 1) state.SkipWithError("expected one record");
}
BENCHMARK(BM_KnownConfiguration);

void BM_KnownMovingAddress(benchmark::State& state) {
  Fixture f(4096);
  Params p;
  uint64_t i = 0;
  for (auto _ : state) {
    EncodeCall c;
    Fill(p, 0x7f0000000000 + 4096 * (++i & 4095), &c);
    f.recorder->OnCall(&c, nullptr, nullptr);
  }
  if (f.recorder->stats().records != 1) state.SkipWithError("expected one record");
}
BENCHMARK(BM_KnownMovingAddress);

Fixture* g_shared = nullptr;
void BM_KnownThreads(benchmark::State& state) {
  if (state.thread_index() == 0) g_shared = new Fixture(4096);
  Params p;
  p.dims[0] = 4096 + 64 * static_cast<uint64_t>(state.thread_index() % 4);
  for (auto _ : state) {
    EncodeCall c;
    Fill(p, 0x7f0000000000, &c);
    g_shared->recorder->OnCall(&c, nullptr, nullptr);
  }
  if (state.thread_index() == 0) {
    delete g_shared;
    g_shared = nullptr;
  }
}
BENCHMARK(BM_KnownThreads)->ThreadRange(1, 8)->UseRealTime();

void BM_NewConfiguration(benchmark::State& state) {
  Fixture f(1u << 20);
  Params p;
  uint64_t i = 0;
  for (auto _ : state) {
    EncodeCall c;
    p.dims[1] = 4096 + (++i);  // a configuration never seen
    Fill(p, 0x7f0000000000, &c);
    f.recorder->OnCall(&c, nullptr, nullptr);
    if (i >= (1u << 20) - 1) {
      state.PauseTiming();
      f.recorder->ResetAfterFork(CountStore{f.counts.data(), static_cast<uint32_t>(f.counts.size())});
      i = 0;
      state.ResumeTiming();
    }
  }
}
BENCHMARK(BM_NewConfiguration);

void BM_RecordJson(benchmark::State& state) {
  Params p;
  EncodeCall c;
  Fill(p, 0x7f0000000000, &c);
  std::string line;
  for (auto _ : state) {
    line.clear();
    AppendRecordJson(c, 1000, &line);
    benchmark::DoNotOptimize(line.data());
  }
}
BENCHMARK(BM_RecordJson);

}  // namespace
}  // namespace tmapgen::trace

BENCHMARK_MAIN();
