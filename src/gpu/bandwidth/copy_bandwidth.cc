#include "src/gpu/bandwidth/copy_bandwidth.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/check_params.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/runtime/gpu_api.h"

namespace tmapgen::gpu {
namespace {

constexpr int kSmemPerSm = 228 * 1024;       // H100/H200 shared memory per SM
constexpr int kSmemReservedPerBlock = 1024;  // the driver keeps 1 KiB per block
constexpr int kSmemStatic = 1024;            // tmapgen_copy_bandwidth's static shared memory (ptxas -v)
constexpr uint64_t kMinInFlight = 32 * 1024;  // per SM: below this no shape keeps the copy busy
constexpr uint64_t kMaxInFlight = 192 * 1024;  // per SM: above this every measured shape was slower
constexpr uint64_t kMaxGroupRowBytes = 512;   // boxes per stage x row bytes: 256 was best, 512 no better

struct Shape {
  int stages = 2, lag = 1, bps = 1, boxes = 1;
  bool store_warp = false;
  bool evict_last = false;
  bool linear = false;  // the bulk copy of contiguous pieces without the map (kCopyBandwidthLinear)
  bool taken = false;   // groups handed out in order by a grid-wide counter (kCopyBandwidthTaken), else block b
                        // copies groups b, b + grid, ...
  int one_way = 0;      // 0: load then store; 1: loads only; 2: stores only (--one-way, timing only)
  int promo = 0;  // index into the encoded maps
};

// The plain SM copy kernel's launch (tmapgen_sm_copy).
struct SmShape {
  int threads = 1024, bps = 2;
  bool streaming = false;
};
// Threads per block x blocks per SM: 1024 or 2048 threads per SM (a full SM holds 2048), in blocks of 256 to 1024.
constexpr SmShape kSmShapes[] = {{256, 4}, {256, 8}, {512, 2}, {512, 4}, {1024, 1}, {1024, 2}};

std::string SmShapeText(const SmShape& c) {
  return std::to_string(c.bps) + (c.bps == 1 ? " block" : " blocks") + "/SM of " + std::to_string(c.threads) +
         " threads, 4 x 16 bytes in flight per thread, " +
         (c.streaming ? "streaming loads and stores (.cs)" : "plain loads and stores");
}

std::string ShapeText(const Shape& c, uint32_t box_bytes) {
  std::string s = std::to_string(c.bps) + (c.bps == 1 ? " block" : " blocks") + "/SM, " + std::to_string(c.stages) +
                  " stages of " + std::to_string(c.boxes) + (c.boxes == 1 ? " box" : " boxes") + " (" +
                  std::to_string(c.boxes * box_bytes) + " bytes), refill lag " + std::to_string(c.lag) + ", " +
                  (c.store_warp ? "a load warp and a store warp" : "one issuing thread");
  if (c.evict_last) s += ", loads evict_last";
  s += c.taken ? ", groups taken in order from a grid-wide counter" : ", groups b, b + grid, ... for block b";
  return s;
}

float Median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.f : v[v.size() / 2];
}

// The bench stops at the first GPU call that fails and prints its message: Ok() is whether the call
// succeeded, keeping the message in *err when it did not (and the value in *out when it did).
bool Ok(const absl::Status& st, std::string* err) {
  if (!st.ok()) *err = std::string(st.message());
  return st.ok();
}
template <typename T>
bool Ok(const absl::StatusOr<T>& v, T* out, std::string* err) {
  if (!Ok(v.status(), err)) return false;
  *out = *v;
  return true;
}

}  // namespace

int RunCopyBandwidth(const TensorMapSpec& in_spec, const CopyBandwidthOptions& opt, FILE* out,
                     CopyBandwidthResult* result) {
  Gpu gpu;
  if (const absl::Status opened = gpu.Open(); !opened.ok()) {
    std::fprintf(out, "tmapgen bench: no GPU: %s\n", std::string(opened.message()).c_str());
    return 2;
  }
  std::string err;  // the message of the GPU call that failed, printed as the bench's answer
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
  const uint64_t row_bytes = bx * eb;
  const uint64_t row_target = std::max<uint64_t>(opt.row_bytes, row_bytes);
  const uint64_t tx = std::max<uint64_t>(1, row_target / row_bytes);
  const uint64_t dim0 = bx * tx;
  const uint64_t ty = std::max<uint64_t>(1, opt.bytes / (dim0 * eb) / by);
  const uint64_t dim1 = by * ty;
  const uint64_t bytes = dim0 * dim1 * eb;
  if (tx * ty > 0x7fffffffull) {  // group numbers and the group counter stay within 32 bits
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
  FillPaddedStrides(&s);
  uint64_t src = 0, dst = 0;
  if (!Ok(gpu.Alloc(bytes), &src, &err) || !Ok(gpu.Alloc(bytes), &dst, &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  struct Buffers {
    Gpu* g;
    uint64_t a, b, c = 0;
    ~Buffers() {
      g->Free(a);
      g->Free(b);
      if (c != 0) g->Free(c);
    }
  } buffers{&gpu, src, dst};
  uint64_t sched = 0;  // kCopyBandwidthTaken's two counter words (zeroed before each timing; each launch leaves
                       // them zero)
  if (!Ok(gpu.Alloc(256), &sched, &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  buffers.c = sched;
  // The source: seeded data in the first and the last 16 MiB (compared after each checked copy) and a byte
  // pattern elsewhere, or with --check-all seeded data everywhere, written and compared in 64 MiB chunks
  // (chunk k from seed 1000 + k, made again on the host for the comparison).
  const size_t probe = static_cast<size_t>(std::min<uint64_t>(bytes / 2, 16u << 20));
  const uint64_t tail = bytes - probe;
  const uint64_t chunk = uint64_t{64} << 20;
  std::vector<uint8_t> head_host(opt.check_all ? 0 : probe), tail_host(opt.check_all ? 0 : probe), back(opt.check_all ? std::min(chunk, bytes) : probe);
  std::vector<uint8_t> want(opt.check_all ? back.size() : 0);
  if (opt.check_all) {
    for (uint64_t off = 0; off < bytes; off += chunk) {
      const size_t n = static_cast<size_t>(std::min(chunk, bytes - off));
      FillRandom(1000 + off / chunk, want.data(), n);
      if (!Ok(gpu.HtoD(src + off, want.data(), n), &err)) {
        std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
        return 2;
      }
    }
  } else {
    FillRandom(7, head_host.data(), probe);
    FillRandom(8, tail_host.data(), probe);
    if (!Ok(gpu.Memset(src, 0x3c, bytes), &err) || !Ok(gpu.HtoD(src, head_host.data(), probe), &err) ||
        !Ok(gpu.HtoD(src + tail, tail_host.data(), probe), &err)) {
      std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
      return 2;
    }
  }
  // Whether the destination holds the source's bytes where they are compared (ok stays true unless a GPU
  // call fails).
  auto dst_equal = [&](bool* ok) {
    if (!opt.check_all) {
      bool eq = (*ok = *ok && Ok(gpu.DtoH(back.data(), dst, probe), &err)) &&
                std::memcmp(back.data(), head_host.data(), probe) == 0;
      return eq && (*ok = Ok(gpu.DtoH(back.data(), dst + tail, probe), &err)) &&
             std::memcmp(back.data(), tail_host.data(), probe) == 0;
    }
    bool eq = true;
    for (uint64_t off = 0; *ok && off < bytes; off += chunk) {
      const size_t n = static_cast<size_t>(std::min(chunk, bytes - off));
      FillRandom(1000 + off / chunk, want.data(), n);
      *ok = Ok(gpu.DtoH(back.data(), dst + off, n), &err);
      eq = eq && *ok && std::memcmp(back.data(), want.data(), n) == 0;
    }
    return eq && *ok;
  };
  // L2 promotion is a field of the map: the spec's when it gives one, else the bench tries every value (the
  // default 128B first; 256B, the value CUTLASS's and DeepGEMM's GEMM maps use, last: the pipeline shapes are
  // tuned with it) and reports the one it kept. A value the driver rejects is left out.
  std::vector<L2Promotion> promos = {s.l2_promotion};
  const bool promo_tuned = !in_spec.Has(kFieldL2Promotion);
  if (promo_tuned)
    for (L2Promotion p : {L2Promotion::kNone, L2Promotion::k64B, L2Promotion::k128B, L2Promotion::k256B})
      if (p != s.l2_promotion) promos.push_back(p);
  std::vector<std::array<uint64_t, 16>> src_maps, dst_maps;
  std::vector<L2Promotion> encoded;
  for (L2Promotion p : promos) {
    s.l2_promotion = p;
    const auto es = EncodeSpec(driver::CudaDriver::Get(), s, src);
    const auto ed = EncodeSpec(driver::CudaDriver::Get(), s, dst);
    if (!es.ok() || !ed.ok()) {
      if (p == promos[0]) {
        std::fprintf(out, "tmapgen bench: the driver rejects the bench map: %s\n",
                     (es.ok() ? ed : es).message.c_str());
        return 2;
      }
      continue;
    }
    std::array<uint64_t, 16> a, b;
    std::memcpy(a.data(), es.map, 128);
    std::memcpy(b.data(), ed.map, 128);
    src_maps.push_back(a);
    dst_maps.push_back(b);
    encoded.push_back(p);
  }
  promos = encoded;
  if (!Ok(gpu.SetMaxDynamicSmem(Gpu::kCopyBandwidth, smem_cap), &err)) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }

  const int sms = opt.sms > 0 ? std::min(opt.sms, dev.sm_count) : dev.sm_count;
  auto smem_of = [&](const Shape& c) { return c.stages * c.boxes * static_cast<int>(tile) + 1024; };
  auto fits = [&](const Shape& c) {
    const int sm = smem_of(c);
    return sm <= smem_cap && c.bps * (sm + kSmemReservedPerBlock + kSmemStatic) <= kSmemPerSm && c.lag >= 1 &&
           c.lag < c.stages && c.stages <= kCopyBandwidthMaxStages && tx % static_cast<uint64_t>(c.boxes) == 0;
  };
  // Launches kernel k once unmeasured, then `iters` times; *ms_out is the time of the `iters`.
  auto time_launches = [&](Gpu::KernelId k, const LaunchShape& sh, void** args, int iters, float* ms_out) {
    bool ok = Ok(gpu.Launch(k, sh, args), &err) && Ok(gpu.Sync(), &err) && Ok(gpu.Record(0), &err);
    for (int i = 0; ok && i < iters; ++i) ok = Ok(gpu.Launch(k, sh, args), &err);
    return ok && Ok(gpu.Record(1), &err) && Ok(gpu.Sync(), &err) && Ok(gpu.ElapsedMs(0, 1), ms_out, &err);
  };
  // Runs `iters` copies with shape c after one unmeasured copy; *ms_out is the time of the `iters`.
  auto time_shape = [&](const Shape& c, int iters, float* ms_out) {
    CopyBandwidthParams p{};
    p.tiles_x = static_cast<uint32_t>(tx / static_cast<uint64_t>(c.boxes));
    p.tiles_y = static_cast<uint32_t>(ty);
    p.box_x = bx;
    p.box_y = by;
    p.box_bytes = tile;
    p.boxes = static_cast<uint32_t>(c.boxes);
    p.stages = static_cast<uint32_t>(c.stages);
    p.lag = static_cast<uint32_t>(c.lag);
    p.flags = (c.store_warp ? kCopyBandwidthStoreWarp : 0) | (c.evict_last ? kCopyBandwidthLoadEvictLast : 0) |
              (c.linear ? kCopyBandwidthLinear : 0) | (c.one_way == 1 ? kCopyBandwidthLoadOnly : 0) |
              (c.one_way == 2 ? kCopyBandwidthStoreOnly : 0) | (c.taken ? kCopyBandwidthTaken : 0);
    p.src_addr = src;
    p.dst_addr = dst;
    p.sched_addr = sched;
    if (c.taken && !Ok(gpu.Memset(sched, 0, 256), &err)) return false;
    alignas(128) uint64_t ms[16], md[16];
    std::memcpy(ms, src_maps[c.promo].data(), 128);
    std::memcpy(md, dst_maps[c.promo].data(), 128);
    void* args[] = {ms, md, &p};
    LaunchShape sh;
    sh.grid = static_cast<uint32_t>(sms * c.bps);
    sh.block = c.store_warp && c.one_way == 0 ? 64 : 32;
    sh.smem = static_cast<uint32_t>(smem_of(c));
    return time_launches(Gpu::kCopyBandwidth, sh, args, iters, ms_out);
  };
  // The same for the SM copy kernel.
  auto time_sm = [&](const SmShape& c, int iters, float* ms_out) {
    SmCopyParams p{};
    p.src_addr = src;
    p.dst_addr = dst;
    p.count = bytes / 16;
    p.flags = c.streaming ? kSmCopyStreaming : 0;
    void* args[] = {&p};
    LaunchShape sh;
    sh.grid = static_cast<uint32_t>(sms * c.bps);
    sh.block = static_cast<uint32_t>(c.threads);
    sh.smem = 0;
    return time_launches(Gpu::kSmCopy, sh, args, iters, ms_out);
  };

  // Phase 1: pipeline shapes (boxes per stage, stages, blocks per SM, lag, issue scheme, group order) with the last
  // promotion candidate and the evict_last hint, which helped every measured shape. --stages and
  // --blocks-per-sm pin them.
  const int tuned_promo = static_cast<int>(promos.size()) - 1;
  std::vector<Shape> shapes;
  for (int boxes : {1, 2, 4}) {
    if (boxes > 1 && static_cast<uint64_t>(boxes) * row_bytes > kMaxGroupRowBytes) continue;
    for (int st : {2, 3, 4, 6, 8}) {
      if (opt.stages_set && st != opt.stages) continue;
      for (int b : {1, 2, 3, 4, 6}) {
        if (opt.blocks_per_sm > 0 && b != opt.blocks_per_sm) continue;
        const uint64_t in_flight = static_cast<uint64_t>(st) * boxes * tile * b;
        if (opt.blocks_per_sm == 0 && !opt.stages_set && (in_flight < kMinInFlight || in_flight > kMaxInFlight))
          continue;
        // Refill lag 1 or 2, one issuing thread or a load and a store warp, static or counter-taken order.
        for (int v = 0; v < 8; ++v) {
          Shape c;
          c.stages = st;
          c.lag = 1 + (v & 1);
          c.bps = b;
          c.boxes = boxes;
          c.store_warp = (v & 2) != 0;
          c.taken = (v & 4) != 0;
          c.evict_last = true;
          c.promo = tuned_promo;
          if (fits(c)) shapes.push_back(c);
        }
      }
    }
  }
  if (shapes.empty()) {
    std::fprintf(out, "tmapgen bench: no pipeline shape fits (tile %u bytes)\n", tile);
    return 2;
  }
  const bool progress = opt.progress;
  // The best of each kind of copy: the map's (TMA tensor loads and stores), then the same pipeline moving
  // contiguous pieces without a map (TMA bulk copies), then the SM copy kernel.
  Shape best = shapes[0], best_linear = shapes[0];
  float best_ms = 1e30f, best_linear_ms = 1e30f;
  size_t timed = 0, timed_linear = 0;
  auto consider = [&](Shape c, bool linear) {
    c.linear = linear;
    float t = 0;
    if (!time_shape(c, 2, &t)) return false;
    ++(linear ? timed_linear : timed);
    float& bt = linear ? best_linear_ms : best_ms;
    if (t < bt) {
      bt = t;
      (linear ? best_linear : best) = c;
    }
    return true;
  };
  const size_t steps = 2 * shapes.size() + std::size(kSmShapes) * 2;
  size_t step = 0;
  auto tick = [&]() {
    ++step;
    if (progress) std::fprintf(stderr, "\rtmapgen bench: tuning %zu/%zu", step, steps);
  };
  for (bool linear : {false, true}) {
    for (const Shape& c : shapes) {
      tick();
      if (!consider(c, linear)) {
        std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
        return 2;
      }
    }
    // Phase 2: the best shape without the hint and, for the map, with the other promotion.
    const Shape base = linear ? best_linear : best;
    for (int pr = 0; pr < static_cast<int>(linear ? 1 : promos.size()); ++pr) {
      for (bool el : {true, false}) {
        Shape c = base;
        c.promo = linear ? base.promo : pr;
        c.evict_last = el;
        if (c.promo == base.promo && c.evict_last == base.evict_last) continue;
        if (!consider(c, linear)) {
          std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
          return 2;
        }
      }
    }
  }
  SmShape best_sm;
  float best_sm_ms = 1e30f;
  for (const SmShape& base : kSmShapes) {
    for (bool streaming : {false, true}) {
      tick();
      SmShape c = base;
      c.streaming = streaming;
      float t = 0;
      if (!time_sm(c, 2, &t)) {
        std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
        return 2;
      }
      if (t < best_sm_ms) {
        best_sm_ms = t;
        best_sm = c;
      }
    }
  }
  if (progress) std::fprintf(stderr, "\r%40s\r", "");

  // Each chosen copy, checked: destination cleared, one copy, first and last 16 MiB compared with the source.
  float ignored = 0;
  bool ok = true;
  auto checked = [&](auto&& copy_once) {
    ok = ok && Ok(gpu.Memset(dst, 0, bytes), &err) && copy_once();
    return ok && dst_equal(&ok);
  };
  const bool same = checked([&] { return time_shape(best, 0, &ignored); });
  const bool same_linear = checked([&] { return time_shape(best_linear, 0, &ignored); });
  const bool same_sm = checked([&] { return time_sm(best_sm, 0, &ignored); });
  // Then alternating rounds of `iters` copies of each kind; the medians are reported.
  const int iters = std::max(1, opt.iters);
  const int rounds = std::max(1, opt.rounds);
  std::vector<float> tma_t, copy_t, linear_t, sm_t;
  for (int r = 0; ok && r < rounds; ++r) {
    float c = 0, t = 0, l = 0, m = 0;
    ok = ok && Ok(gpu.DtoD(dst, src, bytes), &err) && Ok(gpu.Sync(), &err) && Ok(gpu.Record(2), &err);
    for (int i = 0; ok && i < iters; ++i) ok = Ok(gpu.DtoD(dst, src, bytes), &err);
    ok = ok && Ok(gpu.Record(3), &err) && Ok(gpu.Sync(), &err) && Ok(gpu.ElapsedMs(2, 3), &c, &err);
    ok = ok && time_shape(best, iters, &t) && time_shape(best_linear, iters, &l) && time_sm(best_sm, iters, &m);
    copy_t.push_back(c);
    tma_t.push_back(t);
    linear_t.push_back(l);
    sm_t.push_back(m);
  }
  if (!ok) {
    std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
    return 2;
  }
  const double moved = 2.0 * static_cast<double>(bytes) * iters;
  auto gbs = [&](const std::vector<float>& t) { return moved / (Median(t) * 1e-3) / 1e9; };
  const double tma_bw = gbs(tma_t), copy_bw = gbs(copy_t), linear_bw = gbs(linear_t), sm_bw = gbs(sm_t);
  const double best_other = std::max(linear_bw, sm_bw);
  const std::string promo_name = std::string(ShortName(promos[best.promo]));
  std::fprintf(out, "bench on %s\n", gpu.Description().c_str());
  std::fprintf(out, "map: %s box %u x %u, swizzle %s, L2 promotion %s%s; tensor %llu x %llu (%.2f GiB)\n",
               std::string(ShortName(s.data_type)).c_str(), bx, by, std::string(ShortName(s.swizzle)).c_str(),
               promo_name.c_str(), promo_tuned ? " (tuned: the spec leaves it open)" : "",
               static_cast<unsigned long long>(dim0), static_cast<unsigned long long>(dim1), bytes / 1073741824.0);
  std::fprintf(out, "rows: %llu bytes (global_strides[0])\n", static_cast<unsigned long long>(dim0 * eb));
  std::fprintf(out, "shape: %d SMs x %s (best of %zu timed)\n", sms, ShapeText(best, tile).c_str(), timed);
  std::fprintf(out, "bulk copy shape: %d SMs x %s, contiguous pieces (best of %zu timed)\n", sms,
               ShapeText(best_linear, tile).c_str(), timed_linear);
  std::fprintf(out, "SM copy shape: %d SMs x %s (best of %zu timed)\n", sms, SmShapeText(best_sm).c_str(),
               2 * std::size(kSmShapes));
  std::fprintf(out, "| copy | time per copy | bandwidth (read + write) | of cuMemcpyDtoD |\n|---|---|---|---|\n");
  auto row = [&](const char* name, const std::vector<float>& t, double bw) {
    std::fprintf(out, "| %s | %.3f ms | %.0f GB/s | %.1f%% |\n", name, Median(t) / iters, bw, 100.0 * bw / copy_bw);
  };
  row("TMA load + store (this map)", tma_t, tma_bw);
  row("TMA bulk copy without a map (cp.async.bulk)", linear_t, linear_bw);
  row("SM copy kernel (16-byte loads and stores)", sm_t, sm_bw);
  row("cuMemcpyDtoD (the copy engines)", copy_t, copy_bw);
  const bool all_same = same && same_linear && same_sm;
  const std::string compared = opt.check_all ? "every byte of the copy (--check-all)"
                                             : "first and last " + std::to_string(probe) + " bytes of the copy";
  std::fprintf(out, "TMA copy / plain copy: %.1f%% (medians of %d alternating rounds of %d copies); %s %s the source\n",
               100.0 * tma_bw / copy_bw, rounds, iters, compared.c_str(), same ? "equal" : "DIFFER FROM");
  std::fprintf(out, "TMA copy / best SM-issued copy: %.1f%% (%s); the bulk copy's and the SM kernel's bytes %s the source\n",
               100.0 * tma_bw / best_other, linear_bw >= sm_bw ? "the TMA bulk copy" : "the SM copy kernel",
               same_linear && same_sm ? "equal" : "DIFFER FROM");
  // --one-way: the map's copy and the bulk copy split into their loads and their stores, with the chosen shapes
  // issued by one thread, timed in alternating rounds; bandwidth counts the bytes moved one way. Nothing is
  // checked (the loads write no output, the stores write whatever the stages hold): this says which side of
  // the copy costs what the map's boxes cost.
  if (opt.one_way) {
    struct Way {
      const char* name;
      Shape shape;
      std::vector<float> t;
    };
    std::vector<Way> ways;
    for (int w : {1, 2}) {
      for (bool linear : {false, true}) {
        Shape c = linear ? best_linear : best;
        c.one_way = w;
        c.store_warp = false;
        ways.push_back({w == 1 ? (linear ? "bulk loads (no map)" : "TMA loads (this map)")
                               : (linear ? "bulk stores (no map)" : "TMA stores (this map)"),
                        c, {}});
      }
    }
    for (int r = 0; ok && r < rounds; ++r)
      for (Way& w : ways) {
        float t = 0;
        ok = ok && time_shape(w.shape, iters, &t);
        w.t.push_back(t);
      }
    if (!ok) {
      std::fprintf(out, "tmapgen bench: %s\n", err.c_str());
      return 2;
    }
    const double one = static_cast<double>(bytes) * iters;
    std::fprintf(out, "one way (timing only, one issuing thread, the shapes above):\n");
    std::fprintf(out, "| side | time per pass | bandwidth (one way) | map / bulk |\n|---|---|---|---|\n");
    for (size_t k = 0; k < ways.size(); ++k) {
      const double bw = one / (Median(ways[k].t) * 1e-3) / 1e9;
      const double pair = one / (Median(ways[k ^ 1].t) * 1e-3) / 1e9;
      if (k % 2 == 0)
        std::fprintf(out, "| %s | %.3f ms | %.0f GB/s | %.1f%% |\n", ways[k].name, Median(ways[k].t) / iters, bw,
                     100.0 * bw / pair);
      else
        std::fprintf(out, "| %s | %.3f ms | %.0f GB/s | |\n", ways[k].name, Median(ways[k].t) / iters, bw);
    }
  }
  if (result != nullptr) {
    result->tma_gbs = tma_bw;
    result->copy_gbs = copy_bw;
    result->linear_gbs = linear_bw;
    result->sm_copy_gbs = sm_bw;
    result->promotion = promo_name;
    result->shape = ShapeText(best, tile);
    result->equal = all_same;
  }
  return all_same ? 0 : 1;
}

}  // namespace tmapgen::gpu
