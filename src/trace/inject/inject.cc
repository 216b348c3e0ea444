// inject.cc: libtmapgen_trace_inject.so, the library `tmapgen trace` puts in CUDA_INJECTION64_PATH.
//
// The CUDA driver loads it during cuInit and calls InitializeInjection(). It opens CUPTI at run time
// (never linked), subscribes to the exit (and, for cuTensorMapReplaceAddress, the entry) of the four
// tensor-map entry points, and hands each call to the recorder (src/trace/recorder.h), which counts,
// records and explains. Records go to this process's stream in $TMAPGEN_TRACE_DIR (stream.h); without
// that variable (the library loaded by hand) explanations and an exit summary go to standard error.
//
// Rules it keeps, because it lives inside someone else's program:
// - Never writes to standard output; standard error gets one write(2) per message.
// - Exports one symbol (InitializeInjection; exports.map); the tmapgen core is linked in statically and
//   hidden; Abseil is Debian's shared build, in its own inline namespace (cmake/trace_inject.cmake).
// - Never makes the program fail: every problem (no CUPTI, CUPTI held by another tool, no trace
//   directory) is one message on standard error, and InitializeInjection still returns success.
// - Thread-safe; fork-aware (pthread_atfork: a child starts its own stream at its first call); bounded
//   memory (the recorder's table and a fixed-size state file).
//
// Environment (set by `tmapgen trace`; docs/trace.md):
//   TMAPGEN_TRACE_DIR          directory for the stream files; unset = standalone (stderr only)
//   TMAPGEN_TRACE_ALL=1        one record per call instead of one per configuration
//   TMAPGEN_TRACE_TARGET=T     validate for target T instead of the calling context's GPU
//   TMAPGEN_TRACE_MAX_CONFIGS  distinct configurations kept per process (default 4096)
//   TMAPGEN_TRACE_DEBUG=1      print the call stack of every new record (for checking caller attribution)
//   TMAPGEN_TRACE_BASELINE=1   measurement only: subscribe but record nothing (CUPTI's own cost per call)
//   TMAPGEN_CUPTI=PATH         the CUPTI library to open (default: the one already loaded, else the
//                              usual names and CUDA locations)
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/tmap/types.h"
#include "src/trace/call.h"
#include "src/trace/call_spec.h"
#include "src/trace/inject/cupti_abi.h"
#include "src/trace/recorder.h"
#include "src/trace/stream.h"
#include "src/trace/summary.h"
#include "src/util/strings.h"

namespace tmapgen::trace {
namespace {

void WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}
void Say(const std::string& s) { WriteAll(2, s.data(), s.size()); }

// Reads n bytes at `src` without faulting: process_vm_readv on this process (EFAULT instead of
// SIGSEGV), for arguments of calls the driver rejected (it may have rejected them before reading).
bool SafeRead(void* dst, const void* src, size_t n) {
  if (src == nullptr) return false;
  if (n == 0) return true;
  struct iovec local{dst, n};
  struct iovec remote{const_cast<void*>(src), n};
  const ssize_t r = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
  return r == static_cast<ssize_t>(n);
}

const void* BaseOf(const void* addr) {
  Dl_info info;
  if (addr != nullptr && dladdr(addr, &info) != 0) return info.dli_fbase;
  return nullptr;
}

struct Global {
  // Configuration.
  bool all = false;
  bool debug = false;
  bool baseline = false;  // TMAPGEN_TRACE_BASELINE=1: subscribe, return at once (CUPTI's own cost, measured)
  bool standalone = true;
  bool forced_target = false;
  uint8_t target = 0;
  uint32_t capacity = 4096;
  std::string dir;
  std::string exe;

  // Stream of this process.
  int calls_fd = -1;
  StateHeader* state = nullptr;
  size_t state_size = 0;
  std::vector<std::atomic<uint64_t>>* heap_counts = nullptr;  // standalone

  Recorder* recorder = nullptr;
  std::atomic<bool> fork_pending{false};
  std::mutex reinit_mu;
  int32_t pid = 0;

  // Frames to skip when looking for the caller: this library, CUPTI, the driver.
  const void* self_base = nullptr;
  const void* cupti_base = nullptr;
  const void* cuda_base = nullptr;

  // CUPTI.
  void* cupti = nullptr;
  std::string cupti_path;
  cupti::SubscriberHandle subscriber = nullptr;
  cupti::PfnGetResultString result_string = nullptr;

  // The driver (already loaded: it is loading us).
  cupti::PfnCtxGetDevice ctx_get_device = nullptr;
  cupti::PfnDeviceGetAttribute device_get_attribute = nullptr;
  cupti::PfnDriverGetVersion driver_get_version = nullptr;
  std::atomic<int> driver_version{-1};
  std::mutex target_mu;
  uint32_t ctx_uid[16] = {};
  int ctx_target[16] = {};
  int n_ctx = 0;

  // Standalone mode keeps its records for the exit summary (bounded by the recorder's table).
  std::mutex records_mu;
  std::vector<EncodeCall> records;
};
Global* g = nullptr;

void StateMessage(const std::string& m) {
  if (g->state != nullptr) CopyTail(m, g->state->message, sizeof(g->state->message));
}

class InjectSink : public RecordSink {
 public:
  void Record(const EncodeCall& c) override {
    if (g->calls_fd >= 0) {
      char buf[kFrameSize];
      MakeFrame(c, buf);
      const ssize_t w = ::write(g->calls_fd, buf, kFrameSize);  // O_APPEND: one frame, one write
      if (g->state != nullptr) {
        if (w == static_cast<ssize_t>(kFrameSize)) g->state->records.fetch_add(1, std::memory_order_relaxed);
        else g->state->write_errors.fetch_add(1, std::memory_order_relaxed);
      }
    }
    if (g->standalone || g->debug) {
      std::lock_guard<std::mutex> lock(g->records_mu);
      if (g->records.size() < g->capacity) g->records.push_back(c);
    }
  }
  void Explain(std::string_view text) override { WriteAll(2, text.data(), text.size()); }
};
InjectSink* sink = nullptr;

// ---------------------------------------------------------------------------------------- stream files

bool OpenStream(bool forked, int32_t ppid) {
  if (g->dir.empty()) return false;
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  const std::string stem = StrCat(g->dir, "/", g->pid, ".", static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
                                                                static_cast<uint64_t>(ts.tv_nsec));
  const std::string state_path = StrCat(stem, ".state");
  const std::string calls_path = StrCat(stem, ".calls");
  const int sfd = ::open(state_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (sfd < 0) {
    Say(StrCat("tmapgen trace: cannot create ", state_path, ": ", std::strerror(errno),
               "; this process is traced on standard error only\n"));
    return false;
  }
  const size_t size = StateFileSize(g->capacity);
  void* m = MAP_FAILED;
  if (::ftruncate(sfd, static_cast<off_t>(size)) == 0)
    m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
  ::close(sfd);
  if (m == MAP_FAILED) {
    Say(StrCat("tmapgen trace: cannot map ", state_path, ": ", std::strerror(errno), "\n"));
    return false;
  }
  const int cfd = ::open(calls_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
  if (cfd < 0) {
    Say(StrCat("tmapgen trace: cannot create ", calls_path, ": ", std::strerror(errno), "\n"));
    ::munmap(m, size);
    return false;
  }
  StateHeader* h = static_cast<StateHeader*>(m);  // the file is zero-filled: counts start at 0
  std::memcpy(h->magic, kStateMagic, sizeof(kStateMagic));
  h->version = kStreamVersion;
  h->capacity = g->capacity;
  h->pid = g->pid;
  h->ppid = ppid;
  h->state = static_cast<uint32_t>(ProcessState::kStarting);
  h->all = g->all ? 1 : 0;
  h->forked = forked ? 1 : 0;
  CopyTail(g->exe, h->exe, sizeof(h->exe));
  g->state = h;
  g->state_size = size;
  g->calls_fd = cfd;
  return true;
}

CountStore Counts() {
  if (g->state != nullptr) {
    auto* counts = reinterpret_cast<std::atomic<uint64_t>*>(reinterpret_cast<char*>(g->state) + sizeof(StateHeader));
    return CountStore{counts, g->capacity};
  }
  if (g->heap_counts == nullptr) g->heap_counts = new std::vector<std::atomic<uint64_t>>(g->capacity);
  return CountStore{g->heap_counts->data(), g->capacity};
}

// ------------------------------------------------------------------------------------------ the caller

// The address ranges of the objects whose frames are not the caller (this library, CUPTI, the driver):
// their PT_LOAD segments, found once with dl_iterate_phdr, so that the unwinder can stop at the first
// frame outside them without a dladdr per frame.
struct Ranges {
  uintptr_t lo[24], hi[24];
  int n = 0;
  bool Contains(uintptr_t pc) const {
    for (int i = 0; i < n; ++i)
      if (pc >= lo[i] && pc < hi[i]) return true;
    return false;
  }
};
Ranges g_skip;

int AddObjectRanges(struct dl_phdr_info* info, size_t, void* arg) {
  const uintptr_t want = reinterpret_cast<uintptr_t>(arg);
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && want >= info->dlpi_addr + ph.p_vaddr && want < info->dlpi_addr + ph.p_vaddr + ph.p_memsz)
      mine = true;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum && g_skip.n < 24; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    g_skip.lo[g_skip.n] = info->dlpi_addr + ph.p_vaddr;
    g_skip.hi[g_skip.n] = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    ++g_skip.n;
  }
  return 1;
}
void SkipObjectOf(const void* addr) {
  if (addr != nullptr) dl_iterate_phdr(AddObjectRanges, const_cast<void*>(addr));
}

struct Frames {
  uintptr_t pc[48];
  int n = 0;
  bool all = false;  // debug: every frame; else stop at the first frame outside the skipped objects
};
_Unwind_Reason_Code CollectFrame(struct _Unwind_Context* ctx, void* arg) {
  Frames* f = static_cast<Frames*>(arg);
  if (f->n >= 48) return _URC_END_OF_STACK;
  const uintptr_t pc = _Unwind_GetIP(ctx);
  if (!f->all && pc != 0 && g_skip.Contains(pc - 1)) return _URC_NO_REASON;
  f->pc[f->n++] = pc;
  return f->all ? _URC_NO_REASON : _URC_END_OF_STACK;
}

// The first frame outside this library, CUPTI and the driver is the caller of cuTensorMap*.
void ResolveCaller(void*, EncodeCall* c) {
  Frames f;
  f.all = g->debug;
  _Unwind_Backtrace(CollectFrame, &f);
  for (int i = 0; i < f.n; ++i) {
    // A return address points after the call; step back one byte to stay inside the calling function.
    const void* pc = reinterpret_cast<const void*>(f.pc[i] > 0 ? f.pc[i] - 1 : 0);
    Dl_info info;
    if (dladdr(pc, &info) == 0) continue;
    if (info.dli_fbase == g->self_base || info.dli_fbase == g->cupti_base || info.dli_fbase == g->cuda_base) continue;
    std::string_view name = info.dli_fname != nullptr ? info.dli_fname : "";
    if (name.empty() || name.find('/') == std::string_view::npos) name = g->exe;  // the main program
    CopyTail(name, c->caller, kCallerMax);
    c->caller_offset = reinterpret_cast<uintptr_t>(pc) + 1 - reinterpret_cast<uintptr_t>(info.dli_fbase);
    if (info.dli_sname != nullptr && info.dli_saddr != nullptr) {
      const uintptr_t off = reinterpret_cast<uintptr_t>(pc) + 1 - reinterpret_cast<uintptr_t>(info.dli_saddr);
      CopyTail(StrCat(info.dli_sname, "+", Hex(off)), c->caller_symbol, kSymbolMax);
    }
    break;
  }
  if (g->debug) {
    std::string s = StrCat("tmapgen trace: call stack of record ", c->seq, " (pid ", c->pid, "):\n");
    for (int i = 0; i < f.n; ++i) {
      Dl_info info;
      const void* pc = reinterpret_cast<const void*>(f.pc[i] - 1);
      const bool ok = dladdr(pc, &info) != 0;
      StrAppend(&s, "  #", i, " ", Hex(f.pc[i]), " ", ok && info.dli_fname ? info.dli_fname : "?",
                ok && info.dli_sname ? StrCat(" ", info.dli_sname) : std::string(),
                ok && info.dli_fbase == g->self_base ? " [tmapgen]" : "",
                ok && info.dli_fbase == g->cupti_base ? " [cupti]" : "",
                ok && info.dli_fbase == g->cuda_base ? " [driver]" : "", "\n");
    }
    Say(s);
  }
}

// ------------------------------------------------------------------------------------------ the target

void FillTarget(const cupti::CallbackData* d, EncodeCall* c) {
  if (g->forced_target) {
    c->target = g->target;
    c->flags |= kHasTarget;
    return;
  }
  int t = -1;
  {
    std::lock_guard<std::mutex> lock(g->target_mu);
    for (int i = 0; i < g->n_ctx; ++i)
      if (g->ctx_uid[i] == d->contextUid) t = g->ctx_target[i];
    if (t == -2) return;  // known: no target for this context's GPU
    if (t < 0 && g->ctx_get_device != nullptr && g->device_get_attribute != nullptr) {
      cupti::CUdevice dev = 0;
      if (d->context == nullptr || g->ctx_get_device(&dev) != 0) dev = 0;
      int major = 0, minor = 0;
      t = -2;
      if (g->device_get_attribute(&major, cupti::kAttrComputeCapabilityMajor, dev) == 0 &&
          g->device_get_attribute(&minor, cupti::kAttrComputeCapabilityMinor, dev) == 0) {
        Target target;
        if (Parse(driver::TargetForComputeCapability(major, minor), &target)) t = static_cast<int>(target);
      }
      if (g->n_ctx < 16) {
        g->ctx_uid[g->n_ctx] = d->contextUid;
        g->ctx_target[g->n_ctx] = t;
        ++g->n_ctx;
      }
    }
  }
  if (t >= 0) {
    c->target = static_cast<uint8_t>(t);
    c->flags |= kHasTarget;
  }
}

uint32_t DriverVersion() {
  int v = g->driver_version.load(std::memory_order_relaxed);
  if (v < 0) {
    int dv = 0;
    if (g->driver_get_version == nullptr || g->driver_get_version(&dv) != 0) dv = 0;
    g->driver_version.store(dv, std::memory_order_relaxed);
    v = dv;
  }
  return static_cast<uint32_t>(v);
}

// ------------------------------------------------------------------------------------------- the calls

// Copies n entries of an argument array: directly after a successful call (the driver read them),
// through SafeRead after a rejected one.
template <typename T>
void ReadArray(const T* src, uint32_t n, T* dst, bool trusted, uint32_t bit, uint32_t* unreadable) {
  if (n == 0) return;
  if (src == nullptr) {
    *unreadable |= bit;
    return;
  }
  if (trusted) {
    std::memcpy(dst, src, n * sizeof(T));
  } else if (!SafeRead(dst, src, n * sizeof(T))) {
    std::memset(dst, 0, n * sizeof(T));
    *unreadable |= bit;
  }
}

void ReadMap(const void* map, bool trusted, uint64_t (&out)[16], bool* ok) {
  *ok = false;
  if (map == nullptr) return;
  if (trusted) {
    std::memcpy(out, map, 128);
    *ok = true;
  } else {
    *ok = SafeRead(out, map, 128);
  }
}

thread_local uint64_t tls_before[16];
thread_local bool tls_before_ok = false;
thread_local int32_t tls_tid = 0;

void ReinitAfterFork() {
  std::lock_guard<std::mutex> lock(g->reinit_mu);
  if (!g->fork_pending.load(std::memory_order_acquire)) return;
  const int32_t ppid = g->pid;
  g->pid = static_cast<int32_t>(::getpid());
  if (g->calls_fd >= 0) ::close(g->calls_fd);  // the child's copy; the parent's stays open
  g->calls_fd = -1;
  if (g->state != nullptr) ::munmap(g->state, g->state_size);
  g->state = nullptr;
  g->records.clear();
  if (OpenStream(true, ppid)) g->state->state = static_cast<uint32_t>(ProcessState::kTracing);
  if (g->heap_counts != nullptr) {
    delete g->heap_counts;
    g->heap_counts = nullptr;
  }
  g->recorder->ResetAfterFork(Counts());
  g->fork_pending.store(false, std::memory_order_release);
}

// The parameters the three encoders share (the map, type, rank, address, dims, strides, element strides,
// interleave, swizzle, L2 promotion, OOB fill); returns the map's address. Arrays are read only where
// the pointer can be read (ReadArray).
template <typename Params>
void* ReadCommonParams(const Params* p, bool ok, EncodeCall* c) {
  c->data_type = static_cast<uint32_t>(p->tensorDataType);
  c->rank = p->tensorRank;
  c->global_address = reinterpret_cast<uintptr_t>(p->globalAddress);
  const uint32_t n = c->rank < 5 ? c->rank : 5;
  ReadArray(p->globalDim, n, c->global_dim, ok, kUnreadableGlobalDim, &c->unreadable);
  ReadArray(p->globalStrides, n > 0 ? n - 1 : 0, c->global_strides, ok, kUnreadableGlobalStrides, &c->unreadable);
  ReadArray(p->elementStrides, n, c->element_strides, ok, kUnreadableElementStrides, &c->unreadable);
  c->interleave = static_cast<uint32_t>(p->interleave);
  c->swizzle = static_cast<uint32_t>(p->swizzle);
  c->l2_promotion = static_cast<uint32_t>(p->l2Promotion);
  c->oob_fill = static_cast<uint32_t>(p->oobFill);
  return p->tensorMap;
}
uint32_t Rank5(const EncodeCall& c) { return c.rank < 5 ? c.rank : 5; }

void OnCallback(void*, cupti::CallbackDomain domain, cupti::CallbackId cbid, const void* cbdata) {
  if (domain != cupti::kDomainDriverApi || g == nullptr || g->recorder == nullptr || g->baseline) return;
  const auto* d = static_cast<const cupti::CallbackData*>(cbdata);
  if (d->callbackSite == cupti::kApiEnter) {
    if (cbid == cupti::kCbidReplaceAddress) {
      const auto* p = static_cast<const cupti::ReplaceAddressParams*>(d->functionParams);
      ReadMap(p->tensorMap, false, tls_before, &tls_before_ok);
    }
    return;
  }
  if (d->callbackSite != cupti::kApiExit) return;
  if (g->fork_pending.load(std::memory_order_acquire)) ReinitAfterFork();
  if (tls_tid == 0) tls_tid = static_cast<int32_t>(::syscall(SYS_gettid));

  EncodeCall c;
  c.result = d->functionReturnValue != nullptr ? *static_cast<const int*>(d->functionReturnValue) : -1;
  const bool ok = c.result == 0;
  void* map = nullptr;
  switch (cbid) {
    case cupti::kCbidEncodeTiled: {
      const auto* p = static_cast<const cupti::EncodeTiledParams*>(d->functionParams);
      c.kind = CallKind::kEncodeTiled;
      map = ReadCommonParams(p, ok, &c);
      ReadArray(p->boxDim, Rank5(c), c.box_dim, ok, kUnreadableBoxDim, &c.unreadable);
      break;
    }
    case cupti::kCbidEncodeIm2col: {
      const auto* p = static_cast<const cupti::EncodeIm2colParams*>(d->functionParams);
      c.kind = CallKind::kEncodeIm2col;
      map = ReadCommonParams(p, ok, &c);
      const uint32_t k = Rank5(c) > 2 ? Rank5(c) - 2 : 0;
      ReadArray(p->pixelBoxLowerCorner, k, c.lower_corner, ok, kUnreadableLowerCorner, &c.unreadable);
      ReadArray(p->pixelBoxUpperCorner, k, c.upper_corner, ok, kUnreadableUpperCorner, &c.unreadable);
      c.channels_per_pixel = p->channelsPerPixel;
      c.pixels_per_column = p->pixelsPerColumn;
      break;
    }
    case cupti::kCbidEncodeIm2colWide: {
      const auto* p = static_cast<const cupti::EncodeIm2colWideParams*>(d->functionParams);
      c.kind = CallKind::kEncodeIm2colWide;
      map = ReadCommonParams(p, ok, &c);
      c.lower_corner_width = p->pixelBoxLowerCornerWidth;
      c.upper_corner_width = p->pixelBoxUpperCornerWidth;
      c.channels_per_pixel = p->channelsPerPixel;
      c.pixels_per_column = p->pixelsPerColumn;
      c.wide_mode = static_cast<uint32_t>(p->mode);
      break;
    }
    case cupti::kCbidReplaceAddress: {
      const auto* p = static_cast<const cupti::ReplaceAddressParams*>(d->functionParams);
      c.kind = CallKind::kReplaceAddress;
      map = p->tensorMap;
      c.global_address = reinterpret_cast<uintptr_t>(p->globalAddress);
      if (tls_before_ok) {
        std::memcpy(c.bytes_before, tls_before, sizeof(c.bytes_before));
        c.flags |= kHasBytesBefore;
      }
      tls_before_ok = false;
      break;
    }
    default:
      return;
  }
  if (map == nullptr) c.unreadable |= kUnreadableTensorMap;
  if (ok && map != nullptr) {
    bool got = false;
    ReadMap(map, true, c.bytes, &got);
    if (got) c.flags |= kHasBytes;
  }
  c.pid = g->pid;
  c.tid = tls_tid;
  c.driver_version = DriverVersion();
  FillTarget(d, &c);
  g->recorder->OnCall(&c, ResolveCaller, nullptr);
  // Calls are counted in the state file as they happen (dropped calls are calls minus the counts).
  if (g->state != nullptr) g->state->calls.fetch_add(1, std::memory_order_relaxed);
}

// ------------------------------------------------------------------------------------------- lifetime

void AtForkPrepare() {
  if (g != nullptr && g->recorder != nullptr) g->recorder->LockForFork();
}
void AtForkParent() {
  if (g != nullptr && g->recorder != nullptr) g->recorder->UnlockAfterFork();
}
void AtForkChild() {
  tls_tid = 0;  // the forking thread's id was copied with its thread-local storage
  if (g != nullptr && g->recorder != nullptr) {
    g->recorder->UnlockAfterFork();
    g->fork_pending.store(true, std::memory_order_release);
  }
}

void AtExit() {
  if (g == nullptr || g->recorder == nullptr) return;
  if (g->state != nullptr)
    g->state->dropped_calls.store(g->recorder->stats().dropped_calls, std::memory_order_relaxed);
  if (!g->standalone) return;
  const RecorderStats st = g->recorder->stats();
  if (st.calls == 0) return;
  Summary sum;
  ProcessInfo p;
  p.pid = g->pid;
  p.state = ProcessState::kTracing;
  p.calls = st.calls;
  p.records = st.records;
  p.dropped_calls = st.dropped_calls;
  p.exe = g->exe;
  sum.AddProcess(p);
  std::lock_guard<std::mutex> lock(g->records_mu);
  for (const EncodeCall& c : g->records) sum.AddRecord(c, g->recorder->count(c.seq));
  SummaryOptions so;
  Say(sum.RenderText(so));
}

std::string CuptiError(int r) {
  const char* s = nullptr;
  if (g->result_string != nullptr && g->result_string(r, &s) == cupti::kSuccess && s != nullptr)
    return StrCat(s, " (", r, ")");
  return StrCat("CUPTI error ", r);
}

void* OpenCupti(std::string* tried) {
  const char* env = std::getenv("TMAPGEN_CUPTI");
  if (env != nullptr && *env != '\0') {
    void* h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    *tried = env;
    if (h == nullptr) StrAppend(tried, " (", dlerror(), ")");
    return h;
  }
  static const char* kNames[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
  for (const char* n : kNames) {  // a CUPTI the program already loaded (PyTorch's, JAX's) comes first
    if (void* h = dlopen(n, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) return h;
  }
  for (const char* n : kNames) {
    if (void* h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) return h;
    StrAppend(tried, tried->empty() ? "" : ", ", n);
  }
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') {
      dirs.push_back(StrCat(v, "/extras/CUPTI/lib64"));
      dirs.push_back(StrCat(v, "/targets/x86_64-linux/lib"));
      dirs.push_back(StrCat(v, "/lib64"));
    }
  }
  for (const char* d : {"/usr/local/cuda/extras/CUPTI/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                        "/usr/local/cuda/lib64"})
    dirs.push_back(d);
  for (const std::string& d : dirs) {
    for (const char* n : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
      const std::string path = StrCat(d, "/", n);
      if (::access(path.c_str(), R_OK) != 0) continue;
      if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
      StrAppend(tried, ", ", path, " (", dlerror(), ")");
    }
  }
  StrAppend(tried, ", and libcupti.so* under $CUDA_HOME and /usr/local/cuda");
  return nullptr;
}

void NotTracing(const std::string& why) {
  Say(StrCat("tmapgen trace: pid ", g->pid, ": not tracing: ", why, "; the program runs on untraced\n"));
  StateMessage(why);
  if (g->state != nullptr) g->state->state = static_cast<uint32_t>(ProcessState::kNotTracing);
}

int Initialize() {
  if (g != nullptr) return 1;  // loaded twice (the driver should not, but be safe)
  g = new (std::nothrow) Global();
  if (g == nullptr) return 1;
  g->pid = static_cast<int32_t>(::getpid());
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) g->exe.assign(exe, static_cast<size_t>(n));
  const char* dir = std::getenv("TMAPGEN_TRACE_DIR");
  if (dir != nullptr && *dir != '\0') {
    g->dir = dir;
    g->standalone = false;
  }
  const char* all = std::getenv("TMAPGEN_TRACE_ALL");
  g->all = all != nullptr && std::strcmp(all, "1") == 0;
  const char* debug = std::getenv("TMAPGEN_TRACE_DEBUG");
  g->debug = debug != nullptr && std::strcmp(debug, "1") == 0;
  const char* baseline = std::getenv("TMAPGEN_TRACE_BASELINE");
  g->baseline = baseline != nullptr && std::strcmp(baseline, "1") == 0;
  if (const char* mc = std::getenv("TMAPGEN_TRACE_MAX_CONFIGS")) {
    const long v = std::strtol(mc, nullptr, 10);
    if (v >= 16 && v <= (1 << 20)) g->capacity = static_cast<uint32_t>(v);
  }
  if (const char* t = std::getenv("TMAPGEN_TRACE_TARGET")) {
    Target target;
    if (*t != '\0' && Parse(t, &target)) {
      g->forced_target = true;
      g->target = static_cast<uint8_t>(target);
    } else if (*t != '\0') {
      Say(StrCat("tmapgen trace: TMAPGEN_TRACE_TARGET=", t, " is not a target (", AcceptedNames(static_cast<Target*>(nullptr)),
                 "); validating for the GPU's target\n"));
    }
  }
  if (!g->standalone) OpenStream(false, static_cast<int32_t>(::getppid()));

  g->self_base = BaseOf(reinterpret_cast<const void*>(&Initialize));
  if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
    g->ctx_get_device = reinterpret_cast<cupti::PfnCtxGetDevice>(dlsym(cuda, "cuCtxGetDevice"));
    g->device_get_attribute = reinterpret_cast<cupti::PfnDeviceGetAttribute>(dlsym(cuda, "cuDeviceGetAttribute"));
    g->driver_get_version = reinterpret_cast<cupti::PfnDriverGetVersion>(dlsym(cuda, "cuDriverGetVersion"));
    g->cuda_base = BaseOf(dlsym(cuda, "cuInit"));
  }

  std::string tried;
  g->cupti = OpenCupti(&tried);
  if (g->cupti == nullptr) {
    NotTracing(StrCat("CUPTI not found (tried ", tried, "); set TMAPGEN_CUPTI to libcupti.so of the CUDA toolkit"));
    return 1;
  }
  auto sub_v2 = reinterpret_cast<cupti::PfnSubscribeV2>(dlsym(g->cupti, "cuptiSubscribe_v2"));
  auto sub = reinterpret_cast<cupti::PfnSubscribe>(dlsym(g->cupti, "cuptiSubscribe"));
  auto enable = reinterpret_cast<cupti::PfnEnableCallback>(dlsym(g->cupti, "cuptiEnableCallback"));
  g->result_string = reinterpret_cast<cupti::PfnGetResultString>(dlsym(g->cupti, "cuptiGetResultString"));
  g->cupti_base = BaseOf(reinterpret_cast<const void*>(enable));
  SkipObjectOf(reinterpret_cast<const void*>(&Initialize));
  SkipObjectOf(reinterpret_cast<const void*>(enable));
  if (g->cuda_base != nullptr) SkipObjectOf(g->cuda_base);
  Dl_info info;
  if (enable != nullptr && dladdr(reinterpret_cast<const void*>(enable), &info) != 0 && info.dli_fname != nullptr)
    g->cupti_path = info.dli_fname;
  if ((sub == nullptr && sub_v2 == nullptr) || enable == nullptr) {
    NotTracing("the CUPTI library lacks cuptiSubscribe/cuptiEnableCallback");
    return 1;
  }

  // The recorder must exist before the first callback can arrive.
  sink = new InjectSink();
  RecorderOptions ro;
  ro.all = g->all;
  ro.max_configs = g->capacity;
  g->recorder = new Recorder(ro, Counts(), sink);

  int r;
  char old_name[cupti::kOldSubscriberNameMinLen + 1] = {};
  if (sub_v2 != nullptr) {
    cupti::SubscriberParams sp{cupti::kSubscriberParamsStructSize, "tmapgen trace", old_name, sizeof(old_name) - 1};
    r = sub_v2(&g->subscriber, OnCallback, nullptr, &sp);
  } else {
    r = sub(&g->subscriber, OnCallback, nullptr);
  }
  if (r != cupti::kSuccess) {
    std::string why = StrCat("cuptiSubscribe failed: ", CuptiError(r));
    if (r == cupti::kErrorMultipleSubscribersNotSupported) {
      StrAppend(&why, ": another tool already holds CUPTI");
      if (old_name[0] != '\0') StrAppend(&why, " (", old_name, ")");
      StrAppend(&why, "; Nsight Systems, Nsight Compute, cuda-gdb, compute-sanitizer and profilers inside the "
                      "program (torch.profiler, jax.profiler) do");
    } else if (r == cupti::kErrorInsufficientPrivileges) {
      StrAppend(&why, ": this user may not profile the GPU (NVreg_RestrictProfilingToAdminUsers)");
    }
    g->recorder = nullptr;  // callbacks never come; keep the objects (a callback could be in flight elsewhere)
    NotTracing(why);
    return 1;
  }
  static constexpr cupti::CallbackId kCbids[] = {cupti::kCbidEncodeTiled, cupti::kCbidEncodeIm2col,
                                                 cupti::kCbidEncodeIm2colWide, cupti::kCbidReplaceAddress};
  std::string notes = StrCat("CUPTI ", g->cupti_path.empty() ? std::string("(path unknown)") : g->cupti_path);
  int enabled = 0;
  for (cupti::CallbackId id : kCbids) {
    const int er = enable(1, g->subscriber, cupti::kDomainDriverApi, id);
    if (er == cupti::kSuccess) {
      ++enabled;
    } else {
      StrAppend(&notes, "; callback ", id, " not enabled: ", CuptiError(er));
    }
  }
  if (enabled == 0) {
    NotTracing(StrCat("no tensor-map callback could be enabled: ", notes));
    return 1;
  }
  StateMessage(notes);
  if (g->state != nullptr) g->state->state = static_cast<uint32_t>(ProcessState::kTracing);
  pthread_atfork(AtForkPrepare, AtForkParent, AtForkChild);
  std::atexit(AtExit);
  if (g->debug) Say(StrCat("tmapgen trace: pid ", g->pid, ": tracing (", notes, ")\n"));
  return 1;
}

}  // namespace
}  // namespace tmapgen::trace

// The entry point the CUDA driver calls after loading CUDA_INJECTION64_PATH.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  return tmapgen::trace::Initialize();
}
