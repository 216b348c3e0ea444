// service.h: the tmapd gRPC server (proto/tmapd.proto), startable in process (tests) or from
// server/main.cc. See docs/service.md for the contract: methods, status codes, limits, security.
#ifndef TMAPGEN_SERVER_SERVICE_H_
#define TMAPGEN_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "server/engine.h"

namespace tmapgen::server {

struct ServerConfig {
  std::string listen = "127.0.0.1:50051";  // port 0 picks a free port (see Server::port)
  std::string tls_cert_pem, tls_key_pem;    // both or neither; required unless listen is loopback
  std::string token;                        // when set: every call needs "authorization: Bearer TOKEN"
  bool use_gpu = true;
  bool log = true;                          // one line per request on standard error
  int threads = 0;                          // sync server threads (0: gRPC default)
  std::string check_worker;                 // the tmapgen binary for Check ("" = next to tmapd)
  Limits limits;
};

class Server {
 public:
  // Starts serving; on failure returns null and fills *error.
  static std::unique_ptr<Server> Start(const ServerConfig& config, std::string* error);
  ~Server();
  int port() const { return port_; }
  std::string address() const;
  // Stops accepting calls and waits for those in flight, at most `grace`; then cancels the rest.
  void Shutdown(std::chrono::milliseconds grace);
  void Wait();

 private:
  Server() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

// True for addresses that stay on this machine: 127.x, ::1, localhost, unix:.
bool IsLoopbackAddress(const std::string& listen);

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_SERVICE_H_
