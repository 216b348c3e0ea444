// engine.h: what tmapd does, without gRPC: validate, build (encode on the GPU host), render, describe,
// descriptors. Thread-safe; one Engine per server. The gRPC layer (service.cc) maps its results to
// status codes; everything here is testable without a network.
#ifndef TMAPGEN_SERVER_ENGINE_H_
#define TMAPGEN_SERVER_ENGINE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include "proto/tmapd.pb.h"
#include "src/schema/spec_json.h"
#include "src/tmap/types.h"

namespace tmapgen::server {

struct Limits {
  uint64_t max_message_bytes = 4u << 20;    // requests and responses
  uint32_t max_specs_per_message = 10000;   // one BatchRequest
  uint32_t max_specs_per_call = 10000000;   // one ValidateBatch stream
  uint32_t gpu_concurrency = 1;             // GPU jobs at once
  uint32_t gpu_queue = 64;                  // GPU jobs waiting; more is RESOURCE_EXHAUSTED
  uint32_t max_desc_args = 64;              // Descriptor arguments
  uint32_t max_for_map_bytes = 1u << 20;    // Descriptor for_map text
  uint64_t max_check_tensor_bytes = 1ull << 30;  // global tensor one spec of a Check may allocate
  uint32_t max_check_files = 16;
  uint32_t check_timeout_ms = 600000;       // a Check without a (shorter) deadline
};

// A bounded queue in front of the GPU: at most `concurrency` holders, at most `queue` waiters.
class GpuGate {
 public:
  enum class Admit { kOk, kQueueFull, kDeadline };
  GpuGate(uint32_t concurrency, uint32_t queue) : concurrency_(concurrency), queue_(queue) {}
  Admit Acquire(std::chrono::system_clock::time_point deadline);
  void Release();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  uint32_t concurrency_, queue_, running_ = 0, waiting_ = 0;
};

class Engine {
 public:
  // use_gpu = false: behave as a GPU-less host even where a driver is present.
  Engine(const Limits& limits, bool use_gpu, std::string instance);

  const Limits& limits() const { return limits_; }
  bool gpu_present() const { return gpu_present_; }
  GpuGate& gpu_gate() { return gate_; }
  void set_instance(const std::string& instance) {
    std::lock_guard<std::mutex> lock(driver_mu_);
    instance_ = instance;
  }

  // Validates (and with `encode`, encodes on the GPU host: the caller holds the GPU gate) one spec.
  // Returns false for a malformed spec (*error names the field); true otherwise, valid or not.
  bool Run(const v1::TensorMapSpec& m, const v1::RenderOptions& o, int index, bool encode, v1::Result* out,
           InputError* error) const;
  // The result for a spec that could not be read (batch streams carry these instead of failing).
  void InputErrorResult(int index, const InputError& e, const v1::RenderOptions& o, v1::Result* out) const;

  void Describe(v1::DescribeResponse* out) const;

  // Check: the worker binary ("" = none: Check is unavailable), and the limits of a request. Returns
  // "" when the request may run; else the reason, naming the field; *resource = a limit was passed.
  void set_check_worker(const std::string& path) { check_worker_ = path; }
  const std::string& check_worker() const { return check_worker_; }
  std::string CheckProblem(const v1::CheckRequest& req, bool* resource) const;

  // Runs `tmapgen desc|idesc ARGS`. Returns false (with *why) for a request the server refuses
  // (a file argument, too many arguments).
  bool Descriptor(const v1::DescriptorRequest& req, v1::DescriptorResponse* out, std::string* why) const;
  // tmapgen codegen on the request's files (written to temporary files, named back in the output).
  // False (with *why naming the field) for a request over the limits or with -o.
  bool Codegen(const v1::CodegenRequest& req, v1::CodegenResponse* out, std::string* why) const;

 private:
  Limits limits_;
  std::string instance_;
  bool gpu_present_ = false;
  bool gpu_has_target_ = false;
  Target gpu_target_ = Target::kSm90a;
  std::string gpu_description_;
  int driver_version_ = 0;
  std::string check_worker_;
  mutable GpuGate gate_;
  mutable std::mutex driver_mu_;  // the driver's current context is per thread; encode one at a time
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_ENGINE_H_
