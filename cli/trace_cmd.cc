#include "cli/trace_cmd.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/common_flags.h"
#include "src/io/file.h"
#include "src/json/json_writer.h"
#include "src/tmap/types.h"
#include "src/trace/launch.h"
#include "src/trace/offline.h"
#include "src/trace/record_json.h"
#include "src/trace/stream.h"
#include "src/trace/summary.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

const char* kTraceUsage =
    "usage: tmapgen trace [--out FILE] [--report FILE] [--all] [--fail-on error|warning] [--target T]\n"
    "                     [--max-configs N] -- PROGRAM ARGS...\n";

// With --fail-on, the exit status when no process could be traced (no driver, no CUPTI, the injection library
// never loaded): distinct from 0 (checked, clean), 1 (findings), 2 (bad usage) and 127 (not started).
constexpr int kExitNothingTraced = 3;

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen trace: %s\n%s", msg.c_str(), HelpHint("trace").c_str());
  return 2;
}

void PrintTraceHelp() {
  std::fputs(kTraceUsage, stdout);
  std::fputs(
      "\nRuns PROGRAM and sees every tensor map it encodes through the CUDA driver (cuTensorMapEncodeTiled,\n"
      "cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2colWide, cuTensorMapReplaceAddress), through CUPTI, with\n"
      "no change to the program. Bad encodes are explained on standard error as they happen; at the end a\n"
      "summary grouped by calling library. Nothing is written to standard output.\n\n"
      "  --out FILE          the records, one JSON line per configuration in the spec schema\n"
      "                      (tmapgen validate / check / codegen / decode read them)\n"
      "  --report FILE       the whole trace as one JSON object (every configuration, its diagnostics)\n"
      "  --all               one record per call instead of one per configuration (with a count)\n"
      "  --fail-on error|warning   exit 1 when a rejected or invalid map (error) or also a map with\n"
      "                      warnings (warning) was seen and the program itself succeeded; exit 3 when\n"
      "                      nothing could be traced (no driver, no CUPTI: no process was watched)\n"
      "  --target T          validate for T instead of the GPU the program uses (sm_90a, sm_100a, ...)\n"
      "  --max-configs N     distinct configurations kept per process (default 4096)\n\n"
      "At each kernel launch it also finds the maps the kernel receives in its parameters and checks them\n"
      "against live memory (a freed, too small or reallocated tensor is an error that --fail-on counts) and\n"
      "says where they came from. Maps built inside kernels (Triton's device-side tl.make_tensor_descriptor,\n"
      "tensormap.replace) are read only with TMAPGEN_TRACE_DEVICE_MAPS: docs/trace.md, \"At kernel launch\".\n",
      stdout);
}

std::string Dirname(const std::string& p) {
  const size_t s = p.rfind('/');
  return s == std::string::npos ? std::string(".") : p.substr(0, s);
}

std::string SelfExe() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

bool Exists(const std::string& p) { return ::access(p.c_str(), R_OK) == 0; }

std::string FindInjectLibrary(std::string* tried) {
  if (const char* env = std::getenv("TMAPGEN_TRACE_LIB"); env != nullptr && *env != '\0') {
    *tried = env;
    return Exists(env) ? std::string(env) : std::string();
  }
  const std::string dir = Dirname(SelfExe());
  for (const std::string& c : {StrCat(dir, "/libtmapgen_trace_inject.so"), StrCat(dir, "/../lib/libtmapgen_trace_inject.so"),
                               StrCat(dir, "/../lib/tmapgen/libtmapgen_trace_inject.so")}) {
    StrAppend(tried, tried->empty() ? "" : ", ", c);
    if (Exists(c)) {
      char real[PATH_MAX];
      if (::realpath(c.c_str(), real) != nullptr) return real;
      return c;
    }
  }
  return "";
}

// libtmapgen_trace_preload.so beside the injection library, or $TMAPGEN_TRACE_PRELOAD ("0": none); "" when
// launches are not checked (TMAPGEN_TRACE_LAUNCH=0), are to be seen through CUPTI
// (TMAPGEN_TRACE_LAUNCH_VIA=cupti), or the library is missing or has a path LD_PRELOAD cannot hold.
std::string FindPreloadLibrary(const std::string& inject_lib) {
  for (const char* var : {"TMAPGEN_TRACE_LAUNCH", "TMAPGEN_TRACE_LAUNCH_VIA"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && (std::strcmp(v, "0") == 0 || std::strcmp(v, "cupti") == 0)) return "";
  }
  std::string path = StrCat(Dirname(inject_lib), "/libtmapgen_trace_preload.so");
  if (const char* env = std::getenv("TMAPGEN_TRACE_PRELOAD"); env != nullptr && *env != '\0') {
    if (std::strcmp(env, "0") == 0) return "";
    path = env;
  }
  if (!Exists(path)) {
    std::fprintf(stderr, "tmapgen trace: %s was not found: kernel launches are watched through CUPTI callbacks "
                         "(about 0.4 us more per launch)\n", path.c_str());
    return "";
  }
  if (path.find_first_of(": \t") != std::string::npos) {
    std::fprintf(stderr, "tmapgen trace: %s cannot go into LD_PRELOAD (a colon or blank in its path): kernel "
                         "launches are watched through CUPTI callbacks\n", path.c_str());
    return "";
  }
  char real[PATH_MAX];
  return ::realpath(path.c_str(), real) != nullptr ? std::string(real) : path;
}

void RemoveDir(const std::string& dir) {
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      ::unlink(StrCat(dir, "/", n).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
}

pid_t g_child = -1;
void Forward(int sig) {
  if (g_child > 0) ::kill(g_child, sig);
}

struct Stream {
  std::string stem;
  trace::ProcessInfo info;
  std::vector<trace::EncodeCall> calls;
  std::vector<trace::LaunchRecord> launches;
  size_t torn_bytes = 0;
};

}  // namespace

int RunTraceCommand(const std::vector<std::string>& args) {
  std::string out_path, report_path, target_name;
  bool all = false;
  int fail_on = -1;  // -1 none, else the lowest Outcome that fails
  uint32_t max_configs = 0;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    if (a == "--") {
      ++i;
      break;
    } else if (a == "--help" || a == "-h") {
      PrintTraceHelp();
      return 0;
    } else if (a == "--out") {
      if (!value(&out_path) || out_path.empty()) return Usage("--out needs a FILE");
    } else if (a == "--report") {
      if (!value(&report_path) || report_path.empty()) return Usage("--report needs a FILE");
    } else if (a == "--all") {
      all = true;
    } else if (a == "--fail-on") {
      std::string v;
      if (!value(&v)) return Usage("--fail-on needs error or warning");
      if (v == "error") fail_on = static_cast<int>(trace::Outcome::kInvalid);
      else if (v == "warning") fail_on = static_cast<int>(trace::Outcome::kWarning);
      else return Usage(StrCat("--fail-on: expected error or warning, got \"", v, "\""));
    } else if (a == "--target") {
      if (!value(&target_name)) return Usage("--target needs a target (e.g. sm_90a)");
      Target t;
      if (!Parse(target_name, &t))
        return Usage(StrCat("--target: unknown target \"", target_name, "\"; expected one of: ",
                            AcceptedNames(static_cast<Target*>(nullptr))));
    } else if (a == "--max-configs") {
      std::string v;
      if (!value(&v)) return Usage("--max-configs needs a number");
      char* end = nullptr;
      const unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 16 || n > (1u << 20))
        return Usage(StrCat("--max-configs: expected a number from 16 to 1048576, got \"", v, "\""));
      max_configs = static_cast<uint32_t>(n);
    } else if (!a.empty() && a[0] == '-') {
      return Usage(StrCat("unknown flag ", a, " (flags of the program go after --)"));
    } else {
      break;  // the program starts here
    }
  }
  if (i >= args.size()) return Usage("missing PROGRAM (tmapgen trace [flags] -- PROGRAM ARGS...)");
  const std::vector<std::string> program(args.begin() + static_cast<long>(i), args.end());

  std::string tried;
  const std::string lib = FindInjectLibrary(&tried);
  if (lib.empty())
    return Usage(StrCat("the injection library libtmapgen_trace_inject.so was not found (tried ", tried,
                        "); it is built beside tmapgen when Abseil's static archives are installed (libabsl-dev), "
                        "or name it with TMAPGEN_TRACE_LIB"));
  // Open the outputs before the program runs, so that a bad path costs nothing.
  FILE* out = nullptr;
  if (!out_path.empty() && (out = std::fopen(out_path.c_str(), "w")) == nullptr)
    return Usage(StrCat("--out: cannot write ", out_path, ": ", std::strerror(errno)));
  FILE* report = nullptr;
  if (!report_path.empty() && (report = std::fopen(report_path.c_str(), "w")) == nullptr) {
    if (out) std::fclose(out);
    return Usage(StrCat("--report: cannot write ", report_path, ": ", std::strerror(errno)));
  }

  std::string driver_note;
  if (void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(h);
  } else {
    driver_note = StrCat("libcuda.so.1 cannot be loaded here (", dlerror(),
                         "): the program cannot use the CUDA driver, so no map can be traced");
    std::fprintf(stderr, "tmapgen trace: %s; running the program anyway\n", driver_note.c_str());
  }
  if (const char* prev = std::getenv("CUDA_INJECTION64_PATH"); prev != nullptr && *prev != '\0' && lib != prev)
    std::fprintf(stderr, "tmapgen trace: CUDA_INJECTION64_PATH was %s (another tool); it is replaced for this run\n", prev);

  const char* tmp = std::getenv("TMPDIR");
  std::string templ = StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/tmapgen-trace.XXXXXX");
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) {
    if (out) std::fclose(out);
    if (report) std::fclose(report);
    return Usage(StrCat("cannot create a trace directory ", templ, ": ", std::strerror(errno)));
  }
  const std::string dir = buf.data();

  // The preload library beside the injection library: launches are then checked without a CUPTI callback
  // per launch (docs/trace.md, "At kernel launch"). Without it the injection library falls back to CUPTI.
  const std::string preload = FindPreloadLibrary(lib);
  if (!preload.empty()) {
    const char* prev = std::getenv("LD_PRELOAD");
    const std::string rest = prev != nullptr ? prev : "";
    // First (so that its exports come before any other tool's), unless it is already one of the entries.
    bool present = false;
    for (size_t at = 0; at <= rest.size();) {
      const size_t end = std::min(rest.find_first_of(": ", at), rest.size());
      present = present || rest.compare(at, end - at, preload) == 0;
      at = end + 1;
    }
    if (!present) ::setenv("LD_PRELOAD", (rest.empty() ? preload : StrCat(preload, ":", rest)).c_str(), 1);
    // A program built with GCC's AddressSanitizer (its runtime a shared library) stops at start when another
    // library is loaded before that runtime ("ASan runtime does not come first in initial library list"). The
    // preload library defines nothing ASan intercepts, so that check is turned off (unless the user set it).
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string asan_opts = asan != nullptr ? asan : "";
    if (asan_opts.find("verify_asan_link_order") == std::string::npos)
      ::setenv("ASAN_OPTIONS",
               (asan_opts.empty() ? std::string("verify_asan_link_order=0")
                                  : StrCat(asan_opts, ":verify_asan_link_order=0")).c_str(), 1);
  }
  ::setenv("CUDA_INJECTION64_PATH", lib.c_str(), 1);
  ::setenv("TMAPGEN_TRACE_DIR", dir.c_str(), 1);
  if (all) ::setenv("TMAPGEN_TRACE_ALL", "1", 1); else ::unsetenv("TMAPGEN_TRACE_ALL");
  if (!target_name.empty()) ::setenv("TMAPGEN_TRACE_TARGET", target_name.c_str(), 1); else ::unsetenv("TMAPGEN_TRACE_TARGET");
  if (max_configs) ::setenv("TMAPGEN_TRACE_MAX_CONFIGS", StrCat(max_configs).c_str(), 1);

  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = ::fork();
  if (child < 0) {
    RemoveDir(dir);
    return Usage(StrCat("fork: ", std::strerror(errno)));
  }
  if (child == 0) {
    std::vector<char*> argv;
    for (const std::string& s : program) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "tmapgen trace: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  g_child = child;
  // The terminal sends ^C and ^\ to the program too; tmapgen waits for it and still summarises.
  struct sigaction ign{}, fwd{}, old_int{}, old_quit{}, old_term{}, old_hup{};
  ign.sa_handler = SIG_IGN;
  fwd.sa_handler = Forward;
  ::sigaction(SIGINT, &ign, &old_int);
  ::sigaction(SIGQUIT, &ign, &old_quit);
  ::sigaction(SIGTERM, &fwd, &old_term);
  ::sigaction(SIGHUP, &fwd, &old_hup);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGHUP, &old_hup, nullptr);
  int program_rc = 0;
  std::string how;
  if (WIFEXITED(status)) {
    program_rc = WEXITSTATUS(status);
    how = StrCat("exited with status ", program_rc);
  } else if (WIFSIGNALED(status)) {
    program_rc = 128 + WTERMSIG(status);
    how = StrCat("was killed by signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)), ")");
  }

  // Merge the streams: one per process, ordered by file name (pid.nonce).
  std::vector<std::string> stems;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n.size() > 6 && n.compare(n.size() - 6, 6, ".state") == 0) stems.push_back(n.substr(0, n.size() - 6));
    }
    ::closedir(d);
  }
  std::sort(stems.begin(), stems.end());
  trace::Summary summary;
  std::vector<Stream> streams;
  uint64_t unreplayable = 0, decoded = 0;
  uint64_t offline_counts[3] = {0, 0, 0};  // OfflineCheck::Kind: equal, differs, not covered
  std::vector<std::pair<trace::EncodeCall, trace::OfflineCheck>> offline_examples;
  for (const std::string& stem : stems) {
    Stream s;
    s.stem = stem;
    absl::StatusOr<std::string> state = io::ReadWholeFile(StrCat(dir, "/", stem, ".state"));
    absl::StatusOr<trace::ProcessInfo> info =
        state.ok() ? trace::ParseState(*state) : absl::StatusOr<trace::ProcessInfo>(state.status());
    if (!info.ok()) {
      const std::string err(StatusMessage(info.status()));
      std::fprintf(stderr, "tmapgen trace: %s.state: %s (skipped)\n", stem.c_str(), err.empty() ? "unreadable" : err.c_str());
      continue;
    }
    s.info = *std::move(info);
    // A .calls file that is missing or cannot be read counts as no calls, as before (the .state file above is
    // what says the stream exists).
    absl::StatusOr<std::string> calls = io::ReadWholeFile(StrCat(dir, "/", stem, ".calls"));
    s.torn_bytes = trace::ParseCalls(calls.ok() ? std::string_view(*calls) : std::string_view(), &s.calls);
    if (!s.info.all) {
      uint64_t counted = 0;
      for (uint64_t c : s.info.counts) counted += c;
      if (s.info.calls > counted) s.info.dropped_calls = std::max(s.info.dropped_calls, s.info.calls - counted);
    }
    summary.AddProcess(s.info);
    for (trace::EncodeCall& c : s.calls) {
      // A replace on a map this trace never saw encoded: its parameters from its bytes (src/blob).
      if (!trace::IsReplayable(c) && trace::DecodeSource(&c)) ++decoded;
      trace::OfflineCheck oc;
      if (trace::CheckOffline(c, &oc)) {
        ++offline_counts[oc.kind];
        if (oc.kind != trace::OfflineCheck::kEqual && offline_examples.size() < 20) offline_examples.push_back({c, oc});
      }
      const uint64_t count = s.info.all ? 1 : (c.seq < s.info.counts.size() ? std::max<uint64_t>(s.info.counts[c.seq], 1) : 1);
      summary.AddRecord(c, count);
      if (!trace::IsReplayable(c)) {
        ++unreplayable;
        continue;
      }
      if (out != nullptr) {
        std::string line;
        trace::AppendRecordJson(c, count, &line);
        line += '\n';
        std::fwrite(line.data(), 1, line.size(), out);
      }
    }
    // The launch checks' files: kernel counts (mapped by the process) and launch records.
    absl::StatusOr<std::string> kernels = io::ReadWholeFile(StrCat(dir, "/", stem, ".kernels"));
    if (kernels.ok()) {
      if (const absl::StatusOr<trace::LaunchTotals> totals = trace::ParseKernels(*kernels); totals.ok())
        summary.AddLaunches(*totals);
    }
    absl::StatusOr<std::string> launch = io::ReadWholeFile(StrCat(dir, "/", stem, ".launch"));
    if (launch.ok()) s.torn_bytes += trace::ParseLaunchFrames(*launch, &s.launches);
    for (const trace::LaunchRecord& r : s.launches) {
      summary.AddLaunchRecord(r);
      if (out != nullptr) {
        std::string line;
        trace::AppendLaunchRecordJson(r, &line);
        line += '\n';
        std::fwrite(line.data(), 1, line.size(), out);
      }
    }
    if (s.torn_bytes > 0)
      std::fprintf(stderr, "tmapgen trace: pid %d: %zu bytes of its record stream were torn (the process died while "
                   "writing) and skipped\n", s.info.pid, s.torn_bytes);
    streams.push_back(std::move(s));
  }
  bool write_failed = false;
  if (out != nullptr) write_failed = std::fclose(out) != 0;

  std::string cmdline;
  for (const std::string& p : program) StrAppend(&cmdline, cmdline.empty() ? "" : " ", p);
  std::string text = StrCat("tmapgen trace: ", cmdline, " ", how, "\n");
  if (stems.empty()) {
    StrAppend(&text, "tmapgen trace: no process loaded the injection library: the program never initialised the CUDA "
                     "driver (cuInit)",
              driver_note.empty() ? "" : StrCat(", and ", driver_note), ", or its environment dropped "
              "CUDA_INJECTION64_PATH\n");
  }
  // Nothing traced: no process was watched through CUPTI, so the trace cannot say whether the program encoded
  // a bad map. A program that was traced and encoded no map is not this: its trace is complete (and empty).
  size_t traced = 0;
  for (const Stream& s : streams) traced += s.info.state == trace::ProcessState::kTracing;
  const bool nothing_traced = traced == 0;
  if (nothing_traced && !stems.empty())
    StrAppend(&text, "tmapgen trace: nothing was traced: ", streams.size(), streams.size() == 1 ? " process" : " processes",
              " loaded the injection library, and none could subscribe to CUPTI (the reasons are below)\n");
  trace::SummaryOptions so;
  text += summary.RenderText(so);
  text += summary.RenderLaunchText(so);
  if (offline_counts[0] + offline_counts[1] + offline_counts[2] > 0) {
    StrAppend(&text, "  the driver's bytes vs tmapgen's offline encoding (src/blob): ", offline_counts[0], " record(s) equal, ",
              offline_counts[1], " differ, ", offline_counts[2], " outside the measured layout\n");
    for (const auto& [c, oc] : offline_examples) {
      if (oc.kind == trace::OfflineCheck::kDiffers) {
        std::string bits;
        for (size_t k = 0; k < oc.differing_bits.size() && k < 16; ++k) StrAppend(&bits, k ? "," : "", oc.differing_bits[k]);
        StrAppend(&text, "    pid ", c.pid, " record ", c.seq, ": ", oc.differing_bits.size(), " bit(s) differ (", bits,
                  "): this driver writes a layout tmapgen has not measured (docs/tensormap-layout.md)\n");
      } else {
        StrAppend(&text, "    pid ", c.pid, " record ", c.seq, ": ", oc.why, "\n");
      }
    }
  }
  if (decoded > 0)
    StrAppend(&text, "  ", decoded, " cuTensorMapReplaceAddress record(s) on maps this trace did not see encoded: "
              "their parameters were decoded from the map passed in (src/blob)\n");
  if (unreplayable > 0)
    StrAppend(&text, "  ", unreplayable, " cuTensorMapReplaceAddress record(s) on maps this trace did not see encoded "
              "and tmapgen cannot decode: their bytes are in the --report file (tmapgen decode lists every bit)\n");
  if (!out_path.empty())
    StrAppend(&text, "records: ", out_path, " (tmapgen validate / check / codegen replay them)\n");
  else if (summary.configurations() > 0 || summary.launch_findings() > 0)
    text += "records not kept: pass --out FILE to keep them for tmapgen validate / check / codegen\n";
  std::fputs(text.c_str(), stderr);

  if (report != nullptr) {
    json::Writer w(json::WriterOptions{true});
    w.BeginObject();
    w.Key("program").BeginArray();
    for (const std::string& p : program) w.String(p);
    w.EndArray();
    w.Key("status").Int(program_rc).Key("how").String(how);
    w.Key("all").Bool(all);
    if (!target_name.empty()) w.Key("target").String(target_name);
    w.Key("summary");
    summary.WriteJson(&w);
    w.Key("launches");
    summary.WriteLaunchJson(&w);
    w.Key("offline_encoding").BeginObject();
    w.Key("equal").Uint(offline_counts[0]).Key("differ").Uint(offline_counts[1]).Key("not_covered").Uint(offline_counts[2]);
    w.Key("examples").BeginArray();
    for (const auto& [c, oc] : offline_examples) {
      w.BeginObject().Key("pid").Int(c.pid).Key("seq").Uint(c.seq);
      w.Key("kind").String(oc.kind == trace::OfflineCheck::kDiffers ? "differs" : "not covered");
      if (oc.kind == trace::OfflineCheck::kDiffers) {
        w.Key("differing_bits").BeginArray();
        for (int b : oc.differing_bits) w.Int(b);
        w.EndArray();
      } else {
        w.Key("why").String(oc.why);
      }
      w.EndObject();
    }
    w.EndArray().EndObject();
    w.Key("replace_address_unmatched").BeginArray();
    for (const Stream& s : streams)
      for (const trace::EncodeCall& c : s.calls) {
        if (trace::IsReplayable(c)) continue;
        w.BeginObject().Key("pid").Int(c.pid).Key("seq").Uint(c.seq).Key("new_address").String(Hex(c.global_address));
        if (c.flags & trace::kHasBytesBefore) w.Key("bytes_before").String(trace::BytesHex(c.bytes_before));
        if (c.flags & trace::kHasBytes) w.Key("bytes").String(trace::BytesHex(c.bytes));
        w.Key("result").String(trace::CuResultName(c.result));
        w.EndObject();
      }
    w.EndArray();
    w.EndObject();
    std::string j = w.Take();
    j += '\n';
    std::fwrite(j.data(), 1, j.size(), report);
    write_failed = std::fclose(report) != 0 || write_failed;
  }
  if (write_failed) std::fprintf(stderr, "tmapgen trace: writing --out or --report failed: %s\n", std::strerror(errno));

  const char* keep = std::getenv("TMAPGEN_TRACE_KEEP");
  if (keep != nullptr && std::strcmp(keep, "1") == 0) {
    std::fprintf(stderr, "tmapgen trace: streams kept in %s\n", dir.c_str());
  } else {
    RemoveDir(dir);
  }
  if (program_rc != 0) return program_rc;
  if (write_failed) return 2;
  if (fail_on >= 0 && nothing_traced) {
    std::fprintf(stderr, "tmapgen trace: --fail-on %s: nothing was traced, so no map was checked (exit %d)\n",
                 fail_on == static_cast<int>(trace::Outcome::kWarning) ? "warning" : "error", kExitNothingTraced);
    return kExitNothingTraced;
  }
  if (fail_on >= 0 && static_cast<int>(summary.Worst()) >= fail_on) {
    std::fprintf(stderr, "tmapgen trace: --fail-on %s: findings of that severity were seen (exit 1)\n",
                 fail_on == static_cast<int>(trace::Outcome::kWarning) ? "warning" : "error");
    return 1;
  }
  return 0;
}

}  // namespace tmapgen::cli
