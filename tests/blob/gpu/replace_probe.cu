// replace_probe.cu: what tensormap.replace (PTX ISA 9.7.9.26) writes into a 128-byte map on the GPU, field by
// field, for comparison with the layout the driver writes (docs/tensormap-layout.md). Run by
// scripts/lab/blob-sweep.sh (step "replace") on an sm_90a GPU host: nvcc -gencode arch=compute_90a,code=sm_90a
// ... -lcuda. Prints JSON Lines: {"probe": "replace", "field": F, "ord": i, "value": v, "start": "zero"|"driver",
// "before": HEX, "after": HEX}, then one line per TMA load through maps built on the device
// ({"probe": "device_built", ...}), which `tools/blob_check --replace` (or any decoder) reads.
//
// Starting maps: 128 zero bytes, and the driver's own map (cuTensorMapEncodeTiled, f16 [256, 128], stride 512 B,
// box [64, 32], SWIZZLE_128B). Each probe applies one tensormap.replace to a fresh copy in global memory.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                  \
  do {                                                                                            \
    CUresult r_ = (x);                                                                            \
    if (r_ != CUDA_SUCCESS) { std::printf("{\"error\": \"%s = %d\"}\n", #x, (int)r_); std::exit(1); } \
  } while (0)

template <int ORD> __global__ void BoxDim(void* m, uint32_t v) {
  asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], %1, %2;" ::"l"(m), "n"(ORD), "r"(v) : "memory");
}
template <int ORD> __global__ void GlobalDim(void* m, uint32_t v) {
  asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], %1, %2;" ::"l"(m), "n"(ORD), "r"(v) : "memory");
}
template <int ORD> __global__ void GlobalStride(void* m, uint64_t v) {
  asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], %1, %2;" ::"l"(m), "n"(ORD), "l"(v) : "memory");
}
template <int ORD> __global__ void ElementStride(void* m, uint32_t v) {
  asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], %1, %2;" ::"l"(m), "n"(ORD), "r"(v) : "memory");
}
__global__ void GlobalAddress(void* m, uint64_t v) {
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(m), "l"(v) : "memory");
}
__global__ void Rank(void* m, uint32_t v) {
  asm volatile("tensormap.replace.tile.rank.global.b1024.b32 [%0], %1;" ::"l"(m), "r"(v) : "memory");
}
template <int V> __global__ void Elemtype(void* m) {
  asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], %1;" ::"l"(m), "n"(V) : "memory");
}
template <int V> __global__ void Interleave(void* m) {
  asm volatile("tensormap.replace.tile.interleave_layout.global.b1024.b32 [%0], %1;" ::"l"(m), "n"(V) : "memory");
}
template <int V> __global__ void SwizzleMode(void* m) {
  asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], %1;" ::"l"(m), "n"(V) : "memory");
}
template <int V> __global__ void FillMode(void* m) {
  asm volatile("tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], %1;" ::"l"(m), "n"(V) : "memory");
}

constexpr int kW = 256, kH = 128, kBoxW = 64, kBoxH = 32, kBoxBytes = kBoxW * kBoxH * 2;

__global__ void Load(const void* gmap, int x, int y, uint8_t* out) {
  __shared__ alignas(1024) uint8_t tile[kBoxBytes];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t tile_s = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  const uint32_t bar_s = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "r"(kBoxBytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(tile_s),
        "l"(gmap), "r"(x), "r"(y), "r"(bar_s)
        : "memory");
  }
  __syncthreads();
  uint32_t done = 0;
  for (long spin = 0; !done && spin < (1L << 24); ++spin)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar_s) : "memory");
  for (int i = threadIdx.x; i < kBoxBytes; i += blockDim.x) out[i] = done ? tile[i] : 0xEE;
}

__global__ void Release() { asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory"); }

CUdeviceptr g_map;
uint8_t g_driver[128];

void Hex(const uint8_t* b, char* out) {
  for (int i = 0; i < 128; ++i) std::snprintf(out + 2 * i, 3, "%02x", b[i]);
}

template <typename F>
void Probe(const char* field, int ord, unsigned long long value, F launch) {
  for (int start = 0; start < 2; ++start) {
    uint8_t before[128], after[128];
    if (start == 0) std::memset(before, 0, 128); else std::memcpy(before, g_driver, 128);
    CHECK(cuMemcpyHtoD(g_map, before, 128));
    launch(reinterpret_cast<void*>(g_map));
    const CUresult r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS) { std::printf("{\"probe\":\"replace\",\"field\":\"%s\",\"ord\":%d,\"value\":%llu,\"launch_error\":%d}\n", field, ord, value, (int)r); std::exit(1); }
    CHECK(cuMemcpyDtoH(after, g_map, 128));
    char hb[257], ha[257];
    Hex(before, hb);
    Hex(after, ha);
    std::printf("{\"probe\":\"replace\",\"field\":\"%s\",\"ord\":%d,\"value\":%llu,\"start\":\"%s\",\"before\":\"%s\",\"after\":\"%s\"}\n", field,
                ord, value, start ? "driver" : "zero", hb, ha);
  }
}

int main() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  std::vector<uint16_t> host(kW * kH);
  for (int i = 0; i < kW * kH; ++i) host[i] = static_cast<uint16_t>(i);
  CUdeviceptr tensor, out;
  CHECK(cuMemAlloc(&tensor, host.size() * 2));
  CHECK(cuMemcpyHtoD(tensor, host.data(), host.size() * 2));
  CHECK(cuMemAlloc(&out, kBoxBytes));
  CHECK(cuMemAlloc(&g_map, 128));
  alignas(64) CUtensorMap drv;
  const cuuint64_t dims[2] = {kW, kH};
  const cuuint64_t strides[1] = {kW * 2};
  const cuuint32_t box[2] = {kBoxW, kBoxH};
  const cuuint32_t es[2] = {1, 1};
  CHECK(cuTensorMapEncodeTiled(&drv, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, reinterpret_cast<void*>(tensor), dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  std::memcpy(g_driver, &drv, 128);

  const unsigned long long addr = static_cast<unsigned long long>(tensor) + 4096;
  Probe("global_address", -1, addr, [&](void* m) { GlobalAddress<<<1, 1>>>(m, addr); });
  for (uint32_t v : {0u, 1u, 2u, 3u, 4u}) Probe("rank", -1, v, [&](void* m) { Rank<<<1, 1>>>(m, v); });
  for (uint32_t v : {1u, 2u, 64u, 255u, 256u}) {
    Probe("box_dim", 0, v, [&](void* m) { BoxDim<0><<<1, 1>>>(m, v); });
    Probe("box_dim", 1, v, [&](void* m) { BoxDim<1><<<1, 1>>>(m, v); });
    Probe("box_dim", 4, v, [&](void* m) { BoxDim<4><<<1, 1>>>(m, v); });
  }
  for (uint32_t v : {1u, 2u, 1000u, 0x7fffffffu, 0xffffffffu}) {
    Probe("global_dim", 0, v, [&](void* m) { GlobalDim<0><<<1, 1>>>(m, v); });
    Probe("global_dim", 1, v, [&](void* m) { GlobalDim<1><<<1, 1>>>(m, v); });
    Probe("global_dim", 4, v, [&](void* m) { GlobalDim<4><<<1, 1>>>(m, v); });
  }
  for (unsigned long long v : {16ull, 32ull, 512ull, 4096ull, 1ull << 36, (1ull << 40) - 16}) {
    Probe("global_stride", 0, v, [&](void* m) { GlobalStride<0><<<1, 1>>>(m, v); });
    Probe("global_stride", 3, v, [&](void* m) { GlobalStride<3><<<1, 1>>>(m, v); });
  }
  for (uint32_t v : {1u, 2u, 5u, 8u}) {
    Probe("element_stride", 0, v, [&](void* m) { ElementStride<0><<<1, 1>>>(m, v); });
    Probe("element_stride", 2, v, [&](void* m) { ElementStride<2><<<1, 1>>>(m, v); });
  }
#define ET(V) Probe("elemtype", -1, V, [&](void* m) { Elemtype<V><<<1, 1>>>(m); })
  ET(0); ET(1); ET(2); ET(3); ET(4); ET(5); ET(6); ET(7); ET(8); ET(9); ET(10); ET(11); ET(12);
#define IL(V) Probe("interleave_layout", -1, V, [&](void* m) { Interleave<V><<<1, 1>>>(m); })
  IL(0); IL(1); IL(2);
#define SW(V) Probe("swizzle_mode", -1, V, [&](void* m) { SwizzleMode<V><<<1, 1>>>(m); })
  SW(0); SW(1); SW(2); SW(3);
#define FM(V) Probe("fill_mode", -1, V, [&](void* m) { FillMode<V><<<1, 1>>>(m); })
  FM(0); FM(1);

  // A map built on the device: from zeros, and from the driver's map with every field set again, using the
  // values as cuda.h passes them (rank 2 written as 1: PTX says rank - 1).
  for (int start = 0; start < 2; ++start) {
    uint8_t before[128];
    if (start == 0) std::memset(before, 0, 128); else std::memcpy(before, g_driver, 128);
    CHECK(cuMemcpyHtoD(g_map, before, 128));
    void* m = reinterpret_cast<void*>(g_map);
    GlobalAddress<<<1, 1>>>(m, static_cast<unsigned long long>(tensor));
    Rank<<<1, 1>>>(m, 1);
    GlobalDim<0><<<1, 1>>>(m, kW);
    GlobalDim<1><<<1, 1>>>(m, kH);
    GlobalStride<0><<<1, 1>>>(m, kW * 2);
    BoxDim<0><<<1, 1>>>(m, kBoxW);
    BoxDim<1><<<1, 1>>>(m, kBoxH);
    ElementStride<0><<<1, 1>>>(m, 1);
    ElementStride<1><<<1, 1>>>(m, 1);
    Elemtype<6><<<1, 1>>>(m);
    Interleave<0><<<1, 1>>>(m);
    SwizzleMode<3><<<1, 1>>>(m);
    FillMode<0><<<1, 1>>>(m);
    Release<<<1, 1>>>();
    CHECK(cuCtxSynchronize());
    uint8_t built[128];
    CHECK(cuMemcpyDtoH(built, g_map, 128));
    Load<<<1, 128>>>(m, 64, 32, reinterpret_cast<uint8_t*>(out));
    const CUresult lr = cuCtxSynchronize();
    std::vector<uint8_t> got(kBoxBytes, 0);
    int bad = -1;
    if (lr == CUDA_SUCCESS) {
      CHECK(cuMemcpyDtoH(got.data(), out, kBoxBytes));
      bad = 0;
      for (int r = 0; r < kBoxH; ++r)
        for (int c = 0; c < kBoxW; ++c) {
          const uint16_t want = static_cast<uint16_t>((64 + c) + kW * (32 + r));
          const int off = r * 128 + ((((c * 2) >> 4) ^ (r % 8)) << 4) + ((c * 2) & 15);
          bad += (got[off] | (got[off + 1] << 8)) != want;
        }
    }
    char hb[257], hd[257];
    Hex(built, hb);
    Hex(g_driver, hd);
    std::printf("{\"probe\":\"device_built\",\"start\":\"%s\",\"bytes\":\"%s\",\"driver\":\"%s\",\"load_result\":%d,\"elements_wrong\":%d}\n",
                start ? "driver" : "zero", hb, hd, (int)lr, bad);
    if (lr != CUDA_SUCCESS) break;  // the context is unusable after a fault
  }
  return 0;
}
