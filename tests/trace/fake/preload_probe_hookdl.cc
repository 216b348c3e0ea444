// preload_probe_hookdl.cc: libtmapgen_probe_hookdl.so, another tool's dlsym interposer (GPU-sharing and tracing
// tools have one), preloaded after tmapgen's by preload_probe's test: it must still see the program's lookups.
#include <dlfcn.h>

namespace {
int g_lookups = 0;
void* (*g_glibc)(void*, const char*) = nullptr;
}  // namespace

extern "C" __attribute__((visibility("default"))) void* dlsym(void* handle, const char* name) {
  if (g_glibc == nullptr) {
    void* f = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (f == nullptr) f = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    g_glibc = reinterpret_cast<void* (*)(void*, const char*)>(f);
  }
  ++g_lookups;
  return g_glibc != nullptr ? g_glibc(handle, name) : nullptr;
}
extern "C" __attribute__((visibility("default"))) int probe_hook_lookups() { return g_lookups; }
