// preload_probe_next.cc: libtmapgen_probe_next.so, an interposer of puts that finds libc's with
// dlsym(RTLD_NEXT, "puts"), as interposing libraries do (for preload_probe.cc).
#include <dlfcn.h>

namespace {
int g_calls = 0;
}

extern "C" __attribute__((visibility("default"))) int puts(const char* s) {
  ++g_calls;
  static int (*real)(const char*) = nullptr;
  if (real == nullptr) real = reinterpret_cast<int (*)(const char*)>(dlsym(RTLD_NEXT, "puts"));
  return real != nullptr ? real(s) : -1;
}
extern "C" __attribute__((visibility("default"))) int probe_next_calls() { return g_calls; }
