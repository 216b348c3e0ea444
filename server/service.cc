// service.cc: the gRPC layer of tmapd: admission (token, deadline, calls in progress), request bytes ->
// messages, the GPU pool, response size caps, status codes, the request log, listening and connection
// policy. The work itself is server/engine.cc.
#include "server/service.h"

#include <google/protobuf/descriptor.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/codegen/server_callback_handlers.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

#include "proto/tmapd.grpc.pb.h"
#include "proto/tmapd_v2.grpc.pb.h"
#include "server/accept_guard.h"
#include "server/check_worker.h"
#include "server/gpu_queue.h"
#include "server/grpc_status.h"
#include "server/metrics.h"
#include "server/net_address.h"
#include "server/request_log.h"
#include "src/util/strings.h"

namespace tmapgen::server {
namespace {

using Clock = std::chrono::steady_clock;
using grpc::ByteBuffer;

enum class Method {
  kValidate, kBuild, kValidateBatch, kDescribe, kMatrixDescriptor, kInstructionDescriptor, kCodegen, kCheck, kDecode
};

bool MethodFromName(const std::string& n, Method* m) {
  static const std::pair<const char*, Method> kMethods[] = {
      {"Validate", Method::kValidate},
      {"Build", Method::kBuild},
      {"ValidateBatch", Method::kValidateBatch},
      {"Describe", Method::kDescribe},
      {"MatrixDescriptor", Method::kMatrixDescriptor},
      {"InstructionDescriptor", Method::kInstructionDescriptor},
      {"Codegen", Method::kCodegen},
      {"Check", Method::kCheck},
      {"Decode", Method::kDecode},
  };
  for (const auto& [name, method] : kMethods)
    if (n == name) {
      *m = method;
      return true;
    }
  return false;
}

bool Expired(grpc::ServerContextBase* ctx) { return ctx->deadline() <= std::chrono::system_clock::now(); }

// What every call of both services shares.
class Core {
 public:
  Core(const ServerConfig& c, std::string instance)
      : engine_(c.limits, c.use_gpu, std::move(instance)),
        token_(c.token),
        gpu_(c.limits.gpu_concurrency, c.limits.gpu_queue),
        max_calls_(static_cast<int>(c.limits.max_concurrent_calls)),
        metrics_(c.metrics) {
    if (c.log) log_ = std::make_unique<RequestLog>(2);
    engine_.set_check_worker(c.check_worker.empty() ? DefaultCheckWorker() : c.check_worker);
    engine_.set_services({v1::Tmapd::service_full_name(), v2::Tmapd::service_full_name()});
  }

  Engine& engine() { return engine_; }
  GpuQueue& gpu() { return gpu_; }
  const Limits& limits() const { return engine_.limits(); }

  // A call may start: under max_concurrent_calls. Every true is paired with Leave().
  bool Enter() {
    if (calls_.fetch_add(1, std::memory_order_acq_rel) >= max_calls_) {
      calls_.fetch_sub(1, std::memory_order_acq_rel);
      return false;
    }
    return true;
  }
  void Leave() { calls_.fetch_sub(1, std::memory_order_acq_rel); }
  int calls() const { return calls_.load(); }
  grpc::Status Busy() const {
    Refused(Refusal::kConcurrentCalls);
    return grpc::Status(grpc::RESOURCE_EXHAUSTED, StrCat("server busy: ", max_calls_,
                                                         " calls in progress (max_concurrent_calls); retry later"));
  }

  // The token (before any request byte is parsed) and the deadline.
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
      if (!ok) {
        Refused(Refusal::kUnauthenticated);
        return grpc::Status(grpc::UNAUTHENTICATED, "missing or wrong bearer token (authorization metadata)");
      }
    }
    if (Expired(ctx)) {
      Refused(Refusal::kDeadline);
      return grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded before the call started");
    }
    return grpc::Status::OK;
  }

  // Metrics: a call has started (paired with its one Log), was refused, a batch's specs.
  void Started(std::string_view method) const {
    if (metrics_) metrics_->CallStarted(method);
  }
  void Refused(Refusal r) const {
    if (metrics_) metrics_->Refused(r);
  }
  // The engine refuses a request over a limit with RESOURCE_EXHAUSTED, its message starting with the field
  // ("specs: ...", or "response: ..." for an answer over the message limit).
  void RefusedByEngine(const absl::Status& s) const {
    if (metrics_ && s.code() == absl::StatusCode::kResourceExhausted)
      metrics_->Refused(s.message().rfind("response", 0) == 0 ? Refusal::kResponseTooLarge : Refusal::kRequestLimit);
  }
  void BatchSpecs(uint64_t computed, uint64_t delivered) const {
    if (metrics_) metrics_->BatchSpecs(computed, delivered);
  }

  // duration_us: from the call's start to its answer. Every call ends here once (the metrics too).
  void Log(const std::string& method, grpc::StatusCode code, Clock::time_point start, Clock::time_point answered,
           const std::string& extra) {
    if (!log_ && !metrics_) return;
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(answered - start).count();
    if (metrics_) metrics_->CallEnded(method, static_cast<int>(code), us);
    if (!log_) return;
    log_->Line(method.c_str(), CodeName(code), us, extra);
  }
  void FlushLog() {
    if (log_) log_->Flush();
  }

 private:
  Engine engine_;
  std::string token_;
  GpuQueue gpu_;
  std::unique_ptr<RequestLog> log_;
  std::atomic<int> calls_{0};
  int max_calls_;
  Metrics* metrics_;
};

template <typename Msg>
bool ParseBytes(const ByteBuffer* in, Msg* msg) {
  ByteBuffer copy(*in);
  return grpc::SerializationTraits<Msg>::Deserialize(&copy, msg).ok();
}

template <typename Msg>
grpc::Status Unparseable() {
  return grpc::Status(grpc::INVALID_ARGUMENT,
                      StrCat("request: not a ", Msg::descriptor()->full_name(), " (unparseable bytes)"));
}

// ---------------------------------------------------------------------------------------------- unary

// What a unary call answers with: the status (with the field in the trailing metadata), the response
// serialized unless it is over the message limit.
template <typename Resp>
grpc::Status Answer(Core* core, grpc::CallbackServerContext* ctx, const absl::Status& s, const Resp& res, ByteBuffer* out) {
  if (!s.ok()) {
    core->RefusedByEngine(s);
    std::string field;
    grpc::Status g = ToGrpc(s, &field);
    if (!field.empty()) ctx->AddTrailingMetadata("tmapgen-field", field);
    return g;
  }
  const size_t n = res.ByteSizeLong();
  if (n > core->limits().max_message_bytes) {
    core->Refused(Refusal::kResponseTooLarge);
    return grpc::Status(grpc::RESOURCE_EXHAUSTED,
                        StrCat("response: ", n, " bytes, over the message limit of ", core->limits().max_message_bytes,
                               " bytes (--max-message-bytes); nothing was sent"));
  }
  bool own = false;
  return grpc::SerializationTraits<Resp>::Serialize(res, out, &own);
}

// GPU work (Build's encode, Check): waits in the bounded queue and answers from a pool thread, so this
// call has a reactor of its own; it stays in progress until the answer is decided.
class GpuCall final : public grpc::ServerUnaryReactor {
 public:
  GpuCall(Core* core, std::string name, grpc::CallbackServerContext* ctx, ByteBuffer* out, Clock::time_point start)
      : core_(core), name_(std::move(name)), ctx_(ctx), out_(out), start_(start) {}

  // `work` computes the answer on a pool thread.
  void Queue(std::function<grpc::Status(GpuCall*)> work) {
    const bool queued = core_->gpu().Submit([this, work]() {
      if (cancelled_.load()) return Reply(grpc::Status(grpc::CANCELLED, "client went away while waiting for the GPU"));
      if (Expired(ctx_)) {
        core_->Refused(Refusal::kDeadline);
        return Reply(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline passed while waiting for the GPU"));
      }
      Reply(work(this));
    });
    if (!queued) {
      core_->Refused(Refusal::kGpuQueueFull);
      Reply(grpc::Status(grpc::RESOURCE_EXHAUSTED, "GPU queue full: retry later (--gpu-queue)"));
    }
  }

  bool cancelled() const { return cancelled_.load(); }
  grpc::CallbackServerContext* ctx() const { return ctx_; }
  ByteBuffer* out() const { return out_; }

  void OnCancel() override { cancelled_.store(true); }
  void OnDone() override {
    core_->Log(name_, code_, start_, answered_, cancelled_.load() ? " client_cancelled=1" : "");
    delete this;
  }

 private:
  void Reply(const grpc::Status& s) {
    code_ = s.error_code();
    answered_ = Clock::now();
    core_->Leave();
    Finish(s);
  }

  Core* core_;
  std::string name_;
  grpc::CallbackServerContext* ctx_;
  ByteBuffer* out_;
  Clock::time_point start_, answered_;
  std::atomic<bool> cancelled_{false};
  grpc::StatusCode code_ = grpc::UNKNOWN;
};

// A unary call. Everything but GPU work is answered right here, on the thread gRPC called the handler
// on, with gRPC's default reactor (no reactor object of tmapd's, no second thread for the end of the call).
grpc::ServerUnaryReactor* Unary(Core* core, Method m, const std::string& name, grpc::CallbackServerContext* ctx,
                                const ByteBuffer* in, ByteBuffer* out) {
  const Clock::time_point start = Clock::now();
  core->Started(name);
  auto reply = [&](const grpc::Status& s, bool entered) {
    if (entered) core->Leave();
    core->Log(name, s.error_code(), start, Clock::now(), "");
    grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
    r->Finish(s);
    return r;
  };
  if (!core->Enter()) return reply(core->Busy(), false);
  if (grpc::Status s = core->Admit(ctx); !s.ok()) return reply(s, true);
  switch (m) {
    case Method::kValidate: {
      v1::ValidateRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v1::ValidateRequest>(), true);
      v1::Result res;
      return reply(Answer(core, ctx, core->engine().Validate(req, &res), res, out), true);
    }
    case Method::kBuild: {
      auto req = std::make_shared<v1::BuildRequest>();
      if (!ParseBytes(in, req.get())) return reply(Unparseable<v1::BuildRequest>(), true);
      if (!core->engine().BuildEncodes(*req)) {
        v1::Result res;
        return reply(Answer(core, ctx, core->engine().Build(*req, false, &res), res, out), true);
      }
      GpuCall* call = new GpuCall(core, name, ctx, out, start);
      call->Queue([core, req](GpuCall* c) {
        v1::Result res;
        return Answer(core, c->ctx(), core->engine().Build(*req, true, &res), res, c->out());
      });
      return call;
    }
    case Method::kDescribe: {
      v1::DescribeRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v1::DescribeRequest>(), true);
      v1::DescribeResponse res;
      core->engine().Describe(&res);
      return reply(Answer(core, ctx, absl::OkStatus(), res, out), true);
    }
    case Method::kMatrixDescriptor: {
      v2::MatrixDescriptorRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v2::MatrixDescriptorRequest>(), true);
      v2::MatrixDescriptorResponse res;
      return reply(Answer(core, ctx, core->engine().MatrixDescriptor(req, &res), res, out), true);
    }
    case Method::kInstructionDescriptor: {
      v2::InstructionDescriptorRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v2::InstructionDescriptorRequest>(), true);
      v2::InstructionDescriptorResponse res;
      return reply(Answer(core, ctx, core->engine().InstructionDescriptor(req, &res), res, out), true);
    }
    case Method::kCodegen: {
      v2::CodegenRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v2::CodegenRequest>(), true);
      v2::CodegenResponse res;
      return reply(Answer(core, ctx, core->engine().Codegen(req, &res), res, out), true);
    }
    case Method::kDecode: {
      v2::DecodeRequest req;
      if (!ParseBytes(in, &req)) return reply(Unparseable<v2::DecodeRequest>(), true);
      v2::DecodeResponse res;
      return reply(Answer(core, ctx, core->engine().Decode(req, &res), res, out), true);
    }
    case Method::kCheck: {
      auto req = std::make_shared<v2::CheckRequest>();
      if (!ParseBytes(in, req.get())) return reply(Unparseable<v2::CheckRequest>(), true);
      if (absl::Status s = core->engine().CheckAdmit(*req); !s.ok()) {
        v2::CheckResponse none;
        return reply(Answer(core, ctx, s, none, out), true);
      }
      GpuCall* call = new GpuCall(core, name, ctx, out, start);
      call->Queue([core, req](GpuCall* c) {
        CallControl cc;
        cc.deadline = c->ctx()->deadline();
        cc.cancelled = [](void* self) { return static_cast<GpuCall*>(self)->cancelled(); };
        cc.arg = c;
        v2::CheckResponse res;
        return Answer(core, c->ctx(), core->engine().CheckRun(*req, cc, &res), res, c->out());
      });
      return call;
    }
    case Method::kValidateBatch: break;
  }
  return reply(grpc::Status(grpc::INTERNAL, "not a unary method"), true);
}

// ---------------------------------------------------------------------------------------------- batch

// ValidateBatch: one message read ahead while the answers to the previous one are written; the message
// after that is read only when those writes are done, so that a client that does not read its answers
// stops being read (flow control: at most one message and its answers held). OnReadDone and OnWriteDone
// can run at the same time on different threads: the state is under mu_, and the work (Process) runs
// outside it, never twice at once.
class BatchCall final : public grpc::ServerBidiReactor<ByteBuffer, ByteBuffer> {
 public:
  BatchCall(Core* core, std::string name, grpc::CallbackServerContext* ctx)
      : core_(core), name_(std::move(name)), ctx_(ctx), start_(Clock::now()) {
    core_->Started(name_);
    entered_ = core_->Enter();
    if (!entered_) {
      End(core_->Busy());
      return;
    }
    if (grpc::Status s = core_->Admit(ctx_); !s.ok()) {
      End(s);
      return;
    }
    reading_ = true;
    StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    reading_ = false;
    if (!ok) {  // the client finished writing (or went away)
      read_done_ = true;
      return Settle(&lock);
    }
    have_next_ = true;
    next_.Swap(&in_);
    Settle(&lock);
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok) {
      SetError(grpc::Status(grpc::CANCELLED, "client went away"));
      pending_.clear();
      pending_specs_.clear();
    } else {
      pending_.pop_front();
      delivered_ += pending_specs_.front();
      pending_specs_.pop_front();
    }
    Settle(&lock);
  }

  void OnCancel() override { cancelled_ = true; }

  void OnDone() override {
    core_->BatchSpecs(state_.total, delivered_);
    core_->Log(name_, code_, start_, answered_,
               StrCat(" specs=", state_.total, " valid=", state_.valid, cancelled_ ? " client_cancelled=1" : ""));
    delete this;
  }

 private:
  // Moves the call on from its state (mu_ held on entry; may release it to process a message).
  void Settle(std::unique_lock<std::mutex>* lock) {
    for (;;) {
      if (finished_) return;
      if (!writing_ && !pending_.empty() && !error_) {
        writing_ = true;
        StartWrite(&pending_.front());
      }
      // A message to answer, once the previous answers are written.
      if (have_next_ && pending_.empty() && !writing_ && !processing_ && !error_) {
        ByteBuffer msg;
        msg.Swap(&next_);
        have_next_ = false;
        processing_ = true;
        // Read ahead: the next message arrives while this one's answers are written.
        if (!read_done_ && !reading_) {
          reading_ = true;
          StartRead(&in_);
        }
        lock->unlock();
        std::deque<ByteBuffer> out;
        std::deque<int> out_specs;
        grpc::Status st = Process(&msg, &out, &out_specs);
        lock->lock();
        processing_ = false;
        if (!st.ok()) {
          SetError(st);
        } else {
          for (ByteBuffer& b : out) pending_.push_back(std::move(b));
          pending_specs_.insert(pending_specs_.end(), out_specs.begin(), out_specs.end());
        }
        continue;
      }
      if (writing_ || processing_) return;
      // An error ends the stream now, even with a read outstanding (it completes with ok = false).
      if (error_) return End(*error_);
      if (reading_) return;
      if (pending_.empty() && !have_next_ && read_done_) {
        if (Expired(ctx_)) return End(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled"));
        return End(grpc::Status::OK);
      }
      if (pending_.empty() && !have_next_ && !read_done_) {  // nothing in flight: read on
        reading_ = true;
        StartRead(&in_);
      }
      return;
    }
  }

  void SetError(const grpc::Status& s) {
    if (!error_) error_ = std::make_unique<grpc::Status>(s);
  }

  // One message: its answers serialized (and the number of results in each), or the status that ends the stream.
  grpc::Status Process(ByteBuffer* msg, std::deque<ByteBuffer>* out, std::deque<int>* out_specs) {
    if (Expired(ctx_)) return grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled");
    // req_ is reused: parsing into it reuses the spec messages of the previous request.
    if (!grpc::SerializationTraits<v1::BatchRequest>::Deserialize(msg, &req_).ok())
      return grpc::Status(grpc::INVALID_ARGUMENT,
                          StrCat("request: message ", state_.messages + 1,
                                 " of the stream is not a tmapgen.v1.BatchRequest (unparseable bytes); ", state_.total,
                                 " specs were answered before it, none after"));
    grpc::Status too_big;
    const absl::Status s = core_->engine().Batch(req_, &state_, [&](const v1::BatchResponse& r) -> absl::Status {
      const size_t n = r.ByteSizeLong();
      if (n > core_->limits().max_message_bytes) {
        core_->Refused(Refusal::kResponseTooLarge);
        const int first = r.results_size() > 0 ? r.results(0).index() : 0;
        too_big = grpc::Status(grpc::RESOURCE_EXHAUSTED,
                               StrCat("response: the result of spec ", first, " is ", n, " bytes, over the message limit of ",
                                      core_->limits().max_message_bytes, " bytes (--max-message-bytes)"));
        return absl::ResourceExhaustedError("response too large");
      }
      out->emplace_back();
      out_specs->push_back(r.results_size());
      bool own = false;
      grpc::SerializationTraits<v1::BatchResponse>::Serialize(r, &out->back(), &own);
      return absl::OkStatus();
    });
    if (!too_big.ok()) return too_big;
    if (!s.ok()) {
      core_->RefusedByEngine(s);
      std::string field;
      grpc::Status g = ToGrpc(s, &field);
      if (!field.empty()) ctx_->AddTrailingMetadata("tmapgen-field", field);
      return g;
    }
    return grpc::Status::OK;
  }

  void End(const grpc::Status& s) {
    if (finished_) return;
    finished_ = true;
    code_ = s.error_code();
    answered_ = Clock::now();
    if (entered_) core_->Leave();
    entered_ = false;
    Finish(s);
  }

  Core* core_;
  std::string name_;
  grpc::CallbackServerContext* ctx_;
  Clock::time_point start_, answered_;
  std::mutex mu_;
  bool entered_ = false;
  bool finished_ = false;
  std::atomic<bool> cancelled_{false};
  bool reading_ = false, writing_ = false, processing_ = false, read_done_ = false, have_next_ = false;
  ByteBuffer in_, next_;
  std::deque<ByteBuffer> pending_;
  std::deque<int> pending_specs_;  // results in each of pending_
  uint64_t delivered_ = 0;         // results written to the client
  std::unique_ptr<grpc::Status> error_;
  v1::BatchRequest req_;
  BatchState state_;
  grpc::StatusCode code_ = grpc::UNKNOWN;
};

// ---------------------------------------------------------------------------------------------- services

// A service from its descriptor: every method raw (bytes in, bytes out) on the callback API.
class RawService final : public grpc::Service {
 public:
  RawService(Core* core, const google::protobuf::ServiceDescriptor* sd, bool async_validate) {
    for (int i = 0; i < sd->method_count(); ++i) {
      const google::protobuf::MethodDescriptor* md = sd->method(i);
      paths_.push_back(std::make_unique<std::string>(StrCat("/", sd->full_name(), "/", md->name())));
      const bool stream = md->client_streaming() || md->server_streaming();
      AddMethod(new grpc::internal::RpcServiceMethod(
          paths_.back()->c_str(), stream ? grpc::internal::RpcMethod::BIDI_STREAMING : grpc::internal::RpcMethod::NORMAL_RPC,
          nullptr));
      Method m = Method::kDescribe;
      const bool known = MethodFromName(md->name(), &m);
      const std::string name = md->name();
      if (async_validate && known && m == Method::kValidate) {
        MarkMethodRaw(i);
        validate_index_ = i;
      } else if (stream) {
        MarkMethodRawCallback(i, new grpc::internal::CallbackBidiHandler<ByteBuffer, ByteBuffer>(
                                     [core, name](grpc::CallbackServerContext* ctx) { return new BatchCall(core, name, ctx); }));
      } else {
        MarkMethodRawCallback(
            i, new grpc::internal::CallbackUnaryHandler<ByteBuffer, ByteBuffer>(
                   [core, m, known, name](grpc::CallbackServerContext* ctx, const ByteBuffer* in, ByteBuffer* out) {
                     if (known) return Unary(core, m, name, ctx, in, out);
                     grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
                     r->Finish(grpc::Status(grpc::UNIMPLEMENTED, "not implemented by this server"));
                     return r;
                   }));
      }
    }
  }

 // Asks for the next Validate call on `cq` (async_validate).
  void RequestValidate(grpc::ServerContext* ctx, ByteBuffer* req, grpc::ServerAsyncResponseWriter<ByteBuffer>* w,
                       grpc::ServerCompletionQueue* cq, void* tag) {
    RequestAsyncUnary(validate_index_, ctx, req, w, cq, cq, tag);
  }
  bool async_validate() const { return validate_index_ >= 0; }

 private:
  std::vector<std::unique_ptr<std::string>> paths_;  // RpcServiceMethod keeps the pointer
  int validate_index_ = -1;
};

// Validate on the asynchronous API: a thread of tmapd's waits on its own completion queue, and the thread
// that takes the request off the queue answers it, then asks for the next.
class AsyncValidate {
 public:
  AsyncValidate(Core* core, RawService* svc, grpc::ServerCompletionQueue* cq)
      : core_(core), svc_(svc), cq_(cq), writer_(&ctx_) {}
  void Post() { svc_->RequestValidate(&ctx_, &in_, &writer_, cq_, this); }
  void Proceed(bool ok) {
    if (finishing_ || !ok) {  // answered, or the server is shutting down
      delete this;
      return;
    }
    (new AsyncValidate(core_, svc_, cq_))->Post();
    const Clock::time_point start = Clock::now();
    core_->Started("Validate");
    grpc::Status st;
    bool entered = false;
    if (!core_->Enter()) {
      st = core_->Busy();
    } else {
      entered = true;
      st = core_->Admit(&ctx_);
      if (st.ok()) {
        v1::ValidateRequest req;
        if (!ParseBytes(&in_, &req)) {
          st = Unparseable<v1::ValidateRequest>();
        } else {
          v1::Result res;
          const absl::Status a = core_->engine().Validate(req, &res);
          if (!a.ok()) {
            core_->RefusedByEngine(a);
            std::string field;
            st = ToGrpc(a, &field);
            if (!field.empty()) ctx_.AddTrailingMetadata("tmapgen-field", field);
          } else if (res.ByteSizeLong() > core_->limits().max_message_bytes) {
            core_->Refused(Refusal::kResponseTooLarge);
            st = grpc::Status(grpc::RESOURCE_EXHAUSTED,
                              StrCat("response: ", res.ByteSizeLong(), " bytes, over the message limit of ",
                                     core_->limits().max_message_bytes, " bytes (--max-message-bytes); nothing was sent"));
          } else {
            bool own = false;
            st = grpc::SerializationTraits<v1::Result>::Serialize(res, &out_, &own);
          }
        }
      }
    }
    if (entered) core_->Leave();
    core_->Log("Validate", st.error_code(), start, Clock::now(), "");
    finishing_ = true;
    if (st.ok()) writer_.Finish(out_, st, this);
    else writer_.FinishWithError(st, this);
  }

 private:
  Core* core_;
  RawService* svc_;
  grpc::ServerCompletionQueue* cq_;
  grpc::ServerContext ctx_;
  ByteBuffer in_, out_;
  grpc::ServerAsyncResponseWriter<ByteBuffer> writer_;
  bool finishing_ = false;
};

}  // namespace

struct Server::Impl {
  std::unique_ptr<Core> core;
  std::unique_ptr<RawService> v1, v2;
  std::unique_ptr<grpc::Server> server;
  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> cqs;  // async Validate
  std::vector<std::thread> threads;
  bool async_stopped = false;
  void StopAsync() {
    if (async_stopped) return;
    async_stopped = true;
    for (auto& cq : cqs) cq->Shutdown();
    for (std::thread& t : threads) t.join();
    threads.clear();
  }
  std::vector<std::string> bound;
  std::atomic<bool> shut{false};
};

std::unique_ptr<Server> Server::Start(const ServerConfig& c, std::string* error) {
  const bool tls = !c.tls_cert_pem.empty() || !c.tls_key_pem.empty();
  if (tls && (c.tls_cert_pem.empty() || c.tls_key_pem.empty())) {
    *error = "TLS needs both a certificate and a key";
    return nullptr;
  }
  ListenPlan plan;
  if (absl::Status s = ResolveListen(c.listen, &plan); !s.ok()) {
    *error = std::string(s.message());
    return nullptr;
  }
  if (!tls && !plan.loopback) {
    std::string where;
    for (const std::string& b : plan.bind) where += (where.empty() ? "" : ", ") + b;
    *error = StrCat("listening on ", c.listen, " (", where, ": not loopback only) requires TLS: give --tls-cert and --tls-key");
    return nullptr;
  }
  if (c.limits.max_message_bytes > (1u << 30) || c.limits.max_concurrent_calls == 0) {
    *error = "limits: max_message_bytes at most 1 GiB, max_concurrent_calls at least 1";
    return nullptr;
  }
  InstallAcceptGuard(c.fd_reserve, c.max_connections);
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
  std::vector<int> ports(plan.bind.size(), 0);
  for (size_t i = 0; i < plan.bind.size(); ++i) b.AddListeningPort(plan.bind[i], creds, &ports[i]);
  b.SetMaxReceiveMessageSize(static_cast<int>(c.limits.max_message_bytes));
  b.SetMaxSendMessageSize(static_cast<int>(c.limits.max_message_bytes));
  b.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, c.max_streams_per_connection);
  b.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, c.handshake_timeout_ms);
  b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, c.max_connection_idle_ms);
  if (c.max_connection_age_ms > 0) {
    b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, c.max_connection_age_ms);
    b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, c.max_connection_age_grace_ms);
  }
  b.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, c.keepalive_time_ms);
  b.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, c.keepalive_timeout_ms);
  // The instance name is the listening address; with port 0 it is fixed up after the start.
  s->impl_->core = std::make_unique<Core>(c, c.listen);
  const bool async = c.validate_threads > 0;
  s->impl_->v1 = std::make_unique<RawService>(
      s->impl_->core.get(), v1::ValidateRequest::descriptor()->file()->FindServiceByName("Tmapd"), async);
  s->impl_->v2 = std::make_unique<RawService>(
      s->impl_->core.get(), v2::MatrixDescriptorRequest::descriptor()->file()->FindServiceByName("Tmapd"), async);
  b.RegisterService(s->impl_->v1.get());
  b.RegisterService(s->impl_->v2.get());
  for (int i = 0; i < c.validate_threads; ++i) s->impl_->cqs.push_back(b.AddCompletionQueue());
  s->impl_->server = b.BuildAndStart();
  if (s->impl_->server == nullptr || (plan.bind[0].rfind("unix:", 0) != 0 && ports[0] == 0)) {
    *error = StrCat("cannot listen on ", c.listen);
    return nullptr;
  }
  s->port_ = ports[0];
  for (size_t i = 0; i < plan.bind.size(); ++i) {
    std::string bound = plan.bind[i];
    if (plan.port_zero) bound = StrCat(bound.substr(0, bound.rfind(':') + 1), ports[i]);
    s->impl_->bound.push_back(bound);
  }
  if (plan.port_zero) {
    const std::string inst = c.listen.substr(0, c.listen.rfind(':') + 1);
    s->impl_->core->engine().set_instance(StrCat(inst, s->port_));
  }
  for (auto& cq : s->impl_->cqs) {
    grpc::ServerCompletionQueue* q = cq.get();
    for (RawService* svc : {s->impl_->v1.get(), s->impl_->v2.get()})
      for (int k = 0; k < 64; ++k) (new AsyncValidate(s->impl_->core.get(), svc, q))->Post();
    s->impl_->threads.emplace_back([q] {
      void* tag = nullptr;
      bool ok = false;
      while (q->Next(&tag, &ok)) static_cast<AsyncValidate*>(tag)->Proceed(ok);
    });
  }
  s->impl_->server->GetHealthCheckService()->SetServingStatus(true);
  s->impl_->server->GetHealthCheckService()->SetServingStatus(v1::Tmapd::service_full_name(), true);
  s->impl_->server->GetHealthCheckService()->SetServingStatus(v2::Tmapd::service_full_name(), true);
  return s;
}

Server::~Server() {
  if (impl_ && impl_->server) {
    Shutdown(std::chrono::milliseconds(0));
    impl_->server->Wait();
    impl_->StopAsync();
    impl_->server.reset();
    impl_->core->FlushLog();
  }
}

std::string Server::bound() const { return impl_->bound.empty() ? "" : impl_->bound[0]; }

std::string Server::address() const {
  const std::string b = bound();
  if (b.rfind("0.0.0.0:", 0) == 0) return StrCat("127.0.0.1:", port_);
  if (b.rfind("[::]:", 0) == 0) return StrCat("[::1]:", port_);
  return b;
}

int Server::calls_in_progress() const { return impl_->core->calls(); }

void Server::Shutdown(std::chrono::milliseconds grace) {
  if (impl_->shut.exchange(true)) return;
  if (impl_->server->GetHealthCheckService()) impl_->server->GetHealthCheckService()->SetServingStatus(false);
  impl_->server->Shutdown(std::chrono::system_clock::now() + grace);
}

void Server::Wait() {
  impl_->server->Wait();
  impl_->StopAsync();
  impl_->core->FlushLog();
}

}  // namespace tmapgen::server
