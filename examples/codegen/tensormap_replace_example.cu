// tensormap_replace_example.cu: builds tile_a's tensor map ON THE DEVICE with the tensormap.replace
// sequence that `tmapgen codegen --lang ptx` writes, starting from a host-encoded map of a different
// shape (f32, 1024 x 1024, box 32 x 32, no swizzle, L2 256B), then loads a box with it (the generated
// kTransactionBytes as the mbarrier count) and compares it with the tensor. The device-built map is also
// compared word by word with the one the generated host Encode() makes, for the record. Argument:
// "other" (default: the f32 template above), "same" (tile_a encoded at another address) or "zero"
// (128 zero bytes, allowed on sm_90a).
//
// Build (sm_90a), from the source root:
//   tmapgen codegen examples/codegen/tile.json --lang ptx | grep '^tensormap' |
//     sed 's/%tmap/%0/; s/%gaddr/%1/; s/ *\/\/.*//; s/.*/"&\\n"/' > tile_a.replace.inc
//   nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I examples/codegen -I . \
//        examples/codegen/tensormap_replace_example.cu -o tensormap_replace_example -lcuda
// Exit status: 0 PASS, 1 mismatch, 2 CUDA error.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "tile_a.gen.h"

namespace gen = tmapgen_gen::tile_a;

static_assert(gen::kSwizzle == 3u && gen::kRank == 2u && gen::kSmemElementBits == 16u, "SWIZZLE_128B, 2D, 16-bit");
constexpr unsigned kRows = gen::kBoxDim1;
constexpr unsigned kCols = gen::kBoxDim0;

__device__ __forceinline__ unsigned SmemAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One warp: copy the template into shared memory, apply the generated sequence, publish to `out_map`.
__global__ void BuildMap(const __grid_constant__ CUtensorMap templ, unsigned long long gaddr, CUtensorMap* out_map) {
  __shared__ __align__(128) unsigned long long m[16];
  if (threadIdx.x < 16) m[threadIdx.x] = reinterpret_cast<const unsigned long long*>(&templ)[threadIdx.x];
  __syncwarp();
  if (threadIdx.x == 0) {
    asm volatile(
#include "tile_a.replace.inc"
        ::"r"(SmemAddress(m)), "l"(gaddr)
        : "memory");
  }
  __syncwarp();
  asm volatile(
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(
          reinterpret_cast<unsigned long long>(out_map)),
      "r"(SmemAddress(m))
      : "memory");
}

__global__ void LoadTile(const CUtensorMap* map, int x0, int y0, unsigned short* out) {
  __shared__ __align__(gen::kSmemAlignmentRecommended) unsigned char tile[gen::kSmemFootprintBytes];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned bar_addr = SmemAddress(&bar);
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(reinterpret_cast<unsigned long long>(map))
                 : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(gen::kTransactionBytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            SmemAddress(tile)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(x0), "r"(y0), "r"(bar_addr)
        : "memory");
  }
  unsigned done = 0;
  while (!done) {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(bar_addr)
                 : "memory");
  }
  for (unsigned i = threadIdx.x; i < kRows * kCols; i += blockDim.x) {
    const unsigned r = i / kCols, c = i % kCols;
    const unsigned linear = r * gen::kSmemRowPitch + c * 2u;
    out[i] = *reinterpret_cast<const unsigned short*>(tile + (linear ^ (((linear >> 7) & 7u) << 4)));
  }
}

static int Check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return 0;
  std::fprintf(stderr, "FAIL: %s: %s\n", what, cudaGetErrorString(e));
  return 2;
}

int main(int argc, char** argv) {
  if (int rc = Check(cudaFree(nullptr), "CUDA init")) return rc;
  const unsigned long long elems = gen::kGlobalDim[0] * gen::kGlobalDim[1];
  std::vector<unsigned short> a(elems);
  for (unsigned long long i = 0; i < elems; ++i) a[i] = static_cast<unsigned short>(i * 7u + 3u);
  void* da = nullptr;
  void* dtempl = nullptr;
  CUtensorMap* dmap = nullptr;
  unsigned short* dout = nullptr;
  if (int rc = Check(cudaMalloc(&da, elems * 2), "cudaMalloc")) return rc;
  if (int rc = Check(cudaMalloc(&dtempl, 1024 * 1024 * 4), "cudaMalloc")) return rc;
  if (int rc = Check(cudaMalloc(reinterpret_cast<void**>(&dmap), sizeof(CUtensorMap)), "cudaMalloc")) return rc;
  if (int rc = Check(cudaMalloc(reinterpret_cast<void**>(&dout), kRows * kCols * 2), "cudaMalloc")) return rc;
  if (int rc = Check(cudaMemcpy(da, a.data(), elems * 2, cudaMemcpyHostToDevice), "copy")) return rc;

  // A template of another shape: everything the sequence sets must change.
  CUtensorMap templ;
  const cuuint64_t tdim[2] = {1024, 1024}, tstride[1] = {4096};
  const cuuint32_t tbox[2] = {32, 32}, tes[2] = {1, 1};
  CUresult cr = cuTensorMapEncodeTiled(&templ, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dtempl, tdim, tstride, tbox, tes,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (cr != CUDA_SUCCESS) { std::fprintf(stderr, "FAIL: template encode: %d\n", static_cast<int>(cr)); return 2; }
  const char* start = argc > 1 ? argv[1] : "other";
  if (std::strcmp(start, "zero") == 0) {
    std::memset(&templ, 0, sizeof templ);  // sm_90a: 128 zero bytes are a valid starting map
  } else if (std::strcmp(start, "same") == 0) {
    cr = gen::Encode(&templ, dtempl);  // the same map at another address
    if (cr != CUDA_SUCCESS) { std::fprintf(stderr, "FAIL: template encode: %d\n", static_cast<int>(cr)); return 2; }
  }
  std::printf("starting map: %s\n", start);
  BuildMap<<<1, 32>>>(templ, reinterpret_cast<unsigned long long>(da), dmap);
  if (int rc = Check(cudaDeviceSynchronize(), "BuildMap")) return rc;

  // For the record: the device-built map against the generated host Encode() (L2 promotion is the
  // template's, so equal bytes are not required; the load below is the check).
  CUtensorMap host_map, dev_map;
  cr = gen::Encode(&host_map, da);
  if (cr != CUDA_SUCCESS) { std::fprintf(stderr, "FAIL: generated Encode: %d\n", static_cast<int>(cr)); return 2; }
  if (int rc = Check(cudaMemcpy(&dev_map, dmap, sizeof dev_map, cudaMemcpyDeviceToHost), "copy map")) return rc;
  const unsigned long long* h = reinterpret_cast<const unsigned long long*>(&host_map);
  const unsigned long long* d = reinterpret_cast<const unsigned long long*>(&dev_map);
  int differing = 0;
  for (int i = 0; i < 16; ++i)
    if (h[i] != d[i]) {
      ++differing;
      std::printf("word %2d: host Encode 0x%016llx, device-built 0x%016llx\n", i, h[i], d[i]);
    }
  std::printf("device-built map vs host Encode(): %d of 16 words differ\n", differing);

  const int x0 = 64, y0 = 128;
  LoadTile<<<1, 256>>>(dmap, x0, y0, dout);
  if (int rc = Check(cudaDeviceSynchronize(), "LoadTile")) return rc;
  std::vector<unsigned short> got(kRows * kCols);
  if (int rc = Check(cudaMemcpy(got.data(), dout, got.size() * 2, cudaMemcpyDeviceToHost), "copy out")) return rc;
  int bad = 0;
  for (unsigned r = 0; r < kRows; ++r)
    for (unsigned c = 0; c < kCols; ++c) {
      const unsigned short want = a[(y0 + r) * gen::kGlobalDim[0] + (x0 + c)];
      if (got[r * kCols + c] != want && bad++ < 5)
        std::fprintf(stderr, "(%u, %u): got %u, want %u\n", r, c, got[r * kCols + c], want);
    }
  std::printf("load through the device-built map: %s (%d of %u elements differ)\n", bad ? "FAIL" : "OK", bad,
              kRows * kCols);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
