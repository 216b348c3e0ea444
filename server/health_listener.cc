// health_listener.cc: the plaintext health-only listener (health_listener.h).
#include "server/health_listener.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <chrono>

#include "src/net/net_address.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::server {

absl::StatusOr<std::unique_ptr<HealthListener>> HealthListener::Start(const std::string& listen,
                                                                      const std::vector<std::string>& services) {
  net::ListenPlan plan;
  if (absl::Status s = net::ResolveListen(listen, &plan); !s.ok()) return Annotate(s, "--health-listen");
  // gRPC adds its default health service to every server built after this (tmapd's main server too).
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder b;
  std::vector<int> ports(plan.bind.size(), 0);
  for (size_t i = 0; i < plan.bind.size(); ++i) b.AddListeningPort(plan.bind[i], grpc::InsecureServerCredentials(), &ports[i]);
  // Probes send one small message; nothing else is served here.
  b.SetMaxReceiveMessageSize(4096);
  b.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, 4);
  b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, 60000);
  b.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, 5000);
  std::unique_ptr<HealthListener> h(new HealthListener());
  h->server_ = b.BuildAndStart();
  if (h->server_ == nullptr || h->server_->GetHealthCheckService() == nullptr ||
      (plan.bind[0].rfind("unix:", 0) != 0 && ports[0] == 0)) {
    return absl::UnavailableError(ToAbsl(StrCat("--health-listen: cannot listen on ", listen)));
  }
  h->bound_ = plan.port_zero ? StrCat(plan.bind[0].substr(0, plan.bind[0].rfind(':') + 1), ports[0]) : plan.bind[0];
  h->services_ = services;
  h->SetServing(true);
  return h;
}

HealthListener::~HealthListener() { Shutdown(); }

std::string HealthListener::bound() const { return bound_; }

void HealthListener::SetServing(bool serving) {
  if (!server_) return;
  grpc::HealthCheckServiceInterface* hc = server_->GetHealthCheckService();
  hc->SetServingStatus(serving);
  for (const std::string& s : services_) hc->SetServingStatus(s, serving);
}

void HealthListener::Shutdown() {
  if (!server_) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server_->Wait();
  server_.reset();
}

}  // namespace tmapgen::server
