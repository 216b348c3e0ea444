// service.h: the tmapd gRPC server (proto/tmapd.proto: tmapgen.v1.Tmapd; proto/tmapd_v2.proto:
// tmapgen.v2.Tmapd), startable in process (tests) or from server/main.cc. See docs/service.md for the
// contract: methods, status codes, limits, security.
//
// Contract
// - Every method takes its request as bytes: the token is checked before a byte of the request is
//   parsed, and for every method but the asynchronous Validate (no token set) on the call's headers,
//   before its message is accepted. Bytes that are not the method's message are INVALID_ARGUMENT.
// - No call holds a thread while it waits, and work runs by cost class on fixed pools: cheap unary
//   methods on gRPC's callback threads, Codegen, Decode and the plans on the heavy pool, the steps of batch
//   streams on the batch pool (both at a lower priority), GPU work on the GPU pool (gpu_queue.h). The
//   thread count does not grow with calls or streams.
// - At most limits.max_concurrent_calls unary calls are in progress; more are RESOURCE_EXHAUSTED at
//   once. Batch streams are bounded apart (max_streams): a stream waiting on its client holds no slot,
//   the one that waited longest makes room for a new one, and one whose client neither sends nor reads
//   for stream_idle_timeout_ms is closed. A stream holds at most two responses un-sent.
// - A response over limits.max_message_bytes is refused by the service as RESOURCE_EXHAUSTED (naming
//   the size) before it is sent, and logged as such.
// - Without TLS the listen address must resolve to loopback only (net_address.h); a listener that is
//   not loopback only needs a token unless allow_unauthenticated; an empty token is refused (main.cc
//   refuses empty token files).
// - Connections: descriptors are bounded (accept_guard.h), connections that never complete the HTTP/2
//   (or TLS) handshake are closed after handshake_timeout_ms, connections without calls after
//   max_connection_idle_ms, and peers that stop answering keepalive pings after keepalive_time_ms +
//   keepalive_timeout_ms. gRPC's memory for them is bounded by memory_quota_bytes (ResourceQuota).
#ifndef TMAPGEN_SERVER_SERVICE_H_
#define TMAPGEN_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "server/engine.h"

namespace tmapgen::server {

class Metrics;

struct ServerConfig {
  std::string listen = "127.0.0.1:50051";  // port 0 picks a free port (see Server::port)
  std::string tls_cert_pem, tls_key_pem;    // both or neither; required unless listen is loopback
  std::string token;                        // when set: every call needs "authorization: Bearer TOKEN"
  bool use_gpu = true;
  bool log = true;                          // one line per request on standard error
  std::string check_worker;                 // the check worker binary ("" = next to tmapd)
  Limits limits;
  int handshake_timeout_ms = 10000;
  int max_connection_idle_ms = 300000;
  int max_connection_age_ms = 0;            // 0: no limit
  int max_connection_age_grace_ms = 60000;
  int keepalive_time_ms = 60000;
  int keepalive_timeout_ms = 20000;
  int max_streams_per_connection = 100;
  int fd_reserve = 64;                      // descriptors kept free (accept_guard.h)
  int max_connections = 0;                  // 0: bounded by descriptors only
  int validate_threads = 1;                 // > 0: Validate on the asynchronous API, on this many threads; 0: callback API
                                            // (ignored with a token: Validate is then checked on its headers)
  Metrics* metrics = nullptr;               // the Prometheus counters (metrics.h), not owned; null: none
  bool allow_unauthenticated = false;       // a listener that is not loopback only may run without a token
  int max_streams = 1000;                   // ValidateBatch streams open at once (Waiters in service.cc)
  int max_pending_messages = 1000;          // unary calls whose message has not fully arrived (Waiters)
  int stream_idle_timeout_ms = 30000;       // a stream whose client neither sends nor reads this long is closed; 0: never
  int heavy_threads = 1;                    // Codegen, Decode, PlanGemm, PlanConv run on these (below the callback threads' priority)
  int heavy_queue = 16;                     // heavy calls waiting; more are RESOURCE_EXHAUSTED
  int batch_threads = 2;                    // the steps of batch streams run on these
  uint64_t memory_quota_bytes = uint64_t{1} << 30;  // gRPC's ResourceQuota for the server; 0: none
};

class Server {
 public:
  // Starts serving. kInvalidArgument for a configuration it refuses (the message names the flag or
  // limit); kUnavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<Server>> Start(const ServerConfig& config);
  ~Server();
  int port() const { return port_; }
  std::string address() const;        // where a client on this machine reaches it
  std::string bound() const;          // what was bound ("127.0.0.1:PORT", "[::1]:PORT", "unix:PATH")
  // Stops accepting calls and waits for those in flight, at most `grace`; then cancels the rest.
  void Shutdown(std::chrono::milliseconds grace);
  void Wait();
  // Calls in progress now (tests).
  int calls_in_progress() const;
  // Batch streams open now (tests).
  int streams_open() const;
  // Whether every bound address is loopback (or a unix socket).
  bool loopback() const { return loopback_; }

 private:
  Server() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  bool loopback_ = true;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_SERVICE_H_
