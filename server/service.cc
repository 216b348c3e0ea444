// service.cc: the gRPC layer of tmapd: admission (token, deadline, calls in progress), request bytes ->
// messages, the GPU pool, response size caps, status codes, the request log, listening and connection
// policy. The work itself is server/engine.cc.
#include "server/service.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/codegen/server_callback_handlers.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "proto/tmapd.grpc.pb.h"
#include "proto/tmapd_v2.grpc.pb.h"
#include "server/accept_guard.h"
#include "server/check_worker.h"
#include "server/gpu_queue.h"
#include "server/metrics.h"
#include "server/request_log.h"
#include "src/net/grpc_status.h"
#include "src/net/net_address.h"
#include "src/util/strings.h"

namespace tmapgen::server {
namespace {

// The refusal of a Codegen, Decode or Plan call when the heavy pool's queue is full (they share the pool).
constexpr const char* kHeavyQueueFullMessage =
    "server busy: the queue of Codegen, Decode and Plan calls is full (--heavy-queue); retry later";

using Clock = std::chrono::steady_clock;
using grpc::ByteBuffer;

enum class Method {
  kValidate, kBuild, kValidateBatch, kDescribe, kMatrixDescriptor, kInstructionDescriptor, kCodegen, kCheck, kDecode,
  kPlanGemm, kPlanConv
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
      {"PlanGemm", Method::kPlanGemm},
      {"PlanConv", Method::kPlanConv},
  };
  for (const auto& [name, method] : kMethods)
    if (n == name) {
      *m = method;
      return true;
    }
  return false;
}

bool Expired(grpc::ServerContextBase* ctx) { return ctx->deadline() <= std::chrono::system_clock::now(); }

// A call that waits on its client: a batch stream (for its next message, or for it to read answers) or a
// unary call served as a stream (for its message). Registered in a Waiters while it may wait.
class Waiter {
 public:
  virtual ~Waiter() = default;
  // Being worked on (never closed from the registry).
  virtual bool busy() const = 0;
  // Since when it has waited on its client (steady clock, ns).
  virtual int64_t waiting_since_ns() const = 0;
  // Ends the call with `why` (the registry's mutex held; the call is no longer registered).
  virtual void Close(const grpc::Status& why) = 0;
};

int64_t NowNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count(); }

// Calls that wait on their clients, bounded. Such a call costs the server only memory, so it holds no
// slot of the calls in progress; instead at most `max` are registered, and one that would pass the bound
// closes the one that has waited longest (never one being worked on): a client that opens calls and
// leaves them waiting only ever closes its own oldest, while a client that sends and reads promptly
// is never the oldest. One that has waited `idle_ms` is closed by a reaper thread. Lock order: this
// registry's mutex, then a call's.
class Waiters {
 public:
  // `what`: "batch streams"; `flag`: the flag that sets `max`; `idle_why`: what an idle call did not do.
  // Closures are counted in `metrics` (when given): `room` for one closed to make room, kIdle for an idle one.
  Waiters(std::string what, std::string flag, std::string idle_why, int max, int idle_ms, Metrics* metrics, Refusal room);
  ~Waiters();
  // False: `max` calls are registered and every one of them is being worked on (the caller refuses).
  bool Add(Waiter* w);
  void Remove(Waiter* w);  // a no-op once it was closed from here
  int size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(open_.size());
  }
  int max() const { return max_; }
  const std::string& flag() const { return flag_; }

 private:
  void Reap();

  const std::string what_, flag_, idle_why_;
  const int max_;
  const int idle_ms_;
  Metrics* const metrics_;
  const Refusal room_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::unordered_set<Waiter*> open_;
  std::thread reaper_;
};

// What every call of both services shares.
class Core {
 public:
  Core(const ServerConfig& c, std::string instance)
      : engine_(c.limits, c.use_gpu, std::move(instance)),
        token_(c.token),
        gpu_(c.limits.gpu_concurrency, c.limits.gpu_queue),
        heavy_(static_cast<uint32_t>(c.heavy_threads), static_cast<uint32_t>(c.heavy_queue), 10),
        batch_(static_cast<uint32_t>(c.batch_threads), static_cast<uint32_t>(c.max_streams) + 16, 5),
        streams_("batch streams", "--max-streams", "neither sent a message nor read an answer", c.max_streams,
                 c.stream_idle_timeout_ms, c.metrics, Refusal::kStreams),
        messages_("calls waiting for their message", "--max-pending-messages", "did not send its message",
                  c.max_pending_messages, c.stream_idle_timeout_ms, c.metrics, Refusal::kPendingMessages),
        max_calls_(static_cast<int>(c.limits.max_concurrent_calls)),
        metrics_(c.metrics) {
    if (c.log) log_ = std::make_unique<RequestLog>(2);
    engine_.set_check_worker(c.check_worker.empty() ? DefaultCheckWorker() : c.check_worker);
    engine_.set_services({v1::Tmapd::service_full_name(), v2::Tmapd::service_full_name()});
  }

  Engine& engine() { return engine_; }
  GpuQueue& gpu() { return gpu_; }
  GpuQueue& heavy() { return heavy_; }
  GpuQueue& batch() { return batch_; }
  Waiters& streams() { return streams_; }
  Waiters& messages() { return messages_; }
  const Limits& limits() const { return engine_.limits(); }

  // A unary call may start: under max_concurrent_calls. Every true is paired with Leave().
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
    log_->Line(method.c_str(), net::CodeName(code), us, extra);
  }
  void FlushLog() {
    if (log_) log_->Flush();
  }

 private:
  Engine engine_;
  std::string token_;
  GpuQueue gpu_;    // GPU work
  GpuQueue heavy_;  // Codegen, Decode: lower priority than the callback threads
  GpuQueue batch_;  // the steps of batch streams: one queued per stream at most
  Waiters streams_;   // open batch streams
  Waiters messages_;  // unary calls whose message has not arrived
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
grpc::Status Answer(Core* core, grpc::ServerContextBase* ctx, const absl::Status& s, const Resp& res, ByteBuffer* out) {
  if (!s.ok()) {
    core->RefusedByEngine(s);
    std::string field;
    grpc::Status g = net::ToGrpc(s, &field);
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

// A unary method, served as a stream of one message each way, so that the call is tmapd's from its
// headers on: the token and the deadline are checked before a byte of the message is accepted (gRPC's
// unary handlers see a call only once its whole message has arrived: a client without the token could
// make the server buffer up to --max-message-bytes per call). A client cannot tell the difference.
// Cheap methods are answered on the gRPC thread that read the message; Codegen, Decode and the plans on the heavy
// pool; GPU work (Build's encode, Check) on the GPU pool. While its message has not arrived the call is
// one of the bounded Waiters (--max-pending-messages, each up to --max-message-bytes buffered by gRPC);
// from the message's arrival to its answer it holds a slot of max_concurrent_calls.
class UnaryCall final : public grpc::ServerBidiReactor<ByteBuffer, ByteBuffer>, public Waiter {
 public:
  UnaryCall(Core* core, Method m, bool known, std::string name, grpc::CallbackServerContext* ctx)
      : core_(core), m_(m), name_(std::move(name)), ctx_(ctx), start_(Clock::now()), since_ns_(NowNs()), log_(known) {
    if (known) core_->Started(name_);  // paired with the Log in OnDone
    if (!known) {
      Reply(grpc::Status(grpc::UNIMPLEMENTED, "not implemented by this server"));
      return;
    }
    if (grpc::Status s = core_->Admit(ctx_); !s.ok()) {
      Reply(s);
      return;
    }
    if (!core_->messages().Add(this)) {  // cannot happen (no waiting call is busy); kept for the contract
      Reply(grpc::Status(grpc::RESOURCE_EXHAUSTED, "server busy: too many calls waiting for their message"));
      return;
    }
    StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    core_->messages().Remove(this);
    if (replied_.load()) return;  // closed from the registry while it waited
    if (!ok) return Reply(grpc::Status(grpc::INVALID_ARGUMENT, "request: the call carried no message"));
    if (!core_->Enter()) return Reply(core_->Busy());
    entered_ = true;
    Dispatch();
  }
  void OnWriteDone(bool) override {}
  void OnCancel() override { cancelled_.store(true); }
  void OnDone() override {
    core_->messages().Remove(this);  // before the delete: the registry never sees a freed call
    if (log_) core_->Log(name_, code_, start_, answered_, cancelled_.load() ? " client_cancelled=1" : "");
    delete this;
  }

  bool cancelled() const { return cancelled_.load(); }

  bool busy() const override { return false; }
  int64_t waiting_since_ns() const override { return since_ns_; }
  void Close(const grpc::Status& why) override { Reply(why); }  // the read outstanding then completes with ok = false

 private:
  void Reply(const grpc::Status& s) {
    if (replied_.exchange(true)) return;
    code_ = s.error_code();
    answered_ = Clock::now();
    if (entered_) core_->Leave();
    entered_ = false;
    if (s.ok()) StartWriteAndFinish(&out_, grpc::WriteOptions(), s);
    else Finish(s);
  }

  // `work` on `pool`, after checking that the call is still wanted; a full queue is refused at once.
  void Queue(GpuQueue* pool, Refusal full_reason, const char* full, std::function<grpc::Status()> work) {
    const bool queued = pool->Submit([this, work]() {
      if (cancelled_.load()) return Reply(grpc::Status(grpc::CANCELLED, "client went away while the call waited"));
      if (Expired(ctx_)) {
        core_->Refused(Refusal::kDeadline);
        return Reply(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline passed while the call waited"));
      }
      Reply(work());
    });
    if (!queued) {
      core_->Refused(full_reason);
      Reply(grpc::Status(grpc::RESOURCE_EXHAUSTED, full));
    }
  }

  void Dispatch() {
    Core* core = core_;
    ByteBuffer* out = &out_;
    grpc::CallbackServerContext* ctx = ctx_;
    switch (m_) {
      case Method::kValidate: {
        v1::ValidateRequest req;
        if (!ParseBytes(&in_, &req)) return Reply(Unparseable<v1::ValidateRequest>());
        v1::Result res;
        return Reply(Answer(core, ctx, core->engine().Validate(req, &res), res, out));
      }
      case Method::kBuild: {
        auto req = std::make_shared<v1::BuildRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v1::BuildRequest>());
        if (!core->engine().BuildEncodes(*req)) {
          v1::Result res;
          return Reply(Answer(core, ctx, core->engine().Build(*req, false, &res), res, out));
        }
        return Queue(&core->gpu(), Refusal::kGpuQueueFull, "GPU queue full: retry later (--gpu-queue)", [core, ctx, out, req]() {
          v1::Result res;
          return Answer(core, ctx, core->engine().Build(*req, true, &res), res, out);
        });
      }
      case Method::kDescribe: {
        v1::DescribeRequest req;
        if (!ParseBytes(&in_, &req)) return Reply(Unparseable<v1::DescribeRequest>());
        v1::DescribeResponse res;
        core->engine().Describe(&res);
        return Reply(Answer(core, ctx, absl::OkStatus(), res, out));
      }
      case Method::kMatrixDescriptor: {
        v2::MatrixDescriptorRequest req;
        if (!ParseBytes(&in_, &req)) return Reply(Unparseable<v2::MatrixDescriptorRequest>());
        v2::MatrixDescriptorResponse res;
        return Reply(Answer(core, ctx, core->engine().MatrixDescriptor(req, &res), res, out));
      }
      case Method::kInstructionDescriptor: {
        v2::InstructionDescriptorRequest req;
        if (!ParseBytes(&in_, &req)) return Reply(Unparseable<v2::InstructionDescriptorRequest>());
        v2::InstructionDescriptorResponse res;
        return Reply(Answer(core, ctx, core->engine().InstructionDescriptor(req, &res), res, out));
      }
      case Method::kCodegen: {
        auto req = std::make_shared<v2::CodegenRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v2::CodegenRequest>());
        return Queue(&core->heavy(), Refusal::kHeavyQueueFull, kHeavyQueueFullMessage,
                     [core, ctx, out, req]() {
                       v2::CodegenResponse res;
                       return Answer(core, ctx, core->engine().Codegen(*req, &res), res, out);
                     });
      }
      case Method::kDecode: {
        auto req = std::make_shared<v2::DecodeRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v2::DecodeRequest>());
        return Queue(&core->heavy(), Refusal::kHeavyQueueFull, kHeavyQueueFullMessage,
                     [core, ctx, out, req]() {
                       v2::DecodeResponse res;
                       return Answer(core, ctx, core->engine().Decode(*req, &res), res, out);
                     });
      }
      case Method::kPlanGemm: {
        auto req = std::make_shared<v2::PlanGemmRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v2::PlanGemmRequest>());
        return Queue(&core->heavy(), Refusal::kHeavyQueueFull, kHeavyQueueFullMessage,
                     [core, ctx, out, req]() {
                       v2::PlanResponse res;
                       return Answer(core, ctx, core->engine().PlanGemm(*req, &res), res, out);
                     });
      }
      case Method::kPlanConv: {
        auto req = std::make_shared<v2::PlanConvRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v2::PlanConvRequest>());
        return Queue(&core->heavy(), Refusal::kHeavyQueueFull, kHeavyQueueFullMessage,
                     [core, ctx, out, req]() {
                       v2::PlanResponse res;
                       return Answer(core, ctx, core->engine().PlanConv(*req, &res), res, out);
                     });
      }
      case Method::kCheck: {
        auto req = std::make_shared<v2::CheckRequest>();
        if (!ParseBytes(&in_, req.get())) return Reply(Unparseable<v2::CheckRequest>());
        if (absl::Status s = core->engine().CheckAdmit(*req); !s.ok()) {
          v2::CheckResponse none;
          return Reply(Answer(core, ctx, s, none, out));
        }
        return Queue(&core->gpu(), Refusal::kGpuQueueFull, "GPU queue full: retry later (--gpu-queue)", [this, core, ctx, out, req]() {
          CallControl cc;
          cc.deadline = ctx->deadline();
          cc.cancelled = [](void* self) { return static_cast<UnaryCall*>(self)->cancelled(); };
          cc.arg = this;
          v2::CheckResponse res;
          return Answer(core, ctx, core->engine().CheckRun(*req, cc, &res), res, out);
        });
      }
      case Method::kValidateBatch: break;
    }
    Reply(grpc::Status(grpc::INTERNAL, "not a unary method"));
  }

  Core* core_;
  Method m_;
  std::string name_;
  grpc::CallbackServerContext* ctx_;
  Clock::time_point start_, answered_;
  const int64_t since_ns_;
  bool log_;
  bool entered_ = false;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> replied_{false};
  ByteBuffer in_, out_;
  grpc::StatusCode code_ = grpc::UNKNOWN;
};

// ---------------------------------------------------------------------------------------------- batch

// One BatchRequest kept as its bytes. Parse checks it whole, as protobuf parses it (a message that is not
// a BatchRequest fails here, before any of its specs is answered), keeps options and first_index, and
// locates the specs; spec(i) parses one spec again when it is answered. A stream whose client does not
// read so holds about its message's wire size, not the parsed specs (several times more). The full parse
// is transient, on a batch pool thread (at most --batch-threads at once).
class LazyBatchRequest {
 public:
  bool Parse(ByteBuffer* buf, v1::BatchRequest* scratch) {
    bytes_.clear();
    spans_.clear();
    header_.Clear();
    std::vector<grpc::Slice> slices;
    if (!buf->Dump(&slices).ok()) return false;
    size_t total = 0;
    for (const grpc::Slice& sl : slices) total += sl.size();
    bytes_.reserve(total);
    for (const grpc::Slice& sl : slices) bytes_.append(reinterpret_cast<const char*>(sl.begin()), sl.size());
    slices.clear();
    buf->Clear();
    if (bytes_.size() > static_cast<size_t>(INT32_MAX) || !scratch->ParseFromArray(bytes_.data(), static_cast<int>(bytes_.size())))
      return false;
    *header_.mutable_options() = scratch->options();
    if (scratch->has_first_index()) header_.set_first_index(scratch->first_index());
    scratch->Clear();  // keeps the parsed spec objects for the next parse on this thread
    // The specs' places: the bytes parsed as a whole above, so every field is well formed.
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes_.data()), static_cast<int>(bytes_.size()));
    for (uint32_t tag = in.ReadTag(); tag != 0; tag = in.ReadTag()) {
      if (tag == ((1u << 3) | 2u)) {  // field 1 (specs), length-delimited
        uint32_t len = 0;
        if (!in.ReadVarint32(&len)) return false;
        spans_.emplace_back(static_cast<uint32_t>(in.CurrentPosition()), len);
        if (!in.Skip(static_cast<int>(len))) return false;
      } else if (!google::protobuf::internal::WireFormatLite::SkipField(&in, tag)) {
        return false;
      }
    }
    return true;
  }
  uint32_t count() const { return static_cast<uint32_t>(spans_.size()); }
  const v1::BatchRequest& header() const { return header_; }  // options and first_index; no specs
  // Valid until the next call.
  const v1::TensorMapSpec& spec(uint32_t i) {
    spec_.Clear();
    spec_.ParseFromArray(bytes_.data() + spans_[i].first, static_cast<int>(spans_[i].second));  // parsed before
    return spec_;
  }
  void Release() {
    std::string().swap(bytes_);
    std::vector<std::pair<uint32_t, uint32_t>>().swap(spans_);
  }

 private:
  std::string bytes_;
  std::vector<std::pair<uint32_t, uint32_t>> spans_;  // offset, length of each spec in bytes_
  v1::BatchRequest header_;
  v1::TensorMapSpec spec_;
};

// ValidateBatch. The answers are produced in steps of one response (Engine::BatchStep) on the batch
// pool, and a step runs only while at most one earlier response is still being written: a client that
// does not read its answers stops the work for its stream, and the stream holds at most two responses
// (each under limits.batch_response_bytes, a single larger result alone) beside the message being
// answered. The next message is read ahead while the current one is answered, no further. A stream that
// waits on its client holds no slot of max_concurrent_calls (Waiters above bounds those). OnReadDone,
// OnWriteDone and a step's end can run at the same time on different threads: the state is under mu_;
// a step runs outside it, never two at once for one stream, and Finish is never called while one runs.
class BatchCall final : public grpc::ServerBidiReactor<ByteBuffer, ByteBuffer>, public Waiter {
 public:
  BatchCall(Core* core, std::string name, grpc::CallbackServerContext* ctx)
      : core_(core), name_(std::move(name)), ctx_(ctx), start_(Clock::now()) {
    core_->Started(name_);
    Touch();
    if (grpc::Status s = core_->Admit(ctx_); !s.ok()) {
      std::unique_lock<std::mutex> lock(mu_);
      End(s);
      return;
    }
    if (!core_->streams().Add(this)) {
      core_->Refused(Refusal::kStreams);
      std::unique_lock<std::mutex> lock(mu_);
      End(grpc::Status(grpc::RESOURCE_EXHAUSTED, StrCat("server busy: ", core_->streams().max(),
                                                        " batch streams open and all at work (--max-streams); retry later")));
      return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (finished_) return;  // closed from the registry already
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
    Touch();
    have_next_ = true;
    next_.Swap(&in_);
    Settle(&lock);
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok) {
      SetError(grpc::Status(grpc::CANCELLED, "client went away"), false);
      pending_.clear();
    } else {
      Touch();
      delivered_ += pending_.front().results;
      delivered_valid_ += pending_.front().valid;
      pending_.pop_front();
    }
    Settle(&lock);
  }

  void OnCancel() override { cancelled_ = true; }

  void OnDone() override {
    core_->streams().Remove(this);  // before the delete: the registry never sees a freed stream
    core_->BatchSpecs(state_.total, delivered_);
    std::string extra = StrCat(" specs=", delivered_, " valid=", delivered_valid_);
    if (state_.total != delivered_) extra += StrCat(" computed=", state_.total);
    if (cancelled_) extra += " client_cancelled=1";
    core_->Log(name_, code_, start_, answered_, extra);
    delete this;
  }

  // For the registry (its mutex held): whether a step runs or waits for the pool, and since when the
  // stream has waited on its client (the last message read or answer written).
  bool busy() const override { return busy_.load(std::memory_order_acquire); }
  int64_t waiting_since_ns() const override { return progress_ns_.load(std::memory_order_acquire); }

  // Closes the stream from the registry (room for a new one, or idle too long). The client gets `why`,
  // unless an answer is stuck on its way to it (a client that does not read): that call is cancelled.
  void Close(const grpc::Status& why) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (finished_) return;
    SetError(grpc::Status(why.error_code(), StrCat(why.error_message(), "; ", delivered_, " specs were answered")), false);
    // Answers not yet on their way are dropped (the one being written stays until its write completes).
    while (pending_.size() > (writing_ ? 1u : 0u)) pending_.pop_back();
    if (writing_) ctx_->TryCancel();
    Settle(&lock);
  }

 private:
  struct Out {
    ByteBuffer bytes;
    uint32_t results = 0, valid = 0;
  };

  void Touch() { progress_ns_.store(NowNs(), std::memory_order_release); }

  // Moves the call on from its state (mu_ held on entry).
  void Settle(std::unique_lock<std::mutex>* lock) {
    (void)lock;
    for (;;) {
      if (finished_) return;
      const bool write_on = !error_ || drain_;
      if (!writing_ && !pending_.empty() && write_on) {
        writing_ = true;
        StartWrite(&pending_.front().bytes);
      }
      // The next response, while at most one is still being written.
      if (!stepping_ && !error_ && pending_.size() < 2 && (in_message_ || have_next_)) {
        if (!in_message_) {
          msg_.Swap(&next_);
          have_next_ = false;
          in_message_ = true;
          begun_ = false;
          // Read ahead: the next message arrives while this one's answers are written.
          if (!read_done_ && !reading_) {
            reading_ = true;
            StartRead(&in_);
          }
        }
        stepping_ = true;
        busy_.store(true, std::memory_order_release);
        if (!core_->batch().Submit([this] { Step(); })) {
          stepping_ = false;
          busy_.store(false, std::memory_order_release);
          SetError(grpc::Status(grpc::RESOURCE_EXHAUSTED, "server busy: the batch queue is full; retry later"), false);
          continue;
        }
      }
      if (writing_ || stepping_) return;
      // An error ends the stream now, even with a read outstanding (it completes with ok = false).
      if (error_) return End(*error_);
      if (reading_) return;
      if (pending_.empty() && !have_next_ && !in_message_) {
        if (read_done_) {
          if (Expired(ctx_)) return End(grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled"));
          return End(grpc::Status::OK);
        }
        reading_ = true;  // nothing in flight: read on
        StartRead(&in_);
      }
      return;
    }
  }

  // drain: the answers already produced are still sent before the error (a bad message ends the stream
  // after everything before it was delivered); otherwise they are dropped.
  void SetError(const grpc::Status& s, bool drain) {
    if (error_) return;
    error_ = std::make_unique<grpc::Status>(s);
    drain_ = drain;
  }

  // One step, on the batch pool.
  void Step() {
    std::deque<Out> out;
    bool done = false;
    const grpc::Status st = cancelled_ ? grpc::Status(grpc::CANCELLED, "client went away") : Work(&out, &done);
    std::unique_lock<std::mutex> lock(mu_);
    stepping_ = false;
    busy_.store(false, std::memory_order_release);
    Touch();
    if (!st.ok()) {
      SetError(st, st.error_code() != grpc::CANCELLED && st.error_code() != grpc::DEADLINE_EXCEEDED);
    } else {
      for (Out& o : out) pending_.push_back(std::move(o));
      if (done) in_message_ = false;
    }
    Settle(&lock);
  }

  // The next response of the current message (msg_, parsed on the first step), or the status that ends
  // the stream. Only the stepping thread touches req_, state_ and msg_ while in_message_.
  grpc::Status Work(std::deque<Out>* out, bool* done) {
    if (Expired(ctx_)) return grpc::Status(grpc::DEADLINE_EXCEEDED, "deadline exceeded or call cancelled");
    if (!begun_) {
      // The whole-message check parses into a message of this pool thread: its parsed specs stay with
      // the thread for reuse (at most --batch-threads of them), not with the stream.
      thread_local v1::BatchRequest scratch;
      if (!req_.Parse(&msg_, &scratch))
        return grpc::Status(grpc::INVALID_ARGUMENT,
                            StrCat("request: message ", state_.messages + 1,
                                   " of the stream is not a tmapgen.v1.BatchRequest (unparseable bytes); ", state_.total,
                                   " specs were answered before it, none after"));
      begun_ = true;
      if (absl::Status s = core_->engine().BatchBegin(req_.header(), req_.count(), &state_); !s.ok()) return Failed(s);
    }
    grpc::Status too_big;
    const auto spec_at = [this](uint32_t i) -> const v1::TensorMapSpec& { return req_.spec(i); };
    const absl::Status s = core_->engine().BatchStep(spec_at, &state_, [&](const v1::BatchResponse& r) -> absl::Status {
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
      bool own = false;
      grpc::SerializationTraits<v1::BatchResponse>::Serialize(r, &out->back().bytes, &own);
      out->back().results = static_cast<uint32_t>(r.results_size());
      out->back().valid = static_cast<uint32_t>(r.valid());
      return absl::OkStatus();
    });
    if (!too_big.ok()) return too_big;
    if (!s.ok()) return Failed(s);
    *done = Engine::BatchMessageDone(state_);
    if (*done) req_.Release();
    return grpc::Status::OK;
  }

  grpc::Status Failed(const absl::Status& s) {
    core_->RefusedByEngine(s);
    std::string field;
    grpc::Status g = net::ToGrpc(s, &field);
    if (!field.empty()) ctx_->AddTrailingMetadata("tmapgen-field", field);
    return g;
  }

  void End(const grpc::Status& s) {
    if (finished_) return;
    finished_ = true;
    code_ = s.error_code();
    answered_ = Clock::now();
    Finish(s);
  }

  Core* core_;
  std::string name_;
  grpc::CallbackServerContext* ctx_;
  Clock::time_point start_, answered_;
  std::mutex mu_;
  bool finished_ = false;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> busy_{false};
  std::atomic<int64_t> progress_ns_{0};
  bool reading_ = false, writing_ = false, stepping_ = false, read_done_ = false, have_next_ = false;
  bool in_message_ = false, begun_ = false, drain_ = false;
  ByteBuffer in_, next_, msg_;
  std::deque<Out> pending_;  // the front one is being written when writing_
  std::unique_ptr<grpc::Status> error_;
  LazyBatchRequest req_;
  BatchState state_;
  uint64_t delivered_ = 0, delivered_valid_ = 0;  // in responses the client took
  grpc::StatusCode code_ = grpc::UNKNOWN;
};

Waiters::Waiters(std::string what, std::string flag, std::string idle_why, int max, int idle_ms, Metrics* metrics,
                 Refusal room)
    : what_(std::move(what)), flag_(std::move(flag)), idle_why_(std::move(idle_why)), max_(max < 1 ? 1 : max),
      idle_ms_(idle_ms), metrics_(metrics), room_(room), reaper_([this] { Reap(); }) {}

Waiters::~Waiters() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  reaper_.join();
}

bool Waiters::Add(Waiter* w) {
  std::lock_guard<std::mutex> lock(mu_);
  if (static_cast<int>(open_.size()) >= max_) {
    Waiter* oldest = nullptr;
    for (Waiter* o : open_)
      if (!o->busy() && (oldest == nullptr || o->waiting_since_ns() < oldest->waiting_since_ns())) oldest = o;
    if (oldest == nullptr) return false;
    open_.erase(oldest);
    if (metrics_) metrics_->Refused(room_);
    oldest->Close(grpc::Status(grpc::RESOURCE_EXHAUSTED,
                               StrCat("closed to make room for a new call: ", max_, " ", what_, " (", flag_,
                                      ") and this one had waited longest on its client (",
                                      (NowNs() - oldest->waiting_since_ns()) / 1000000, " ms)")));
  }
  open_.insert(w);
  return true;
}

void Waiters::Remove(Waiter* w) {
  std::lock_guard<std::mutex> lock(mu_);
  open_.erase(w);
}

void Waiters::Reap() {
  std::unique_lock<std::mutex> lock(mu_);
  const auto tick = std::chrono::milliseconds(std::clamp(idle_ms_ / 4, 10, 250));
  while (!stop_) {
    cv_.wait_for(lock, tick, [this] { return stop_; });
    if (stop_ || idle_ms_ <= 0) continue;
    const int64_t now = NowNs();
    const int64_t limit = int64_t{idle_ms_} * 1000000;
    std::vector<Waiter*> idle;
    for (Waiter* o : open_)
      if (!o->busy() && now - o->waiting_since_ns() > limit) idle.push_back(o);
    for (Waiter* o : idle) {
      open_.erase(o);
      if (metrics_) metrics_->Refused(Refusal::kIdle);
      o->Close(grpc::Status(grpc::UNAVAILABLE, StrCat("closed: its client ", idle_why_, " for ", idle_ms_,
                                                      " ms (--stream-idle-timeout-ms)")));
    }
  }
}

// ---------------------------------------------------------------------------------------------- services

// A service from its descriptor: every method raw (bytes in, bytes out) on the callback API.
class RawService final : public grpc::Service {
 public:
  RawService(Core* core, const google::protobuf::ServiceDescriptor* sd, bool async_validate) {
    for (int i = 0; i < sd->method_count(); ++i) {
      const google::protobuf::MethodDescriptor* md = sd->method(i);
      paths_.push_back(std::make_unique<std::string>(StrCat("/", sd->full_name(), "/", md->name())));
      const bool stream = md->client_streaming() || md->server_streaming();
      Method m = Method::kDescribe;
      const bool known = MethodFromName(md->name(), &m);
      const std::string name = md->name();
      // Only the asynchronous Validate is registered as unary (gRPC reads its message before the call
      // is handed over); every other method is a stream on the wire's terms from its headers on
      // (UnaryCall). The wire does not distinguish the two.
      const bool async = async_validate && known && m == Method::kValidate;
      AddMethod(new grpc::internal::RpcServiceMethod(
          paths_.back()->c_str(), async ? grpc::internal::RpcMethod::NORMAL_RPC : grpc::internal::RpcMethod::BIDI_STREAMING,
          nullptr));
      if (async) {
        MarkMethodRaw(i);
        validate_index_ = i;
      } else if (stream) {
        MarkMethodRawCallback(i, new grpc::internal::CallbackBidiHandler<ByteBuffer, ByteBuffer>(
                                     [core, name](grpc::CallbackServerContext* ctx) { return new BatchCall(core, name, ctx); }));
      } else {
        MarkMethodRawCallback(i, new grpc::internal::CallbackBidiHandler<ByteBuffer, ByteBuffer>(
                                     [core, m, known, name](grpc::CallbackServerContext* ctx) {
                                       return new UnaryCall(core, m, known, name, ctx);
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
            st = net::ToGrpc(a, &field);
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

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerConfig& c) {
  const bool tls = !c.tls_cert_pem.empty() || !c.tls_key_pem.empty();
  if (tls && (c.tls_cert_pem.empty() || c.tls_key_pem.empty()))
    return absl::InvalidArgumentError("TLS needs both a certificate and a key");
  net::ListenPlan plan;
  if (absl::Status s = net::ResolveListen(c.listen, &plan); !s.ok()) return s;
  std::string where;
  for (const std::string& b : plan.bind) where += (where.empty() ? "" : ", ") + b;
  if (!tls && !plan.loopback)
    return absl::InvalidArgumentError(ToAbsl(StrCat("listening on ", c.listen, " (", where,
                                                    ": not loopback only) requires TLS: give --tls-cert and --tls-key")));
  if (!plan.loopback && c.token.empty() && !c.allow_unauthenticated)
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("listening on ", c.listen, " (", where, ": not loopback only) without a token would serve anyone who "
                      "can reach it: give --token-file (or $TMAPD_TOKEN), or --allow-unauthenticated to mean it")));
  if (c.limits.max_message_bytes > (1u << 30) || c.limits.max_concurrent_calls == 0)
    return absl::InvalidArgumentError("limits: max_message_bytes at most 1 GiB, max_concurrent_calls at least 1");
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
  // gRPC's own bound on the memory of its connections (read buffers, messages on their way in): under
  // pressure it shrinks flow-control windows and buffers, then closes connections.
  if (c.memory_quota_bytes > 0) {
    grpc::ResourceQuota quota("tmapd");
    quota.Resize(static_cast<size_t>(c.memory_quota_bytes));
    b.SetResourceQuota(quota);
  }
  // The instance name is the listening address; with port 0 it is fixed up after the start.
  s->impl_->core = std::make_unique<Core>(c, c.listen);
  // The asynchronous Validate takes a call only with its whole message; with a token, Validate is
  // checked on its headers like every other method (UnaryCall), so it runs on the callback API.
  const int validate_threads = c.token.empty() ? c.validate_threads : 0;
  const bool async = validate_threads > 0;
  s->impl_->v1 = std::make_unique<RawService>(
      s->impl_->core.get(), v1::ValidateRequest::descriptor()->file()->FindServiceByName("Tmapd"), async);
  s->impl_->v2 = std::make_unique<RawService>(
      s->impl_->core.get(), v2::MatrixDescriptorRequest::descriptor()->file()->FindServiceByName("Tmapd"), async);
  b.RegisterService(s->impl_->v1.get());
  b.RegisterService(s->impl_->v2.get());
  for (int i = 0; i < validate_threads; ++i) s->impl_->cqs.push_back(b.AddCompletionQueue());
  s->impl_->server = b.BuildAndStart();
  if (s->impl_->server == nullptr || (plan.bind[0].rfind("unix:", 0) != 0 && ports[0] == 0)) {
    return absl::UnavailableError(ToAbsl(StrCat("cannot listen on ", c.listen)));
  }
  s->port_ = ports[0];
  s->loopback_ = plan.loopback;
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
int Server::streams_open() const { return impl_->core->streams().size(); }

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
