// tma_probe.cu: runs tensor copies on a real GPU (sm_90 or later) and compares every byte with the CPU
// model (src/model/copy_model.h). Not part of the CMake build: scripts in this folder build it with nvcc on
// a GPU host. It covers what sm_90 can execute: .tile loads, stores and reductions, .im2col loads,
// .im2col_no_offs stores, swizzles NONE/32B/64B/128B at every phase, OOB zero and NaN fill, traversal
// strides, interleave, and a random sweep of tiled maps.
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -I. tests/model/gpu/tma_probe.cu src/*.cc src/json/*.cc src/model/*.cc -lcuda
//   ./a.out [--sweep N] [--verbose]
//
// Output: one line per case, "PASS name" or "FAIL name: first mismatches", then "N passed, M failed".
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/model/copy_model.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

using namespace tmapgen;
using namespace tmapgen::model;

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, \
                  cudaGetErrorString(e_));                                                 \
      std::exit(3);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

constexpr uint32_t kSmemBytes = 200 * 1024;
constexpr uint8_t kSentinel = 0xA5;

struct Params {
  int rank;
  int kind;  // 0 tile load, 1 im2col load, 2 tile store, 3 reduce (rank 2 tile), 4 im2col_no_offs store
  int op;
  int coords[5];
  unsigned short offs[3];
  uint32_t dst_offset;  // from a 1024-aligned base
  uint32_t tx_bytes;
  uint32_t footprint;
  long long timeout;  // clock cycles to wait for the mbarrier
};

__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

#define C1 "{%2}"
#define C2 "{%2, %3}"
#define C3 "{%2, %3, %4}"
#define C4 "{%2, %3, %4, %5}"
#define C5 "{%2, %3, %4, %5, %6}"

__device__ void IssueLoad(const Params& p, uint32_t dst, const CUtensorMap* map, uint32_t mbar) {
  const uint64_t m = reinterpret_cast<uint64_t>(map);
  const int* c = p.coords;
  if (p.kind == 0) {
    switch (p.rank) {
      case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(mbar) : "memory"); break;
      case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(mbar) : "memory"); break;
      case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(mbar) : "memory"); break;
      case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(mbar) : "memory"); break;
      case 5: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(mbar) : "memory"); break;
    }
  } else {
    switch (p.rank) {
      case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(mbar), "h"(p.offs[0]) : "memory"); break;
      case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(mbar), "h"(p.offs[0]), "h"(p.offs[1]) : "memory"); break;
      case 5: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                           :: "r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(mbar), "h"(p.offs[0]), "h"(p.offs[1]), "h"(p.offs[2]) : "memory"); break;
    }
  }
}

#define RED2(OP) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OP ".tile.bulk_group [%0, {%1, %2}], [%3];" \
                              :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(src) : "memory")

__device__ void IssueStore(const Params& p, uint32_t src, const CUtensorMap* map) {
  const uint64_t m = reinterpret_cast<uint64_t>(map);
  const int* c = p.coords;
  if (p.kind == 2) {
    switch (p.rank) {
      case 1: asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" :: "l"(m), "r"(c[0]), "r"(src) : "memory"); break;
      case 2: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(src) : "memory"); break;
      case 3: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory"); break;
      case 4: asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(src) : "memory"); break;
      case 5: asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory"); break;
    }
  } else if (p.kind == 3) {
    switch (p.op) {
      case 0: RED2("add"); break;
      case 1: RED2("min"); break;
      case 2: RED2("max"); break;
      case 3: RED2("inc"); break;
      case 4: RED2("dec"); break;
      case 5: RED2("and"); break;
      case 6: RED2("or"); break;
      case 7: RED2("xor"); break;
    }
  } else if (p.kind == 4) {
    switch (p.rank) {
      case 3: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory"); break;
      case 4: asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(src) : "memory"); break;
      case 5: asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" :: "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(src) : "memory"); break;
    }
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

__global__ void ProbeKernel(const __grid_constant__ CUtensorMap map, Params p, const uint8_t* smem_in, uint8_t* out,
                            int* status) {
  extern __shared__ __align__(1024) uint8_t raw[];
  __shared__ __align__(8) uint64_t mbar;
  uint8_t* base = raw + ((1024 - (SmemAddr(raw) & 1023)) & 1023);
  uint8_t* buf = base + p.dst_offset;
  const bool load = p.kind <= 1;
  for (uint32_t i = threadIdx.x; i < p.footprint; i += blockDim.x) buf[i] = load ? kSentinel : smem_in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    if (load) {
      const uint32_t mb = SmemAddr(&mbar);
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(mb) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(mb), "r"(p.tx_bytes) : "memory");
      IssueLoad(p, SmemAddr(buf), &map, mb);
      const long long t0 = clock64();
      uint32_t done = 0;
      while (!done) {
        asm volatile("{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
                     : "=r"(done) : "r"(mb) : "memory");
        if (clock64() - t0 > p.timeout) break;
      }
      *status = done ? 1 : 2;
    } else {
      IssueStore(p, SmemAddr(buf), &map);
      *status = 1;
    }
  }
  __syncthreads();
  if (load)
    for (uint32_t i = threadIdx.x; i < p.footprint; i += blockDim.x) out[i] = buf[i];
}


bool Encode(const TensorMapSpec& s, void* gaddr, CUtensorMap* map, std::string* err) {
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], es[5];
  for (uint32_t i = 0; i < s.rank; ++i) {
    dims[i] = s.global_dim[i];
    box[i] = s.box_dim[i];
    es[i] = s.element_strides[i];
  }
  for (uint32_t i = 0; i + 1 < s.rank; ++i) strides[i] = s.global_strides[i];
  CUresult r;
  if (s.mode == Mode::kIm2col) {
    int lo[3], hi[3];
    for (int i = 0; i < 3; ++i) { lo[i] = s.pixel_box_lower_corner[i]; hi[i] = s.pixel_box_upper_corner[i]; }
    r = cuTensorMapEncodeIm2col(map, static_cast<CUtensorMapDataType>(s.data_type), s.rank, gaddr, dims, strides, lo, hi,
                        s.channels_per_pixel, s.pixels_per_column, es, static_cast<CUtensorMapInterleave>(s.interleave),
                        static_cast<CUtensorMapSwizzle>(s.swizzle), static_cast<CUtensorMapL2promotion>(s.l2_promotion),
                        static_cast<CUtensorMapFloatOOBfill>(s.oob_fill));
  } else {
    r = cuTensorMapEncodeTiled(map, static_cast<CUtensorMapDataType>(s.data_type), s.rank, gaddr, dims, strides, box, es,
                       static_cast<CUtensorMapInterleave>(s.interleave), static_cast<CUtensorMapSwizzle>(s.swizzle),
                       static_cast<CUtensorMapL2promotion>(s.l2_promotion), static_cast<CUtensorMapFloatOOBfill>(s.oob_fill));
  }
  if (r != CUDA_SUCCESS) {
    *err = "encode failed with CUresult " + std::to_string(static_cast<int>(r));
    return false;
  }
  return true;
}

struct Case {
  std::string name;
  TensorMapSpec spec;
  CopyInstruction in;
  bool print_image = false;
  bool risky = false;  // may trap (illegal instruction): run alone with --case N
  bool special_f32 = false;  // global data: interesting f32 bit patterns; print what the GPU made of them
};

const uint32_t kSpecialF32[32] = {
    0x3f801000u, 0x3f803000u, 0x3f800fffu, 0x3f801001u, 0x3f802fffu, 0xbf801000u, 0xbf803000u, 0x3f7ff000u,
    0x7f7fffffu, 0x7f7ff000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0x7fffffffu, 0xffffffffu,
    0x00000001u, 0x007fffffu, 0x00001000u, 0x00003000u, 0x80000001u, 0x807fffffu, 0x00800000u, 0x00801000u,
    0x80000000u, 0x00000000u, 0x3f800000u, 0x4b7fffffu, 0x7f801000u, 0x7fbfffffu, 0x00fff000u, 0x3fffffffu};

bool g_verbose = false;
int g_pass = 0, g_fail = 0, g_skip = 0;

void DumpLines(const char* what, const uint8_t* b, size_t n, size_t max_lines) {
  for (size_t off = 0; off < n && off / 32 < max_lines; off += 32) {
    std::printf("    %s %5zu:", what, off);
    for (size_t i = off; i < off + 32 && i < n; ++i) std::printf("%s%02x", (i % 16 == 0 && i != off) ? "  " : " ", b[i]);
    std::printf("\n");
  }
}

void RunCase(const Case& c, uint64_t seed) {
  std::string err;
  const absl::StatusOr<CopyLayout> layout = DescribeCopy(c.spec, c.in);
  if (!layout.ok()) {
    std::printf("SKIP %s: model refuses: %s\n", c.name.c_str(), std::string(layout.status().message()).c_str());
    ++g_skip;
    return;
  }
  const CopyLayout& L = *layout;
  const size_t gsize = L.required_global_bytes + 256;
  std::vector<uint8_t> g(gsize);
  std::mt19937_64 rng(seed);
  for (auto& b : g) b = static_cast<uint8_t>(rng());
  if (c.special_f32)
    for (size_t i = 0; i + 4 <= gsize; i += 4) std::memcpy(&g[i], &kSpecialF32[(i / 4) % 32], 4);
  uint8_t* dg = nullptr;
  CK(cudaMalloc(&dg, gsize));
  CK(cudaMemcpy(dg, g.data(), gsize, cudaMemcpyHostToDevice));
  CUtensorMap map;
  if (!Encode(c.spec, dg, &map, &err)) {
    std::printf("FAIL %s: %s\n", c.name.c_str(), err.c_str());
    ++g_fail;
    CK(cudaFree(dg));
    return;
  }
  Params p{};
  p.rank = static_cast<int>(c.spec.rank);
  const bool load = IsLoad(c.in.direction);
  p.kind = load ? (c.in.mode == CopyMode::kIm2col ? 1 : 0)
                : (c.in.direction == Direction::kReduce ? 3 : (c.in.mode == CopyMode::kIm2colNoOffs ? 4 : 2));
  p.op = static_cast<int>(c.in.reduce_op);
  for (int i = 0; i < 5; ++i) p.coords[i] = c.in.coords[i];
  for (int i = 0; i < 3; ++i) p.offs[i] = c.in.im2col_offsets[i];
  p.dst_offset = static_cast<uint32_t>(c.in.smem_address % 1024);
  p.tx_bytes = static_cast<uint32_t>(L.transaction_bytes);
  p.footprint = static_cast<uint32_t>(L.footprint_bytes);
  p.timeout = 4000000000LL;
  if (p.dst_offset + p.footprint + 1024 > kSmemBytes) {
    std::printf("SKIP %s: footprint %u too large\n", c.name.c_str(), p.footprint);
    ++g_skip;
    CK(cudaFree(dg));
    return;
  }
  std::vector<uint8_t> smem_in(L.footprint_bytes);
  for (auto& b : smem_in) b = static_cast<uint8_t>(rng());
  uint8_t *d_in = nullptr, *d_out = nullptr;
  int* d_status = nullptr;
  CK(cudaMalloc(&d_in, smem_in.size() + 16));
  CK(cudaMalloc(&d_out, smem_in.size() + 16));
  CK(cudaMalloc(&d_status, sizeof(int)));
  CK(cudaMemcpy(d_in, smem_in.data(), smem_in.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(d_status, 0, sizeof(int)));
  ProbeKernel<<<1, 128, kSmemBytes>>>(map, p, d_in, d_out, d_status);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int status = 0;
  CK(cudaMemcpy(&status, d_status, sizeof(int), cudaMemcpyDeviceToHost));
  std::string fail;
  if (status != 1) {
    fail = "mbarrier did not complete: transaction bytes differ from the model's " + std::to_string(L.transaction_bytes);
  } else if (load) {
    std::vector<uint8_t> out(L.footprint_bytes);
    CK(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost));
    SmemImage img;
    if (const absl::Status modelled = ModelLoad(c.spec, c.in, g.data(), gsize, &img); !modelled.ok()) {
      fail = "model: " + std::string(modelled.message());
    } else {
      int shown = 0, bad = 0;
      for (size_t i = 0; i < out.size(); ++i) {
        const uint8_t st = img.state[i];
        const bool ok = st == kPadding || (st == kUntouched ? out[i] == kSentinel : out[i] == img.bytes[i]);
        if (!ok) {
          ++bad;
          if (shown++ < 6) {
            char buf[128];
            std::snprintf(buf, sizeof buf, " [%zu: gpu %02x model %02x state %d]", i, out[i], img.bytes[i], st);
            fail += buf;
          }
        }
      }
      if (bad) fail = std::to_string(bad) + " bytes differ:" + fail;
      if (c.special_f32) {
        for (int i = 0; i < 32; ++i) {
          uint32_t o;
          std::memcpy(&o, &out[4 * i], 4);
          std::printf("    f32 %08x -> %08x\n", kSpecialF32[i], o);
        }
      }
      if (bad || g_verbose) {
        DumpLines("gpu  ", out.data(), out.size(), c.print_image ? 64 : 8);
        DumpLines("model", img.bytes.data(), img.bytes.size(), c.print_image ? 64 : 8);
      }
    }
  } else {
    std::vector<uint8_t> gout(gsize);
    CK(cudaMemcpy(gout.data(), dg, gsize, cudaMemcpyDeviceToHost));
    std::vector<uint8_t> expect = g, mask;
    StoreResult sr;
    if (const absl::Status modelled = ModelStore(c.spec, c.in, smem_in.data(), smem_in.size(), expect.data(), gsize, &mask, &sr);
        !modelled.ok()) {
      fail = "model: " + std::string(modelled.message());
    } else {
      int shown = 0, bad = 0;
      for (size_t i = 0; i < gsize; ++i) {
        if (gout[i] != expect[i]) {
          ++bad;
          if (shown++ < 6) {
            char buf[128];
            std::snprintf(buf, sizeof buf, " [%zu: gpu %02x model %02x was %02x written %d]", i, gout[i], expect[i], g[i], mask[i]);
            fail += buf;
          }
        }
      }
      if (bad) fail = std::to_string(bad) + " bytes differ:" + fail;
    }
  }
  if (fail.empty()) {
    ++g_pass;
    std::printf("PASS %s\n", c.name.c_str());
  } else {
    ++g_fail;
    std::printf("FAIL %s: %s\n", c.name.c_str(), fail.c_str());
    json::Writer w;
    WriteSpecJson(c.spec, &w);
    std::printf("    spec %s coords %d %d %d %d %d dst %llu\n", w.str().c_str(), c.in.coords[0], c.in.coords[1], c.in.coords[2],
                c.in.coords[3], c.in.coords[4], static_cast<unsigned long long>(c.in.smem_address));
  }
  CK(cudaFree(dg));
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  CK(cudaFree(d_status));
}

TensorMapSpec Tiled(DataType t, std::vector<uint64_t> dims, std::vector<uint32_t> box, Swizzle sw = Swizzle::kNone) {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.global_dim[i] = dims[i];
  for (size_t i = 0; i < box.size(); ++i) s.box_dim[i] = box[i];
  s.swizzle = sw;
  FillDenseStrides(&s);
  return s;
}

TensorMapSpec Im2col(DataType t, std::vector<uint64_t> dims, std::vector<int> lo, std::vector<int> hi, uint32_t cpp,
                     uint32_t ppc, Swizzle sw = Swizzle::kNone) {
  TensorMapSpec s;
  s.mode = Mode::kIm2col;
  s.data_type = t;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.global_dim[i] = dims[i];
  for (size_t i = 0; i < lo.size(); ++i) { s.pixel_box_lower_corner[i] = lo[i]; s.pixel_box_upper_corner[i] = hi[i]; }
  s.channels_per_pixel = cpp;
  s.pixels_per_column = ppc;
  s.swizzle = sw;
  FillDenseStrides(&s);
  return s;
}

CopyInstruction Instr(CopyMode m, std::vector<int> coords, uint32_t dst = 1024) {
  CopyInstruction in;
  in.mode = m;
  for (size_t i = 0; i < coords.size(); ++i) in.coords[i] = coords[i];
  in.smem_address = dst;
  return in;
}

void AddFixedCases(std::vector<Case>* cs) {
  // Swizzles at every phase, inner box = span.
  const Swizzle sws[] = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
  for (Swizzle sw : sws) {
    const uint32_t span = sw == Swizzle::kNone ? 128 : SwizzleSpanBytes(sw);
    for (uint32_t phase = 0; phase < 8; ++phase) {
      Case c{"swizzle " + std::string(ShortName(sw)) + " phase " + std::to_string(phase),
             Tiled(DataType::kUint8, {256, 64}, {span, 24}, sw), Instr(CopyMode::kTile, {16, 5}, 1024 + 128 * phase)};
      cs->push_back(c);
    }
  }
  // Inner box narrower than the swizzle span: is each row padded to the span?
  cs->push_back({"narrow inner 64B in 128B swizzle", Tiled(DataType::kFloat16, {128, 32}, {32, 16}, Swizzle::k128B),
                 Instr(CopyMode::kTile, {0, 0}), true});
  cs->push_back({"narrow inner 32B in 128B swizzle", Tiled(DataType::kFloat16, {128, 32}, {16, 16}, Swizzle::k128B),
                 Instr(CopyMode::kTile, {0, 0})});
  cs->push_back({"narrow inner 16B in 64B swizzle", Tiled(DataType::kFloat32, {128, 32}, {4, 16}, Swizzle::k64B),
                 Instr(CopyMode::kTile, {0, 0})});
  cs->push_back({"narrow inner 16B in 32B swizzle phase 1", Tiled(DataType::kUint8, {128, 32}, {16, 16}, Swizzle::k32B),
                 Instr(CopyMode::kTile, {0, 0}, 1024 + 128)});
  cs->push_back({"no swizzle inner 48B", Tiled(DataType::kUint8, {128, 32}, {48, 5}), Instr(CopyMode::kTile, {0, 0})});
  // Out of bounds, zero and NaN fill per float type.
  const DataType floats[] = {DataType::kFloat16, DataType::kBfloat16, DataType::kFloat32, DataType::kFloat64,
                             DataType::kFloat32Ftz, DataType::kTfloat32, DataType::kTfloat32Ftz};
  for (DataType t : floats) {
    for (int nan = 0; nan < 2; ++nan) {
      const uint32_t eb = DataTypeBits(t) / 8;
      Case c{std::string("oob ") + (nan ? "nan " : "zero ") + std::string(ShortName(t)),
             Tiled(t, {40, 20}, {64 / eb, 8}, Swizzle::kNone), Instr(CopyMode::kTile, {-static_cast<int>(32 / eb), 16})};
      c.spec.oob_fill = nan ? OobFill::kNanRequestZeroFma : OobFill::kNone;
      c.print_image = nan && t == DataType::kFloat16;
      cs->push_back(c);
    }
  }
  for (int t = 0; t <= 12; ++t) {
    const DataType dt = static_cast<DataType>(t);
    const uint32_t eb = DataTypeBits(dt) / 8;
    cs->push_back({"plain copy " + std::string(ShortName(dt)), Tiled(dt, {256 / eb, 12, 3}, {64 / eb, 5, 2}, Swizzle::k64B),
                   Instr(CopyMode::kTile, {static_cast<int>(16 / eb), 3, 1})});
  }
  for (DataType t : {DataType::kTfloat32, DataType::kTfloat32Ftz, DataType::kFloat32Ftz, DataType::kFloat32}) {
    Case c{"special f32 values as " + std::string(ShortName(t)), Tiled(t, {32, 4}, {32, 1}), Instr(CopyMode::kTile, {0, 0})};
    c.special_f32 = true;
    cs->push_back(c);
    CopyInstruction st = Instr(CopyMode::kTile, {0, 0});
    st.direction = Direction::kStore;
    cs->push_back({"store random bits as " + std::string(ShortName(t)), Tiled(t, {32, 4}, {32, 4}), st});
  }
  // Traversal strides (tiled).
  {
    Case c{"element strides 1,2,3", Tiled(DataType::kFloat16, {64, 20, 12}, {16, 7, 8}), Instr(CopyMode::kTile, {8, 1, 2})};
    c.spec.element_strides = {1, 2, 3, 1, 1};
    cs->push_back(c);
    Case d = c;
    d.name = "element strides with OOB and 128B swizzle";
    d.spec.swizzle = Swizzle::k128B;
    d.spec.box_dim[0] = 64;
    d.in.coords = {8, 15, 9, 0, 0};
    cs->push_back(d);
    Case e = c;
    e.name = "element stride 0 ignored without interleave";
    e.spec.element_strides = {4, 1, 1, 1, 1};
    cs->push_back(e);
  }
  // Interleave.
  {
    Case c{"interleave 16B f16 rank 3", Tiled(DataType::kFloat16, {8, 10, 6}, {8, 4, 3}), Instr(CopyMode::kTile, {0, 2, 1})};
    c.spec.interleave = Interleave::k16B;
    cs->push_back(c);
    Case d = c;
    d.name = "interleave 16B with dim-0 stride 2";
    d.spec.element_strides = {2, 1, 1, 1, 1};
    cs->push_back(d);
    Case e{"interleave 32B f16 swizzle 32B", Tiled(DataType::kFloat16, {16, 10, 10, 2}, {16, 4, 4, 1}, Swizzle::k32B),
           Instr(CopyMode::kTile, {0, 3, 2, 1})};
    e.spec.interleave = Interleave::k32B;
    cs->push_back(e);
    Case f = c;
    f.name = "interleave 16B with 64B swizzle";
    f.spec.swizzle = Swizzle::k64B;
    cs->push_back(f);
  }
  // im2col: the PTX ISA examples (section 5.5.4), f16.
  {
    Case c{"ptx im2col example 1", Im2col(DataType::kFloat16, {64, 9, 14, 64}, {-1, -1}, {-1, -1}, 8, 64),
           Instr(CopyMode::kIm2col, {7, 7, 4, 0})};
    c.risky = true;
    cs->push_back(c);
    Case c8 = c;
    c8.name = "ptx im2col example 1 with c = 8";
    c8.risky = false;
    c8.in.coords[0] = 8;
    cs->push_back(c8);
    Case d{"ptx im2col example 2", Im2col(DataType::kFloat16, {64, 9, 14, 64}, {0, 0}, {-2, -2}, 8, 64),
           Instr(CopyMode::kIm2col, {7, 7, 4, 0})};
    d.in.im2col_offsets = {2, 2, 0};
    d.in.coords[0] = 8;
    cs->push_back(d);
    Case e{"ptx im2col example 3 (stride 2)", Im2col(DataType::kFloat16, {64, 8, 14, 64}, {-1, -1}, {-1, -1}, 16, 32),
           Instr(CopyMode::kIm2col, {7, 7, 5, 0})};
    e.spec.element_strides = {1, 2, 2, 1, 1};
    e.in.im2col_offsets = {1, 1, 0};
    e.in.coords[0] = 8;
    cs->push_back(e);
    Case f{"triton im2col example 5", Im2col(DataType::kFloat32, {32, 4, 4, 2}, {-1, -1}, {-1, -1}, 32, 16, Swizzle::k128B),
           Instr(CopyMode::kIm2col, {0, 2, 1, 0})};
    cs->push_back(f);
    Case g{"im2col 3D", Im2col(DataType::kBfloat16, {32, 40, 3}, {-2}, {1}, 32, 50, Swizzle::k64B),
           Instr(CopyMode::kIm2col, {8, 30, 0})};
    g.in.im2col_offsets = {3, 0, 0};
    cs->push_back(g);
    Case h{"im2col 5D strides", Im2col(DataType::kFloat32, {8, 5, 4, 3, 2}, {-1, -1, 0}, {0, -1, -1}, 8, 40, Swizzle::k32B),
           Instr(CopyMode::kIm2col, {0, 1, -1, 0, 0})};
    h.spec.element_strides = {1, 2, 1, 2, 1};
    h.in.im2col_offsets = {1, 2, 1};
    cs->push_back(h);
    Case k{"im2col start left of box", Im2col(DataType::kFloat16, {16, 10, 6, 2}, {0, 0}, {-2, -2}, 16, 20),
           Instr(CopyMode::kIm2col, {0, -3, 1, 0})};
    cs->push_back(k);
    Case n{"im2col NaN fill", Im2col(DataType::kFloat16, {16, 10, 6, 2}, {-1, -1}, {-1, -1}, 16, 24),
           Instr(CopyMode::kIm2col, {8, -1, -1, 1})};
    n.spec.oob_fill = OobFill::kNanRequestZeroFma;
    cs->push_back(n);
  }
  // Stores and reductions.
  {
    CopyInstruction st = Instr(CopyMode::kTile, {8, 3});
    st.direction = Direction::kStore;
    cs->push_back({"store partial OOB 128B swizzle", Tiled(DataType::kFloat16, {70, 9}, {64, 8}, Swizzle::k128B), st});
    CopyInstruction st3 = Instr(CopyMode::kTile, {4, 1, 2}, 1024 + 384);
    st3.direction = Direction::kStore;
    Case c{"store 3D strided 64B swizzle phase 3", Tiled(DataType::kFloat32, {40, 10, 9}, {16, 6, 4}, Swizzle::k64B), st3};
    c.spec.element_strides = {1, 2, 3, 1, 1};
    cs->push_back(c);
    const struct { DataType t; ReduceOp op; } reds[] = {
        {DataType::kFloat16, ReduceOp::kAdd}, {DataType::kBfloat16, ReduceOp::kAdd}, {DataType::kFloat32, ReduceOp::kAdd},
        {DataType::kUint32, ReduceOp::kAdd}, {DataType::kInt32, ReduceOp::kMin}, {DataType::kInt32, ReduceOp::kMax},
        {DataType::kUint32, ReduceOp::kInc}, {DataType::kUint32, ReduceOp::kDec}, {DataType::kUint64, ReduceOp::kAdd},
        {DataType::kInt64, ReduceOp::kMin}, {DataType::kUint64, ReduceOp::kXor}, {DataType::kUint32, ReduceOp::kAnd},
        {DataType::kInt32, ReduceOp::kOr}, {DataType::kFloat16, ReduceOp::kMin}, {DataType::kBfloat16, ReduceOp::kMax},
        {DataType::kUint64, ReduceOp::kMin},
    };
    for (const auto& r : reds) {
      const uint32_t eb = DataTypeBits(r.t) / 8;
      CopyInstruction in = Instr(CopyMode::kTile, {static_cast<int>(16 / eb), 1});
      in.direction = Direction::kReduce;
      in.reduce_op = r.op;
      cs->push_back({"reduce " + std::string(Name(r.op)) + " " + std::string(ShortName(r.t)),
                     Tiled(r.t, {64 / eb + 4, 8}, {64 / eb, 8}, Swizzle::k64B), in});
    }
    for (ReduceOp op : {ReduceOp::kAdd, ReduceOp::kMax}) {
      CopyInstruction in = Instr(CopyMode::kTile, {0, 1});
      in.direction = Direction::kReduce;
      in.reduce_op = op;
      cs->push_back({"reduce " + std::string(Name(op)) + " past the end of dim 0 (s32 6 of 8)",
                     Tiled(DataType::kInt32, {6, 5}, {8, 4}, Swizzle::k32B), in});
    }
    CopyInstruction st16 = Instr(CopyMode::kTile, {0, 0});
    st16.direction = Direction::kStore;
    cs->push_back({"store u8 dims 11 (16-byte granule)", Tiled(DataType::kUint8, {11, 3, 2}, {32, 2, 2}), st16});
    CopyInstruction ist = Instr(CopyMode::kIm2colNoOffs, {0, 1, 2, 0});
    ist.direction = Direction::kStore;
    cs->push_back({"im2col_no_offs store", Im2col(DataType::kFloat16, {32, 6, 5, 2}, {0, 0}, {0, 0}, 32, 40, Swizzle::k64B), ist});
    CopyInstruction ist2 = Instr(CopyMode::kIm2colNoOffs, {0, 3, 4, 1});
    ist2.direction = Direction::kStore;
    cs->push_back({"im2col_no_offs store runs past N", Im2col(DataType::kFloat16, {32, 6, 5, 2}, {0, 0}, {0, 0}, 32, 40, Swizzle::k64B), ist2});
  }
  {
    Case c{"misaligned dim-0 coordinate (-3 f16)", Tiled(DataType::kFloat16, {40, 20}, {32, 8}), Instr(CopyMode::kTile, {-3, 16})};
    c.risky = true;
    cs->push_back(c);
    Case d{"dim-0 coordinate 4 f16 (8 bytes)", Tiled(DataType::kFloat16, {40, 20}, {32, 8}), Instr(CopyMode::kTile, {4, 2})};
    d.risky = true;
    cs->push_back(d);
  }
  // The benchmark configuration.
  cs->push_back({"bench 64x128 bf16 128B", Tiled(DataType::kBfloat16, {512, 300}, {64, 128}, Swizzle::k128B),
                 Instr(CopyMode::kTile, {448, 200})});
}

// Random tiled loads and stores that validate.
void AddSweep(std::vector<Case>* cs, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  int made = 0, tries = 0;
  while (made < n && tries < n * 200) {
    ++tries;
    TensorMapSpec s;
    s.mode = Mode::kTiled;
    s.data_type = static_cast<DataType>(pick(0, 12));
    s.rank = static_cast<uint32_t>(pick(1, 5));
    s.swizzle = static_cast<Swizzle>(pick(0, 3));
    const uint32_t eb = DataTypeBits(s.data_type) / 8;
    const uint32_t span = s.swizzle == Swizzle::kNone ? 256 : SwizzleSpanBytes(s.swizzle);
    const uint32_t max_inner = std::min<uint32_t>(256, span / eb);
    const uint32_t unit = 16 / eb;
    s.box_dim[0] = unit * static_cast<uint32_t>(pick(1, static_cast<int>(std::max<uint32_t>(1, max_inner / unit))));
    s.global_dim[0] = static_cast<uint64_t>(pick(1, 3 * static_cast<int>(s.box_dim[0])));
    uint64_t total_rows = 1;
    for (uint32_t d = 1; d < s.rank; ++d) {
      s.global_dim[d] = static_cast<uint64_t>(pick(1, 12));
      s.box_dim[d] = static_cast<uint32_t>(pick(1, 8));
      s.element_strides[d] = static_cast<uint32_t>(pick(1, 3));
      total_rows *= (s.box_dim[d] + s.element_strides[d] - 1) / s.element_strides[d];
    }
    if (total_rows * std::max<uint32_t>(span, s.box_dim[0] * eb) > 60000) continue;
    if (IsFloat(s.data_type) && pick(0, 1)) s.oob_fill = OobFill::kNanRequestZeroFma;
    FillDenseStrides(&s);
    if (s.rank >= 2 && pick(0, 3) == 0) s.global_strides[0] += 16 * static_cast<uint64_t>(pick(1, 4));
    for (uint32_t d = 1; d + 1 < s.rank; ++d) s.global_strides[d] = s.global_strides[d - 1] * s.global_dim[d];
    CopyInstruction in;
    in.mode = CopyMode::kTile;
    const bool store = pick(0, 3) == 0;
    in.direction = store ? Direction::kStore : Direction::kLoadCta;
    for (uint32_t d = 0; d < s.rank; ++d) {
      const int dim = static_cast<int>(s.global_dim[d]);
      in.coords[d] = store ? pick(0, dim) : pick(-static_cast<int>(s.box_dim[d]), dim + 2);
    }
    in.coords[0] = in.coords[0] / static_cast<int>(unit) * static_cast<int>(unit);
    in.smem_address = 1024 + 128 * static_cast<uint64_t>(pick(0, 7));
    Validation v;
    TensorMapSpec vs = s;
    vs.direction = in.direction;
    vs.target = Target::kSm90a;
    vs.set_fields |= kFieldTarget;
    Validate(vs, &v);
    if (!v.valid) continue;
    char name[96];
    std::snprintf(name, sizeof name, "sweep %d %s rank %u %s%s", made, std::string(ShortName(s.data_type)).c_str(), s.rank,
                  std::string(ShortName(s.swizzle)).c_str(), store ? " store" : "");
    cs->push_back({name, s, in});
    ++made;
  }
}

// Interleave exploration: every 16-byte unit of the tensor holds its own index in each 16-bit word, so
// the shared-memory image tells where each 16-byte piece came from.
void Explore(const char* name, TensorMapSpec s, std::vector<int> coords) {
  const size_t gsize = 1 << 16;
  std::vector<uint8_t> g(gsize);
  for (size_t i = 0; i < gsize; i += 2) {
    const uint16_t u = static_cast<uint16_t>(i / 16);
    std::memcpy(&g[i], &u, 2);
  }
  uint8_t* dg = nullptr;
  CK(cudaMalloc(&dg, gsize));
  CK(cudaMemcpy(dg, g.data(), gsize, cudaMemcpyHostToDevice));
  CUtensorMap map;
  std::string err;
  if (!Encode(s, dg, &map, &err)) {
    std::printf("EXPLORE %s: %s\n", name, err.c_str());
    CK(cudaFree(dg));
    return;
  }
  Params p{};
  p.rank = static_cast<int>(s.rank);
  p.kind = 0;
  for (size_t i = 0; i < coords.size(); ++i) p.coords[i] = coords[i];
  p.dst_offset = 0;
  p.tx_bytes = (1u << 20) - 1;
  p.footprint = 8192;
  p.timeout = 20000000LL;
  uint8_t *d_out = nullptr;
  int* d_status = nullptr;
  CK(cudaMalloc(&d_out, p.footprint));
  CK(cudaMalloc(&d_status, sizeof(int)));
  ProbeKernel<<<1, 128, kSmemBytes>>>(map, p, d_out, d_out, d_status);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<uint8_t> out(p.footprint);
  CK(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost));
  int last = 0;
  for (size_t i = 0; i < out.size(); ++i) if (out[i] != kSentinel) last = static_cast<int>(i);
  std::printf("EXPLORE %s: bytes written up to %d; 16-byte units in smem order:", name, last + 1);
  for (int c = 0; c * 16 <= last; ++c) {
    uint16_t u, u2;
    std::memcpy(&u, &out[c * 16], 2);
    std::memcpy(&u2, &out[c * 16 + 14], 2);
    if (out[c * 16] == kSentinel && out[c * 16 + 1] == kSentinel) std::printf(" --");
    else if (u == u2) std::printf(" %u", u);
    else std::printf(" %u/%u", u, u2);
  }
  std::printf("\n");
  CK(cudaFree(dg));
  CK(cudaFree(d_out));
  CK(cudaFree(d_status));
}

void ExploreInterleave() {
  auto T = [](DataType t, std::vector<uint64_t> dims, std::vector<uint32_t> box, Interleave il, Swizzle sw,
              std::vector<uint32_t> es) {
    TensorMapSpec s = Tiled(t, dims, box, sw);
    s.interleave = il;
    for (size_t i = 0; i < es.size(); ++i) s.element_strides[i] = es[i];
    return s;
  };
  const Interleave I16 = Interleave::k16B, I32 = Interleave::k32B;
  const Swizzle N = Swizzle::kNone;
  Explore("16B f16 dims 8,10,6 box 8,4,3 at 0,2,1", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 3}, I16, N, {1, 1, 1}), {0, 2, 1});
  Explore("16B f16 dims 8,10,6 box 8,4,1 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 1}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 8,1,1 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {8, 1, 1}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 8,2,2 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {8, 2, 2}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 16,1,1 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {16, 1, 1}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 24,2,1 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {24, 2, 1}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 8,4,3 es 2,1,1 at 0,2,1", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 3}, I16, N, {2, 1, 1}), {0, 2, 1});
  Explore("16B f16 dims 8,10,6 box 8,4,3 es 1,2,1 at 0,2,1", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 3}, I16, N, {1, 2, 1}), {0, 2, 1});
  Explore("16B f16 dims 8,10,6 box 8,4,1 at 1,0,0", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 1}, I16, N, {1, 1, 1}), {1, 0, 0});
  Explore("16B f16 dims 8,10,6 box 8,4,1 at 0,8,0", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 1}, I16, N, {1, 1, 1}), {0, 8, 0});
  Explore("16B f16 dims 16,10,6 (str 32) box 8,2,1 at 0,0,0", T(DataType::kFloat16, {16, 10, 6}, {8, 2, 1}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f32 dims 4,10,6 box 4,4,2 at 0,0,0", T(DataType::kFloat32, {4, 10, 6}, {4, 4, 2}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B u8 dims 16,10,6 box 16,3,2 at 0,0,0", T(DataType::kUint8, {16, 10, 6}, {16, 3, 2}, I16, N, {1, 1, 1}), {0, 0, 0});
  Explore("16B f16 dims 8,10,6 box 8,4,2 sw64 at 0,0,0", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 2}, I16, Swizzle::k64B, {1, 1, 1}), {0, 0, 0});
  Explore("32B f16 dims 16,10,10,2 box 16,4,4,1 sw32 at 0,3,2,1", T(DataType::kFloat16, {16, 10, 10, 2}, {16, 4, 4, 1}, I32, Swizzle::k32B, {1, 1, 1, 1}), {0, 3, 2, 1});
  Explore("32B f16 dims 16,10,10,2 box 16,1,1,1 sw32 at 0,0,0,0", T(DataType::kFloat16, {16, 10, 10, 2}, {16, 1, 1, 1}, I32, Swizzle::k32B, {1, 1, 1, 1}), {0, 0, 0, 0});
  Explore("32B f16 dims 16,10,10,2 box 8,1,1,1 sw32 at 0,0,0,0", T(DataType::kFloat16, {16, 10, 10, 2}, {8, 1, 1, 1}, I32, Swizzle::k32B, {1, 1, 1, 1}), {0, 0, 0, 0});
  Explore("none f16 dims 8,10,6 box 8,4,3 at 0,2,1 (reference)", T(DataType::kFloat16, {8, 10, 6}, {8, 4, 3}, Interleave::kNone, N, {1, 1, 1}), {0, 2, 1});
}

}  // namespace

int main(int argc, char** argv) {
  int sweep = 300, only = -1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sweep") == 0 && i + 1 < argc) sweep = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--list-risky") == 0) list = true;
    else if (std::strcmp(argv[i], "--explore-interleave") == 0) sweep = -1;
    else if (std::strcmp(argv[i], "--verbose") == 0) g_verbose = true;
  }
  CK(cudaFree(nullptr));
  CK(cudaFuncSetAttribute(ProbeKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int drv = 0;
  cudaDriverGetVersion(&drv);
  if (!list) std::printf("device: %s (sm_%d%d), driver %d\n", prop.name, prop.major, prop.minor, drv);
  if (sweep < 0) {
    ExploreInterleave();
    return 0;
  }
  std::vector<Case> cases;
  AddFixedCases(&cases);
  for (Case& c : cases)
    if (c.in.mode == CopyMode::kIm2col || c.in.mode == CopyMode::kIm2colNoOffs) c.risky = true;
  AddSweep(&cases, sweep, 12345);
  if (list) {
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].risky) std::printf("%zu\n", i);
    return 0;
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    if (only >= 0 ? static_cast<int>(i) != only : cases[i].risky) continue;
    RunCase(cases[i], 1000 + i);
  }
  std::printf("%d passed, %d failed, %d skipped\n", g_pass, g_fail, g_skip);
  return g_fail == 0 ? 0 : 1;
}
