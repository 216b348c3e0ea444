#include "src/gpu/bench.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/check_params.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check_plan.h"
#include "src/gpu/gpu_api.h"

namespace tmapgen::gpu {

int RunBench(const TensorMapSpec& in_spec, const BenchOptions& opt, FILE* out) {
  Gpu gpu;
  std::string err;
  if (!gpu.Open(&err)) {
    std::fprintf(out, "tmapgen bench: no GPU: %s\n", err.c_str());
    return 2;
  }
  const auto& dev = gpu.device();
  const std::string req = HardwareRequirement(in_spec, model::CopyInstruction{}, dev.cc_major, dev.cc_minor);
  if (!req.empty() || in_spec.mode != Mode::kTiled) {
    std::fprintf(out, "tmapgen bench: not run on hardware: %s\n",
                 req.empty() ? "bench copies tiled maps only" : req.c_str());
    return 2;
  }
  const uint64_t eb = static_cast<uint64_t>(DataTypeBits(in_spec.data_type) / 8);
  const uint32_t bx = std::max<uint32_t>(1, in_spec.box_dim[0]);
  const uint32_t by = in_spec.rank >= 2 ? std::max<uint32_t>(1, in_spec.box_dim[1]) : 1;
  const uint32_t tile = static_cast<uint32_t>(bx * eb * by);
  const uint64_t row_target = 16384;
  const uint64_t tx = std::max<uint64_t>(1, row_target / (bx * eb));
  const uint64_t dim0 = bx * tx;
  const uint64_t ty = std::max<uint64_t>(1, opt.bytes / (dim0 * eb) / by);
  const uint64_t dim1 = by * ty;
  const uint64_t bytes = dim0 * dim1 * eb;
  if (tx * ty > 0xffffffffull) {
    std::fprintf(out, "tmapgen bench: too many tiles\n");
    return 2;
  }
  const int smem_cap = dev.max_smem_per_block_optin - 2048;
  if (static_cast<int>(2 * tile + 1024) > smem_cap) {
    std::fprintf(out, "tmapgen bench: a %u-byte tile does not fit two stages in shared memory\n", tile);
    return 2;
  }
  TensorMapSpec s = in_spec;
  s.rank = 2;
  s.global_dim = {dim0, dim1, 0, 0, 0};
  s.box_dim = {bx, by, 0, 0, 0};
  s.element_strides = {1, 1, 1, 1, 1};
  s.interleave = Interleave::kNone;
  FillDenseStrides(&s);
  uint64_t src = 0, dst = 0;
  if (!gpu.Alloc(bytes, &src, &err) || !gpu.Alloc(bytes, &dst, &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  // Seeded data in the first 16 MiB (checked after the run), a byte pattern elsewhere.
  const size_t probe = static_cast<size_t>(std::min<uint64_t>(bytes, 16u << 20));
  std::vector<uint8_t> host(probe), back(probe);
  FillRandom(7, host.data(), host.size());
  if (!gpu.Memset(src, 0x3c, bytes, &err) || !gpu.HtoD(src, host.data(), probe, &err) ||
      !gpu.Memset(dst, 0, bytes, &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  const auto es = EncodeSpec(driver::CudaDriver::Get(), s, src);
  const auto ed = EncodeSpec(driver::CudaDriver::Get(), s, dst);
  if (!es.ok() || !ed.ok()) {
    std::fprintf(out, "tmapgen bench: the driver rejects the bench map: %s\n", (es.ok() ? ed : es).message.c_str());
    return 2;
  }
  if (!gpu.SetMaxDynamicSmem(Gpu::kBench, smem_cap, &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  alignas(128) uint64_t ms[16], md[16];
  std::memcpy(ms, es.map, 128);
  std::memcpy(md, ed.map, 128);
  struct Config {
    int stages, lag, bps;
  };
  // Pipeline shapes: stages per block, how late a stage is refilled, blocks per SM (228 KiB of shared memory per
  // SM, 1 KiB reserved per block). --stages / --blocks-per-sm pin them.
  std::vector<Config> configs;
  for (int st : {2, 3, 4, 6, 8}) {
    if (opt.stages_set && st != opt.stages) continue;
    const int sm = st * static_cast<int>(tile) + 1024;
    if (sm > smem_cap) continue;
    const int max_bps = std::min(16, (228 * 1024) / (sm + 1024 + 256));
    for (int lag : {1, 2, 3}) {
      if (lag >= st) continue;
      for (int b : {1, 2, 3, 4, 6, 8, 12, 16}) {
        if (b > max_bps) continue;
        if (opt.blocks_per_sm > 0 && b != opt.blocks_per_sm) continue;
        configs.push_back({st, lag, b});
      }
    }
  }
  if (configs.empty()) {
    std::fprintf(out, "tmapgen bench: no pipeline shape fits (tile %u bytes)\n", tile);
    return 2;
  }
  auto time_config = [&](const Config& c, int iters, float* ms_out) {
    TmaBenchParams p{static_cast<uint32_t>(tx), static_cast<uint32_t>(ty), bx, by, tile,
                     static_cast<uint32_t>(c.stages), static_cast<uint32_t>(c.lag)};
    void* args[] = {ms, md, &p};
    LaunchShape sh;
    sh.grid = static_cast<uint32_t>(dev.sm_count * c.bps);
    sh.block = 32;
    sh.smem = static_cast<uint32_t>(c.stages * static_cast<int>(tile) + 1024);
    bool ok = gpu.Launch(Gpu::kBench, sh, args, &err) && gpu.Sync(&err) && gpu.Record(0, &err);
    for (int i = 0; ok && i < iters; ++i) ok = gpu.Launch(Gpu::kBench, sh, args, &err);
    return ok && gpu.Record(1, &err) && gpu.Sync(&err) && gpu.ElapsedMs(0, 1, ms_out, &err);
  };
  Config best = configs[0];
  float best_ms = 1e30f;
  for (const Config& c : configs) {
    float t = 0;
    if (!time_config(c, 2, &t)) {
      std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
      return 2;
    }
    if (t < best_ms) {
      best_ms = t;
      best = c;
    }
  }
  float tma_ms = 0, copy_ms = 0;
  const int iters = std::max(1, opt.iters);
  bool ok = time_config(best, iters, &tma_ms);
  ok = ok && gpu.DtoH(back.data(), dst, probe, &err);
  const bool same = ok && std::memcmp(back.data(), host.data(), probe) == 0;
  ok = ok && gpu.DtoD(dst, src, bytes, &err) && gpu.Sync(&err) && gpu.Record(2, &err);
  for (int i = 0; ok && i < iters; ++i) ok = gpu.DtoD(dst, src, bytes, &err);
  ok = ok && gpu.Record(3, &err) && gpu.Sync(&err) && gpu.ElapsedMs(2, 3, &copy_ms, &err);
  if (!ok) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  const int stages = best.stages, bps = best.bps;
  const double moved = 2.0 * static_cast<double>(bytes) * iters;
  const double tma_bw = moved / (tma_ms * 1e-3) / 1e9, copy_bw = moved / (copy_ms * 1e-3) / 1e9;
  std::fprintf(out, "bench on %s\n", gpu.Description().c_str());
  std::fprintf(out, "map: %s box %u x %u, swizzle %s, L2 promotion %s; tensor %llu x %llu (%.2f GiB), "
                    "%d SMs x %d blocks, %d stages of %u bytes, refill lag %d (best of %zu pipeline shapes)\n",
               std::string(ShortName(s.data_type)).c_str(), bx, by, std::string(ShortName(s.swizzle)).c_str(),
               std::string(ShortName(s.l2_promotion)).c_str(), static_cast<unsigned long long>(dim0),
               static_cast<unsigned long long>(dim1), bytes / 1073741824.0, dev.sm_count, bps, stages, tile, best.lag, configs.size());
  std::fprintf(out, "| copy | time per copy | bandwidth (read + write) |\n|---|---|---|\n");
  std::fprintf(out, "| TMA load + store | %.3f ms | %.0f GB/s |\n", tma_ms / iters, tma_bw);
  std::fprintf(out, "| cuMemcpyDtoD | %.3f ms | %.0f GB/s |\n", copy_ms / iters, copy_bw);
  std::fprintf(out, "TMA copy / plain copy: %.1f%%; first %zu bytes of the copy %s the source\n",
               100.0 * tma_bw / copy_bw, probe, same ? "equal" : "DIFFER FROM");
  gpu.Free(src);
  gpu.Free(dst);
  return same ? 0 : 1;
}

}  // namespace tmapgen::gpu
