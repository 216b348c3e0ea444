// fake_app.cc: the program `tmapgen trace` runs in tests/trace/trace_inject_test.cc, against the fake
// driver. Scenarios: basic, threads, fork, quick_exit, im2col, replace, none (the driver initialised, no map),
// launch_ok (maps in a struct parameter, launched many times, none bad) and launch_bad (a tensor larger than
// its allocation, a freed and reallocated one, a freed one, a map edited by hand, a graph kernel node).  Prints one line on stdout (the
// test checks that it is the only thing there).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "src/blob/blob.h"
#include "src/blob/layout.h"
#include "src/trace/inject/cupti_abi.h"

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

extern "C" void* fake_make_function(const char* name, int n, const size_t* offsets, const size_t* sizes);
extern "C" int cuLaunchKernel(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                              void**);
extern "C" int cuLaunchKernelEx(const tmapgen::trace::cupti::LaunchConfig*, void*, void**, void**);
extern "C" int cuGraphAddKernelNode_v2(void**, void*, const void*, size_t, const tmapgen::trace::cupti::KernelNodeParams*);
extern "C" int cuMemAlloc_v2(uint64_t*, size_t);
extern "C" int fake_runtime_launch(void* kernel, void** args);
extern "C" int cuMemFree_v2(uint64_t);

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
  if (std::strcmp(mode, "launch_ok") == 0 || std::strcmp(mode, "launch_bad") == 0) {
    const bool bad = std::strcmp(mode, "launch_bad") == 0;
    // Two bf16 4096 x 4096 tensors and their maps, in a parameter struct at offsets 64 and 192.
    uint64_t a = 0, b = 0;
    cuMemAlloc_v2(&a, 4096 * 8192);
    cuMemAlloc_v2(&b, 4096 * 8192);
    const uint64_t dims[2] = {4096, 4096}, strides[1] = {8192};
    const uint32_t box[2] = {64, 128}, es[2] = {1, 1};
    struct alignas(64) Params {
      int n;
      float alpha;
      void* c;
      unsigned char pad[48];
      unsigned char map_a[128];
      unsigned char map_b[128];
    } params{};
    params.n = 4096;
    params.alpha = 1.0f;
    cuTensorMapEncodeTiled(params.map_a, kBf16, 2, reinterpret_cast<void*>(a), dims, strides, box, es, 0, kSw128, 2, 0);
    cuTensorMapEncodeTiled(params.map_b, kBf16, 2, reinterpret_cast<void*>(b), dims, strides, box, es, 0, kSw128, 2, 0);
    const size_t offs[2] = {0, 64}, sizes[2] = {8, sizeof(Params)};
    void* gemm = fake_make_function("gemm_params", 2, offs, sizes);
    void* out = reinterpret_cast<void*>(a);
    void* args[2] = {&out, &params};
    for (int i = 0; i < 100; ++i) cuLaunchKernel(gemm, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
    // Laid out at the offsets cuFuncGetParamInfo reports (the fake driver's, 48 and 112, like driver 580's):
    // the layout driver 580 reads a packed buffer in (measured on the H200, docs/trace.md).
    alignas(64) unsigned char packed[112 + sizeof(Params)] = {};
    std::memcpy(packed + 48, &out, 8);
    std::memcpy(packed + 112, &params, sizeof(Params));
    size_t packed_size = sizeof(packed);
    void* extra[5] = {reinterpret_cast<void*>(1), packed, reinterpret_cast<void*>(2), &packed_size, nullptr};
    cuLaunchKernel(gemm, 1, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra);
    tmapgen::trace::cupti::LaunchConfig cfg{1, 1, 1, 128, 1, 1, 0, nullptr, nullptr, 0};
    cuLaunchKernelEx(&cfg, gemm, args, nullptr);
    // A kernel with small parameters only.
    const size_t soffs[2] = {0, 8}, ssizes[2] = {8, 4};
    void* small = fake_make_function("small_kernel", 2, soffs, ssizes);
    int n = 5;
    void* sargs[2] = {&out, &n};
    for (int i = 0; i < 1000; ++i) cuLaunchKernel(small, 1, 1, 1, 32, 1, 1, 0, nullptr, sargs, nullptr);
    // Runtime launches (<<<>>>): 10 that the runtime carries out through cuLaunchKernel (each checked once),
    // and 1 of a kernel handle the driver does not know (not scanned).
    for (int i = 0; i < 10; ++i) fake_runtime_launch(gemm, args);
    fake_runtime_launch(reinterpret_cast<void*>(1), args);
    // A placeholder map over address 0 (an operand the kernel does not read): not a finding.
    {
      const size_t noffs[1] = {0}, nsizes[1] = {128};
      void* null_map = fake_make_function("null_map", 1, noffs, nsizes);
      alignas(64) unsigned char nm[128];
      cuTensorMapEncodeTiled(nm, kBf16, 2, nullptr, dims, strides, box, es, 0, kSw128, 2, 0);
      void* nargs[1] = {nm};
      cuLaunchKernel(null_map, 1, 1, 1, 32, 1, 1, 0, nullptr, nargs, nullptr);
    }
    if (std::getenv("FAKE_LAUNCH_BENCH") != nullptr) {  // ns per launch call: the callbacks' own cost here
      for (int kind = 0; kind < 2; ++kind) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 200000; ++i)
          cuLaunchKernel(kind == 0 ? small : gemm, 1, 1, 1, 32, 1, 1, 0, nullptr, kind == 0 ? sargs : args, nullptr);
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 200000;
        std::fprintf(stderr, "fake_app bench %s %.1f ns\n", kind == 0 ? "nomap" : "two_maps", ns);
      }
    }
    if (bad) {
      const size_t ooffs[1] = {0}, osizes[1] = {128};
      void* one = fake_make_function("one_map", 1, ooffs, osizes);
      alignas(64) unsigned char m[128];
      void* margs[1] = {m};
      // A 1 GiB f16 tensor (32768 x 16384, row pitch 65536) over a 512 MiB allocation.
      uint64_t half = 0;
      cuMemAlloc_v2(&half, 512u << 20);
      const uint64_t gdims[2] = {32768, 16384}, gstrides[1] = {65536};
      cuTensorMapEncodeTiled(m, kF16, 2, reinterpret_cast<void*>(half), gdims, gstrides, box, es, 0, kSw128, 2, 0);
      cuLaunchKernel(one, 1, 1, 1, 128, 1, 1, 0, nullptr, margs, nullptr);
      tmapgen::trace::cupti::KernelNodeParams node{};
      node.func = one;
      node.kernelParams = margs;
      void* graph_node = nullptr;
      cuGraphAddKernelNode_v2(&graph_node, nullptr, nullptr, 0, &node);
      // Freed, and the memory handed out again to another allocation of the same size.
      uint64_t c = 0, d = 0;
      cuMemAlloc_v2(&c, 1 << 20);
      const uint64_t fdims[2] = {256, 256}, fstrides[1] = {1024};
      const uint32_t fbox[2] = {32, 128};
      cuTensorMapEncodeTiled(m, kF32, 2, reinterpret_cast<void*>(c), fdims, fstrides, fbox, es, 0, kSw128, 2, 0);
      cuMemFree_v2(c);
      cuMemAlloc_v2(&d, 1 << 20);
      cuLaunchKernel(one, 1, 1, 1, 128, 1, 1, 0, nullptr, margs, nullptr);
      // Freed and not reused.
      uint64_t e = 0;
      cuMemAlloc_v2(&e, 3 << 20);
      cuTensorMapEncodeTiled(m, kF32, 2, reinterpret_cast<void*>(e), fdims, fstrides, fbox, es, 0, kSw128, 2, 0);
      cuMemFree_v2(e);
      cuLaunchKernel(one, 1, 1, 1, 128, 1, 1, 0, nullptr, margs, nullptr);
      // A map edited by hand (its L2 promotion), over live memory: found, of unknown origin, no finding.
      cuTensorMapEncodeTiled(m, kBf16, 2, reinterpret_cast<void*>(a), dims, strides, box, es, 0, kSw128, 2, 0);
      tmapgen::blob::MapWords w;
      std::memcpy(w.data(), m, 128);
      int nf = 0;
      const tmapgen::blob::MapField* f = tmapgen::blob::Fields(&nf);
      for (int k = 0; k < nf; ++k)
        if (f[k].ref == tmapgen::blob::Ref::kL2Promotion) tmapgen::blob::ScatterWords(&w, f[k], 3);
      std::memcpy(m, w.data(), 128);
      cuLaunchKernel(one, 1, 1, 1, 128, 1, 1, 0, nullptr, margs, nullptr);
    }
    std::printf("fake_app %s: done\n", mode);
    return 0;
  }
  if (std::strcmp(mode, "none") == 0) {
    std::printf("fake_app none: done\n");
    return 0;
  }
  std::fprintf(stderr, "fake_app: unknown mode %s\n", mode);
  return 2;
}
