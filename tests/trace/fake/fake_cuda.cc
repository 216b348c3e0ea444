// fake_cuda.cc: a test double of the CUDA driver (built as libcuda.so.1 in a test-only directory) for
// testing `tmapgen trace` end to end on machines without a GPU. It does what the real driver does for
// the injection mechanism: cuInit loads CUDA_INJECTION64_PATH and calls InitializeInjection, and each
// tensor-map entry point reports its entry and exit to the CUPTI subscriber with the parameter blocks
// of generated_cuda_meta.h. Its encoder is NOT the real one: it accepts or rejects by a few of the
// documented limits (rank 1..5, defined data types, box_dim <= 256, 16-byte aligned address and strides)
// and writes recognisable bytes, which is all the tests of the tracing plumbing need; a tiled map that
// tmapgen's offline encoder (src/blob, which reproduces the H200 driver's bytes) can write gets those
// bytes, so that the launch checks find it in a kernel's parameters.
// For the launch checks it also has kernels (fake_make_function: a name and a parameter layout, answered
// by cuFuncGetParamInfo), launches (cuLaunchKernel, cuLaunchKernelEx, cuGraphAddKernelNode_v2: reported to
// the subscriber at entry and exit; nothing runs; cuGetProcAddress hands out the launch functions), a runtime
// launch (fake_runtime_launch: through cuGetProcAddress, as the CUDA runtime does), and a device allocator (cuMemAlloc_v2 / cuMemFree_v2,
// answered by cuPointerGetAttributes with range, device 0 and a new buffer id per allocation; a freed
// range is handed out again to the next allocation of the same size, as a real allocator may). Not shipped.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <vector>

#include "src/blob/blob.h"
#include "src/trace/inject/cupti_abi.h"

namespace c = tmapgen::trace::cupti;

namespace {
using Dispatch = void (*)(c::CallbackDomain, c::CallbackId, const c::CallbackData*);
Dispatch g_dispatch = nullptr;

void Notify(c::CallbackId id, c::ApiCallbackSite site, const void* params, int* result, const char* symbol = nullptr,
            c::CallbackDomain domain = c::kDomainDriverApi) {
  if (g_dispatch == nullptr) return;
  c::CallbackData d{};
  d.callbackSite = site;
  d.functionName = "cuTensorMap";
  d.symbolName = symbol;
  d.functionParams = params;
  d.functionReturnValue = result;
  d.context = reinterpret_cast<void*>(0x1);
  d.contextUid = 1;
  g_dispatch(domain, id, &d);
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
struct FakeFunction {
  char name[64];
  int n;
  size_t offset[16], size[16];
};
struct FakeAllocation {
  uint64_t base, size, buffer_id;
  bool live;
};
std::vector<FakeAllocation>& Allocations() {
  static std::vector<FakeAllocation> a;
  return a;
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
  if (r == 0) {
    Fill(map, reinterpret_cast<uintptr_t>(addr) ^ dims[0]);
    tmapgen::TensorMapSpec s;
    s.data_type = static_cast<tmapgen::DataType>(dt);
    s.rank = rank;
    s.global_address = reinterpret_cast<uintptr_t>(addr);
    s.set_fields |= tmapgen::kFieldGlobalAddress;
    for (uint32_t i = 0; i < rank; ++i) {
      s.global_dim[i] = dims[i];
      s.box_dim[i] = box[i];
      s.element_strides[i] = es != nullptr ? es[i] : 1;
      if (i + 1 < rank) s.global_strides[i] = strides[i];
    }
    s.interleave = static_cast<tmapgen::Interleave>(il);
    s.swizzle = static_cast<tmapgen::Swizzle>(sw);
    s.l2_promotion = static_cast<tmapgen::L2Promotion>(l2);
    s.oob_fill = static_cast<tmapgen::OobFill>(oob);
    tmapgen::blob::MapBytes b;
    if (il >= 0 && il <= 2 && sw >= 0 && sw <= 6 && l2 >= 0 && l2 <= 3 && oob >= 0 && oob <= 1 &&
        tmapgen::blob::EncodeInto(s, &b).ok())
      std::memcpy(map, b.data(), 128);
  }
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
// ---- kernels, launches, memory (for the launch checks) ------------------------------------------------

__attribute__((visibility("default"))) void* fake_make_function(const char* name, int n, const size_t* offsets,
                                                               const size_t* sizes) {
  auto* f = new FakeFunction();
  std::snprintf(f->name, sizeof(f->name), "%s", name);
  f->n = n;
  for (int i = 0; i < n && i < 16; ++i) {
    f->offset[i] = offsets[i];
    f->size[i] = sizes[i];
  }
  return f;
}
__attribute__((visibility("default"))) int cuFuncGetParamInfo(void* f, size_t i, size_t* off, size_t* size) {
  if (reinterpret_cast<uintptr_t>(f) == 1) return 400;  // CUDA_ERROR_INVALID_HANDLE
  const auto* ff = static_cast<const FakeFunction*>(f);
  if (ff == nullptr || i >= static_cast<size_t>(ff->n)) return c::kErrorInvalidValue;
  // Offsets as driver 580 reports them on the H200: not from 0, and not from a 64-byte-aligned origin (a
  // kernel's first parameter at 48; a map as the first parameter at 112: the 2026-12-03 trace-launch run).
  const size_t reported_base = ff->n > 0 && ff->size[0] == 128 ? 112 : 48;
  *off = ff->offset[i] + reported_base;
  *size = ff->size[i];
  return 0;
}
// Kernel handles (CUkernel) are the same fake functions here; handle 0x1 is one the driver does not know.
__attribute__((visibility("default"))) int cuKernelGetParamInfo(void* k, size_t i, size_t* off, size_t* size) {
  if (reinterpret_cast<uintptr_t>(k) == 1) return 400;  // CUDA_ERROR_INVALID_HANDLE
  return cuFuncGetParamInfo(k, i, off, size);
}
__attribute__((visibility("default"))) int cuFuncGetName(const char** name, void* f) {
  if (reinterpret_cast<uintptr_t>(f) == 1) return 400;
  *name = static_cast<const FakeFunction*>(f)->name;
  return 0;
}
__attribute__((visibility("default"))) int cuKernelGetName(const char** name, void* k) {
  if (reinterpret_cast<uintptr_t>(k) == 1) return 400;
  return cuFuncGetName(name, k);
}
__attribute__((visibility("default"))) int cuMemAlloc_v2(uint64_t* ptr, size_t size) {
  static uint64_t next = 0x7f0000000000, id = 100;
  for (FakeAllocation& a : Allocations())
    if (!a.live && a.size == size) {
      a.live = true;
      a.buffer_id = ++id;
      *ptr = a.base;
      return 0;
    }
  Allocations().push_back({next, size, ++id, true});
  *ptr = next;
  next += (size + (2u << 20) - 1) / (2u << 20) * (2u << 20) + (2u << 20);  // a gap after each
  return 0;
}
__attribute__((visibility("default"))) int cuMemFree_v2(uint64_t ptr) {
  struct { uint64_t dptr; } p{ptr};
  int r = 0;
  Notify(c::kCbidMemFreeV2, c::kApiEnter, &p, &r);
  r = 1;
  for (FakeAllocation& a : Allocations())
    if (a.live && a.base == ptr) {
      a.live = false;
      r = 0;
    }
  Notify(c::kCbidMemFreeV2, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuPointerGetAttributes(unsigned n, int* attrs, void** data, uint64_t ptr) {
  const FakeAllocation* hit = nullptr;
  for (const FakeAllocation& a : Allocations())
    if (a.live && ptr >= a.base && ptr < a.base + a.size) hit = &a;
  for (unsigned i = 0; i < n; ++i) {
    switch (attrs[i]) {
      case c::kPointerAttrRangeStartAddr: *static_cast<uint64_t*>(data[i]) = hit ? hit->base : 0; break;
      case c::kPointerAttrRangeSize: *static_cast<uint64_t*>(data[i]) = hit ? hit->size : 0; break;
      case c::kPointerAttrDeviceOrdinal: *static_cast<int*>(data[i]) = hit ? 0 : -2; break;
      case c::kPointerAttrBufferId: *static_cast<uint64_t*>(data[i]) = hit ? hit->buffer_id : 0; break;
      default: return c::kErrorInvalidValue;
    }
  }
  return 0;
}
__attribute__((visibility("default"))) int cuPointerGetAttribute(void* data, int attr, uint64_t ptr) {
  for (const FakeAllocation& a : Allocations())
    if (a.live && ptr >= a.base && ptr < a.base + a.size) {
      void* d[1] = {data};
      return cuPointerGetAttributes(1, &attr, d, ptr);
    }
  return c::kErrorInvalidValue;
}
}  // extern "C"

namespace {
const char* NameOf(void* f) {
  return reinterpret_cast<uintptr_t>(f) == 1 ? "unknown" : static_cast<FakeFunction*>(f)->name;
}
// Every launch entry point the fake hands out ends here: it reports to the subscriber (when CUPTI enabled the
// callback) and accepts a launch with a function and its parameters. Handle 0x1 is a kernel the driver runs
// but cannot describe (cuFuncGetParamInfo fails for it).
int LaunchImpl(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem,
               void* stream, void** params, void** extra) {
  c::LaunchKernelParams p{f, gx, gy, gz, bx, by, bz, smem, stream, params, extra};
  int r = 0;
  Notify(c::kCbidLaunchKernel, c::kApiEnter, &p, &r, f != nullptr ? NameOf(f) : nullptr);
  r = f == nullptr ? 1
      : reinterpret_cast<uintptr_t>(f) == 1 ? 0
      : (params == nullptr && extra == nullptr && static_cast<FakeFunction*>(f)->n > 0) ? 1 : 0;
  Notify(c::kCbidLaunchKernel, c::kApiExit, &p, &r, f != nullptr ? NameOf(f) : nullptr);
  return r;
}
int LaunchExImpl(const c::LaunchConfig* config, void* f, void** params, void** extra) {
  c::LaunchKernelExParams p{config, f, params, extra};
  int r = 0;
  Notify(c::kCbidLaunchKernelEx, c::kApiEnter, &p, &r, NameOf(f));
  Notify(c::kCbidLaunchKernelEx, c::kApiExit, &p, &r, NameOf(f));
  return r;
}
// Distinct copies of cuLaunchKernel, handed out by cuGetProcAddress for cudaVersion 90000 + i: more distinct
// launch functions than the preload library has wrapper slots (8), to test what happens when it runs out.
template <int I>
int LaunchCopy(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem,
               void* stream, void** params, void** extra) {
  return LaunchImpl(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
using LaunchFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                         void**);
constexpr LaunchFn kCopies[12] = {LaunchCopy<0>, LaunchCopy<1>, LaunchCopy<2>, LaunchCopy<3>,
                                  LaunchCopy<4>, LaunchCopy<5>, LaunchCopy<6>, LaunchCopy<7>,
                                  LaunchCopy<8>, LaunchCopy<9>, LaunchCopy<10>, LaunchCopy<11>};
int GetProcAddressImpl(const char* symbol, void** pfn, int version, uint64_t, int* status);
int GetProcAddressV1(const char* symbol, void** pfn, int version, uint64_t flags) {
  return GetProcAddressImpl(symbol, pfn, version, flags, nullptr);
}
// cuGetProcAddress as the driver answers it: the driver's own function (not the exported symbol, which the
// preload library's export would shadow), CUDA_ERROR_NOT_FOUND (500) for a symbol it does not have.
int GetProcAddressImpl(const char* symbol, void** pfn, int version, uint64_t, int* status) {
  if (symbol == nullptr || pfn == nullptr) return c::kErrorInvalidValue;
  void* f = nullptr;
  if (std::strcmp(symbol, "cuLaunchKernel") == 0)
    f = version >= 90000 && version < 90012 ? reinterpret_cast<void*>(kCopies[version - 90000])
                                            : reinterpret_cast<void*>(&LaunchImpl);
  else if (std::strcmp(symbol, "cuLaunchKernelEx") == 0)
    f = reinterpret_cast<void*>(&LaunchExImpl);
  else if (std::strcmp(symbol, "cuGetProcAddress") == 0)
    f = version >= 12000 ? reinterpret_cast<void*>(&GetProcAddressImpl) : reinterpret_cast<void*>(&GetProcAddressV1);
  *pfn = f;
  if (status != nullptr) *status = f != nullptr ? 0 : 1;  // CU_GET_PROC_ADDRESS_SUCCESS, _SYMBOL_NOT_FOUND
  return f != nullptr ? 0 : 500;
}
}  // namespace

extern "C" {
__attribute__((visibility("default"))) int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                          unsigned by, unsigned bz, unsigned smem, void* stream,
                                                          void** params, void** extra) {
  return LaunchImpl(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
__attribute__((visibility("default"))) int cuLaunchKernelEx(const c::LaunchConfig* config, void* f, void** params,
                                                            void** extra) {
  return LaunchExImpl(config, f, params, extra);
}
__attribute__((visibility("default"))) int cuGetProcAddress_v2(const char* symbol, void** pfn, int version,
                                                               uint64_t flags, int* status) {
  return GetProcAddressImpl(symbol, pfn, version, flags, status);
}
__attribute__((visibility("default"))) int cuGetProcAddress(const char* symbol, void** pfn, int version,
                                                            uint64_t flags) {
  return GetProcAddressV1(symbol, pfn, version, flags);
}
// The runtime's <<<>>> of CUDA 13 (__cudaLaunchKernel): reported in the runtime domain, and carried out
// through the driver's cuLaunchKernel, which reports its own callbacks in between. Like the CUDA runtime, it
// finds the driver's function with dlsym(libcuda.so.1, "cuGetProcAddress_v2") and then cuGetProcAddress.
__attribute__((visibility("default"))) int fake_runtime_launch(void* kernel, void** args) {
  static LaunchFn launch = nullptr;
  if (launch == nullptr) {
    void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    using Gpa = int (*)(const char*, void**, int, uint64_t, int*);
    auto gpa = h != nullptr ? reinterpret_cast<Gpa>(dlsym(h, "cuGetProcAddress_v2")) : nullptr;
    void* f = nullptr;
    int status = 0;
    if (gpa == nullptr || gpa("cuLaunchKernel", &f, 13000, 0, &status) != 0) return 999;
    launch = reinterpret_cast<LaunchFn>(f);
  }
  c::RtLaunchKernelParams p{kernel, {1, 1, 1}, {32, 1, 1}, args, 0, nullptr};
  int r = 0;
  const char* name = NameOf(kernel);
  Notify(c::kRtCbidLaunchKernelHandle, c::kApiEnter, &p, &r, name, c::kDomainRuntimeApi);
  r = launch(kernel, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
  Notify(c::kRtCbidLaunchKernelHandle, c::kApiExit, &p, &r, name, c::kDomainRuntimeApi);
  return r;
}

}  // extern "C"

namespace {
// Graphs: a graph keeps a copy of each kernel node's parameters, as the driver does (the argument values are
// owned by the node); an executable graph is a graph handle's copy, and launching it runs nothing.
struct FakeNode {
  c::KernelNodeParams np{};
  std::vector<std::vector<char>> values;
  std::vector<void*> ptrs;
};
struct FakeGraph {
  std::vector<FakeNode*> nodes;
};
struct FakeExec {
  FakeGraph* graph;
};
}  // namespace

extern "C" {
__attribute__((visibility("default"))) int cuGraphCreate(void** graph, unsigned) {
  *graph = new FakeGraph();
  return 0;
}
__attribute__((visibility("default"))) int cuGraphAddKernelNode_v2(void** node, void* graph, const void* deps,
                                                                   size_t ndeps, const c::KernelNodeParams* np) {
  c::GraphAddKernelNodeParams p{node, graph, deps, ndeps, np};
  int r = 0;
  Notify(c::kCbidGraphAddKernelNodeV2, c::kApiEnter, &p, &r);
  if (graph != nullptr && np != nullptr && np->func != nullptr && np->kernelParams != nullptr) {
    auto* n = new FakeNode();
    n->np = *np;
    const auto* f = static_cast<const FakeFunction*>(np->func);
    for (int i = 0; i < f->n; ++i) {
      const char* v = static_cast<const char*>(np->kernelParams[i]);
      n->values.emplace_back(v, v + f->size[i]);
    }
    for (auto& v : n->values) n->ptrs.push_back(v.data());
    n->np.kernelParams = n->ptrs.data();
    static_cast<FakeGraph*>(graph)->nodes.push_back(n);
    if (node != nullptr) *node = n;
  }
  Notify(c::kCbidGraphAddKernelNodeV2, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuGraphGetNodes(void* graph, void** nodes, size_t* n) {
  const auto& all = static_cast<FakeGraph*>(graph)->nodes;
  if (nodes != nullptr)
    for (size_t i = 0; i < *n && i < all.size(); ++i) nodes[i] = all[i];
  *n = all.size();
  return 0;
}
__attribute__((visibility("default"))) int cuGraphNodeGetType(void*, int* type) {
  *type = c::kGraphNodeTypeKernel;
  return 0;
}
__attribute__((visibility("default"))) int cuGraphKernelNodeGetParams_v2(void* node, c::KernelNodeParams* np) {
  *np = static_cast<FakeNode*>(node)->np;
  return 0;
}
__attribute__((visibility("default"))) int cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long) {
  c::GraphInstantiateParams p{exec, graph};
  int r = 0;
  Notify(c::kCbidGraphInstantiateWithFlags, c::kApiEnter, &p, &r);
  *exec = new FakeExec{static_cast<FakeGraph*>(graph)};
  Notify(c::kCbidGraphInstantiateWithFlags, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuGraphLaunch(void* exec, void* stream) {
  c::GraphLaunchParams p{exec, stream};
  int r = 0;
  Notify(c::kCbidGraphLaunch, c::kApiEnter, &p, &r);
  Notify(c::kCbidGraphLaunch, c::kApiExit, &p, &r);
  return r;
}
__attribute__((visibility("default"))) int cuGraphExecDestroy(void* exec) {
  c::GraphExecDestroyParams p{exec};
  int r = 0;
  Notify(c::kCbidGraphExecDestroy, c::kApiEnter, &p, &r);
  delete static_cast<FakeExec*>(exec);
  Notify(c::kCbidGraphExecDestroy, c::kApiExit, &p, &r);
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
