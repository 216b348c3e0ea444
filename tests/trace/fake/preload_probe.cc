// preload_probe.cc: a program run by trace_inject_test with and without LD_PRELOAD=libtmapgen_trace_preload.so.
// The preload library replaces dlsym; every lookup that is not one of the few it wraps must be answered as
// glibc answers it for the caller (dlsym(3)): RTLD_NEXT relative to the object that called (an interposer in
// libtmapgen_probe_next.so, loaded after the preload library, finds libc's puts, not itself: a wrong answer
// recurses until the stack overflows), RTLD_DEFAULT and a library's handle as before (a library loaded
// RTLD_LOCAL stays out of RTLD_DEFAULT), dlerror for a missing symbol. Prints one line per check; exit 0 when
// all hold. With a third argument `hook`, libtmapgen_probe_hookdl.so (another dlsym interposer) is preloaded
// after the preload library and must see the program's lookups.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

extern "C" int probe_next_calls();

int main(int argc, char** argv) {
  const bool preloaded = argc > 1 && std::strcmp(argv[1], "preloaded") == 0;
  int bad = 0;
  std::puts("probe: puts through an interposer that uses dlsym(RTLD_NEXT)");
  if (probe_next_calls() != 1) {
    std::printf("probe: FAIL the interposer saw %d calls\n", probe_next_calls());
    ++bad;
  }
  // A library loaded RTLD_LOCAL: its symbols stay out of the program's RTLD_DEFAULT lookups, and its own
  // lookup by handle works.
  void* local = dlopen(argc > 2 ? argv[2] : "libtmapgen_probe_local.so", RTLD_NOW | RTLD_LOCAL);
  if (local == nullptr) {
    std::printf("probe: FAIL dlopen: %s\n", dlerror());
    return 1;
  }
  if (dlsym(RTLD_DEFAULT, "cu_probe_symbol") != nullptr) {
    std::printf("probe: FAIL the program finds a RTLD_LOCAL library's symbol through RTLD_DEFAULT\n");
    ++bad;
  }
  auto own = reinterpret_cast<int (*)()>(dlsym(local, "cu_probe_symbol"));
  if (own == nullptr || own() != 42) {
    std::printf("probe: FAIL dlsym(handle, \"cu_probe_symbol\") of a RTLD_LOCAL library\n");
    ++bad;
  }
  // No driver in this process: the preload library's own export is not answered (as without it).
  void* launch = dlsym(RTLD_DEFAULT, "cuLaunchKernel");
  if (launch != nullptr) {
    std::printf("probe: FAIL dlsym(RTLD_DEFAULT, \"cuLaunchKernel\") = %p without a driver (preloaded: %d)\n", launch,
                preloaded);
    ++bad;
  }
  // Another tool's dlsym interposer preloaded after the preload library still sees the program's lookups.
  if (argc > 3 && std::strcmp(argv[3], "hook") == 0) {
    auto lookups = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "probe_hook_lookups"));
    const int before = lookups != nullptr ? lookups() : -1;
    void* p = dlsym(RTLD_DEFAULT, "puts");
    const int after = lookups != nullptr ? lookups() : -1;
    if (lookups == nullptr || p == nullptr || after != before + 1) {
      std::printf("probe: FAIL the other dlsym interposer saw %d lookup(s) of puts, not 1\n", after - before);
      ++bad;
    }
  }
  dlerror();
  if (dlsym(RTLD_DEFAULT, "cuNoSuchFunction") != nullptr || dlerror() == nullptr) {
    std::printf("probe: FAIL a missing symbol is not reported through dlerror\n");
    ++bad;
  }
  std::printf("probe: %s\n", bad == 0 ? "all checks hold" : "FAILED");
  return bad == 0 ? 0 : 1;
}
