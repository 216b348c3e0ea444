#include "src/gpu/bandwidth/mcast_bandwidth.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/check_params.h"
#include "kernels/mcast_params.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/runtime/gpu_api.h"
#include "src/model/copy_model.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {
namespace {

constexpr int64_t kTimeoutCycles = 2000000000;  // about 1 s at 1.98 GHz per wait

float Median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.f : v[v.size() / 2];
}

}  // namespace

int RunMcastBandwidth(const TensorMapSpec& in_spec, uint32_t C, const CopyBandwidthOptions& opt, FILE* out,
                      McastBandwidthResult* result) {
  auto no = [&](const std::string& why) {
    std::fprintf(out, "tmapgen bench --multicast: %s\n", why.c_str());
    return 2;
  };
  if (C < 2 || C > kMcastMaxCluster) return no(StrCat("a cluster of 2 to 8 CTAs, not ", C));
  if (in_spec.mode != Mode::kTiled) return no("multicast bench takes tiled maps only");
  Gpu gpu;
  if (const absl::Status opened = gpu.Open(); !opened.ok()) return no(StrCat("no GPU: ", opened.message()));
  const auto& dev = gpu.device();
  const std::string req = HardwareRequirement(in_spec, model::CopyInstruction{}, dev.cc_major, dev.cc_minor);
  if (!req.empty()) return no(StrCat("not run on hardware: ", req));
  const uint64_t eb = static_cast<uint64_t>(DataTypeBits(in_spec.data_type) / 8);
  const uint32_t bx = std::max<uint32_t>(1, in_spec.box_dim[0]);
  const uint32_t by = in_spec.rank >= 2 ? std::max<uint32_t>(1, in_spec.box_dim[1]) : 1;
  if (by % C != 0) return no(StrCat("box_dim[1] = ", by, " rows cannot be split into ", C, " slices"));
  const uint64_t row_bytes = bx * eb;
  const uint64_t tx = std::max<uint64_t>(1, std::max<uint64_t>(opt.row_bytes, row_bytes) / row_bytes);
  const uint64_t dim0 = bx * tx;
  const uint64_t ty = std::max<uint64_t>(1, opt.bytes / (dim0 * eb) / by);
  const uint64_t dim1 = by * ty;
  const uint64_t bytes = dim0 * dim1 * eb;
  if (tx * ty > 0x7fffffffull) return no("too many boxes");
  TensorMapSpec whole = in_spec;
  whole.rank = 2;
  whole.global_dim = {dim0, dim1, 0, 0, 0};
  whole.box_dim = {bx, by, 0, 0, 0};
  whole.element_strides = {1, 1, 1, 1, 1};
  whole.interleave = Interleave::kNone;
  whole.direction = Direction::kLoadCluster;
  whole.set_fields |= kFieldDirection;
  whole.set_fields &= ~kFieldSmemAddress;
  FillPaddedStrides(&whole);
  TensorMapSpec slice = whole;
  slice.box_dim[1] = by / C;
  model::CopyInstruction in = model::DefaultInstruction(whole);
  in.direction = Direction::kLoadCluster;
  in.smem_address = 0;
  const absl::StatusOr<model::CopyLayout> wl = model::DescribeCopy(whole, in);
  if (!wl.ok()) return no(StrCat("the model refuses the box: ", StatusMessage(wl.status())));
  const absl::StatusOr<model::CopyLayout> sl0 = model::DescribeCopy(slice, in);
  if (!sl0.ok()) return no(StrCat("the model refuses the slice: ", StatusMessage(sl0.status())));
  const uint32_t slice_offset = static_cast<uint32_t>(sl0->footprint_bytes);
  in.smem_address = slice_offset;
  if (const absl::StatusOr<model::CopyLayout> sl1 = model::DescribeCopy(slice, in); !sl1.ok())
    return no(StrCat("the second slice's destination (+", slice_offset, "): ", StatusMessage(sl1.status())));
  Validation vw, vs;
  Validate(whole, &vw);
  Validate(slice, &vs);
  if (!vw.valid || !vs.valid) return no("the bench's box or slice map does not validate as a .shared::cluster load");
  const uint32_t box_bytes = static_cast<uint32_t>(wl->transaction_bytes);
  const uint32_t stride = static_cast<uint32_t>((wl->footprint_bytes + 1023) / 1024 * 1024);
  const int smem_cap = dev.max_smem_per_block_optin - 2048;
  uint32_t stages = opt.stages_set ? static_cast<uint32_t>(opt.stages) : 4;
  stages = std::min<uint32_t>(8, std::max<uint32_t>(2, stages));
  while (stages > 2 && static_cast<int>(stages * stride + 1024) > smem_cap) --stages;
  if (static_cast<int>(stages * stride + 1024) > smem_cap)
    return no(StrCat("two stages of a ", stride, "-byte box do not fit shared memory"));

  std::string err;
  const absl::StatusOr<uint64_t> src = gpu.Alloc(bytes);
  if (!src.ok()) return no(std::string(src.status().message()));
  struct Freer {
    Gpu* g;
    uint64_t a, b = 0;
    ~Freer() {
      g->Free(a);
      if (b) g->Free(b);
    }
  } freer{&gpu, *src};
  if (const absl::Status st = gpu.Memset(*src, 0x3c, bytes); !st.ok()) return no(std::string(st.message()));
  const auto ew = EncodeSpec(driver::CudaDriver::Get(), whole, *src);
  const auto es = EncodeSpec(driver::CudaDriver::Get(), slice, *src);
  if (!ew.ok() || !es.ok()) return no(StrCat("the driver rejects the bench maps: ", ew.ok() ? es.message : ew.message));
  const absl::StatusOr<uint64_t> status = gpu.Alloc(4 * 4096);
  if (!status.ok()) return no(std::string(status.status().message()));
  freer.b = *status;

  LaunchShape sh;
  sh.block = 32;
  sh.smem = stages * stride + 1024;
  sh.cluster = C;
  if (const absl::Status st = gpu.SetMaxDynamicSmem(Gpu::kMcastBandwidth, static_cast<int>(sh.smem)); !st.ok())
    return no(std::string(st.message()));
  const int per_sm = std::max(1, opt.blocks_per_sm);
  sh.grid = static_cast<uint32_t>(std::max(1, (opt.sms > 0 ? opt.sms : dev.sm_count) * per_sm / static_cast<int>(C))) * C;
  const absl::StatusOr<int> active = gpu.MaxActiveClusters(Gpu::kMcastBandwidth, sh);
  if (!active.ok()) return no(std::string(active.status().message()));
  // One wave: no more clusters than can be resident at once (a second wave would time its tail).
  const uint32_t clusters = std::min<uint32_t>(sh.grid / C, static_cast<uint32_t>(std::max(1, *active)));
  sh.grid = clusters * C;
  if (sh.grid > 4096) return no("too many blocks");

  McastBandwidthParams p;
  std::memset(&p, 0, sizeof p);
  p.tiles_x = static_cast<uint32_t>(tx);
  p.tiles_y = static_cast<uint32_t>(ty);
  p.box_x = bx;
  p.box_y = by;
  p.box_bytes = box_bytes;
  p.slice_offset = slice_offset;
  p.stage_stride = stride;
  p.stages = stages;
  p.timeout_cycles = kTimeoutCycles;
  p.status = *status;
  alignas(128) uint64_t mw[16], ms[16];
  std::memcpy(mw, ew.map, 128);
  std::memcpy(ms, es.map, 128);
  bool timed_out = false;
  auto run = [&](bool mc, int iters, float* ms_out) -> bool {
    p.flags = mc ? kMcastBandwidthMulticast : 0;
    void* args[] = {mw, ms, &p};
    if (!gpu.Memset(*status, 0, 4 * sh.grid).ok()) return false;
    if (!gpu.Record(0).ok()) return false;
    for (int i = 0; i < iters; ++i)
      if (absl::Status st = gpu.Launch(Gpu::kMcastBandwidth, sh, args); !st.ok()) {
        err = std::string(st.message());
        return false;
      }
    if (!gpu.Record(1).ok()) return false;
    if (absl::Status st = gpu.Sync(); !st.ok()) {
      err = std::string(st.message());
      return false;
    }
    const absl::StatusOr<float> t = gpu.ElapsedMs(0, 1);
    if (!t.ok()) return false;
    *ms_out = *t / static_cast<float>(iters);
    std::vector<int32_t> st(sh.grid);
    if (!gpu.DtoH(st.data(), *status, 4 * st.size()).ok()) return false;
    for (int32_t v : st) timed_out = timed_out || v != 0;
    return true;
  };
  float warm = 0;
  if (!run(true, 1, &warm) || !run(false, 1, &warm)) return no(StrCat("a launch failed: ", err));
  std::vector<float> tm, tp;
  for (int r = 0; r < std::max(1, opt.rounds); ++r) {
    float a = 0, b = 0;
    if (!run(true, std::max(1, opt.iters), &a) || !run(false, std::max(1, opt.iters), &b))
      return no(StrCat("a launch failed: ", err));
    tm.push_back(a);
    tp.push_back(b);
  }
  const double delivered = static_cast<double>(tx * ty) * box_bytes * C;  // every CTA of a cluster gets every box
  const double m_ms = Median(tm), p_ms = Median(tp);
  McastBandwidthResult res;
  res.clusters = static_cast<int>(clusters);
  res.stages = static_cast<int>(stages);
  res.mcast_delivered_gbs = delivered / (m_ms * 1e6);
  res.plain_delivered_gbs = delivered / (p_ms * 1e6);
  res.mcast_per_cta_gbs = res.mcast_delivered_gbs / sh.grid;
  res.plain_per_cta_gbs = res.plain_delivered_gbs / sh.grid;
  std::fprintf(out,
               "multicast bench on %s: %s box %ux%u (%u B, swizzle %s), tensor %llu x %llu (%.2f GiB); clusters of %u "
               "CTAs, %u clusters resident (%u CTAs, one per %s), %u stages of %u B, one issuing thread per CTA; "
               "median of %d rounds x %d launches\n",
               gpu.Description().c_str(), std::string(ShortName(whole.data_type)).c_str(), bx, by, box_bytes,
               std::string(ShortName(whole.swizzle)).c_str(), static_cast<unsigned long long>(dim0),
               static_cast<unsigned long long>(dim1), static_cast<double>(bytes) / (1 << 30), C, clusters, sh.grid,
               per_sm == 1 ? "SM" : "block slot", stages, stride, std::max(1, opt.rounds), std::max(1, opt.iters));
  std::fprintf(out, "| loads | ms | delivered to smem GB/s | per CTA GB/s | tensor read GB/s | L2 reads per box |\n"
                    "|---|---:|---:|---:|---:|---:|\n");
  std::fprintf(out, "| multicast: %u slices of %u rows, ctaMask 0x%x | %.3f | %.1f | %.2f | %.1f | 1 |\n", C, by / C,
               (1u << C) - 1, m_ms, res.mcast_delivered_gbs, res.mcast_per_cta_gbs, res.mcast_delivered_gbs / C);
  std::fprintf(out, "| per CTA: every CTA loads every box | %.3f | %.1f | %.2f | %.1f | %u |\n", p_ms,
               res.plain_delivered_gbs, res.plain_per_cta_gbs, res.plain_delivered_gbs / C, C);
  std::fprintf(out, "multicast / per CTA: %.3f%s\n", res.mcast_delivered_gbs / res.plain_delivered_gbs,
               timed_out ? "; SOME BARRIERS TIMED OUT: the numbers are not valid" : "");
  if (result) *result = res;
  return timed_out ? 1 : 0;
}

}  // namespace tmapgen::gpu
