#include "src/gpu/check/wgmma_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "kernels/check_params.h"
#include "src/desc/smem_descriptor.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/runtime/gpu_api.h"
#include "src/gpu/runtime/worker.h"
#include "src/model/copy_model.h"

namespace tmapgen::gpu {
namespace {

using desc::DescSwizzle;
using desc::ElemType;
using desc::Major;

const char* SwName(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return "none";
    case DescSwizzle::k32B: return "32B";
    case DescSwizzle::k64B: return "64B";
    case DescSwizzle::k128B: return "128B";
    default: return "128B_atom_32B";
  }
}
Swizzle MapSwizzle(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return Swizzle::kNone;
    case DescSwizzle::k32B: return Swizzle::k32B;
    case DescSwizzle::k64B: return Swizzle::k64B;
    case DescSwizzle::k128B: return Swizzle::k128B;
    default: return Swizzle::k128BAtom32B;
  }
}
int Bits(ElemType t) { return t == ElemType::kTF32 ? 32 : (t == ElemType::kE4M3 ? 8 : 16); }
DataType MapType(ElemType t) {
  switch (t) {
    case ElemType::kBF16: return DataType::kBfloat16;
    case ElemType::kF16: return DataType::kFloat16;
    case ElemType::kTF32: return DataType::kFloat32;  // bit copy; the values are exact in tf32
    default: return DataType::kUint8;
  }
}
const char* TypeName(ElemType t) {
  switch (t) {
    case ElemType::kBF16: return "bf16";
    case ElemType::kF16: return "f16";
    case ElemType::kTF32: return "tf32";
    default: return "e4m3";
  }
}

// Values exact in every type: multiples of 0.25 in [-1, 1] (e4m3: halves in [-2, 2]).
void Encode(ElemType t, double v, uint8_t* p) {
  switch (t) {
    case ElemType::kBF16: { const uint16_t h = model::FloatToBf16(v); std::memcpy(p, &h, 2); break; }
    case ElemType::kF16: { const uint16_t h = model::FloatToHalf(v); std::memcpy(p, &h, 2); break; }
    case ElemType::kTF32: { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    default: {
      // e4m3: 1 sign, 4 exponent (bias 7), 3 mantissa bits.
      const double a = std::fabs(v);
      uint8_t b = 0;
      if (a > 0) {
        int e = static_cast<int>(std::floor(std::log2(a)));
        const int m = static_cast<int>(std::lround((a / std::ldexp(1.0, e) - 1.0) * 8));
        b = static_cast<uint8_t>(((e + 7) << 3) | m);
      }
      *p = static_cast<uint8_t>(b | (v < 0 ? 0x80 : 0));
    }
  }
}

int VariantOf(const WgmmaCase& c) {
  if (c.type == ElemType::kTF32) return kWgmmaTf32;
  if (c.type == ElemType::kE4M3) return kWgmmaE4m3;
  return (c.type == ElemType::kF16 ? 4 : 0) + (c.a_major == Major::kMN ? 2 : 0) + (c.b_major == Major::kMN ? 1 : 0);
}

struct Operand {
  desc::OperandLayout l;
  desc::LayoutFacts f;
  std::vector<uint64_t> descs;
  std::vector<uint8_t> global;
  TensorMapSpec spec;
};

Operand MakeOperand(const WgmmaCase& c, desc::Operand which, uint32_t k, uint64_t smem_off,
                    const std::vector<double>& logical /* [mn][k] */) {
  Operand o;
  o.l.arch = desc::DescArch::kWgmma;
  o.l.operand = which;
  o.l.major = which == desc::Operand::kA ? c.a_major : c.b_major;
  o.l.type = c.type;
  o.l.swizzle = c.swizzle;
  o.l.mn = 64;
  o.l.k = k;
  o.l.smem_address = smem_off;
  o.f = desc::ComputeLayoutFacts(o.l);
  const desc::SmemDesc d0 = desc::BuildSmemDesc(o.l, o.f);
  for (uint32_t s = 0; s < o.f.k_slices && s < 8; ++s) o.descs.push_back(desc::AdvanceKSlice(o.l, o.f, d0, s).desc.bits());
  const int eb = Bits(c.type) / 8;
  const bool kmajor = o.l.major == Major::kK;
  const uint64_t contig = kmajor ? k : 64, strided = kmajor ? 64 : k;
  o.global.assign(contig * strided * eb, 0);
  for (uint32_t mn = 0; mn < 64; ++mn)
    for (uint32_t kk = 0; kk < k; ++kk) {
      const uint64_t idx = kmajor ? uint64_t{mn} * k + kk : uint64_t{kk} * 64 + mn;
      Encode(c.type, logical[mn * k + kk], &o.global[idx * eb]);
    }
  TensorMapSpec& s = o.spec;
  s.mode = Mode::kTiled;
  s.data_type = MapType(c.type);
  s.rank = 2;
  s.global_dim = {contig, strided, 0, 0, 0};
  s.box_dim = {static_cast<uint32_t>(o.f.row_bytes / eb), static_cast<uint32_t>(strided), 0, 0, 0};
  s.swizzle = MapSwizzle(c.swizzle);
  FillPaddedStrides(&s);
  return o;
}

// Runs one case; returns the outcome line ("PASS ..." etc.); false on a CUDA error (the context is lost).
// One case on the GPU: its result line in *line; an error when the GPU faulted (the context is then lost).
absl::Status RunOne(Gpu& gpu, const WgmmaCase& c, uint64_t seed, std::string* line) {
  const int bits = Bits(c.type);
  const uint32_t k = 128 * 8 / static_cast<uint32_t>(bits);  // 128 bytes of K per row
  std::vector<double> a(64 * k), b(64 * k);  // a[m][k], b[n][k]
  uint64_t x = seed;
  auto next = [&x] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((x >> 33) % 9) - 4;
  };
  const double step = c.type == ElemType::kE4M3 ? 0.5 : 0.25;
  for (auto& v : a) v = next() * step;
  for (auto& v : b) v = next() * step;
  Operand A = MakeOperand(c, desc::Operand::kA, k, 0, a);
  const uint64_t b_off = (A.f.footprint_bytes + 1023) / 1024 * 1024;
  Operand B = MakeOperand(c, desc::Operand::kB, k, b_off, b);
  if (A.descs.empty() || A.descs.size() != B.descs.size()) {
    *line = "ERROR the descriptor builder gives " + std::to_string(A.descs.size()) + " and " +
            std::to_string(B.descs.size()) + " K slices";
    return absl::OkStatus();
  }
  const size_t out_bytes = 64 * 64 * 4;
  const uint64_t ga_off = 0, gb_off = (A.global.size() + 255) / 256 * 256, out_off = gb_off + (B.global.size() + 255) / 256 * 256;
  const uint64_t status_off = out_off + out_bytes;
  const absl::StatusOr<uint64_t> alloc = gpu.Alloc(status_off + 256);
  if (!alloc.ok()) return alloc.status();
  const uint64_t buf = *alloc;
  std::vector<uint8_t> host(status_off + 4, 0);
  std::memcpy(&host[ga_off], A.global.data(), A.global.size());
  std::memcpy(&host[gb_off], B.global.data(), B.global.size());
  if (absl::Status st = gpu.HtoD(buf, host.data(), host.size()); !st.ok()) return st;
  const auto ea = EncodeSpec(driver::CudaDriver::Get(), A.spec, buf + ga_off);
  const auto eb = EncodeSpec(driver::CudaDriver::Get(), B.spec, buf + gb_off);
  if (!ea.ok() || !eb.ok()) {
    *line = "FAIL the driver rejects the operand map: " + (ea.ok() ? eb : ea).message;
    gpu.Free(buf);
    return absl::OkStatus();
  }
  WgmmaParams p;
  std::memset(&p, 0, sizeof p);
  p.variant = VariantOf(c);
  p.k_slices = static_cast<int32_t>(A.descs.size());
  p.a_slabs = static_cast<int32_t>(A.f.slabs);
  p.b_slabs = static_cast<int32_t>(B.f.slabs);
  p.a_row_elems = static_cast<int32_t>(A.spec.box_dim[0]);
  p.b_row_elems = static_cast<int32_t>(B.spec.box_dim[0]);
  p.a_off = 0;
  p.b_off = static_cast<uint32_t>(b_off);
  p.a_slab_bytes = static_cast<uint32_t>(A.f.slab_bytes);
  p.b_slab_bytes = static_cast<uint32_t>(B.f.slab_bytes);
  p.tx_bytes = static_cast<uint32_t>(A.f.footprint_bytes + B.f.footprint_bytes);
  p.timeout_cycles = 400000000;
  for (size_t i = 0; i < A.descs.size(); ++i) {
    p.desc_a[i] = A.descs[i];
    p.desc_b[i] = B.descs[i];
  }
  p.out = buf + out_off;
  p.status = buf + status_off;
  alignas(128) uint64_t ma[16], mb[16];
  std::memcpy(ma, ea.map, 128);
  std::memcpy(mb, eb.map, 128);
  void* args[] = {ma, mb, &p};
  LaunchShape sh;
  sh.grid = 1;
  sh.block = 128;
  sh.smem = static_cast<uint32_t>(b_off + B.f.footprint_bytes + 1024);
  if (absl::Status st = gpu.Launch(Gpu::kWgmma, sh, args); !st.ok()) return st;
  if (absl::Status st = gpu.Sync(); !st.ok()) return st;
  std::vector<float> d(64 * 64);
  int32_t st = 0;
  if (absl::Status copied = gpu.DtoH(d.data(), buf + out_off, out_bytes); !copied.ok()) return copied;
  if (absl::Status copied = gpu.DtoH(&st, buf + status_off, 4); !copied.ok()) return copied;
  gpu.Free(buf);
  char desc_text[96];
  std::snprintf(desc_text, sizeof desc_text, " (A desc 0x%016llx, B desc 0x%016llx, %d K slices)",
                static_cast<unsigned long long>(A.descs[0]), static_cast<unsigned long long>(B.descs[0]), p.k_slices);
  if (st == kTmaStatusTimeout) {
    *line = std::string("TIMEOUT the TMA loads did not deliver ") + std::to_string(p.tx_bytes) + " bytes" + desc_text;
    return absl::OkStatus();
  }
  if (st == kTmaStatusUnsupported) {
    *line = "NOT RUN wgmma needs sm_90a";
    return absl::OkStatus();
  }
  double max_err = 0;
  int bad = 0;
  std::string first;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      double ref = 0;
      for (uint32_t kk = 0; kk < k; ++kk) ref += a[m * k + kk] * b[n * k + kk];
      const double err = std::fabs(ref - d[m * 64 + n]);
      max_err = std::max(max_err, err);
      if (err > 1e-6 * (1 + std::fabs(ref))) {
        if (bad++ == 0) {
          char buf2[128];
          std::snprintf(buf2, sizeof buf2, "; first at D[%d][%d]: expected %.6g got %.6g", m, n, ref, d[m * 64 + n]);
          first = buf2;
        }
      }
    }
  if (bad == 0) {
    *line = "PASS 4096 outputs equal the float64 product" + std::string(desc_text);
  } else {
    *line = "FAIL " + std::to_string(bad) + " of 4096 outputs differ" + first + desc_text;
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<WgmmaCase> WgmmaCases() {
  std::vector<WgmmaCase> v;
  const DescSwizzle sws[] = {DescSwizzle::kNone, DescSwizzle::k32B, DescSwizzle::k64B, DescSwizzle::k128B};
  for (ElemType t : {ElemType::kBF16, ElemType::kF16, ElemType::kTF32, ElemType::kE4M3})
    for (DescSwizzle sw : sws)
      for (int am = 0; am < 2; ++am)
        for (int bm = 0; bm < 2; ++bm) {
          const bool mn_ok = t == ElemType::kBF16 || t == ElemType::kF16;
          if (!mn_ok && (am || bm)) continue;
          WgmmaCase c;
          c.type = t;
          c.a_major = am ? Major::kMN : Major::kK;
          c.b_major = bm ? Major::kMN : Major::kK;
          c.swizzle = sw;
          c.label = std::string(TypeName(t)) + " A " + (am ? "MN" : "K") + "-major B " + (bm ? "MN" : "K") +
                    "-major swizzle " + SwName(sw);
          v.push_back(c);
        }
  return v;
}

int RunWgmmaProof(FILE* out) {
  const std::vector<WgmmaCase> cases = WgmmaCases();
  std::vector<std::string> lines(cases.size());
  std::unique_ptr<Gpu> gpu;  // opened in each child
  WorkerCallbacks cb;
  cb.open = [&gpu]() -> absl::StatusOr<std::string> {
    absl::StatusOr<std::string> opened = Gpu::OpenNew(&gpu);
    if (!opened.ok()) return opened;
    if (gpu->device().cc_major != 9)
      return absl::FailedPreconditionError("wgmma needs sm_90a; this GPU is sm_" + std::to_string(gpu->device().cc_major) +
                                           std::to_string(gpu->device().cc_minor));
    return opened;
  };
  // One text per case: its result line.
  cb.run = [&](size_t i, const WorkerSend& send) -> absl::Status {
    std::string line;
    if (absl::Status fault = RunOne(*gpu, cases[i], 1000 + i, &line); !fault.ok()) return fault;
    send(line);
    return absl::OkStatus();
  };
  cb.on_line = [&lines](size_t i, const std::string& text) { lines[i] = text; };
  cb.on_fault = [&lines](size_t i, const std::string& message) { lines[i] = "FAULT " + message; };
  cb.on_death = [&lines](size_t i, const WorkerDeath&) { lines[i] = "FAULT the check process died (hang or crash)"; };
  const WorkerRun run = RunWorker(cases.size(), 60, cb);
  const std::string& device = run.device;
  const int children = run.children;
  if (!run.opened || !run.why_not.empty()) {
    std::fprintf(out, "tmapgen check --wgmma: not run: %s\n",
                 run.why_not.empty() ? "the check process died" : run.why_not.c_str());
    return 2;
  }
  std::fprintf(out, "wgmma proof on %s: A, B through tensor maps, wgmma.mma_async m64n64 with tmapgen descriptors\n",
               device.c_str());
  int pass = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    std::fprintf(out, "  %-44s %s\n", cases[i].label.c_str(), lines[i].c_str());
    pass += lines[i].rfind("PASS", 0) == 0;
  }
  std::fprintf(out, "wgmma: %d of %zu configurations equal the float64 product; %d check process(es)\n", pass,
               cases.size(), children);
  return pass == static_cast<int>(cases.size()) ? 0 : 1;
}

}  // namespace tmapgen::gpu
