// service.h: the tmapd gRPC server (proto/tmapd.proto: tmapgen.v1.Tmapd; proto/tmapd_v2.proto:
// tmapgen.v2.Tmapd), startable in process (tests) or from server/main.cc. See docs/service.md for the
// contract: methods, status codes, limits, security.
//
// Contract
// - Every method runs on gRPC's callback API and takes its request as bytes: the token is checked
//   before a byte of the request is parsed; bytes that are not the method's message are
//   INVALID_ARGUMENT. No call holds a thread while it waits: GPU work runs on a fixed pool
//   (gpu_queue.h), everything else on gRPC's callback threads, so the thread count does not grow with
//   calls or streams.
// - At most limits.max_concurrent_calls calls are in progress (streams included); more are
//   RESOURCE_EXHAUSTED at once. A response over limits.max_message_bytes is refused by the service as
//   RESOURCE_EXHAUSTED (naming the size) before it is sent, and logged as such.
// - Without TLS the listen address must resolve to loopback only (net_address.h); an empty token is
//   refused (main.cc refuses empty token files).
// - Connections: descriptors are bounded (accept_guard.h), connections that never complete the HTTP/2
//   (or TLS) handshake are closed after handshake_timeout_ms, connections without calls after
//   max_connection_idle_ms, and peers that stop answering keepalive pings after keepalive_time_ms +
//   keepalive_timeout_ms.
#ifndef TMAPGEN_SERVER_SERVICE_H_
#define TMAPGEN_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

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
  Metrics* metrics = nullptr;               // the Prometheus counters (metrics.h), not owned; null: none
};

class Server {
 public:
  // Starts serving; on failure returns null and fills *error.
  static std::unique_ptr<Server> Start(const ServerConfig& config, std::string* error);
  ~Server();
  int port() const { return port_; }
  std::string address() const;        // where a client on this machine reaches it
  std::string bound() const;          // what was bound ("127.0.0.1:PORT", "[::1]:PORT", "unix:PATH")
  // Stops accepting calls and waits for those in flight, at most `grace`; then cancels the rest.
  void Shutdown(std::chrono::milliseconds grace);
  void Wait();
  // Calls in progress now (tests).
  int calls_in_progress() const;

 private:
  Server() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_SERVICE_H_
