// preload.cc: libtmapgen_trace_preload.so, the library `tmapgen trace` puts in LD_PRELOAD beside the injection
// library, so that the launch checks cost no CUPTI callback (docs/trace.md, "At kernel launch").
//
// CUPTI's callbacks cost about 0.44 us per kernel launch on the H200 (two callbacks, measured with callbacks
// that return at once: docs/perf.md), which is most of what checking launches added. This library wraps the
// driver's launch entry points instead, wherever a program gets them:
//   - linked: it exports cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel (and their _ptsz forms),
//     which the dynamic linker binds before libcuda's for every object that calls them;
//   - dlsym: it interposes dlsym (x86-64), so dlsym(libcuda, "cuLaunchKernel") or "cuGetProcAddress" answers
//     a wrapper of the driver's function; every other lookup goes to glibc's dlsym by a tail jump, so glibc
//     sees the original caller (RTLD_NEXT and RTLD_DEFAULT depend on it);
//   - cuGetProcAddress (how the CUDA runtime, static or shared, and cudaGetDriverEntryPoint get the driver's
//     functions): the wrapped cuGetProcAddress replaces a launch entry point it returns by its wrapper.
// A wrapper calls the driver's function and, when the driver accepted the launch, the injection library's
// hook (attached from InitializeInjection: src/trace/preload/preload_abi.h). Until it attaches, and in
// processes that never load the driver, a wrapper only forwards.
//
// Loaded into every process the program starts (shells, compilers, Python), so it depends on libc alone (no
// C++ runtime, no allocation, no static object needing a constructor guard) and does nothing at load but
// look up glibc's dlsym and read one environment variable.
#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "src/trace/preload/preload_abi.h"

namespace p = tmapgen::trace::preload;

using CUresult = int;
using LaunchKernelFn = CUresult (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                                    void**, void**);
using LaunchKernelExFn = CUresult (*)(const void*, void*, void**, void**);
using LaunchCoopFn = CUresult (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                                  void**);
// cuGetProcAddress_v2 (CUDA 12+) has a fifth argument, the query result; the v1 form (CUDA 11.3) has four.
// One wrapper serves both: on x86-64 and AArch64 a fifth register argument the v1 function does not take is
// ignored by it, and a v1 caller's fifth register is passed on unread.
using GetProcAddressFn = CUresult (*)(const char*, void**, int, uint64_t, void*);
using DlsymFn = void* (*)(void*, const char*);

// CUlaunchConfig (cuda.h): the stream follows seven unsigned ints.
struct LaunchConfigHead {
  unsigned grid[3], block[3], shared_mem;
  void* stream;
};

constexpr CUresult kCudaErrorNotInitialized = 3;
constexpr int kSlots = 8;
enum Kind : int { kNone = -1, kLK = 0, kLKEx = 1, kCoop = 2, kGPA = 3, kKinds = 4 };

extern "C" {
// glibc's dlsym, found at load (or at the first dlsym, whichever comes first); used by the assembly below.
__attribute__((visibility("hidden"))) DlsymFn tmapgen_preload_real_dlsym = nullptr;
// The next dlsym after this library's: another tool's interposer preloaded after this one, else glibc's. Every
// lookup but RTLD_NEXT goes to it, so such a tool still sees the program's lookups.
__attribute__((visibility("hidden"))) DlsymFn tmapgen_preload_next_dlsym = nullptr;
__attribute__((visibility("hidden"))) void tmapgen_preload_init();
__attribute__((visibility("hidden"))) int tmapgen_preload_wants(const char* name);
__attribute__((visibility("hidden"))) void* tmapgen_preload_dlsym_wrapped(void* handle, const char* name);
}

namespace {

std::atomic<p::LaunchHook> g_hook{nullptr};
std::atomic<p::UnwrappedHook> g_unwrapped_hook{nullptr};
std::atomic<uint32_t> g_unwrapped{0};
std::atomic<uint64_t> g_wrapped{0};
int g_debug = 0;

// The driver functions each wrapper slot forwards to (null: free).
std::atomic<void*> g_real[kKinds][kSlots];

void Log(const char* what, const char* name, const void* caller, int slot) {
  if (!g_debug) return;
  Dl_info info{};
  const char* obj = (caller != nullptr && dladdr(caller, &info) != 0 && info.dli_fname != nullptr) ? info.dli_fname : "?";
  char buf[512];
  const int n = std::snprintf(buf, sizeof(buf), "tmapgen trace preload: pid %d: %s %s (caller %s)%s%d\n",
                              static_cast<int>(getpid()), what, name != nullptr ? name : "(null)", obj,
                              slot >= 0 ? ": wrapper slot " : ": not wrapped ", slot);
  if (n > 0) {
    const ssize_t w = write(2, buf, static_cast<size_t>(n) < sizeof(buf) ? static_cast<size_t>(n) : sizeof(buf) - 1);
    (void)w;
  }
}

// How many wrappers this thread is inside: one launch passes through two when another tool's cuLaunchKernel sits
// between a linked entry point and a wrapper it got from dlsym or cuGetProcAddress; only the outermost reports.
// (initial-exec: the library is preloaded, never dlopen'd.)
__thread int tls_depth __attribute__((tls_model("initial-exec"))) = 0;

struct Depth {
  Depth() { ++tls_depth; }
  ~Depth() { --tls_depth; }
  bool outermost() const { return tls_depth == 1; }
};

inline void AfterLaunch(uint32_t entry, void* f, void** params, void** extra, void* stream) {
  if (p::LaunchHook h = g_hook.load(std::memory_order_acquire)) h(entry, f, params, extra, stream);
}

// One call through `real` (the driver's function, or the next definition's): a launch the driver accepted is
// reported when it is this thread's outermost; a cuGetProcAddress answer is wrapped. Every wrapper slot and every
// linked entry point ends here.
CUresult LaunchKernelThrough(LaunchKernelFn real, void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned smem, void* stream, void** params, void** extra) {
  Depth d;
  const CUresult r = real(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
  if (r == 0 && d.outermost()) AfterLaunch(p::kEntryLaunchKernel, f, params, extra, stream);
  return r;
}
CUresult LaunchKernelExThrough(LaunchKernelExFn real, const void* config, void* f, void** params, void** extra) {
  Depth d;
  const CUresult r = real(config, f, params, extra);
  if (r == 0 && d.outermost())
    AfterLaunch(p::kEntryLaunchKernelEx, f, params, extra,
                config != nullptr ? static_cast<const LaunchConfigHead*>(config)->stream : nullptr);
  return r;
}
CUresult LaunchCoopThrough(LaunchCoopFn real, void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned smem, void* stream, void** params) {
  Depth d;
  const CUresult r = real(f, gx, gy, gz, bx, by, bz, smem, stream, params);
  if (r == 0 && d.outermost()) AfterLaunch(p::kEntryLaunchCooperativeKernel, f, params, nullptr, stream);
  return r;
}
void* Rewrap(const char* name, void* fn, const char* how, const void* caller);
CUresult GetProcAddressThrough(GetProcAddressFn real, const void* caller, const char* symbol, void** pfn,
                               int version, uint64_t flags, void* status) {
  const CUresult r = real(symbol, pfn, version, flags, status);
  if (r == 0 && symbol != nullptr && pfn != nullptr && *pfn != nullptr)
    *pfn = Rewrap(symbol, *pfn, "cuGetProcAddress", caller);
  return r;
}

template <int I>
CUresult WrapLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned smem, void* stream, void** params, void** extra) {
  return LaunchKernelThrough(reinterpret_cast<LaunchKernelFn>(g_real[kLK][I].load(std::memory_order_relaxed)), f,
                             gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
template <int I>
CUresult WrapLaunchKernelEx(const void* config, void* f, void** params, void** extra) {
  return LaunchKernelExThrough(reinterpret_cast<LaunchKernelExFn>(g_real[kLKEx][I].load(std::memory_order_relaxed)),
                               config, f, params, extra);
}
template <int I>
CUresult WrapLaunchCoop(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void* stream, void** params) {
  return LaunchCoopThrough(reinterpret_cast<LaunchCoopFn>(g_real[kCoop][I].load(std::memory_order_relaxed)), f, gx,
                           gy, gz, bx, by, bz, smem, stream, params);
}
template <int I>
CUresult WrapGetProcAddress(const char* symbol, void** pfn, int version, uint64_t flags, void* status) {
  return GetProcAddressThrough(reinterpret_cast<GetProcAddressFn>(g_real[kGPA][I].load(std::memory_order_relaxed)),
                               __builtin_return_address(0), symbol, pfn, version, flags, status);
}

// The wrappers of each slot, by kind (address constants: initialised before any code of the process runs).
template <size_t... I>
constexpr std::array<LaunchKernelFn, kSlots> LKWrappers(std::index_sequence<I...>) { return {&WrapLaunchKernel<I>...}; }
template <size_t... I>
constexpr std::array<LaunchKernelExFn, kSlots> LKExWrappers(std::index_sequence<I...>) {
  return {&WrapLaunchKernelEx<I>...};
}
template <size_t... I>
constexpr std::array<LaunchCoopFn, kSlots> CoopWrappers(std::index_sequence<I...>) { return {&WrapLaunchCoop<I>...}; }
template <size_t... I>
constexpr std::array<GetProcAddressFn, kSlots> GPAWrappers(std::index_sequence<I...>) {
  return {&WrapGetProcAddress<I>...};
}
constexpr std::array<LaunchKernelFn, kSlots> kLKWrap = LKWrappers(std::make_index_sequence<kSlots>{});
constexpr std::array<LaunchKernelExFn, kSlots> kLKExWrap = LKExWrappers(std::make_index_sequence<kSlots>{});
constexpr std::array<LaunchCoopFn, kSlots> kCoopWrap = CoopWrappers(std::make_index_sequence<kSlots>{});
constexpr std::array<GetProcAddressFn, kSlots> kGPAWrap = GPAWrappers(std::make_index_sequence<kSlots>{});

void* WrapperOf(int k, int i) {
  switch (k) {
    case kLK: return reinterpret_cast<void*>(kLKWrap[i]);
    case kLKEx: return reinterpret_cast<void*>(kLKExWrap[i]);
    case kCoop: return reinterpret_cast<void*>(kCoopWrap[i]);
    default: return reinterpret_cast<void*>(kGPAWrap[i]);
  }
}

// The launch entry points by name: a dlsym or cuGetProcAddress of one of these is answered by a wrapper.
int KindOf(const char* n) {
  if (n == nullptr || n[0] != 'c' || n[1] != 'u') return kNone;
  if (std::strncmp(n, "cuLaunch", 8) == 0) {
    const char* s = n + 8;
    if (std::strcmp(s, "Kernel") == 0 || std::strcmp(s, "Kernel_ptsz") == 0) return kLK;
    if (std::strcmp(s, "KernelEx") == 0 || std::strcmp(s, "KernelEx_ptsz") == 0) return kLKEx;
    if (std::strcmp(s, "CooperativeKernel") == 0 || std::strcmp(s, "CooperativeKernel_ptsz") == 0) return kCoop;
    return kNone;
  }
  if (std::strcmp(n, "cuGetProcAddress") == 0 || std::strcmp(n, "cuGetProcAddress_v2") == 0) return kGPA;
  return kNone;
}

bool IsLinkedExport(const void* fn);
// A wrapper, or one of this library's linked entry points (what dlsym(RTLD_DEFAULT, ...) finds first):
// wrapping one again would run the hook twice per launch.
bool IsWrapper(const void* fn) {
  for (int k = 0; k < kKinds; ++k)
    for (int i = 0; i < kSlots; ++i)
      if (WrapperOf(k, i) == fn) return true;
  return IsLinkedExport(fn);
}

// The wrapper of `fn` (a driver function of kind k): its slot, or a free one. When every slot holds another
// function, `fn` goes out unwrapped and the injection library is told.
void* Bind(int k, void* fn, const char* name, const char* how, const void* caller) {
  if (fn == nullptr || IsWrapper(fn)) return fn;
  for (int i = 0; i < kSlots; ++i) {
    void* cur = g_real[k][i].load(std::memory_order_acquire);
    if (cur == fn) return WrapperOf(k, i);
    if (cur == nullptr) {
      void* expected = nullptr;
      if (g_real[k][i].compare_exchange_strong(expected, fn, std::memory_order_acq_rel) || expected == fn) {
        if (expected == nullptr) {
          g_wrapped.fetch_add(1, std::memory_order_relaxed);
          Log(how, name, caller, i);
        }
        return WrapperOf(k, i);
      }
    }
  }
  g_unwrapped.fetch_add(1, std::memory_order_relaxed);
  Log(how, name, caller, -1);
  // An unwrapped cuGetProcAddress hands out unwrapped launch functions: the same loss.
  if (p::UnwrappedHook h = g_unwrapped_hook.load(std::memory_order_acquire)) h(static_cast<uint32_t>(k));
  return fn;
}

void* Rewrap(const char* name, void* fn, const char* how, const void* caller) {
  const int k = KindOf(name);
  return k == kNone ? fn : Bind(k, fn, name, how, caller);
}

// The definition of `name` the calling object would bind to without this library: the next one after it in
// the global scope (another tool preloaded after this one, or libcuda.so.1 linked by the program), else the one
// in the caller's own scope (a library loaded RTLD_LOCAL with libcuda.so.1, or its own definition, as a mock
// driver has), else libcuda.so.1's.
bool IsLinkedExport(const void* fn);
void* GlobalDefinition(const char* name) {
  if (tmapgen_preload_real_dlsym == nullptr) tmapgen_preload_init();
  return tmapgen_preload_real_dlsym != nullptr ? tmapgen_preload_real_dlsym(RTLD_NEXT, name) : nullptr;
}
void* CallerDefinition(const char* name, const void* caller) {
  if (tmapgen_preload_real_dlsym == nullptr) return nullptr;
  Dl_info info{};
  if (caller != nullptr && dladdr(caller, &info) != 0 && info.dli_fname != nullptr) {
    if (void* h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
      void* fn = tmapgen_preload_real_dlsym(h, name);
      dlclose(h);
      if (fn != nullptr && !IsLinkedExport(fn)) return fn;
    }
  }
  void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) h = dlopen("libcuda.so.1", RTLD_LAZY);
  return h != nullptr ? tmapgen_preload_real_dlsym(h, name) : nullptr;
}

// One linked entry point: the next global definition, looked up at the first call (the same for every caller),
// or, where there is none, per calling object (a few kept).
struct Linked {
  const char* name;
  std::atomic<void*> fn;          // the global definition
  std::atomic<int> global_state;  // 0 not looked up, 1 found (fn), 2 none: per caller
  std::atomic<const void*> caller_base[4];
  std::atomic<void*> caller_fn[4];
};
Linked g_linked[8] = {{"cuLaunchKernel", {nullptr}, {0}, {}, {}},
                      {"cuLaunchKernel_ptsz", {nullptr}, {0}, {}, {}},
                      {"cuLaunchKernelEx", {nullptr}, {0}, {}, {}},
                      {"cuLaunchKernelEx_ptsz", {nullptr}, {0}, {}, {}},
                      {"cuLaunchCooperativeKernel", {nullptr}, {0}, {}, {}},
                      {"cuLaunchCooperativeKernel_ptsz", {nullptr}, {0}, {}, {}},
                      {"cuGetProcAddress", {nullptr}, {0}, {}, {}},
                      {"cuGetProcAddress_v2", {nullptr}, {0}, {}, {}}};
void* LinkedFunction(int i, const void* caller) {
  Linked& l = g_linked[i];
  int st = l.global_state.load(std::memory_order_acquire);
  if (st == 0) {
    void* fn = GlobalDefinition(l.name);
    if (fn != nullptr) l.fn.store(fn, std::memory_order_release);
    st = fn != nullptr ? 1 : 2;
    l.global_state.store(st, std::memory_order_release);
  }
  if (st == 1) return l.fn.load(std::memory_order_acquire);
  Dl_info info{};
  const void* base = caller != nullptr && dladdr(caller, &info) != 0 ? info.dli_fbase : nullptr;
  for (int k = 0; k < 4 && base != nullptr; ++k)
    if (l.caller_base[k].load(std::memory_order_acquire) == base) return l.caller_fn[k].load(std::memory_order_acquire);
  void* fn = CallerDefinition(l.name, caller);
  for (int k = 0; k < 4 && base != nullptr && fn != nullptr; ++k) {
    const void* expected = nullptr;
    if (l.caller_base[k].load(std::memory_order_acquire) == nullptr) {
      l.caller_fn[k].store(fn, std::memory_order_release);
      if (l.caller_base[k].compare_exchange_strong(expected, base, std::memory_order_acq_rel)) break;
    }
  }
  return fn;
}

CUresult LinkedLaunchKernel(int i, const void* caller, void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, unsigned bz, unsigned smem, void* stream, void** params, void** extra) {
  auto real = reinterpret_cast<LaunchKernelFn>(LinkedFunction(i, caller));
  if (real == nullptr) return kCudaErrorNotInitialized;
  return LaunchKernelThrough(real, f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
CUresult LinkedLaunchKernelEx(int i, const void* caller, const void* config, void* f, void** params, void** extra) {
  auto real = reinterpret_cast<LaunchKernelExFn>(LinkedFunction(i, caller));
  if (real == nullptr) return kCudaErrorNotInitialized;
  return LaunchKernelExThrough(real, config, f, params, extra);
}
CUresult LinkedLaunchCoop(int i, const void* caller, void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                          unsigned by, unsigned bz, unsigned smem, void* stream, void** params) {
  auto real = reinterpret_cast<LaunchCoopFn>(LinkedFunction(i, caller));
  if (real == nullptr) return kCudaErrorNotInitialized;
  return LaunchCoopThrough(real, f, gx, gy, gz, bx, by, bz, smem, stream, params);
}
CUresult LinkedGetProcAddress(int i, const void* caller, const char* symbol, void** pfn, int version,
                              uint64_t flags, void* status) {
  auto real = reinterpret_cast<GetProcAddressFn>(LinkedFunction(i, caller));
  if (real == nullptr) return kCudaErrorNotInitialized;
  return GetProcAddressThrough(real, caller, symbol, pfn, version, flags, status);
}

}  // namespace

extern "C" {

void tmapgen_preload_init() {
  if (tmapgen_preload_real_dlsym != nullptr) return;
  // dlsym is in libc since glibc 2.34 (GLIBC_2.34), in libdl before (GLIBC_2.2.5 on x86-64).
  void* f = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
  if (f == nullptr) f = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
  const DlsymFn glibc = reinterpret_cast<DlsymFn>(f);
  // An unversioned lookup from here finds the next interposer of dlsym, if a tool preloaded after this one
  // has one (a versioned lookup matches only glibc's).
  void* next = glibc != nullptr ? glibc(RTLD_NEXT, "dlsym") : nullptr;
  tmapgen_preload_next_dlsym = reinterpret_cast<DlsymFn>(next != nullptr ? next : f);
  tmapgen_preload_real_dlsym = glibc;
}

int tmapgen_preload_wants(const char* name) { return KindOf(name) != kNone ? 1 : 0; }

// dlsym of a launch entry point or of cuGetProcAddress (not RTLD_NEXT): glibc's answer, wrapped. The
// assembly entry jumps here, so the return address is the program's call.
void* tmapgen_preload_dlsym_wrapped(void* handle, const char* name) {
  if (tmapgen_preload_real_dlsym == nullptr) tmapgen_preload_init();
  if (tmapgen_preload_real_dlsym == nullptr) return nullptr;
  void* fn = tmapgen_preload_next_dlsym(handle, name);
  // This library's own export, found because it is in the global scope: answer it only where the program could
  // have found a definition without this library (the driver, or another tool's), so that a process without
  // the driver still sees none.
  if (fn != nullptr && IsLinkedExport(fn)) {
    void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    const bool driver = h != nullptr && tmapgen_preload_real_dlsym(h, name) != nullptr;
    if (h != nullptr) dlclose(h);
    if (!driver && tmapgen_preload_real_dlsym(RTLD_NEXT, name) == nullptr) return nullptr;  // dlerror: the name
  }
  return Rewrap(name, fn, "dlsym", __builtin_return_address(0));
}

__attribute__((visibility("default"))) int tmapgen_trace_preload_attach(const p::Hooks* hooks, p::Status* status) {
  // The hooks first, so that an entry point going out unwrapped from now on reaches on_unwrapped, and one that
  // went out before is in the status below.
  int attached = 0;
  if (hooks == nullptr) {
    g_hook.store(nullptr, std::memory_order_release);
    g_unwrapped_hook.store(nullptr, std::memory_order_release);
    attached = 1;
  } else if (hooks->version == p::kAbiVersion && hooks->size == sizeof(p::Hooks)) {
    g_unwrapped_hook.store(hooks->on_unwrapped, std::memory_order_release);
    g_hook.store(hooks->on_launch, std::memory_order_release);
    attached = 1;
  }
  if (status != nullptr) {
    // status->size is the caller's capacity: the rest is written only into a Status at least as large as ours.
    const uint32_t capacity = status->size;
    status->version = p::kAbiVersion;
    status->size = sizeof(p::Status);
    if (capacity >= sizeof(p::Status)) {
#if defined(__x86_64__)
      status->dlsym_interposed = 1;
#else
      status->dlsym_interposed = 0;
#endif
      status->unwrapped = g_unwrapped.load(std::memory_order_relaxed);
      status->wrapped = g_wrapped.load(std::memory_order_relaxed);
    }
  }
  return attached;
}

// The linked entry points.
__attribute__((visibility("default"))) CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz,
                                                               unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                                               void* stream, void** params, void** extra) {
  return LinkedLaunchKernel(0, __builtin_return_address(0), f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
__attribute__((visibility("default"))) CUresult cuLaunchKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz,
                                                                    unsigned bx, unsigned by, unsigned bz,
                                                                    unsigned smem, void* stream, void** params,
                                                                    void** extra) {
  return LinkedLaunchKernel(1, __builtin_return_address(0), f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
__attribute__((visibility("default"))) CUresult cuLaunchKernelEx(const void* config, void* f, void** params,
                                                                 void** extra) {
  return LinkedLaunchKernelEx(2, __builtin_return_address(0), config, f, params, extra);
}
__attribute__((visibility("default"))) CUresult cuLaunchKernelEx_ptsz(const void* config, void* f, void** params,
                                                                      void** extra) {
  return LinkedLaunchKernelEx(3, __builtin_return_address(0), config, f, params, extra);
}
__attribute__((visibility("default"))) CUresult cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy,
                                                                          unsigned gz, unsigned bx, unsigned by,
                                                                          unsigned bz, unsigned smem, void* stream,
                                                                          void** params) {
  return LinkedLaunchCoop(4, __builtin_return_address(0), f, gx, gy, gz, bx, by, bz, smem, stream, params);
}
__attribute__((visibility("default"))) CUresult cuLaunchCooperativeKernel_ptsz(void* f, unsigned gx, unsigned gy,
                                                                               unsigned gz, unsigned bx, unsigned by,
                                                                               unsigned bz, unsigned smem,
                                                                               void* stream, void** params) {
  return LinkedLaunchCoop(5, __builtin_return_address(0), f, gx, gy, gz, bx, by, bz, smem, stream, params);
}
__attribute__((visibility("default"))) CUresult cuGetProcAddress(const char* symbol, void** pfn, int version,
                                                                 uint64_t flags, void* status) {
  return LinkedGetProcAddress(6, __builtin_return_address(0), symbol, pfn, version, flags, status);
}
__attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version,
                                                                    uint64_t flags, void* status) {
  return LinkedGetProcAddress(7, __builtin_return_address(0), symbol, pfn, version, flags, status);
}

}  // extern "C"

namespace {
bool IsLinkedExport(const void* fn) {
  const void* exports[] = {reinterpret_cast<const void*>(&cuLaunchKernel),
                           reinterpret_cast<const void*>(&cuLaunchKernel_ptsz),
                           reinterpret_cast<const void*>(&cuLaunchKernelEx),
                           reinterpret_cast<const void*>(&cuLaunchKernelEx_ptsz),
                           reinterpret_cast<const void*>(&cuLaunchCooperativeKernel),
                           reinterpret_cast<const void*>(&cuLaunchCooperativeKernel_ptsz),
                           reinterpret_cast<const void*>(&cuGetProcAddress),
                           reinterpret_cast<const void*>(&cuGetProcAddress_v2)};
  for (const void* e : exports)
    if (e == fn) return true;
  return false;
}

__attribute__((constructor(101))) void PreloadInit() {
  tmapgen_preload_init();
  const char* d = std::getenv("TMAPGEN_TRACE_PRELOAD_DEBUG");
  g_debug = d != nullptr && std::strcmp(d, "1") == 0;
}
}  // namespace

#if defined(__x86_64__)
// dlsym itself (it starts with endbr64, for programs built with indirect branch tracking). RTLD_NEXT
// ((void*)-1) goes to glibc's dlsym, and every other name that is not a launch entry point or cuGetProcAddress to
// the next dlsym (another tool's, else glibc's), by a jump, with the program's return address still on the
// stack: glibc resolves
// RTLD_NEXT and RTLD_DEFAULT relative to the object that called, so a call from here would answer another
// object's lookup (an interposer's dlsym(RTLD_NEXT, "malloc") could then find itself). The few names this
// library answers are looked up from here (the preload library is in the global scope, so RTLD_DEFAULT
// finds at least its own exports of them).
__asm__(R"(
    .text
    .globl dlsym
    .type dlsym, @function
    .p2align 4
dlsym:
    .cfi_startproc
    .byte 0xf3, 0x0f, 0x1e, 0xfa
    cmpq $-1, %rdi
    je 2f
    testq %rsi, %rsi
    je 5f
    cmpb $0x63, (%rsi)
    jne 5f
    pushq %rdi
    .cfi_adjust_cfa_offset 8
    pushq %rsi
    .cfi_adjust_cfa_offset 8
    subq $8, %rsp
    .cfi_adjust_cfa_offset 8
    movq %rsi, %rdi
    call tmapgen_preload_wants
    addq $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq %rsi
    .cfi_adjust_cfa_offset -8
    popq %rdi
    .cfi_adjust_cfa_offset -8
    testl %eax, %eax
    jne tmapgen_preload_dlsym_wrapped
5:
    movq tmapgen_preload_next_dlsym(%rip), %rax
    testq %rax, %rax
    je 2f
    jmp *%rax
2:
    movq tmapgen_preload_real_dlsym(%rip), %rax
    testq %rax, %rax
    je 3f
    jmp *%rax
3:
    pushq %rdi
    .cfi_adjust_cfa_offset 8
    pushq %rsi
    .cfi_adjust_cfa_offset 8
    subq $8, %rsp
    .cfi_adjust_cfa_offset 8
    call tmapgen_preload_init
    addq $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq %rsi
    .cfi_adjust_cfa_offset -8
    popq %rdi
    .cfi_adjust_cfa_offset -8
    movq tmapgen_preload_real_dlsym(%rip), %rax
    testq %rax, %rax
    je 4f
    jmp *%rax
4:
    xorl %eax, %eax
    ret
    .cfi_endproc
    .size dlsym, .-dlsym
)");
#endif
