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
//   cuda.h              CUDA_SUCCESS 0; CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75, _MINOR 76;
//                       CU_POINTER_ATTRIBUTE_BUFFER_ID 7, _DEVICE_ORDINAL 9, _RANGE_START_ADDR 11,
//                       _RANGE_SIZE 12; CU_LAUNCH_PARAM_END 0, _BUFFER_POINTER 1, _BUFFER_SIZE 2;
//                       CUlaunchConfig, CUDA_KERNEL_NODE_PARAMS (v1 and v2 share the members read here).
//   cupti_driver_cbid.h (launches, graph kernel nodes, frees, unloads) and cupti_runtime_cbid.h
//                       (runtime launches and frees): the ids below; generated_cuda_meta.h and
//                       generated_cuda_runtime_api_meta.h: their parameter blocks. __cudaLaunchKernel
//                       (CUDA 13's <<<>>>) has no block in generated_cuda_runtime_api_meta.h; its
//                       arguments are cudaLaunchKernel's with a cudaKernel_t (= CUkernel) first, and the
//                       block is read that way (tests/trace/cupti_abi_check.cc checks the others).
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

inline constexpr CallbackDomain kDomainRuntimeApi = 2;

// Driver launches and graph kernel nodes.
inline constexpr CallbackId kCbidLaunchKernel = 307;
inline constexpr CallbackId kCbidLaunchKernelPtsz = 442;
inline constexpr CallbackId kCbidLaunchCooperativeKernel = 477;
inline constexpr CallbackId kCbidLaunchCooperativeKernelPtsz = 478;
inline constexpr CallbackId kCbidLaunchKernelEx = 652;
inline constexpr CallbackId kCbidLaunchKernelExPtsz = 653;
inline constexpr CallbackId kCbidGraphAddKernelNode = 502;
inline constexpr CallbackId kCbidGraphKernelNodeSetParams = 521;
inline constexpr CallbackId kCbidGraphExecKernelNodeSetParams = 538;
inline constexpr CallbackId kCbidGraphAddKernelNodeV2 = 689;
inline constexpr CallbackId kCbidGraphKernelNodeSetParamsV2 = 691;
inline constexpr CallbackId kCbidGraphExecKernelNodeSetParamsV2 = 692;
inline constexpr CallbackId kCbidGraphLaunch = 514;
inline constexpr CallbackId kCbidGraphLaunchPtsz = 515;
// Executable graphs: made, updated, destroyed (their kernel nodes' maps are checked again at each launch).
inline constexpr CallbackId kCbidGraphInstantiate = 513;
inline constexpr CallbackId kCbidGraphExecDestroy = 516;
inline constexpr CallbackId kCbidGraphExecUpdate = 561;
inline constexpr CallbackId kCbidGraphInstantiateV2 = 578;
inline constexpr CallbackId kCbidGraphInstantiateWithFlags = 643;
inline constexpr CallbackId kCbidGraphInstantiateWithParams = 656;
inline constexpr CallbackId kCbidGraphInstantiateWithParamsPtsz = 657;
inline constexpr CallbackId kCbidGraphExecUpdateV2 = 696;
// cuda.h CUgraphNodeType.
inline constexpr int kGraphNodeTypeKernel = 0;
inline constexpr int kGraphNodeTypeGraph = 4;
// Driver calls that free memory or unload code (they make cached allocation and layout answers stale).
inline constexpr CallbackId kCbidCtxDestroy = 11;
inline constexpr CallbackId kCbidModuleUnload = 22;
inline constexpr CallbackId kCbidMemFree = 33;
inline constexpr CallbackId kCbidMemFreeHost = 38;
inline constexpr CallbackId kCbidMemFreeV2 = 245;
inline constexpr CallbackId kCbidMemHostUnregister = 302;
inline constexpr CallbackId kCbidCtxDestroyV2 = 322;
inline constexpr CallbackId kCbidMemAddressFree = 548;
inline constexpr CallbackId kCbidMemRelease = 550;
inline constexpr CallbackId kCbidMemUnmap = 552;
inline constexpr CallbackId kCbidMemFreeAsync = 600;
inline constexpr CallbackId kCbidMemFreeAsyncPtsz = 601;
inline constexpr CallbackId kCbidMemPoolTrimTo = 602;
inline constexpr CallbackId kCbidMemPoolDestroy = 608;
inline constexpr CallbackId kCbidLibraryUnload = 680;
// Runtime launches and frees.
inline constexpr CallbackId kRtCbidFree = 22;
inline constexpr CallbackId kRtCbidFreeHost = 26;
inline constexpr CallbackId kRtCbidDeviceReset = 164;
inline constexpr CallbackId kRtCbidLaunchKernel = 211;
inline constexpr CallbackId kRtCbidLaunchKernelPtsz = 214;
inline constexpr CallbackId kRtCbidLaunchCooperativeKernel = 269;
inline constexpr CallbackId kRtCbidFreeAsync = 375;
inline constexpr CallbackId kRtCbidFreeAsyncPtsz = 376;
inline constexpr CallbackId kRtCbidMemPoolTrimTo = 377;
inline constexpr CallbackId kRtCbidLaunchKernelExC = 430;
inline constexpr CallbackId kRtCbidLaunchKernelExCPtsz = 431;
inline constexpr CallbackId kRtCbidLaunchKernelHandle = 505;      // __cudaLaunchKernel (CUDA 13 <<<>>>)
inline constexpr CallbackId kRtCbidLaunchKernelHandlePtsz = 506;  // __cudaLaunchKernel_ptsz

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

// Launch parameter blocks (generated_cuda_meta.h, generated_cuda_runtime_api_meta.h).
struct LaunchKernelParams {  // cuLaunchKernel(_ptsz)
  void* f;
  uint32_t gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void* hStream;
  void** kernelParams;
  void** extra;
};
struct LaunchConfig {  // CUlaunchConfig
  uint32_t gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void* hStream;
  void* attrs;
  uint32_t numAttrs;
};
struct LaunchKernelExParams {  // cuLaunchKernelEx(_ptsz)
  const LaunchConfig* config;
  void* f;
  void** kernelParams;
  void** extra;
};
struct LaunchCooperativeKernelParams {  // cuLaunchCooperativeKernel(_ptsz)
  void* f;
  uint32_t gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void* hStream;
  void** kernelParams;
};
struct KernelNodeParams {  // CUDA_KERNEL_NODE_PARAMS (v2; v1 ends after `extra`)
  void* func;
  uint32_t gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;  // v2 only: used when func is null
  void* ctx;
};
struct GraphAddKernelNodeParams {  // cuGraphAddKernelNode(_v2)
  void* phGraphNode;
  void* hGraph;
  const void* dependencies;
  size_t numDependencies;
  const KernelNodeParams* nodeParams;
};
struct GraphKernelNodeSetParamsParams {  // cuGraphKernelNodeSetParams(_v2)
  void* hNode;
  const KernelNodeParams* nodeParams;
};
struct GraphInstantiateParams {  // cuGraphInstantiate(_v2), cuGraphInstantiateWithFlags, ...WithParams(_ptsz)
  void** phGraphExec;              // the members every form starts with
  void* hGraph;
};
struct GraphLaunchParams {  // cuGraphLaunch(_ptsz)
  void* hGraph;  // the executable graph (a CUgraphExec; named so in generated_cuda_meta.h)
  void* hStream;
};
struct GraphExecDestroyParams {  // cuGraphExecDestroy
  void* hGraphExec;
};
struct GraphExecUpdateParams {  // cuGraphExecUpdate(_v2): the members both forms start with
  void* hGraphExec;
  void* hGraph;
};
struct GraphExecKernelNodeSetParamsParams {  // cuGraphExecKernelNodeSetParams(_v2)
  void* hGraphExec;
  void* hNode;
  const KernelNodeParams* nodeParams;
};
struct Dim3 {
  uint32_t x, y, z;
};
struct RtLaunchKernelParams {  // cudaLaunchKernel(_ptsz), cudaLaunchCooperativeKernel; __cudaLaunchKernel
  const void* func;            // the host stub; __cudaLaunchKernel: a cudaKernel_t (CUkernel)
  Dim3 gridDim;
  Dim3 blockDim;
  void** args;
  size_t sharedMem;
  void* stream;
};
struct RtLaunchConfig {  // cudaLaunchConfig_t
  Dim3 gridDim;
  Dim3 blockDim;
  size_t dynamicSmemBytes;
  void* stream;
  void* attrs;
  uint32_t numAttrs;
};
struct RtLaunchKernelExCParams {  // cudaLaunchKernelExC(_ptsz)
  const RtLaunchConfig* config;
  const void* func;
  void** args;
};

inline constexpr uintptr_t kLaunchParamEnd = 0;
inline constexpr uintptr_t kLaunchParamBufferPointer = 1;
inline constexpr uintptr_t kLaunchParamBufferSize = 2;

inline constexpr int kPointerAttrBufferId = 7;
inline constexpr int kPointerAttrDeviceOrdinal = 9;
inline constexpr int kPointerAttrRangeStartAddr = 11;
inline constexpr int kPointerAttrRangeSize = 12;
inline constexpr int kErrorInvalidValue = 1;

// CUDA driver entry points used to find the calling context's GPU (cuda.h).
using CUresult = int;
using CUdevice = int;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
using PfnCtxGetDevice = CUresult (*)(CUdevice*);
using PfnCtxGetCurrent = CUresult (*)(void**);  // cuCtxGetCurrent(CUcontext*)
using PfnStreamGetCtx = CUresult (*)(void* stream, void** ctx);  // cuStreamGetCtx
using PfnCtxPushPop = CUresult (*)(void*);  // cuCtxPushCurrent_v2(CUcontext), cuCtxPopCurrent_v2(CUcontext*)
using PfnGraphGetNodes = CUresult (*)(void* graph, void** nodes, size_t* n);         // cuGraphGetNodes
using PfnGraphNodeGetType = CUresult (*)(void* node, int* type);                     // cuGraphNodeGetType
using PfnGraphKernelNodeGetParams = CUresult (*)(void* node, KernelNodeParams* p);   // cuGraphKernelNodeGetParams_v2
using PfnGraphChildGraph = CUresult (*)(void* node, void** graph);                   // cuGraphChildGraphNodeGetGraph
using PfnDeviceGetAttribute = CUresult (*)(int*, int, CUdevice);
using PfnDriverGetVersion = CUresult (*)(int*);
// And those the launch checks use (cuda.h; cuFuncGetParamInfo and cuKernelGetParamInfo since CUDA 12.4).
using PfnFuncGetParamInfo = CUresult (*)(void* func, size_t index, size_t* offset, size_t* size);
using PfnFuncGetName = CUresult (*)(const char** name, void* func);
using PfnPointerGetAttributes = CUresult (*)(unsigned num, int* attributes, void** data, uint64_t ptr);
using PfnPointerGetAttribute = CUresult (*)(void* data, int attribute, uint64_t ptr);
using PfnStreamSynchronize = CUresult (*)(void* stream);
using PfnMemcpyDtoH = CUresult (*)(void* dst, uint64_t src, size_t bytes);
using PfnStreamIsCapturing = CUresult (*)(void* stream, int* status);
// The runtime's cudaGetFuncBySymbol (a host stub -> cudaFunction_t, which is a CUfunction); found with
// dlsym where the runtime is a shared library.
using PfnGetFuncBySymbol = int (*)(void** function, const void* symbol);
using PfnRuntimeError = int (*)();  // cudaPeekAtLastError, cudaGetLastError

}  // namespace tmapgen::trace::cupti

#endif  // TMAPGEN_SRC_TRACE_INJECT_CUPTI_ABI_H_
