// launch_proof.cu: programs that nobody writes on purpose but everyone writes by accident, for the launch
// checks of `tmapgen trace` (docs/trace.md, "At kernel launch"). Each mode is one program; the kernels
// receive tensor maps but never issue a copy through them, so a bad map cannot fault and the results
// (checked here) cannot change. Run by scripts/lab/trace-launch-h200.sh, which checks what trace says.
//
//   launch_proof freed        a map over a tensor that is freed, then the memory allocated again, before
//                             the launch (expected: "freed and its memory reallocated", or "in no live
//                             allocation" when the allocator hands out another address)
//   launch_proof toolarge     a map of a 1 GiB f16 tensor over a 512 MiB allocation (expected: "runs past
//                             the end of its allocation")
//   launch_proof packed O    the toolarge map in a packed parameter buffer (cuLaunchKernel's `extra`), laid
//                            out from origin O of the reported offsets ("first", or a number)
//   launch_proof struct N     a parameter struct with two maps at offsets 64 and 192 next to plain fields,
//                             launched N times through cuLaunchKernel and N times with <<<>>> (expected: no
//                             finding, 2 maps per launch)
//   launch_proof handbuilt    maps whose bytes the driver never wrote: one with its L2 promotion changed by
//                             hand (expected: found, origin unknown, no finding) and one with its global
//                             address moved by 8 bytes by hand (expected: origin "address-replaced", a rule
//                             finding: the address must be 16-byte aligned)
//   launch_proof graph        the 1 GiB map in a kernel launched through CUDA graphs: a captured launch and a
//                             node added with cuGraphAddKernelNode, the graph launched 10 times (expected:
//                             the finding at capture, at node creation and at the graph's launch)
//   launch_proof graph_freed  a captured graph with a map over a live 1 MiB tensor, launched 3 times, the tensor
//                             freed, the graph launched 3 times more (expected: the finding at cuGraphLaunch)
//   launch_proof bench N      median ns per launch call (batches of 1000) of a kernel without maps and of one
//                             with a known map; printed on standard output as "bench nomap NS" / "bench map NS"
// Exit status 0 when every result is right, 1 when one is not, 2 on a CUDA error.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char* s_ = nullptr;                                                                    \
      cuGetErrorName(r_, &s_);                                                                     \
      std::fprintf(stderr, "launch_proof: %s failed: %s (line %d)\n", #x, s_ ? s_ : "?", __LINE__); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)
#define RT(x)                                                                                       \
  do {                                                                                              \
    cudaError_t e_ = (x);                                                                           \
    if (e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "launch_proof: %s failed: %s (line %d)\n", #x, cudaGetErrorName(e_), __LINE__); \
      std::exit(2);                                                                                 \
    }                                                                                               \
  } while (0)

// CUDA 13's cuda.h declares CUtensorMap alignas(128); a map in the parameter space needs 64 bytes (PTX
// ISA), and CUDA 12's cuda.h declared alignas(64): the struct keeps the two maps as 64-byte-aligned bytes.
struct alignas(64) Params {
  float* out;                     // 0
  int n;                          // 8
  float alpha;                    // 12
  long long pad[6];               // 16..64
  alignas(64) unsigned char a[128];  // 64
  alignas(64) unsigned char b[128];  // 192
  int tail;                       // 320
};
static_assert(offsetof(Params, a) == 64 && offsetof(Params, b) == 192, "maps at 64 and 192");

// Receives a map; never copies through it (flag is always 0), so a bad map cannot fault.
__global__ void one_map_kernel(const __grid_constant__ CUtensorMap m, int flag, int* out) {
  if (flag != 0) asm volatile("prefetch.tensormap [%0];" ::"l"(&m) : "memory");
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = 1234;
}
__global__ void struct_kernel(const __grid_constant__ Params p) {
  if (threadIdx.x == 0 && blockIdx.x == 0) p.out[0] = p.n * p.alpha + p.tail;
}
__global__ void no_map_kernel(int* out, int v) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && v < 0) *out = v;
}

static CUtensorMap Encode(CUtensorMapDataType dt, void* base, cuuint64_t d0, cuuint64_t d1, cuuint64_t pitch,
                          cuuint32_t b0, cuuint32_t b1) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {d0, d1};
  const cuuint64_t strides[1] = {pitch};
  const cuuint32_t box[2] = {b0, b1}, es[2] = {1, 1};
  CK(cuTensorMapEncodeTiled(&m, dt, 2, base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return m;
}

static CUfunction Fn(const void* kernel) {
  cudaFunction_t f = nullptr;
  RT(cudaGetFuncBySymbol(&f, kernel));
  return reinterpret_cast<CUfunction>(f);
}

static int LaunchOneMap(const CUtensorMap& m, int* out) {
  int flag = 0;
  void* args[3] = {const_cast<CUtensorMap*>(&m), &flag, &out};
  CK(cuLaunchKernel(Fn(reinterpret_cast<const void*>(one_map_kernel)), 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  CK(cuCtxSynchronize());
  int host = 0;
  RT(cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost));
  return host == 1234 ? 0 : 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const int n = argc > 2 ? std::atoi(argv[2]) : 100;
  RT(cudaSetDevice(0));
  RT(cudaFree(nullptr));  // the primary context
  int* out = nullptr;
  RT(cudaMalloc(&out, 4096));
  int bad = 0;

  if (std::strcmp(mode, "freed") == 0) {
    void* a = nullptr;
    RT(cudaMalloc(&a, 64 << 20));
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, 4096, 4096, 8192, 64, 64);
    RT(cudaFree(a));
    void* b = nullptr;
    RT(cudaMalloc(&b, 64 << 20));  // the allocator may hand out the same address: the map now points into b
    std::fprintf(stderr, "launch_proof freed: tensor %p freed, new allocation %p (%s)\n", a, b,
                 a == b ? "same address" : "another address");
    bad |= LaunchOneMap(m, out);
    RT(cudaFree(b));
  } else if (std::strcmp(mode, "toolarge") == 0) {
    void* half = nullptr;
    RT(cudaMalloc(&half, size_t{512} << 20));
    // 32768 x 16384 f16 with a 65536-byte row pitch: 1 GiB from `half`.
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, half, 32768, 16384, 65536, 64, 64);
    bad |= LaunchOneMap(m, out);
    RT(cudaFree(half));
  } else if (std::strcmp(mode, "struct") == 0) {
    void *a = nullptr, *b = nullptr;
    RT(cudaMalloc(&a, 4096 * 8192));
    RT(cudaMalloc(&b, 4096 * 8192));
    Params p;
    std::memset(&p, 0, sizeof(p));
    p.out = reinterpret_cast<float*>(out);
    p.n = 7;
    p.alpha = 1.5f;
    p.tail = 3;
    const CUtensorMap ma = Encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, 4096, 4096, 8192, 64, 128);
    const CUtensorMap mb = Encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, b, 4096, 4096, 8192, 64, 128);
    std::memcpy(p.a, &ma, 128);
    std::memcpy(p.b, &mb, 128);
    void* args[1] = {&p};
    const CUfunction f = Fn(reinterpret_cast<const void*>(struct_kernel));
    for (int i = 0; i < n; ++i) CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    for (int i = 0; i < n; ++i) struct_kernel<<<1, 32>>>(p);
    RT(cudaDeviceSynchronize());
    float host = 0;
    RT(cudaMemcpy(&host, out, sizeof(float), cudaMemcpyDeviceToHost));
    if (host != 7 * 1.5f + 3) {
      std::fprintf(stderr, "launch_proof struct: result %g, expected %g\n", host, 7 * 1.5f + 3);
      bad = 1;
    }
    RT(cudaFree(a));
    RT(cudaFree(b));
  } else if (std::strcmp(mode, "packed") == 0) {
    // The toolarge map passed in a packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER), each parameter placed at
    // the offset cuFuncGetParamInfo reports minus an origin: argv[2] = "first" (the first parameter's offset),
    // or a number. Which origin the driver reads the buffer from is what this measures: with a wrong one
    // the kernel reads another output pointer and faults (exit 2).
    const CUfunction f = Fn(reinterpret_cast<const void*>(one_map_kernel));
    size_t off[3] = {}, sz[3] = {};
    for (int i = 0; i < 3; ++i) CK(cuFuncGetParamInfo(f, i, &off[i], &sz[i]));
    const size_t origin = argc > 2 && std::strcmp(argv[2], "first") != 0 ? std::strtoull(argv[2], nullptr, 10) : off[0];
    std::fprintf(stderr, "launch_proof packed: parameters at %zu, %zu, %zu; buffer origin %zu\n", off[0], off[1], off[2], origin);
    void* half = nullptr;
    RT(cudaMalloc(&half, size_t{512} << 20));
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, half, 32768, 16384, 65536, 64, 64);
    alignas(128) unsigned char buf[512] = {};
    const int flag = 0;
    std::memcpy(buf + (off[0] - origin), &m, 128);
    std::memcpy(buf + (off[1] - origin), &flag, 4);
    std::memcpy(buf + (off[2] - origin), &out, 8);
    size_t size = off[2] - origin + 8;
    void* extra[5] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    RT(cudaMemset(out, 0, 4));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
    CK(cuCtxSynchronize());
    int host = 0;
    RT(cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost));
    bad |= host == 1234 ? 0 : 1;
    RT(cudaFree(half));
  } else if (std::strcmp(mode, "handbuilt") == 0) {
    void* a = nullptr;
    RT(cudaMalloc(&a, 4096 * 8192 + 4096));  // room for the moved address
    CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, 4096, 4096, 8192, 64, 128);
    uint64_t w[16];
    std::memcpy(w, &m, 128);
    // L2 promotion: bits 81-82 (docs/tensormap-layout.md), 128B (2) -> 256B (3): a map the driver never wrote.
    w[1] = (w[1] & ~(uint64_t{3} << 17)) | (uint64_t{3} << 17);
    CUtensorMap edited;
    std::memcpy(&edited, w, 128);
    bad |= LaunchOneMap(edited, out);
    // Global address: bits 0-56; moved by 8 bytes, which breaks the 16-byte alignment the driver requires.
    std::memcpy(w, &m, 128);
    w[0] += 8;
    std::memcpy(&edited, w, 128);
    bad |= LaunchOneMap(edited, out);
    RT(cudaFree(a));
  } else if (std::strcmp(mode, "graph") == 0) {
    void* half = nullptr;
    RT(cudaMalloc(&half, size_t{512} << 20));
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, half, 32768, 16384, 65536, 64, 64);
    int flag = 0;
    void* args[3] = {const_cast<CUtensorMap*>(&m), &flag, &out};
    const CUfunction f = Fn(reinterpret_cast<const void*>(one_map_kernel));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr));
    CK(cuStreamEndCapture(s, &g));
    CUDA_KERNEL_NODE_PARAMS np;
    std::memset(&np, 0, sizeof(np));
    np.func = f;
    np.gridDimX = np.gridDimY = np.gridDimZ = 1;
    np.blockDimX = 32;
    np.blockDimY = np.blockDimZ = 1;
    np.kernelParams = args;
    CUgraphNode node;
    CK(cuGraphAddKernelNode(&node, g, nullptr, 0, &np));
    CUgraphExec exec;
    CK(cuGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < 10; ++i) CK(cuGraphLaunch(exec, s));
    CK(cuStreamSynchronize(s));
    int host = 0;
    RT(cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost));
    bad |= host == 1234 ? 0 : 1;
    CK(cuGraphExecDestroy(exec));
    CK(cuGraphDestroy(g));
    CK(cuStreamDestroy(s));
    RT(cudaFree(half));
  } else if (std::strcmp(mode, "graph_freed") == 0) {
    // A graph captured with a map over a live 1 MiB tensor, launched, then launched again after the tensor was
    // freed (the kernel never copies through the map, so the stale map cannot fault).
    void* x = nullptr;
    RT(cudaMalloc(&x, size_t{1} << 20));
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, x, 256, 256, 512, 64, 64);
    int flag = 0;
    void* args[3] = {const_cast<CUtensorMap*>(&m), &flag, &out};
    const CUfunction f = Fn(reinterpret_cast<const void*>(one_map_kernel));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr));
    CK(cuStreamEndCapture(s, &g));
    CUgraphExec exec;
    CK(cuGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < 3; ++i) CK(cuGraphLaunch(exec, s));
    CK(cuStreamSynchronize(s));
    RT(cudaFree(x));
    for (int i = 0; i < 3; ++i) CK(cuGraphLaunch(exec, s));
    CK(cuStreamSynchronize(s));
    int host = 0;
    RT(cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost));
    bad |= host == 1234 ? 0 : 1;
    CK(cuGraphExecDestroy(exec));
    CK(cuGraphDestroy(g));
    CK(cuStreamDestroy(s));
  } else if (std::strcmp(mode, "bench") == 0) {
    void* a = nullptr;
    RT(cudaMalloc(&a, 4096 * 8192));
    const CUtensorMap m = Encode(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a, 4096, 4096, 8192, 64, 128);
    const CUfunction fno = Fn(reinterpret_cast<const void*>(no_map_kernel));
    const CUfunction fmap = Fn(reinterpret_cast<const void*>(one_map_kernel));
    int v = 1, flag = 0;
    void* noargs[2] = {&out, &v};
    void* mapargs[3] = {const_cast<CUtensorMap*>(&m), &flag, &out};
    for (int kind = 0; kind < 2; ++kind) {
      std::vector<double> per;
      for (int batch = 0; batch < std::max(n, 5) + 2; ++batch) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i)
          CK(cuLaunchKernel(kind == 0 ? fno : fmap, 1, 1, 1, 32, 1, 1, 0, nullptr, kind == 0 ? noargs : mapargs, nullptr));
        const auto t1 = std::chrono::steady_clock::now();
        CK(cuCtxSynchronize());
        if (batch >= 2) per.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / 1000);
      }
      std::sort(per.begin(), per.end());
      std::printf("bench %s %.1f\n", kind == 0 ? "nomap" : "map", per[per.size() / 2]);
    }
    RT(cudaFree(a));
  } else {
    std::fprintf(stderr, "usage: launch_proof freed|toolarge|packed O|struct N|handbuilt|graph|graph_freed|bench N\n");
    return 2;
  }
  RT(cudaFree(out));
  if (bad) std::fprintf(stderr, "launch_proof %s: a result is wrong\n", mode);
  else std::fprintf(stderr, "launch_proof %s: results right\n", mode);
  return bad;
}
