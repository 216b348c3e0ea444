#include "src/gpu/check/check_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernels/check_params.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/runtime/gpu_api.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "PASS";
    case Outcome::kFail: return "FAIL";
    case Outcome::kTimeout: return "TIMEOUT";
    case Outcome::kFault: return "FAULT";
    case Outcome::kNotRun: return "NOT RUN";
    case Outcome::kError: return "ERROR";
  }
  return "?";
}

namespace {

using model::CopyMode;

uint64_t Up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

int KindOf(const CheckCase& c) {
  const bool load = IsLoad(c.in.direction);
  switch (c.in.mode) {
    case CopyMode::kTile:
      if (load) return c.prefetch ? kTmaKindPrefetchTileLoad : kTmaKindTileLoad;
      return c.in.direction == Direction::kReduce ? kTmaKindTileReduce : kTmaKindTileStore;
    case CopyMode::kIm2col: return kTmaKindIm2colLoad;
    case CopyMode::kIm2colNoOffs:
      return c.in.direction == Direction::kReduce ? kTmaKindIm2colNoOffsReduce : kTmaKindIm2colNoOffsStore;
    case CopyMode::kTileGather4: return kTmaKindGather4Load;
    case CopyMode::kTileScatter4: return kTmaKindScatter4Store;
    case CopyMode::kIm2colW: return kTmaKindIm2colWLoad;
    case CopyMode::kIm2colW128: return kTmaKindIm2colW128Load;
  }
  return kTmaKindTileLoad;
}

std::string Escape(std::string s) {
  for (char& ch : s)
    if (ch == '\n') ch = '\x1f';
  return s;
}
std::string Unescape(std::string s) {
  for (char& ch : s)
    if (ch == '\x1f') ch = '\n';
  return s;
}
// Bytes as hex digits for the "M" line ("-" for none, so that the line always has its fields).
std::string HexBytes(const std::string& b) {
  if (b.empty()) return "-";
  static const char kDigits[] = "0123456789abcdef";
  std::string o;
  for (unsigned char c : b) {
    o.push_back(kDigits[c >> 4]);
    o.push_back(kDigits[c & 15]);
  }
  return o;
}
std::string FromHexBytes(const std::string& h) {
  auto v = [](char c) { return c >= 'a' ? c - 'a' + 10 : c - '0'; };
  std::string o;
  for (size_t i = 0; i + 1 < h.size(); i += 2) o.push_back(static_cast<char>((v(h[i]) << 4) | v(h[i + 1])));
  return o;
}

// ------------------------------------------------------------------------------------------ the child side
class Executor {
 public:
  explicit Executor(FILE* out) : out_(out) {}

  absl::Status Open() {
    if (absl::Status st = gpu_.Open(); !st.ok()) return st;
    // The kernels' static shared memory (the mbarrier, padded to the 1024-byte alignment of the dynamic part)
    // counts against the opt-in limit.
    max_smem_ = gpu_.device().max_smem_per_block_optin - 2048;
    if (absl::Status st = gpu_.SetMaxDynamicSmem(Gpu::kCheck, max_smem_); !st.ok()) return st;
    return gpu_.SetMaxDynamicSmem(Gpu::kCheckBatch, max_smem_);
  }
  Gpu& gpu() { return gpu_; }

  // Runs cases [first, last]; writes one "R" line per case. An error after a CUDA error (a fault: the
  // context is lost).
  absl::Status RunUnit(const std::vector<CheckCase>& cases, size_t first, size_t last, const RunOptions& opt);

 private:
  struct Slot {
    size_t idx;
    model::CopyLayout L;
    uint64_t goff = 0, gsize = 0, out_off = 0, in_off = 0;
    std::vector<uint8_t> global;
    std::vector<uint8_t> smem_in;
  };
  void Emit(size_t idx, Outcome o, const std::string& detail) {
    std::fprintf(out_, "R %zu %d %s\n", idx, static_cast<int>(o), Escape(detail).c_str());
  }
  // The first difference of a failed comparison, before its "R" line:
  // "M idx global offset differing compared EXPECTED_HEX ACTUAL_HEX".
  void EmitMismatch(size_t idx, const Mismatch& m) {
    if (!m.present) return;
    std::fprintf(out_, "M %zu %d %llu %llu %llu %s %s\n", idx, m.global ? 1 : 0, static_cast<unsigned long long>(m.offset),
                 static_cast<unsigned long long>(m.differing), static_cast<unsigned long long>(m.compared),
                 HexBytes(m.expected).c_str(), HexBytes(m.actual).c_str());
  }
  absl::Status Ensure(size_t bytes) {
    if (bytes <= cap_) return absl::OkStatus();
    if (buf_) gpu_.Free(buf_);
    buf_ = 0;
    cap_ = 0;
    const size_t want = std::max<size_t>(bytes, 64u << 20);
    absl::StatusOr<uint64_t> buf = gpu_.Alloc(want);
    if (!buf.ok()) return buf.status();
    buf_ = *buf;
    cap_ = want;
    return absl::OkStatus();
  }
  std::string NotRunDetail(const CheckCase& c, const Slot& s, const std::string& why);

  FILE* out_;
  Gpu gpu_;
  int max_smem_ = 0;
  uint64_t buf_ = 0;
  size_t cap_ = 0;
  std::vector<uint8_t> staging_, back_;
};

std::string Executor::NotRunDetail(const CheckCase& c, const Slot& s, const std::string& why) {
  std::string d = "not run on hardware: " + why;
  const auto enc = EncodeSpec(driver::CudaDriver::Get(), c.spec, kPlaceholderAddress);
  d += enc.ok() ? "; driver encode: ok" : "; driver encode: rejected (" + enc.message + ")";
  if (IsLoad(c.in.direction)) {
    model::SmemImage img;
    const absl::Status st = model::ModelLoad(c.spec, c.in, s.global.data(), s.global.size(), &img);
    d += st.ok() ? "; model: " + std::to_string(img.transaction_bytes) + " transaction bytes"
                 : StrCat("; model: ", StatusMessage(st));
  } else {
    std::vector<uint8_t> g = s.global;
    std::vector<uint8_t> smem(s.L.footprint_bytes);
    FillRandom(c.seed + 1, smem.data(), smem.size());
    model::StoreResult sr;
    const absl::Status st = model::ModelStore(c.spec, c.in, smem.data(), smem.size(), g.data(), g.size(), nullptr, &sr);
    d += st.ok() ? "; model: " + std::to_string(sr.bytes_written) + " bytes written"
                 : StrCat("; model: ", StatusMessage(st));
  }
  return d;
}

absl::Status Executor::RunUnit(const std::vector<CheckCase>& cases, size_t first, size_t last,
                               const RunOptions& opt) {
  const auto& dev = gpu_.device();
  std::vector<Slot> slots;
  slots.reserve(last - first + 1);
  const size_t n_max = last - first + 1;
  // Layout: [params][maps][status][outs][smem inputs][globals].
  uint64_t off = Up(n_max * sizeof(TmaCheckParams), 256);
  const uint64_t maps_off = off;
  off += n_max * 128;
  const uint64_t status_off = off;
  off = Up(off + n_max * 4, 256);
  std::vector<size_t> runnable;
  for (size_t i = first; i <= last; ++i) {
    const CheckCase& c = cases[i];
    Slot s;
    s.idx = i;
    absl::StatusOr<model::CopyLayout> layout = model::DescribeCopy(c.spec, c.in);
    if (!layout.ok() && c.force_run) {
      model::CopyInstruction aligned = c.in;
      aligned.coords[0] = 0;
      layout = model::DescribeCopy(c.spec, aligned);
    }
    if (!layout.ok()) {
      Emit(i, Outcome::kError, StrCat("model refuses the copy: ", StatusMessage(layout.status())));
      continue;
    }
    s.L = *layout;
    s.gsize = Up(std::max<uint64_t>(s.L.required_global_bytes, 16), 16);
    s.global.resize(s.gsize);
    FillRandom(c.seed, s.global.data(), s.global.size());
    const std::string req = HardwareRequirement(c.spec, c.in, dev.cc_major, dev.cc_minor);
    const uint64_t need_smem = c.in.smem_address % 1024 + s.L.footprint_bytes + 1024;
    if (!req.empty()) {
      Emit(i, Outcome::kNotRun, NotRunDetail(c, s, req));
      continue;
    }
    if (need_smem > static_cast<uint64_t>(max_smem_)) {
      Emit(i, Outcome::kNotRun, NotRunDetail(c, s, "needs " + std::to_string(need_smem) +
                                                       " bytes of shared memory; the kernel has " +
                                                       std::to_string(max_smem_)));
      continue;
    }
    slots.push_back(std::move(s));
  }
  if (slots.empty()) return absl::OkStatus();
  for (Slot& s : slots) {
    s.out_off = off;
    off = Up(off + s.L.footprint_bytes, 256);
  }
  const uint64_t upload_from = off;
  for (Slot& s : slots) {
    if (!IsLoad(cases[s.idx].in.direction)) {
      s.in_off = off;
      s.smem_in.resize(s.L.footprint_bytes);
      FillRandom(cases[s.idx].seed + 1, s.smem_in.data(), s.smem_in.size());
      off = Up(off + s.smem_in.size(), 256);
    }
  }
  for (Slot& s : slots) {
    s.goff = off;
    off = Up(off + s.gsize, 256);
  }
  const uint64_t total = off;
  if (absl::Status st = Ensure(total); !st.ok()) return st;
  // Header: params and maps.
  const size_t n = slots.size();
  staging_.assign(upload_from, 0);
  std::vector<TmaCheckParams> params(n);
  std::vector<std::array<uint64_t, 16>> maps(n);
  uint32_t smem_bytes = 0;
  bool cluster = false;
  for (size_t k = 0; k < n; ++k) {
    Slot& s = slots[k];
    const CheckCase& c = cases[s.idx];
    const auto enc = EncodeSpec(driver::CudaDriver::Get(), c.spec, buf_ + s.goff);
    if (!enc.ok()) {
      // The validator called this spec valid; the driver disagrees: a finding.
      Emit(s.idx, Outcome::kFail, "the driver rejects a spec the validator accepts: " + enc.message);
      s.idx = SIZE_MAX;
      continue;
    }
    std::memcpy(maps[k].data(), enc.map, 128);
    TmaCheckParams& p = params[k];
    std::memset(&p, 0, sizeof p);
    p.kind = KindOf(c);
    p.rank = static_cast<int32_t>(c.spec.rank);
    p.op = static_cast<int32_t>(c.in.reduce_op);
    p.flags = c.in.direction == Direction::kLoadCluster ? kTmaFlagCluster : 0;
    cluster = cluster || p.flags;
    for (int d = 0; d < 5; ++d) p.coords[d] = c.in.coords[d];
    if (c.in.mode == CopyMode::kTileGather4 || c.in.mode == CopyMode::kTileScatter4) {
      for (int d = 0; d < 4; ++d) p.rows[d] = c.in.rows[d];
    }
    for (int d = 0; d < 3; ++d) p.offs[d] = c.in.im2col_offsets[d];
    p.w_halo = c.in.w_halo;
    p.w_offset = c.in.w_offset;
    p.dst_offset = static_cast<uint32_t>(c.in.smem_address % 1024);
    p.tx_bytes = static_cast<uint32_t>(static_cast<int64_t>(s.L.transaction_bytes) + c.tx_delta);
    p.footprint = static_cast<uint32_t>(s.L.footprint_bytes);
    p.timeout_cycles = opt.timeout_cycles;
    p.map = buf_ + maps_off + k * 128;
    p.smem_in = s.in_off ? buf_ + s.in_off : 0;
    p.out = buf_ + s.out_off;
    p.status = buf_ + status_off + k * 4;
    smem_bytes = std::max<uint32_t>(smem_bytes, p.dst_offset + p.footprint + 1024);
  }
  // Drop the cases the driver refused (their params stay but are never launched: compact).
  std::vector<size_t> keep;
  for (size_t k = 0; k < n; ++k)
    if (slots[k].idx != SIZE_MAX) keep.push_back(k);
  if (keep.empty()) return absl::OkStatus();
  std::vector<TmaCheckParams> kp;
  for (size_t k : keep) kp.push_back(params[k]);
  std::memcpy(staging_.data(), kp.data(), kp.size() * sizeof(TmaCheckParams));
  for (size_t k = 0; k < n; ++k) std::memcpy(staging_.data() + maps_off + k * 128, maps[k].data(), 128);
  std::memset(staging_.data() + status_off, 0, n * 4);
  // Body: smem inputs and globals.
  std::vector<uint8_t> body(total - upload_from);
  for (const Slot& s : slots) {
    if (!s.smem_in.empty()) std::memcpy(body.data() + (s.in_off - upload_from), s.smem_in.data(), s.smem_in.size());
    std::memcpy(body.data() + (s.goff - upload_from), s.global.data(), s.global.size());
  }
  if (absl::Status st = gpu_.HtoD(buf_, staging_.data(), staging_.size()); !st.ok()) return st;
  if (absl::Status st = gpu_.HtoD(buf_ + upload_from, body.data(), body.size()); !st.ok()) return st;
  if (keep.size() == 1 && opt.unit == 1) {
    alignas(128) uint64_t map[16];
    std::memcpy(map, maps[keep[0]].data(), 128);
    TmaCheckParams p = kp[0];
    void* args[] = {map, &p};
    LaunchShape sh;
    sh.grid = cluster ? 2 : 1;
    sh.cluster = cluster ? 2 : 0;
    sh.smem = smem_bytes;
    if (absl::Status st = gpu_.Launch(Gpu::kCheck, sh, args); !st.ok()) return st;
  } else {
    uint64_t pp = buf_;
    int count = static_cast<int>(kp.size());
    void* args[] = {&pp, &count};
    LaunchShape sh;
    sh.grid = static_cast<uint32_t>(count);
    sh.smem = smem_bytes;
    if (absl::Status st = gpu_.Launch(Gpu::kCheckBatch, sh, args); !st.ok()) return st;
  }
  if (absl::Status st = gpu_.Sync(); !st.ok()) return st;
  back_.resize(total - status_off);
  if (absl::Status st = gpu_.DtoH(back_.data(), buf_ + status_off, back_.size()); !st.ok()) return st;
  for (size_t j = 0; j < keep.size(); ++j) {
    const Slot& s = slots[keep[j]];
    const CheckCase& c = cases[s.idx];
    int32_t st;
    // The status word of the j-th launched block sits at kp[j].status.
    std::memcpy(&st, back_.data() + (kp[j].status - buf_ - status_off), 4);
    if (st == kTmaStatusTimeout) {
      Emit(s.idx, Outcome::kTimeout,
           "the mbarrier did not complete: the copy did not deliver the model's " +
               std::to_string(s.L.transaction_bytes) + " transaction bytes");
      continue;
    }
    if (st == kTmaStatusUnsupported) {
      Emit(s.idx, Outcome::kNotRun, "not run on hardware: this form is not in the kernel image for this GPU");
      continue;
    }
    if (st != kTmaStatusDone) {
      Emit(s.idx, Outcome::kError, "the kernel did not report a status (" + std::to_string(st) + ")");
      continue;
    }
    if (c.force_run) {
      Emit(s.idx, Outcome::kFail, "the copy completed, but the model says it traps");
      continue;
    }
    if (IsLoad(c.in.direction)) {
      model::SmemImage img;
      if (const absl::Status st = model::ModelLoad(c.spec, c.in, s.global.data(), s.global.size(), &img); !st.ok()) {
        Emit(s.idx, Outcome::kError, StrCat("model: ", StatusMessage(st)));
        continue;
      }
      const Comparison cmp =
          CompareLoad(c.spec, c.in, img, back_.data() + (s.out_off - status_off), s.L.footprint_bytes);
      EmitMismatch(s.idx, cmp.first);
      Emit(s.idx, cmp.equal ? Outcome::kPass : Outcome::kFail, cmp.report);
    } else {
      std::vector<uint8_t> expect = s.global;
      model::StoreResult sr;
      if (const absl::Status st = model::ModelStore(c.spec, c.in, s.smem_in.data(), s.smem_in.size(), expect.data(),
                                                    expect.size(), nullptr, &sr);
          !st.ok()) {
        Emit(s.idx, Outcome::kError, StrCat("model: ", StatusMessage(st)));
        continue;
      }
      const Comparison cmp = CompareStore(c.spec, s.global.data(), expect.data(),
                                          back_.data() + (s.goff - status_off), s.gsize);
      EmitMismatch(s.idx, cmp.first);
      Emit(s.idx, cmp.equal ? Outcome::kPass : Outcome::kFail, cmp.report);
    }
  }
  return absl::OkStatus();
}

std::chrono::steady_clock::time_point g_deadline;  // set by RunChecks before forking (max_seconds)

// Child main: runs [begin, end) in units of `unit`; writes the protocol lines; never returns.
[[noreturn]] void ChildMain(int fd, const std::vector<CheckCase>& cases, size_t begin, size_t end, int unit,
                            const RunOptions& opt) {
  FILE* out = fdopen(fd, "w");
  setvbuf(out, nullptr, _IOLBF, 0);
  Executor ex(out);
  alarm(static_cast<unsigned>(opt.watchdog_s));
  if (const absl::Status opened = ex.Open(); !opened.ok()) {
    std::fprintf(out, "O %s\n", Escape(std::string(opened.message())).c_str());
    std::fflush(out);
    _exit(0);
  }
  const auto& dev = ex.gpu().device();
  std::fprintf(out, "D %d %d %s\n", dev.cc_major, dev.cc_minor, ex.gpu().Description().c_str());
  RunOptions o = opt;
  o.unit = unit;
  for (size_t i = begin; i < end; i += static_cast<size_t>(unit)) {
    if (opt.max_seconds > 0 && std::chrono::steady_clock::now() >= g_deadline) break;
    const size_t last = std::min(end, i + static_cast<size_t>(unit)) - 1;
    alarm(static_cast<unsigned>(opt.watchdog_s));
    std::fprintf(out, "U %zu %zu\n", i, last);
    std::fflush(out);
    if (const absl::Status fault = ex.RunUnit(cases, i, last, o); !fault.ok()) {
      std::fprintf(out, "F %zu %zu %s\n", i, last, Escape(std::string(fault.message())).c_str());
      std::fflush(out);
      _exit(3);
    }
    std::fflush(out);
  }
  std::fprintf(out, "E\n");
  std::fflush(out);
  _exit(0);
}

struct ChildReport {
  bool opened = false, open_failed = false, ended = false;
  std::string why;
  long unit_first = -1, unit_last = -1;
  bool faulted = false;
  std::string fault;
  int status = 0;
};

ChildReport RunChild(const std::vector<CheckCase>& cases, size_t begin, size_t end, int unit, const RunOptions& opt,
                     std::vector<CaseResult>* results, std::vector<bool>* done, RunSummary* sum) {
  ChildReport rep;
  int fds[2];
  if (pipe(fds) != 0) {
    rep.open_failed = true;
    rep.why = "pipe() failed";
    return rep;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    rep.open_failed = true;
    rep.why = "fork() failed";
    return rep;
  }
  if (pid == 0) {
    close(fds[0]);
    ChildMain(fds[1], cases, begin, end, unit, opt);
  }
  ++sum->children;
  close(fds[1]);
  FILE* in = fdopen(fds[0], "r");
  char* line = nullptr;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, in)) > 0) {
    std::string l(line, static_cast<size_t>(len));
    if (!l.empty() && l.back() == '\n') l.pop_back();
    if (l.size() < 2) {
      if (l == "E") rep.ended = true;
      continue;
    }
    const char tag = l[0];
    const std::string rest = l.substr(2);
    if (tag == 'D') {
      rep.opened = true;
      sum->gpu_available = true;
      std::sscanf(rest.c_str(), "%d %d", &sum->cc_major, &sum->cc_minor);
      const size_t p = rest.find(' ', rest.find(' ') + 1);
      sum->device = p == std::string::npos ? rest : rest.substr(p + 1);
    } else if (tag == 'O') {
      rep.open_failed = true;
      rep.why = Unescape(rest);
    } else if (tag == 'U') {
      std::sscanf(rest.c_str(), "%ld %ld", &rep.unit_first, &rep.unit_last);
    } else if (tag == 'R') {
      size_t idx = 0;
      int o = 0, used = 0;
      if (std::sscanf(rest.c_str(), "%zu %d %n", &idx, &o, &used) >= 2 && idx < results->size()) {
        (*results)[idx].outcome = static_cast<Outcome>(o);
        (*results)[idx].detail = Unescape(rest.substr(static_cast<size_t>(used)));
        (*done)[idx] = true;
      }
    } else if (tag == 'M') {
      size_t idx = 0;
      int global = 0, used = 0;
      unsigned long long off = 0, diff = 0, cmp = 0;
      if (std::sscanf(rest.c_str(), "%zu %d %llu %llu %llu %n", &idx, &global, &off, &diff, &cmp, &used) >= 5 &&
          idx < results->size()) {
        Mismatch& m = (*results)[idx].mismatch;
        m.present = true;
        m.global = global != 0;
        m.offset = off;
        m.differing = diff;
        m.compared = cmp;
        const std::string hex = rest.substr(static_cast<size_t>(used));
        const size_t sp = hex.find(' ');
        m.expected = FromHexBytes(hex.substr(0, sp));
        m.actual = sp == std::string::npos ? std::string() : FromHexBytes(hex.substr(sp + 1));
      }
    } else if (tag == 'F') {
      rep.faulted = true;
      int used = 0;
      long a = 0, b = 0;
      std::sscanf(rest.c_str(), "%ld %ld %n", &a, &b, &used);
      rep.fault = Unescape(rest.substr(static_cast<size_t>(used)));
    }
  }
  free(line);
  fclose(in);
  int st = 0;
  waitpid(pid, &st, 0);
  rep.status = st;
  if (!rep.faulted && !rep.ended && !rep.open_failed) {
    rep.faulted = true;
    if (WIFSIGNALED(st))
      rep.fault = WTERMSIG(st) == SIGALRM ? "no completion within " + std::to_string(opt.watchdog_s) +
                                                " s (watchdog): the copy hung"
                                          : std::string("the check process died: ") + strsignal(WTERMSIG(st));
    else
      rep.fault = "the check process exited early (status " + std::to_string(WEXITSTATUS(st)) + ")";
  }
  return rep;
}

}  // namespace

void RunChecks(const std::vector<CheckCase>& cases, const RunOptions& opt, std::vector<CaseResult>* results,
               RunSummary* sum) {
  const auto t0 = std::chrono::steady_clock::now();
  results->assign(cases.size(), CaseResult{});
  std::vector<bool> done(cases.size(), false);
  // Work list: ranges with their unit size.
  struct Range {
    size_t begin, end;
    int unit;
  };
  std::vector<Range> work{{0, cases.size(), std::max(1, opt.unit)}};
  g_deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(opt.max_seconds > 0 ? opt.max_seconds : 1e9));
  while (!work.empty()) {
    if (opt.max_seconds > 0 && std::chrono::steady_clock::now() >= g_deadline) break;
    Range r = work.back();
    work.pop_back();
    while (r.begin < r.end && done[r.begin]) ++r.begin;
    if (r.begin >= r.end) continue;
    ChildReport rep = RunChild(cases, r.begin, r.end, r.unit, opt, results, &done, sum);
    if (rep.open_failed || !rep.opened) {
      sum->gpu_available = false;
      sum->why_no_gpu = rep.why.empty() ? rep.fault : rep.why;
      for (size_t i = r.begin; i < r.end; ++i)
        if (!done[i]) (*results)[i] = {Outcome::kError, "no GPU: " + sum->why_no_gpu, Mismatch{}};
      for (const Range& w : work)
        for (size_t i = w.begin; i < w.end; ++i)
          if (!done[i]) (*results)[i] = {Outcome::kError, "no GPU: " + sum->why_no_gpu, Mismatch{}};
      break;
    }
    if (!rep.faulted) continue;
    if (rep.unit_first < 0) {
      // Died before any unit: mark the first case and go on.
      (*results)[r.begin] = {Outcome::kFault, rep.fault, Mismatch{}};
      done[r.begin] = true;
      work.push_back({r.begin + 1, r.end, r.unit});
      continue;
    }
    const size_t f = static_cast<size_t>(rep.unit_first), l = static_cast<size_t>(rep.unit_last);
    work.push_back({l + 1, r.end, r.unit});  // the rest, after the faulting unit
    if (l > f) {
      work.push_back({f, l + 1, 1});  // find the faulting case: one case per launch (runs first: LIFO)
    } else {
      (*results)[f] = {Outcome::kFault, "kernel fault (the CUDA context is lost; a new process continues): " + rep.fault, Mismatch{}};
      done[f] = true;
    }
  }
  if (sum->gpu_available)
    for (size_t i = 0; i < cases.size(); ++i)
      if (!done[i])
        (*results)[i] = {Outcome::kNotRun, "not run: the time budget of " + std::to_string(opt.max_seconds) +
                                               " s ran out", Mismatch{}};
  sum->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void ProbeGpu(RunSummary* sum) {
  std::vector<CheckCase> none;
  std::vector<CaseResult> res;
  std::vector<bool> done;
  RunOptions opt;
  ChildReport rep = RunChild(none, 0, 0, 1, opt, &res, &done, sum);
  if (!rep.opened) {
    sum->gpu_available = false;
    sum->why_no_gpu = rep.why.empty() ? rep.fault : rep.why;
  }
}

}  // namespace tmapgen::gpu
