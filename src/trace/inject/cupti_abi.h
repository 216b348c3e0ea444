// cupti_abi.h: the few CUPTI and CUDA driver ABI declarations the injection library needs, declared
// here so that nothing includes or links the CUDA toolkit (CUPTI is dlopen'd at run time).
//
// Every value and layout below is the documented one of the CUDA 13.0 toolkit headers:
//   cupti_result.h      CUptiResult: CUPTI_SUCCESS 0, CUPTI_ERROR_NOT_INITIALIZED 15,
//                       CUPTI_ERROR_INSUFFICIENT_PRIVILEGES 35,
//                       CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED 39 (returned by cuptiSubscribe
//                       when another subscriber, or Nsight Systems/Compute, cuda-gdb, holds CUPTI).
//   cupti_callbacks.h   CUpti_ApiCallbackSite: CUPTI_API_ENTER 0, CUPTI_API_EXIT 1;
//                       CUpti_CallbackDomain: CUPTI_CB_DOMAIN_DRIVER_API 1;
//                       struct CUpti_CallbackData (field order and types as declared there);
//                       CUpti_CallbackFunc; CUpti_SubscriberParams for cuptiSubscribe_v2
//                       (structSize = CUPTI_CALLBACK_STRUCT_SIZE up to oldSubscriberSize = 32 bytes;
//                       oldSubscriberName needs CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN = 64 bytes).
//   cupti_driver_cbid.h CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled 697, ..._cuTensorMapEncodeIm2col 698,
//                       ..._cuTensorMapReplaceAddress 699, ..._cuTensorMapEncodeIm2colWide 781.
//   generated_cuda_meta.h  cuTensorMapEncodeTiled_params, cuTensorMapEncodeIm2col_params,
//                       cuTensorMapEncodeIm2colWide_params, cuTensorMapReplaceAddress_params: the
//                       callback's functionParams, one member per argument in declaration order.
//   cuda.h              CUDA_SUCCESS 0; CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75, _MINOR 76.
// The CUDA driver loads the library named by CUDA_INJECTION64_PATH during cuInit and calls its
// exported `int InitializeInjection(void)` (CUPTI documentation, "CUPTI injection"; the CUPTI samples'
// injection libraries).
#ifndef TMAPGEN_SRC_TRACE_INJECT_CUPTI_ABI_H_
#define TMAPGEN_SRC_TRACE_INJECT_CUPTI_ABI_H_

#include <cstddef>
#include <cstdint>

namespace tmapgen::trace::cupti {

using CUptiResult = int;
inline constexpr CUptiResult kSuccess = 0;
inline constexpr CUptiResult kErrorNotInitialized = 15;
inline constexpr CUptiResult kErrorInsufficientPrivileges = 35;
inline constexpr CUptiResult kErrorMultipleSubscribersNotSupported = 39;

using CallbackDomain = int;
inline constexpr CallbackDomain kDomainDriverApi = 1;
using CallbackId = uint32_t;
inline constexpr CallbackId kCbidEncodeTiled = 697;
inline constexpr CallbackId kCbidEncodeIm2col = 698;
inline constexpr CallbackId kCbidReplaceAddress = 699;
inline constexpr CallbackId kCbidEncodeIm2colWide = 781;

using ApiCallbackSite = int;
inline constexpr ApiCallbackSite kApiEnter = 0;
inline constexpr ApiCallbackSite kApiExit = 1;

struct CallbackData {
  ApiCallbackSite callbackSite;
  const char* functionName;
  const void* functionParams;
  void* functionReturnValue;
  const char* symbolName;
  void* context;
  uint32_t contextUid;
  uint64_t* correlationData;
  uint32_t correlationId;
};

using SubscriberHandle = void*;
using CallbackFunc = void (*)(void* userdata, CallbackDomain domain, CallbackId cbid, const void* cbdata);

struct SubscriberParams {
  size_t structSize;
  const char* subscriberName;
  char* oldSubscriberName;
  size_t oldSubscriberSize;
};
inline constexpr size_t kSubscriberParamsStructSize = 32;
inline constexpr size_t kOldSubscriberNameMinLen = 64;
static_assert(sizeof(SubscriberParams) == kSubscriberParamsStructSize, "CUpti_SubscriberParams layout");

using PfnSubscribe = CUptiResult (*)(SubscriberHandle*, CallbackFunc, void*);
using PfnSubscribeV2 = CUptiResult (*)(SubscriberHandle*, CallbackFunc, void*, SubscriberParams*);
using PfnUnsubscribe = CUptiResult (*)(SubscriberHandle);
using PfnEnableCallback = CUptiResult (*)(uint32_t, SubscriberHandle, CallbackDomain, CallbackId);
using PfnGetResultString = CUptiResult (*)(CUptiResult, const char**);
using PfnGetVersion = CUptiResult (*)(uint32_t*);

// functionParams of the four entry points (generated_cuda_meta.h). Enums are 4-byte ints.
struct EncodeTiledParams {
  void* tensorMap;
  int tensorDataType;
  uint32_t tensorRank;
  void* globalAddress;
  const uint64_t* globalDim;
  const uint64_t* globalStrides;
  const uint32_t* boxDim;
  const uint32_t* elementStrides;
  int interleave;
  int swizzle;
  int l2Promotion;
  int oobFill;
};
struct EncodeIm2colParams {
  void* tensorMap;
  int tensorDataType;
  uint32_t tensorRank;
  void* globalAddress;
  const uint64_t* globalDim;
  const uint64_t* globalStrides;
  const int* pixelBoxLowerCorner;
  const int* pixelBoxUpperCorner;
  uint32_t channelsPerPixel;
  uint32_t pixelsPerColumn;
  const uint32_t* elementStrides;
  int interleave;
  int swizzle;
  int l2Promotion;
  int oobFill;
};
struct EncodeIm2colWideParams {
  void* tensorMap;
  int tensorDataType;
  uint32_t tensorRank;
  void* globalAddress;
  const uint64_t* globalDim;
  const uint64_t* globalStrides;
  int pixelBoxLowerCornerWidth;
  int pixelBoxUpperCornerWidth;
  uint32_t channelsPerPixel;
  uint32_t pixelsPerColumn;
  const uint32_t* elementStrides;
  int interleave;
  int mode;
  int swizzle;
  int l2Promotion;
  int oobFill;
};
struct ReplaceAddressParams {
  void* tensorMap;
  void* globalAddress;
};

// CUDA driver entry points used to find the calling context's GPU (cuda.h).
using CUresult = int;
using CUdevice = int;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
using PfnCtxGetDevice = CUresult (*)(CUdevice*);
using PfnDeviceGetAttribute = CUresult (*)(int*, int, CUdevice);
using PfnDriverGetVersion = CUresult (*)(int*);

}  // namespace tmapgen::trace::cupti

#endif  // TMAPGEN_SRC_TRACE_INJECT_CUPTI_ABI_H_
