// interleave_probe.cu: records what an sm_90 GPU does for INTERLEAVE_16B / INTERLEAVE_32B tensor maps
// (tiled loads and stores), independently of the model. Standalone: needs only CUDA (nvcc -arch=sm_90 ... -lcuda).
//
// Global data: the 4-byte word k of the tensor holds TagByte(k + 1, j) in byte j (7 bits per byte, never
// 0xA5), so every shared-memory word tells which global word it came from; 0 words are fill.
// Shared memory is pre-filled with 0xA5 before loads. Stores: shared memory word k holds the tag of
// k + 1 + kStoreTagBase, the global buffer is pre-filled with 0xA5.
//
//   ./interleave_probe --out DIR [--from I] [--count N]     (--list: the parameters of every case, no GPU)
// Appends one line per case to DIR/cases.txt and the raw bytes to DIR/blob.bin (offset, length in the
// line); writes "start I" to DIR/progress before each case so a crashed case (trap) can be skipped by
// the driver script (run_interleave_probe.sh).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                                       \
  do {                                                                                              \
    cudaError_t e_ = (x);                                                                           \
    if (e_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "CUDA error %s at line %d: %s\n", cudaGetErrorName(e_), __LINE__, cudaGetErrorString(e_)); \
      std::exit(3);                                                                                 \
    }                                                                                               \
  } while (0)

namespace {

constexpr uint32_t kSmemBytes = 200 * 1024;
constexpr uint32_t kWork = kSmemBytes - 1024;
constexpr uint8_t kSentinel = 0xA5;
constexpr uint32_t kStoreTagBase = 0x100000;

struct Params {
  int rank;
  int store;
  int coords[5];
  uint32_t dst_offset;
  uint32_t tx_bytes;
  long long timeout;
};

__device__ __forceinline__ uint32_t SmemAddr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__host__ __device__ inline uint8_t TagByte(uint32_t v, int j) { return static_cast<uint8_t>((v >> (7 * j)) & 0x7F); }

__global__ void Kernel(const __grid_constant__ CUtensorMap map, Params p, uint8_t* out, unsigned long long* mbar_out,
                       int* status) {
  extern __shared__ __align__(1024) uint8_t raw[];
  __shared__ __align__(8) uint64_t mbar;
  uint8_t* base = raw + ((1024 - (SmemAddr(raw) & 1023)) & 1023);
  uint8_t* buf = base + p.dst_offset;
  const uint32_t n = kWork - p.dst_offset;
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
    buf[i] = p.store ? TagByte(i / 4 + 1 + kStoreTagBase, i % 4) : kSentinel;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint64_t m = reinterpret_cast<uint64_t>(&map);
    const int* c = p.coords;
    const uint32_t dst = SmemAddr(buf);
    if (!p.store) {
      const uint32_t mb = SmemAddr(&mbar);
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(p.tx_bytes) : "memory");
      switch (p.rank) {
        case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                             :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(mb) : "memory"); break;
        case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                             :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(mb) : "memory"); break;
        case 5: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                             :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(mb) : "memory"); break;
      }
      const long long t0 = clock64();
      uint32_t done = 0;
      while (!done) {
        asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
                     : "=r"(done) : "r"(mb) : "memory");
        if (clock64() - t0 > p.timeout) break;
      }
      *mbar_out = *reinterpret_cast<volatile unsigned long long*>(&mbar);
      *status = done ? 1 : 2;
    } else {
      switch (p.rank) {
        case 3: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(dst) : "memory"); break;
        case 4: asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(dst) : "memory"); break;
        case 5: asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(dst) : "memory"); break;
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      *status = 1;
    }
  }
  __syncthreads();
  if (!p.store)
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = buf[i];
}

struct Case {
  int store = 0;
  int il = 1;   // CUtensorMapInterleave
  int sw = 0;   // CUtensorMapSwizzle
  int dt = 0;   // CUtensorMapDataType: 0 u8, 1 u16, 2 u32, 4 u64
  int rank = 3;
  uint64_t dims[5] = {1, 1, 1, 1, 1};
  uint64_t strides[4] = {0, 0, 0, 0};
  uint32_t box[5] = {1, 1, 1, 1, 1};
  uint32_t es[5] = {1, 1, 1, 1, 1};
  int coords[5] = {0, 0, 0, 0, 0};
  uint32_t dst = 0;
};

int Esize(int dt) { return dt == 0 ? 1 : dt == 1 ? 2 : dt == 4 ? 8 : 4; }

void Dense(Case* c, uint64_t pad0) {
  const uint64_t slice = c->il == 2 ? 32 : 16;
  uint64_t row = c->dims[0] * Esize(c->dt);
  row = (row + slice - 1) / slice * slice + pad0;
  c->strides[0] = row;
  for (int d = 1; d + 1 < c->rank; ++d) c->strides[d] = c->strides[d - 1] * c->dims[d];
}

Case Fixed(int il, int sw, int dt, std::vector<uint64_t> dims, std::vector<uint32_t> box, std::vector<int> coords,
           std::vector<uint32_t> es = {}) {
  Case c;
  c.il = il;
  c.sw = sw;
  c.dt = dt;
  c.rank = static_cast<int>(dims.size());
  for (int i = 0; i < c.rank; ++i) {
    c.dims[i] = dims[i];
    c.box[i] = box[i];
    c.coords[i] = coords[i];
    if (!es.empty()) c.es[i] = es[i];
  }
  Dense(&c, 0);
  return c;
}

std::vector<Case> MakeCases() {
  std::vector<Case> cs;
  // Fixed: a small readable grid (f16 / 16B and f16 / 32B), the old exploration cases among them.
  for (int il : {1, 2}) {
    const int sw = il == 2 ? 1 : 0;
    for (uint32_t b0 : {8u, 16u, 4u, 24u})
      for (uint32_t b1 : {1u, 2u, 4u})
        for (uint32_t b2 : {1u, 3u}) {
          cs.push_back(Fixed(il, sw, 1, {8, 10, 6}, {b0, b1, b2}, {0, 0, 0}));
          cs.push_back(Fixed(il, sw, 1, {16, 10, 6}, {b0, b1, b2}, {0, 2, 1}));
          cs.push_back(Fixed(il, sw, 1, {8, 10, 6, 2}, {b0, b1, b2, 1}, {0, 2, 1, 1}));
        }
  }
  // Random.
  std::mt19937_64 rng(20261130);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  const int dts[4] = {0, 1, 2, 4};
  for (int n = 0; n < 2600; ++n) {
    Case c;
    c.store = pick(0, 4) == 0;
    c.il = pick(1, 2);
    c.sw = c.il == 2 ? (pick(0, 15) == 0 ? pick(0, 3) : 1) : pick(0, 3);
    c.dt = dts[pick(0, 3)];
    c.rank = pick(3, 5);
    const int eb = Esize(c.dt);
    const int slice = (c.il == 2 ? 32 : 16) / eb;
    c.dims[0] = static_cast<uint64_t>(pick(0, 2) == 0 ? slice : pick(1, 3 * slice));
    for (int d = 1; d < c.rank; ++d) c.dims[d] = static_cast<uint64_t>(pick(1, c.rank == 5 ? 5 : 8));
    const int b0r = pick(0, 9);
    c.box[0] = static_cast<uint32_t>(b0r < 4 ? slice : b0r < 6 ? pick(1, slice) : b0r < 8 ? slice * pick(2, 4) : pick(1, 3 * slice));
    if (c.box[0] > 256) c.box[0] = 256;
    for (int d = 1; d < c.rank; ++d) c.box[d] = static_cast<uint32_t>(pick(1, c.rank == 5 ? 4 : 6));
    if (pick(0, 2) == 0)
      for (int d = 0; d < c.rank; ++d) c.es[d] = static_cast<uint32_t>(pick(0, 2) ? 1 : pick(2, 3));
    Dense(&c, pick(0, 3) == 0 ? static_cast<uint64_t>(pick(1, 3)) * (c.il == 2 ? 32 : 16) : 0);
    const int c0r = pick(0, 99);
    const int g16 = 16 / eb;  // elements per 16 bytes
    c.coords[0] = c0r < 55 ? 0 : c0r < 80 ? slice * pick(-1, 2) : c0r < 90 ? (static_cast<int>(c.dims[0]) + g16 - 1) / g16 * g16
                : c0r < 99 ? g16 * pick(-2, 4) : pick(1, 3);
    for (int d = 1; d < c.rank; ++d)
      c.coords[d] = c.store ? pick(0, static_cast<int>(c.dims[d]) - 1)
                            : pick(-static_cast<int>(c.box[d]), static_cast<int>(c.dims[d]) + 1);
    c.dst = c.sw == 0 ? 16u * static_cast<uint32_t>(pick(0, 1) ? 0 : pick(1, 7)) : 128u * static_cast<uint32_t>(pick(0, 7));
    cs.push_back(c);
  }
  return cs;
}

uint64_t GlobalBytes(const Case& c) {
  return c.strides[c.rank - 2] * c.dims[c.rank - 1] + 4096;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = ".";
  int from = 0, count = 1 << 30;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--from") && i + 1 < argc) from = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--count") && i + 1 < argc) count = std::atoi(argv[++i]);
  }
  const std::vector<Case> cs = MakeCases();
  if (argc > 1 && !std::strcmp(argv[1], "--list")) {  // the parameters of every case, no GPU needed
    for (size_t i = 0; i < cs.size(); ++i) {
      const Case& c = cs[i];
      std::printf("case %zu store %d il %d sw %d dt %d rank %d dims %llu %llu %llu %llu %llu strides %llu %llu %llu %llu "
                  "box %u %u %u %u %u es %u %u %u %u %u coords %d %d %d %d %d dst %u\n",
                  i, c.store, c.il, c.sw, c.dt, c.rank, (unsigned long long)c.dims[0], (unsigned long long)c.dims[1],
                  (unsigned long long)c.dims[2], (unsigned long long)c.dims[3], (unsigned long long)c.dims[4],
                  (unsigned long long)c.strides[0], (unsigned long long)c.strides[1], (unsigned long long)c.strides[2],
                  (unsigned long long)c.strides[3], c.box[0], c.box[1], c.box[2], c.box[3], c.box[4], c.es[0], c.es[1],
                  c.es[2], c.es[3], c.es[4], c.coords[0], c.coords[1], c.coords[2], c.coords[3], c.coords[4], c.dst);
    }
    return 0;
  }
  if (from == 0) std::printf("%zu cases\n", cs.size());
  CK(cudaFree(nullptr));
  CK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  FILE* fc = std::fopen((out + "/cases.txt").c_str(), "a");
  FILE* fb = std::fopen((out + "/blob.bin").c_str(), "ab");
  uint8_t* d_out = nullptr;
  unsigned long long* d_mb = nullptr;
  int* d_st = nullptr;
  CK(cudaMalloc(&d_out, kSmemBytes));
  CK(cudaMalloc(&d_mb, 8));
  CK(cudaMalloc(&d_st, 4));
  std::vector<uint8_t> host(kSmemBytes);
  for (int i = from; i < static_cast<int>(cs.size()) && i < from + count; ++i) {
    const Case& c = cs[i];
    {
      FILE* fp = std::fopen((out + "/progress").c_str(), "w");
      std::fprintf(fp, "%d\n", i);
      std::fclose(fp);
    }
    const uint64_t gsize = GlobalBytes(c);
    std::vector<uint8_t> g(gsize);
    for (uint64_t b = 0; b < gsize; ++b) g[b] = c.store ? kSentinel : TagByte(static_cast<uint32_t>(b / 4 + 1), static_cast<int>(b % 4));
    uint8_t* dg = nullptr;
    CK(cudaMalloc(&dg, gsize));
    CK(cudaMemcpy(dg, g.data(), gsize, cudaMemcpyHostToDevice));
    CUtensorMap map;
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], es[5];
    for (int d = 0; d < c.rank; ++d) { dims[d] = c.dims[d]; box[d] = c.box[d]; es[d] = c.es[d]; }
    for (int d = 0; d + 1 < c.rank; ++d) strides[d] = c.strides[d];
    const CUresult rc = cuTensorMapEncodeTiled(&map, static_cast<CUtensorMapDataType>(c.dt), c.rank, dg, dims, strides, box, es,
                                               static_cast<CUtensorMapInterleave>(c.il), static_cast<CUtensorMapSwizzle>(c.sw),
                                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    int status = 0, status2 = 0;
    unsigned long long mb = 0;
    long long off = std::ftell(fb), len = 0, written = 0;
    if (rc == CUDA_SUCCESS) {
      Params p{};
      p.rank = c.rank;
      p.store = c.store;
      for (int d = 0; d < 5; ++d) p.coords[d] = c.coords[d];
      p.dst_offset = c.dst;
      p.tx_bytes = (1u << 20) - 1;
      p.timeout = 3000000LL;
      CK(cudaMemset(d_st, 0, 4));
      Kernel<<<1, 256, kSmemBytes>>>(map, p, d_out, d_mb, d_st);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(&status, d_st, 4, cudaMemcpyDeviceToHost));
      if (!c.store) {
        CK(cudaMemcpy(&mb, d_mb, 8, cudaMemcpyDeviceToHost));
        const uint32_t n = kWork - c.dst;
        CK(cudaMemcpy(host.data(), d_out, n, cudaMemcpyDeviceToHost));
        long long last = -1;
        for (uint32_t b = 0; b < n; ++b)
          if (host[b] != kSentinel) { last = b; ++written; }
        len = (last + 16) / 16 * 16;
        if (len > n) len = n;
        std::fwrite(host.data(), 1, static_cast<size_t>(len), fb);
        // Second launch: expect exactly the bytes written; completes iff the transaction count equals them.
        if (written > 0 && written < (1 << 20)) {
          p.tx_bytes = static_cast<uint32_t>(written);
          CK(cudaMemset(d_st, 0, 4));
          Kernel<<<1, 256, kSmemBytes>>>(map, p, d_out, d_mb, d_st);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          CK(cudaMemcpy(&status2, d_st, 4, cudaMemcpyDeviceToHost));
        }
      } else {
        CK(cudaMemcpy(g.data(), dg, gsize, cudaMemcpyDeviceToHost));
        for (uint64_t b = 0; b < gsize; ++b) written += g[b] != kSentinel;
        len = static_cast<long long>(gsize);
        std::fwrite(g.data(), 1, gsize, fb);
      }
    }
    CK(cudaFree(dg));
    std::fprintf(fc, "case %d store %d il %d sw %d dt %d rank %d dims %llu %llu %llu %llu %llu strides %llu %llu %llu %llu "
                     "box %u %u %u %u %u es %u %u %u %u %u coords %d %d %d %d %d dst %u rc %d status %d status2 %d mbar %016llx "
                     "written %lld off %ld len %lld\n",
                 i, c.store, c.il, c.sw, c.dt, c.rank, (unsigned long long)c.dims[0], (unsigned long long)c.dims[1],
                 (unsigned long long)c.dims[2], (unsigned long long)c.dims[3], (unsigned long long)c.dims[4],
                 (unsigned long long)c.strides[0], (unsigned long long)c.strides[1], (unsigned long long)c.strides[2],
                 (unsigned long long)c.strides[3], c.box[0], c.box[1], c.box[2], c.box[3], c.box[4], c.es[0], c.es[1], c.es[2],
                 c.es[3], c.es[4], c.coords[0], c.coords[1], c.coords[2], c.coords[3], c.coords[4], c.dst, static_cast<int>(rc),
                 status, status2, mb, written, static_cast<long>(off), len);
    std::fflush(fb);
    std::fflush(fc);
  }
  std::fclose(fb);
  std::fclose(fc);
  {
    FILE* fp = std::fopen((out + "/progress").c_str(), "w");
    std::fprintf(fp, "done\n");
    std::fclose(fp);
  }
  return 0;
}
