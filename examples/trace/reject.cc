// reject.cc: a small C++ program that encodes tensor maps with the real driver for `tmapgen trace`:
// valid maps (repeated, to see counts), maps the driver rejects, im2col / im2col::w, a replace-address,
// several threads, a fork; and a timing loop (ns per encode) for the overhead measurement.
//   reject [basic|time N|threads T N|fork]
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

static CUdeviceptr g_buf = 0;

static CUresult EncodeTiled(CUtensorMap* m, CUtensorMapDataType dt, cuuint64_t d0, cuuint64_t d1, cuuint64_t stride,
                            cuuint32_t b0, cuuint32_t b1, CUtensorMapSwizzle sw, CUdeviceptr base) {
  cuuint64_t dims[2] = {d0, d1};
  cuuint64_t strides[1] = {stride};
  cuuint32_t box[2] = {b0, b1};
  cuuint32_t es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, dt, 2, reinterpret_cast<void*>(base), dims, strides, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

static void Report(const char* what, CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "reject: %-60s -> %s\n", what, name ? name : "?");
}

static void DummyCallback(void*, int, unsigned, const void*) {}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "basic";
  if (std::strcmp(mode, "cupti_first") == 0) {
    // Another CUPTI client first: this program subscribes before cuInit loads the injection library.
    void* h = dlopen("/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so", RTLD_NOW | RTLD_GLOBAL);
    if (!h) { std::fprintf(stderr, "reject: cannot open CUPTI: %s\n", dlerror()); return 3; }
    using Sub = int (*)(void**, void (*)(void*, int, unsigned, const void*), void*);
    Sub sub = reinterpret_cast<Sub>(dlsym(h, "cuptiSubscribe"));
    void* handle = nullptr;
    const int r = sub ? sub(&handle, DummyCallback, nullptr) : -1;
    std::fprintf(stderr, "reject: the program's own cuptiSubscribe -> %d\n", r);
    mode = "basic";
  }
  if (cuInit(0) != CUDA_SUCCESS) { std::fprintf(stderr, "reject: cuInit failed\n"); return 3; }
  CUdevice dev; CUcontext ctx;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  cuMemAlloc(&g_buf, 64 << 20);
  alignas(64) CUtensorMap m;
  if (std::strcmp(mode, "time") == 0) {
    const int n = argc > 2 ? std::atoi(argv[2]) : 200000;
    for (int i = 0; i < 1000; ++i) EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf);
    auto t1 = std::chrono::steady_clock::now();
    // A new address each call (a framework encoding per launch for a new tensor): same configuration.
    for (int i = 0; i < n; ++i) EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf + 1024 * (i % 4096));
    auto t2 = std::chrono::steady_clock::now();
    std::fprintf(stderr, "reject time: %d encodes: same map %.1f ns/encode, moving address %.1f ns/encode\n", n,
                 std::chrono::duration<double, std::nano>(t1 - t0).count() / n,
                 std::chrono::duration<double, std::nano>(t2 - t1).count() / n);
    return 0;
  }
  if (std::strcmp(mode, "threads") == 0) {
    const int t = argc > 2 ? std::atoi(argv[2]) : 8, n = argc > 3 ? std::atoi(argv[3]) : 10000;
    std::vector<std::thread> th;
    for (int k = 0; k < t; ++k)
      th.emplace_back([k, n, ctx] {
        cuCtxSetCurrent(ctx);
        alignas(64) CUtensorMap mm;
        for (int i = 0; i < n; ++i)
          EncodeTiled(&mm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 1024 + 64 * (k % 4), 1024, 2048 + 128 * (k % 4), 64, 64,
                      CU_TENSOR_MAP_SWIZZLE_128B, g_buf);
      });
    for (auto& x : th) x.join();
    std::fprintf(stderr, "reject threads: %d threads x %d encodes (4 distinct configurations) done\n", t, n);
    return 0;
  }
  if (std::strcmp(mode, "fork") == 0) {
    Report("parent: valid f16 map before fork", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 256, 256, 512, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
    std::fflush(stderr);
    pid_t p = fork();
    if (p == 0) {
      alignas(64) CUtensorMap mc;
      Report("child of fork: encode (CUDA is not usable after fork)", EncodeTiled(&mc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 128, 128, 512, 32, 32, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
      _exit(0);
    }
    int st; waitpid(p, &st, 0);
    Report("parent: valid f16 map after fork", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 256, 256, 512, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
    return 0;
  }
  // basic
  for (int i = 0; i < 1000; ++i)
    EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf);
  Report("1000 x valid bf16 [4096,4096] box [64,128] 128B", CUDA_SUCCESS);
  Report("f16 stride 1000 (not a multiple of 16)", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 500, 64, 1000, 8, 64, CU_TENSOR_MAP_SWIZZLE_NONE, g_buf));
  Report("bf16 box [64,300] (box > 256)", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 300, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
  Report("f32 box [64,64] 128B (256-byte inner box > 128B span)", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4096, 4096, 16384, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
  Report("bf16 at a misaligned address (base + 8)", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf + 8));
  {
    cuuint64_t dims[2] = {64, 64};
    cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
    Report("null globalStrides for rank 2", cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)g_buf, dims, nullptr, box, es,
           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    Report("data type 99 (not a CUtensorMapDataType)", cuTensorMapEncodeTiled(&m, (CUtensorMapDataType)99, 2, (void*)g_buf, dims, nullptr, box, es,
           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  }
  {
    // im2col f16 NHWC [C=64, W=56, H=56, N=8], 3x3 padding 1.
    cuuint64_t dims[4] = {64, 56, 56, 8};
    cuuint64_t strides[3] = {128, 128 * 56, 128 * 56 * 56};
    int lo[2] = {-1, -1}, hi[2] = {-1, -1};
    cuuint32_t es[4] = {1, 1, 1, 1};
    Report("im2col f16 NHWC 64 ch x 128 px 128B", cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)g_buf, dims, strides, lo, hi, 64, 128, es,
           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    Report("im2col f16 channels_per_pixel 300 (> 256)", cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)g_buf, dims, strides, lo, hi, 300, 128, es,
           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    Report("im2col::w f16 64 ch x 128 px 128B", cuTensorMapEncodeIm2colWide(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)g_buf, dims, strides, -1, -1, 64, 128, es,
           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  }
  Report("valid bf16 map again (for replace)", EncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4096, 4096, 8192, 64, 128, CU_TENSOR_MAP_SWIZZLE_128B, g_buf));
  Report("cuTensorMapReplaceAddress to base + 1 MiB", cuTensorMapReplaceAddress(&m, (void*)(g_buf + (1 << 20))));
  Report("cuTensorMapReplaceAddress to base + 8 (misaligned)", cuTensorMapReplaceAddress(&m, (void*)(g_buf + 8)));
  alignas(64) CUtensorMap foreign;
  std::memset(&foreign, 0, sizeof(foreign));
  Report("cuTensorMapReplaceAddress on a zeroed map never encoded", cuTensorMapReplaceAddress(&foreign, (void*)g_buf));
  return 0;
}
