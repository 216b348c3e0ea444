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

int main() { return 0; }
