// fake_app.cc: the program `tmapgen trace` runs in tests/trace/trace_inject_test.cc, against the fake
// driver. Scenarios: basic, threads, fork, quick_exit, im2col, replace, none (the driver initialised, no map).  Prints one line on stdout (the
// test checks that it is the only thing there).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

extern "C" int cuInit(unsigned);
extern "C" int cuTensorMapEncodeTiled(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const uint32_t*,
                                      const uint32_t*, int, int, int, int);
extern "C" int cuTensorMapEncodeIm2col(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const int*,
                                       const int*, uint32_t, uint32_t, const uint32_t*, int, int, int, int);
extern "C" int cuTensorMapEncodeIm2colWide(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*, int, int,
                                           uint32_t, uint32_t, const uint32_t*, int, int, int, int, int);
extern "C" int cuTensorMapReplaceAddress(void*, void*);
extern "C" int framework_encode_2d(void* map, int dt, void* addr, uint64_t d0, uint64_t d1, uint64_t stride,
                                   uint32_t b0, uint32_t b1, int swizzle);

constexpr int kBf16 = 9, kF16 = 6, kF32 = 7;  // CUtensorMapDataType (cuda.h)
constexpr int kSw128 = 3;                    // CU_TENSOR_MAP_SWIZZLE_128B
void* const kAddr = reinterpret_cast<void*>(0x7f0000000000);

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "basic";
  cuInit(0);
  alignas(64) unsigned char map[128];
  if (std::strcmp(mode, "basic") == 0 || std::strcmp(mode, "quick_exit") == 0) {
    for (int i = 0; i < 1000; ++i) framework_encode_2d(map, kBf16, kAddr, 4096, 4096, 8192, 64, 128, kSw128);
    // The same configuration at other addresses (alignment kept): still one configuration.
    for (int i = 1; i <= 10; ++i)
      framework_encode_2d(map, kBf16, static_cast<char*>(kAddr) + 4096 * i, 4096, 4096, 8192, 64, 128, kSw128);
    framework_encode_2d(map, kBf16, kAddr, 4096, 4096, 8192, 64, 300, kSw128);  // box_dim[1] 300 > 256: rejected
    framework_encode_2d(map, kF32, kAddr, 4096, 4096, 16384, 64, 64, kSw128);   // accepted here, breaks a rule
    std::printf("fake_app %s: done\n", mode);
    std::fflush(stdout);
    if (std::strcmp(mode, "quick_exit") == 0) _exit(0);  // no atexit handlers
    return 0;
  }
  if (std::strcmp(mode, "threads") == 0) {
    std::vector<std::thread> th;
    for (int k = 0; k < 8; ++k)
      th.emplace_back([k] {
        alignas(64) unsigned char m[128];
        for (int i = 0; i < 5000; ++i) framework_encode_2d(m, kF16, kAddr, 1024 + 64 * (k % 4), 1024, 4096, 64, 64, kSw128);
      });
    for (auto& t : th) t.join();
    std::printf("fake_app threads: done\n");
    return 0;
  }
  if (std::strcmp(mode, "fork") == 0) {
    framework_encode_2d(map, kF16, kAddr, 256, 256, 512, 64, 64, kSw128);
    std::fflush(stdout);
    const pid_t p = fork();
    if (p == 0) {
      for (int i = 0; i < 3; ++i) framework_encode_2d(map, kF16, kAddr, 512, 512, 1024, 64, 64, kSw128);
      _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    framework_encode_2d(map, kF16, kAddr, 256, 256, 512, 64, 64, kSw128);
    std::printf("fake_app fork: done\n");
    return 0;
  }
  if (std::strcmp(mode, "im2col") == 0) {
    const uint64_t dims[4] = {64, 56, 56, 8};
    const uint64_t strides[3] = {128, 128 * 56, 128 * 56 * 56};
    const int lo[2] = {-1, -1}, hi[2] = {-1, -1};
    const uint32_t es[4] = {1, 1, 1, 1};
    cuTensorMapEncodeIm2col(map, kF16, 4, kAddr, dims, strides, lo, hi, 64, 128, es, 0, kSw128, 2, 0);
    cuTensorMapEncodeIm2colWide(map, kF16, 4, kAddr, dims, strides, -1, -1, 64, 128, es, 0, 0, kSw128, 2, 0);
    cuTensorMapEncodeTiled(map, 99, 2, kAddr, dims, strides, nullptr, es, 0, 0, 2, 0);  // bad type, null box
    std::printf("fake_app im2col: done\n");
    return 0;
  }
  if (std::strcmp(mode, "replace") == 0) {
    framework_encode_2d(map, kBf16, kAddr, 4096, 4096, 8192, 64, 128, kSw128);
    cuTensorMapReplaceAddress(map, static_cast<char*>(kAddr) + (1 << 20));
    alignas(64) unsigned char other[128];
    std::memset(other, 0x5a, sizeof(other));
    cuTensorMapReplaceAddress(other, kAddr);  // a map this process never encoded
    std::printf("fake_app replace: done\n");
    return 0;
  }
  if (std::strcmp(mode, "none") == 0) {
    std::printf("fake_app none: done\n");
    return 0;
  }
  std::fprintf(stderr, "fake_app: unknown mode %s\n", mode);
  return 2;
}
