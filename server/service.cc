// service.cc: the gRPC layer of tmapd: authorization, deadlines, limits, status codes, the request log.
// The work itself is server/engine.cc.
#include "server/service.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <chrono>
#include <cstdio>
#include <thread>

#include "proto/tmapd.grpc.pb.h"
#include "server/check_worker.h"
#include "src/util/strings.h"

namespace tmapgen::server {
namespace {

using Clock = std::chrono::steady_clock;

const char* CodeName(grpc::StatusCode c) {
  switch (c) {
    case grpc::OK: return "OK";
    case grpc::CANCELLED: return "CANCELLED";
    case grpc::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::UNAUTHENTICATED: return "UNAUTHENTICATED";
    case grpc::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::INTERNAL: return "INTERNAL";
    default: return "OTHER";
  }
}

// One line per request: method, status, duration (and specs for batches). Never the metadata.
class CallLog {
 public:
  CallLog(bool on, const char* method) : on_(on), method_(method), start_(Clock::now()) {}
  grpc::Status Done(grpc::Status s) {
    if (on_) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_).count();
      char line[256];
      const int n = std::snprintf(line, sizeof line, "tmapd: method=%s status=%s duration_us=%lld%s\n", method_,
                                  CodeName(s.error_code()), static_cast<long long>(us), extra_.c_str());
      if (n > 0) std::fwrite(line, 1, static_cast<size_t>(n) < sizeof line ? n : sizeof line - 1, stderr);
    }
    return s;
  }
  void Extra(std::string e) { extra_ = std::move(e); }

 private:
  bool on_;
  const char* method_;
  Clock::time_point start_;
  std::string extra_;
};

// INVALID_ARGUMENT for a malformed spec: the message names the field, and so does the trailing
// metadata entry "tmapgen-field" (for programs).
grpc::Status BadSpec(grpc::ServerContextBase* ctx, const InputError& e, const std::string& prefix) {
  const std::string field = prefix + e.field;
  ctx->AddTrailingMetadata("tmapgen-field", field);
  return grpc::Status(grpc::INVALID_ARGUMENT, StrCat(prefix, e.message));
}

bool Expired(grpc::ServerContextBase* ctx) {
  return ctx->IsCancelled() || ctx->deadline() <= std::chrono::system_clock::now();
}

// Validate runs on gRPC's callback API (no hand-off to a sync worker thread: the hot path) as a raw
// method, so that bytes that are not a ValidateRequest get INVALID_ARGUMENT (gRPC's own answer to an
// unparseable request is INTERNAL or UNIMPLEMENTED); the other methods are synchronous.
class Service final : public v1::Tmapd::WithRawCallbackMethod_Validate<v1::Tmapd::Service> {
 public:
  Service(const ServerConfig& c, std::string instance)
      : engine_(c.limits, c.use_gpu, std::move(instance)), token_(c.token), log_(c.log) {
    engine_.set_check_worker(c.check_worker.empty() ? DefaultCheckWorker() : c.check_worker);
  }

  Engine& engine() { return engine_; }

  grpc::ServerUnaryReactor* Validate(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* in,
                                     grpc::ByteBuffer* out) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    v1::ValidateRequest req;
    v1::Result res;
    grpc::ByteBuffer copy(*in);
    grpc::Status s;
    if (!grpc::SerializationTraits<v1::ValidateRequest>::Deserialize(&copy, &req).ok()) {
      CallLog log(log_, "Validate");
      s = log.Done(grpc::Status(grpc::INVALID_ARGUMENT, "request: not a tmapgen.v1.ValidateRequest (unparseable bytes)"));
    } else {
      s = DoValidate(ctx, &req, &res);
      bool own = false;
      if (s.ok()) s = grpc::SerializationTraits<v1::Result>::Serialize(res, out, &own);
    }
    reactor->Finish(s);
    return reactor;
  }

  grpc::Status DoValidate(grpc::ServerContextBase* ctx, const v1::ValidateRequest* req, v1::Result* res) {
    CallLog log(log_, "Validate");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    InputError e;
    if (!engine_.Run(req->spec(), req->options(), req->index(), false, res, &e))
      return log.Done(BadSpec(ctx, e, e.field.rfind("options.", 0) == 0 ? "" : "spec."));
    return log.Done(grpc::Status::OK);
  }

  grpc::Status Build(grpc::ServerContext* ctx, const v1::BuildRequest* req, v1::Result* res) override {
    CallLog log(log_, "Build");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    const bool encode = !req->no_encode() && !req->options().no_gpu() && engine_.gpu_present();
    if (encode) {
      switch (engine_.gpu_gate().Acquire(ctx->deadline())) {
        case GpuGate::Admit::kOk: break;
        case GpuGate::Admit::kQueueFull:
          return log.Done(grpc::Status(grpc::RESOURCE_EXHAUSTED, "GPU queue full: retry later (--gpu-queue)"));
        case GpuGate::Admit::kDeadline:
          return log.Done(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline passed while waiting for the GPU"));
      }
    }
    InputError e;
    const bool ok = engine_.Run(req->spec(), req->options(), 0, encode, res, &e);
    if (encode) engine_.gpu_gate().Release();
    if (!ok) return log.Done(BadSpec(ctx, e, e.field.rfind("options.", 0) == 0 ? "" : "spec."));
    return log.Done(grpc::Status::OK);
  }

  grpc::Status ValidateBatch(grpc::ServerContext* ctx,
                             grpc::ServerReaderWriter<v1::BatchResponse, v1::BatchRequest>* stream) override {
    CallLog log(log_, "ValidateBatch");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    const Limits& lim = engine_.limits();
    v1::BatchRequest req;
    v1::BatchResponse res;
    v1::RenderOptions options;
    bool first = true;
    uint64_t total = 0, valid = 0;
    int next_index = 0;
    auto done = [&](grpc::Status s) {
      log.Extra(StrCat(" specs=", total, " valid=", valid));
      return log.Done(s);
    };
    while (stream->Read(&req)) {
      if (Expired(ctx)) return done(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled"));
      if (first) {
        options = req.options();
        first = false;
      }
      const uint32_t n = static_cast<uint32_t>(req.specs_size());
      if (n > lim.max_specs_per_message)
        return done(grpc::Status(grpc::RESOURCE_EXHAUSTED, StrCat("specs: ", n, " specs in one message; at most ",
                                                                lim.max_specs_per_message, " (max_specs_per_message)")));
      if (total + n > lim.max_specs_per_call)
        return done(grpc::Status(grpc::RESOURCE_EXHAUSTED,
                                 StrCat("specs: more than ", lim.max_specs_per_call, " specs in one call (max_specs_per_call)")));
      if (req.has_first_index()) next_index = req.first_index();
      res.Clear();
      int v = 0, in_res = 0;
      size_t bytes = 0;
      InputError e;
      // Responses stay under half the message limit: one request may be answered in several messages.
      auto send = [&]() {
        res.set_valid(v);
        res.set_invalid(in_res - v);
        const bool ok = stream->Write(res);
        res.Clear();
        valid += static_cast<uint64_t>(v);
        v = in_res = 0;
        bytes = 0;
        return ok;
      };
      for (uint32_t i = 0; i < n; ++i) {
        v1::Result* r = res.add_results();
        const int index = next_index++;
        if (!engine_.Run(req.specs(static_cast<int>(i)), options, index, false, r, &e)) {
          if (e.field.rfind("options.", 0) == 0) return done(BadSpec(ctx, e, ""));
          r->Clear();
          engine_.InputErrorResult(index, e, options, r);
          e = InputError();
        }
        v += r->valid() ? 1 : 0;
        ++in_res;
        bytes += r->ByteSizeLong() + 8;
        if (bytes > lim.max_message_bytes / 2 && !send()) return done(grpc::Status(grpc::CANCELLED, "client went away"));
      }
      total += n;
      if (in_res > 0 && !send()) return done(grpc::Status(grpc::CANCELLED, "client went away"));
    }
    if (Expired(ctx)) return done(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled"));
    return done(grpc::Status::OK);
  }

  grpc::Status Descriptor(grpc::ServerContext* ctx, const v1::DescriptorRequest* req,
                          v1::DescriptorResponse* res) override {
    CallLog log(log_, "Descriptor");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    std::string why;
    if (!engine_.Descriptor(*req, res, &why)) {
      ctx->AddTrailingMetadata("tmapgen-field", why.substr(0, why.find(':')));
      const bool limit = why.find("at most") != std::string::npos;
      return log.Done(grpc::Status(limit ? grpc::RESOURCE_EXHAUSTED : grpc::INVALID_ARGUMENT, why));
    }
    return log.Done(grpc::Status::OK);
  }

  grpc::Status Codegen(grpc::ServerContext* ctx, const v1::CodegenRequest* req, v1::CodegenResponse* res) override {
    CallLog log(log_, "Codegen");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    std::string why;
    if (!engine_.Codegen(*req, res, &why)) {
      ctx->AddTrailingMetadata("tmapgen-field", why.substr(0, why.find(':')));
      const bool limit = why.find("at most") != std::string::npos;
      return log.Done(grpc::Status(limit ? grpc::RESOURCE_EXHAUSTED : grpc::INVALID_ARGUMENT, why));
    }
    return log.Done(grpc::Status::OK);
  }

  grpc::Status Check(grpc::ServerContext* ctx, const v1::CheckRequest* req, v1::CheckResponse* res) override {
    CallLog log(log_, "Check");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    if (!engine_.gpu_present())
      return log.Done(grpc::Status(grpc::FAILED_PRECONDITION, "this server has no usable GPU (Describe says which servers do)"));
    if (engine_.check_worker().empty())
      return log.Done(grpc::Status(grpc::FAILED_PRECONDITION, "this server has no check worker (tmapgen binary)"));
    bool resource = false;
    const std::string problem = engine_.CheckProblem(*req, &resource);
    if (!problem.empty()) {
      ctx->AddTrailingMetadata("tmapgen-field", problem.substr(0, problem.find_first_of(" :")));
      return log.Done(grpc::Status(resource ? grpc::RESOURCE_EXHAUSTED : grpc::INVALID_ARGUMENT, problem));
    }
    switch (engine_.gpu_gate().Acquire(ctx->deadline())) {
      case GpuGate::Admit::kOk: break;
      case GpuGate::Admit::kQueueFull:
        return log.Done(grpc::Status(grpc::RESOURCE_EXHAUSTED, "GPU queue full: retry later (--gpu-queue)"));
      case GpuGate::Admit::kDeadline:
        return log.Done(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline passed while waiting for the GPU"));
    }
    CheckJob job;
    for (const v1::SpecFile& f : req->files()) job.files.emplace_back(f.name(), f.content());
    job.flags.assign(req->args().begin(), req->args().end());
    const auto cap = std::chrono::system_clock::now() + std::chrono::milliseconds(engine_.limits().check_timeout_ms);
    job.deadline = std::min(ctx->deadline(), cap);
    CheckOutcome out;
    std::string why;
    const bool started = RunCheckWorker(
        engine_.check_worker(), job, [](void* c) { return static_cast<grpc::ServerContext*>(c)->IsCancelled(); }, ctx,
        &out, &why);
    engine_.gpu_gate().Release();
    if (!started) return log.Done(grpc::Status(grpc::UNAVAILABLE, "GPU worker could not start: " + why));
    switch (out.end) {
      case CheckOutcome::End::kExited: break;
      case CheckOutcome::End::kKilledBySignal:
        return log.Done(grpc::Status(grpc::UNAVAILABLE, StrCat("GPU worker died (signal ", out.signal, ": ",
                                                            strsignal(out.signal), "); the next call gets a new worker; ",
                                                            "last output: ", out.err.substr(out.err.size() > 300 ? out.err.size() - 300 : 0))));
      case CheckOutcome::End::kTimedOut:
        return log.Done(grpc::Status(grpc::DEADLINE_EXCEEDED, "the check ran past its deadline; the worker was stopped"));
      case CheckOutcome::End::kCancelled:
        return log.Done(grpc::Status(grpc::CANCELLED, "client went away; the worker was stopped"));
    }
    if (out.exit_code == 127 && out.out.empty())
      return log.Done(grpc::Status(grpc::UNAVAILABLE, "GPU worker could not run " + engine_.check_worker()));
    res->set_exit_code(out.exit_code);
    res->set_out(std::move(out.out));
    res->set_err(std::move(out.err));
    return log.Done(grpc::Status::OK);
  }

  grpc::Status Describe(grpc::ServerContext* ctx, const v1::DescribeRequest*, v1::DescribeResponse* res) override {
    CallLog log(log_, "Describe");
    if (grpc::Status s = Admit(ctx); !s.ok()) return log.Done(s);
    engine_.Describe(res);
    return log.Done(grpc::Status::OK);
  }

 private:
  grpc::Status Admit(grpc::ServerContextBase* ctx) const {
    if (!token_.empty()) {
      const auto& md = ctx->client_metadata();
      const auto it = md.find("authorization");
      const std::string want = "Bearer " + token_;
      bool ok = it != md.end() && it->second.size() == want.size();
      if (ok) {
        unsigned char diff = 0;  // constant time in the token's length
        for (size_t i = 0; i < want.size(); ++i) diff |= static_cast<unsigned char>(it->second.data()[i] ^ want[i]);
        ok = diff == 0;
      }
      if (!ok) return grpc::Status(grpc::UNAUTHENTICATED, "missing or wrong bearer token (authorization metadata)");
    }
    if (Expired(ctx)) return grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded before the call started");
    return grpc::Status::OK;
  }

  Engine engine_;
  std::string token_;
  bool log_;
};

}  // namespace

bool IsLoopbackAddress(const std::string& listen) {
  if (listen.rfind("unix:", 0) == 0) return true;
  std::string host = listen;
  if (host.rfind("ipv4:", 0) == 0) host = host.substr(5);
  else if (host.rfind("ipv6:", 0) == 0) host = host.substr(5);
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    host = close == std::string::npos ? host : host.substr(1, close - 1);
  } else {
    const size_t colon = host.rfind(':');
    if (colon != std::string::npos) host = host.substr(0, colon);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

struct Server::Impl {
  std::unique_ptr<Service> service;
  std::unique_ptr<grpc::Server> server;
  std::atomic<bool> shut{false};
};

std::unique_ptr<Server> Server::Start(const ServerConfig& c, std::string* error) {
  const bool tls = !c.tls_cert_pem.empty() || !c.tls_key_pem.empty();
  if (tls && (c.tls_cert_pem.empty() || c.tls_key_pem.empty())) {
    *error = "TLS needs both a certificate and a key";
    return nullptr;
  }
  if (!tls && !IsLoopbackAddress(c.listen)) {
    *error = StrCat("listening on ", c.listen, " (not loopback) requires TLS: give --tls-cert and --tls-key");
    return nullptr;
  }
  std::shared_ptr<grpc::ServerCredentials> creds;
  if (tls) {
    grpc::SslServerCredentialsOptions o;
    o.pem_key_cert_pairs.push_back({c.tls_key_pem, c.tls_cert_pem});
    creds = grpc::SslServerCredentials(o);
  } else {
    creds = grpc::InsecureServerCredentials();
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  std::unique_ptr<Server> s(new Server());
  s->impl_ = std::make_unique<Impl>();
  grpc::ServerBuilder b;
  int port = 0;
  b.AddListeningPort(c.listen, creds, &port);
  b.SetMaxReceiveMessageSize(static_cast<int>(c.limits.max_message_bytes));
  b.SetMaxSendMessageSize(static_cast<int>(c.limits.max_message_bytes));
  if (c.threads > 0) {
    b.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
    b.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
    b.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, c.threads);
  }
  // The instance name is the listening address; with port 0 it is fixed up after the start.
  s->impl_->service = std::make_unique<Service>(c, c.listen);
  b.RegisterService(s->impl_->service.get());
  s->impl_->server = b.BuildAndStart();
  if (s->impl_->server == nullptr || port == 0) {
    *error = StrCat("cannot listen on ", c.listen);
    return nullptr;
  }
  s->port_ = port;
  if (c.listen.size() > 2 && c.listen.substr(c.listen.size() - 2) == ":0")
    s->impl_->service->engine().set_instance(StrCat(c.listen.substr(0, c.listen.size() - 1), port));
  s->impl_->server->GetHealthCheckService()->SetServingStatus(true);
  s->impl_->server->GetHealthCheckService()->SetServingStatus(v1::Tmapd::service_full_name(), true);
  return s;
}

Server::~Server() {
  if (impl_ && impl_->server) Shutdown(std::chrono::milliseconds(0));
}

std::string Server::address() const { return StrCat("127.0.0.1:", port_); }

void Server::Shutdown(std::chrono::milliseconds grace) {
  if (impl_->shut.exchange(true)) return;
  impl_->server->GetHealthCheckService()->SetServingStatus(false);
  impl_->server->Shutdown(std::chrono::system_clock::now() + grace);
}

void Server::Wait() { impl_->server->Wait(); }

}  // namespace tmapgen::server
