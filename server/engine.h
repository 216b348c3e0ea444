// engine.h: what tmapd does, without gRPC: validate, build (encode on the GPU host), validate batches,
// descriptors, codegen, the GPU check, describe. Thread-safe; one Engine per server. The gRPC layer
// (service.cc) admits calls, parses their bytes into these messages and maps the absl::Status results
// to status codes (grpc_status.h); everything here is testable, and fuzzed (fuzz/tmapd_requests_fuzz.cc),
// without a network.
//
// Contract
// - Every method takes a parsed request message and either fills the response and returns OK, or
//   returns an error whose message starts with the request field it is about ("spec.mode: ...",
//   "first_index: ..."; src/rpc/common.h FieldOf). INVALID_ARGUMENT: a malformed request;
//   RESOURCE_EXHAUSTED: a limit; FAILED_PRECONDITION: no GPU; UNAVAILABLE: the GPU worker died or
//   could not start; DEADLINE_EXCEEDED and CANCELLED: from the call.
// - An invalid but well-formed spec or descriptor is an OK answer with valid = false.
// - The engine reads and writes no file a request could name. Check hands its specs to a worker
//   process through a pipe (check_worker.h).
#ifndef TMAPGEN_SERVER_ENGINE_H_
#define TMAPGEN_SERVER_ENGINE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/tmapd.pb.h"
#include "proto/tmapd_v2.pb.h"
#include "src/ops/host.h"
#include "src/rpc/check.h"
#include "src/rpc/codegen.h"
#include "src/rpc/decode.h"
#include "src/rpc/instruction_descriptor.h"
#include "src/rpc/matrix_descriptor.h"
#include "src/rpc/plan.h"
#include "src/schema/spec_json.h"
#include "src/tmap/types.h"

namespace tmapgen::server {

struct Limits {
  uint64_t max_message_bytes = 4u << 20;    // requests and responses
  uint32_t max_specs_per_message = 10000;   // one BatchRequest
  uint32_t max_specs_per_call = 10000000;   // one ValidateBatch stream
  uint32_t gpu_concurrency = 1;             // GPU jobs at once
  uint32_t gpu_queue = 64;                  // GPU jobs waiting; more is RESOURCE_EXHAUSTED
  uint64_t max_check_tensor_bytes = 1ull << 30;  // global tensor one spec of a Check may allocate
  uint32_t max_check_specs = 64;            // specs in one Check
  uint32_t max_codegen_specs = 10000;       // specs in one Codegen
  uint32_t max_decode_maps = 10000;         // maps in one Decode
  uint32_t check_timeout_ms = 600000;       // a Check without a (shorter) deadline
  uint32_t max_concurrent_calls = 1000;     // unary calls in progress at once (streams: service.h)
  uint64_t batch_response_bytes = 256u << 10;  // a BatchResponse is cut once it reaches this (and half the message limit)
};

// The state of one ValidateBatch stream between its messages.
struct BatchState {
  bool first = true;
  v1::RenderOptions options;  // from the first message
  int64_t next_index = 0;
  uint64_t total = 0;         // specs answered
  uint64_t valid = 0;
  uint64_t messages = 0;      // messages read
  v1::BatchResponse scratch;  // reused by Batch
  // Within the current message (BatchBegin .. BatchStep until BatchMessageDone).
  uint32_t pos = 0;           // the next spec of the message to answer
  uint32_t count = 0;         // specs in the message
  std::unique_ptr<v1::Result> carry;  // a result computed by the last step that did not fit its response
};

// Cancellation and deadline of the call a long job belongs to.
struct CallControl {
  std::chrono::system_clock::time_point deadline = std::chrono::system_clock::time_point::max();
  bool (*cancelled)(void*) = nullptr;
  void* arg = nullptr;
};

class Engine {
 public:
  // use_gpu = false: behave as a GPU-less host even where a driver is present.
  Engine(const Limits& limits, bool use_gpu, std::string instance);

  const Limits& limits() const { return limits_; }
  bool gpu_present() const { return host_.gpu; }
  void set_instance(const std::string& instance) {
    std::lock_guard<std::mutex> lock(instance_mu_);
    instance_ = instance;
  }
  void set_services(std::vector<std::string> names) { services_ = std::move(names); }
  // The check worker binary ("" = none: Check is unavailable).
  void set_check_worker(const std::string& path) { check_worker_ = path; }
  const std::string& check_worker() const { return check_worker_; }

  // Validate / Build. `encode`: also encode with the driver (a GPU host; the caller runs it as GPU work).
  absl::Status Validate(const v1::ValidateRequest& req, v1::Result* out) const;
  absl::Status Build(const v1::BuildRequest& req, bool encode, v1::Result* out) const;
  // True when a Build of `req` would encode (the GPU is used).
  bool BuildEncodes(const v1::BuildRequest& req) const;

  // One message of a ValidateBatch stream: its results as one or more responses, each under half the
  // message limit. A malformed spec becomes an "input-error" result; a bad
  // options.default_target, a limit or a bad first_index fails the stream.
  // Each response goes to `emit` as soon as it is complete (the state's scratch message, reused); an
  // error from emit ends the message.
  absl::Status Batch(const v1::BatchRequest& req, BatchState* state,
                     const std::function<absl::Status(const v1::BatchResponse&)>& emit) const;
  // The same in steps, so that a stream produces answers only as fast as its client takes them:
  // BatchBegin checks the message (limits, first_index, options of the first message); each BatchStep
  // answers specs from state->pos until one response is full (limits.batch_response_bytes, or half the
  // message limit) or the message ends, and emits that one response. Batch = BatchBegin + BatchStep
  // until BatchMessageDone.
  // `count` (BatchBegin) and `spec_at` (BatchStep) let a caller keep the specs unparsed until they are
  // answered (req then carries only options and first_index).
  absl::Status BatchBegin(const v1::BatchRequest& req, BatchState* state) const {
    return BatchBegin(req, static_cast<uint32_t>(req.specs_size()), state);
  }
  absl::Status BatchBegin(const v1::BatchRequest& req, uint32_t count, BatchState* state) const;
  absl::Status BatchStep(const std::function<const v1::TensorMapSpec&(uint32_t)>& spec_at, BatchState* state,
                         const std::function<absl::Status(const v1::BatchResponse&)>& emit) const;
  static bool BatchMessageDone(const BatchState& state) { return state.pos >= state.count && !state.carry; }

  absl::Status MatrixDescriptor(const v2::MatrixDescriptorRequest& req, v2::MatrixDescriptorResponse* out) const;
  absl::Status InstructionDescriptor(const v2::InstructionDescriptorRequest& req,
                                     v2::InstructionDescriptorResponse* out) const;
  absl::Status Codegen(const v2::CodegenRequest& req, v2::CodegenResponse* out) const;

  // Check in two steps: CheckAdmit (cheap: no GPU, limits, tensor sizes) before the call waits for the
  // GPU; CheckRun (the worker process) once it holds it.
  absl::Status CheckAdmit(const v2::CheckRequest& req) const;
  // The request part of CheckAdmit (the specs and their tensor sizes), GPU or not.
  absl::Status CheckLimits(const v2::CheckRequest& req) const;
  absl::Status CheckRun(const v2::CheckRequest& req, const CallControl& call, v2::CheckResponse* out) const;

  absl::Status Decode(const v2::DecodeRequest& req, v2::DecodeResponse* out) const;

  // Plans (tmapgen plan gemm|conv): the structured plan, and what the command prints for the request's output
  // options (rendered; the header, or the rejection a header asked of an invalid plan gets).
  absl::Status PlanGemm(const v2::PlanGemmRequest& req, v2::PlanResponse* out) const;
  absl::Status PlanConv(const v2::PlanConvRequest& req, v2::PlanResponse* out) const;

  void Describe(v1::DescribeResponse* out) const;

 private:
  // *bad_spec (when given) receives the error of a spec that cannot be read.
  absl::Status Run(const v1::TensorMapSpec& m, const v1::RenderOptions& o, int index, bool encode, v1::Result* out,
                   InputError* bad_spec) const;
  void InputErrorResult(int index, const InputError& e, const v1::RenderOptions& o, v1::Result* out) const;

  Limits limits_;
  rpc::RequestLimits request_limits_;
  std::string instance_;
  std::vector<std::string> services_;
  ops::Host host_;  // the GPU: its target, its driver's encoder
  std::string check_worker_;
  mutable std::mutex instance_mu_;  // guards instance_
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_ENGINE_H_
