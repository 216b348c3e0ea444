// gpu_api.h: the few driver-API calls the on-GPU checks need (module load, launch, copies, events), taken
// from the dlopen'd libcuda through CudaDriver::GetProcAddress, plus the kernels embedded in the binary.
//
// Contract
// - Gpu::Open() opens the process-wide driver (CudaDriver::Get()), makes device 0's primary context current on
//   the calling thread, loads the embedded fatbin (kernels/*.cu for sm_90a and sm_100a) with
//   cuModuleLoadData and finds the kernels. It returns a status with the reason when there is no driver or
//   no GPU (kUnavailable, or the driver layer's code), a GPU older than sm_90 (kFailedPrecondition), a
//   driver without one of the entry points (kNotFound), no kernels in this build (built without nvcc:
//   kUnimplemented), or a fatbin without an image for this GPU (kFailedPrecondition).
// - Every call returns an absl::Status instead of aborting; a failed driver call is "<call> failed:
//   <CUresult name>" with StatusCodeForCuResult's code (src/driver/cuda_driver.h). After a kernel fault the
//   context is poisoned: every later call fails with the sticky error (callers run checks in a child
//   process; check_runner.h).
// - Not thread-safe: one Gpu per process, used from the thread that opened it.
// - IMPORTANT: CUDA does not survive fork(). A process that forks check children must not call Open (or
//   CudaDriver::Get()) before forking.
#ifndef TMAPGEN_SRC_GPU_RUNTIME_GPU_API_H_
#define TMAPGEN_SRC_GPU_RUNTIME_GPU_API_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/driver/cuda_driver.h"

namespace tmapgen::gpu {

// The fatbin embedded at build time (empty when the build had no nvcc).
size_t EmbeddedFatbinSize();
const unsigned char* EmbeddedFatbin();

struct LaunchShape {
  uint32_t grid = 1;
  uint32_t block = 128;
  uint32_t smem = 0;     // dynamic shared memory bytes
  uint32_t cluster = 0;  // 0: no cluster attribute; n: CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION {n, 1, 1}
};

class Gpu {
 public:
  enum KernelId { kCheck = 0, kCheckBatch = 1, kCopyBandwidth = 2, kWgmma = 3, kCodegenExample = 4, kSmCopy = 5,
                  kMcastCheck = 6, kMcastBandwidth = 7, kNumKernels = 8 };

  absl::Status Open();
  // A new Gpu in *gpu, opened: its description, or why it cannot run (what a check's worker child does first).
  static absl::StatusOr<std::string> OpenNew(std::unique_ptr<Gpu>* gpu);
  const driver::DeviceInfo& device() const { return dev_; }
  int driver_version() const;
  std::string Description() const;  // "NVIDIA H200 (sm_90), driver 13000"

  absl::StatusOr<uint64_t> Alloc(size_t bytes);  // the device address
  bool Free(uint64_t addr);
  absl::Status HtoD(uint64_t dst, const void* src, size_t bytes);
  absl::Status DtoH(void* dst, uint64_t src, size_t bytes);
  absl::Status DtoD(uint64_t dst, uint64_t src, size_t bytes);
  absl::Status Memset(uint64_t dst, uint8_t v, size_t bytes);
  absl::Status Sync();  // a kernel's fault shows here: "kernel failed: CUDA_ERROR_..."
  bool FreeMemory(size_t* free_bytes, size_t* total_bytes);

  // Launches kernel `k` with `params` (kernelParams array as cuLaunchKernelEx takes it).
  absl::Status Launch(KernelId k, const LaunchShape& shape, void** params);
  // How many clusters of shape `s` (its cluster size, block and dynamic shared memory) can be resident at once.
  absl::StatusOr<int> MaxActiveClusters(KernelId k, const LaunchShape& s);
  // Sets the largest dynamic shared memory a kernel may use.
  absl::Status SetMaxDynamicSmem(KernelId k, int bytes);

  // Event timing: Record(i) on the null stream, then ElapsedMs(a, b) after Sync.
  absl::Status Record(int slot);
  absl::StatusOr<float> ElapsedMs(int a, int b);

  std::string Describe(int cu_result) const;

 private:
  void* fn_[16] = {};
  void* kernels_[kNumKernels] = {};
  void* events_[4] = {};
  void* module_ = nullptr;
  driver::CudaDriver* drv_ = nullptr;
  driver::DeviceInfo dev_;
  absl::Status Check(int r, const char* what) const;
};

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_RUNTIME_GPU_API_H_
