// Run-time CUDA driver layer: see cuda_driver.h for the contract.
//
// No CUDA header is included and libcuda is not linked: the few driver types
// and entry-point signatures needed are declared below, ABI-compatible with
// cuda.h / cudaTypedefs.h of CUDA 13.0 (checked against
// /usr/local/cuda/include). Entry points are obtained with cuGetProcAddress
// and these explicit CUDA versions (the PFN_<name>_v<NNNNN> typedef each
// version selects):
//
//   cuInit                      2000   PFN_cuInit_v2000
//   cuDriverGetVersion          2020   PFN_cuDriverGetVersion_v2020
//   cuDeviceGet                 2000   PFN_cuDeviceGet_v2000
//   cuDeviceGetCount            2000   PFN_cuDeviceGetCount_v2000
//   cuDeviceGetName             2000   PFN_cuDeviceGetName_v2000
//   cuDeviceGetAttribute        2000   PFN_cuDeviceGetAttribute_v2000
//   cuDevicePrimaryCtxRetain    7000   PFN_cuDevicePrimaryCtxRetain_v7000
//   cuDevicePrimaryCtxRelease  11000   PFN_cuDevicePrimaryCtxRelease_v11000
//   cuCtxSetCurrent             4000   PFN_cuCtxSetCurrent_v4000
//   cuGetErrorName              6000   PFN_cuGetErrorName_v6000
//   cuGetErrorString            6000   PFN_cuGetErrorString_v6000
//   cuMemAlloc                  3020   PFN_cuMemAlloc_v3020   (cuMemAlloc_v2)
//   cuMemFree                   3020   PFN_cuMemFree_v3020    (cuMemFree_v2)
//   cuTensorMapEncodeTiled     12000   PFN_cuTensorMapEncodeTiled_v12000
//   cuTensorMapEncodeIm2col    12000   PFN_cuTensorMapEncodeIm2col_v12000
//   cuTensorMapReplaceAddress  12000   PFN_cuTensorMapReplaceAddress_v12000
//   cuTensorMapEncodeIm2colWide 12080  PFN_cuTensorMapEncodeIm2colWide_v12080

#include "src/driver/cuda_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace tmapgen {
namespace driver {
namespace {

// ---- Minimal ABI-compatible declarations (cuda.h, CUDA 13.0) --------------
// All CUDA enums are C enums with int-sized representation; passing them as
// int / unsigned int is ABI-identical on every supported platform.
using CUresult = int;
using CUdevice = int;                      // CUdevice_v1
using CUdeviceptr = unsigned long long;    // CUdeviceptr_v2 (LP64)
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;         // unused; declared for completeness
using CUfunction = struct CUfunc_st*;      // unused
using CUstream = struct CUstream_st*;      // unused
using cuuint32_t = uint32_t;
using cuuint64_t = uint64_t;
using CUdevice_attribute = int;
using CUdriverProcAddressQueryResult = int;
using CUtensorMapDataType = int;
using CUtensorMapInterleave = int;
using CUtensorMapSwizzle = int;
using CUtensorMapL2promotion = int;
using CUtensorMapFloatOOBfill = int;
using CUtensorMapIm2ColWideMode = int;

// CUtensorMap: 16 qwords. cuda.h 13.0 declares it alignas(128) (12.x used
// 64; the encoders require 64). We encode into a 128-aligned buffer, which
// satisfies both, then copy out.
struct alignas(128) CUtensorMap {
  cuuint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap must be 128 bytes");

constexpr CUresult CUDA_SUCCESS = 0;
constexpr unsigned long long CU_GET_PROC_ADDRESS_DEFAULT = 0;
constexpr CUdriverProcAddressQueryResult CU_GET_PROC_ADDRESS_SUCCESS = 0;

constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// cuGetProcAddress_v2 (CUDA >= 12.0) and the older cuGetProcAddress (11.3).
using PFN_cuGetProcAddress_v12000 = CUresult (*)(
    const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
    CUdriverProcAddressQueryResult* symbolStatus);
using PFN_cuGetProcAddress_v11030 = CUresult (*)(const char* symbol,
                                                 void** pfn, int cudaVersion,
                                                 cuuint64_t flags);

using PFN_cuInit = CUresult (*)(unsigned int Flags);
using PFN_cuDriverGetVersion = CUresult (*)(int* driverVersion);
using PFN_cuDeviceGet = CUresult (*)(CUdevice* device, int ordinal);
using PFN_cuDeviceGetCount = CUresult (*)(int* count);
using PFN_cuDeviceGetName = CUresult (*)(char* name, int len, CUdevice dev);
using PFN_cuDeviceGetAttribute = CUresult (*)(int* pi,
                                              CUdevice_attribute attrib,
                                              CUdevice dev);
using PFN_cuDevicePrimaryCtxRetain = CUresult (*)(CUcontext* pctx,
                                                  CUdevice dev);
using PFN_cuDevicePrimaryCtxRelease = CUresult (*)(CUdevice dev);
using PFN_cuCtxSetCurrent = CUresult (*)(CUcontext ctx);
using PFN_cuGetErrorName = CUresult (*)(CUresult error, const char** pStr);
using PFN_cuGetErrorString = CUresult (*)(CUresult error, const char** pStr);
using PFN_cuMemAlloc = CUresult (*)(CUdeviceptr* dptr, size_t bytesize);
using PFN_cuMemFree = CUresult (*)(CUdeviceptr dptr);
using PFN_cuTensorMapEncodeTiled = CUresult (*)(
    CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
    const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
    const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);
using PFN_cuTensorMapEncodeIm2col = CUresult (*)(
    CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
    const cuuint64_t* globalStrides, const int* pixelBoxLowerCorner,
    const int* pixelBoxUpperCorner, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t* elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill);
using PFN_cuTensorMapEncodeIm2colWide = CUresult (*)(
    CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
    const cuuint64_t* globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t* elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);
using PFN_cuTensorMapReplaceAddress = CUresult (*)(CUtensorMap* tensorMap,
                                                   void* globalAddress);

// Fallback names for when cuGetErrorName is not reachable.
const char* BuiltinErrorName(int code) {
  switch (code) {
    case 0: return "CUDA_SUCCESS";
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 4: return "CUDA_ERROR_DEINITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 201: return "CUDA_ERROR_INVALID_CONTEXT";
    case 304: return "CUDA_ERROR_OPERATING_SYSTEM";
    case 500: return "CUDA_ERROR_NOT_FOUND";
    case 801: return "CUDA_ERROR_NOT_SUPPORTED";
    case 999: return "CUDA_ERROR_UNKNOWN";
    default: return nullptr;
  }
}

constexpr const char kNotSubmittedName[] = "TMAPGEN_NOT_SUBMITTED";

}  // namespace

struct CudaDriver::Impl {
  DriverInfo info;
  void* lib = nullptr;

  PFN_cuGetProcAddress_v12000 get_proc_v2 = nullptr;
  PFN_cuGetProcAddress_v11030 get_proc_v1 = nullptr;

  PFN_cuInit init = nullptr;
  PFN_cuDriverGetVersion driver_get_version = nullptr;
  PFN_cuDeviceGet device_get = nullptr;
  PFN_cuDeviceGetCount device_get_count = nullptr;
  PFN_cuDeviceGetName device_get_name = nullptr;
  PFN_cuDeviceGetAttribute device_get_attribute = nullptr;
  PFN_cuDevicePrimaryCtxRetain primary_ctx_retain = nullptr;
  PFN_cuDevicePrimaryCtxRelease primary_ctx_release = nullptr;
  PFN_cuCtxSetCurrent ctx_set_current = nullptr;
  PFN_cuGetErrorName get_error_name = nullptr;
  PFN_cuGetErrorString get_error_string = nullptr;
  PFN_cuMemAlloc mem_alloc = nullptr;
  PFN_cuMemFree mem_free = nullptr;
  PFN_cuTensorMapEncodeTiled encode_tiled = nullptr;
  PFN_cuTensorMapEncodeIm2col encode_im2col = nullptr;
  PFN_cuTensorMapEncodeIm2colWide encode_im2col_wide = nullptr;
  PFN_cuTensorMapReplaceAddress replace_address = nullptr;

  // Primary contexts retained by this instance, indexed by ordinal.
  std::mutex mu;
  std::vector<CUcontext> retained;  // guarded by mu

  // Looks `symbol` up through cuGetProcAddress for `cuda_version`; returns
  // null when not found (or the driver is older than `cuda_version`).
  void* Lookup(const char* symbol, int cuda_version) const {
    void* fn = nullptr;
    CUresult r;
    if (get_proc_v2 != nullptr) {
      CUdriverProcAddressQueryResult status = -1;
      r = get_proc_v2(symbol, &fn, cuda_version, CU_GET_PROC_ADDRESS_DEFAULT,
                      &status);
      if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS)
        return nullptr;
    } else if (get_proc_v1 != nullptr) {
      r = get_proc_v1(symbol, &fn, cuda_version, CU_GET_PROC_ADDRESS_DEFAULT);
      if (r != CUDA_SUCCESS) return nullptr;
    } else {
      return nullptr;
    }
    return fn;
  }

  template <typename Fn>
  void Load(Fn* slot, const char* symbol, int cuda_version) {
    *slot = reinterpret_cast<Fn>(Lookup(symbol, cuda_version));
  }

  std::string Name(int code) const {
    if (code == kNotSubmitted) return kNotSubmittedName;
    if (get_error_name != nullptr) {
      const char* s = nullptr;
      if (get_error_name(code, &s) == CUDA_SUCCESS && s != nullptr) return s;
    }
    if (const char* s = BuiltinErrorName(code)) return s;
    return "CUDA_ERROR_" + std::to_string(code);
  }

  std::string Describe(int code) const {
    std::string out = Name(code);
    if (get_error_string != nullptr) {
      const char* s = nullptr;
      if (get_error_string(code, &s) == CUDA_SUCCESS && s != nullptr) {
        out += " (";
        out += s;
        out += ")";
      }
    }
    return out;
  }

  void Open(const std::string& path);

  EncodeResult NotSubmitted(const std::string& why) const {
    EncodeResult r;
    r.cu_result = kNotSubmitted;
    r.error_name = kNotSubmittedName;
    r.message = why;
    return r;
  }

  // Fills name/message of `r` from r.cu_result and copies the map on success.
  void Finish(EncodeResult* r, const CUtensorMap& map) const {
    r->error_name = Name(r->cu_result);
    if (r->cu_result == CUDA_SUCCESS) {
      std::memcpy(r->map, map.opaque, sizeof(r->map));
      r->message.clear();
    } else {
      std::memset(r->map, 0, sizeof(r->map));
      r->message = Describe(r->cu_result);
    }
  }

  // Returns a non-empty reason when the encoder cannot be submitted.
  std::string CheckSubmittable(const void* entry, const char* name,
                               uint32_t rank) const {
    if (!info.available)
      return std::string("CUDA driver unavailable: ") + info.why_unavailable;
    if (entry == nullptr)
      return std::string(name) +
             " not provided by this driver (driver version " +
             std::to_string(info.driver_version) + ")";
    if (rank > kMaxPassedRank)
      return "rank " + std::to_string(rank) + " exceeds " +
             std::to_string(kMaxPassedRank) +
             "; not passed to the driver (it would read past the arrays)";
    return std::string();
  }
};

void CudaDriver::Impl::Open(const std::string& path) {
  info.library_path = path;
  auto fail = [this](std::string why) {
    info.available = false;
    info.device_count = 0;
    info.why_unavailable = std::move(why);
  };

  dlerror();  // clear
  lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* e = dlerror();
    fail("dlopen(\"" + path + "\") failed: " +
         (e != nullptr ? std::string(e) : std::string("unknown error")));
    return;
  }

  get_proc_v2 = reinterpret_cast<PFN_cuGetProcAddress_v12000>(
      dlsym(lib, "cuGetProcAddress_v2"));
  if (get_proc_v2 == nullptr) {
    get_proc_v1 = reinterpret_cast<PFN_cuGetProcAddress_v11030>(
        dlsym(lib, "cuGetProcAddress"));
  }
  if (get_proc_v2 == nullptr && get_proc_v1 == nullptr) {
    fail("\"" + path +
         "\" exports neither cuGetProcAddress_v2 nor cuGetProcAddress "
         "(not a CUDA driver, or older than CUDA 11.3)");
    return;
  }

  Load(&get_error_name, "cuGetErrorName", 6000);
  Load(&get_error_string, "cuGetErrorString", 6000);
  Load(&init, "cuInit", 2000);
  Load(&driver_get_version, "cuDriverGetVersion", 2020);
  Load(&device_get, "cuDeviceGet", 2000);
  Load(&device_get_count, "cuDeviceGetCount", 2000);
  Load(&device_get_name, "cuDeviceGetName", 2000);
  Load(&device_get_attribute, "cuDeviceGetAttribute", 2000);
  Load(&primary_ctx_retain, "cuDevicePrimaryCtxRetain", 7000);
  Load(&primary_ctx_release, "cuDevicePrimaryCtxRelease", 11000);
  Load(&ctx_set_current, "cuCtxSetCurrent", 4000);
  Load(&mem_alloc, "cuMemAlloc", 3020);
  Load(&mem_free, "cuMemFree", 3020);
  Load(&encode_tiled, "cuTensorMapEncodeTiled", 12000);
  Load(&encode_im2col, "cuTensorMapEncodeIm2col", 12000);
  Load(&replace_address, "cuTensorMapReplaceAddress", 12000);
  Load(&encode_im2col_wide, "cuTensorMapEncodeIm2colWide", 12080);

  if (driver_get_version != nullptr) {
    int v = 0;
    if (driver_get_version(&v) == CUDA_SUCCESS) info.driver_version = v;
  }

  struct Required {
    const void* fn;
    const char* name;
  };
  const Required required[] = {
      {reinterpret_cast<const void*>(init), "cuInit"},
      {reinterpret_cast<const void*>(device_get), "cuDeviceGet"},
      {reinterpret_cast<const void*>(device_get_count), "cuDeviceGetCount"},
      {reinterpret_cast<const void*>(device_get_name), "cuDeviceGetName"},
      {reinterpret_cast<const void*>(device_get_attribute),
       "cuDeviceGetAttribute"},
      {reinterpret_cast<const void*>(primary_ctx_retain),
       "cuDevicePrimaryCtxRetain"},
      {reinterpret_cast<const void*>(ctx_set_current), "cuCtxSetCurrent"},
  };
  for (const Required& r : required) {
    if (r.fn == nullptr) {
      fail(std::string("cuGetProcAddress could not find ") + r.name + " in \"" +
           path + "\"");
      return;
    }
  }

  CUresult r = init(0);
  if (r != CUDA_SUCCESS) {
    fail("cuInit(0) failed: " + Describe(r));
    return;
  }
  int count = 0;
  r = device_get_count(&count);
  if (r != CUDA_SUCCESS) {
    fail("cuDeviceGetCount failed: " + Describe(r));
    return;
  }
  if (count <= 0) {
    fail("the CUDA driver reports no devices");
    return;
  }
  info.device_count = count;
  info.available = true;
  info.why_unavailable.clear();
  retained.assign(static_cast<size_t>(count), nullptr);
}

// ---- CudaDriver -------------------------------------------------------------

CudaDriver::CudaDriver(const std::string& library_path)
    : impl_(new Impl) {
  impl_->Open(library_path);
}

CudaDriver::~CudaDriver() {
  // Release what this instance retained. The library stays loaded: unloading
  // libcuda while the process may still use it is unsafe.
  if (impl_ != nullptr && impl_->primary_ctx_release != nullptr) {
    std::lock_guard<std::mutex> lock(impl_->mu);
    for (size_t i = 0; i < impl_->retained.size(); ++i) {
      if (impl_->retained[i] != nullptr) {
        impl_->primary_ctx_release(static_cast<CUdevice>(i));
        impl_->retained[i] = nullptr;
      }
    }
  }
}

std::string CudaDriver::DefaultLibraryPath() {
  const char* env = std::getenv("TMAPGEN_LIBCUDA");
  if (env != nullptr && env[0] != '\0') return env;
  return "libcuda.so.1";
}

CudaDriver& CudaDriver::Get() {
  // Leaked on purpose: no driver calls during static destruction.
  static CudaDriver* const instance = new CudaDriver(DefaultLibraryPath());
  return *instance;
}

std::unique_ptr<CudaDriver> CudaDriver::Open(const std::string& library_path) {
  return std::unique_ptr<CudaDriver>(new CudaDriver(library_path));
}

const DriverInfo& CudaDriver::info() const { return impl_->info; }

bool CudaDriver::has_encode_tiled() const {
  return impl_->info.available && impl_->encode_tiled != nullptr;
}
bool CudaDriver::has_im2col() const {
  return impl_->info.available && impl_->encode_im2col != nullptr;
}
bool CudaDriver::has_im2col_wide() const {
  return impl_->info.available && impl_->encode_im2col_wide != nullptr;
}

void* CudaDriver::GetProcAddress(const char* symbol, int cuda_version) const {
  if (!impl_->info.available) return nullptr;
  return impl_->Lookup(symbol, cuda_version);
}

std::string CudaDriver::ErrorName(int cu_result) const {
  return impl_->Name(cu_result);
}

absl::StatusCode StatusCodeForCuResult(int cu_result) {
  switch (cu_result) {
    case 0: return absl::StatusCode::kOk;
    case 1: return absl::StatusCode::kInvalidArgument;     // CUDA_ERROR_INVALID_VALUE
    case 2: return absl::StatusCode::kResourceExhausted;   // CUDA_ERROR_OUT_OF_MEMORY
    case 3:                                                // CUDA_ERROR_NOT_INITIALIZED
    case 4:                                                // CUDA_ERROR_DEINITIALIZED
    case 34:                                               // CUDA_ERROR_STUB_LIBRARY
    case 36:                                               // CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER
    case 46:                                               // CUDA_ERROR_DEVICE_UNAVAILABLE
    case 100:                                              // CUDA_ERROR_NO_DEVICE
    case 101:                                              // CUDA_ERROR_INVALID_DEVICE
    case 999: return absl::StatusCode::kUnavailable;        // CUDA_ERROR_UNKNOWN (driver not usable)
    case 201:                                              // CUDA_ERROR_INVALID_CONTEXT
    case 209:                                              // CUDA_ERROR_NO_BINARY_FOR_GPU
    case 218:                                              // CUDA_ERROR_INVALID_PTX
    case 222: return absl::StatusCode::kFailedPrecondition;  // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
    case 500: return absl::StatusCode::kNotFound;           // CUDA_ERROR_NOT_FOUND
    case 702: return absl::StatusCode::kDeadlineExceeded;   // CUDA_ERROR_LAUNCH_TIMEOUT
    case 801: return absl::StatusCode::kUnimplemented;      // CUDA_ERROR_NOT_SUPPORTED
    case kNotSubmitted: return absl::StatusCode::kUnavailable;
    default: return absl::StatusCode::kInternal;            // faults (700, 719, ...) and the unexpected
  }
}

absl::Status CudaDriver::CudaStatus(int cu_result, const std::string& what) const {
  if (cu_result == kCudaSuccess) return absl::OkStatus();
  return absl::Status(StatusCodeForCuResult(cu_result), what + " failed: " + impl_->Describe(cu_result));
}

absl::Status CudaDriver::Availability() const {
  if (impl_->info.available) return absl::OkStatus();
  return absl::UnavailableError("CUDA driver unavailable: " + impl_->info.why_unavailable);
}

namespace {
absl::Status NoSuchDevice(int ordinal, int count) {
  return absl::NotFoundError("device ordinal " + std::to_string(ordinal) + " out of range [0, " +
                             std::to_string(count) + ")");
}
}  // namespace

absl::StatusOr<DeviceInfo> CudaDriver::GetDevice(int ordinal) const {
  const Impl& d = *impl_;
  if (absl::Status st = Availability(); !st.ok()) return st;
  if (ordinal < 0 || ordinal >= d.info.device_count) return NoSuchDevice(ordinal, d.info.device_count);
  CUdevice dev = 0;
  CUresult r = d.device_get(&dev, ordinal);
  if (r != CUDA_SUCCESS) return CudaStatus(r, "cuDeviceGet(" + std::to_string(ordinal) + ")");
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  r = d.device_get_name(name, static_cast<int>(sizeof(name) - 1), dev);
  if (r != CUDA_SUCCESS) return CudaStatus(r, "cuDeviceGetName");
  info.name = name;
  struct Attr {
    CUdevice_attribute attr;
    int* dst;
    const char* what;
  };
  const Attr attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.cc_major,
       "COMPUTE_CAPABILITY_MAJOR"},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.cc_minor,
       "COMPUTE_CAPABILITY_MINOR"},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.sm_count,
       "MULTIPROCESSOR_COUNT"},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &info.max_smem_per_block_optin, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"},
  };
  for (const Attr& a : attrs) {
    r = d.device_get_attribute(a.dst, a.attr, dev);
    if (r != CUDA_SUCCESS) return CudaStatus(r, std::string("cuDeviceGetAttribute(") + a.what + ")");
  }
  info.tensor_map_supported = info.cc_major >= 9;
  return info;
}

absl::Status CudaDriver::MakeCurrent(int ordinal) {
  Impl& d = *impl_;
  if (absl::Status st = Availability(); !st.ok()) return st;
  if (ordinal < 0 || ordinal >= d.info.device_count) return NoSuchDevice(ordinal, d.info.device_count);
  CUcontext ctx = nullptr;
  {
    std::lock_guard<std::mutex> lock(d.mu);
    ctx = d.retained[static_cast<size_t>(ordinal)];
    if (ctx == nullptr) {
      CUdevice dev = 0;
      CUresult r = d.device_get(&dev, ordinal);
      if (r != CUDA_SUCCESS) return CudaStatus(r, "cuDeviceGet(" + std::to_string(ordinal) + ")");
      r = d.primary_ctx_retain(&ctx, dev);
      if (r != CUDA_SUCCESS) return CudaStatus(r, "cuDevicePrimaryCtxRetain");
      if (ctx == nullptr) return absl::InternalError("cuDevicePrimaryCtxRetain returned no context");
      d.retained[static_cast<size_t>(ordinal)] = ctx;
    }
  }
  return CudaStatus(d.ctx_set_current(ctx), "cuCtxSetCurrent");
}

absl::StatusOr<uint64_t> CudaDriver::AllocDevice(std::size_t bytes) {
  const Impl& d = *impl_;
  if (absl::Status st = Availability(); !st.ok()) return st;
  if (d.mem_alloc == nullptr) return absl::NotFoundError("cuMemAlloc_v2 not found in the driver");
  CUdeviceptr p = 0;
  const CUresult r = d.mem_alloc(&p, bytes);
  if (r != CUDA_SUCCESS) return CudaStatus(r, "cuMemAlloc(" + std::to_string(bytes) + ")");
  return static_cast<uint64_t>(p);
}

absl::Status CudaDriver::FreeDevice(uint64_t device_address) {
  const Impl& d = *impl_;
  if (absl::Status st = Availability(); !st.ok()) return st;
  if (d.mem_free == nullptr) return absl::NotFoundError("cuMemFree_v2 not found in the driver");
  return CudaStatus(d.mem_free(static_cast<CUdeviceptr>(device_address)), "cuMemFree");
}

namespace {
// Zero-padded copies of the parameter arrays (see kMaxPassedRank).
struct Padded {
  cuuint64_t global_dim[kMaxPassedRank] = {};
  cuuint64_t global_strides[kMaxPassedRank] = {};
  cuuint32_t box_dim[kMaxPassedRank] = {};
  cuuint32_t element_strides[kMaxPassedRank] = {};
  int lower[kMaxPassedRank] = {};
  int upper[kMaxPassedRank] = {};
};

template <typename T, typename U, size_t N>
void CopyInto(T (&dst)[kMaxPassedRank], const U (&src)[N]) {
  static_assert(N <= kMaxPassedRank, "source array too long");
  for (size_t i = 0; i < N; ++i) dst[i] = static_cast<T>(src[i]);
}

void* AsPointer(uint64_t address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}
}  // namespace

CudaDriver::EncodeResult CudaDriver::EncodeTiled(const TiledParams& p) const {
  const Impl& d = *impl_;
  std::string why = d.CheckSubmittable(
      reinterpret_cast<const void*>(d.encode_tiled), "cuTensorMapEncodeTiled",
      p.rank);
  if (!why.empty()) return d.NotSubmitted(why);
  Padded a;
  CopyInto(a.global_dim, p.global_dim);
  CopyInto(a.global_strides, p.global_strides);
  CopyInto(a.box_dim, p.box_dim);
  CopyInto(a.element_strides, p.element_strides);
  CUtensorMap map = {};
  EncodeResult r;
  r.cu_result = d.encode_tiled(
      &map, static_cast<CUtensorMapDataType>(p.data_type), p.rank,
      AsPointer(p.global_address), a.global_dim, a.global_strides, a.box_dim,
      a.element_strides, static_cast<CUtensorMapInterleave>(p.interleave),
      static_cast<CUtensorMapSwizzle>(p.swizzle),
      static_cast<CUtensorMapL2promotion>(p.l2_promotion),
      static_cast<CUtensorMapFloatOOBfill>(p.oob_fill));
  d.Finish(&r, map);
  return r;
}

CudaDriver::EncodeResult CudaDriver::EncodeIm2col(
    const Im2colParams& p) const {
  const Impl& d = *impl_;
  std::string why = d.CheckSubmittable(
      reinterpret_cast<const void*>(d.encode_im2col),
      "cuTensorMapEncodeIm2col", p.rank);
  if (!why.empty()) return d.NotSubmitted(why);
  Padded a;
  CopyInto(a.global_dim, p.global_dim);
  CopyInto(a.global_strides, p.global_strides);
  CopyInto(a.lower, p.lower_corner);
  CopyInto(a.upper, p.upper_corner);
  CopyInto(a.element_strides, p.element_strides);
  CUtensorMap map = {};
  EncodeResult r;
  r.cu_result = d.encode_im2col(
      &map, static_cast<CUtensorMapDataType>(p.data_type), p.rank,
      AsPointer(p.global_address), a.global_dim, a.global_strides, a.lower,
      a.upper, p.channels_per_pixel, p.pixels_per_column, a.element_strides,
      static_cast<CUtensorMapInterleave>(p.interleave),
      static_cast<CUtensorMapSwizzle>(p.swizzle),
      static_cast<CUtensorMapL2promotion>(p.l2_promotion),
      static_cast<CUtensorMapFloatOOBfill>(p.oob_fill));
  d.Finish(&r, map);
  return r;
}

CudaDriver::EncodeResult CudaDriver::EncodeIm2colWide(
    const Im2colWideParams& p) const {
  const Impl& d = *impl_;
  std::string why = d.CheckSubmittable(
      reinterpret_cast<const void*>(d.encode_im2col_wide),
      "cuTensorMapEncodeIm2colWide", p.rank);
  if (!why.empty()) return d.NotSubmitted(why);
  Padded a;
  CopyInto(a.global_dim, p.global_dim);
  CopyInto(a.global_strides, p.global_strides);
  CopyInto(a.element_strides, p.element_strides);
  CUtensorMap map = {};
  EncodeResult r;
  r.cu_result = d.encode_im2col_wide(
      &map, static_cast<CUtensorMapDataType>(p.data_type), p.rank,
      AsPointer(p.global_address), a.global_dim, a.global_strides,
      p.lower_corner_width, p.upper_corner_width, p.channels_per_pixel,
      p.pixels_per_column, a.element_strides,
      static_cast<CUtensorMapInterleave>(p.interleave),
      static_cast<CUtensorMapIm2ColWideMode>(p.wide_mode),
      static_cast<CUtensorMapSwizzle>(p.swizzle),
      static_cast<CUtensorMapL2promotion>(p.l2_promotion),
      static_cast<CUtensorMapFloatOOBfill>(p.oob_fill));
  d.Finish(&r, map);
  return r;
}

CudaDriver::EncodeResult CudaDriver::ReplaceAddress(
    const uint64_t (&map)[16], uint64_t global_address) const {
  const Impl& d = *impl_;
  std::string why = d.CheckSubmittable(
      reinterpret_cast<const void*>(d.replace_address),
      "cuTensorMapReplaceAddress", 0);
  if (!why.empty()) return d.NotSubmitted(why);
  CUtensorMap m;
  std::memcpy(m.opaque, map, sizeof(m.opaque));
  EncodeResult r;
  r.cu_result = d.replace_address(&m, AsPointer(global_address));
  d.Finish(&r, m);
  return r;
}

}  // namespace driver
}  // namespace tmapgen
