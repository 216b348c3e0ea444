// wgmma_check.h: `tmapgen check --wgmma`: the proof that tensor maps and tmapgen's wgmma descriptors agree on
// real hardware (sm_90a). For each element type (bf16, f16: K-major and MN-major A and B; tf32, e4m3: K-major)
// and each swizzle (none, 32B, 64B, 128B), A (64 x K) and B (K x 64) are loaded through tensor maps in the
// descriptor builder's TMA order (one box per swizzle-row-wide slab), wgmma.mma_async m64n64 runs over the K
// slices with the descriptors of BuildSmemDesc / AdvanceKSlice (src/desc/smem_descriptor.h), and D is compared
// with a float64 CPU product (the inputs are exact in every type, so D must match exactly).
//
// Runs in a child process (the GPU runtime's worker, src/gpu/runtime/worker.h: restarted after a fault, which is
// then reported for that configuration). Returns
// 0 when every configuration matched, 1 on a mismatch / timeout / fault, 2 when no GPU (or not sm_90).
#ifndef TMAPGEN_SRC_GPU_CHECK_WGMMA_CHECK_H_
#define TMAPGEN_SRC_GPU_CHECK_WGMMA_CHECK_H_

#include <cstdio>
#include <string>
#include <vector>

#include "src/desc/desc_types.h"

namespace tmapgen::gpu {

struct WgmmaCase {
  desc::ElemType type = desc::ElemType::kBF16;
  desc::Major a_major = desc::Major::kK;
  desc::Major b_major = desc::Major::kK;
  desc::DescSwizzle swizzle = desc::DescSwizzle::k128B;
  std::string label;
};

std::vector<WgmmaCase> WgmmaCases();

int RunWgmmaProof(FILE* out);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_WGMMA_CHECK_H_
