#include "src/gpu/runtime/gpu_api.h"

#include <cstring>

extern const unsigned char tmapgen_kernels_fatbin[];
extern const unsigned long tmapgen_kernels_fatbin_size;

namespace tmapgen::gpu {
namespace {

// ABI-compatible declarations (cuda.h / cudaTypedefs.h, CUDA 13.0); see src/driver/cuda_driver.cc.
using CUresult = int;
using CUdeviceptr = unsigned long long;
using CUmodule = void*;
using CUfunction = void*;
using CUevent = void*;
using CUstream = void*;

struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct { unsigned x, y, z; } cluster_dim;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute layout");
struct CUlaunchConfig {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_mem_bytes;
  CUstream stream;
  CUlaunchAttribute* attrs;
  unsigned num_attrs;
};
constexpr int kAttrClusterDimension = 4;         // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
constexpr int kFuncAttrMaxDynamicSmem = 8;       // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

using PFN_ModuleLoadData = CUresult (*)(CUmodule*, const void*);
using PFN_ModuleGetFunction = CUresult (*)(CUfunction*, CUmodule, const char*);
using PFN_LaunchKernelEx = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);
using PFN_MemcpyHtoD = CUresult (*)(CUdeviceptr, const void*, size_t);
using PFN_MemcpyDtoH = CUresult (*)(void*, CUdeviceptr, size_t);
using PFN_MemcpyDtoD = CUresult (*)(CUdeviceptr, CUdeviceptr, size_t);
using PFN_MemsetD8 = CUresult (*)(CUdeviceptr, unsigned char, size_t);
using PFN_CtxSynchronize = CUresult (*)();
using PFN_FuncSetAttribute = CUresult (*)(CUfunction, int, int);
using PFN_EventCreate = CUresult (*)(CUevent*, unsigned);
using PFN_EventRecord = CUresult (*)(CUevent, CUstream);
using PFN_EventElapsedTime = CUresult (*)(float*, CUevent, CUevent);
using PFN_MemGetInfo = CUresult (*)(size_t*, size_t*);
using PFN_OccupancyMaxActiveClusters = CUresult (*)(int*, CUfunction, const CUlaunchConfig*);

enum Fn {
  kModuleLoadData, kModuleGetFunction, kLaunchKernelEx, kMemcpyHtoD, kMemcpyDtoH, kMemcpyDtoD, kMemsetD8,
  kCtxSynchronize, kFuncSetAttribute, kEventCreate, kEventRecord, kEventElapsedTime, kMemGetInfo,
  kOccupancyMaxActiveClusters, kNumFns
};
struct FnEntry {
  const char* name;
  int version;
};
constexpr FnEntry kFns[kNumFns] = {
    {"cuModuleLoadData", 2000},  {"cuModuleGetFunction", 2000}, {"cuLaunchKernelEx", 11060},
    {"cuMemcpyHtoD", 3020},      {"cuMemcpyDtoH", 3020},        {"cuMemcpyDtoD", 3020},
    {"cuMemsetD8", 3020},        {"cuCtxSynchronize", 2000},    {"cuFuncSetAttribute", 9000},
    {"cuEventCreate", 2000},     {"cuEventRecord", 2000},       {"cuEventElapsedTime", 2000},
    {"cuMemGetInfo", 3020},      {"cuOccupancyMaxActiveClusters", 11070},
};
const char* const kKernelNames[Gpu::kNumKernels] = {"tmapgen_tma_check", "tmapgen_tma_check_batch",
                                                     "tmapgen_copy_bandwidth", "tmapgen_wgmma_check",
                                                     "tmapgen_codegen_example", "tmapgen_sm_copy",
                                                     "tmapgen_mcast_check", "tmapgen_mcast_bandwidth"};

template <typename F>
F As(void* p) {
  return reinterpret_cast<F>(p);
}

}  // namespace

size_t EmbeddedFatbinSize() { return static_cast<size_t>(tmapgen_kernels_fatbin_size); }
const unsigned char* EmbeddedFatbin() { return tmapgen_kernels_fatbin; }

std::string Gpu::Describe(int r) const { return drv_ ? drv_->ErrorName(r) : "CUDA_ERROR_" + std::to_string(r); }

absl::Status Gpu::Check(int r, const char* what) const {
  if (r == 0) return absl::OkStatus();
  return absl::Status(driver::StatusCodeForCuResult(r), std::string(what) + " failed: " + Describe(r));
}

int Gpu::driver_version() const { return drv_ ? drv_->info().driver_version : 0; }

absl::StatusOr<std::string> Gpu::OpenNew(std::unique_ptr<Gpu>* gpu) {
  *gpu = std::make_unique<Gpu>();
  if (absl::Status opened = (*gpu)->Open(); !opened.ok()) return opened;
  return (*gpu)->Description();
}

std::string Gpu::Description() const {
  return dev_.name + " (sm_" + std::to_string(dev_.cc_major) + std::to_string(dev_.cc_minor) + "), driver " +
         std::to_string(driver_version());
}

absl::Status Gpu::Open() {
  drv_ = &driver::CudaDriver::Get();
  if (!drv_->info().available) return absl::UnavailableError("no CUDA driver: " + drv_->info().why_unavailable);
  absl::StatusOr<driver::DeviceInfo> got = drv_->GetDevice(0);
  if (!got.ok()) return got.status();
  dev_ = *std::move(got);
  if (!dev_.tensor_map_supported)
    return absl::FailedPreconditionError(dev_.name + " is sm_" + std::to_string(dev_.cc_major) +
                                         std::to_string(dev_.cc_minor) + ": tensor copies need sm_90 or later");
  if (absl::Status st = drv_->MakeCurrent(0); !st.ok()) return st;
  for (int i = 0; i < kNumFns; ++i) {
    fn_[i] = drv_->GetProcAddress(kFns[i].name, kFns[i].version);
    if (fn_[i] == nullptr) return absl::NotFoundError(std::string("the driver does not provide ") + kFns[i].name);
  }
  if (EmbeddedFatbinSize() == 0)
    return absl::UnimplementedError(
        "this tmapgen was built without nvcc: it holds no GPU kernels (rebuild on a host with the CUDA toolkit)");
  CUmodule mod = nullptr;
  int r = As<PFN_ModuleLoadData>(fn_[kModuleLoadData])(&mod, EmbeddedFatbin());
  if (r != 0)
    return absl::Status(driver::StatusCodeForCuResult(r),
                        "cuModuleLoadData failed: " + Describe(r) +
                            " (the embedded kernels are for sm_90a and sm_100a; this GPU is sm_" +
                            std::to_string(dev_.cc_major) + std::to_string(dev_.cc_minor) + ")");
  module_ = mod;
  for (int k = 0; k < kNumKernels; ++k) {
    r = As<PFN_ModuleGetFunction>(fn_[kModuleGetFunction])(&kernels_[k], mod, kKernelNames[k]);
    if (absl::Status st = Check(r, kKernelNames[k]); !st.ok()) return st;
  }
  for (auto& e : events_)
    if (absl::Status st = Check(As<PFN_EventCreate>(fn_[kEventCreate])(&e, 0), "cuEventCreate"); !st.ok()) return st;
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Gpu::Alloc(size_t bytes) { return drv_->AllocDevice(bytes); }
bool Gpu::Free(uint64_t addr) { return drv_->FreeDevice(addr).ok(); }
absl::Status Gpu::HtoD(uint64_t dst, const void* src, size_t n) {
  return Check(As<PFN_MemcpyHtoD>(fn_[kMemcpyHtoD])(dst, src, n), "cuMemcpyHtoD");
}
absl::Status Gpu::DtoH(void* dst, uint64_t src, size_t n) {
  return Check(As<PFN_MemcpyDtoH>(fn_[kMemcpyDtoH])(dst, src, n), "cuMemcpyDtoH");
}
absl::Status Gpu::DtoD(uint64_t dst, uint64_t src, size_t n) {
  return Check(As<PFN_MemcpyDtoD>(fn_[kMemcpyDtoD])(dst, src, n), "cuMemcpyDtoD");
}
absl::Status Gpu::Memset(uint64_t dst, uint8_t v, size_t n) {
  return Check(As<PFN_MemsetD8>(fn_[kMemsetD8])(dst, v, n), "cuMemsetD8");
}
absl::Status Gpu::Sync() { return Check(As<PFN_CtxSynchronize>(fn_[kCtxSynchronize])(), "kernel"); }
bool Gpu::FreeMemory(size_t* f, size_t* t) { return As<PFN_MemGetInfo>(fn_[kMemGetInfo])(f, t) == 0; }

absl::Status Gpu::SetMaxDynamicSmem(KernelId k, int bytes) {
  return Check(As<PFN_FuncSetAttribute>(fn_[kFuncSetAttribute])(kernels_[k], kFuncAttrMaxDynamicSmem, bytes),
               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
}

namespace {
void Config(const LaunchShape& s, CUlaunchConfig* cfg, CUlaunchAttribute* attr) {
  std::memset(attr, 0, sizeof *attr);
  *cfg = CUlaunchConfig{};
  cfg->grid_x = s.grid;
  cfg->grid_y = cfg->grid_z = 1;
  cfg->block_x = s.block;
  cfg->block_y = cfg->block_z = 1;
  cfg->shared_mem_bytes = s.smem;
  cfg->stream = nullptr;
  if (s.cluster > 0) {
    attr->id = kAttrClusterDimension;
    attr->value.cluster_dim = {s.cluster, 1, 1};
    cfg->attrs = attr;
    cfg->num_attrs = 1;
  }
}
}  // namespace

absl::StatusOr<int> Gpu::MaxActiveClusters(KernelId k, const LaunchShape& s) {
  CUlaunchAttribute attr;
  CUlaunchConfig cfg;
  Config(s, &cfg, &attr);
  int n = 0;
  if (absl::Status st = Check(As<PFN_OccupancyMaxActiveClusters>(fn_[kOccupancyMaxActiveClusters])(&n, kernels_[k], &cfg),
                              "cuOccupancyMaxActiveClusters");
      !st.ok())
    return st;
  return n;
}

absl::Status Gpu::Launch(KernelId k, const LaunchShape& s, void** params) {
  CUlaunchAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  CUlaunchConfig cfg{};
  cfg.grid_x = s.grid;
  cfg.grid_y = cfg.grid_z = 1;
  cfg.block_x = s.block;
  cfg.block_y = cfg.block_z = 1;
  cfg.shared_mem_bytes = s.smem;
  cfg.stream = nullptr;
  if (s.cluster > 0) {
    attr.id = kAttrClusterDimension;
    attr.value.cluster_dim = {s.cluster, 1, 1};
    cfg.attrs = &attr;
    cfg.num_attrs = 1;
  }
  return Check(As<PFN_LaunchKernelEx>(fn_[kLaunchKernelEx])(&cfg, kernels_[k], params, nullptr), "cuLaunchKernelEx");
}

absl::Status Gpu::Record(int slot) {
  return Check(As<PFN_EventRecord>(fn_[kEventRecord])(events_[slot], nullptr), "cuEventRecord");
}
absl::StatusOr<float> Gpu::ElapsedMs(int a, int b) {
  float ms = 0;
  if (absl::Status st = Check(As<PFN_EventElapsedTime>(fn_[kEventElapsedTime])(&ms, events_[a], events_[b]),
                              "cuEventElapsedTime");
      !st.ok())
    return st;
  return ms;
}

}  // namespace tmapgen::gpu
