// metrics.cc: tmapd's Prometheus metrics (metrics.h). The series are created on first use (a method and
// status code that never occurred has no series), except the refusal reasons, which start at 0 so that a
// rate() over them is defined from the first scrape.
#include "server/metrics.h"

#include <array>
#include <atomic>
#include <mutex>

#include "src/net/net_address.h"
#include "src/util/status.h"
#include "src/util/strings.h"

#if TMAPGEN_HAVE_PROMETHEUS
#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#endif

namespace tmapgen::server {

const char* RefusalName(Refusal r) {
  switch (r) {
    case Refusal::kConcurrentCalls: return "concurrent_calls";
    case Refusal::kUnauthenticated: return "unauthenticated";
    case Refusal::kDeadline: return "deadline";
    case Refusal::kResponseTooLarge: return "response_too_large";
    case Refusal::kGpuQueueFull: return "gpu_queue_full";
    case Refusal::kRequestLimit: return "request_limit";
    case Refusal::kStreams: return "streams";
    case Refusal::kPendingMessages: return "pending_messages";
    case Refusal::kIdle: return "idle";
    case Refusal::kHeavyQueueFull: return "heavy_queue_full";
    case Refusal::kCount: break;
  }
  return "other";
}

bool Metrics::Available() { return TMAPGEN_HAVE_PROMETHEUS != 0; }

#if TMAPGEN_HAVE_PROMETHEUS

namespace {

// The methods of tmapgen.v1.Tmapd and tmapgen.v2.Tmapd that tmapd answers (the `method` label); any
// other name counts as "other".
constexpr std::array<const char*, 11> kMethods = {"Validate", "Build", "ValidateBatch", "Describe", "MatrixDescriptor",
                                                  "InstructionDescriptor", "Codegen", "Check", "Decode", "PlanGemm",
                                                  "PlanConv"};
constexpr size_t kOther = kMethods.size();
constexpr size_t kNumMethods = kMethods.size() + 1;
constexpr int kNumCodes = 17;  // gRPC's canonical codes 0..16

size_t MethodIndex(std::string_view m) {
  for (size_t i = 0; i < kMethods.size(); ++i)
    if (m == kMethods[i]) return i;
  return kOther;
}
const char* MethodName(size_t i) { return i < kMethods.size() ? kMethods[i] : "other"; }

// gRPC's names of its status codes (grpc/status.h, the canonical codes).
const char* CodeLabel(int c) {
  static const char* const kNames[kNumCodes] = {
      "OK",        "CANCELLED",         "UNKNOWN",        "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",    "UNAVAILABLE",    "DATA_LOSS",        "UNAUTHENTICATED"};
  return c >= 0 && c < kNumCodes ? kNames[c] : "UNKNOWN";
}

// Latency buckets, in seconds: a Validate answers in tens of microseconds, a Decode or Codegen of
// thousands of specs in seconds, a Check in up to minutes (the last buckets).
const prometheus::Histogram::BucketBoundaries& Buckets() {
  static const prometheus::Histogram::BucketBoundaries b = {
      0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
      0.25,     0.5,     1,      2.5,     5,      10,    30,     60};
  return b;
}

}  // namespace

struct Metrics::Impl {
  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  std::string bound;

  prometheus::Family<prometheus::Counter>& calls = prometheus::BuildCounter()
      .Name("tmapd_calls_total").Help("Calls answered, by method and gRPC status code").Register(*registry);
  prometheus::Family<prometheus::Histogram>& latency = prometheus::BuildHistogram()
      .Name("tmapd_call_duration_seconds").Help("From a call's start to its answer (the request log's duration_us), by method")
      .Register(*registry);
  prometheus::Family<prometheus::Gauge>& in_flight = prometheus::BuildGauge()
      .Name("tmapd_calls_in_flight").Help("Calls in progress, by method (ValidateBatch: open streams)").Register(*registry);
  prometheus::Family<prometheus::Counter>& refusals = prometheus::BuildCounter()
      .Name("tmapd_refusals_total").Help("Calls refused instead of answered, by reason").Register(*registry);
  prometheus::Family<prometheus::Counter>& specs = prometheus::BuildCounter()
      .Name("tmapd_specs_validated_total")
      .Help("Specs validated, by method; stage=computed: results computed, stage=delivered: results written to the client")
      .Register(*registry);

  // Series by index, created on first use under mu (Family::Add is idempotent; the pointers stay valid
  // while the registry lives).
  std::mutex mu;
  std::array<std::array<std::atomic<prometheus::Counter*>, kNumCodes>, kNumMethods> call_counters{};
  std::array<std::atomic<prometheus::Histogram*>, kNumMethods> histograms{};
  std::array<std::atomic<prometheus::Gauge*>, kNumMethods> gauges{};
  std::array<std::array<std::atomic<prometheus::Counter*>, 2>, kNumMethods> spec_counters{};
  std::array<prometheus::Counter*, static_cast<size_t>(Refusal::kCount)> refusal_counters{};

  template <typename T, typename Make>
  T* Get(std::atomic<T*>& slot, Make make) {
    T* p = slot.load(std::memory_order_acquire);
    if (p != nullptr) return p;
    std::lock_guard<std::mutex> lock(mu);
    p = slot.load(std::memory_order_relaxed);
    if (p == nullptr) {
      p = make();
      slot.store(p, std::memory_order_release);
    }
    return p;
  }
  prometheus::Gauge* Gauge(size_t m) {
    return Get(gauges[m], [&] { return &in_flight.Add({{"method", MethodName(m)}}); });
  }
  prometheus::Counter* Specs(size_t m, int stage) {
    return Get(spec_counters[m][stage], [&] {
      return &specs.Add({{"method", MethodName(m)}, {"stage", stage == 0 ? "computed" : "delivered"}});
    });
  }
};

Metrics::Metrics() : impl_(std::make_unique<Impl>()) {
  for (int r = 0; r < static_cast<int>(Refusal::kCount); ++r)
    impl_->refusal_counters[r] = &impl_->refusals.Add({{"reason", RefusalName(static_cast<Refusal>(r))}});
}

Metrics::~Metrics() = default;

absl::StatusOr<std::unique_ptr<Metrics>> Metrics::Start(const std::string& listen, bool allow_remote) {
  net::ListenPlan plan;
  if (absl::Status s = net::ResolveListen(listen, &plan); !s.ok()) return Annotate(s, "--metrics-listen");
  if (plan.bind.empty() || plan.bind[0].rfind("unix:", 0) == 0)
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("--metrics-listen ", listen, ": needs HOST:PORT (the endpoint is HTTP over TCP)")));
  if (!plan.loopback && !allow_remote) {
    std::string where;
    for (const std::string& b : plan.bind) where += (where.empty() ? "" : ", ") + b;
    return absl::InvalidArgumentError(ToAbsl(StrCat("--metrics-listen ", listen, " (", where,
                                                    ": not loopback only): the metrics endpoint is plain HTTP without "
                                                    "authentication; give --metrics-allow-remote to serve it there")));
  }
  std::string ports;  // civetweb's listening_ports: "127.0.0.1:9464,[::1]:9464"
  for (const std::string& b : plan.bind) ports += (ports.empty() ? "" : ",") + b;
  std::unique_ptr<Metrics> m(new Metrics());
  try {
    // One HTTP thread: a scrape renders every series in well under a millisecond.
    m->impl_->exposer = std::make_unique<prometheus::Exposer>(ports, /*num_threads=*/1);
  } catch (const std::exception& e) {
    return absl::UnavailableError(ToAbsl(StrCat("--metrics-listen ", listen, ": cannot listen on ", ports, ": ", e.what())));
  }
  m->impl_->exposer->RegisterCollectable(m->impl_->registry);
  const std::vector<int> bound_ports = m->impl_->exposer->GetListeningPorts();
  const std::string& first = plan.bind[0];
  m->impl_->bound = bound_ports.empty() ? first : StrCat(first.substr(0, first.rfind(':') + 1), bound_ports[0]);
  return m;
}

std::string Metrics::bound() const { return impl_->bound; }

void Metrics::CallStarted(std::string_view method) { impl_->Gauge(MethodIndex(method))->Increment(); }

void Metrics::CallEnded(std::string_view method, int code, int64_t us) {
  const size_t m = MethodIndex(method);
  const int c = code >= 0 && code < kNumCodes ? code : 2;  // UNKNOWN
  Impl& i = *impl_;
  i.Gauge(m)->Decrement();
  i.Get(i.call_counters[m][c], [&] { return &i.calls.Add({{"method", MethodName(m)}, {"code", CodeLabel(c)}}); })
      ->Increment();
  i.Get(i.histograms[m], [&] { return &i.latency.Add({{"method", MethodName(m)}}, Buckets()); })
      ->Observe(static_cast<double>(us) * 1e-6);
  // A unary Validate or Build answered OK validated one spec and handed its result to gRPC.
  if (code == 0 && (m == 0 || m == 1)) {
    i.Specs(m, 0)->Increment();
    i.Specs(m, 1)->Increment();
  }
}

void Metrics::Refused(Refusal r) {
  if (r != Refusal::kCount) impl_->refusal_counters[static_cast<size_t>(r)]->Increment();
}

void Metrics::BatchSpecs(uint64_t computed, uint64_t delivered) {
  const size_t m = MethodIndex("ValidateBatch");
  impl_->Specs(m, 0)->Increment(static_cast<double>(computed));
  impl_->Specs(m, 1)->Increment(static_cast<double>(delivered));
}

#else  // !TMAPGEN_HAVE_PROMETHEUS

struct Metrics::Impl {};
Metrics::Metrics() = default;
Metrics::~Metrics() = default;

absl::StatusOr<std::unique_ptr<Metrics>> Metrics::Start(const std::string&, bool) {
  return absl::UnimplementedError(
      "--metrics-listen: metrics are unavailable: this tmapd was built without prometheus-cpp "
      "(Debian: prometheus-cpp-dev; scripts/install-deps.sh installs it, then rebuild)");
}
std::string Metrics::bound() const { return ""; }
void Metrics::CallStarted(std::string_view) {}
void Metrics::CallEnded(std::string_view, int, int64_t) {}
void Metrics::Refused(Refusal) {}
void Metrics::BatchSpecs(uint64_t, uint64_t) {}

#endif

}  // namespace tmapgen::server
