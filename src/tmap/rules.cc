// rules.cc: the rule table. One row per rule; the checks are defined inline in the headers of
// src/tmap/rules/ (one per part of the spec), their messages, fixes and patches in the matching .cc files.
// The table is constexpr and RunRules() calls each check directly, so the checks can be inlined.
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "src/tmap/fast_path.h"
#include "src/tmap/rule.h"
#include "src/tmap/rules/box_elements.h"
#include "src/tmap/rules/common.h"
#include "src/tmap/rules/data_type.h"
#include "src/tmap/rules/direction.h"
#include "src/tmap/rules/driver_version.h"
#include "src/tmap/rules/im2col.h"
#include "src/tmap/rules/per_target.h"
#include "src/tmap/rules/rank_dims.h"
#include "src/tmap/rules/smem_address.h"
#include "src/tmap/rules/strides_address.h"
#include "src/tmap/rules/swizzle_interleave.h"
#include "src/tmap/rules/unused_fields.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

using namespace rules;  // NOLINT: the table names the checks of src/tmap/rules/

// Sources, named once.
constexpr std::string_view kSrcTiled = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled";
constexpr std::string_view kSrcIm2col = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col";
constexpr std::string_view kSrcWide = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide";
constexpr std::string_view kSrcAll = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled/Im2col/Im2colWide";
constexpr uint8_t kTiledLike = ModeBit(Mode::kTiled) | ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);
constexpr uint8_t kIm2colAll = ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kWide = ModeBit(Mode::kIm2colW) | ModeBit(Mode::kIm2colW128);
constexpr uint8_t kGS = ModeBit(Mode::kGather4) | ModeBit(Mode::kScatter4);

// ============================== the table ==============================
constexpr uint8_t kAll = kAllModes;
constexpr uint8_t kIm2colOnly = ModeBit(Mode::kIm2col);
constexpr uint8_t kNotGSWide = ModeBit(Mode::kTiled) | ModeBit(Mode::kIm2col);

constexpr std::string_view kSrcPtxGather = "PTX ISA 9.2 section 5.5.3.4 (.tile::gather4 and .tile::scatter4)";
constexpr std::string_view kSrcPtxWide = "PTX ISA 9.2 section 5.5.5 (im2col::w and im2col::w::128)";
constexpr std::string_view kSrcPtxInterleave = "PTX ISA 9.2 sections 5.5.3.4 and 5.5.6 (interleave layout)";
constexpr std::string_view kSrcPtxCopy = "PTX ISA 9.2 section 9.7.9.25.5.1 (restrictions on tensor copies)";
constexpr std::string_view kSrcPtxTargets = "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor target table)";
constexpr std::string_view kSrcCpgAlign = "CUDA Programming Guide, TMA alignment table and swizzle table (section 4.11.2.2)";

constexpr Rule kRules[] = {
    {"rank-range", Severity::kError, kTiledLike & ~kGS, false, "tensor_rank", "tensor_rank is 1 to 5.",
     CheckRankRange, MsgRankRange, FixRankRange, nullptr, kSrcTiled},
    {"im2col-rank", Severity::kError, kIm2colAll, false, "tensor_rank", "im2col maps have rank 3, 4 or 5 (NWC, NHWC, NDHWC).",
     CheckIm2colRank, MsgIm2colRank, FixIm2colRank, nullptr, "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide"},
    {"interleave-rank", Severity::kError, kAll, false, "tensor_rank", "An interleaved layout needs rank 3 or more.",
     CheckInterleaveRank, MsgInterleaveRank, FixInterleaveRank, PatchInterleaveNone, kSrcTiled},
    {"gather4-rank", Severity::kError, kGS, false, "tensor_rank", "gather4 and scatter4 use a 2D tiled map.",
     CheckGather4Rank, MsgGather4Rank, FixGather4Rank, nullptr, kSrcPtxGather},
    {"global-dim-range", Severity::kError, kAll, false, "global_dim[i]", "Every global_dim is 1 to 2^32.",
     CheckGlobalDimRange, MsgGlobalDimRange, FixGlobalDimRange, PatchGlobalDimRange, kSrcAll},
    {"global-dim-packed", Severity::kError, kAll, false, "global_dim[i]",
     "16U4_ALIGN16B and 16U6_ALIGN16B need global_dim[0] % 128 == 0; 16U4_ALIGN8B needs it even.",
     CheckGlobalDimPacked, MsgGlobalDimPacked, FixGlobalDimPacked, PatchGlobalDimPacked, kSrcAll},
    {"global-stride-align-16", Severity::kError, kAll, false, "global_strides[i]", "Every global stride is a multiple of 16 bytes.",
     CheckStrideAlign16, MsgStrideAlign16, FixStrideAlign16, PatchStrideAlign, kSrcAll},
    {"global-stride-align-32", Severity::kError, kAll, false, "global_strides[i]",
     "With INTERLEAVE_32B or the ALIGN16B packed types every global stride is a multiple of 32 bytes.",
     CheckStrideAlign32, MsgStrideAlign32, FixStrideAlign32, PatchStrideAlign, kSrcAll},
    {"global-stride-max", Severity::kError, kAll, false, "global_strides[i]", "Every global stride is below 2^40 bytes.",
     CheckStrideMax, MsgStrideMax, FixStrideMax, PatchStrideMax,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled/Im2col/Im2colWide; an extent-1 dimension's stride is checked too "
     "and 0 accepted (measured: driver corpus, docs/hardware.md D1)"},
    {"global-stride-overlap", Severity::kWarning, kAll, false, "global_strides[i]",
     "No byte of the tensor is reached from two positions: dimensions of size 1 aside, sorted by stride, each "
     "stride covers the span of the smaller ones or provably collides with none; stride 0 over a dimension > 1 is a "
     "broadcast (value: the stride, limit: the dimension it collides with).",
     CheckStrideOverlap, MsgStrideOverlap, FixStrideOverlap, nullptr,
     "cuda.h (CUDA 13.0) globalStrides; the driver checks no order or overlap (measured: H200, docs/hardware.md D1); address-set decision: docs/hardware.md, production layouts"},
    {"global-address-align-16", Severity::kError, kAll, false, "global_address", "global_address is 16-byte aligned.",
     CheckAddrAlign16, MsgAddrAlign16, FixAddrAlign, nullptr, kSrcAll},
    {"global-address-align-32", Severity::kError, kAll, false, "global_address",
     "With INTERLEAVE_32B or the ALIGN16B packed types global_address is 32-byte aligned.",
     CheckAddrAlign32, MsgAddrAlign32, FixAddrAlign, nullptr, kSrcAll},
    {"global-address-align-128-swizzle", Severity::kWarning, kAll, false, "global_address",
     "With a swizzle, global memory should be 128-byte aligned.",
     CheckAddrAlign128Swizzle, MsgAddrAlign128Swizzle, FixAddrAlign, nullptr, kSrcCpgAlign},
    {"box-dim-range", Severity::kError, kTiledLike, false, "box_dim[i]", "Every box_dim is 1 to 256.",
     CheckBoxRange, MsgBoxRange, FixBoxRange, PatchBoxRange, kSrcTiled},
    {"box-inner-bytes-16", Severity::kError, kTiledLike, false, "box_dim[0]",
     "box_dim[0] x element size is a multiple of 16 bytes.",
     CheckBoxInner16, MsgBoxInner16, FixBoxInner16, PatchBoxInner16,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled (interleave NONE); PTX ISA 9.2 section 5.5.3.1 for all layouts; "
     "measured with INTERLEAVE_16B (H200, docs/hardware.md D5)"},
    {"box-packed-128", Severity::kError, kTiledLike, false, "box_dim[0]",
     "16U4_ALIGN16B and 16U6_ALIGN16B copy rows of exactly 128 elements.",
     CheckBoxPacked128, MsgBoxPacked128, FixBoxPacked128, PatchBoxPacked128, kSrcTiled},
    {"box-exceeds-tensor", Severity::kNote, kTiledLike, false, "box_dim[i]",
     "A box larger than the tensor is legal and runs: loads fill the excess, stores and reductions write only "
     "inside the tensor (some libraries reject such a box; docs/rules.md).",
     CheckBoxExceedsTensor, MsgBoxExceedsTensor, FixBoxExceedsTensor, nullptr,
     "measured: H200 sm_90, driver 580.159.04: encoded (docs/hardware.md D2); `tmapgen sweep --matrix` 100,000 "
     "configurations byte-exact with no fault, 44,464 of them tiled copies with a box larger than the tensor "
     "(27,258 loads, 13,465 stores, 3,741 reductions; docs/hardware.md, GPU checks)"},
    {"gather4-box-rows", Severity::kError, kGS, false, "box_dim[1]", "gather4 and scatter4 boxes are one row high.",
     CheckGather4BoxRows, MsgGather4BoxRows, FixGather4BoxRows, PatchGather4BoxRows, kSrcPtxGather},
    {"element-stride-range", Severity::kError, kAll, false, "element_strides[i]", "Every element stride is 1 to 8.",
     CheckElementStrideRange, MsgElementStrideRange, FixElementStrideRange, PatchElementStrideRange, kSrcAll},
    {"element-stride-dim0", Severity::kWarning, kAll, false, "element_strides[0]",
     "Without interleave element_strides[0] is ignored and should be 1.",
     CheckElementStrideDim0, MsgElementStrideDim0, FixElementStrideDim0, PatchElementStrideDim0,
     "cuda.h (CUDA 13.0) elementStrides; PTX ISA 9.2 section 5.5.3.2 (traversal stride)"},
    {"swizzle-inner-span", Severity::kError, kAll, false, "box_dim[0]",
     "Without interleave the inner box dimension in bytes fits the swizzle span (32, 64 or 128 B).",
     CheckSwizzleSpan, MsgSwizzleSpan, FixSwizzleSpan, PatchSwizzleSpan, kSrcAll, FieldOfInnerBox},
    {"swizzle-inner-below-span", Severity::kNote, kAll, false, "box_dim[0]",
     "An inner box narrower than the swizzle span still occupies whole spans in shared memory.",
     CheckSwizzleBelowSpan, MsgSwizzleBelowSpan, FixSwizzleBelowSpan, nullptr, kSrcCpgAlign, FieldOfInnerBox},
    {"interleave-32b-swizzle", Severity::kError, kAll, false, "swizzle", "INTERLEAVE_32B requires SWIZZLE_32B.",
     CheckInterleave32Swizzle, MsgInterleave32Swizzle, FixInterleave32Swizzle, PatchSwizzle32, kSrcAll},
    {"interleave-mode", Severity::kError, kGS | kWide, false, "interleave",
     "gather4, scatter4, im2col::w and im2col::w::128 do not support interleaved layouts.",
     CheckInterleaveMode, MsgInterleaveMode, FixInterleaveMode, PatchInterleaveNone, kSrcPtxInterleave},
    {"packed-u6-interleave", Severity::kError, kAll, false, "interleave", "16U6_ALIGN16B requires INTERLEAVE_NONE.",
     CheckPackedU6Interleave, MsgPackedU6Interleave, FixInterleaveMode, PatchInterleaveNone, kSrcAll},
    {"packed-swizzle", Severity::kError, kAll, false, "swizzle",
     "16U4_ALIGN16B and 16U6_ALIGN16B support only the swizzles cuda.h lists for them.",
     CheckPackedSwizzle, MsgPackedSwizzle, FixPackedSwizzle, PatchSwizzle128, kSrcAll},
    {"packed-direction", Severity::kError, kAll, false, "direction",
     "16U4_ALIGN16B is load only; 16U6_ALIGN16B with 128B_ATOM_64B is store only; reductions take no sub-byte type.",
     CheckPackedDirection, MsgPackedDirection, FixPackedDirection, PatchPackedDirection,
     "cuda.h (CUDA 13.0) swizzle lists for packed types; PTX ISA 9.2 section 9.7.9.25.5.1"},
    {"oob-nan-float", Severity::kError, kAll, false, "oob_fill", "OOB NaN fill needs a floating-point data type.",
     CheckOobNanFloat, MsgOobNanFloat, FixOobNanFloat, PatchOobNone, kSrcAll},
    {"im2col-lower-corner-range", Severity::kError, kIm2colOnly, false, "pixel_box_lower_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     CheckLowerCorner, MsgLowerCorner, FixCorner, PatchLowerCorner, kSrcIm2col},
    {"im2col-upper-corner-range", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     CheckUpperCorner, MsgUpperCorner, FixCorner, PatchUpperCorner, kSrcIm2col},
    {"im2col-box-area", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "The im2col bounding box has non-zero area: dim + upper - lower >= 1 along each of D, H, W.",
     CheckIm2colBoxArea, MsgIm2colBoxArea, FixIm2colBoxArea, PatchIm2colBoxArea,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col; measured (H200, docs/hardware.md D7)"},
    {"im2col-interleave-box-area", Severity::kError, kIm2colOnly, false, "pixel_box_upper_corner[i]",
     "With an interleaved layout the driver checks im2col corner i against global_dim[i]: dim + upper - lower >= 1.",
     CheckIm2colInterleaveBoxArea, MsgIm2colInterleaveBoxArea, FixIm2colInterleaveBoxArea, PatchInterleaveNone,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B3); undocumented in cuda.h"},
    {"im2col-spatial-dim-int32", Severity::kError, kIm2colAll, false, "global_dim[i]",
     "Along W, H and D, global_dim + upper corner is at most 2^31 - 1 (the driver computes the pixel box in int32).",
     CheckIm2colSpatialInt32, MsgIm2colSpatialInt32, FixIm2colSpatialInt32, nullptr,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B2); undocumented in cuda.h"},
    {"im2col-channels-range", Severity::kError, kIm2colAll, false, "channels_per_pixel",
     "channels_per_pixel is 1 to 256 (exactly 128 for the ALIGN16B packed types).",
     CheckChannelsRange, MsgChannelsRange, FixChannelsRange, PatchChannelsRange,
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 measured rejected (H200, docs/hardware.md D7)"},
    {"im2col-channels-bytes-16", Severity::kError, kIm2colAll, false, "channels_per_pixel",
     "channels_per_pixel x element size is a multiple of 16 bytes.",
     CheckChannelsBytes16, MsgChannelsBytes16, FixChannelsBytes16, PatchChannelsBytes16,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md D7); undocumented in cuda.h"},
    {"im2col-pixels-range", Severity::kError, kIm2colAll, false, "pixels_per_column",
     "pixels_per_column is 1 to 1024 (range-checked even in im2col::w::128 mode).",
     CheckPixelsRange, MsgPixelsRange, FixPixelsRange, PatchPixelsRange,
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 and 1025 measured rejected (H200, docs/hardware.md D7, D8)"},
    {"wide-lower-corner-range", Severity::kError, kWide, false, "pixel_box_lower_corner_width",
     "pixel_box_lower_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver enforces the im2col range).",
     CheckWideLower, MsgWideLower, FixWideCorner, PatchWideLower,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)"},
    {"wide-upper-corner-range", Severity::kError, kWide, false, "pixel_box_upper_corner_width",
     "pixel_box_upper_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver enforces the im2col range).",
     CheckWideUpper, MsgWideUpper, FixWideCorner, PatchWideUpper,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)"},
    {"wide-box-area", Severity::kError, kWide, false, "pixel_box_upper_corner_width",
     "The W bounding box has non-zero area: W + upper - lower >= 1.",
     CheckWideBoxArea, MsgWideBoxArea, FixWideBoxArea, PatchWideBoxArea, kSrcWide},
    {"wide-swizzle", Severity::kError, kWide, false, "swizzle",
     "im2col::w maps use SWIZZLE_64B, SWIZZLE_128B or SWIZZLE_128B_ATOM_32B.",
     CheckWideSwizzle, MsgWideSwizzle, FixWideSwizzle, PatchSwizzle128,
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; PTX ISA 9.2 section 5.5.5"},
    {"wide-mode-mismatch", Severity::kError, kWide, false, "wide_mode", "wide_mode agrees with the mode (W for im2col::w, W128 for im2col::w::128).",
     CheckWideModeMismatch, MsgWideModeMismatch, FixWideModeMismatch, PatchWideModeMismatch, kSrcPtxWide},
    {"wide-w128-pixels", Severity::kNote, ModeBit(Mode::kIm2colW128), false, "pixels_per_column",
     "im2col::w::128 always moves 128 pixels; pixels_per_column is ignored.",
     CheckW128Pixels, MsgW128Pixels, FixW128Pixels, nullptr, kSrcWide},
    {"im2col-store-corners", Severity::kError, ModeBit(Mode::kIm2col) | ModeBit(Mode::kIm2colW), false, "pixel_box_lower_corner",
     "Stores and reductions through im2col maps keep the bounding box inside the tensor (lower >= 0, upper <= 0).",
     CheckIm2colStoreCorners, MsgIm2colStoreCorners, FixIm2colStoreCorners, PatchIm2colStoreCorners,
     "PTX ISA 9.2 section 9.7.9.25.5.1 (.global.shared::cta direction); PTX ISA section 5.5.5.1 (im2col_no_offs::w)", FieldOfStoreCorner},
    {"mode-direction", Severity::kError, kGS | ModeBit(Mode::kIm2colW128), false, "direction",
     "gather4 and im2col::w::128 are loads; scatter4 is a store.",
     CheckModeDirection, MsgModeDirection, FixModeDirection, PatchModeDirection,
     "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor syntax: load_mode per direction)"},
    {"swizzle-flip8b-load-only", Severity::kError, kAll, false, "swizzle",
     "SWIZZLE_128B_ATOM_32B_FLIP_8B is legal only for copies into shared memory.",
     CheckFlip8bLoadOnly, MsgFlip8bLoadOnly, FixFlip8bLoadOnly, PatchSwizzleAtom32, "PTX ISA 9.2 section 5.5.7 (swizzling modes)"},
    {"reduce-op-type", Severity::kError, kNotGSWide | ModeBit(Mode::kIm2colW), false, "reduce_op",
     "The reduction operation supports the data type (.add: u32 s32 u64 f32 f16 bf16; .min/.max: u32 s32 u64 s64 f16 "
     "bf16; .inc/.dec: u32; .and/.or/.xor: u32, s32, u64).",
     CheckReduceOpType, MsgReduceOpType, FixReduceOpType, nullptr,
     "PTX ISA 9.2 section 9.7.9.25.5.3 (cp.reduce.async.bulk.tensor); bitwise ops measured on an H200 (docs/hardware.md)"},
    {"store-past-row-end", Severity::kWarning, kAll, false, "global_dim[0]",
     "A store or reduction whose row (global_dim[0] x element size) is not a multiple of 16 bytes also writes the rest "
     "of the row's last 16-byte chunk, past the row's end (into the row pitch's padding, or past the tensor's end).",
     CheckStorePastRowEnd, MsgStorePastRowEnd, FixStorePastRowEnd, nullptr,
     "measured: H200 sm_90, driver 580.159.04 (docs/model.md M7: stores and reductions write the whole 16-byte chunk "
     "holding a row's last element; tests/model/gpu/tma_probe.cu)"},
    {"target-swizzle-atomicity", Severity::kError, kAll, true, "swizzle",
     "The 128B_ATOM_* swizzles need compute capability 10.0 or later.",
     CheckTargetAtomicity, MsgTargetAtomicity, FixTargetAtomicity, PatchSwizzle128,
     "PTX ISA 9.2 section 9.7.9.26 (.swizzle_atomicity targets); measured rejected on sm_90 (H200, docs/hardware.md D6)"},
    {"target-sub-byte", Severity::kError, kAll, true, "tensor_data_type",
     "The 16U4 and 16U6 data types need compute capability 10.0 or later.",
     CheckTargetSubByte, MsgTargetSubByte, FixTargetSubByte, nullptr,
     "PTX ISA 9.2 section 9.7.9.26 (.elemtype 13-15 targets); measured rejected on sm_90 (H200, docs/hardware.md D6)"},
    {"target-mode", Severity::kError, kAll & ~kNotGSWide, true, "mode",
     "gather4 and im2col::w need sm_100 or later (the a/f targets for .shared::cluster and prefetch); scatter4 and "
     "im2col::w::128 need sm_100a/sm_101a/sm_103a/sm_110a or a family target.",
     CheckTargetMode, MsgTargetMode, FixTargetMode, nullptr, kSrcPtxTargets},
    {"target-sm120-cluster", Severity::kError, kAll, true, "direction",
     "On sm_120 class targets, copies to .shared::cluster support neither sub-byte types nor swizzle atomicity.",
     CheckTargetSm120Cluster, MsgTargetSm120Cluster, FixTargetSm120Cluster, nullptr, kSrcPtxCopy},
    {"target-smem-capacity", Severity::kError, kAll, true, "box_dim",
     "What one copy writes (im2col::w::128: 128 pixels, whatever pixels_per_column) fits the shared memory a block "
     "can have on the target (227 KiB; 99 KiB on sm_120 class).",
     CheckTargetSmemCapacity, MsgTargetSmemCapacity, FixTargetSmemCapacity, nullptr,
     "CUDA Programming Guide, compute capabilities table (shared memory per block); driver behaviour measured", FieldOfBoxSize},
    {"box-driver-size-limit", Severity::kError, kAll, true, "box_dim",
     "The box the driver checks (tiled: prod floor(box_dim / element_strides); im2col modes, im2col::w::128 "
     "included: channels x pixels_per_column) x element size fits the target's shared memory per SM (228 KiB on "
     "sm_90), whatever the direction.",
     CheckBoxDriverLimit, MsgBoxDriverLimit, FixTargetSmemCapacity, nullptr,
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B1); undocumented in cuda.h", FieldOfBoxSize},
    {"smem-align-128", Severity::kError, kAll, false, "smem_address",
     "The shared-memory destination is 128-byte aligned.",
     CheckSmemAlign128, MsgSmemAlign128, FixSmemAlign128, nullptr, kSrcCpgAlign, FieldOfSmem},
    {"smem-swizzle-phase", Severity::kWarning, kAll, false, "smem_address",
     "A swizzled destination should start on the swizzle repeat (256, 512 or 1024 B) so the base offset is 0.",
     CheckSmemSwizzlePhase, MsgSmemSwizzlePhase, FixSmemSwizzlePhase, nullptr,
     "PTX ISA 9.2 section 5.5.7 (swizzle base offset); CUDA Programming Guide swizzle table", FieldOfSmem},
    {"driver-version", Severity::kError, kAll, false, "driver_version",
     "Tensor maps need driver 12.0; sub-byte types, atomicity swizzles and Im2colWide need 12.8.",
     CheckDriverVersion, MsgDriverVersion, FixDriverVersion, nullptr,
     "cudaTypedefs.h (CUDA 13.0): PFN_cuTensorMapEncodeIm2colWide_v12080, the encoder and enumerators of CUDA 12.8"},
    {"driver-oob-address-bug", Severity::kWarning, kAll, true, "driver_version",
     "On Blackwell the driver can mis-encode maps of tensors that are not dense and non-overlapping and span under "
     "128 KiB (no fixed driver version is known).",
     CheckDriverOobBug, MsgDriverOobBug, FixDriverOobBug, nullptr,
     "NVIDIA Data Center driver release notes 595.71.05 and 595.91.07 (CUDA 13.2 drivers), known issues: "
     "\"cuTensorMapEncodeTiled() or cuTensorMapEncodeIm2col*() on Blackwell GPUs ... when the tensor's backing memory "
     "allocation is less than 128KB and it is not a dense non-overlapping tensor\", work-around: clear bit 85 (quoted "
     "in triton-lang/triton#10442); work-arounds gated on driver < 13.2: CUTLASS 4.3.4 (commit b7ecaa605), CCCL "
     "PR 6985 (nvbug 5736804), Triton PR 9235; 13.2/13.3 forward-compatibility drivers reported still affected: "
     "triton-lang/triton#11011"},
    {"unused-field", Severity::kNote, kAll, false, "",
     "Fields the chosen mode or direction does not use are ignored.",
     CheckUnusedFields, MsgUnusedFields, FixUnusedFields, nullptr, "cuda.h (CUDA 13.0) encoder signatures", FieldOfUnused},
};

constexpr int kNumRulesValue = static_cast<int>(sizeof(kRules) / sizeof(kRules[0]));

// The validator's fast path (src/tmap/fast_path.h) was written against exactly these rows: a rule added,
// removed, reordered or re-scoped (severity, modes, per_target) must be looked at there too.
constexpr bool FastPathCoversTable() {
  if (fast_path::kNumFastPathCovers != kNumRulesValue) return false;
  for (int i = 0; i < kNumRulesValue; ++i) {
    const fast_path::Covered& c = fast_path::kFastPathCovers[i];
    if (c.id != kRules[i].id || c.severity != kRules[i].severity || c.modes != kRules[i].modes ||
        c.per_target != kRules[i].per_target)
      return false;
  }
  return true;
}
static_assert(FastPathCoversTable(), "the rule table changed: update src/tmap/fast_path.h and ValidateFastPath");

// Runs the rules of one kind for one mode. The table is constexpr, so each check is called directly and
// can be inlined; rules that do not apply to the mode cost nothing.
template <int M, bool PerTarget, size_t... I>
SeverityCounts RunFor(const CheckContext& c, FindingList* o, std::index_sequence<I...>) {
  SeverityCounts n;
  auto one = [&](auto index) {
    constexpr size_t i = decltype(index)::value;
    if constexpr (kRules[i].per_target == PerTarget && (kRules[i].modes & ModeBit(static_cast<Mode>(M))) != 0) {
      const int before = o->size();
      kRules[i].check(c, static_cast<uint16_t>(i), o);
      constexpr Severity kSeverity = kRules[i].severity;
      int& count = kSeverity == Severity::kError ? n.errors : kSeverity == Severity::kWarning ? n.warnings : n.notes;
      count += o->size() - before;
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
  return n;
}

template <bool PerTarget>
SeverityCounts RunForMode(const CheckContext& c, FindingList* o) {
  using Seq = std::make_index_sequence<static_cast<size_t>(kNumRulesValue)>;
  switch (c.spec.mode) {
    case Mode::kTiled: return RunFor<0, PerTarget>(c, o, Seq{});
    case Mode::kIm2col: return RunFor<1, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW: return RunFor<2, PerTarget>(c, o, Seq{});
    case Mode::kIm2colW128: return RunFor<3, PerTarget>(c, o, Seq{});
    case Mode::kGather4: return RunFor<4, PerTarget>(c, o, Seq{});
    case Mode::kScatter4: return RunFor<5, PerTarget>(c, o, Seq{});
  }
  return {};
}

}  // namespace

SeverityCounts RunRules(const CheckContext& ctx, bool per_target, FindingList* out) {
  return per_target ? RunForMode<true>(ctx, out) : RunForMode<false>(ctx, out);
}

std::string_view Name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

const Rule* Rules() { return kRules; }
int NumRules() { return kNumRulesValue; }

void CountBySeverity(const FindingList& findings, int counts[3]) {
  counts[0] = counts[1] = counts[2] = 0;
  for (const Finding& f : findings) ++counts[static_cast<int>(kRules[f.rule].severity)];
}

int FindRule(std::string_view id) {
  for (int i = 0; i < kNumRulesValue; ++i)
    if (kRules[i].id == id) return i;
  return -1;
}

namespace {

// Each rule's field path split where "[i]" stands (found once, at compile time): the text before it and after
// it, or the whole path when it has none.
struct FieldParts {
  bool indexed;
  std::string_view before, after;
};
constexpr std::array<FieldParts, kNumRulesValue> MakeFieldParts() {
  std::array<FieldParts, kNumRulesValue> parts{};
  for (int i = 0; i < kNumRulesValue; ++i) {
    const std::string_view field = kRules[i].field;
    const size_t p = field.find("[i]");
    parts[i] = p == std::string_view::npos ? FieldParts{false, field, {}}
                                           : FieldParts{true, field.substr(0, p), field.substr(p + 3)};
  }
  return parts;
}
constexpr std::array<FieldParts, kNumRulesValue> kFieldParts = MakeFieldParts();

// Every "[i]" path written out for the indices 0-7 ("global_strides[0]" ...), at compile time.
constexpr int kStaticIndices = 8;
constexpr size_t kFieldTextMax = 48;
struct FieldTexts {
  char text[kNumRulesValue][kStaticIndices][kFieldTextMax];
  uint8_t size[kNumRulesValue][kStaticIndices];
};
constexpr FieldTexts MakeFieldTexts() {
  FieldTexts t{};
  for (int r = 0; r < kNumRulesValue; ++r) {
    if (!kFieldParts[r].indexed) continue;
    for (int i = 0; i < kStaticIndices; ++i) {
      const std::string_view before = kFieldParts[r].before, after = kFieldParts[r].after;
      size_t n = 0;
      for (char c : before) t.text[r][i][n++] = c;
      t.text[r][i][n++] = '[';
      t.text[r][i][n++] = static_cast<char>('0' + i);
      t.text[r][i][n++] = ']';
      for (char c : after) t.text[r][i][n++] = c;  // a path longer than kFieldTextMax fails to compile here
      t.size[r][i] = static_cast<uint8_t>(n);
    }
  }
  return t;
}
constexpr FieldTexts kFieldTexts = MakeFieldTexts();

}  // namespace

namespace rule_internal {
// StaticField's table: the paths of kFieldTexts and of the table, by index, as views.
constexpr std::array<StaticFieldPaths, kNumRulesValue> MakeStaticFieldPaths() {
  std::array<StaticFieldPaths, kNumRulesValue> t{};
  for (int r = 0; r < kNumRulesValue; ++r) {
    const FieldParts& p = kFieldParts[r];
    t[r].at[0] = p.before;
    for (int i = 0; i < kStaticIndices; ++i)
      t[r].at[i + 1] = p.indexed ? std::string_view(kFieldTexts.text[r][i], kFieldTexts.size[r][i]) : p.before;
    t[r].at[kStaticIndices + 1] = p.indexed ? std::string_view() : p.before;
  }
  return t;
}
constexpr std::array<StaticFieldPaths, kNumRulesValue> kStaticFieldPathsArray = MakeStaticFieldPaths();
// StaticField tells a static path from none by its data: every path of the table must have some (even "").
constexpr bool EveryStaticPathHasData() {
  for (const StaticFieldPaths& p : kStaticFieldPathsArray)
    for (int i = 0; i <= kStaticIndices; ++i)
      if (p.at[i].data() == nullptr) return false;
  return true;
}
static_assert(EveryStaticPathHasData(), "a field path of the table without data would read as no static path");
// A pointer rather than the array itself, whose size rule.h does not know: in this position-independent build
// the inline lookup loads it in the one instruction that would have taken the array's address.
const StaticFieldPaths* const kStaticFieldPaths = kStaticFieldPathsArray.data();
}  // namespace rule_internal

void WriteField(const Rule& r, const TensorMapSpec& s, const Finding& f, TextOut& out) {
  std::string_view field;
  if (StaticField(r, s, f, &field)) return out.Append(field);
  const FieldParts& p = kFieldParts[static_cast<size_t>(&r - kRules)];
  TextAppend(&out, p.before, '[', static_cast<int>(f.index), ']', p.after);
}

RuleText FieldText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  WriteField(r, s, f, t);
  return t;
}

RuleText MessageText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  r.message(s, f, t);
  return t;
}

RuleText FixText(const Rule& r, const TensorMapSpec& s, const Finding& f) {
  RuleText t;
  r.fix(s, f, t);
  return t;
}

std::string FieldPath(const Rule& r, const TensorMapSpec& s, const Finding& f) { return FieldText(r, s, f).str(); }

}  // namespace tmapgen
