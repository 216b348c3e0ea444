// fake_gpu_driver.cc: a test double of the CUDA driver (built as libcuda.so.1 in a test-only directory, used
// through TMAPGEN_LIBCUDA) for the on-GPU checks' process handling on machines without a GPU: the worker's
// children (src/gpu/runtime/worker.h) open it, launch, fault, crash and hang as a test asks. It runs no kernel:
// a launch leaves device memory as the host wrote it, so every item gets an answer (ERROR or FAIL), the same
// one each run. Not shipped.
//
// Environment
//   TMAPGEN_FAKE_GPU_LAUNCHES  a file; each launch appends one byte to it, so that launches are numbered
//                              1, 2, ... across the processes of one run (children forked one after another)
//   TMAPGEN_FAKE_GPU_ACTIONS   "N:ACTION[,N:ACTION...]": what launch N does:
//                                fault  the launch returns, then every call fails with
//                                       CUDA_ERROR_ILLEGAL_ADDRESS (700), as after a kernel's illegal access
//                                crash  the process is killed (SIGKILL) inside the launch
//                                hang   the launch never returns (the worker's watchdog ends the process)
//   TMAPGEN_FAKE_GPU_CC        the compute capability, "90" (default) or e.g. "100", "80"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0;
constexpr CUresult kIllegalAddress = 700;  // CUDA_ERROR_ILLEGAL_ADDRESS (cuda.h)
constexpr CUresult kNotFound = 500;        // CUDA_ERROR_NOT_FOUND (cuda.h)

CUresult g_sticky = kSuccess;

int Cc() {
  const char* e = std::getenv("TMAPGEN_FAKE_GPU_CC");
  return e != nullptr && e[0] != '\0' ? std::atoi(e) : 90;
}

// This launch's number (1-based, across processes), or 0 without TMAPGEN_FAKE_GPU_LAUNCHES.
long NextLaunch() {
  const char* path = std::getenv("TMAPGEN_FAKE_GPU_LAUNCHES");
  if (path == nullptr || path[0] == '\0') return 0;
  const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return 0;
  if (write(fd, "L", 1) != 1) {
    close(fd);
    return 0;
  }
  struct stat st;
  const long n = fstat(fd, &st) == 0 ? static_cast<long>(st.st_size) : 0;
  close(fd);
  return n;
}

std::string ActionFor(long launch) {
  const char* e = std::getenv("TMAPGEN_FAKE_GPU_ACTIONS");
  if (e == nullptr || launch <= 0) return "";
  const std::string all = e;
  size_t at = 0;
  while (at < all.size()) {
    size_t end = all.find(',', at);
    if (end == std::string::npos) end = all.size();
    const std::string item = all.substr(at, end - at);
    const size_t colon = item.find(':');
    if (colon != std::string::npos && std::atol(item.substr(0, colon).c_str()) == launch) return item.substr(colon + 1);
    at = end + 1;
  }
  return "";
}

}  // namespace

extern "C" {

CUresult cuGetErrorName(CUresult e, const char** s) {
  switch (e) {
    case kSuccess: *s = "CUDA_SUCCESS"; return kSuccess;
    case kIllegalAddress: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return kSuccess;
    case kNotFound: *s = "CUDA_ERROR_NOT_FOUND"; return kSuccess;
    default: *s = nullptr; return 1;
  }
}
CUresult cuGetErrorString(CUresult e, const char** s) {
  switch (e) {
    case kSuccess: *s = "no error"; return kSuccess;
    case kIllegalAddress: *s = "an illegal memory access was encountered"; return kSuccess;
    case kNotFound: *s = "named symbol not found"; return kSuccess;
    default: *s = nullptr; return 1;
  }
}
CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDriverGetVersion(int* v) {
  *v = 13000;
  return kSuccess;
}
CUresult cuDeviceGetCount(int* n) {
  *n = 1;
  return kSuccess;
}
CUresult cuDeviceGet(int* d, int ordinal) {
  if (ordinal != 0) return 101;  // CUDA_ERROR_INVALID_DEVICE
  *d = 0;
  return kSuccess;
}
CUresult cuDeviceGetName(char* name, int len, int) {
  std::strncpy(name, "Fake GPU (test double)", static_cast<size_t>(len));
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int* v, int attr, int) {
  switch (attr) {
    case 75: *v = Cc() / 10; return kSuccess;   // COMPUTE_CAPABILITY_MAJOR
    case 76: *v = Cc() % 10; return kSuccess;   // COMPUTE_CAPABILITY_MINOR
    case 16: *v = 132; return kSuccess;         // MULTIPROCESSOR_COUNT
    case 97: *v = 232448; return kSuccess;      // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    default: *v = 0; return kSuccess;
  }
}
CUresult cuDevicePrimaryCtxRetain(void** ctx, int) {
  *ctx = reinterpret_cast<void*>(0x1);
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease(int) { return kSuccess; }
CUresult cuCtxSetCurrent(void*) { return kSuccess; }
CUresult cuMemAlloc(unsigned long long* p, size_t bytes) {
  if (g_sticky != kSuccess) return g_sticky;
  void* m = nullptr;
  if (posix_memalign(&m, 256, bytes == 0 ? 1 : bytes) != 0) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
  std::memset(m, 0, bytes);
  *p = reinterpret_cast<uintptr_t>(m);
  return kSuccess;
}
CUresult cuMemFree(unsigned long long p) {
  std::free(reinterpret_cast<void*>(static_cast<uintptr_t>(p)));
  return g_sticky;
}
// Accepts every tiled map; its bytes are a pattern of the arguments (no kernel reads them).
CUresult cuTensorMapEncodeTiled(void* map, int type, unsigned rank, void* address, const uint64_t* dims,
                                const uint64_t*, const unsigned*, const unsigned*, int, int swizzle, int, int) {
  uint64_t* w = static_cast<uint64_t*>(map);
  std::memset(w, 0, 128);
  w[0] = reinterpret_cast<uintptr_t>(address);
  w[1] = static_cast<uint64_t>(type) | static_cast<uint64_t>(rank) << 8 | static_cast<uint64_t>(swizzle) << 16;
  for (unsigned i = 0; i < rank && i < 5; ++i) w[2 + i] = dims[i];
  return kSuccess;
}
CUresult cuModuleLoadData(void** mod, const void*) {
  *mod = reinterpret_cast<void*>(0x2);
  return kSuccess;
}
CUresult cuModuleGetFunction(void** f, void*, const char* name) {
  *f = const_cast<char*>(name);
  return kSuccess;
}
CUresult cuFuncSetAttribute(void*, int, int) { return kSuccess; }
CUresult cuLaunchKernelEx(const void*, void*, void**, void**) {
  if (g_sticky != kSuccess) return g_sticky;
  const std::string action = ActionFor(NextLaunch());
  if (action == "fault") g_sticky = kIllegalAddress;
  if (action == "crash") raise(SIGKILL);
  if (action == "hang")
    for (;;) pause();
  return kSuccess;
}
CUresult cuCtxSynchronize() { return g_sticky; }
CUresult cuMemcpyHtoD(unsigned long long dst, const void* src, size_t n) {
  if (g_sticky != kSuccess) return g_sticky;
  std::memcpy(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), src, n);
  return kSuccess;
}
CUresult cuMemcpyDtoH(void* dst, unsigned long long src, size_t n) {
  if (g_sticky != kSuccess) return g_sticky;
  std::memcpy(dst, reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), n);
  return kSuccess;
}
CUresult cuMemcpyDtoD(unsigned long long dst, unsigned long long src, size_t n) {
  if (g_sticky != kSuccess) return g_sticky;
  std::memmove(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), n);
  return kSuccess;
}
CUresult cuMemsetD8(unsigned long long dst, unsigned char v, size_t n) {
  if (g_sticky != kSuccess) return g_sticky;
  std::memset(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), v, n);
  return kSuccess;
}
CUresult cuEventCreate(void** e, unsigned) {
  *e = reinterpret_cast<void*>(0x3);
  return kSuccess;
}
CUresult cuEventRecord(void*, void*) { return g_sticky; }
CUresult cuEventElapsedTime(float* ms, void*, void*) {
  *ms = 1.0f;
  return g_sticky;
}
CUresult cuMemGetInfo(size_t* f, size_t* t) {
  *f = size_t{64} << 30;
  *t = size_t{80} << 30;
  return kSuccess;
}
CUresult cuOccupancyMaxActiveClusters(int* n, void*, const void*) {
  *n = 16;
  return kSuccess;
}

CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int, unsigned long long, int* status) {
  struct Entry {
    const char* name;
    void* fn;
  };
  static const Entry kTable[] = {
      {"cuGetErrorName", reinterpret_cast<void*>(&cuGetErrorName)},
      {"cuGetErrorString", reinterpret_cast<void*>(&cuGetErrorString)},
      {"cuInit", reinterpret_cast<void*>(&cuInit)},
      {"cuDriverGetVersion", reinterpret_cast<void*>(&cuDriverGetVersion)},
      {"cuDeviceGetCount", reinterpret_cast<void*>(&cuDeviceGetCount)},
      {"cuDeviceGet", reinterpret_cast<void*>(&cuDeviceGet)},
      {"cuDeviceGetName", reinterpret_cast<void*>(&cuDeviceGetName)},
      {"cuDeviceGetAttribute", reinterpret_cast<void*>(&cuDeviceGetAttribute)},
      {"cuDevicePrimaryCtxRetain", reinterpret_cast<void*>(&cuDevicePrimaryCtxRetain)},
      {"cuDevicePrimaryCtxRelease", reinterpret_cast<void*>(&cuDevicePrimaryCtxRelease)},
      {"cuCtxSetCurrent", reinterpret_cast<void*>(&cuCtxSetCurrent)},
      {"cuMemAlloc", reinterpret_cast<void*>(&cuMemAlloc)},
      {"cuMemFree", reinterpret_cast<void*>(&cuMemFree)},
      {"cuTensorMapEncodeTiled", reinterpret_cast<void*>(&cuTensorMapEncodeTiled)},
      {"cuModuleLoadData", reinterpret_cast<void*>(&cuModuleLoadData)},
      {"cuModuleGetFunction", reinterpret_cast<void*>(&cuModuleGetFunction)},
      {"cuFuncSetAttribute", reinterpret_cast<void*>(&cuFuncSetAttribute)},
      {"cuLaunchKernelEx", reinterpret_cast<void*>(&cuLaunchKernelEx)},
      {"cuCtxSynchronize", reinterpret_cast<void*>(&cuCtxSynchronize)},
      {"cuMemcpyHtoD", reinterpret_cast<void*>(&cuMemcpyHtoD)},
      {"cuMemcpyDtoH", reinterpret_cast<void*>(&cuMemcpyDtoH)},
      {"cuMemcpyDtoD", reinterpret_cast<void*>(&cuMemcpyDtoD)},
      {"cuMemsetD8", reinterpret_cast<void*>(&cuMemsetD8)},
      {"cuEventCreate", reinterpret_cast<void*>(&cuEventCreate)},
      {"cuEventRecord", reinterpret_cast<void*>(&cuEventRecord)},
      {"cuEventElapsedTime", reinterpret_cast<void*>(&cuEventElapsedTime)},
      {"cuMemGetInfo", reinterpret_cast<void*>(&cuMemGetInfo)},
      {"cuOccupancyMaxActiveClusters", reinterpret_cast<void*>(&cuOccupancyMaxActiveClusters)},
  };
  for (const Entry& e : kTable)
    if (std::strcmp(e.name, symbol) == 0) {
      *pfn = e.fn;
      if (status != nullptr) *status = 0;  // CU_GET_PROC_ADDRESS_SUCCESS
      return kSuccess;
    }
  *pfn = nullptr;
  if (status != nullptr) *status = 1;  // CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
  return kNotFound;
}

}  // extern "C"
