// metrics.h: tmapd's Prometheus endpoint (--metrics-listen, docs/service.md "Metrics"): what a farm
// watches, served over HTTP by prometheus-cpp's pull exposer (Debian prometheus-cpp-dev).
//
// Contract
// - Metrics::Start binds the endpoint (GET /metrics, the text exposition format). The address is
//   resolved like --listen (net_address.h); unless every address is loopback it is refused, with a
//   message naming the flag, unless allow_remote is set. Port 0 picks a free port (bound() says which).
//   Without prometheus-cpp at build time Start fails, saying that metrics are unavailable.
// - The hooks (CallStarted, CallEnded, Refused, BatchSpecs) are called by the service (service.cc) on
//   the calls' own threads; each costs a few atomic operations and one uncontended mutex (the latency
//   histogram), no allocation after the first call of a method and status code, and nothing when
//   metrics are off (the service holds a null pointer).
// - Every CallStarted is followed by exactly one CallEnded for the same method: the in-flight gauge
//   returns to 0 when the server is idle.
#ifndef TMAPGEN_SERVER_METRICS_H_
#define TMAPGEN_SERVER_METRICS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tmapgen::server {

// Why a call was refused before (or instead of) doing its work: the `reason` label of
// tmapd_refusals_total.
enum class Refusal {
  kConcurrentCalls,   // --max-concurrent-calls reached (RESOURCE_EXHAUSTED)
  kUnauthenticated,   // missing or wrong bearer token (UNAUTHENTICATED)
  kDeadline,          // the deadline had passed before the call started, or while it waited for the GPU
  kResponseTooLarge,  // the answer was over --max-message-bytes (RESOURCE_EXHAUSTED)
  kGpuQueueFull,      // --gpu-queue full (RESOURCE_EXHAUSTED)
  kRequestLimit,      // a request over a count or size limit (--max-specs-per-message, --max-specs-per-call, the
                      // specs, maps or tensor bytes of one Codegen, Decode or Check; RESOURCE_EXHAUSTED)
  kStreams,           // --max-streams: a waiting batch stream closed to make room for a new one (RESOURCE_EXHAUSTED)
  kPendingMessages,   // --max-pending-messages: a call waiting for its message closed to make room (RESOURCE_EXHAUSTED)
  kIdle,              // --stream-idle-timeout-ms: a stream or call whose client did nothing that long (UNAVAILABLE)
  kHeavyQueueFull,    // --heavy-queue full: Codegen, Decode (RESOURCE_EXHAUSTED)
  kCount
};
const char* RefusalName(Refusal r);

class Metrics {
 public:
  // True when tmapd was built with prometheus-cpp.
  static bool Available();
  // The endpoint on `listen` ("127.0.0.1:9464", "[::1]:0", "localhost:0"). kInvalidArgument for an address it
  // refuses, kUnavailable when it cannot be bound, kUnimplemented without prometheus-cpp.
  static absl::StatusOr<std::unique_ptr<Metrics>> Start(const std::string& listen, bool allow_remote);
  ~Metrics();

  // "HOST:PORT" as bound (the port filled in when 0 was asked for).
  std::string bound() const;

  // A call of `method` ("Validate", "ValidateBatch", ...) has started / ended with gRPC status `code`
  // (0..16) after `us` microseconds (the request log's duration_us).
  void CallStarted(std::string_view method);
  void CallEnded(std::string_view method, int code, int64_t us);
  void Refused(Refusal r);
  // A ValidateBatch stream ended: specs whose results were computed, and those whose results were
  // written to the client (fewer when the stream broke or was refused mid-way).
  void BatchSpecs(uint64_t computed, uint64_t delivered);

 private:
  Metrics();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_METRICS_H_
