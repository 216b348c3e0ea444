// preload_abi.h: what libtmapgen_trace_preload.so (in LD_PRELOAD) and libtmapgen_trace_inject.so (in
// CUDA_INJECTION64_PATH) say to each other; both are built from this tree, so the two always agree, and the
// version and size fields let a mismatched pair (a preload library of another build) refuse to attach.
//
// The preload library hands out its own functions for the driver's kernel-launch entry points (wherever a
// program gets them: linked, dlsym, cuGetProcAddress) and, after a launch the driver accepted, calls the
// injection library's hook with the launch's arguments. The injection library attaches from
// InitializeInjection (inside the first cuInit, before any launch can happen), so the hot path of a launch
// runs no CUPTI callback at all (docs/trace.md, "At kernel launch"; src/trace/preload/preload.cc).
#ifndef TMAPGEN_SRC_TRACE_PRELOAD_PRELOAD_ABI_H_
#define TMAPGEN_SRC_TRACE_PRELOAD_PRELOAD_ABI_H_

#include <cstdint>

namespace tmapgen::trace::preload {

inline constexpr uint32_t kAbiVersion = 1;

// The launch entry points, by signature (cuda.h). The _ptsz forms share their base form's signature.
enum LaunchEntry : uint32_t {
  kEntryLaunchKernel = 0,             // cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra)
  kEntryLaunchKernelEx = 1,           // cuLaunchKernelEx(config, f, params, extra)
  kEntryLaunchCooperativeKernel = 2,  // cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params)
};

// After a launch the driver accepted (CUDA_SUCCESS), on the launching thread. `stream` is the launch's stream
// (for cuLaunchKernelEx: config->hStream, or null when config is null).
using LaunchHook = void (*)(uint32_t entry, void* f, void** kernel_params, void** extra, void* stream);
// A launch entry point went out unwrapped (every slot of its signature held another driver function): from
// then on some launches may not reach LaunchHook, and the injection library must watch launches another way.
using UnwrappedHook = void (*)(uint32_t entry);

struct Hooks {
  uint32_t version;  // kAbiVersion
  uint32_t size;     // sizeof(Hooks)
  LaunchHook on_launch;
  UnwrappedHook on_unwrapped;
};

struct Status {
  uint32_t version;           // the preload library's kAbiVersion
  uint32_t size;              // in: the caller's sizeof(Status) (its capacity); out: the preload library's
  uint32_t dlsym_interposed;  // 1: dlsym is the preload library's (x86-64); 0: only linked calls are wrapped
  uint32_t unwrapped;         // entry points already handed out unwrapped (slots full) before attaching
  uint64_t wrapped;           // distinct driver launch functions wrapped so far
};

// extern "C" int tmapgen_trace_preload_attach(const Hooks* hooks, Status* status): when hooks->version and size
// match, installs the hooks (null hooks: detach) and returns 1, else returns 0; then writes status->version and
// status->size (its own sizeof(Status)) and, only when the caller's status->size was at least that, the rest.
inline constexpr char kAttachSymbol[] = "tmapgen_trace_preload_attach";
using AttachFn = int (*)(const Hooks*, Status*);

}  // namespace tmapgen::trace::preload

#endif  // TMAPGEN_SRC_TRACE_PRELOAD_PRELOAD_ABI_H_
