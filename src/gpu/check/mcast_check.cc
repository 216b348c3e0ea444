#include "src/gpu/check/mcast_check.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "kernels/check_params.h"
#include "kernels/mcast_params.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/runtime/gpu_api.h"
#include "src/gpu/runtime/worker.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {
namespace {

constexpr int64_t kTimeoutCycles = 400000000;  // about 0.2 s at 1.98 GHz
// 227 KiB per block (cudaDevAttrMaxSharedMemoryPerBlockOptin on sm_90) less the kernel's 1 KiB of static
// shared memory and the 1 KiB the dynamic window may need to reach a 1024-byte boundary.
constexpr uint32_t kMaxWindow = 232448 - 2048;

bool Receives(const McastLoad& l, uint32_t issuer, uint32_t rank) {
  return l.mask != 0 ? ((l.mask >> rank) & 1u) != 0 : issuer == rank;
}

std::string Hex(const uint8_t* p, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

std::string MaskText(uint16_t m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", m);
  return b;
}

std::string LoadText(const McastJob& job, const McastLoad& l) {
  const TensorMapSpec& s = job.maps[l.map];
  std::string c;
  for (uint32_t i = 0; i < s.rank; ++i) c += StrCat(i ? ", " : "", l.in.coords[i]);
  return StrCat(s.name.empty() ? StrCat("map ", l.map) : s.name, " at (", c, ") -> +", l.in.smem_address,
                l.mask ? StrCat(" mask ", MaskText(l.mask)) : std::string(""));
}

std::vector<std::vector<uint8_t>> Globals(const McastJob& job, uint64_t seed) {
  std::vector<std::vector<uint8_t>> g(job.tensor_bytes.size());
  for (size_t t = 0; t < g.size(); ++t) {
    g[t].resize(job.tensor_bytes[t]);
    FillRandom(seed + 977 * t, g[t].data(), g[t].size());
  }
  return g;
}

// Compares a window from the GPU with the model's: untouched bytes must keep the sentinel, padding is not compared.
std::string CompareWindow(const McastJob& job, const McastRound& round, uint32_t rank, const McastWindow& want,
                          const uint8_t* got, uint64_t* differing) {
  *differing = 0;
  std::string first;
  int shown = 0;
  for (size_t i = 0; i < want.bytes.size(); ++i) {
    if (want.state[i] == model::kPadding || want.bytes[i] == got[i]) continue;
    ++*differing;
    if (shown++ >= 4) continue;
    // The load that writes the byte, for the report.
    std::string who = "no load (must keep the sentinel)";
    for (uint32_t q = 0; q < job.cluster; ++q)
      for (const McastLoad& l : round.loads[q]) {
        if (!Receives(l, q, rank) || i < l.in.smem_address) continue;
        const absl::StatusOr<model::CopyLayout> L = model::DescribeCopy(job.maps[l.map], l.in);
        if (L.ok() && i < l.in.smem_address + L->footprint_bytes) who = StrCat("CTA ", q, "'s ", LoadText(job, l));
      }
    const size_t n = std::min<size_t>(kMismatchWindow, want.bytes.size() - i);
    first += StrCat("byte ", i, " (", who, "): expected ", Hex(&want.bytes[i], n), ", got ", Hex(got + i, n), "\n");
  }
  return first;
}

Outcome ParseOutcome(const std::string& s) {
  for (Outcome o : {Outcome::kPass, Outcome::kFail, Outcome::kTimeout, Outcome::kFault, Outcome::kNotRun, Outcome::kError})
    if (s == OutcomeName(o)) return o;
  return Outcome::kError;
}

// One job on an open GPU; sends one "round rank OUTCOME|detail" text per CTA window. An error status on a CUDA
// error (the context is lost).
absl::Status RunJob(Gpu& gpu, const McastJob& job, uint64_t seed, const WorkerSend& send) {
  const std::vector<std::vector<uint8_t>> globals = Globals(job, seed);
  const uint32_t C = job.cluster, R = static_cast<uint32_t>(job.rounds.size());
  auto fail_all = [&](const std::string& why) {
    for (uint32_t j = 0; j < R; ++j)
      for (uint32_t r = 0; r < C; ++r) send(StrCat(j, " ", r, " ERROR|", why));
  };
  if (C < 1 || C > kMcastMaxCluster || R < 1 || R > kMcastMaxRounds || job.window == 0 || job.window > kMaxWindow) {
    fail_all("a job needs 1-8 CTAs, 1-16 rounds and a window of 1 byte to 227 KiB");
    return absl::OkStatus();
  }
  // Device memory: tensors, maps, copies, begin, expect, out, status.
  std::vector<uint64_t> tensor_off;
  uint64_t at = 0;
  for (const auto& g : globals) {
    tensor_off.push_back(at);
    at += (g.size() + 255) / 256 * 256;
  }
  std::vector<McastCopy> copies;
  std::vector<int32_t> begin;
  std::vector<uint32_t> expect;
  for (uint32_t j = 0; j < R; ++j)
    for (uint32_t r = 0; r < C; ++r) {
      begin.push_back(static_cast<int32_t>(copies.size()));
      expect.push_back(static_cast<uint32_t>(job.rounds[j].expect_tx[r]));
      for (const McastLoad& l : job.rounds[j].loads[r]) {
        McastCopy c;
        std::memset(&c, 0, sizeof c);
        c.map = static_cast<int32_t>(l.map);
        c.rank = static_cast<int32_t>(job.maps[l.map].rank);
        for (int i = 0; i < 5; ++i) c.coords[i] = l.in.coords[i];
        c.dst_offset = static_cast<uint32_t>(l.in.smem_address);
        c.mask = l.mask;
        copies.push_back(c);
      }
    }
  begin.push_back(static_cast<int32_t>(copies.size()));
  const uint64_t maps_off = at;
  at += 128 * job.maps.size();
  const uint64_t copies_off = (at + 255) / 256 * 256;
  at = copies_off + sizeof(McastCopy) * copies.size();
  const uint64_t begin_off = (at + 255) / 256 * 256;
  at = begin_off + 4 * begin.size();
  const uint64_t expect_off = (at + 255) / 256 * 256;
  at = expect_off + 4 * expect.size();
  const uint64_t status_off = (at + 255) / 256 * 256;
  at = status_off + 4 * expect.size();
  const uint64_t out_off = (at + 255) / 256 * 256;
  const uint64_t out_bytes = uint64_t{job.window} * R * C;
  at = out_off + out_bytes;
  const absl::StatusOr<uint64_t> alloc = gpu.Alloc(at);
  if (!alloc.ok()) return alloc.status();
  const uint64_t dev = *alloc;
  std::vector<uint8_t> host(out_off, 0);
  for (size_t t = 0; t < globals.size(); ++t) std::memcpy(host.data() + tensor_off[t], globals[t].data(), globals[t].size());
  for (size_t m = 0; m < job.maps.size(); ++m) {
    const auto enc = EncodeSpec(driver::CudaDriver::Get(), job.maps[m], dev + tensor_off[job.map_tensor[m]]);
    if (!enc.ok()) {
      gpu.Free(dev);
      fail_all(StrCat("the driver rejects map ", job.maps[m].name, ": ", enc.message));
      return absl::OkStatus();
    }
    std::memcpy(host.data() + maps_off + 128 * m, enc.map, 128);
  }
  std::memcpy(host.data() + copies_off, copies.data(), sizeof(McastCopy) * copies.size());
  std::memcpy(host.data() + begin_off, begin.data(), 4 * begin.size());
  std::memcpy(host.data() + expect_off, expect.data(), 4 * expect.size());
  if (absl::Status st = gpu.HtoD(dev, host.data(), host.size()); !st.ok()) return st;
  McastCheckParams p;
  std::memset(&p, 0, sizeof p);
  p.rounds = static_cast<int32_t>(R);
  p.window = job.window;
  p.timeout_cycles = kTimeoutCycles;
  p.maps = dev + maps_off;
  p.copies = dev + copies_off;
  p.begin = dev + begin_off;
  p.expect_tx = dev + expect_off;
  p.out = dev + out_off;
  p.status = dev + status_off;
  void* args[] = {&p};
  LaunchShape sh;
  sh.grid = C;
  sh.block = 128;
  sh.smem = job.window + 1024;
  sh.cluster = C;
  if (absl::Status st = gpu.SetMaxDynamicSmem(Gpu::kMcastCheck, static_cast<int>(sh.smem)); !st.ok()) return st;
  if (absl::Status st = gpu.Launch(Gpu::kMcastCheck, sh, args); !st.ok()) return st;
  if (absl::Status st = gpu.Sync(); !st.ok()) return st;
  std::vector<uint8_t> out(out_bytes);
  std::vector<int32_t> status(expect.size());
  if (absl::Status st = gpu.DtoH(out.data(), dev + out_off, out.size()); !st.ok()) return st;
  if (absl::Status st = gpu.DtoH(status.data(), dev + status_off, 4 * status.size()); !st.ok()) return st;
  gpu.Free(dev);
  for (uint32_t j = 0; j < R; ++j)
    for (uint32_t r = 0; r < C; ++r) {
      const size_t slot = size_t{j} * C + r;
      McastWindow want;
      Outcome o = Outcome::kPass;
      std::string detail;
      if (const absl::Status st = ModelWindow(job, globals, j, r, &want); !st.ok()) {
        o = Outcome::kError;
        detail = StrCat("model: ", StatusMessage(st));
      } else if (status[slot] == kTmaStatusTimeout) {
        o = Outcome::kTimeout;
        detail = StrCat("the barrier armed with ", expect[slot], " bytes did not complete (the model delivers ",
                        want.received_tx, ")");
      } else if (status[slot] != kTmaStatusDone) {
        o = Outcome::kError;
        detail = StrCat("the kernel did not report a status (", status[slot], ")");
      } else {
        uint64_t differing = 0;
        const std::string diff = CompareWindow(job, job.rounds[j], r, want, out.data() + slot * job.window, &differing);
        if (differing == 0) {
          detail = want.loads_received == 0
                       ? StrCat(job.window, " bytes untouched (not a receiver)")
                       : StrCat(want.received_tx, " B from ", want.loads_received, " load(s), armed ", expect[slot]);
        } else {
          o = Outcome::kFail;
          detail = StrCat(differing, " of ", job.window, " bytes differ\n", diff);
        }
      }
      send(StrCat(j, " ", r, " ", OutcomeName(o), "|", detail));
    }
  return absl::OkStatus();
}

bool JobPassed(const McastJob& job, const McastJobResult& res) {
  for (size_t j = 0; j < res.cells.size(); ++j)
    for (size_t r = 0; r < res.cells[j].size(); ++r) {
      const Outcome want = job.control && j == 0 && r == job.control_rank ? Outcome::kTimeout : Outcome::kPass;
      if (res.cells[j][r].outcome != want) return false;
    }
  return !res.cells.empty();
}

}  // namespace

absl::Status ModelWindow(const McastJob& job, const std::vector<std::vector<uint8_t>>& globals, size_t round,
                         uint32_t rank, McastWindow* out, bool reference) {
  *out = McastWindow();
  out->bytes.assign(job.window, kSentinelByte);
  out->state.assign(job.window, model::kUntouched);
  if (round >= job.rounds.size() || rank >= job.cluster) return absl::InvalidArgumentError("no such round or CTA");
  const McastRound& r = job.rounds[round];
  std::vector<uint8_t> writes(job.window, 0);
  model::SmemImage img;
  auto lay = [&](const McastLoad& l) -> absl::Status {
    if (l.map >= job.maps.size()) return absl::InvalidArgumentError(StrCat("map ", l.map, " does not exist"));
    const std::vector<uint8_t>& g = globals[job.map_tensor[l.map]];
    if (absl::Status st = model::ModelLoad(job.maps[l.map], l.in, g.data(), g.size(), &img); !st.ok())
      return Annotate(st, LoadText(job, l));
    out->received_tx += img.transaction_bytes;
    ++out->loads_received;
    for (size_t i = 0; i < img.bytes.size(); ++i) {
      if (img.state[i] == model::kUntouched) continue;
      const uint64_t at = l.in.smem_address + i;
      if (at >= job.window)
        return absl::InvalidArgumentError(StrCat(LoadText(job, l), " writes past the window of ", job.window, " bytes"));
      if (writes[at]++ != 0) ++out->overlap_bytes;
      out->bytes[at] = img.bytes[i];
      out->state[at] = img.state[i];
    }
    return absl::OkStatus();
  };
  if (reference) {
    if (rank < r.reference.size())
      for (const McastLoad& l : r.reference[rank])
        if (absl::Status st = lay(l); !st.ok()) return st;
    return absl::OkStatus();
  }
  for (uint32_t q = 0; q < job.cluster && q < r.loads.size(); ++q)
    for (const McastLoad& l : r.loads[q])
      if (Receives(l, q, rank))
        if (absl::Status st = lay(l); !st.ok()) return st;
  return absl::OkStatus();
}

std::vector<std::string> CheckMcastJob(const McastJob& job, uint64_t seed) {
  std::vector<std::string> out;
  const std::vector<std::vector<uint8_t>> globals = Globals(job, seed);
  for (size_t j = 0; j < job.rounds.size(); ++j) {
    const McastRound& round = job.rounds[j];
    for (uint32_t r = 0; r < job.cluster; ++r) {
      const std::string at = StrCat(round.label, ", CTA ", r, ": ");
      McastWindow w;
      if (absl::Status st = ModelWindow(job, globals, j, r, &w); !st.ok()) {
        out.push_back(at + std::string(StatusMessage(st)));
        continue;
      }
      const bool control = job.control && j == 0 && r == job.control_rank;
      if (!control && r < round.expect_tx.size() && round.expect_tx[r] != w.received_tx)
        out.push_back(StrCat(at, "its barrier is armed with ", round.expect_tx[r], " bytes; the model delivers ",
                             w.received_tx, " (", w.loads_received, " load(s))"));
      if (w.overlap_bytes != 0)
        out.push_back(StrCat(at, w.overlap_bytes, " bytes are written by more than one load"));
      if (r < round.reference.size() && !round.reference[r].empty()) {
        McastWindow ref;
        if (absl::Status st = ModelWindow(job, globals, j, r, &ref, true); !st.ok()) {
          out.push_back(at + "reference: " + std::string(StatusMessage(st)));
          continue;
        }
        size_t first = w.bytes.size();
        uint64_t n = 0;
        for (size_t i = 0; i < w.bytes.size(); ++i)
          if (w.bytes[i] != ref.bytes[i] || w.state[i] != ref.state[i]) {
            if (first == w.bytes.size()) first = i;
            ++n;
          }
        if (n != 0)
          out.push_back(StrCat(at, n, " bytes differ from the whole tiles loaded without multicast (first at +", first,
                               ")"));
      }
    }
  }
  return out;
}

absl::StatusOr<uint32_t> McastWindowBytes(const McastJob& job) {
  uint64_t end = 0;
  auto take = [&](const McastLoad& l) -> absl::Status {
    if (l.map >= job.maps.size()) return absl::InvalidArgumentError(StrCat("map ", l.map, " does not exist"));
    const absl::StatusOr<model::CopyLayout> L = model::DescribeCopy(job.maps[l.map], l.in);
    if (!L.ok()) return Annotate(L.status(), LoadText(job, l));
    end = std::max<uint64_t>(end, l.in.smem_address + L->footprint_bytes);
    return absl::OkStatus();
  };
  for (const McastRound& r : job.rounds) {
    for (const auto& v : r.loads)
      for (const McastLoad& l : v)
        if (absl::Status st = take(l); !st.ok()) return st;
    for (const auto& v : r.reference)
      for (const McastLoad& l : v)
        if (absl::Status st = take(l); !st.ok()) return st;
  }
  end = (end + 15) / 16 * 16;
  if (end > kMaxWindow)
    return absl::InvalidArgumentError(
        StrCat("the loads span ", end, " bytes of shared memory; one block may have ", kMaxWindow,
               " (227 KiB less 2 KiB for the kernel's barriers and the 1024-byte alignment)"));
  return static_cast<uint32_t>(end);
}

absl::Status FinishMcastJob(McastJob* job) {
  job->tensor_bytes.assign(job->tensor_bytes.size(), 0);
  for (const McastRound& r : job->rounds)
    for (const auto* set : {&r.loads, &r.reference})
      for (const auto& v : *set)
        for (const McastLoad& l : v) {
          const absl::StatusOr<model::CopyLayout> L = model::DescribeCopy(job->maps[l.map], l.in);
          if (!L.ok()) return Annotate(L.status(), LoadText(*job, l));
          uint64_t& t = job->tensor_bytes[job->map_tensor[l.map]];
          t = std::max<uint64_t>(t, L->required_global_bytes);
        }
  const absl::StatusOr<uint32_t> w = McastWindowBytes(*job);
  if (!w.ok()) return w.status();
  job->window = *w;
  return absl::OkStatus();
}

McastJob NegativeControl(const McastJob& job, uint32_t rank) {
  McastJob c = job;
  c.rounds.resize(1);
  c.control = true;
  c.control_rank = rank;
  c.rounds[0].expect_tx[rank] += 16;
  c.label = StrCat("negative control: ", job.rounds[0].label, " of ", job.label, " with CTA ", rank,
                   "'s barrier armed with 16 bytes more than its loads bring (must be TIMEOUT; the others PASS)");
  return c;
}

absl::StatusOr<std::vector<McastJob>> SingleMapJobs(const TensorMapSpec& in_spec, uint32_t cluster, uint16_t mask) {
  if (cluster < 2 || cluster > kMcastMaxCluster)
    return absl::InvalidArgumentError(StrCat("--multicast: a cluster of 2 to 8 CTAs, not ", cluster));
  const uint16_t all = static_cast<uint16_t>((1u << cluster) - 1);
  if (mask == 0) mask = all;
  if ((mask & ~all) != 0)
    return absl::InvalidArgumentError(StrCat("--mask: ", MaskText(mask), " names CTAs beyond a cluster of ", cluster));
  if (in_spec.mode != Mode::kTiled)
    return absl::InvalidArgumentError("--multicast: a tiled map (multicast im2col loads are not checked yet)");
  TensorMapSpec spec = in_spec;
  spec.direction = Direction::kLoadCluster;
  spec.set_fields |= kFieldDirection;
  Validation v;
  Validate(spec, &v);
  if (!v.valid)
    return absl::InvalidArgumentError(
        "the spec does not validate as a .shared::cluster load (tmapgen validate with \"direction\": \"load_cluster\" says why)");
  model::CopyInstruction base = model::DefaultInstruction(spec);
  base.mode = model::CopyMode::kTile;
  base.direction = Direction::kLoadCluster;
  std::vector<model::CopyInstruction> coords;
  for (model::CopyInstruction in : CoordinateSet(spec, base)) {
    if (!model::DescribeCopy(spec, in).ok()) {
      in.smem_address = 1024;
      if (!model::DescribeCopy(spec, in).ok()) continue;
    }
    coords.push_back(in);
  }
  if (coords.empty()) return absl::InvalidArgumentError("the model accepts no coordinate of this spec");
  std::vector<McastJob> jobs;
  for (size_t k = 0; k < coords.size(); k += kMcastMaxRounds) {
    McastJob job;
    job.cluster = cluster;
    job.maps = {spec};
    job.map_tensor = {0};
    job.tensor_bytes = {0};
    job.label = StrCat(spec.name.empty() ? std::string("spec") : spec.name, ": cluster of ", cluster, ", mask ",
                       MaskText(mask), ", coordinates ", k + 1, "-", std::min(coords.size(), k + kMcastMaxRounds), " of ",
                       coords.size());
    for (size_t i = k; i < coords.size() && i < k + kMcastMaxRounds; ++i) {
      McastRound r;
      const uint32_t issuer = static_cast<uint32_t>(i % cluster);
      r.label = StrCat("(", CoordText(spec, coords[i]), ") from CTA ", issuer);
      r.loads.assign(cluster, {});
      r.loads[issuer].push_back(McastLoad{0, coords[i], mask});
      r.expect_tx.assign(cluster, 0);
      job.rounds.push_back(r);
    }
    if (absl::Status st = FinishMcastJob(&job); !st.ok()) return st;
    // Each receiver is armed with the model's count.
    const std::vector<std::vector<uint8_t>> globals = Globals(job, 0);
    for (size_t j = 0; j < job.rounds.size(); ++j)
      for (uint32_t r = 0; r < cluster; ++r) {
        McastWindow w;
        if (absl::Status st = ModelWindow(job, globals, j, r, &w); !st.ok()) return st;
        job.rounds[j].expect_tx[r] = w.received_tx;
      }
    jobs.push_back(std::move(job));
  }
  // The control: the last receiver of the first round armed with 16 bytes too many.
  uint32_t last = 0;
  for (uint32_t r = 0; r < cluster; ++r)
    if ((mask >> r) & 1u) last = r;
  jobs.push_back(NegativeControl(jobs.front(), last));
  return jobs;
}

void RunMcastJobs(const std::vector<McastJob>& jobs, uint64_t seed, int watchdog_s, McastReport* report) {
  *report = McastReport();
  report->jobs.resize(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i)
    report->jobs[i].cells.assign(jobs[i].rounds.size(), std::vector<McastCell>(jobs[i].cluster, McastCell{Outcome::kError, "no result"}));
  std::unique_ptr<Gpu> gpu;  // opened in each child
  WorkerCallbacks cb;
  cb.open = [&gpu] { return Gpu::OpenNew(&gpu); };
  cb.run = [&](size_t i, const WorkerSend& send) { return RunJob(*gpu, jobs[i], seed, send); };
  cb.on_line = [report](size_t i, const std::string& text) {
    unsigned j = 0, k = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%u %u %n", &j, &k, &used) >= 2 && j < report->jobs[i].cells.size() &&
        k < report->jobs[i].cells[j].size()) {
      const std::string body = text.substr(static_cast<size_t>(used));
      const size_t bar = body.find('|');
      McastCell& c = report->jobs[i].cells[j][k];
      c.outcome = ParseOutcome(body.substr(0, bar));
      c.detail = bar == std::string::npos ? "" : body.substr(bar + 1);
    }
  };
  cb.on_fault = [report](size_t i, const std::string& message) {
    for (auto& row : report->jobs[i].cells)
      for (auto& c : row) c = McastCell{Outcome::kFault, message};
  };
  cb.on_death = [report, watchdog_s](size_t i, const WorkerDeath& death) {
    const std::string d = death.hung ? "the check process hung (watchdog of " + std::to_string(watchdog_s) + " s)"
                                     : "the check process died";
    for (auto& row : report->jobs[i].cells)
      for (auto& c : row) c = McastCell{Outcome::kFault, d};
  };
  const WorkerRun run = RunWorker(jobs.size(), watchdog_s > 0 ? watchdog_s : 60, cb);
  report->children = run.children;
  report->device = run.device;
  report->ran = run.opened;
  report->why_not = !run.opened && run.why_not.empty() && run.children > 0 ? "the check process died before opening the GPU"
                                                                           : run.why_not;
  if (!run.why_not.empty() || !run.opened) return;
  for (size_t i = 0; i < jobs.size(); ++i) report->jobs[i].passed = JobPassed(jobs[i], report->jobs[i]);
}

int PrintMcastReport(const std::string& title, const std::vector<McastJob>& jobs, const McastReport& rep, FILE* out) {
  if (!rep.ran) {
    std::fprintf(out, "multicast check: not run on hardware: %s\n", rep.why_not.c_str());
    return 2;
  }
  std::fprintf(out, "multicast check on %s: %s\n", rep.device.c_str(), title.c_str());
  size_t passed = 0, cells = 0, cells_ok = 0, controls = 0, controls_ok = 0;
  for (size_t i = 0; i < jobs.size() && i < rep.jobs.size(); ++i) {
    const McastJob& job = jobs[i];
    const McastJobResult& res = rep.jobs[i];
    passed += res.passed;
    std::fprintf(out, "  %s: %s\n", job.label.c_str(), res.passed ? "PASS" : "FAIL");
    for (size_t j = 0; j < res.cells.size(); ++j) {
      std::fprintf(out, "    %s\n", job.rounds[j].label.c_str());
      for (size_t r = 0; r < res.cells[j].size(); ++r) {
        const McastCell& c = res.cells[j][r];
        if (job.control && j == 0 && r == job.control_rank) {
          ++controls;
          controls_ok += c.outcome == Outcome::kTimeout;
        } else {
          ++cells;
          cells_ok += c.outcome == Outcome::kPass;
        }
        std::string d = c.detail;
        while (!d.empty() && d.back() == '\n') d.pop_back();
        for (size_t p = 0; (p = d.find('\n', p)) != std::string::npos; p += 9) d.replace(p, 1, "\n        ");
        std::fprintf(out, "      CTA %zu %-7s %s\n", r, OutcomeName(c.outcome), d.c_str());
      }
    }
  }
  std::fprintf(out,
               "multicast check: %zu of %zu launches as expected (%zu of %zu CTA windows PASS, %zu of %zu negative controls "
               "TIMEOUT); %d check process(es)\n",
               passed, jobs.size(), cells_ok, cells, controls_ok, controls, rep.children);
  return passed == jobs.size() ? 0 : 1;
}

}  // namespace tmapgen::gpu
