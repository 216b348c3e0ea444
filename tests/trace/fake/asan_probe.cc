// asan_probe.cc: built with -fsanitize=address (GCC: the ASan runtime a shared library) when the compiler can;
// trace_inject_test runs it under `tmapgen trace`, which preloads a library: the program must run as it does
// alone (ASan refuses to start when a library is loaded before its runtime unless told not to check) and ASan
// must still work (a heap buffer it reads correctly, and its interceptors in place).
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
  char* p = static_cast<char*>(std::malloc(16));
  std::memset(p, 7, 16);
  const int v = p[15];
  std::free(p);
  std::printf("asan_probe: %d\n", v);
  return 0;
}
