// check_main.cc: compiled against the header that `tmapgen codegen` generates from known.jsonl (with
// --desc tile_a:wgmma:A:K --idesc kind=f16,m=128,n=256,a-type=bf16,b-type=bf16,d-type=f32,name=mma)
// by cpp_compile_check.sh. Every expected number is computed by hand from the spec, not by the tool.
#include "known.gen.h"

namespace g = tmapgen_gen;

// tile_a: f16 box 64 x 128, SWIZZLE_128B: 64 * 128 * 2 B = 16384 B per copy; rows of 128 B = the span,
// so the footprint is the same; a 128B swizzle repeats every 1024 B.
static_assert(g::tile_a::kTransactionBytes == 64 * 128 * 2, "tile_a transaction bytes");
static_assert(g::tile_a::kSmemFootprintBytes == 16384, "tile_a footprint");
static_assert(g::tile_a::kSmemAlignmentRecommended == 1024 && g::tile_a::kSmemAlignmentRequired == 128, "tile_a alignment");
static_assert(g::tile_a::kBoxDim0 == 64 && g::tile_a::kBoxDim1 == 128, "tile_a box");
static_assert(g::tile_a::kGlobalStrides[0] == 8192, "tile_a stride");
static_assert(g::tile_a::kCoord0Multiple == 8, "16 bytes of f16");
// wgmma A, K-major, 128B swizzle: layout type 1 at bits 62-63, SBO = 8 rows x 128 B = 1024 B -> 64 at
// bits 32-45, LBO unused for swizzled K-major (encoded 1) at bits 16-29, start address clear.
static_assert(g::tile_a::kWgmmaDescA == ((1ull << 62) | (64ull << 32) | (1ull << 16)), "wgmma descriptor");
static_assert(g::tile_a::WgmmaDescA(0x400u) == (g::tile_a::kWgmmaDescA | 0x40ull), "start address 0x400 >> 4");
// "my-map.v2": im2col, 128 pixels x 64 channels of f16 = 16384 B.
static_assert(g::my_map_v2::kTransactionBytes == 128 * 64 * 2, "im2col transaction bytes");
static_assert(g::my_map_v2::kLowerCorner[0] == -1 && g::my_map_v2::kUpperCorner[1] == -1, "corners");
// "class" (a keyword): bf16 box 32 x 64, SWIZZLE_64B: 32 * 64 * 2 = 4096 B; 64B swizzle repeats every 512 B.
static_assert(g::class_::kTransactionBytes == 4096 && g::class_::kSmemAlignmentRecommended == 512, "keyword-named map");
// Unnamed fourth spec (map3): f32 box 32 x 8 x 4 with element strides 1, 2, 2:
// 32 * ceil(8/2) * ceil(4/2) = 256 elements x 4 B = 1024 B; no swizzle: 128 B alignment.
static_assert(g::map3::kTransactionBytes == 1024 && g::map3::kSmemAlignmentRecommended == 128, "strided box");
// fp4_b: 16U4_ALIGN16B box 128 x 128 (DeepGEMM's FP4 operand: BLOCK_K = 128 elements of K per row). Shared memory
// holds 1 byte per element (PTX 5.5.1.1 .b4x16_p64: 8 bytes of data + 8 of padding per 16 elements): 16384 B.
// The mbarrier counts the packed 4 bits: 128 * 128 / 2 = 8192 B, as DeepGEMM arms SMEM_B_SIZE_PER_STAGE / 2
// (deep_gemm/include/deep_gemm/impls/sm100_fp8_fp4_gemm_1d1d.cuh l. 257-258) and CUTLASS counts sizeof_bits of the
// 4-bit type (include/cutlass/gemm/collective/sm100_blockscaled_mma_warpspecialized.hpp l. 294-296).
static_assert(g::fp4_b::kTransactionBytes == 128 * 128 / 2, "packed transaction bytes");
static_assert(g::fp4_b::kSmemFootprintBytes == 128 * 128, "padded shared-memory image");
// tcgen05 idesc .kind::f16, D f32 (bits 4-5 = 1), A bf16 (bits 7-9 = 1), B bf16 (bits 10-12 = 1),
// N >> 3 = 32 at bits 17-22, M >> 4 = 8 at bits 24-28.
static_assert(g::mma::kValue == ((1u << 4) | (1u << 7) | (1u << 10) | (32u << 17) | (8u << 24)), "idesc");
static_assert(g::mma::kK == 16, "K of .kind::f16");

int main() {
#ifndef TMAPGEN_GEN_NO_HOST
  // The host part exists with these signatures (not called: that needs a GPU and -lcuda).
  CUresult (*encode)(CUtensorMap*, void*) = &g::tile_a::Encode;
  CUresult (*replace)(CUtensorMap*, void*) = &g::tile_a::ReplaceAddress;
  CUresult (*encode_im2col)(CUtensorMap*, void*) = &g::my_map_v2::Encode;
  return (encode != nullptr && replace != nullptr && encode_im2col != nullptr) ? 0 : 1;
#else
  return 0;
#endif
}
