// full_map_check.cu: the whole-map constants of `tmapgen codegen --lang cpp` (kMap, computed without a
// driver) used for real TMA loads on the GPU, with the address patched on the host (PatchedMap:
// cuTensorMapReplaceAddress) and on the device (PatchGlobalAddress: tensormap.replace). Built and run by
// scripts/lab/blob-sweep.sh on a GPU host (nvcc -arch=sm_90a ... -lcuda) from the header generated for
// tests/blob/gpu/full_map_specs.jsonl. Prints one PASS/FAIL line per check; exit 0 when all pass.
//
// Expected values: the tensor's own elements (element (x, y) holds x + 256 * y), placed in shared memory
// as PTX ISA 5.5.7 describes (SWIZZLE_NONE: row-major box; SWIZZLE_128B: the 16-byte chunk c of box row r
// at chunk c ^ (r % 8) of a 1024-byte aligned tile), and the driver's own cuTensorMapEncodeTiled bytes.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "full_map.gen.h"

namespace gen = tmapgen_gen;

constexpr int kW = 256, kH = 128, kBoxW = 64, kBoxH = 32, kBoxBytes = kBoxW * kBoxH * 2;

__device__ void LoadBox(uint64_t map_address, int x, int y, uint8_t* out) {
  __shared__ alignas(1024) uint8_t tile[kBoxBytes];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t tile_s = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  const uint32_t bar_s = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(kBoxBytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(tile_s),
        "l"(map_address), "r"(x), "r"(y), "r"(bar_s)
        : "memory");
  }
  __syncthreads();
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar_s)
        : "memory");
  for (int i = threadIdx.x; i < kBoxBytes; i += blockDim.x) out[i] = tile[i];
}

__global__ void LoadWithParamMap(const __grid_constant__ CUtensorMap map, int x, int y, uint8_t* out) {
  LoadBox(reinterpret_cast<uint64_t>(&map), x, y, out);
}

__global__ void PatchInGlobal(void* gmap, const void* tensor) {
  if (threadIdx.x == 0) {
    gen::tile_sw128::PatchGlobalAddress(gmap, tensor);
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  }
}

__global__ void LoadWithGlobalMap(const void* gmap, int x, int y, uint8_t* out) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
  LoadBox(reinterpret_cast<uint64_t>(gmap), x, y, out);
}

int failures = 0;
void Report(bool ok, const char* what, const char* detail = "") {
  std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, detail[0] ? ": " : "", detail);
  if (!ok) ++failures;
}

#define CU(x)                                                                        \
  do {                                                                               \
    CUresult r_ = (x);                                                               \
    if (r_ != CUDA_SUCCESS) {                                                        \
      std::printf("FAIL %s = %d (line %d)\n", #x, static_cast<int>(r_), __LINE__); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

// The expected shared-memory image of the box at (x0, y0).
std::vector<uint8_t> Expected(int x0, int y0, bool swizzle128) {
  std::vector<uint8_t> v(kBoxBytes);
  for (int r = 0; r < kBoxH; ++r)
    for (int c = 0; c < kBoxW; ++c) {
      const uint16_t value = static_cast<uint16_t>((x0 + c) + kW * (y0 + r));
      int off = r * kBoxW * 2 + c * 2;
      if (swizzle128) off = r * 128 + ((((c * 2) >> 4) ^ (r % 8)) << 4) + ((c * 2) & 15);
      v[off] = static_cast<uint8_t>(value & 0xff);
      v[off + 1] = static_cast<uint8_t>(value >> 8);
    }
  return v;
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  int drv = 0;
  cuDriverGetVersion(&drv);
  std::printf("driver %d\n", drv);

  std::vector<uint16_t> host(kW * kH);
  for (int i = 0; i < kW * kH; ++i) host[i] = static_cast<uint16_t>(i);
  CUdeviceptr tensor, out, gmap;
  CU(cuMemAlloc(&tensor, host.size() * 2));
  CU(cuMemcpyHtoD(tensor, host.data(), host.size() * 2));
  CU(cuMemAlloc(&out, kBoxBytes));
  CU(cuMemAlloc(&gmap, 128));
  void* tp = reinterpret_cast<void*>(tensor);

  const int x0 = 64, y0 = 32;
  for (int which = 0; which < 2; ++which) {
    const bool sw = which == 0;
    alignas(64) CUtensorMap patched, encoded;
    if (sw) {
      CU(gen::tile_sw128::PatchedMap(&patched, tp));
      CU(gen::tile_sw128::Encode(&encoded, tp));
    } else {
      CU(gen::tile_plain::PatchedMap(&patched, tp));
      CU(gen::tile_plain::Encode(&encoded, tp));
    }
    const char* name = sw ? "tile_sw128" : "tile_plain";
    char what[160];
    std::snprintf(what, sizeof what, "%s: PatchedMap (kMap + cuTensorMapReplaceAddress) == cuTensorMapEncodeTiled, 128 bytes", name);
    Report(std::memcmp(&patched, &encoded, 128) == 0, what);

    LoadWithParamMap<<<1, 128>>>(patched, x0, y0, reinterpret_cast<uint8_t*>(out));
    CU(cuCtxSynchronize());
    std::vector<uint8_t> got(kBoxBytes);
    CU(cuMemcpyDtoH(got.data(), out, kBoxBytes));
    const std::vector<uint8_t> want = Expected(x0, y0, sw);
    int bad = 0;
    for (int i = 0; i < kBoxBytes; ++i) bad += got[i] != want[i];
    char detail[64];
    std::snprintf(detail, sizeof detail, "%d of %d bytes differ", bad, kBoxBytes);
    std::snprintf(what, sizeof what, "%s: TMA load through the host-patched kMap (__grid_constant__)", name);
    Report(bad == 0, what, detail);
  }

  // Device path: kMap copied to global memory, address set by tensormap.replace in a kernel.
  CU(cuMemcpyHtoD(gmap, &gen::tile_sw128::kMap, 128));
  PatchInGlobal<<<1, 32>>>(reinterpret_cast<void*>(gmap), tp);
  CU(cuCtxSynchronize());
  alignas(64) CUtensorMap device_patched, encoded;
  CU(cuMemcpyDtoH(&device_patched, gmap, 128));
  CU(gen::tile_sw128::Encode(&encoded, tp));
  Report(std::memcmp(&device_patched, &encoded, 128) == 0,
         "tile_sw128: kMap + tensormap.replace.global_address (device) == cuTensorMapEncodeTiled, 128 bytes");
  LoadWithGlobalMap<<<1, 128>>>(reinterpret_cast<void*>(gmap), x0, y0, reinterpret_cast<uint8_t*>(out));
  CU(cuCtxSynchronize());
  std::vector<uint8_t> got(kBoxBytes);
  CU(cuMemcpyDtoH(got.data(), out, kBoxBytes));
  const std::vector<uint8_t> want = Expected(x0, y0, true);
  int bad = 0;
  for (int i = 0; i < kBoxBytes; ++i) bad += got[i] != want[i];
  char detail[64];
  std::snprintf(detail, sizeof detail, "%d of %d bytes differ", bad, kBoxBytes);
  Report(bad == 0, "tile_sw128: TMA load through the device-patched kMap in global memory", detail);

  std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
