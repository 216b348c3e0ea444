// fake_cuda.cc: a test double of the CUDA driver (built as libcuda.so.1 in a test-only directory) for
// testing `tmapgen trace` end to end on machines without a GPU. It does what the real driver does for
// the injection mechanism: cuInit loads CUDA_INJECTION64_PATH and calls InitializeInjection, and each
// tensor-map entry point reports its entry and exit to the CUPTI subscriber with the parameter blocks
// of generated_cuda_meta.h. Its encoder is NOT the real one: it accepts or rejects by a few of the
// documented limits (rank 1..5, defined data types, box_dim <= 256, 16-byte aligned address and strides)
// and writes recognisable bytes, which is all the tests of the tracing plumbing need. Not shipped.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "src/trace/inject/cupti_abi.h"

namespace c = tmapgen::trace::cupti;

namespace {
using Dispatch = void (*)(c::CallbackDomain, c::CallbackId, const c::CallbackData*);
Dispatch g_dispatch = nullptr;

void Notify(c::CallbackId id, c::ApiCallbackSite site, const void* params, int* result) {
  if (g_dispatch == nullptr) return;
  c::CallbackData d{};
  d.callbackSite = site;
  d.functionName = "cuTensorMap";
  d.functionParams = params;
  d.functionReturnValue = result;
  d.context = reinterpret_cast<void*>(0x1);
  d.contextUid = 1;
  g_dispatch(c::kDomainDriverApi, id, &d);
}

int Check(int dt, uint32_t rank, const void* addr, const uint64_t* dims, const uint64_t* strides, const uint32_t* box) {
  if (dt < 0 || dt > 15 || rank < 1 || rank > 5 || dims == nullptr || (rank > 1 && strides == nullptr)) return 1;
  if (reinterpret_cast<uintptr_t>(addr) % 16 != 0) return 1;
  for (uint32_t i = 0; i + 1 < rank; ++i)
    if (strides[i] % 16 != 0) return 1;
  if (box != nullptr)
    for (uint32_t i = 0; i < rank; ++i)
      if (box[i] == 0 || box[i] > 256) return 1;
  return 0;
}

void Fill(void* map, uint64_t seed) {
  uint64_t* w = static_cast<uint64_t*>(map);
  for (int i = 0; i < 16; ++i) w[i] = seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(i);
}
}  // namespace

extern "C" {
__attribute__((visibility("default"))) int cuInit(unsigned) {
  static bool done = false;
  if (done) return 0;
  done = true;
  const char* inj = std::getenv("CUDA_INJECTION64_PATH");
  if (inj != nullptr && *inj != '\0') {
    void* h = dlopen(inj, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      std::fprintf(stderr, "fake driver: cannot load %s: %s\n", inj, dlerror());
    } else if (auto init = reinterpret_cast<int (*)()>(dlsym(h, "InitializeInjection"))) {
      init();
    }
  }
  // The subscriber's CUPTI (the test names it with TMAPGEN_CUPTI), if the injection opened it.
  if (const char* cupti = std::getenv("TMAPGEN_CUPTI"))
    if (void* h = dlopen(cupti, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD))
      g_dispatch = reinterpret_cast<Dispatch>(dlsym(h, "fake_cupti_dispatch"));
  return 0;
}
__attribute__((visibility("default"))) int cuDriverGetVersion(int* v) { *v = 13000; return 0; }
__attribute__((visibility("default"))) int cuCtxGetDevice(int* d) { *d = 0; return 0; }
__attribute__((visibility("default"))) int cuDeviceGetAttribute(int* v, int attr, int) {
  *v = attr == c::kAttrComputeCapabilityMajor ? 9 : 0;  // an sm_90 device
  return 0;
}

__attribute__((visibility("default"))) int cuTensorMapEncodeTiled(void* map, int dt, uint32_t rank, void* addr,
    const uint64_t* dims, const uint64_t* strides, const uint32_t* box, const uint32_t* es, int il, int sw, int l2,
    int oob) {
  c::EncodeTiledParams p{map, dt, rank, addr, dims, strides, box, es, il, sw, l2, oob};
  int r = 0;
  Notify(c::kCbidEncodeTiled, c::kApiEnter, &p, &r);
  r = map == nullptr ? 1 : Check(dt, rank, addr, dims, strides, box);
  if (r == 0) Fill(map, reinterpret_cast<uintptr_t>(addr) ^ dims[0]);
  Notify(c::kCbidEncodeTiled, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuTensorMapEncodeIm2col(void* map, int dt, uint32_t rank, void* addr,
    const uint64_t* dims, const uint64_t* strides, const int* lo, const int* hi, uint32_t cpp, uint32_t ppc,
    const uint32_t* es, int il, int sw, int l2, int oob) {
  c::EncodeIm2colParams p{map, dt, rank, addr, dims, strides, lo, hi, cpp, ppc, es, il, sw, l2, oob};
  int r = 0;
  Notify(c::kCbidEncodeIm2col, c::kApiEnter, &p, &r);
  r = map == nullptr || cpp > 256 || ppc > 1024 ? 1 : Check(dt, rank, addr, dims, strides, nullptr);
  if (r == 0) Fill(map, reinterpret_cast<uintptr_t>(addr) ^ 0x1111);
  Notify(c::kCbidEncodeIm2col, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuTensorMapEncodeIm2colWide(void* map, int dt, uint32_t rank, void* addr,
    const uint64_t* dims, const uint64_t* strides, int lo, int hi, uint32_t cpp, uint32_t ppc, const uint32_t* es,
    int il, int mode, int sw, int l2, int oob) {
  c::EncodeIm2colWideParams p{map, dt, rank, addr, dims, strides, lo, hi, cpp, ppc, es, il, mode, sw, l2, oob};
  int r = 0;
  Notify(c::kCbidEncodeIm2colWide, c::kApiEnter, &p, &r);
  r = map == nullptr ? 1 : Check(dt, rank, addr, dims, strides, nullptr);
  if (r == 0) Fill(map, reinterpret_cast<uintptr_t>(addr) ^ 0x2222);
  Notify(c::kCbidEncodeIm2colWide, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuTensorMapReplaceAddress(void* map, void* addr) {
  c::ReplaceAddressParams p{map, addr};
  int r = 0;
  Notify(c::kCbidReplaceAddress, c::kApiEnter, &p, &r);
  r = map == nullptr || reinterpret_cast<uintptr_t>(addr) % 16 != 0 ? 1 : 0;
  if (r == 0) static_cast<uint64_t*>(map)[0] = reinterpret_cast<uintptr_t>(addr);
  Notify(c::kCbidReplaceAddress, c::kApiExit, &p, &r);
  return r;
}
}
