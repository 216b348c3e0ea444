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

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/tmap/types.h"
#include "src/trace/call.h"
#include "src/trace/call_spec.h"
#include "src/tmap/validator.h"
#include "src/trace/inject/cupti_abi.h"
#include "src/trace/launch.h"
#include "src/trace/preload/preload_abi.h"
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
  std::string stem;  // this process's stream files: STEM.state, STEM.calls, STEM.launch, STEM.kernels

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
  cupti::PfnEnableCallback enable_callback = nullptr;

  // The driver (already loaded: it is loading us).
  cupti::PfnCtxGetDevice ctx_get_device = nullptr;
  cupti::PfnCtxGetCurrent ctx_get_current = nullptr;
  cupti::PfnStreamGetCtx stream_get_ctx = nullptr;
  cupti::PfnCtxPushPop ctx_push = nullptr;
  cupti::PfnCtxPushPop ctx_pop = nullptr;
  std::atomic<uint32_t> ctx_gen{1};  // bumped when a context is destroyed: handles may be reused
  cupti::PfnDeviceGetAttribute device_get_attribute = nullptr;
  cupti::PfnDriverGetVersion driver_get_version = nullptr;
  std::atomic<int> driver_version{-1};
  std::mutex target_mu;
  uint64_t ctx_key[16] = {};
  uint32_t ctx_key_gen[16] = {};
  int ctx_target[16] = {};
  int ctx_device[16] = {};
  int n_ctx = 0;

  // Standalone mode keeps its records for the exit summary (bounded by the recorder's table).
  std::mutex records_mu;
  std::vector<EncodeCall> records;
};
Global* g = nullptr;

void OpenLaunchFiles(const std::string& stem);  // the launch checks (below)
void ResetLaunchAfterFork();

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
  g->stem = stem;
  OpenLaunchFiles(stem);
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

// Where a call or launch happened: its context and, from CUPTI, the function's name. A CUPTI callback names
// the context by its unique id. A launch's context is the one its stream belongs to (cuda.h, cuLaunchKernel: a
// CUkernel runs in the stream's context, the current one for the NULL stream), asked of the driver
// (cuStreamGetCtx) for a real stream; a launch seen through the preload library with the NULL or a
// per-thread/legacy stream runs in the current context. Handles can be reused after a context is destroyed, so
// contexts known by handle are forgotten then.
struct CallSite {
  uint64_t ctx_key = 0;           // CUPTI's contextUid (when known and no stream says otherwise)
  const void* context = nullptr;  // null: no context (or not yet asked)
  const char* symbol = nullptr;   // the kernel's name from CUPTI (null: asked of the driver)
  bool ask_driver = false;        // from the preload library: the context comes from the driver
  void* stream = nullptr;         // the launch's stream (null: the NULL stream, or not a launch)
};
CallSite SiteOf(const cupti::CallbackData* d) { return CallSite{d->contextUid, d->context, d->symbolName, false, nullptr}; }

// The target and device ordinal of the context a call or launch ran in, found once per context (-1: unknown).
void ContextOf(CallSite s, int* target, int* device) {
  const uintptr_t st = reinterpret_cast<uintptr_t>(s.stream);
  bool by_handle = s.ask_driver;
  if (st > 2 && g->stream_get_ctx != nullptr) {  // 0x1, 0x2: CU_STREAM_LEGACY, CU_STREAM_PER_THREAD
    // This thread's last stream and its context (a launch loop uses the same stream again and again).
    thread_local void* last_stream = nullptr;
    thread_local void* last_stream_ctx = nullptr;
    thread_local uint32_t last_stream_gen = 0;
    const uint32_t now = g->ctx_gen.load(std::memory_order_acquire);
    void* c = nullptr;
    if (last_stream == s.stream && last_stream_gen == now) {
      c = last_stream_ctx;
    } else if (g->stream_get_ctx(s.stream, &c) == 0 && c != nullptr) {
      last_stream = s.stream;
      last_stream_ctx = c;
      last_stream_gen = now;
    } else {
      c = nullptr;
    }
    if (c != nullptr) {
      if (c != s.context || s.ask_driver) by_handle = true;
      s.context = c;
    }
  }
  if (by_handle && s.context == nullptr) {
    void* c = nullptr;
    if (g->ctx_get_current == nullptr || g->ctx_get_current(&c) != 0) c = nullptr;
    s.context = c;
  }
  if (by_handle) s.ctx_key = reinterpret_cast<uintptr_t>(s.context) | (uint64_t{1} << 63);
  const uint32_t gen = by_handle ? g->ctx_gen.load(std::memory_order_acquire) : 0;
  // This thread's last context (a launch loop asks again and again).
  thread_local uint64_t last_key = 0;
  thread_local uint32_t last_gen = 0;
  thread_local int last_target = -1, last_device = -1;
  thread_local bool last_valid = false;
  if (last_valid && last_key == s.ctx_key && last_gen == gen) {
    *target = last_target;
    *device = last_device;
    return;
  }
  *target = -1;
  *device = -1;
  std::lock_guard<std::mutex> lock(g->target_mu);
  for (int i = 0; i < g->n_ctx; ++i)
    if (g->ctx_key[i] == s.ctx_key && g->ctx_key_gen[i] == gen) {
      *target = g->ctx_target[i];
      *device = g->ctx_device[i];
      last_key = s.ctx_key;
      last_gen = gen;
      last_target = *target;
      last_device = *device;
      last_valid = true;
      return;
    }
  if (g->ctx_get_device == nullptr || g->device_get_attribute == nullptr) return;
  cupti::CUdevice dev = 0;
  // The device of that context: the current one's, or asked with the context pushed for a moment.
  void* current = nullptr;
  if (g->ctx_get_current != nullptr && g->ctx_get_current(&current) != 0) current = nullptr;
  if (s.context != nullptr && s.context != current && g->ctx_push != nullptr && g->ctx_pop != nullptr &&
      g->ctx_push(const_cast<void*>(s.context)) == 0) {
    if (g->ctx_get_device(&dev) != 0) dev = 0;
    void* popped = nullptr;
    g->ctx_pop(&popped);
  } else if (s.context == nullptr || g->ctx_get_device(&dev) != 0) {
    dev = 0;
  }
  int t = -2;
  int major = 0, minor = 0;
  if (g->device_get_attribute(&major, cupti::kAttrComputeCapabilityMajor, dev) == 0 &&
      g->device_get_attribute(&minor, cupti::kAttrComputeCapabilityMinor, dev) == 0) {
    Target tt;
    if (Parse(driver::TargetForComputeCapability(major, minor), &tt)) t = static_cast<int>(tt);
  }
  int slot = g->n_ctx < 16 ? g->n_ctx++ : -1;
  for (int i = 0; slot < 0 && i < 16; ++i)  // full: a slot of a context known by a forgotten generation
    if ((g->ctx_key[i] >> 63) != 0 && g->ctx_key_gen[i] != g->ctx_gen.load()) slot = i;
  if (slot >= 0) {
    g->ctx_key[slot] = s.ctx_key;
    g->ctx_key_gen[slot] = gen;
    g->ctx_target[slot] = t;
    g->ctx_device[slot] = dev;
  }
  *target = t;
  *device = dev;
}

void FillTarget(const cupti::CallbackData* d, EncodeCall* c) {
  if (g->forced_target) {
    c->target = g->target;
    c->flags |= kHasTarget;
    return;
  }
  int t = -1, dev = -1;
  ContextOf(SiteOf(d), &t, &dev);
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
  ResetLaunchAfterFork();
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

// ------------------------------------------------------------------------------------------ launches
//
// At the exit of every successful kernel launch (driver and runtime entry points, graph kernel nodes when
// they are set), the kernel's parameter layout (cuFuncGetParamInfo / cuKernelGetParamInfo, once per
// function) gives the 64-byte-aligned windows where a map can be (src/trace/launch.h); each window's
// 128 bytes are classified once (MapCache), and each map's tensor is checked against the allocation
// that holds it (cuPointerGetAttributes), again only after memory was freed somewhere in the process (a
// free generation bumped by the free callbacks). A launch whose kernel has no parameter of 128 bytes or
// more costs a table lookup and two atomic increments.

struct FunctionInfo {
  uintptr_t key = 0;
  bool layout_ok = false;
  uint32_t generation = 0;  // the unload generation it was read in
  std::vector<ParamSlot> params;
  std::vector<MapWindow> windows;
  // Per window: how many times it held bytes that passed the never-written test and were judged not a map
  // (kRetired: no longer scanned), or kMapSeen (it held a map once: always scanned).
  std::unique_ptr<std::atomic<uint8_t>[]> window_state;
  std::atomic<uint32_t> retired_windows{0};  // == windows.size(): nothing left to scan
  KernelCounts* counts = nullptr;  // in the kernels file (or the heap), for kernels with windows
  char name[kKernelNameMax] = {};
};

// A window of a kernel's parameters that held something other than a map at 8 launches of the kernel (bytes
// neither all zero nor a map: the fields of a large parameter struct, the bytes 16 to 112 bytes after a map)
// is not scanned again: the layout of a kernel's parameters is fixed, so a place that held something else 8
// times is not where the kernel takes a map. A window that held a map once is scanned at every launch. This
// keeps the cost of a kernel with a large parameter (cuBLAS passes 1720 bytes: 100 windows) to its first
// launches; TMAPGEN_TRACE_LAUNCH_RETIRE=0 scans every window at every launch.
constexpr uint8_t kRetireAfter = 8;
constexpr uint8_t kRetired = kRetireAfter;
constexpr uint8_t kMapSeen = 0xff;

struct MapCheck {
  uint64_t free_gen = 0;  // 0: never checked
  uint64_t origin_gen = 0;
  Origin origin;
  int32_t device = -2;
  MemoryProblem problem = MemoryProblem::kNone;
  Allocation alloc;
  Extent extent;
  bool extent_ok = false;
  int target = -3;        // the target it was validated for
  bool invalid = false;   // breaks a documented rule for that target
};

constexpr size_t kFnSlots = 1 << 14;
constexpr uint32_t kKernelCapacity = 1024;
constexpr size_t kReportedMax = 1 << 16;
constexpr uint32_t kMaxLaunchExplained = 20;

// How launches reach OnLaunch (docs/trace.md, "At kernel launch"; TMAPGEN_TRACE_LAUNCH_VIA).
enum class Via : int {
  kPreload = 0,  // the preload library's wrappers call OnPreloadLaunch; no CUPTI callback per launch
  kCupti = 1,    // CUPTI's launch callbacks (no preload library, or it could not wrap every entry point)
  kBoth = 2,     // CUPTI checks, and the wrappers only count: the two counts are compared at exit
};

struct LaunchGlobal {
  bool enabled = false;
  std::atomic<int> via{static_cast<int>(Via::kCupti)};
  std::string via_note;  // why launches are watched the way they are (the state message)
  preload::AttachFn preload_attach = nullptr;
  std::atomic<bool> fell_back{false};
  // Launches the driver accepted, as each path saw them (compared at exit with TMAPGEN_TRACE_LAUNCH_VIA=both).
  std::atomic<uint64_t> seen_cupti_driver{0};   // driver launches handed to OnLaunch by the CUPTI callbacks
  std::atomic<uint64_t> seen_cupti_runtime{0};  // runtime launches with no driver launch under them
  std::atomic<uint64_t> seen_preload{0};        // launches the preload library's wrappers reported
  // TMAPGEN_TRACE_LAUNCH_STATS=1: where the time of the launch checks goes, printed at exit.
  bool stats = false;
  bool retire = true;  // TMAPGEN_TRACE_LAUNCH_RETIRE=0: every window scanned at every launch
  std::atomic<uint64_t> st_candidates{0};  // windows that passed the never-written test
  std::atomic<uint64_t> st_classified{0};  // ... and were looked up in (or judged into) the shared cache
  std::atomic<uint64_t> st_retired{0};     // windows no longer scanned
  std::atomic<uint64_t> st_ns{0};          // nanoseconds inside the launch checks
  bool device_maps = false;
  std::string device_filter;  // kernel-name substring for the device-memory scan ("" = every kernel)
  cupti::PfnFuncGetParamInfo func_param_info = nullptr;
  cupti::PfnFuncGetParamInfo kernel_param_info = nullptr;
  cupti::PfnFuncGetName func_name = nullptr;
  cupti::PfnFuncGetName kernel_name = nullptr;
  cupti::PfnPointerGetAttributes ptr_attrs = nullptr;
  cupti::PfnPointerGetAttribute ptr_attr = nullptr;
  cupti::PfnStreamSynchronize stream_sync = nullptr;
  cupti::PfnMemcpyDtoH dtoh = nullptr;
  cupti::PfnStreamIsCapturing is_capturing = nullptr;
  cupti::PfnGraphGetNodes graph_get_nodes = nullptr;
  cupti::PfnGraphNodeGetType graph_node_type = nullptr;
  cupti::PfnGraphKernelNodeGetParams graph_kernel_params = nullptr;
  cupti::PfnGraphChildGraph graph_child = nullptr;
  std::atomic<cupti::PfnGetFuncBySymbol> get_func_by_symbol{nullptr};
  cupti::PfnRuntimeError peek_last_error = nullptr;  // of the same runtime as get_func_by_symbol
  cupti::PfnRuntimeError get_last_error = nullptr;
  std::atomic<bool> looked_for_runtime{false};
  int debug = 0;  // TMAPGEN_TRACE_LAUNCH_DEBUG: what the layout queries and the windows gave, on stderr
  std::atomic<int> debug_launches{0};

  std::atomic<uintptr_t> fkeys[kFnSlots];
  std::atomic<FunctionInfo*> fvals[kFnSlots];
  std::mutex fmu;
  std::atomic<uint32_t> unload_gen{1};

  MapCache maps{8192};
  MapOrigins origins;
  std::atomic<uint64_t> free_gen{1};
  std::atomic<uint64_t> origin_gen{1};  // bumped by every map a traced call writes
  std::mutex check_mu;
  std::vector<MapCheck> checks;  // by MapInfo::id
  std::vector<uint64_t> reported;  // open-addressing set of record keys (0 = empty)
  size_t reported_n = 0;

  int fd = -1;
  KernelsHeader* kernels = nullptr;
  size_t kernels_size = 0;
  std::atomic<uint32_t> next_seq{0};
  std::atomic<uint32_t> explained{0};
  std::mutex standalone_mu;
  std::vector<LaunchRecord> standalone;  // records kept for the exit summary without a trace directory
};
LaunchGlobal* lg = nullptr;

// A runtime launch may make a driver launch that CUPTI reports too: the runtime launch is checked only when
// no driver launch was seen under it (checked at the driver level, from the same parameter bytes). Nothing is
// asked of the runtime when a runtime launch begins: its API-enter callback runs inside the runtime's call.
thread_local uint32_t tls_runtime_depth = 0;
thread_local uint64_t tls_driver_launches = 0;        // driver launches this thread handed to OnLaunch
thread_local uint64_t tls_driver_launches_at[32] = {};  // ... when each runtime launch level began

KernelsHeader* NewKernelsMemory(size_t* size) {
  *size = KernelsFileSize(kKernelCapacity);
  void* m = ::mmap(nullptr, *size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  auto* h = static_cast<KernelsHeader*>(m);
  std::memcpy(h->magic, kKernelsMagic, sizeof(kKernelsMagic));
  h->capacity = kKernelCapacity;
  return h;
}

// The launch stream files beside the encode stream: STEM.launch (frames) and STEM.kernels (counts).
void OpenLaunchFiles(const std::string& stem) {
  if (lg == nullptr) return;
  if (lg->fd >= 0) ::close(lg->fd);
  lg->fd = -1;
  if (lg->kernels != nullptr) ::munmap(lg->kernels, lg->kernels_size);
  lg->kernels = nullptr;
  if (!stem.empty()) {
    const std::string kpath = StrCat(stem, ".kernels");
    const int kfd = ::open(kpath.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const size_t size = KernelsFileSize(kKernelCapacity);
    if (kfd >= 0) {
      void* m = MAP_FAILED;
      if (::ftruncate(kfd, static_cast<off_t>(size)) == 0)
        m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, kfd, 0);
      ::close(kfd);
      if (m != MAP_FAILED) {
        auto* h = static_cast<KernelsHeader*>(m);
        std::memcpy(h->magic, kKernelsMagic, sizeof(kKernelsMagic));
        h->capacity = kKernelCapacity;
        lg->kernels = h;
        lg->kernels_size = size;
      }
    }
    lg->fd = ::open(StrCat(stem, ".launch").c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
  }
  if (lg->kernels == nullptr) lg->kernels = NewKernelsMemory(&lg->kernels_size);
}

uint64_t Mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

uintptr_t FunctionOfStub(const void* stub);
bool WantDeviceScan(const FunctionInfo& fi);

// What a launch names its kernel by.
enum class Handle { kFunction, kKernel, kStub };

// The layout of a function, read from the driver (CUfunction first, then CUkernel).
void ReadLayout(uintptr_t key, Handle kind, const char* symbol, FunctionInfo* fi) {
  fi->key = key;
  const uintptr_t f = kind == Handle::kStub ? FunctionOfStub(reinterpret_cast<const void*>(key)) : key;
  const bool kernel_handle = kind == Handle::kKernel;
  void* fp = reinterpret_cast<void*>(f);
  cupti::PfnFuncGetParamInfo get = kernel_handle ? lg->kernel_param_info : lg->func_param_info;
  cupti::PfnFuncGetName name = kernel_handle ? lg->kernel_name : lg->func_name;
  if (f == 0) get = nullptr;
  size_t off = 0, size = 0;
  int first = 0;
  if (get != nullptr && (first = get(fp, 0, &off, &size)) != 0 && first != cupti::kErrorInvalidValue &&
      !kernel_handle && lg->kernel_param_info != nullptr && lg->kernel_param_info(fp, 0, &off, &size) == 0) {
    get = lg->kernel_param_info;  // a CUkernel passed where a CUfunction goes (allowed since CUDA 12)
    name = lg->kernel_name;
  }
  if (get != nullptr) {
    fi->layout_ok = true;
    for (size_t i = 0; i < 4096; ++i) {
      const int r = get(fp, i, &off, &size);
      if (r == cupti::kErrorInvalidValue) break;  // past the last parameter
      if (r != 0) {
        fi->layout_ok = i > 0;
        break;
      }
      fi->params.push_back(ParamSlot{static_cast<uint32_t>(off), static_cast<uint32_t>(size)});
    }
  }
  FindWindows(fi->params.data(), fi->params.size(), &fi->windows);
  fi->window_state.reset(new std::atomic<uint8_t>[fi->windows.size()]());
  const char* n = nullptr;
  if (f == 0 || name == nullptr || name(&n, fp) != 0 || n == nullptr) n = symbol;
  CopyTail(n != nullptr ? std::string_view(n) : std::string_view(), fi->name, kKernelNameMax);
  if (lg->debug) {
    std::string line = StrCat("tmapgen trace debug: layout of ", FieldView(fi->name, kKernelNameMax), " (handle ",
                              Hex(key), kind == Handle::kStub ? " host stub" : kind == Handle::kKernel ? " CUkernel" : " CUfunction",
                              " -> ", Hex(f), ", query ", get == nullptr ? "none" : get == lg->kernel_param_info ? "cuKernelGetParamInfo" : "cuFuncGetParamInfo",
                              ", first answer ", first, "): ", fi->layout_ok ? "" : "NOT READ, ", fi->params.size(), " parameters");
    for (size_t i = 0; i < fi->params.size() && i < 16; ++i) StrAppend(&line, " [", fi->params[i].offset, "+", fi->params[i].size, "]");
    StrAppend(&line, ", ", fi->windows.size(), " windows\n");
    Say(line);
  }
  if ((!fi->windows.empty() || WantDeviceScan(*fi)) && lg->kernels != nullptr) {
    KernelsHeader* h = lg->kernels;
    if (h->used < h->capacity) {
      auto* k = reinterpret_cast<KernelCounts*>(reinterpret_cast<char*>(h) + sizeof(KernelsHeader)) + h->used;
      std::memcpy(k->name, fi->name, sizeof(k->name));
      k->function = key;
      fi->counts = k;
      ++h->used;
    }
  }
}

FunctionInfo* FindFunction(uintptr_t f, Handle kind, const char* symbol) {
  const uint32_t gen = lg->unload_gen.load(std::memory_order_acquire);
  size_t i = Mix(0, f) & (kFnSlots - 1);
  for (size_t n = 0; n < kFnSlots; ++n, i = (i + 1) & (kFnSlots - 1)) {
    const uintptr_t k = lg->fkeys[i].load(std::memory_order_acquire);
    if (k == f) {
      FunctionInfo* fi = lg->fvals[i].load(std::memory_order_acquire);
      if (fi->generation == gen) return fi;
      break;  // read before a module was unloaded: the handle may name another function now
    }
    if (k == 0) break;
  }
  std::lock_guard<std::mutex> lock(lg->fmu);
  i = Mix(0, f) & (kFnSlots - 1);
  for (size_t n = 0; n < kFnSlots; ++n, i = (i + 1) & (kFnSlots - 1)) {
    const uintptr_t k = lg->fkeys[i].load(std::memory_order_acquire);
    if (k == f) {
      FunctionInfo* fi = lg->fvals[i].load(std::memory_order_acquire);
      if (fi->generation == gen) return fi;
      auto* fresh = new FunctionInfo();  // the old one may be in use on another thread: kept
      ReadLayout(f, kind, symbol, fresh);
      fresh->generation = gen;
      lg->fvals[i].store(fresh, std::memory_order_release);
      return fresh;
    }
    if (k == 0) {
      auto* fi = new FunctionInfo();
      ReadLayout(f, kind, symbol, fi);
      fi->generation = gen;
      lg->fvals[i].store(fi, std::memory_order_release);
      lg->fkeys[i].store(f, std::memory_order_release);
      return fi;
    }
  }
  return nullptr;  // table full: not scanned
}

Allocation QueryAllocation(uint64_t address) {
  Allocation a;
  if (lg->ptr_attrs == nullptr) return a;
  int attrs[4] = {cupti::kPointerAttrRangeStartAddr, cupti::kPointerAttrRangeSize, cupti::kPointerAttrDeviceOrdinal,
                  cupti::kPointerAttrBufferId};
  uint64_t start = 0, size = 0, buffer_id = 0;
  int device = -1;
  void* data[4] = {&start, &size, &device, &buffer_id};
  if (lg->ptr_attrs(4, attrs, data, address) != 0 || size == 0) return a;
  a.found = true;
  a.base = start;
  a.size = size;
  a.device = device;
  a.buffer_id = buffer_id;
  return a;
}

// The allocation holding the extent's first byte, grown over the allocations mapped right after it on
// the same device (virtual-memory mappings made piece by piece, as PyTorch's expandable segments are).
Allocation AllocationFor(const Extent& e) {
  Allocation a = QueryAllocation(e.lo);
  for (int step = 0; step < 64 && a.found && e.hi > a.base + a.size; ++step) {
    const Allocation next = QueryAllocation(a.base + a.size);
    if (!next.found || next.base != a.base + a.size || next.device != a.device) break;
    a.size += next.size;
  }
  return a;
}

uint64_t BufferIdOf(uint64_t address) {
  uint64_t id = 0;
  if (lg == nullptr || lg->ptr_attr == nullptr || lg->ptr_attr(&id, cupti::kPointerAttrBufferId, address) != 0) return 0;
  return id;
}

bool ReportOnce(uint64_t key) {
  if (key == 0) key = 1;
  if (lg->reported.empty()) lg->reported.assign(2 * kReportedMax, 0);
  if (lg->reported_n >= kReportedMax) return false;
  const size_t mask = lg->reported.size() - 1;
  for (size_t i = key & mask;; i = (i + 1) & mask) {
    if (lg->reported[i] == key) return false;
    if (lg->reported[i] == 0) {
      lg->reported[i] = key;
      ++lg->reported_n;
      return true;
    }
  }
}

void EmitLaunchRecord(LaunchRecord* r) {
  r->seq = lg->next_seq.fetch_add(1, std::memory_order_relaxed);
  if (lg->fd >= 0) {
    char buf[kLaunchFrameSize];
    MakeLaunchFrame(*r, buf);
    const ssize_t w = ::write(lg->fd, buf, kLaunchFrameSize);  // O_APPEND: one frame, one write
    (void)w;
  }
  if (g->standalone) {
    std::lock_guard<std::mutex> lock(lg->standalone_mu);
    if (lg->standalone.size() < 4096) lg->standalone.push_back(*r);
  }
  if (IsProblem(*r)) {
    const uint32_t n = lg->explained.fetch_add(1, std::memory_order_relaxed);
    if (n < kMaxLaunchExplained) Say(ExplainLaunch(*r));
    else if (n == kMaxLaunchExplained)
      Say("tmapgen trace: further launch findings of this process are not explained here; the summary at exit counts them\n");
  }
}

// One map at one launch: memory, validity for the target, origin; a record when it is a finding or a map
// the trace never saw encoded. Returns true when it is a finding.
bool CheckMap(const MapInfo& m, LaunchCall call, const FunctionInfo& fi, uint32_t param, uint32_t offset,
              int device, int target) {
  const uint64_t free_gen = lg->free_gen.load(std::memory_order_acquire);
  const uint64_t origin_gen = lg->origin_gen.load(std::memory_order_acquire);
  MapCheck c;
  if (m.id != UINT32_MAX) {
    std::lock_guard<std::mutex> lock(lg->check_mu);
    if (lg->checks.size() <= m.id) lg->checks.resize(m.id + 1);
    const MapCheck& k = lg->checks[m.id];
    // The common case: a map a traced call wrote, checked since the last free, clean.
    if (k.free_gen == free_gen && k.origin_gen == origin_gen && k.device == device && k.target == target &&
        k.problem == MemoryProblem::kNone && k.origin.kind == OriginKind::kTracedCall)
      return false;
    c = k;
  }
  if (c.origin_gen != origin_gen) {
    c.origin = lg->origins.Find(m.words);
    c.origin_gen = origin_gen;
  }
  const Origin& origin = c.origin;
  const uint64_t encode_id = origin.kind == OriginKind::kTracedCall ? origin.buffer_id : 0;
  const bool fresh = c.free_gen == free_gen && c.device == device && c.problem == MemoryProblem::kNone;
  if (!fresh) {
    c.free_gen = free_gen;
    c.device = device;
    const absl::StatusOr<Extent> extent = TensorExtent(m.spec);
    c.extent_ok = extent.ok();
    if (c.extent_ok) c.extent = *extent;
    c.alloc = c.extent_ok ? AllocationFor(c.extent) : Allocation();
  }
  c.problem = c.extent_ok ? CheckMemory(c.extent, c.alloc, device, encode_id) : MemoryProblem::kTooSmall;
  // A map over address 0 is a placeholder (for an operand a kernel does not read): a kernel
  // that used it would fault at once, not corrupt memory silently.
  if (m.spec.global_address == 0) c.problem = MemoryProblem::kNone;
  if (c.target != target) {
    c.target = target;
    c.invalid = false;
    if (target >= 0) {
      TensorMapSpec spec = m.spec;
      spec.target = static_cast<Target>(target);
      spec.set_fields |= kFieldTarget;
      Validation v;
      Validate(spec, &v);
      c.invalid = v.errors > 0;
    }
  }
  if (m.id != UINT32_MAX) {
    std::lock_guard<std::mutex> lock(lg->check_mu);
    lg->checks[m.id] = c;
  }
  // A map a traced call wrote was judged at that call, with everything the driver was given (the bytes
  // cannot tell im2col::w from im2col); the rules judge here only the maps no traced call wrote.
  const bool invalid = c.invalid && origin.kind != OriginKind::kTracedCall;
  const bool problem = c.problem != MemoryProblem::kNone || invalid;
  if (!problem && origin.kind == OriginKind::kTracedCall) return false;
  uint64_t key = Mix(Mix(Mix(Mix(HashMapWords(m.words), fi.key), param), offset), static_cast<uint64_t>(call));
  key = Mix(Mix(key, static_cast<uint64_t>(c.problem)), invalid);
  {
    std::lock_guard<std::mutex> lock(lg->check_mu);
    if (!ReportOnce(key)) return problem;
  }
  LaunchRecord r;
  r.call = call;
  r.problem = c.problem;
  r.origin = origin.kind;
  r.origin_seq = origin.seq;
  r.origin_buffer_id = origin.buffer_id;
  r.origin_address = origin.address;
  r.flags = kLaunchHasAllocation;
  if (invalid) r.flags |= kLaunchInvalidMap;
  if (origin.kind != OriginKind::kUnknown) r.flags |= kLaunchHasOrigin;
  if (target >= 0) {
    r.flags |= kLaunchHasTarget;
    r.target = static_cast<uint8_t>(target);
  }
  r.param = param;
  r.buffer_offset = offset;
  r.launch_device = device;
  r.alloc_device = c.alloc.found ? c.alloc.device : -1;
  r.alloc_base = c.alloc.found ? c.alloc.base : 0;
  r.alloc_size = c.alloc.found ? c.alloc.size : 0;
  r.alloc_buffer_id = c.alloc.buffer_id;
  r.extent_lo = c.extent.lo;
  r.extent_hi = c.extent.hi;
  r.pid = g->pid;
  if (tls_tid == 0) tls_tid = static_cast<int32_t>(::syscall(SYS_gettid));
  r.tid = tls_tid;
  r.driver_version = DriverVersion();
  std::memcpy(r.words, m.words, sizeof(r.words));
  std::memcpy(r.kernel, fi.name, sizeof(r.kernel));
  EmitLaunchRecord(&r);
  return problem;
}

// The bytes of the parameter buffer for one window: from kernelParams[param], or from the packed buffer
// of `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE). The launch succeeded, so the driver read them.
bool WindowBytes(void** kernel_params, const char* packed, size_t packed_size, const MapWindow& w,
                 uint64_t (&out)[16]) {
  if (kernel_params != nullptr) {
    const char* p = static_cast<const char*>(kernel_params[w.param]);
    if (p == nullptr) return false;
    std::memcpy(out, p + w.param_offset, 128);
    return true;
  }
  if (packed == nullptr || w.buffer_offset + 128 > packed_size) return false;
  std::memcpy(out, packed + w.buffer_offset, 128);
  return true;
}

void PackedBuffer(void** extra, const char** buf, size_t* size) {
  *buf = nullptr;
  *size = 0;
  if (extra == nullptr) return;
  for (int i = 0; i < 64 && extra[i] != reinterpret_cast<void*>(cupti::kLaunchParamEnd); i += 2) {
    const uintptr_t tag = reinterpret_cast<uintptr_t>(extra[i]);
    if (tag == cupti::kLaunchParamBufferPointer) *buf = static_cast<const char*>(extra[i + 1]);
    else if (tag == cupti::kLaunchParamBufferSize && extra[i + 1] != nullptr) *size = *static_cast<const size_t*>(extra[i + 1]);
  }
}

bool WantDeviceScan(const FunctionInfo& fi) {
  if (!lg->device_maps) return false;
  return lg->device_filter.empty() || FieldView(fi.name, kKernelNameMax).find(lg->device_filter) != std::string_view::npos;
}

// Opt-in (TMAPGEN_TRACE_DEVICE_MAPS): after the kernel finished (the stream synchronised), the first
// 64 KiB of device memory each 8-byte parameter points to, scanned for maps built on the device.
void ScanDeviceMemory(const FunctionInfo& fi, void** kernel_params, const char* packed, size_t packed_size,
                      void* stream, int device, int target) {
  if (lg->stream_sync == nullptr || lg->dtoh == nullptr) return;
  if (lg->is_capturing != nullptr) {
    int status = 0;
    if (lg->is_capturing(stream, &status) != 0 || status != 0) return;  // captured: nothing ran yet
  }
  bool synced = false;
  static thread_local std::vector<uint64_t> host;
  for (size_t p = 0; p < fi.params.size(); ++p) {
    if (fi.params[p].size != 8) continue;
    uint64_t ptr = 0;
    if (kernel_params != nullptr) {
      if (kernel_params[p] == nullptr) continue;
      std::memcpy(&ptr, kernel_params[p], 8);
    } else if (packed != nullptr && fi.params[p].offset + 8 <= packed_size) {
      std::memcpy(&ptr, packed + fi.params[p].offset, 8);
    }
    if (ptr == 0 || ptr % 64 != 0) continue;
    const Allocation a = QueryAllocation(ptr);
    if (!a.found || a.device < 0) continue;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(a.base + a.size - ptr, 64 * 1024)) / 128 * 128;
    if (n < 128) continue;
    if (!synced) {
      if (lg->stream_sync(stream) != 0) return;
      synced = true;
    }
    host.resize(n / 8);
    if (lg->dtoh(host.data(), ptr, n) != 0) continue;
    if (lg->kernels) lg->kernels->device_reads.fetch_add(1, std::memory_order_relaxed);
    int found = 0;
    for (size_t at = 0; at + 128 <= n && found < 64; at += kMapAlign) {
      uint64_t w[16];
      std::memcpy(w, host.data() + at / 8, 128);
      TensorMapSpec spec;
      if (!IsDeviceBuiltMap(w, &spec)) continue;
      ++found;
      MapInfo m;
      std::memcpy(m.words, w, sizeof(w));
      m.spec = spec;
      m.id = UINT32_MAX;  // not cached: device memory changes under the same address
      const bool problem = CheckMap(m, LaunchCall::kDeviceMemory, fi, static_cast<uint32_t>(p), static_cast<uint32_t>(at),
                                    device, target);
      if (fi.counts != nullptr) {
        fi.counts->maps.fetch_add(1, std::memory_order_relaxed);
        if (problem) fi.counts->problems.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
}

// TMAPGEN_TRACE_LAUNCH_DEBUG: one line per window of the first launches (why a window is not a map).
void DebugWindow(const FunctionInfo& fi, LaunchCall call, const MapWindow& w, const uint64_t (&words)[16], const MapInfo* m) {
  lg->debug_launches.fetch_add(1, std::memory_order_relaxed);
  const WindowVerdict v = ExplainWindow(words);
  std::string line = StrCat("tmapgen trace debug: ", FieldView(fi.name, kKernelNameMax), " call ", static_cast<int>(call),
                            " parameter ", w.param, " +", w.param_offset, " (buffer ", w.buffer_offset, "): ",
                            m != nullptr ? "MAP" : "not a map", "; never-written bits set ", v.never_written_bits_set,
                            ", decodes ", v.decodes ? 1 : 0, ", re-encodes ", v.reencodes ? 1 : 0, "; words");
  for (int i = 0; i < 16; ++i) StrAppend(&line, " ", Hex(words[i]));
  StrAppend(&line, "\n");
  Say(line);
}

void CheckLaunch(LaunchCall call, uintptr_t f, Handle kind, void** kernel_params, void** extra, void* stream,
                 const CallSite& site) {
  KernelsHeader* h = lg->kernels;
  if (h != nullptr) h->launches.fetch_add(1, std::memory_order_relaxed);
  FunctionInfo* fi = f == 0 ? nullptr : FindFunction(f, kind, site.symbol);
  if (fi == nullptr || !fi->layout_ok) {
    if (lg->debug && lg->debug_launches.fetch_add(1, std::memory_order_relaxed) < 64)
      Say(StrCat("tmapgen trace debug: launch (call ", static_cast<int>(call), ", handle ", Hex(f), ") not scanned: ",
                 fi == nullptr ? "no function" : "no layout", "\n"));
    if (h != nullptr) h->unscanned.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const bool device_scan = WantDeviceScan(*fi) && call != LaunchCall::kGraphKernelNode;
  if (fi->windows.empty() && !device_scan) return;
  // Every window retired (a kernel whose large parameter never held a map): nothing to read.
  const size_t n_windows =
      fi->retired_windows.load(std::memory_order_relaxed) >= fi->windows.size() ? 0 : fi->windows.size();
  const char* packed = nullptr;
  size_t packed_size = 0;
  if (kernel_params == nullptr) PackedBuffer(extra, &packed, &packed_size);
  if (h != nullptr) h->scanned.fetch_add(1, std::memory_order_relaxed);
  int target = g->forced_target ? g->target : -1, device = -1;
  uint64_t maps = 0, problems = 0;
  const bool stats = lg->stats;
  uint64_t candidates = 0, classified = 0, retired = 0;
  for (size_t wi = 0; wi < n_windows; ++wi) {
    const MapWindow& w = fi->windows[wi];
    std::atomic<uint8_t>& state = fi->window_state[wi];
    const uint8_t st = state.load(std::memory_order_relaxed);
    if (st == kRetired) continue;
    uint64_t words[16];
    if (!WindowBytes(kernel_params, packed, packed_size, w, words)) continue;
    // Most windows are not maps and end at the never-written bits (16 ANDs), or are all zero (padding).
    const MapInfo* m = nullptr;
    uint64_t any = 0;
    for (uint64_t x : words) any |= x;
    if (any != 0 && NeverWrittenBitsClear(words)) {
      // What this window held at this thread's last launch of the kernel: one compare (a map) or one hash
      // (not a map) instead of a locked lookup.
      struct Last {
        const FunctionInfo* fi;
        size_t window;
        const MapInfo* map;
        uint64_t not_map_hash;
      };
      thread_local Last last[256] = {};
      Last& l = last[(reinterpret_cast<uintptr_t>(fi) / 64 + wi) & 255];
      const bool same_slot = l.fi == fi && l.window == wi;
      if (same_slot && l.map != nullptr && std::memcmp(l.map->words, words, sizeof(words)) == 0) {
        m = l.map;
      } else {
        const uint64_t hash = HashMapWords(words);
        if (!(same_slot && l.map == nullptr && l.not_map_hash == hash)) {
          m = lg->maps.Classify(words);
          ++classified;
          if (m == nullptr) l = Last{fi, wi, nullptr, hash};
          else if (m->id != UINT32_MAX) l = Last{fi, wi, m, 0};
        }
      }
      ++candidates;
    }
    if (any != 0) {
      if (m != nullptr) {
        // Another thread may have retired the window meanwhile: counted back, so that retired_windows never
        // reaches windows.size() while a window holds a map.
        if (st != kMapSeen && state.exchange(kMapSeen, std::memory_order_relaxed) == kRetired)
          fi->retired_windows.fetch_sub(1, std::memory_order_relaxed);
      } else if (st < kRetireAfter && lg->retire) {
        // Only the thread that moves the count on counts a retirement (launches of the kernel on two threads
        // read the same count).
        uint8_t expected = st;
        if (state.compare_exchange_strong(expected, static_cast<uint8_t>(st + 1), std::memory_order_relaxed) &&
            st + 1 == kRetired) {
          ++retired;
          fi->retired_windows.fetch_add(1, std::memory_order_relaxed);
        }
      }
    }
    if (lg->debug && lg->debug_launches.load(std::memory_order_relaxed) < 64) DebugWindow(*fi, call, w, words, m);
    if (m == nullptr) continue;
    if (device == -1) {
      int t = -1;
      CallSite at = site;
      at.stream = stream;
      ContextOf(at, &t, &device);
      if (!g->forced_target) target = t;
    }
    ++maps;
    problems += CheckMap(*m, call, *fi, w.param, w.buffer_offset, device, target);
  }
  if (stats) {
    lg->st_candidates.fetch_add(candidates, std::memory_order_relaxed);
    lg->st_classified.fetch_add(classified, std::memory_order_relaxed);
    lg->st_retired.fetch_add(retired, std::memory_order_relaxed);
  }
  if (fi->counts != nullptr) {
    fi->counts->launches.fetch_add(1, std::memory_order_relaxed);
    if (maps) fi->counts->maps.fetch_add(maps, std::memory_order_relaxed);
    if (problems) fi->counts->problems.fetch_add(problems, std::memory_order_relaxed);
  } else if (maps && h != nullptr) {
    h->kernels_dropped.fetch_add(1, std::memory_order_relaxed);
  }
  if (device_scan) {
    if (device == -1) {
      int t = -1;
      CallSite at = site;
      at.stream = stream;
      ContextOf(at, &t, &device);
      if (!g->forced_target) target = t;
    }
    ScanDeviceMemory(*fi, kernel_params, packed, packed_size, stream, device, target);
  }
}

uint64_t NowNs() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
}

void OnLaunch(LaunchCall call, uintptr_t f, Handle kind, void** kernel_params, void** extra, void* stream,
              const CallSite& site) {
  if (!lg->stats) return CheckLaunch(call, f, kind, kernel_params, extra, stream, site);
  const uint64_t t0 = NowNs();
  CheckLaunch(call, f, kind, kernel_params, extra, stream, site);
  lg->st_ns.fetch_add(NowNs() - t0, std::memory_order_relaxed);
}

// The runtime's host stub -> its CUfunction (cudaGetFuncBySymbol of a shared libcudart, looked up once; not
// reachable in a program that links the runtime statically). Called once per stub (the layout is cached).
uintptr_t FunctionOfStub(const void* stub) {
  if (!lg->looked_for_runtime.load(std::memory_order_acquire)) {
    // Called only from ReadLayout, under FindFunction's lock: looked up once.
    void* h = nullptr;
    auto fn = reinterpret_cast<cupti::PfnGetFuncBySymbol>(dlsym(RTLD_DEFAULT, "cudaGetFuncBySymbol"));
    for (const char* lib : {"libcudart.so.13", "libcudart.so.12"}) {
      if (fn != nullptr) break;
      if ((h = dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) != nullptr)  // a runtime loaded privately (PyTorch's)
        fn = reinterpret_cast<cupti::PfnGetFuncBySymbol>(dlsym(h, "cudaGetFuncBySymbol"));
    }
    void* from = h != nullptr ? h : RTLD_DEFAULT;
    lg->peek_last_error = reinterpret_cast<cupti::PfnRuntimeError>(dlsym(from, "cudaPeekAtLastError"));
    lg->get_last_error = reinterpret_cast<cupti::PfnRuntimeError>(dlsym(from, "cudaGetLastError"));
    // Without both, a failed lookup would leave its error for the program's next cudaGetLastError().
    if (lg->peek_last_error == nullptr || lg->get_last_error == nullptr) fn = nullptr;
    lg->get_func_by_symbol.store(fn, std::memory_order_release);
    lg->looked_for_runtime.store(true, std::memory_order_release);
  }
  cupti::PfnGetFuncBySymbol get = lg->get_func_by_symbol.load(std::memory_order_acquire);
  if (get == nullptr || stub == nullptr) return 0;
  // The runtime keeps one "last error" per thread, which programs read after their launches (PyTorch does
  // after each one). The lookup must leave it as it found it: skipped while an error is pending, and its own
  // error (a stub this runtime does not know) taken back at once.
  if (lg->peek_last_error() != 0) return 0;
  void* f = nullptr;
  const int rc = get(&f, stub);
  if (lg->debug) Say(StrCat("tmapgen trace debug: cudaGetFuncBySymbol(", Hex(reinterpret_cast<uintptr_t>(stub)), ") = ", rc, ", function ", Hex(reinterpret_cast<uintptr_t>(f)), "\n"));
  if (rc != 0) {
    lg->get_last_error();
    return 0;
  }
  return reinterpret_cast<uintptr_t>(f);
}

// ------------------------------------------------------------------------------------------ graphs
//
// A graph launch runs the kernel nodes of an executable graph with the parameters they had when it was
// instantiated (or last updated), whatever became of the memory since. So the maps in those nodes are found
// when the graph is instantiated (its kernel nodes read back with cuGraphKernelNodeGetParams, child graphs
// included) and checked against memory again at every cuGraphLaunch after memory was freed somewhere in the
// process: a tensor freed, or freed and handed out again, between instantiation and launch is a finding of that
// launch. A graph launch whose graph holds no map costs one locked lookup (and CUPTI's callback).

struct GraphMap {
  uintptr_t node = 0;
  FunctionInfo* fi = nullptr;
  const MapInfo* map = nullptr;
  uint32_t param = 0, offset = 0;
};
struct GraphExec {
  std::vector<GraphMap> maps;
  uint64_t checked_free_gen = 0;    // 0: not checked since instantiation
  uint64_t checked_origin_gen = 0;
};
std::mutex graph_mu;
std::unordered_map<uintptr_t, GraphExec>* graph_execs = nullptr;  // by CUgraphExec, under graph_mu

// The maps in one kernel node's parameters (the windows of its kernel, as at a launch).
void NodeMaps(uintptr_t node, const cupti::KernelNodeParams& np, std::vector<GraphMap>* out) {
  uintptr_t f = reinterpret_cast<uintptr_t>(np.func);
  Handle kind = Handle::kFunction;
  if (f == 0) {
    f = reinterpret_cast<uintptr_t>(np.kern);
    kind = Handle::kKernel;
  }
  FunctionInfo* fi = f == 0 ? nullptr : FindFunction(f, kind, nullptr);
  if (fi == nullptr || !fi->layout_ok) return;
  const char* packed = nullptr;
  size_t packed_size = 0;
  if (np.kernelParams == nullptr) PackedBuffer(np.extra, &packed, &packed_size);
  for (const MapWindow& w : fi->windows) {
    uint64_t words[16];
    if (!WindowBytes(np.kernelParams, packed, packed_size, w, words)) continue;
    uint64_t any = 0;
    for (uint64_t x : words) any |= x;
    if (any == 0 || !NeverWrittenBitsClear(words)) continue;
    const MapInfo* m = lg->maps.Classify(words);
    if (m == nullptr || m->id == UINT32_MAX) continue;  // not a map (or the cache is full: not kept)
    out->push_back(GraphMap{node, fi, m, w.param, w.buffer_offset});
  }
}

// The maps of every kernel node of a graph, child graphs included (to a depth of 8).
void GraphMaps(void* graph, int depth, std::vector<GraphMap>* out) {
  if (graph == nullptr || depth > 8 || lg->graph_get_nodes == nullptr || lg->graph_node_type == nullptr ||
      lg->graph_kernel_params == nullptr)
    return;
  size_t n = 0;
  if (lg->graph_get_nodes(graph, nullptr, &n) != 0 || n == 0) return;
  std::vector<void*> nodes(n);
  if (lg->graph_get_nodes(graph, nodes.data(), &n) != 0) return;
  nodes.resize(std::min(n, nodes.size()));
  for (void* node : nodes) {
    int type = -1;
    if (lg->graph_node_type(node, &type) != 0) continue;
    if (type == cupti::kGraphNodeTypeKernel) {
      cupti::KernelNodeParams np{};
      if (lg->graph_kernel_params(node, &np) == 0) NodeMaps(reinterpret_cast<uintptr_t>(node), np, out);
    } else if (type == cupti::kGraphNodeTypeGraph && lg->graph_child != nullptr) {
      void* child = nullptr;
      if (lg->graph_child(node, &child) == 0) GraphMaps(child, depth + 1, out);
    }
  }
}

// An executable graph was made from (or updated to) `graph`: its maps, replacing what was known of it.
void OnGraphExec(void* exec, void* graph) {
  if (exec == nullptr) return;
  std::vector<GraphMap> maps;
  GraphMaps(graph, 0, &maps);
  std::lock_guard<std::mutex> lock(graph_mu);
  if (graph_execs == nullptr) graph_execs = new std::unordered_map<uintptr_t, GraphExec>();
  if (maps.empty()) {
    graph_execs->erase(reinterpret_cast<uintptr_t>(exec));
    return;
  }
  GraphExec& e = (*graph_execs)[reinterpret_cast<uintptr_t>(exec)];
  e.maps = std::move(maps);
  e.checked_free_gen = e.checked_origin_gen = 0;
}

// One kernel node of an executable graph was given new parameters (cuGraphExecKernelNodeSetParams).
void OnGraphExecNode(void* exec, void* node, const cupti::KernelNodeParams& np) {
  std::vector<GraphMap> fresh;
  NodeMaps(reinterpret_cast<uintptr_t>(node), np, &fresh);
  std::lock_guard<std::mutex> lock(graph_mu);
  if (graph_execs == nullptr) graph_execs = new std::unordered_map<uintptr_t, GraphExec>();
  auto it = graph_execs->find(reinterpret_cast<uintptr_t>(exec));
  if (it == graph_execs->end()) {
    if (fresh.empty()) return;
    it = graph_execs->emplace(reinterpret_cast<uintptr_t>(exec), GraphExec()).first;
  }
  std::vector<GraphMap>& maps = it->second.maps;
  maps.erase(std::remove_if(maps.begin(), maps.end(),
                            [&](const GraphMap& m) { return m.node == reinterpret_cast<uintptr_t>(node); }),
             maps.end());
  maps.insert(maps.end(), fresh.begin(), fresh.end());
  it->second.checked_free_gen = it->second.checked_origin_gen = 0;
}

void OnGraphExecDestroy(void* exec) {
  std::lock_guard<std::mutex> lock(graph_mu);
  if (graph_execs != nullptr) graph_execs->erase(reinterpret_cast<uintptr_t>(exec));
}

// A graph launch the driver accepted: its maps against memory as it is now, when memory was freed (or a
// traced call wrote a map) since they were last checked.
void OnGraphLaunch(void* exec, void* stream, const cupti::CallbackData* d) {
  std::vector<GraphMap> maps;
  const uint64_t free_gen = lg->free_gen.load(std::memory_order_acquire);
  const uint64_t origin_gen = lg->origin_gen.load(std::memory_order_acquire);
  {
    std::lock_guard<std::mutex> lock(graph_mu);
    if (graph_execs == nullptr) return;
    auto it = graph_execs->find(reinterpret_cast<uintptr_t>(exec));
    if (it == graph_execs->end()) return;
    GraphExec& e = it->second;
    if (e.checked_free_gen == free_gen && e.checked_origin_gen == origin_gen) return;
    e.checked_free_gen = free_gen;
    e.checked_origin_gen = origin_gen;
    maps = e.maps;
  }
  int target = g->forced_target ? g->target : -1, device = -1;
  int t = -1;
  CallSite at = SiteOf(d);
  at.stream = stream;
  ContextOf(at, &t, &device);
  if (!g->forced_target) target = t;
  for (const GraphMap& gm : maps) {
    const bool problem = CheckMap(*gm.map, LaunchCall::kGraphLaunch, *gm.fi, gm.param, gm.offset, device, target);
    if (problem && gm.fi->counts != nullptr) gm.fi->counts->problems.fetch_add(1, std::memory_order_relaxed);
  }
}

void OnLaunchCallback(cupti::CallbackDomain domain, cupti::CallbackId cbid, const cupti::CallbackData* d) {
  if (domain == cupti::kDomainRuntimeApi) {
    switch (cbid) {
      case cupti::kRtCbidFree: case cupti::kRtCbidFreeHost: case cupti::kRtCbidDeviceReset:
      case cupti::kRtCbidFreeAsync: case cupti::kRtCbidFreeAsyncPtsz: case cupti::kRtCbidMemPoolTrimTo:
        if (d->callbackSite == cupti::kApiExit) lg->free_gen.fetch_add(1, std::memory_order_acq_rel);
        return;
      default: break;
    }
    if (d->callbackSite == cupti::kApiEnter) {
      if (tls_runtime_depth < 32) tls_driver_launches_at[tls_runtime_depth] = tls_driver_launches;
      ++tls_runtime_depth;
      return;
    }
    if (tls_runtime_depth == 0) return;  // its enter was not seen (callbacks enabled in between)
    --tls_runtime_depth;
    if (tls_runtime_depth < 32 && tls_driver_launches != tls_driver_launches_at[tls_runtime_depth]) return;
    if (d->functionReturnValue == nullptr || *static_cast<const int*>(d->functionReturnValue) != 0) return;
    if (d->functionParams == nullptr) return;
    lg->seen_cupti_runtime.fetch_add(1, std::memory_order_relaxed);  // only launches get here (frees returned)
    switch (cbid) {
      case cupti::kRtCbidLaunchKernel: case cupti::kRtCbidLaunchKernelPtsz: case cupti::kRtCbidLaunchCooperativeKernel: {
        const auto* p = static_cast<const cupti::RtLaunchKernelParams*>(d->functionParams);
        OnLaunch(LaunchCall::kRuntimeLaunch, reinterpret_cast<uintptr_t>(p->func), Handle::kStub, p->args, nullptr,
                 p->stream, SiteOf(d));
        return;
      }
      case cupti::kRtCbidLaunchKernelHandle: case cupti::kRtCbidLaunchKernelHandlePtsz: {
        const auto* p = static_cast<const cupti::RtLaunchKernelParams*>(d->functionParams);
        OnLaunch(LaunchCall::kRuntimeLaunch, reinterpret_cast<uintptr_t>(p->func), Handle::kKernel, p->args, nullptr,
                 p->stream, SiteOf(d));
        return;
      }
      case cupti::kRtCbidLaunchKernelExC: case cupti::kRtCbidLaunchKernelExCPtsz: {
        const auto* p = static_cast<const cupti::RtLaunchKernelExCParams*>(d->functionParams);
        OnLaunch(LaunchCall::kRuntimeLaunch, reinterpret_cast<uintptr_t>(p->func), Handle::kStub, p->args, nullptr,
                 p->config != nullptr ? p->config->stream : nullptr, SiteOf(d));
        return;
      }
      default: return;
    }
  }
  // Driver domain.
  switch (cbid) {
    case cupti::kCbidMemFree: case cupti::kCbidMemFreeV2: case cupti::kCbidMemFreeHost: case cupti::kCbidMemHostUnregister:
    case cupti::kCbidMemAddressFree: case cupti::kCbidMemRelease: case cupti::kCbidMemUnmap: case cupti::kCbidMemFreeAsync:
    case cupti::kCbidMemFreeAsyncPtsz: case cupti::kCbidMemPoolTrimTo: case cupti::kCbidMemPoolDestroy:
      if (d->callbackSite == cupti::kApiExit) lg->free_gen.fetch_add(1, std::memory_order_acq_rel);
      return;
    case cupti::kCbidCtxDestroy: case cupti::kCbidCtxDestroyV2: case cupti::kCbidModuleUnload: case cupti::kCbidLibraryUnload:
      if (d->callbackSite == cupti::kApiExit) {
        lg->free_gen.fetch_add(1, std::memory_order_acq_rel);
        lg->unload_gen.fetch_add(1, std::memory_order_acq_rel);
        if (cbid == cupti::kCbidCtxDestroy || cbid == cupti::kCbidCtxDestroyV2)
          g->ctx_gen.fetch_add(1, std::memory_order_acq_rel);
      }
      return;
    default: break;
  }
  if (d->callbackSite != cupti::kApiExit) return;
  if (d->functionReturnValue == nullptr || *static_cast<const int*>(d->functionReturnValue) != 0) return;
  if (d->functionParams == nullptr) return;
  switch (cbid) {  // executable graphs (not launches of one kernel)
    case cupti::kCbidGraphInstantiate: case cupti::kCbidGraphInstantiateV2: case cupti::kCbidGraphInstantiateWithFlags:
    case cupti::kCbidGraphInstantiateWithParams: case cupti::kCbidGraphInstantiateWithParamsPtsz: {
      const auto* p = static_cast<const cupti::GraphInstantiateParams*>(d->functionParams);
      if (p->phGraphExec != nullptr) OnGraphExec(*p->phGraphExec, p->hGraph);
      return;
    }
    case cupti::kCbidGraphExecUpdate: case cupti::kCbidGraphExecUpdateV2: {
      const auto* p = static_cast<const cupti::GraphExecUpdateParams*>(d->functionParams);
      OnGraphExec(p->hGraphExec, p->hGraph);
      return;
    }
    case cupti::kCbidGraphExecDestroy:
      OnGraphExecDestroy(static_cast<const cupti::GraphExecDestroyParams*>(d->functionParams)->hGraphExec);
      return;
    case cupti::kCbidGraphLaunch: case cupti::kCbidGraphLaunchPtsz:
      OnGraphLaunch(static_cast<const cupti::GraphLaunchParams*>(d->functionParams)->hGraph,
                    static_cast<const cupti::GraphLaunchParams*>(d->functionParams)->hStream, d);
      return;
    default: break;
  }
  ++tls_driver_launches;
  switch (cbid) {
    case cupti::kCbidLaunchKernel: case cupti::kCbidLaunchKernelPtsz: case cupti::kCbidLaunchKernelEx:
    case cupti::kCbidLaunchKernelExPtsz: case cupti::kCbidLaunchCooperativeKernel:
    case cupti::kCbidLaunchCooperativeKernelPtsz:
      lg->seen_cupti_driver.fetch_add(1, std::memory_order_relaxed);
      break;
    default: break;
  }
  switch (cbid) {
    case cupti::kCbidLaunchKernel: case cupti::kCbidLaunchKernelPtsz: {
      const auto* p = static_cast<const cupti::LaunchKernelParams*>(d->functionParams);
      OnLaunch(LaunchCall::kLaunchKernel, reinterpret_cast<uintptr_t>(p->f), Handle::kFunction, p->kernelParams, p->extra, p->hStream, SiteOf(d));
      return;
    }
    case cupti::kCbidLaunchKernelEx: case cupti::kCbidLaunchKernelExPtsz: {
      const auto* p = static_cast<const cupti::LaunchKernelExParams*>(d->functionParams);
      OnLaunch(LaunchCall::kLaunchKernelEx, reinterpret_cast<uintptr_t>(p->f), Handle::kFunction, p->kernelParams, p->extra,
               p->config != nullptr ? p->config->hStream : nullptr, SiteOf(d));
      return;
    }
    case cupti::kCbidLaunchCooperativeKernel: case cupti::kCbidLaunchCooperativeKernelPtsz: {
      const auto* p = static_cast<const cupti::LaunchCooperativeKernelParams*>(d->functionParams);
      OnLaunch(LaunchCall::kLaunchCooperativeKernel, reinterpret_cast<uintptr_t>(p->f), Handle::kFunction, p->kernelParams, nullptr,
               p->hStream, SiteOf(d));
      return;
    }
    case cupti::kCbidGraphAddKernelNode: case cupti::kCbidGraphAddKernelNodeV2:
    case cupti::kCbidGraphKernelNodeSetParams: case cupti::kCbidGraphKernelNodeSetParamsV2:
    case cupti::kCbidGraphExecKernelNodeSetParams: case cupti::kCbidGraphExecKernelNodeSetParamsV2: {
      const cupti::KernelNodeParams* np = nullptr;
      if (cbid == cupti::kCbidGraphAddKernelNode || cbid == cupti::kCbidGraphAddKernelNodeV2)
        np = static_cast<const cupti::GraphAddKernelNodeParams*>(d->functionParams)->nodeParams;
      else if (cbid == cupti::kCbidGraphKernelNodeSetParams || cbid == cupti::kCbidGraphKernelNodeSetParamsV2)
        np = static_cast<const cupti::GraphKernelNodeSetParamsParams*>(d->functionParams)->nodeParams;
      else
        np = static_cast<const cupti::GraphExecKernelNodeSetParamsParams*>(d->functionParams)->nodeParams;
      if (np == nullptr) return;
      const bool v2 = cbid == cupti::kCbidGraphAddKernelNodeV2 || cbid == cupti::kCbidGraphKernelNodeSetParamsV2 ||
                      cbid == cupti::kCbidGraphExecKernelNodeSetParamsV2;
      uintptr_t f = reinterpret_cast<uintptr_t>(np->func);
      Handle kind = Handle::kFunction;
      if (f == 0 && v2) {
        f = reinterpret_cast<uintptr_t>(np->kern);
        kind = Handle::kKernel;
      }
      OnLaunch(LaunchCall::kGraphKernelNode, f, kind, np->kernelParams, np->extra, nullptr, SiteOf(d));
      if (cbid == cupti::kCbidGraphExecKernelNodeSetParams || cbid == cupti::kCbidGraphExecKernelNodeSetParamsV2) {
        const auto* p = static_cast<const cupti::GraphExecKernelNodeSetParamsParams*>(d->functionParams);
        OnGraphExecNode(p->hGraphExec, p->hNode, *np);
      }
      return;
    }
    default: return;
  }
}

// The launches themselves (enabled only when launches are watched through CUPTI) ...
constexpr cupti::CallbackId kLaunchDriverCbids[] = {
    cupti::kCbidLaunchKernel, cupti::kCbidLaunchKernelPtsz, cupti::kCbidLaunchKernelEx, cupti::kCbidLaunchKernelExPtsz,
    cupti::kCbidLaunchCooperativeKernel, cupti::kCbidLaunchCooperativeKernelPtsz};
constexpr cupti::CallbackId kLaunchRuntimeCbids[] = {
    cupti::kRtCbidLaunchKernel, cupti::kRtCbidLaunchKernelPtsz, cupti::kRtCbidLaunchCooperativeKernel,
    cupti::kRtCbidLaunchKernelExC, cupti::kRtCbidLaunchKernelExCPtsz, cupti::kRtCbidLaunchKernelHandle,
    cupti::kRtCbidLaunchKernelHandlePtsz};
// ... and what the checks need however launches are seen: graph kernel nodes, frees and unloads (rare calls).
constexpr cupti::CallbackId kWatchDriverCbids[] = {
    cupti::kCbidGraphInstantiate, cupti::kCbidGraphInstantiateV2, cupti::kCbidGraphInstantiateWithFlags,
    cupti::kCbidGraphInstantiateWithParams, cupti::kCbidGraphInstantiateWithParamsPtsz, cupti::kCbidGraphExecUpdate,
    cupti::kCbidGraphExecUpdateV2, cupti::kCbidGraphExecDestroy, cupti::kCbidGraphLaunch, cupti::kCbidGraphLaunchPtsz,
    cupti::kCbidGraphAddKernelNode, cupti::kCbidGraphAddKernelNodeV2, cupti::kCbidGraphKernelNodeSetParams,
    cupti::kCbidGraphKernelNodeSetParamsV2, cupti::kCbidGraphExecKernelNodeSetParams,
    cupti::kCbidGraphExecKernelNodeSetParamsV2, cupti::kCbidMemFree, cupti::kCbidMemFreeV2, cupti::kCbidMemFreeHost,
    cupti::kCbidMemHostUnregister, cupti::kCbidMemAddressFree, cupti::kCbidMemRelease, cupti::kCbidMemUnmap,
    cupti::kCbidMemFreeAsync, cupti::kCbidMemFreeAsyncPtsz, cupti::kCbidMemPoolTrimTo, cupti::kCbidMemPoolDestroy,
    cupti::kCbidCtxDestroy, cupti::kCbidCtxDestroyV2, cupti::kCbidModuleUnload, cupti::kCbidLibraryUnload};
constexpr cupti::CallbackId kWatchRuntimeCbids[] = {cupti::kRtCbidFree, cupti::kRtCbidFreeHost,
                                                    cupti::kRtCbidDeviceReset, cupti::kRtCbidFreeAsync,
                                                    cupti::kRtCbidFreeAsyncPtsz, cupti::kRtCbidMemPoolTrimTo};

// Enables the CUPTI callbacks of the launches themselves; returns how many failed (and the first error).
int EnableLaunchCallbacks(int* first_error) {
  int failed = 0;
  for (cupti::CallbackId id : kLaunchDriverCbids) {
    const int er = g->enable_callback(1, g->subscriber, cupti::kDomainDriverApi, id);
    if (er != cupti::kSuccess && failed++ == 0) *first_error = er;
  }
  for (cupti::CallbackId id : kLaunchRuntimeCbids) {
    const int er = g->enable_callback(1, g->subscriber, cupti::kDomainRuntimeApi, id);
    if (er != cupti::kSuccess && failed++ == 0) *first_error = er;
  }
  return failed;
}

// A launch the preload library's wrapper saw the driver accept.
void OnPreloadLaunch(uint32_t entry, void* f, void** kernel_params, void** extra, void* stream) {
  if (g == nullptr || g->recorder == nullptr || g->baseline || lg == nullptr || !lg->enabled) return;
  lg->seen_preload.fetch_add(1, std::memory_order_relaxed);
  if (lg->via.load(std::memory_order_acquire) != static_cast<int>(Via::kPreload)) return;  // CUPTI checks it
  if (g->fork_pending.load(std::memory_order_acquire)) ReinitAfterFork();
  const LaunchCall call = entry == preload::kEntryLaunchKernelEx          ? LaunchCall::kLaunchKernelEx
                          : entry == preload::kEntryLaunchCooperativeKernel ? LaunchCall::kLaunchCooperativeKernel
                                                                            : LaunchCall::kLaunchKernel;
  CallSite site;
  site.ask_driver = true;
  // Nothing may leave through the preload library's frames and the program's (an allocation that fails while a
  // new kernel is described): the launch then goes unchecked.
  try {
    OnLaunch(call, reinterpret_cast<uintptr_t>(f), Handle::kFunction, kernel_params, extra, stream, site);
  } catch (...) {
  }
}

// The preload library handed out a launch entry point it could not wrap: from now on CUPTI watches launches
// (the wrappers only count), so that no launch goes unchecked.
void OnPreloadUnwrapped(uint32_t) {
  if (g == nullptr || lg == nullptr || g->enable_callback == nullptr || g->subscriber == nullptr) return;
  if (lg->fell_back.exchange(true)) return;
  int first_error = 0;
  const int failed = EnableLaunchCallbacks(&first_error);
  lg->via.store(static_cast<int>(Via::kCupti), std::memory_order_release);
  Say(StrCat("tmapgen trace: pid ", g->pid, ": a kernel-launch entry point could not be wrapped; launches are "
             "watched through CUPTI from now on", failed > 0 ? StrCat(" (", failed, " callbacks not enabled: ",
             first_error, ")") : std::string(), "\n"));
}

// The child of a fork starts its own launch stream (its files were opened with its encode stream).
void ResetLaunchAfterFork() {
  if (lg == nullptr) return;
  if (g->state == nullptr) OpenLaunchFiles("");  // no stream: counts on the heap
  lg->origins.Clear();
  lg->next_seq = 0;
  lg->explained = 0;
  std::lock_guard<std::mutex> lock(lg->check_mu);
  lg->reported.clear();
  lg->reported_n = 0;
  lg->standalone.clear();
}

// Sets up the launch checks (TMAPGEN_TRACE_LAUNCH=0 turns them off). Needs the driver's entry points.
void InitLaunch(void* cuda) {
  const char* off = std::getenv("TMAPGEN_TRACE_LAUNCH");
  if (off != nullptr && std::strcmp(off, "0") == 0) return;
  lg = new (std::nothrow) LaunchGlobal();
  if (lg == nullptr) return;
  if (cuda != nullptr) {
    lg->func_param_info = reinterpret_cast<cupti::PfnFuncGetParamInfo>(dlsym(cuda, "cuFuncGetParamInfo"));
    lg->kernel_param_info = reinterpret_cast<cupti::PfnFuncGetParamInfo>(dlsym(cuda, "cuKernelGetParamInfo"));
    lg->func_name = reinterpret_cast<cupti::PfnFuncGetName>(dlsym(cuda, "cuFuncGetName"));
    lg->kernel_name = reinterpret_cast<cupti::PfnFuncGetName>(dlsym(cuda, "cuKernelGetName"));
    lg->ptr_attrs = reinterpret_cast<cupti::PfnPointerGetAttributes>(dlsym(cuda, "cuPointerGetAttributes"));
    lg->ptr_attr = reinterpret_cast<cupti::PfnPointerGetAttribute>(dlsym(cuda, "cuPointerGetAttribute"));
    lg->stream_sync = reinterpret_cast<cupti::PfnStreamSynchronize>(dlsym(cuda, "cuStreamSynchronize"));
    lg->dtoh = reinterpret_cast<cupti::PfnMemcpyDtoH>(dlsym(cuda, "cuMemcpyDtoH_v2"));
    lg->is_capturing = reinterpret_cast<cupti::PfnStreamIsCapturing>(dlsym(cuda, "cuStreamIsCapturing"));
    lg->graph_get_nodes = reinterpret_cast<cupti::PfnGraphGetNodes>(dlsym(cuda, "cuGraphGetNodes"));
    lg->graph_node_type = reinterpret_cast<cupti::PfnGraphNodeGetType>(dlsym(cuda, "cuGraphNodeGetType"));
    lg->graph_kernel_params =
        reinterpret_cast<cupti::PfnGraphKernelNodeGetParams>(dlsym(cuda, "cuGraphKernelNodeGetParams_v2"));
    lg->graph_child = reinterpret_cast<cupti::PfnGraphChildGraph>(dlsym(cuda, "cuGraphChildGraphNodeGetGraph"));
  }
  if (const char* dbg = std::getenv("TMAPGEN_TRACE_LAUNCH_DEBUG"); dbg != nullptr && std::strcmp(dbg, "1") == 0)
    lg->debug = 1;
  if (const char* st = std::getenv("TMAPGEN_TRACE_LAUNCH_STATS"); st != nullptr && std::strcmp(st, "1") == 0)
    lg->stats = true;
  if (const char* rt = std::getenv("TMAPGEN_TRACE_LAUNCH_RETIRE"); rt != nullptr && std::strcmp(rt, "0") == 0)
    lg->retire = false;
  if (const char* dm = std::getenv("TMAPGEN_TRACE_DEVICE_MAPS"); dm != nullptr && *dm != '\0' && std::strcmp(dm, "0") != 0) {
    lg->device_maps = true;
    if (std::strcmp(dm, "1") != 0) lg->device_filter = dm;
  }
  for (auto& k : lg->fkeys) k.store(0, std::memory_order_relaxed);
  for (auto& v : lg->fvals) v.store(nullptr, std::memory_order_relaxed);

  // How launches are seen: through the preload library when `tmapgen trace` preloaded it (no CUPTI callback
  // per launch), else through CUPTI's launch callbacks. TMAPGEN_TRACE_LAUNCH_VIA=cupti forces CUPTI; =both
  // checks through CUPTI and counts through the preload library too (the coverage proof, docs/trace.md).
  const char* via = std::getenv("TMAPGEN_TRACE_LAUNCH_VIA");
  const std::string want = via != nullptr ? via : "";
  lg->preload_attach = reinterpret_cast<preload::AttachFn>(dlsym(RTLD_DEFAULT, preload::kAttachSymbol));
  preload::Status st{};
  st.size = sizeof(st);  // its capacity
  const preload::Hooks hooks{preload::kAbiVersion, sizeof(preload::Hooks), OnPreloadLaunch, OnPreloadUnwrapped};
  if (want == "cupti") {
    lg->via = static_cast<int>(Via::kCupti);
    lg->via_note = "launches seen through CUPTI callbacks (TMAPGEN_TRACE_LAUNCH_VIA=cupti)";
  } else if (lg->preload_attach == nullptr) {
    lg->via = static_cast<int>(Via::kCupti);
    lg->via_note = "launches seen through CUPTI callbacks (libtmapgen_trace_preload.so is not preloaded)";
  } else if (lg->preload_attach(&hooks, &st) != 1 || st.version != preload::kAbiVersion) {
    lg->via = static_cast<int>(Via::kCupti);
    lg->via_note = StrCat("launches seen through CUPTI callbacks (the preloaded library speaks version ", st.version,
                          ", this one ", preload::kAbiVersion, ")");
  } else if (want == "both") {
    lg->via = static_cast<int>(Via::kBoth);
    lg->via_note = "launches seen through CUPTI callbacks and counted by the preload library (TMAPGEN_TRACE_LAUNCH_VIA=both)";
  } else if (st.dlsym_interposed == 0 || st.unwrapped != 0) {
    lg->via = static_cast<int>(Via::kBoth);  // the wrappers only count
    lg->via_note = StrCat("launches seen through CUPTI callbacks (the preload library ",
                          st.dlsym_interposed == 0 ? "cannot wrap dlsym on this architecture" : "could not wrap every entry point", ")");
  } else {
    lg->via = static_cast<int>(Via::kPreload);
    lg->via_note = "launches seen through the preloaded entry points";
  }
  lg->enabled = true;
}

void OnCallback(void*, cupti::CallbackDomain domain, cupti::CallbackId cbid, const void* cbdata) {
  if (g == nullptr || g->recorder == nullptr || g->baseline) return;
  const auto* d = static_cast<const cupti::CallbackData*>(cbdata);
  if (domain != cupti::kDomainDriverApi ||
      (cbid != cupti::kCbidEncodeTiled && cbid != cupti::kCbidEncodeIm2col && cbid != cupti::kCbidEncodeIm2colWide &&
       cbid != cupti::kCbidReplaceAddress)) {
    if (lg != nullptr && lg->enabled) {
      if (g->fork_pending.load(std::memory_order_acquire)) ReinitAfterFork();
      OnLaunchCallback(domain, cbid, d);
    }
    return;
  }
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
  // The map's origin for the launches that pass it, with the allocation its tensor was in.
  if (lg != nullptr && lg->enabled && c.result == 0 && (c.flags & kHasBytes)) {
    lg->origins.Remember(c.bytes, c.seq, c.kind, BufferIdOf(c.global_address));
    lg->origin_gen.fetch_add(1, std::memory_order_acq_rel);
  }
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
  if (lg != nullptr && lg->enabled && (lg->via.load() == static_cast<int>(Via::kBoth) || lg->debug || lg->stats))
    Say(StrCat("tmapgen trace: pid ", g->pid, ": launches the driver accepted: ",
               lg->seen_cupti_driver.load(), " driver launches and ", lg->seen_cupti_runtime.load(),
               " runtime launches with no driver launch under them seen through CUPTI callbacks; ",
               lg->seen_preload.load(), " seen through the preloaded entry points (", lg->via_note, ")\n"));
  if (lg != nullptr && lg->enabled && lg->stats) {
    const KernelsHeader* h = lg->kernels;
    const uint64_t launches = h != nullptr ? h->launches.load() : 0;
    Say(StrCat("tmapgen trace: pid ", g->pid, ": launch checks: ", launches, " launches, ",
               h != nullptr ? h->scanned.load() : 0, " scanned, ", lg->st_candidates.load(),
               " windows past the never-written test, ", lg->st_classified.load(), " looked up, ", lg->maps.judged(),
               " judged (decoded), cache overflow ", lg->maps.overflow(), ", ", lg->st_retired.load(),
               " windows retired; ", lg->st_ns.load() / 1000, " us in the checks (",
               launches > 0 ? lg->st_ns.load() / launches : 0, " ns per launch)\n"));
  }
  if (g->state != nullptr)
    g->state->dropped_calls.store(g->recorder->stats().dropped_calls, std::memory_order_relaxed);
  if (!g->standalone) return;
  const RecorderStats st = g->recorder->stats();
  LaunchTotals totals;
  bool launch_maps = false;
  if (lg != nullptr && lg->kernels != nullptr) {
    absl::StatusOr<LaunchTotals> parsed =
        ParseKernels(std::string_view(reinterpret_cast<const char*>(lg->kernels), lg->kernels_size));
    if (parsed.ok()) totals = *std::move(parsed);
    for (const KernelSummary& k : totals.kernels) launch_maps = launch_maps || k.maps > 0;
  }
  if (st.calls == 0 && !launch_maps) return;
  Summary sum;
  ProcessInfo p;
  p.pid = g->pid;
  p.state = ProcessState::kTracing;
  p.calls = st.calls;
  p.records = st.records;
  p.dropped_calls = st.dropped_calls;
  p.exe = g->exe;
  sum.AddProcess(p);
  {
    std::lock_guard<std::mutex> lock(g->records_mu);
    for (const EncodeCall& c : g->records) sum.AddRecord(c, g->recorder->count(c.seq));
  }
  if (lg != nullptr) {
    sum.AddLaunches(totals);
    std::lock_guard<std::mutex> lock(lg->standalone_mu);
    for (const LaunchRecord& r : lg->standalone) sum.AddLaunchRecord(r);
  }
  SummaryOptions so;
  Say(sum.RenderText(so) + sum.RenderLaunchText(so));
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
  InitLaunch(dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD));
  if (!g->standalone) OpenStream(false, static_cast<int32_t>(::getppid()));
  if (g->state == nullptr) OpenLaunchFiles("");  // no stream: launch counts on the heap

  g->self_base = BaseOf(reinterpret_cast<const void*>(&Initialize));
  if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
    g->ctx_get_device = reinterpret_cast<cupti::PfnCtxGetDevice>(dlsym(cuda, "cuCtxGetDevice"));
    g->ctx_get_current = reinterpret_cast<cupti::PfnCtxGetCurrent>(dlsym(cuda, "cuCtxGetCurrent"));
    g->stream_get_ctx = reinterpret_cast<cupti::PfnStreamGetCtx>(dlsym(cuda, "cuStreamGetCtx"));
    g->ctx_push = reinterpret_cast<cupti::PfnCtxPushPop>(dlsym(cuda, "cuCtxPushCurrent_v2"));
    g->ctx_pop = reinterpret_cast<cupti::PfnCtxPushPop>(dlsym(cuda, "cuCtxPopCurrent_v2"));
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
  g->enable_callback = enable;
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
  if (lg != nullptr && lg->enabled) {
    int failed = 0, first_error = 0;
    for (cupti::CallbackId id : kWatchDriverCbids) {
      const int er = enable(1, g->subscriber, cupti::kDomainDriverApi, id);
      if (er != cupti::kSuccess && failed++ == 0) first_error = er;
    }
    for (cupti::CallbackId id : kWatchRuntimeCbids) {
      const int er = enable(1, g->subscriber, cupti::kDomainRuntimeApi, id);
      if (er != cupti::kSuccess && failed++ == 0) first_error = er;
    }
    // The launch callbacks: through CUPTI (also the baseline's cost measurement, which subscribes to
    // everything), unless the preload library reports launches.
    if (lg->via.load() != static_cast<int>(Via::kPreload) || g->baseline) failed += EnableLaunchCallbacks(&first_error);
    if (lg->func_param_info == nullptr && lg->kernel_param_info == nullptr)
      StrAppend(&notes, "; launches not checked: this driver has no cuFuncGetParamInfo (CUDA 12.4 and later have it)");
    else
      StrAppend(&notes, "; ", lg->via_note);
    if (failed > 0) StrAppend(&notes, "; ", failed, " launch callback(s) not enabled: ", CuptiError(first_error));
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
