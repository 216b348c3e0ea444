// health_listener.h: tmapd's --health-listen: a second, plaintext gRPC listener that serves only the
// standard health service (grpc.health.v1.Health), for probes that cannot speak TLS: Kubernetes' native
// gRPC probes dial the pod's address in plaintext (deploy/kubernetes/tmapd.yaml), while the main listener
// on a non-loopback address must use TLS.
//
// Contract
// - It serves no tmapd method and no reflection: what it reveals is the serving status only, so it may
//   listen on any address without TLS or a token.
// - It follows the main server: SERVING (the empty service name and both tmapd services) from Start
//   until SetServing(false), which tmapd calls when SIGTERM or SIGINT starts the graceful shutdown, so
//   that readiness probes fail while calls in flight finish.
#ifndef TMAPGEN_SERVER_HEALTH_LISTENER_H_
#define TMAPGEN_SERVER_HEALTH_LISTENER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace grpc {
class Server;
}

namespace tmapgen::server {

class HealthListener {
 public:
  // `listen` as tmapd's --listen ("0.0.0.0:8081", "127.0.0.1:0", "[::]:8081"); the services reported
  // besides the empty name. kInvalidArgument for an address it refuses, kUnavailable when it cannot be bound.
  static absl::StatusOr<std::unique_ptr<HealthListener>> Start(const std::string& listen,
                                                               const std::vector<std::string>& services);
  ~HealthListener();
  std::string bound() const;
  void SetServing(bool serving);
  void Shutdown();

 private:
  HealthListener() = default;
  std::unique_ptr<grpc::Server> server_;
  std::vector<std::string> services_;
  std::string bound_;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_HEALTH_LISTENER_H_
