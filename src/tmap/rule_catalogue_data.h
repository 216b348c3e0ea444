// rule_catalogue_data.h: the rows of the rule catalogue (rule_catalogue.h says what a row holds and the rules
// for changing one), and the compile-time lookups the rule tables use.
//
// Contract
// - Included only by src/tmap/rule_catalogue.cc and the rule tables (src/tmap/rules.cc,
//   src/desc/desc_rules.cc); everything else reads the catalogue through rule_catalogue.h.
// - docs/dev/add-a-rule.md says how to add a row or retire one.
#ifndef TMAPGEN_SRC_TMAP_RULE_CATALOGUE_DATA_H_
#define TMAPGEN_SRC_TMAP_RULE_CATALOGUE_DATA_H_

#include <string_view>

#include "src/tmap/rule_catalogue.h"

namespace tmapgen {

// Sources cited by several rules, named once.
namespace rule_sources {
inline constexpr std::string_view kSrcTiled = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled";
inline constexpr std::string_view kSrcIm2col = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col";
inline constexpr std::string_view kSrcWide = "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide";
inline constexpr std::string_view kSrcAll = "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled/Im2col/Im2colWide";
inline constexpr std::string_view kSrcPtxGather = "PTX ISA 9.2 section 5.5.3.4 (.tile::gather4 and .tile::scatter4)";
inline constexpr std::string_view kSrcPtxWide = "PTX ISA 9.2 section 5.5.5 (im2col::w and im2col::w::128)";
inline constexpr std::string_view kSrcPtxInterleave = "PTX ISA 9.2 sections 5.5.3.4 and 5.5.6 (interleave layout)";
inline constexpr std::string_view kSrcPtxCopy = "PTX ISA 9.2 section 9.7.9.25.5.1 (restrictions on tensor copies)";
inline constexpr std::string_view kSrcPtxTargets =
    "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor target table)";
inline constexpr std::string_view kSrcCpgAlign =
    "CUDA Programming Guide, TMA alignment table and swizzle table (section 4.11.2.2)";
inline constexpr std::string_view kSrcWgmmaDesc = "PTX ISA 9.2 section 9.7.15.5.1.2.2 (wgmma matrix descriptor format)";
inline constexpr std::string_view kSrcWgmmaLayout =
    "PTX ISA 9.2 section 9.7.15.5.1.2 (wgmma shared memory matrix layout: LBO, SBO, canonical layouts)";
inline constexpr std::string_view kSrcWgmmaTypes =
    "PTX ISA 9.2 section 9.7.15.5.1 (wgmma.mma_async: transpose only for .f16/.bf16; element types)";
inline constexpr std::string_view kSrcTcDesc =
    "PTX ISA 9.2 section 9.7.16.4.1 (tcgen05 shared memory descriptor, Tables 40-41)";
inline constexpr std::string_view kSrcTcAbs =
    "PTX ISA 9.2 sections 9.7.16.3.1.2 and 9.7.16.4.1.1 (leading-dimension absolute address mode, sm_103a)";
inline constexpr std::string_view kSrcTable54 =
    "PTX ISA 9.2 section 9.7.16 Tables 54-55 (major-ness and swizzle per element size); CUTLASS make_umma_desc";
inline constexpr std::string_view kSrcBoth =
    "PTX ISA 9.2 sections 9.7.15.5.1.2.2 and 9.7.16.4.1 (matrix-descriptor-encode: 16-byte units, 14 bits)";
inline constexpr std::string_view kSrcBase =
    "PTX ISA 9.2 sections 9.7.15.5.1.2.2 and 9.7.16.4.1 (matrix base offset; Table 41); section 5.5.7";
inline constexpr std::string_view kSrcTargets =
    "PTX ISA 9.2 target ISA notes of wgmma.mma_async (sm_90a) and tcgen05.mma (sm_100a family)";
inline constexpr std::string_view kSrcCpgSmemAlign =
    "CUDA Programming Guide, TMA alignment table (shared memory 128-byte aligned)";
inline constexpr std::string_view kSrcSmemCap =
    "CUDA Programming Guide, compute capabilities table (shared memory per block)";
inline constexpr std::string_view kSrcAdvance =
    "PTX ISA 9.2 canonical layouts (start address moves by the canonical offset); CUTLASS DescriptorIterator";
inline constexpr std::string_view kSrcMap =
    "PTX ISA 9.2 section 5.5.7 (TMA swizzle) with the canonical layouts of sections 9.7.15.5.1.2 / 9.7.16.3";
inline constexpr std::string_view kSrcModel =
    "tmapgen address model (docs/descriptors.md): canonical layout + swizzle versus the TMA box, 16 B at a time";
inline constexpr std::string_view kSrcT39 = "PTX ISA 9.2 section 9.7.16.2.1 (Table 39: kinds and shapes)";
inline constexpr std::string_view kSrcTS =
    "CUTLASS cute/arch/mma_sm100_umma.hpp (SM100_MMA_*_TS and *_2x1SM_TS static_asserts; commit 7107b0553)";
inline constexpr std::string_view kSrcT39TS =
    "PTX ISA 9.2 section 9.7.16.2.1 (Table 39: kinds and shapes); A in tensor memory: CUTLASS "
    "cute/arch/mma_sm100_umma.hpp SM100_MMA_*_TS static_asserts (commit 7107b0553)";
inline constexpr std::string_view kSrcT42 = "PTX ISA 9.2 section 9.7.16.4.2 (Tables 42-44: instruction descriptor)";
inline constexpr std::string_view kSrcT51 =
    "PTX ISA 9.2 section 9.7.16 (Tables 51-52: transpose and negate support; 8-bit transpose N); CUTLASS "
    "UMMA::make_instr_desc comment (MN-major only for 8/16/32-bit types)";
}  // namespace rule_sources

namespace catalogue_internal {
using namespace rule_sources;  // NOLINT: the rows below name the sources
inline constexpr RuleEntry kEntries[] = {
    // ---- tensor maps: the checks in src/tmap/rules.cc ----
    {"rank-range", RuleFamily::kTensorMap, Severity::kError, "tensor_rank",
     "tensor_rank is 1 to 5.",
     kSrcTiled,
     ""},  // every reader refuses tensor_rank outside 1..5 before validating
    {"im2col-rank", RuleFamily::kTensorMap, Severity::kError, "tensor_rank",
     "im2col maps have rank 3, 4 or 5 (NWC, NHWC, NDHWC).",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide",
     "--mode im2col --dims 64,56 --channels 64 --pixels 128"},
    {"interleave-rank", RuleFamily::kTensorMap, Severity::kError, "tensor_rank",
     "An interleaved layout needs rank 3 or more.",
     kSrcTiled,
     "--dims 4096,4096 --interleave 16B --swizzle none"},
    {"gather4-rank", RuleFamily::kTensorMap, Severity::kError, "tensor_rank",
     "gather4 and scatter4 use a 2D tiled map.",
     kSrcPtxGather,
     "--mode gather4 --dims 64,64,4 --box 64,1,1"},
    {"global-dim-range", RuleFamily::kTensorMap, Severity::kError, "global_dim[i]",
     "Every global_dim is 1 to 2^32.",
     kSrcAll,
     "--dims 0,64 --box 1,64 --swizzle none"},
    {"global-dim-packed", RuleFamily::kTensorMap, Severity::kError, "global_dim[i]",
     "16U4_ALIGN16B and 16U6_ALIGN16B need global_dim[0] % 128 == 0; 16U4_ALIGN8B needs it even.",
     kSrcAll,
     "--dtype 16u4_align16b --dims 100,64 --box 128,64 --target sm_100a"},
    {"global-stride-align-16", RuleFamily::kTensorMap, Severity::kError, "global_strides[i]",
     "Every global stride is a multiple of 16 bytes.",
     kSrcAll,
     "--dims 4096,4096 --strides 8200"},
    {"global-stride-align-32", RuleFamily::kTensorMap, Severity::kError, "global_strides[i]",
     "With INTERLEAVE_32B or the ALIGN16B packed types every global stride is a multiple of 32 bytes.",
     kSrcAll,
     "--dtype 16u4_align16b --dims 4096,64 --strides 2064 --box 128,64 --target sm_100a"},
    {"global-stride-max", RuleFamily::kTensorMap, Severity::kError, "global_strides[i]",
     "Every global stride is below 2^40 bytes.",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled/Im2col/Im2colWide; an extent-1 dimension's stride is checked too "
     "and 0 accepted (measured: driver corpus, docs/hardware.md D1)",
     "--dims 64,4 --strides 1099511627776 --box 64,4"},
    {"global-stride-overlap", RuleFamily::kTensorMap, Severity::kWarning, "global_strides[i]",
     "No byte of the tensor is reached from two positions: dimensions of size 1 aside, sorted by stride, each stride "
     "covers the span of the smaller ones or provably collides with none; stride 0 over a dimension > 1 is a "
     "broadcast (value: the stride, limit: the dimension it collides with).",
     "cuda.h (CUDA 13.0) globalStrides; the driver checks no order or overlap (measured: H200, docs/hardware.md D1); "
     "address-set decision: docs/hardware.md, production layouts",
     "--dims 4096,4096 --strides 4096"},
    {"global-address-align-16", RuleFamily::kTensorMap, Severity::kError, "global_address",
     "global_address is 16-byte aligned.",
     kSrcAll,
     "--global-address 0x1008"},
    {"global-address-align-32", RuleFamily::kTensorMap, Severity::kError, "global_address",
     "With INTERLEAVE_32B or the ALIGN16B packed types global_address is 32-byte aligned.",
     kSrcAll,
     "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --global-address 0x1010 --target sm_100a"},
    {"global-address-align-128-swizzle", RuleFamily::kTensorMap, Severity::kWarning, "global_address",
     "With a swizzle, global memory should be 128-byte aligned.",
     kSrcCpgAlign,
     "--global-address 0x1040"},
    {"box-dim-range", RuleFamily::kTensorMap, Severity::kError, "box_dim[i]",
     "Every box_dim is 1 to 256.",
     kSrcTiled,
     "--box 64,300"},
    {"box-inner-bytes-16", RuleFamily::kTensorMap, Severity::kError, "box_dim[0]",
     "box_dim[0] x element size is a multiple of 16 bytes.",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeTiled (interleave NONE); PTX ISA 9.2 section 5.5.3.1 for all layouts; "
     "measured with INTERLEAVE_16B (H200, docs/hardware.md D5)",
     "--box 60,128 --swizzle none"},
    {"box-packed-128", RuleFamily::kTensorMap, Severity::kError, "box_dim[0]",
     "16U4_ALIGN16B and 16U6_ALIGN16B copy rows of exactly 128 elements.",
     kSrcTiled,
     "--dtype 16u4_align16b --dims 4096,64 --box 64,64 --target sm_100a"},
    {"box-exceeds-tensor", RuleFamily::kTensorMap, Severity::kNote, "box_dim[i]",
     "A box larger than the tensor is legal and runs: loads fill the excess, stores and reductions write only inside "
     "the tensor (some libraries reject such a box; docs/rules.md).",
     "measured: H200 sm_90, driver 580.159.04: encoded (docs/hardware.md D2); `tmapgen sweep --matrix` 100,000 "
     "configurations byte-exact with no fault, 44,464 of them tiled copies with a box larger than the tensor (27,258 "
     "loads, 13,465 stores, 3,741 reductions; docs/hardware.md, GPU checks)",
     "--dims 32,4096 --box 64,128 --swizzle none"},
    {"gather4-box-rows", RuleFamily::kTensorMap, Severity::kError, "box_dim[1]",
     "gather4 and scatter4 boxes are one row high.",
     kSrcPtxGather,
     "--mode gather4 --box 64,4"},
    {"element-stride-range", RuleFamily::kTensorMap, Severity::kError, "element_strides[i]",
     "Every element stride is 1 to 8.",
     kSrcAll,
     "--element-strides 1,9"},
    {"element-stride-dim0", RuleFamily::kTensorMap, Severity::kWarning, "element_strides[0]",
     "Without interleave element_strides[0] is ignored and should be 1.",
     "cuda.h (CUDA 13.0) elementStrides; PTX ISA 9.2 section 5.5.3.2 (traversal stride)",
     "--element-strides 2,1"},
    {"swizzle-inner-span", RuleFamily::kTensorMap, Severity::kError, "box_dim[0]",
     "Without interleave the inner box dimension in bytes fits the swizzle span (32, 64 or 128 B).",
     kSrcAll,
     "--box 128,64"},
    {"swizzle-inner-below-span", RuleFamily::kTensorMap, Severity::kNote, "box_dim[0]",
     "An inner box narrower than the swizzle span still occupies whole spans in shared memory.",
     kSrcCpgAlign,
     "--box 32,64"},
    {"interleave-32b-swizzle", RuleFamily::kTensorMap, Severity::kError, "swizzle",
     "INTERLEAVE_32B requires SWIZZLE_32B.",
     kSrcAll,
     "--dims 64,64,8 --box 64,8,2 --interleave 32B --swizzle 128B"},
    {"interleave-mode", RuleFamily::kTensorMap, Severity::kError, "interleave",
     "gather4, scatter4, im2col::w and im2col::w::128 do not support interleaved layouts.",
     kSrcPtxInterleave,
     "--mode gather4 --interleave 16B --swizzle none"},
    {"packed-u6-interleave", RuleFamily::kTensorMap, Severity::kError, "interleave",
     "16U6_ALIGN16B requires INTERLEAVE_NONE.",
     kSrcAll,
     "--dtype 16u6_align16b --dims 4096,64,4 --box 128,64,1 --interleave 16B --swizzle none --target sm_100a"},
    {"packed-swizzle", RuleFamily::kTensorMap, Severity::kError, "swizzle",
     "16U4_ALIGN16B and 16U6_ALIGN16B support only the swizzles cuda.h lists for them.",
     kSrcAll,
     "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --swizzle 64B --target sm_100a"},
    {"packed-direction", RuleFamily::kTensorMap, Severity::kError, "direction",
     "16U4_ALIGN16B is load only; 16U6_ALIGN16B with 128B_ATOM_64B is store only; reductions take no sub-byte type.",
     "cuda.h (CUDA 13.0) swizzle lists for packed types; PTX ISA 9.2 section 9.7.9.25.5.1",
     "--dtype 16u4_align16b --dims 4096,64 --box 128,64 --direction store --target sm_100a"},
    {"oob-nan-float", RuleFamily::kTensorMap, Severity::kError, "oob_fill",
     "OOB NaN fill needs a floating-point data type.",
     kSrcAll,
     "--dtype u32 --box 32,128 --oob nan"},
    {"im2col-lower-corner-range", RuleFamily::kTensorMap, Severity::kError, "pixel_box_lower_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     kSrcIm2col,
     "--mode im2col --lower-corner -200,-1"},
    {"im2col-upper-corner-range", RuleFamily::kTensorMap, Severity::kError, "pixel_box_upper_corner[i]",
     "Corners are within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5).",
     kSrcIm2col,
     "--mode im2col --upper-corner 200,-1"},
    {"im2col-box-area", RuleFamily::kTensorMap, Severity::kError, "pixel_box_upper_corner[i]",
     "The im2col bounding box has non-zero area: dim + upper - lower >= 1 along each of D, H, W.",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2col; measured (H200, docs/hardware.md D7)",
     "--mode im2col --dims 64,4,56,32 --lower-corner 2,-1 --upper-corner -3,-1"},
    {"im2col-interleave-box-area", RuleFamily::kTensorMap, Severity::kError, "pixel_box_upper_corner[i]",
     "With an interleaved layout the driver checks im2col corner i against global_dim[i]: dim + upper - lower >= 1.",
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B3); undocumented in cuda.h",
     "--mode im2col --dims 64,56,56,32 --interleave 16B --swizzle none --lower-corner 70,0 --upper-corner 0,0"},
    {"im2col-spatial-dim-int32", RuleFamily::kTensorMap, Severity::kError, "global_dim[i]",
     "Along W, H and D, global_dim + upper corner is at most 2^31 - 1 (the driver computes the pixel box in int32).",
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B2); undocumented in cuda.h",
     "--mode im2col --rank 3 --dims 64,2147483647,2 --lower-corner -1 --upper-corner 1 --swizzle none"},
    {"im2col-channels-range", RuleFamily::kTensorMap, Severity::kError, "channels_per_pixel",
     "channels_per_pixel is 1 to 256 (exactly 128 for the ALIGN16B packed types).",
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 measured rejected (H200, docs/hardware.md D7)",
     "--mode im2col --channels 300 --swizzle none"},
    {"im2col-channels-bytes-16", RuleFamily::kTensorMap, Severity::kError, "channels_per_pixel",
     "channels_per_pixel x element size is a multiple of 16 bytes.",
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md D7); undocumented in cuda.h",
     "--mode im2col --channels 60 --swizzle none"},
    {"im2col-pixels-range", RuleFamily::kTensorMap, Severity::kError, "pixels_per_column",
     "pixels_per_column is 1 to 1024 (range-checked even in im2col::w::128 mode).",
     "cuda.h (CUDA 13.0) Im2col and Im2colWide; 0 and 1025 measured rejected (H200, docs/hardware.md D7, D8)",
     "--mode im2col --pixels 2000"},
    {"wide-lower-corner-range", RuleFamily::kTensorMap, Severity::kError, "pixel_box_lower_corner_width",
     "pixel_box_lower_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver "
     "enforces the im2col range).",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)",
     "--mode im2col::w --lower-corner-w -200"},
    {"wide-upper-corner-range", RuleFamily::kTensorMap, Severity::kError, "pixel_box_upper_corner_width",
     "pixel_box_upper_corner_width is within the rank's im2col corner range (cuda.h says [-32768, 32767]; the driver "
     "enforces the im2col range).",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; measured per-rank range (docs/hardware.md B4)",
     "--mode im2col::w --upper-corner-w 200"},
    {"wide-box-area", RuleFamily::kTensorMap, Severity::kError, "pixel_box_upper_corner_width",
     "The W bounding box has non-zero area: W + upper - lower >= 1.",
     kSrcWide,
     "--mode im2col::w --dims 64,4,56,32 --lower-corner-w 3 --upper-corner-w -3"},
    {"wide-swizzle", RuleFamily::kTensorMap, Severity::kError, "swizzle",
     "im2col::w maps use SWIZZLE_64B, SWIZZLE_128B or SWIZZLE_128B_ATOM_32B.",
     "cuda.h (CUDA 13.0), cuTensorMapEncodeIm2colWide; PTX ISA 9.2 section 5.5.5",
     "--mode im2col::w --swizzle 32B --channels 16"},
    {"wide-mode-mismatch", RuleFamily::kTensorMap, Severity::kError, "wide_mode",
     "wide_mode agrees with the mode (W for im2col::w, W128 for im2col::w::128).",
     kSrcPtxWide,
     "--mode im2col::w --wide-mode w128"},
    {"wide-w128-pixels", RuleFamily::kTensorMap, Severity::kNote, "pixels_per_column",
     "im2col::w::128 always moves 128 pixels; pixels_per_column is ignored.",
     kSrcWide,
     "--mode im2col::w::128 --pixels 64"},
    {"im2col-store-corners", RuleFamily::kTensorMap, Severity::kError, "pixel_box_lower_corner",
     "Stores and reductions through im2col maps keep the bounding box inside the tensor (lower >= 0, upper <= 0).",
     "PTX ISA 9.2 section 9.7.9.25.5.1 (.global.shared::cta direction); PTX ISA section 5.5.5.1 (im2col_no_offs::w)",
     "--mode im2col --direction store"},
    {"mode-direction", RuleFamily::kTensorMap, Severity::kError, "direction",
     "gather4 and im2col::w::128 are loads; scatter4 is a store.",
     "PTX ISA 9.2 section 9.7.9.25.5.2 (cp.async.bulk.tensor syntax: load_mode per direction)",
     "--mode gather4 --direction store"},
    {"swizzle-flip8b-load-only", RuleFamily::kTensorMap, Severity::kError, "swizzle",
     "SWIZZLE_128B_ATOM_32B_FLIP_8B is legal only for copies into shared memory.",
     "PTX ISA 9.2 section 5.5.7 (swizzling modes)",
     "--swizzle 128B_atom_32B_flip_8B --direction store --target sm_100a"},
    {"reduce-op-type", RuleFamily::kTensorMap, Severity::kError, "reduce_op",
     "The reduction operation supports the data type (.add: u32 s32 u64 f32 f16 bf16; .min/.max: u32 s32 u64 s64 f16 "
     "bf16; .inc/.dec: u32; .and/.or/.xor: u32, s32, u64).",
     "PTX ISA 9.2 section 9.7.9.25.5.3 (cp.reduce.async.bulk.tensor); bitwise ops measured on an H200 "
     "(docs/hardware.md)",
     "--direction reduce --reduce-op xor"},
    {"store-past-row-end", RuleFamily::kTensorMap, Severity::kWarning, "global_dim[0]",
     "A store or reduction whose row (global_dim[0] x element size) is not a multiple of 16 bytes also writes the "
     "rest of the row's last 16-byte chunk, past the row's end (into the row pitch's padding, or past the tensor's "
     "end).",
     "measured: H200 sm_90, driver 580.159.04 (docs/model.md M7: stores and reductions write the whole 16-byte chunk "
     "holding a row's last element; tests/model/gpu/tma_probe.cu)",
     "--dtype u8 --dims 466,64 --strides 480 --box 64,64 --swizzle none --direction store"},
    {"target-swizzle-atomicity", RuleFamily::kTensorMap, Severity::kError, "swizzle",
     "The 128B_ATOM_* swizzles need compute capability 10.0 or later.",
     "PTX ISA 9.2 section 9.7.9.26 (.swizzle_atomicity targets); measured rejected on sm_90 (H200, docs/hardware.md "
     "D6)",
     "--swizzle 128B_atom_32B --target sm_90a"},
    {"target-sub-byte", RuleFamily::kTensorMap, Severity::kError, "tensor_data_type",
     "The 16U4 and 16U6 data types need compute capability 10.0 or later.",
     "PTX ISA 9.2 section 9.7.9.26 (.elemtype 13-15 targets); measured rejected on sm_90 (H200, docs/hardware.md D6)",
     "--dtype 16u4_align8b --box 128,64 --target sm_90a"},
    {"target-mode", RuleFamily::kTensorMap, Severity::kError, "mode",
     "gather4 and im2col::w need sm_100 or later (the a/f targets for .shared::cluster and prefetch); scatter4 and "
     "im2col::w::128 need sm_100a/sm_101a/sm_103a/sm_110a or a family target.",
     kSrcPtxTargets,
     "--mode gather4 --target sm_90a"},
    {"target-sm120-cluster", RuleFamily::kTensorMap, Severity::kError, "direction",
     "On sm_120 class targets, copies to .shared::cluster support neither sub-byte types nor swizzle atomicity.",
     kSrcPtxCopy,
     "--swizzle 128B_atom_32B --direction load_cluster --target sm_120a"},
    {"target-smem-capacity", RuleFamily::kTensorMap, Severity::kError, "box_dim",
     "What one copy writes (im2col::w::128: 128 pixels, whatever pixels_per_column) fits the shared memory a block "
     "can have on the target (227 KiB; 99 KiB on sm_120 class).",
     "CUDA Programming Guide, compute capabilities table (shared memory per block); driver behaviour measured",
     "--dtype f32 --box 256,256 --swizzle none --direction load"},
    {"box-driver-size-limit", RuleFamily::kTensorMap, Severity::kError, "box_dim",
     "The box the driver checks (tiled: prod floor(box_dim / element_strides); im2col modes, im2col::w::128 "
     "included: channels x pixels_per_column) x element size fits the target's shared memory per SM (228 KiB on "
     "sm_90), whatever the direction.",
     "measured: H200 sm_90, driver 580.159.04 (docs/hardware.md B1); undocumented in cuda.h",
     "--dtype f32 --box 256,256 --swizzle none --direction prefetch"},
    {"smem-align-128", RuleFamily::kTensorMap, Severity::kError, "smem_address",
     "The shared-memory destination is 128-byte aligned.",
     kSrcCpgAlign,
     "--smem-address 0x40"},
    {"smem-swizzle-phase", RuleFamily::kTensorMap, Severity::kWarning, "smem_address",
     "A swizzled destination should start on the swizzle repeat (256, 512 or 1024 B) so the base offset is 0.",
     "PTX ISA 9.2 section 5.5.7 (swizzle base offset); CUDA Programming Guide swizzle table",
     "--smem-address 0x80"},
    {"driver-version", RuleFamily::kTensorMap, Severity::kError, "driver_version",
     "Tensor maps need driver 12.0; sub-byte types, atomicity swizzles and Im2colWide need 12.8.",
     "cudaTypedefs.h (CUDA 13.0): PFN_cuTensorMapEncodeIm2colWide_v12080, the encoder and enumerators of CUDA 12.8",
     "--driver-version 11080"},
    {"driver-oob-address-bug", RuleFamily::kTensorMap, Severity::kWarning, "driver_version",
     "On Blackwell the driver can mis-encode maps of tensors that are not dense and non-overlapping and span under "
     "128 KiB (no fixed driver version is known).",
     "NVIDIA Data Center driver release notes 595.71.05 and 595.91.07 (CUDA 13.2 drivers), known issues: "
     "\"cuTensorMapEncodeTiled() or cuTensorMapEncodeIm2col*() on Blackwell GPUs ... when the tensor's backing "
     "memory allocation is less than 128KB and it is not a dense non-overlapping tensor\", work-around: clear bit 85 "
     "(quoted in triton-lang/triton#10442); work-arounds gated on driver < 13.2: CUTLASS 4.3.4 (commit b7ecaa605), "
     "CCCL PR 6985 (nvbug 5736804), Triton PR 9235; 13.2/13.3 forward-compatibility drivers reported still affected: "
     "triton-lang/triton#11011",
     "--dims 64,64 --strides 256 --box 64,64 --driver-version 13000 --target sm_100a"},
    {"unused-field", RuleFamily::kTensorMap, Severity::kNote, "",
     "Fields the chosen mode or direction does not use are ignored.",
     "cuda.h (CUDA 13.0) encoder signatures",
     "--channels 64"},
    // ---- shared-memory matrix descriptors: the checks in src/desc/desc_rules.cc ----
    {"desc-layout-type-invalid", RuleFamily::kSmemDescriptor, Severity::kError, "layout_type",
     "tcgen05 layout types are 0, 1, 2, 4 and 6; 3, 5 and 7 are invalid.",
     kSrcTcDesc,
     "desc decode 0x6000004000010040 --arch tcgen05"},
    {"desc-tcgen05-version", RuleFamily::kSmemDescriptor, Severity::kError, "fixed_0b001",
     "tcgen05 descriptors carry the fixed constant 0b001 in bits 46-48.",
     kSrcTcDesc,
     "desc decode 0x4000004000010040 --arch tcgen05"},
    {"desc-tcgen05-fixed-zero", RuleFamily::kSmemDescriptor, Severity::kError, "fixed_zero",
     "tcgen05 descriptors have 0 in bits 53-60.",
     kSrcTcDesc,
     "desc decode 0x4160404000010040 --arch tcgen05"},
    {"desc-reserved-bits", RuleFamily::kSmemDescriptor, Severity::kError, "reserved",
     "No bit is set outside the family's fields.",
     kSrcBoth,
     "desc decode 0x400040400001c040 --arch tcgen05"},
    {"desc-base-offset-no-swizzle", RuleFamily::kSmemDescriptor, Severity::kWarning, "base_offset",
     "The base offset is 0 without swizzling (it is ignored there).",
     kSrcBase,
     "desc decode 0x0002404000010040 --arch tcgen05"},
    {"desc-base-offset-range", RuleFamily::kSmemDescriptor, Severity::kWarning, "base_offset",
     "The base offset names a row within the swizzle repeat: 0..7 (128B), 0..3 (64B, 128B_atom_32B), 0..1 (32B).",
     kSrcBase,
     "desc decode 0x800e404000010040 --arch tcgen05"},
    {"desc-arch-target", RuleFamily::kSmemDescriptor, Severity::kError, "target",
     "wgmma descriptors need sm_90a; tcgen05 descriptors need an sm_100a-family target.",
     kSrcTargets,
     "desc tcgen05 --target sm_90a"},
    {"desc-lbo-absolute-target", RuleFamily::kSmemDescriptor, Severity::kError, "lbo_mode",
     "The absolute leading-dimension address mode (bit 52) exists on sm_103a only.",
     kSrcTcAbs,
     "desc tcgen05 --lbo-mode absolute --lbo 0x400 --target sm_100a"},
    {"desc-lbo-absolute-swizzle", RuleFamily::kSmemDescriptor, Severity::kError, "lbo_mode",
     "The absolute leading-dimension address mode needs 128B swizzle with 16-byte atomicity.",
     kSrcTcAbs,
     "desc tcgen05 --lbo-mode absolute --lbo 0x400 --swizzle 64B --target sm_103a"},
    {"desc-lbo-absolute-base-offset", RuleFamily::kSmemDescriptor, Severity::kError, "base_offset",
     "The absolute leading-dimension address mode needs base offset 0.",
     kSrcTcAbs,
     "desc tcgen05 --lbo-mode absolute --lbo 0x400 --base-offset 1 --smem-address 0x80 --target sm_103a"},
    {"desc-sbo-zero", RuleFamily::kSmemDescriptor, Severity::kWarning, "stride_byte_offset",
     "SBO is not 0 (a decoded value; with a tile, desc-stride-zero decides).",
     kSrcWgmmaLayout,
     "desc decode 0x4000000000010040 --arch tcgen05"},
    {"desc-start-align-16", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "The matrix start address is 16-byte aligned.",
     kSrcTcDesc,
     "desc tcgen05 --smem-address 0x408"},
    {"desc-lbo-align-16", RuleFamily::kSmemDescriptor, Severity::kError, "leading_byte_offset",
     "The leading-dimension byte offset is a multiple of 16 bytes.",
     kSrcTcDesc,
     "desc tcgen05 --swizzle none --lbo 24"},
    {"desc-sbo-align-16", RuleFamily::kSmemDescriptor, Severity::kError, "stride_byte_offset",
     "The stride-dimension byte offset is a multiple of 16 bytes.",
     kSrcTcDesc,
     "desc tcgen05 --sbo 1032"},
    {"desc-start-range", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "The start address fits the 14-bit field of 16-byte units (below 256 KiB).",
     kSrcBoth,
     "desc tcgen05 --smem-address 0x40000"},
    {"desc-lbo-range", RuleFamily::kSmemDescriptor, Severity::kError, "leading_byte_offset",
     "LBO fits the 14-bit field of 16-byte units (at most 262128 B).",
     kSrcBoth,
     "desc tcgen05 --swizzle none --lbo 0x40000"},
    {"desc-sbo-range", RuleFamily::kSmemDescriptor, Severity::kError, "stride_byte_offset",
     "SBO fits the 14-bit field of 16-byte units (at most 262128 B).",
     kSrcBoth,
     "desc tcgen05 --sbo 0x40000"},
    {"desc-base-offset-mismatch", RuleFamily::kSmemDescriptor, Severity::kError, "base_offset",
     "A given base offset equals (start % repeat) / 128 of the tile.",
     kSrcBase,
     "desc tcgen05 --smem-address 0x480 --base-offset 0"},
    {"desc-start-swizzle-phase", RuleFamily::kSmemDescriptor, Severity::kWarning, "start_address",
     "A swizzled tile should start on the swizzle repeat (256, 512 or 1024 B) so that its base offset is 0.",
     kSrcBase,
     "desc tcgen05 --smem-address 0x480"},
    {"desc-wgmma-swizzle", RuleFamily::kSmemDescriptor, Severity::kError, "layout_type",
     "wgmma has no 128B-with-32-byte-atomicity layout.",
     kSrcWgmmaDesc,
     "desc wgmma --swizzle 128B_atom_32B --dtype tf32"},
    {"desc-wgmma-type", RuleFamily::kSmemDescriptor, Severity::kError, "dtype",
     "wgmma reads no 6- or 4-bit operands.",
     kSrcWgmmaTypes,
     "desc wgmma --dtype e2m1"},
    {"desc-wgmma-mn-major-type", RuleFamily::kSmemDescriptor, Severity::kError, "major",
     "wgmma reads MN-major operands from shared memory only for f16 and bf16.",
     kSrcWgmmaTypes,
     "desc wgmma --major MN --dtype e4m3"},
    {"desc-k-major-atom32", RuleFamily::kSmemDescriptor, Severity::kError, "layout_type",
     "128B swizzle with 32-byte atomicity is not a K-major layout.",
     kSrcTable54,
     "desc tcgen05 --swizzle 128B_atom_32B --dtype bf16"},
    {"desc-mn-major-sub-byte", RuleFamily::kSmemDescriptor, Severity::kError, "major",
     "tcgen05 reads 6- and 4-bit operands K-major only.",
     kSrcTable54,
     "desc tcgen05 --major MN --dtype e2m1"},
    {"desc-mn-major-tf32-swizzle", RuleFamily::kSmemDescriptor, Severity::kError, "layout_type",
     "MN-major 32-bit operands use only 128B swizzle with 32-byte atomicity.",
     kSrcTable54,
     "desc tcgen05 --major MN --dtype tf32 --swizzle 32B"},
    {"desc-atom32-type", RuleFamily::kSmemDescriptor, Severity::kError, "layout_type",
     "128B swizzle with 32-byte atomicity is for MN-major 32-bit operands only.",
     kSrcTable54,
     "desc tcgen05 --major MN --swizzle 128B_atom_32B --dtype bf16"},
    {"desc-tile-mn", RuleFamily::kSmemDescriptor, Severity::kError, "tile",
     "The tile's M/N is a multiple of 8 rows (K-major) or of 16 bytes (MN-major).",
     kSrcWgmmaLayout,
     "desc tcgen05 --tile 100,64"},
    {"desc-tile-k", RuleFamily::kSmemDescriptor, Severity::kError, "tile",
     "The tile's K is a multiple of 16 bytes (K-major) or of the atom's K rows (MN-major).",
     kSrcWgmmaLayout,
     "desc tcgen05 --tile 128,20"},
    {"desc-tile-k-step", RuleFamily::kSmemDescriptor, Severity::kError, "tile",
     "The tile holds at least one MMA's K.",
     kSrcT39,
     "desc tcgen05 --tile 128,8"},
    {"desc-tile-k-atoms", RuleFamily::kSmemDescriptor, Severity::kNote, "tile",
     "A swizzled K-major tile wider than one atom is read one atom-wide slab per K slice.",
     kSrcWgmmaLayout,
     "desc tcgen05 --tile 128,128"},
    {"desc-lbo-unused", RuleFamily::kSmemDescriptor, Severity::kNote, "leading_byte_offset",
     "Swizzled K-major layouts do not use LBO (assumed 1).",
     kSrcWgmmaLayout,
     "desc tcgen05 --lbo 512"},
    {"desc-lbo-canonical", RuleFamily::kSmemDescriptor, Severity::kWarning, "leading_byte_offset",
     "A given LBO equals the dense tile's.",
     kSrcWgmmaLayout,
     "desc tcgen05 --swizzle none --lbo 4096"},
    {"desc-sbo-canonical", RuleFamily::kSmemDescriptor, Severity::kWarning, "stride_byte_offset",
     "A given SBO equals the dense tile's.",
     kSrcWgmmaLayout,
     "desc tcgen05 --sbo 2048"},
    {"desc-lbo-absolute-major", RuleFamily::kSmemDescriptor, Severity::kError, "lbo_mode",
     "The absolute leading-dimension address mode is for K-major operands only.",
     kSrcTcAbs,
     "desc tcgen05 --lbo-mode absolute --lbo 0x400 --major MN --target sm_103a"},
    {"desc-smem-capacity", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "The tile lies within the shared memory a block can have.",
     kSrcSmemCap,
     "desc tcgen05 --tile 256,256 --smem-address 0x30000"},
    {"desc-stride-zero", RuleFamily::kSmemDescriptor, Severity::kError, "leading_byte_offset|stride_byte_offset",
     "LBO and SBO are not 0 where the tile has more than one core matrix in their direction.",
     kSrcWgmmaLayout,
     "desc tcgen05 --swizzle none --lbo 0"},
    {"desc-advance-align-16", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "A K slice or sub-tile starts a multiple of 16 bytes into the tile.",
     kSrcAdvance,
     "desc tcgen05 --swizzle none --tile 64,64 --dtype e2m1 --sub-tile 0,1"},
    {"desc-advance-base-offset", RuleFamily::kSmemDescriptor, Severity::kWarning, "base_offset",
     "Advancing into another row of the swizzle pattern changes the base offset.",
     kSrcBase,
     "desc tcgen05 --tile 128,64 --sub-tile 1,0"},
    {"desc-advance-range", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "The advanced start address fits the 14-bit field.",
     kSrcBoth,
     "desc tcgen05 --tile 128,128 --smem-address 0x3c000 --k-slice 4"},
    {"desc-advance-outside-tile", RuleFamily::kSmemDescriptor, Severity::kError, "start_address",
     "The K slice or sub-tile lies inside the tile.",
     kSrcAdvance,
     "desc tcgen05 --tile 128,64 --sub-tile 200,0"},
    // ---- a descriptor against the tensor map that fills its buffer (src/desc/desc_rules.cc) ----
    {"map-interleave", RuleFamily::kMapDescriptor, Severity::kError, "interleave",
     "Maps that feed an MMA descriptor are not interleaved.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"f16\",\"global_dim\":[64,64,4],\"box_dim\":[64,64,2],\"interleave\":\"16B\",\"swizzle\":\"none\"}"},
    {"map-swizzle-unsupported", RuleFamily::kMapDescriptor, Severity::kError, "swizzle",
     "The map's swizzle has a descriptor counterpart in the family.",
     kSrcMap,
     "desc wgmma --for-map {\"tensor_data_type\":\"f32\",\"global_dim\":[64,64],\"box_dim\":[32,64],\"swizzle\":\"128B_atom_32B\"}"},
    {"map-dtype", RuleFamily::kMapDescriptor, Severity::kError, "tensor_data_type",
     "The map's data type is an MMA operand type.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"f64\",\"global_dim\":[64,64],\"box_dim\":[16,64],\"swizzle\":\"128B\"}"},
    {"map-type-bits", RuleFamily::kMapDescriptor, Severity::kError, "tensor_data_type",
     "The MMA operand type and the map's data type have the same size in shared memory.",
     kSrcMap,
     "desc tcgen05 --dtype f16 --for-map {\"tensor_data_type\":\"f32\",\"global_dim\":[64,64],\"box_dim\":[32,64],\"swizzle\":\"128B\"}"},
    {"map-box-wider-than-atom", RuleFamily::kMapDescriptor, Severity::kError, "box_dim[0]",
     "A box row is no wider than one swizzle atom (16 B without swizzle) along the contiguous dimension.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[256,64],\"box_dim\":[128,64],\"swizzle\":\"none\"}"},
    {"map-box-narrower-than-atom", RuleFamily::kMapDescriptor, Severity::kError, "box_dim[0]",
     "A swizzled box row is exactly one swizzle atom wide.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[256,64],\"box_dim\":[32,64],\"swizzle\":\"128B\"}"},
    {"map-dst-align-128", RuleFamily::kMapDescriptor, Severity::kError, "smem_address",
     "The map's shared-memory destination is 128-byte aligned.",
     kSrcCpgSmemAlign,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":64}"},
    {"map-dst-phase", RuleFamily::kMapDescriptor, Severity::kWarning, "smem_address",
     "The map's destination is on the swizzle repeat (else every descriptor needs the base offset).",
     kSrcBase,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1152}"},
    {"map-layout-encoding", RuleFamily::kMapDescriptor, Severity::kWarning, "layout_type",
     "A layout type that disagrees with the map is not the other family's code for the map's swizzle (wgmma 1/2/3 = "
     "128B/64B/32B; tcgen05 2/4/6, 1 = 128B_atom_32B).",
     kSrcTcDesc,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x2000404000010040"},
    {"map-swizzle-mismatch", RuleFamily::kMapDescriptor, Severity::kError, "layout_type",
     "The descriptor's swizzle is the map's.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x8000404000010040"},
    {"map-atomicity-mismatch", RuleFamily::kMapDescriptor, Severity::kError, "layout_type",
     "The descriptor's swizzle atomicity is the map's (16 B for 128B, 32 B for 128B_ATOM_32B).",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x2000404000010040"},
    {"map-lbo-mismatch", RuleFamily::kMapDescriptor, Severity::kError, "leading_byte_offset",
     "LBO matches the box layout (where LBO is used).",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[8,128],\"swizzle\":\"none\",\"smem_address\":1024} --check 0x0000400800400040"},
    {"map-sbo-mismatch", RuleFamily::kMapDescriptor, Severity::kError, "stride_byte_offset",
     "SBO matches the box layout.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000408000010040"},
    {"map-base-offset-mismatch", RuleFamily::kMapDescriptor, Severity::kError, "base_offset",
     "The base offset matches the phase the TMA wrote the box with.",
     kSrcBase,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4002404000010040"},
    {"map-start-outside", RuleFamily::kMapDescriptor, Severity::kError, "start_address",
     "The descriptor starts inside the box the map writes.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000404000010010"},
    {"map-start-offset", RuleFamily::kMapDescriptor, Severity::kWarning, "start_address",
     "A descriptor that starts inside the box starts at one of its K slices.",
     kSrcMap,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000404000010041"},
    {"map-chunks-disagree", RuleFamily::kMapDescriptor, Severity::kError, "",
     "Every 16-byte chunk of the first K slice is read where the map wrote it.",
     kSrcModel,
     "desc tcgen05 --for-map {\"tensor_data_type\":\"bf16\",\"global_dim\":[64,128],\"box_dim\":[64,128],\"swizzle\":\"128B\",\"smem_address\":1024} --check 0x4000402000010040"},
    // ---- the tcgen05 instruction descriptor (src/desc/desc_rules.cc) ----
    {"idesc-variant", RuleFamily::kInstrDescriptor, Severity::kError, "cta_group",
     "The kind exists for the cta_group and .ws form (.ws: cta_group 1, no block-scaled kinds).",
     kSrcT39,
     "idesc --kind mxf4 --ws"},
    {"idesc-m", RuleFamily::kInstrDescriptor, Severity::kError, "m",
     "M is valid for the form: kind, cta_group, .ws and sparsity.",
     kSrcT39,
     "idesc --m 100"},
    {"idesc-n", RuleFamily::kInstrDescriptor, Severity::kError, "n",
     "N is valid for the form: kind, cta_group, .ws, sparsity and A source (A in tensor memory: N a multiple of 16 "
     "for M = 128 with cta_group 1, of 32 with cta_group 2).",
     kSrcT39TS,
     "idesc --n 260"},
    {"idesc-a-tmem-transpose", RuleFamily::kInstrDescriptor, Severity::kError, "transpose_a",
     "A read from tensor memory ([a_tmem]) is K-major: the transpose-A bit is 0.",
     kSrcTS,
     "idesc --a-source tmem --a-major MN"},
    {"idesc-k96", RuleFamily::kInstrDescriptor, Severity::kError, "k",
     "K = 96 (mxf4, mxf4nvf4) is dense, .cta_group::2, M = 256, on sm_103a.",
     kSrcT39,
     "idesc --kind mxf4nvf4 --k 96 --target sm_103a"},
    {"idesc-d-type", RuleFamily::kInstrDescriptor, Severity::kError, "d_type",
     "The D type is valid for the kind (tf32: f32; f16: f16 or f32, bf16 inputs f32; f8f6f4: f16 or f32; i8: s32).",
     kSrcT42,
     "idesc --kind i8 --d-type f32"},
    {"idesc-ab-type", RuleFamily::kInstrDescriptor, Severity::kError, "a_type|b_type",
     "A and B type codes are types of the kind.",
     kSrcT42,
     "idesc decode 0x08401c10 --kind tf32"},
    {"idesc-ab-type-match", RuleFamily::kInstrDescriptor, Severity::kError, "b_type",
     ".kind::f16 multiplies like types (f16 x f16, bf16 x bf16).",
     kSrcT39,
     "idesc --a-type f16 --b-type bf16"},
    {"idesc-negate-i8", RuleFamily::kInstrDescriptor, Severity::kError, "negate_a",
     ".kind::i8 does not negate.",
     kSrcT42,
     "idesc --kind i8 --negate-a"},
    {"idesc-saturate", RuleFamily::kInstrDescriptor, Severity::kError, "saturate",
     "Saturate is set only for .kind::i8.",
     kSrcT42,
     "idesc --saturate"},
    {"idesc-transpose-kind", RuleFamily::kInstrDescriptor, Severity::kError, "transpose_a",
     ".kind::mxf4 and .kind::mxf4nvf4 do not transpose.",
     kSrcT42,
     "idesc --kind mxf4 --m 128 --a-major MN"},
    {"idesc-transpose-type", RuleFamily::kInstrDescriptor, Severity::kError, "transpose_a|transpose_b",
     "6- and 4-bit operands are not transposed (MN-major).",
     kSrcT51,
     "idesc --kind f8f6f4 --a-type e2m1 --a-major MN"},
    {"idesc-transpose-n", RuleFamily::kInstrDescriptor, Severity::kError, "n",
     "With a transposed 8-bit B, N is a multiple of 16 (cta_group 1) or 32 (cta_group 2).",
     kSrcT51,
     "idesc --kind f8f6f4 --b-major MN --n 24"},
    {"idesc-sparse-selector", RuleFamily::kInstrDescriptor, Severity::kWarning, "sparsity_selector",
     "The sparsity selector is 0 for dense MMAs.",
     kSrcT42,
     "idesc --sparse-selector 1"},
    {"idesc-max-shift", RuleFamily::kInstrDescriptor, Severity::kError, "max_shift",
     "The maximum shift is 0, 8, 16 or 32, and non-zero only with .ws.",
     kSrcT42,
     "idesc --max-shift 8"},
    {"idesc-scale-type", RuleFamily::kInstrDescriptor, Severity::kError, "scale_type",
     ".kind::mxf8f6f4 and .kind::mxf4 use ue8m0 scale factors.",
     kSrcT42,
     "idesc --kind mxf4 --m 128 --scale-type ue4m3"},
    {"idesc-sf-id", RuleFamily::kInstrDescriptor, Severity::kError, "a_sf_id|b_sf_id",
     "Scale-factor ids fit 2 bits; .kind::mxf4 and .kind::mxf4nvf4 use 0 or 2.",
     kSrcT42,
     "idesc --kind mxf4 --m 128 --a-sf-id 1"},
    {"idesc-reserved", RuleFamily::kInstrDescriptor, Severity::kError, "reserved",
     "Reserved bits are 0.",
     kSrcT42,
     "idesc decode 0x084004d0 --kind f16"},
    {"idesc-target", RuleFamily::kInstrDescriptor, Severity::kError, "target",
     "tcgen05.mma exists on the target (.kind::i8: sm_100a, sm_101a, sm_110a).",
     kSrcTargets,
     "idesc --kind i8 --target sm_103a"},
    // ---- retired ids: kept forever, each saying what it became ----
    {"desc-advance-carry", RuleFamily::kSmemDescriptor, Severity::kWarning, "start_address",
     "Adding the step to the raw descriptor does not carry into reserved bit 14.",
     kSrcAdvance,
     "", RuleState::kRetired, "desc-advance-range",
     "Folded into desc-advance-range: adding the step to the raw descriptor carries into reserved bit 14 exactly "
     "when the advanced start address leaves its 14-bit field, which desc-advance-range reports (its message names "
     "the carry)."},
};
inline constexpr int kNumEntries = static_cast<int>(sizeof(kEntries) / sizeof(kEntries[0]));

[[noreturn]] void UnknownRuleId();  // not constexpr: a compile-time lookup of an unknown id does not compile
}  // namespace catalogue_internal

// The row of an id, for the rule tables at compile time (an unknown id does not compile).
constexpr const RuleEntry& CatalogueEntry(std::string_view id) {
  for (int i = 0; i < catalogue_internal::kNumEntries; ++i)
    if (catalogue_internal::kEntries[i].id == id) return catalogue_internal::kEntries[i];
  catalogue_internal::UnknownRuleId();
}

// Whether a rule table lists exactly the active rows of the families `family_mask` selects (bit 1 << family), in
// catalogue order: ids(i) is the id of the table's row i, n its size. The tables static_assert it.
template <typename IdAt>
constexpr bool TableFollowsCatalogue(unsigned family_mask, IdAt ids, int n) {
  int k = 0;
  for (int i = 0; i < catalogue_internal::kNumEntries; ++i) {
    const RuleEntry& e = catalogue_internal::kEntries[i];
    if (e.state != RuleState::kActive || (family_mask & (1u << static_cast<unsigned>(e.family))) == 0) continue;
    if (k >= n || ids(k) != e.id) return false;
    ++k;
  }
  return k == n;
}

// Every id once; a retired row names no other retired id and an active replacement, or none.
constexpr bool CatalogueIsConsistent() {
  using catalogue_internal::kEntries;
  using catalogue_internal::kNumEntries;
  for (int i = 0; i < kNumEntries; ++i) {
    for (int j = i + 1; j < kNumEntries; ++j)
      if (kEntries[i].id == kEntries[j].id) return false;
    const RuleEntry& e = kEntries[i];
    if (e.state == RuleState::kActive) {
      if (!e.replaced_by.empty() || !e.became.empty()) return false;
      continue;
    }
    if (e.became.empty() || !e.example.empty()) return false;
    if (e.replaced_by.empty()) continue;
    bool found = false;
    for (int j = 0; j < kNumEntries; ++j)
      if (kEntries[j].id == e.replaced_by) found = kEntries[j].state == RuleState::kActive;
    if (!found) return false;
  }
  return true;
}
static_assert(CatalogueIsConsistent(), "rule catalogue: a duplicate id, or a retired row without what it became");

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_RULE_CATALOGUE_DATA_H_
