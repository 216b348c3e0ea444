// tmapgen run-time CUDA driver layer.
//
// Gives access to the driver's tensor-map encoders (cuTensorMapEncodeTiled,
// cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2colWide,
// cuTensorMapReplaceAddress) and to the little device plumbing they need,
// WITHOUT linking libcuda/libcudart and without including any CUDA header.
// The project therefore builds and runs on hosts with no CUDA toolkit and no
// GPU; there every call below fails cleanly instead of crashing.
//
// How the driver is found
//   CudaDriver::Get() dlopen()s DefaultLibraryPath() once, lazily, on first
//   use: the value of the environment variable TMAPGEN_LIBCUDA when it is set
//   and non-empty, else "libcuda.so.1". Only cuGetProcAddress_v2 (falling back
//   to cuGetProcAddress) is taken with dlsym; every other entry point is asked
//   of cuGetProcAddress with an explicit CUDA version (see the .cc for the
//   table) and CU_GET_PROC_ADDRESS_DEFAULT. Then cuInit(0) is called.
//   Get() never throws and never aborts. The library is never dlclose()d.
//
// Contract
//   info()            Always valid. available == true iff the library loaded,
//                     the mandatory entry points were found, cuInit(0)
//                     succeeded and at least one device exists. Otherwise
//                     why_unavailable says why (never empty then).
//                     driver_version is filled whenever cuDriverGetVersion
//                     could be called (even if cuInit failed), else 0.
//   Errors            Every fallible call returns absl::Status / StatusOr in
//                     tmapgen's vocabulary (src/util/status.h): kUnavailable
//                     without a usable driver, kNotFound for a device ordinal
//                     or entry point that does not exist, and a driver
//                     failure mapped from its CUresult by
//                     StatusCodeForCuResult (the message names the call and
//                     the CUDA error). An encoder's verdict is NOT an error:
//                     EncodeResult carries the driver's CUresult as data, which
//                     is what the validator is compared with.
//   GetDevice         Needs available; the device's name and attributes.
//   MakeCurrent       Retains the device's primary context (once per
//                     CudaDriver instance and device) and makes it current on
//                     the CALLING THREAD (CUDA contexts are per thread). The
//                     encoders need a current context, else the driver
//                     answers CUDA_ERROR_INVALID_CONTEXT (201).
//   Encode*           Pass the parameters through to the driver verbatim
//                     (enums as their uint32 values, addresses as uint64).
//                     EncodeResult::cu_result is the driver's CUresult, or
//                     kNotSubmitted (-1) when the driver was NOT called
//                     (library unavailable, encoder entry point missing, or
//                     rank > kMaxPassedRank); error_name / message then say
//                     why. map holds the 128-byte CUtensorMap on success and
//                     is all zero otherwise. Array entries past the arrays in
//                     the parameter structs are passed as zeros, so ranks up
//                     to kMaxPassedRank can be submitted without the driver
//                     reading out of bounds.
//                     (Observed with driver 13.0 on an H200: the encoders do
//                     not check that global_address is allocated memory, only
//                     its alignment, so maps can be encoded for probing
//                     without allocating.)
//   AllocDevice /     cuMemAlloc_v2 / cuMemFree_v2 (need a current context);
//   FreeDevice        optional conveniences for tests and probes.
//
// Thread safety
//   All members may be called concurrently from several threads: the object
//   is immutable after construction except for the retained-context table,
//   which a mutex guards. The driver's own calls are thread safe.
//   Get() uses a function-local static (thread-safe initialisation); its
//   instance is intentionally leaked so that no driver call runs during
//   static destruction. Instances from Open() release the primary contexts
//   they retained when destroyed; do not destroy one while another thread
//   still encodes through it.
//
// This header depends on no other project header (Abseil's status only).

#ifndef TMAPGEN_DRIVER_CUDA_DRIVER_H_
#define TMAPGEN_DRIVER_CUDA_DRIVER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tmapgen {
namespace driver {

// CUresult values used by callers and tests (same numbers as cuda.h).
inline constexpr int kCudaSuccess = 0;               // CUDA_SUCCESS
inline constexpr int kCudaErrorInvalidValue = 1;     // CUDA_ERROR_INVALID_VALUE
inline constexpr int kCudaErrorNotInitialized = 3;   // CUDA_ERROR_NOT_INITIALIZED
inline constexpr int kCudaErrorNoDevice = 100;       // CUDA_ERROR_NO_DEVICE
inline constexpr int kCudaErrorInvalidContext = 201; // CUDA_ERROR_INVALID_CONTEXT
// Not a CUresult: the wrapper did not call the driver (see EncodeResult).
inline constexpr int kNotSubmitted = -1;
// Largest tensorRank the wrapper hands to the driver (arrays are zero-padded
// to this length); larger ranks are answered with kNotSubmitted.
inline constexpr uint32_t kMaxPassedRank = 16;

struct DriverInfo {
  bool available = false;
  std::string why_unavailable;  // non-empty iff !available
  std::string library_path;     // what was passed to dlopen
  int driver_version = 0;       // cuDriverGetVersion, e.g. 13000; 0 if unknown
  int device_count = 0;         // 0 unless available
};

struct DeviceInfo {
  int ordinal = -1;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;                  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  int max_smem_per_block_optin = 0;  // ..._MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, bytes
  bool tensor_map_supported = false; // compute capability >= 9.0
};

class CudaDriver {
 public:
  // The process-wide instance, opened from DefaultLibraryPath() on first use.
  static CudaDriver& Get();
  // A separate instance opened from `library_path` (mainly for tests).
  // Never returns null; check info().available.
  static std::unique_ptr<CudaDriver> Open(const std::string& library_path);
  // $TMAPGEN_LIBCUDA if set and non-empty, else "libcuda.so.1".
  static std::string DefaultLibraryPath();

  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  const DriverInfo& info() const;
  // OK when info().available, else kUnavailable saying why.
  absl::Status Availability() const;

  absl::StatusOr<DeviceInfo> GetDevice(int ordinal) const;
  absl::Status MakeCurrent(int ordinal);

  // Device memory (needs a current context). Addresses are CUdeviceptr values.
  absl::StatusOr<uint64_t> AllocDevice(std::size_t bytes);
  absl::Status FreeDevice(uint64_t device_address);

  // OK for CUDA_SUCCESS, else a status with StatusCodeForCuResult's code and
  // the message "<what> failed: CUDA_ERROR_... (<the driver's words>)".
  absl::Status CudaStatus(int cu_result, const std::string& what) const;

  struct EncodeResult {
    int cu_result = kNotSubmitted;  // CUresult, or kNotSubmitted
    std::string error_name;  // "CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE", ...
                             // or "TMAPGEN_NOT_SUBMITTED"
    std::string message;     // "" on success; else e.g. "CUDA_ERROR_INVALID_VALUE
                             // (invalid argument)", or why not submitted
    alignas(64) uint64_t map[16] = {};  // CUtensorMap bytes; zero unless success
    bool ok() const { return cu_result == kCudaSuccess; }
  };

  // Mirrors cuTensorMapEncodeTiled. Only the first `rank` entries of
  // global_dim/box_dim/element_strides and `rank - 1` of global_strides are
  // meaningful to the driver.
  struct TiledParams {
    uint32_t data_type = 0;  // CUtensorMapDataType
    uint32_t rank = 0;
    uint64_t global_address = 0;
    uint64_t global_dim[5] = {};
    uint64_t global_strides[4] = {};  // bytes
    uint32_t box_dim[5] = {};
    uint32_t element_strides[5] = {};
    uint32_t interleave = 0;    // CUtensorMapInterleave
    uint32_t swizzle = 0;       // CUtensorMapSwizzle
    uint32_t l2_promotion = 0;  // CUtensorMapL2promotion
    uint32_t oob_fill = 0;      // CUtensorMapFloatOOBfill
  };

  // Mirrors cuTensorMapEncodeIm2col. lower/upper corners hold rank - 2
  // entries, passed through verbatim (cuda.h calls them the {D, H, W}
  // pixel-box offsets; ranges shrink with rank: rank 3 +-32768, rank 4
  // [-128, 127], rank 5 [-16, 15]).
  struct Im2colParams {
    uint32_t data_type = 0;
    uint32_t rank = 0;
    uint64_t global_address = 0;
    uint64_t global_dim[5] = {};
    uint64_t global_strides[4] = {};
    int32_t lower_corner[3] = {};
    int32_t upper_corner[3] = {};
    uint32_t channels_per_pixel = 0;
    uint32_t pixels_per_column = 0;
    uint32_t element_strides[5] = {};
    uint32_t interleave = 0;
    uint32_t swizzle = 0;
    uint32_t l2_promotion = 0;
    uint32_t oob_fill = 0;
  };

  // Mirrors cuTensorMapEncodeIm2colWide (CUDA 12.8+ drivers).
  struct Im2colWideParams {
    uint32_t data_type = 0;
    uint32_t rank = 0;
    uint64_t global_address = 0;
    uint64_t global_dim[5] = {};
    uint64_t global_strides[4] = {};
    int32_t lower_corner_width = 0;
    int32_t upper_corner_width = 0;
    uint32_t channels_per_pixel = 0;
    uint32_t pixels_per_column = 0;
    uint32_t element_strides[5] = {};
    uint32_t interleave = 0;
    uint32_t wide_mode = 0;  // CUtensorMapIm2ColWideMode
    uint32_t swizzle = 0;
    uint32_t l2_promotion = 0;
    uint32_t oob_fill = 0;
  };

  EncodeResult EncodeTiled(const TiledParams& p) const;
  EncodeResult EncodeIm2col(const Im2colParams& p) const;
  EncodeResult EncodeIm2colWide(const Im2colWideParams& p) const;
  // cuTensorMapReplaceAddress on a copy of `map`; the result holds the
  // updated map on success.
  EncodeResult ReplaceAddress(const uint64_t (&map)[16],
                              uint64_t global_address) const;

  // Whether the entry point was found (false whenever !info().available).
  bool has_encode_tiled() const;
  bool has_im2col() const;
  bool has_im2col_wide() const;

  // Any other driver entry point, looked up with cuGetProcAddress for `cuda_version` (the PFN_<name>_v<N>
  // version of cudaTypedefs.h); null when the driver is unavailable or lacks it. The caller casts it to the
  // matching signature (src/gpu/runtime/gpu_api.cc does this for modules, launches, copies and events).
  void* GetProcAddress(const char* symbol, int cuda_version) const;

  // "CUDA_ERROR_INVALID_VALUE" etc. Uses cuGetErrorName when available, else
  // a built-in table of common codes, else "CUDA_ERROR_<n>".
  std::string ErrorName(int cu_result) const;

 private:
  struct Impl;
  explicit CudaDriver(const std::string& library_path);
  std::unique_ptr<Impl> impl_;
};

// tmapgen's status code for a CUresult: INVALID_VALUE -> kInvalidArgument,
// OUT_OF_MEMORY -> kResourceExhausted, NOT_INITIALIZED / NO_DEVICE /
// INVALID_DEVICE / DEVICE_UNAVAILABLE / CALL_REQUIRES_NEWER_DRIVER -> kUnavailable, INVALID_CONTEXT /
// NO_BINARY_FOR_GPU / INVALID_PTX -> kFailedPrecondition, NOT_FOUND ->
// kNotFound, LAUNCH_TIMEOUT -> kDeadlineExceeded, NOT_SUPPORTED ->
// kUnimplemented, kNotSubmitted -> kUnavailable, anything else (kernel
// faults included) -> kInternal; CUDA_SUCCESS -> kOk.
absl::StatusCode StatusCodeForCuResult(int cu_result);

// The nvcc/ptxas target for a compute capability: 9.0 -> "sm_90a",
// 10.0 -> "sm_100a", 10.3 -> "sm_103a", 11.0 -> "sm_110a", 12.0 -> "sm_120a",
// 12.1 -> "sm_121a" (the arch-specific targets that expose TMA/tensor-core
// features), any other -> "sm_<major><minor>" (e.g. 8.0 -> "sm_80").
// Returns "" for major <= 0 or minor outside [0, 9].
std::string TargetForComputeCapability(int major, int minor);

}  // namespace driver
}  // namespace tmapgen

#endif  // TMAPGEN_DRIVER_CUDA_DRIVER_H_
