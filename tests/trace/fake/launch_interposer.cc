// launch_interposer.cc: libtmapgen_launch_interposer.so, another tool's cuLaunchKernel (as GPU-sharing tools
// have), preloaded after tmapgen's: it forwards to the function dlsym gives for libcuda.so.1, which is the preload
// library's wrapper. One launch then passes through two of tmapgen's functions and must be reported once.
#include <dlfcn.h>

using LaunchFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                         void**);

extern "C" __attribute__((visibility("default"))) int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz,
                                                                     unsigned bx, unsigned by, unsigned bz,
                                                                     unsigned smem, void* stream, void** params,
                                                                     void** extra) {
  static LaunchFn real = nullptr;
  if (real == nullptr)
    if (void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD))
      real = reinterpret_cast<LaunchFn>(dlsym(h, "cuLaunchKernel"));
  return real != nullptr ? real(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra) : 999;
}
