// cupti_abi_check.cc: the injection library's own declarations of the CUPTI ABI (src/trace/inject/
// cupti_abi.h) against the CUDA toolkit's headers: every layout, id and value it relies on. Compiled by
// cupti_abi_check.sh where the CUPTI headers are installed (the compile is the test).
#include <cstddef>

#include <cupti.h>  // includes cupti_callbacks.h, cupti_driver_cbid.h, cupti_result.h and generated_cuda_meta.h

#include "src/trace/inject/cupti_abi.h"

namespace c = tmapgen::trace::cupti;
#define SAME_OFFSET(A, B, F) static_assert(offsetof(A, F) == offsetof(B, F), #A "::" #F)

static_assert(sizeof(c::CallbackData) == sizeof(CUpti_CallbackData), "CUpti_CallbackData size");
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, callbackSite);
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, functionParams);
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, functionReturnValue);
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, context);
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, contextUid);
SAME_OFFSET(c::CallbackData, CUpti_CallbackData, correlationId);
static_assert(sizeof(c::SubscriberParams) == CUpti_SubscriberParams_STRUCT_SIZE, "CUpti_SubscriberParams size");
SAME_OFFSET(c::SubscriberParams, CUpti_SubscriberParams, oldSubscriberName);
SAME_OFFSET(c::SubscriberParams, CUpti_SubscriberParams, oldSubscriberSize);
static_assert(c::kOldSubscriberNameMinLen == CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN, "old subscriber name");

static_assert(sizeof(c::EncodeTiledParams) == sizeof(cuTensorMapEncodeTiled_params), "tiled params");
SAME_OFFSET(c::EncodeTiledParams, cuTensorMapEncodeTiled_params, tensorRank);
SAME_OFFSET(c::EncodeTiledParams, cuTensorMapEncodeTiled_params, globalAddress);
SAME_OFFSET(c::EncodeTiledParams, cuTensorMapEncodeTiled_params, boxDim);
SAME_OFFSET(c::EncodeTiledParams, cuTensorMapEncodeTiled_params, elementStrides);
SAME_OFFSET(c::EncodeTiledParams, cuTensorMapEncodeTiled_params, oobFill);
static_assert(sizeof(c::EncodeIm2colParams) == sizeof(cuTensorMapEncodeIm2col_params), "im2col params");
SAME_OFFSET(c::EncodeIm2colParams, cuTensorMapEncodeIm2col_params, pixelBoxUpperCorner);
SAME_OFFSET(c::EncodeIm2colParams, cuTensorMapEncodeIm2col_params, pixelsPerColumn);
SAME_OFFSET(c::EncodeIm2colParams, cuTensorMapEncodeIm2col_params, elementStrides);
SAME_OFFSET(c::EncodeIm2colParams, cuTensorMapEncodeIm2col_params, oobFill);
static_assert(sizeof(c::EncodeIm2colWideParams) == sizeof(cuTensorMapEncodeIm2colWide_params), "wide params");
SAME_OFFSET(c::EncodeIm2colWideParams, cuTensorMapEncodeIm2colWide_params, pixelBoxUpperCornerWidth);
SAME_OFFSET(c::EncodeIm2colWideParams, cuTensorMapEncodeIm2colWide_params, elementStrides);
SAME_OFFSET(c::EncodeIm2colWideParams, cuTensorMapEncodeIm2colWide_params, mode);
SAME_OFFSET(c::EncodeIm2colWideParams, cuTensorMapEncodeIm2colWide_params, oobFill);
static_assert(sizeof(c::ReplaceAddressParams) == sizeof(cuTensorMapReplaceAddress_params), "replace params");
SAME_OFFSET(c::ReplaceAddressParams, cuTensorMapReplaceAddress_params, globalAddress);

static_assert(c::kCbidEncodeTiled == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled, "cbid tiled");
static_assert(c::kCbidEncodeIm2col == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col, "cbid im2col");
static_assert(c::kCbidEncodeIm2colWide == CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide, "cbid wide");
static_assert(c::kCbidReplaceAddress == CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress, "cbid replace");
static_assert(c::kDomainDriverApi == CUPTI_CB_DOMAIN_DRIVER_API, "domain");
static_assert(c::kApiEnter == CUPTI_API_ENTER && c::kApiExit == CUPTI_API_EXIT, "sites");
static_assert(c::kSuccess == CUPTI_SUCCESS, "success");
static_assert(c::kErrorNotInitialized == CUPTI_ERROR_NOT_INITIALIZED, "not initialized");
static_assert(c::kErrorInsufficientPrivileges == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "privileges");
static_assert(c::kErrorMultipleSubscribersNotSupported == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "multiple");
static_assert(c::kAttrComputeCapabilityMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cc major");
static_assert(c::kAttrComputeCapabilityMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cc minor");

static_assert(c::kDomainRuntimeApi == CUPTI_CB_DOMAIN_RUNTIME_API, "runtime domain");
static_assert(c::kCbidLaunchKernel == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cbid");
static_assert(c::kCbidLaunchKernelPtsz == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, "cbid");
static_assert(c::kCbidLaunchCooperativeKernel == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, "cbid");
static_assert(c::kCbidLaunchCooperativeKernelPtsz == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, "cbid");
static_assert(c::kCbidLaunchKernelEx == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cbid");
static_assert(c::kCbidLaunchKernelExPtsz == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, "cbid");
static_assert(c::kCbidGraphAddKernelNode == CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode, "cbid");
static_assert(c::kCbidGraphKernelNodeSetParams == CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams, "cbid");
static_assert(c::kCbidGraphExecKernelNodeSetParams == CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams, "cbid");
static_assert(c::kCbidGraphAddKernelNodeV2 == CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2, "cbid");
static_assert(c::kCbidGraphKernelNodeSetParamsV2 == CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2, "cbid");
static_assert(c::kCbidGraphExecKernelNodeSetParamsV2 == CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2, "cbid");
static_assert(c::kCbidGraphLaunch == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cbid");
static_assert(c::kCbidGraphLaunchPtsz == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, "cbid");
static_assert(c::kCbidGraphInstantiate == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate, "cbid");
static_assert(c::kCbidGraphExecDestroy == CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy, "cbid");
static_assert(c::kCbidGraphExecUpdate == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate, "cbid");
static_assert(c::kCbidGraphInstantiateV2 == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2, "cbid");
static_assert(c::kCbidGraphInstantiateWithFlags == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, "cbid");
static_assert(c::kCbidGraphInstantiateWithParams == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams, "cbid");
static_assert(c::kCbidGraphInstantiateWithParamsPtsz == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz,
              "cbid");
static_assert(c::kCbidGraphExecUpdateV2 == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, "cbid");
static_assert(c::kGraphNodeTypeKernel == CU_GRAPH_NODE_TYPE_KERNEL, "node type");
static_assert(c::kGraphNodeTypeGraph == CU_GRAPH_NODE_TYPE_GRAPH, "node type");
static_assert(c::kCbidCtxDestroy == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy, "cbid");
static_assert(c::kCbidModuleUnload == CUPTI_DRIVER_TRACE_CBID_cuModuleUnload, "cbid");
static_assert(c::kCbidMemFree == CUPTI_DRIVER_TRACE_CBID_cuMemFree, "cbid");
static_assert(c::kCbidMemFreeHost == CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost, "cbid");
static_assert(c::kCbidMemFreeV2 == CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cbid");
static_assert(c::kCbidMemHostUnregister == CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, "cbid");
static_assert(c::kCbidCtxDestroyV2 == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2, "cbid");
static_assert(c::kCbidMemAddressFree == CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree, "cbid");
static_assert(c::kCbidMemRelease == CUPTI_DRIVER_TRACE_CBID_cuMemRelease, "cbid");
static_assert(c::kCbidMemUnmap == CUPTI_DRIVER_TRACE_CBID_cuMemUnmap, "cbid");
static_assert(c::kCbidMemFreeAsync == CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync, "cbid");
static_assert(c::kCbidMemFreeAsyncPtsz == CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz, "cbid");
static_assert(c::kCbidMemPoolTrimTo == CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo, "cbid");
static_assert(c::kCbidMemPoolDestroy == CUPTI_DRIVER_TRACE_CBID_cuMemPoolDestroy, "cbid");
static_assert(c::kCbidLibraryUnload == CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload, "cbid");
static_assert(c::kRtCbidFree == CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cbid");
static_assert(c::kRtCbidFreeHost == CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020, "cbid");
static_assert(c::kRtCbidDeviceReset == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, "cbid");
static_assert(c::kRtCbidLaunchKernel == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cbid");
static_assert(c::kRtCbidLaunchKernelPtsz == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, "cbid");
static_assert(c::kRtCbidLaunchCooperativeKernel == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, "cbid");
static_assert(c::kRtCbidFreeAsync == CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020, "cbid");
static_assert(c::kRtCbidFreeAsyncPtsz == CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020, "cbid");
static_assert(c::kRtCbidMemPoolTrimTo == CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolTrimTo_v11020, "cbid");
static_assert(c::kRtCbidLaunchKernelExC == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, "cbid");
static_assert(c::kRtCbidLaunchKernelExCPtsz == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060, "cbid");
static_assert(c::kRtCbidLaunchKernelHandle == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, "cbid");
static_assert(c::kRtCbidLaunchKernelHandlePtsz == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000, "cbid");

static_assert(sizeof(c::LaunchKernelParams) == sizeof(cuLaunchKernel_params), "cuLaunchKernel params");
SAME_OFFSET(c::LaunchKernelParams, cuLaunchKernel_params, hStream);
SAME_OFFSET(c::LaunchKernelParams, cuLaunchKernel_params, kernelParams);
SAME_OFFSET(c::LaunchKernelParams, cuLaunchKernel_params, extra);
static_assert(sizeof(c::LaunchKernelParams) == sizeof(cuLaunchKernel_ptsz_params), "cuLaunchKernel_ptsz params");
SAME_OFFSET(c::LaunchKernelParams, cuLaunchKernel_ptsz_params, kernelParams);
static_assert(sizeof(c::LaunchConfig) == sizeof(CUlaunchConfig), "CUlaunchConfig");
SAME_OFFSET(c::LaunchConfig, CUlaunchConfig, hStream);
SAME_OFFSET(c::LaunchConfig, CUlaunchConfig, numAttrs);
static_assert(sizeof(c::LaunchKernelExParams) == sizeof(cuLaunchKernelEx_params), "cuLaunchKernelEx params");
SAME_OFFSET(c::LaunchKernelExParams, cuLaunchKernelEx_params, f);
SAME_OFFSET(c::LaunchKernelExParams, cuLaunchKernelEx_params, kernelParams);
SAME_OFFSET(c::LaunchKernelExParams, cuLaunchKernelEx_params, extra);
SAME_OFFSET(c::LaunchKernelExParams, cuLaunchKernelEx_ptsz_params, extra);
static_assert(sizeof(c::LaunchCooperativeKernelParams) == sizeof(cuLaunchCooperativeKernel_params), "coop params");
SAME_OFFSET(c::LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_params, hStream);
SAME_OFFSET(c::LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_params, kernelParams);
SAME_OFFSET(c::LaunchCooperativeKernelParams, cuLaunchCooperativeKernel_ptsz_params, kernelParams);
static_assert(sizeof(c::KernelNodeParams) == sizeof(CUDA_KERNEL_NODE_PARAMS_v2), "kernel node params");
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiate_params, phGraphExec);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiate_params, hGraph);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiate_v2_params, phGraphExec);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiate_v2_params, hGraph);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithFlags_params, phGraphExec);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithFlags_params, hGraph);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithParams_params, phGraphExec);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithParams_params, hGraph);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithParams_ptsz_params, phGraphExec);
SAME_OFFSET(c::GraphInstantiateParams, cuGraphInstantiateWithParams_ptsz_params, hGraph);
SAME_OFFSET(c::GraphLaunchParams, cuGraphLaunch_params, hGraph);
SAME_OFFSET(c::GraphLaunchParams, cuGraphLaunch_params, hStream);
SAME_OFFSET(c::GraphExecDestroyParams, cuGraphExecDestroy_params, hGraphExec);
SAME_OFFSET(c::GraphExecUpdateParams, cuGraphExecUpdate_params, hGraphExec);
SAME_OFFSET(c::GraphExecUpdateParams, cuGraphExecUpdate_params, hGraph);
SAME_OFFSET(c::GraphExecUpdateParams, cuGraphExecUpdate_v2_params, hGraphExec);
SAME_OFFSET(c::GraphExecUpdateParams, cuGraphExecUpdate_v2_params, hGraph);
SAME_OFFSET(c::KernelNodeParams, CUDA_KERNEL_NODE_PARAMS_v2, kernelParams);
SAME_OFFSET(c::KernelNodeParams, CUDA_KERNEL_NODE_PARAMS_v2, extra);
SAME_OFFSET(c::KernelNodeParams, CUDA_KERNEL_NODE_PARAMS_v2, kern);
SAME_OFFSET(c::KernelNodeParams, CUDA_KERNEL_NODE_PARAMS_v1, kernelParams);
SAME_OFFSET(c::KernelNodeParams, CUDA_KERNEL_NODE_PARAMS_v1, extra);
static_assert(sizeof(c::GraphAddKernelNodeParams) == sizeof(cuGraphAddKernelNode_v2_params), "add node params");
SAME_OFFSET(c::GraphAddKernelNodeParams, cuGraphAddKernelNode_v2_params, nodeParams);
SAME_OFFSET(c::GraphAddKernelNodeParams, cuGraphAddKernelNode_params, nodeParams);
SAME_OFFSET(c::GraphKernelNodeSetParamsParams, cuGraphKernelNodeSetParams_v2_params, nodeParams);
SAME_OFFSET(c::GraphKernelNodeSetParamsParams, cuGraphKernelNodeSetParams_params, nodeParams);
SAME_OFFSET(c::GraphExecKernelNodeSetParamsParams, cuGraphExecKernelNodeSetParams_v2_params, nodeParams);
SAME_OFFSET(c::GraphExecKernelNodeSetParamsParams, cuGraphExecKernelNodeSetParams_params, nodeParams);
static_assert(sizeof(c::RtLaunchKernelParams) == sizeof(cudaLaunchKernel_v7000_params), "cudaLaunchKernel params");
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchKernel_v7000_params, gridDim);
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchKernel_v7000_params, args);
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchKernel_v7000_params, stream);
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchKernel_ptsz_v7000_params, args);
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchCooperativeKernel_v9000_params, args);
SAME_OFFSET(c::RtLaunchKernelParams, cudaLaunchCooperativeKernel_v9000_params, stream);
static_assert(sizeof(c::RtLaunchConfig) == sizeof(cudaLaunchConfig_t), "cudaLaunchConfig_t");
SAME_OFFSET(c::RtLaunchConfig, cudaLaunchConfig_t, stream);
SAME_OFFSET(c::RtLaunchKernelExCParams, cudaLaunchKernelExC_v11060_params, func);
SAME_OFFSET(c::RtLaunchKernelExCParams, cudaLaunchKernelExC_v11060_params, args);
SAME_OFFSET(c::RtLaunchKernelExCParams, cudaLaunchKernelExC_ptsz_v11060_params, args);
static_assert(c::kLaunchParamEnd == reinterpret_cast<uintptr_t>(CU_LAUNCH_PARAM_END), "end");
static_assert(c::kLaunchParamBufferPointer == CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT, "buffer pointer");
static_assert(c::kLaunchParamBufferSize == CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT, "buffer size");
static_assert(c::kPointerAttrBufferId == CU_POINTER_ATTRIBUTE_BUFFER_ID, "attr");
static_assert(c::kPointerAttrDeviceOrdinal == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, "attr");
static_assert(c::kPointerAttrRangeStartAddr == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, "attr");
static_assert(c::kPointerAttrRangeSize == CU_POINTER_ATTRIBUTE_RANGE_SIZE, "attr");
static_assert(c::kErrorInvalidValue == CUDA_ERROR_INVALID_VALUE, "invalid value");

int main() { return 0; }
