// `tmapgen trace` end to end on a machine without a GPU: the real injection library and command, with
// a fake CUDA driver (it loads CUDA_INJECTION64_PATH in cuInit and reports each tensor-map call to
// CUPTI's subscriber, as the real driver does) and a fake CUPTI (tests/trace/fake/). What is tested is
// tmapgen's side: records and counts, caller attribution through a backtrace, explanations on standard
// error, nothing on standard output, threads, fork, _exit, a CUPTI held by another tool, a CUPTI that
// is missing, --all and --fail-on. The real driver is exercised by trace_gpu_test (skipped without a GPU).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/schema/spec_json.h"

namespace {

struct Result {
  int rc = -1;
  std::string out, err;
  std::vector<std::string> records;
  std::string report;
};

std::string Slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string TempDir() {
  char t[] = "/tmp/tmapgen-trace-test.XXXXXX";
  return mkdtemp(t) ? std::string(t) : std::string("/tmp");
}

Result TraceProgram(const std::string& flags, const std::string& program, const std::string& env = "") {
  static const std::string dir = TempDir();
  static int n = 0;
  const std::string stem = dir + "/run" + std::to_string(++n);
  const std::string cmd = "env TMAPGEN_TRACE_LIB=" TMAPGEN_INJECT_LIB " TMAPGEN_CUPTI=" TMAPGEN_FAKE_CUPTI " " + env +
                          " " TMAPGEN_BINARY " trace --out " + stem + ".jsonl --report " + stem + ".json " + flags +
                          " -- " + program + " > " + stem + ".out 2> " + stem + ".err";
  Result r;
  const int st = std::system(cmd.c_str());
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = Slurp(stem + ".out");
  r.err = Slurp(stem + ".err");
  r.report = Slurp(stem + ".json");
  std::istringstream in(Slurp(stem + ".jsonl"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) r.records.push_back(line);
  return r;
}

Result Trace(const std::string& flags, const std::string& mode, const std::string& env = "") {
  return TraceProgram(flags, std::string(TMAPGEN_FAKE_APP) + " " + mode, env);
}

uint64_t Number(const std::string& line, const std::string& key) {
  const size_t p = line.find("\"" + key + "\":");
  if (p == std::string::npos) return ~0ull;
  return std::strtoull(line.c_str() + p + key.size() + 3, nullptr, 10);
}

bool Has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(TraceInject, BasicRecordsCountsCallerAndExplanations) {
  const Result r = Trace("", "basic");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "fake_app basic: done\n") << "tmapgen writes nothing to the program's standard output";
  ASSERT_EQ(r.records.size(), 3u) << r.err;
  // Every record replays through the spec reader of `tmapgen validate`.
  for (const std::string& line : r.records) {
    const absl::StatusOr<tmapgen::TensorMapSpec> parsed = tmapgen::ParseSpecJson(line);
    EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << line;
  }
  // 1000 calls at one address and 10 at other (256-byte aligned) addresses: one configuration.
  EXPECT_EQ(Number(r.records[0], "count"), 1010u) << r.records[0];
  EXPECT_TRUE(Has(r.records[0], "\"result\":\"CUDA_SUCCESS\"")) << r.records[0];
  EXPECT_TRUE(Has(r.records[0], "libtmapgen_fake_caller.so\"")) << "the caller is the framework library, not the "
                                                                    "driver nor the program: " << r.records[0];
  EXPECT_TRUE(Has(r.records[0], "\"caller_symbol\":\"framework_encode_2d+")) << r.records[0];
  EXPECT_TRUE(Has(r.records[0], "\"target\":\"sm_90a\"")) << "the fake GPU is compute capability 9.0";
  EXPECT_TRUE(Has(r.records[1], "\"result\":\"CUDA_ERROR_INVALID_VALUE\"")) << r.records[1];
  // Explained at once (stderr), and again in the summary.
  EXPECT_TRUE(Has(r.err, "cuTensorMapEncodeTiled returned CUDA_ERROR_INVALID_VALUE")) << r.err;
  EXPECT_TRUE(Has(r.err, "[box-dim-range] box_dim[1]")) << r.err;
  EXPECT_TRUE(Has(r.err, "accepted a map that breaks a documented rule")) << r.err;
  EXPECT_TRUE(Has(r.err, "[swizzle-inner-span]")) << r.err;
  EXPECT_TRUE(Has(r.err, "1 process loaded the driver (1 traced), 1,012 tensor-map calls, 3 distinct configurations"))
      << r.err;
  EXPECT_TRUE(Has(r.err, "libtmapgen_fake_caller.so: 1,012 calls, 3 configurations: 1 rejected, 1 invalid")) << r.err;
  EXPECT_TRUE(Has(r.report, "\"configurations_seen\"")) << r.report;
}

TEST(TraceInject, AllRecordsEveryCall) {
  const Result r = Trace("--all", "basic");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.records.size(), 1012u);
  EXPECT_EQ(Number(r.records[500], "count"), 1u);
}

TEST(TraceInject, ThreadsAreCountedExactly) {
  const Result r = Trace("", "threads");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.records.size(), 4u) << r.err;
  uint64_t total = 0;
  for (const std::string& l : r.records) {
    EXPECT_EQ(Number(l, "count"), 10000u) << l;
    total += Number(l, "count");
  }
  EXPECT_EQ(total, 40000u);
  EXPECT_TRUE(Has(r.err, "40,000 tensor-map calls")) << r.err;
}

TEST(TraceInject, AForkedChildHasItsOwnStreamMergedInTheSummary) {
  const Result r = Trace("", "fork");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.records.size(), 2u) << r.err;
  EXPECT_NE(Number(r.records[0], "pid"), Number(r.records[1], "pid"));
  // Both encodes ran on their process's main thread: the child's thread id is its own, not its parent's.
  for (const std::string& l : r.records) EXPECT_EQ(Number(l, "tid"), Number(l, "pid")) << l;
  // The parent's configuration twice, the child's three times.
  EXPECT_EQ(Number(r.records[0], "count") + Number(r.records[1], "count"), 5u);
  EXPECT_TRUE(Has(r.err, "2 processes loaded the driver (2 traced)")) << r.err;
  EXPECT_TRUE(Has(r.report, "\"forked\": true")) << r.report;
}

TEST(TraceInject, CountsSurviveAProcessThatSkipsAtexit) {
  const Result r = Trace("", "quick_exit");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(Number(r.records[0], "count"), 1010u);
}

TEST(TraceInject, Im2colWideAndABadTypeAreRecorded) {
  const Result r = Trace("", "im2col");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.records.size(), 3u) << r.err;
  EXPECT_TRUE(Has(r.records[0], "\"mode\":\"im2col\"")) << r.records[0];
  EXPECT_TRUE(Has(r.records[1], "\"mode\":\"im2col::w\"")) << r.records[1];
  EXPECT_TRUE(Has(r.records[2], "\"tensor_data_type\":99")) << r.records[2];
  EXPECT_TRUE(Has(r.err, "tensor_data_type: 99 is not a CUtensorMapDataType value")) << r.err;
  EXPECT_TRUE(Has(r.err, "error box_dim: a null pointer")) << r.err;
}

TEST(TraceInject, ReplaceAddressBecomesARecordOfItsSourceMap) {
  const Result r = Trace("", "replace");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.records.size(), 2u) << r.err;  // the encode and the replace; the foreign map only in the report
  EXPECT_TRUE(Has(r.records[1], "\"call\":\"cuTensorMapReplaceAddress\"")) << r.records[1];
  EXPECT_TRUE(Has(r.records[1], "\"replaced_from_seq\":0")) << r.records[1];
  EXPECT_TRUE(Has(r.records[1], "\"global_address\":\"0x7f0000100000\"")) << r.records[1];
  EXPECT_TRUE(Has(r.err, "1 cuTensorMapReplaceAddress record(s) on maps this trace did not see encoded")) << r.err;
  EXPECT_TRUE(Has(r.report, "\"replace_address_unmatched\": [\n")) << r.report;
}

TEST(TraceInject, ACuptiHeldByAnotherToolIsSaidAndTheProgramRuns) {
  const Result r = Trace("", "basic", "FAKE_CUPTI_BUSY=1");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "fake_app basic: done\n");
  EXPECT_TRUE(r.records.empty());
  EXPECT_TRUE(Has(r.err, "another tool already holds CUPTI (CUPTI for FakeProfiler)")) << r.err;
  EXPECT_TRUE(Has(r.err, "0 traced")) << r.err;
}

TEST(TraceInject, AMissingCuptiIsSaidAndTheProgramRuns) {
  const std::string cmd_env = "";
  // TMAPGEN_CUPTI names a file that does not exist (the helper's own setting is overridden: env keeps the last).
  const Result r = Trace("", "basic", "TMAPGEN_CUPTI=/nonexistent/libcupti.so");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "fake_app basic: done\n");
  EXPECT_TRUE(Has(r.err, "not tracing: CUPTI not found (tried /nonexistent/libcupti.so")) << r.err;
}

TEST(TraceInject, FailOnTurnsFindingsIntoAnExitStatus) {
  EXPECT_EQ(Trace("--fail-on error", "basic").rc, 1);
  EXPECT_EQ(Trace("--fail-on error", "threads").rc, 0);
  EXPECT_EQ(Trace("--fail-on warning", "basic").rc, 1);
}

// A gate that watched nothing must not pass: with --fail-on, a run in which no process could be traced is
// exit 3 with its own message (docs/trace.md). A traced program that encoded no map is a clean, complete trace.
TEST(TraceInject, FailOnIsExitThreeWhenNothingWasTraced) {
  const Result no_cupti = Trace("--fail-on error", "basic", "TMAPGEN_CUPTI=/nonexistent/libcupti.so");
  EXPECT_EQ(no_cupti.rc, 3) << no_cupti.err;
  EXPECT_TRUE(Has(no_cupti.err, "nothing was traced: 1 process loaded the injection library, and none could "
                                "subscribe to CUPTI")) << no_cupti.err;
  EXPECT_TRUE(Has(no_cupti.err, "--fail-on error: nothing was traced, so no map was checked (exit 3)")) << no_cupti.err;
  const Result busy = Trace("--fail-on warning", "basic", "FAKE_CUPTI_BUSY=1");
  EXPECT_EQ(busy.rc, 3) << busy.err;
  // No process initialised the driver (a program that never calls cuInit stands for a host without one).
  const Result no_driver = TraceProgram("--fail-on error", "/bin/true");
  EXPECT_EQ(no_driver.rc, 3) << no_driver.err;
  EXPECT_TRUE(Has(no_driver.err, "no process loaded the injection library")) << no_driver.err;
  if (void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(h);
  } else {  // a host without the driver (this test's usual machine): the reason is named
    EXPECT_TRUE(Has(no_driver.err, "libcuda.so.1 cannot be loaded here")) << no_driver.err;
  }
  // Without --fail-on the program's status is passed on as before; the message is still there.
  const Result plain = Trace("", "basic", "TMAPGEN_CUPTI=/nonexistent/libcupti.so");
  EXPECT_EQ(plain.rc, 0) << plain.err;
  EXPECT_TRUE(Has(plain.err, "nothing was traced")) << plain.err;
  // Traced, and no map encoded: nothing to fail on.
  const Result none = Trace("--fail-on error", "none");
  EXPECT_EQ(none.rc, 0) << none.err;
  EXPECT_TRUE(Has(none.err, "1 process loaded the driver (1 traced), 0 tensor-map calls")) << none.err;
  EXPECT_FALSE(Has(none.err, "nothing was traced")) << none.err;
}

TEST(TraceInject, BadUsageIsExitTwoAndTheProgramDoesNotRun) {
  const Result r = Trace("--fail-on sometimes", "basic");
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(Has(r.err, "--fail-on: expected error or warning")) << r.err;
  const Result t = Trace("--target sm_77", "basic");
  EXPECT_EQ(t.rc, 2);
  EXPECT_TRUE(Has(t.err, "unknown target \"sm_77\"")) << t.err;
}

TEST(TraceInject, TheProgramsExitStatusIsPassedOn) {
  const Result missing = TraceProgram("", "/nonexistent/program");
  EXPECT_EQ(missing.rc, 127);
  EXPECT_TRUE(Has(missing.err, "cannot run /nonexistent/program")) << missing.err;
  const Result failed = TraceProgram("--fail-on error", "/bin/sh -c 'exit 3'");
  EXPECT_EQ(failed.rc, 3) << failed.err;
  const Result killed = TraceProgram("", "/bin/sh -c 'kill -TERM $$'");
  EXPECT_EQ(killed.rc, 128 + 15) << killed.err;
  EXPECT_TRUE(Has(killed.err, "was killed by signal 15")) << killed.err;
  EXPECT_TRUE(Has(killed.err, "no process loaded the injection library")) << killed.err;
}

TEST(TraceInject, TheLibraryLoadedByHandExplainsAndSummarisesOnStandardError) {
  // No `tmapgen trace`: CUDA_INJECTION64_PATH set by hand, no TMAPGEN_TRACE_DIR.
  char t[] = "/tmp/tmapgen-trace-alone.XXXXXX";
  const std::string dir = mkdtemp(t) ? t : "/tmp";
  const std::string cmd = "env -u TMAPGEN_TRACE_DIR CUDA_INJECTION64_PATH=" TMAPGEN_INJECT_LIB
                          " TMAPGEN_CUPTI=" TMAPGEN_FAKE_CUPTI " " TMAPGEN_FAKE_APP " basic > " + dir + "/out 2> " +
                          dir + "/err";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  const std::string out = Slurp(dir + "/out"), err = Slurp(dir + "/err");
  EXPECT_EQ(out, "fake_app basic: done\n");
  EXPECT_TRUE(Has(err, "[box-dim-range]")) << err;
  EXPECT_TRUE(Has(err, "tmapgen trace summary: 1 process loaded the driver (1 traced), 1,012 tensor-map calls, 3 "
                       "distinct configurations")) << err;
}

TEST(TraceInject, TargetOverridesTheGpu) {
  const Result r = Trace("--target sm_100a", "threads");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_FALSE(r.records.empty());
  EXPECT_TRUE(Has(r.records[0], "\"target\":\"sm_100a\"")) << r.records[0];
}

}  // namespace

// ---- launch checks, against the fake driver's kernels, launches and allocator (tests/trace/fake) --------

TEST(TraceInjectLaunch, MapsInAStructParameterOverLiveMemoryAreCountedAndNotReported) {
  const Result r = Trace("--fail-on error", "launch_ok");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "fake_app launch_ok: done\n");
  // 100 launches with kernelParams, 1 with the packed `extra` buffer, 1 through cuLaunchKernelEx, 1000 of a
  // kernel with small parameters, 10 runtime launches that the runtime makes through cuLaunchKernel (each
  // counted and checked once), 1 runtime launch of a kernel the driver cannot describe (not scanned), and 1
  // of a kernel whose map is a placeholder over address 0.
  EXPECT_TRUE(Has(r.err, "kernel launches: 1,114 launches seen, 113 with parameters that can hold a map, 225 maps found "
                         "in them; 0 findings")) << r.err;
  EXPECT_TRUE(Has(r.err, "launches not scanned")) << r.err;
  EXPECT_TRUE(Has(r.err, "gemm_params: 112 launches, 224 maps, 0 findings")) << r.err;
  EXPECT_TRUE(Has(r.err, "null_map: 1 launch, 1 map, 0 findings")) << r.err;
  EXPECT_FALSE(Has(r.err, "small_kernel")) << r.err;
  // Maps a traced encode wrote and whose tensors are live make no record.
  for (const std::string& line : r.records) EXPECT_FALSE(Has(line, "\"kernel\"")) << line;
}

TEST(TraceInjectLaunch, EachMemoryProblemIsExplainedRecordedAndFailsTheGate) {
  const Result r = Trace("--fail-on error", "launch_bad");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "fake_app launch_bad: done\n");
  EXPECT_TRUE(Has(r.err, "a kernel received a tensor map whose tensor runs past the end of its allocation")) << r.err;
  // The offset the driver reports for a map as the first parameter (the fake reports 112, as driver 580 did).
  EXPECT_TRUE(Has(r.err, "kernel one_map, cuLaunchKernel, parameter 0 at offset 112 of the parameter buffer")) << r.err;
  // 32768 x 2 bytes + 16383 x 65536 bytes = 1 GiB, over 512 MiB.
  EXPECT_TRUE(Has(r.err, "(1073741824 bytes)")) << r.err;
  EXPECT_TRUE(Has(r.err, "(536870912 bytes) on device 0")) << r.err;
  EXPECT_TRUE(Has(r.err, "kernel one_map, graph kernel node")) << r.err;
  EXPECT_TRUE(Has(r.err, "whose tensor was freed and its memory reallocated")) << r.err;
  EXPECT_TRUE(Has(r.err, "whose tensor is in no live allocation")) << r.err;
  EXPECT_TRUE(Has(r.err, "one_map: 5 launches, 5 maps, 4 findings")) << r.err;
  EXPECT_TRUE(Has(r.err, "null_map: 1 launch, 1 map, 0 findings")) << r.err;
  // Records: the four findings and the map edited by hand (unknown origin, no finding); all replayable.
  int launch_records = 0, unknown = 0, findings = 0;
  for (const std::string& line : r.records) {
    if (!Has(line, "\"kernel\"")) continue;
    ++launch_records;
    const absl::StatusOr<tmapgen::TensorMapSpec> parsed = tmapgen::ParseSpecJson(line);
    EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << line;
    unknown += Has(line, "\"origin\":\"unknown\"");
    findings += !Has(line, "\"memory\":\"none\"");
    if (Has(line, "\"origin\":\"unknown\"")) {
      EXPECT_TRUE(Has(line, "\"l2_promotion\":\"CU_TENSOR_MAP_L2_PROMOTION_L2_256B\"")) << line;
    }
  }
  EXPECT_EQ(launch_records, 5) << r.err;
  EXPECT_EQ(unknown, 1);
  EXPECT_EQ(findings, 4);
  EXPECT_TRUE(Has(r.err, "--fail-on error: findings of that severity were seen (exit 1)")) << r.err;
}

TEST(TraceInjectLaunch, LaunchChecksCanBeTurnedOff) {
  const Result r = Trace("--fail-on error", "launch_bad", "TMAPGEN_TRACE_LAUNCH=0");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(Has(r.err, "kernel launches:")) << r.err;
}

// ---- how launches are seen: the preload library (src/trace/preload/) or CUPTI's launch callbacks ----------

// The seven kernels of launch_paths, one per way a program gets the driver's launch function (linked,
// dlsym by handle, dlsym(RTLD_DEFAULT), cuGetProcAddress linked, cuGetProcAddress from dlsym with
// cuLaunchKernelEx, cuGetProcAddress from cuGetProcAddress, and the runtime's <<<>>>), each launched once
// with a map of a 1 GiB tensor over 512 MiB: one finding each.
void ExpectEveryPathFound(const Result& r) {
  for (const char* k : {"via_linked", "via_dlsym", "via_dlsym_default", "via_getprocaddress",
                        "via_dlsym_getprocaddress_ex", "via_getprocaddress_twice", "via_runtime"})
    EXPECT_TRUE(Has(r.err, std::string(k) + ": 1 launch, 1 map, 1 finding")) << k << "\n" << r.err;
  EXPECT_EQ(r.rc, 1) << r.err;
}

TEST(TraceInjectPreload, EveryWayOfGettingTheLaunchFunctionIsCheckedWithoutACuptiLaunchCallback) {
  const Result r = Trace("--fail-on error", "launch_paths", "TMAPGEN_TRACE_LAUNCH_STATS=1");
  ExpectEveryPathFound(r);
  // The fake driver reports every launch to CUPTI's subscriber only when the launch callbacks are enabled:
  // none reached it, all seven reached the preload library's hook.
  EXPECT_TRUE(Has(r.err, "launches the driver accepted: 0 driver launches and 0 runtime launches with no driver "
                         "launch under them seen through CUPTI callbacks; 7 seen through the preloaded entry points "
                         "(launches seen through the preloaded entry points)")) << r.err;
}

TEST(TraceInjectPreload, BothWaysSeeTheSameLaunches) {
  const Result r = Trace("--fail-on error", "launch_paths", "TMAPGEN_TRACE_LAUNCH_VIA=both");
  ExpectEveryPathFound(r);
  EXPECT_TRUE(Has(r.err, "launches the driver accepted: 7 driver launches and 0 runtime launches with no driver "
                         "launch under them seen through CUPTI callbacks; 7 seen through the preloaded entry points"))
      << r.err;
}

TEST(TraceInjectPreload, ThroughCuptiTheFindingsAreTheSame) {
  const Result r = Trace("--fail-on error", "launch_paths",
                         "TMAPGEN_TRACE_LAUNCH_VIA=cupti TMAPGEN_TRACE_LAUNCH_STATS=1 TMAPGEN_TRACE_PRELOAD_DEBUG=1");
  ExpectEveryPathFound(r);
  EXPECT_TRUE(Has(r.err, "7 driver launches and 0 runtime launches with no driver launch under them seen through "
                         "CUPTI callbacks; 0 seen through the preloaded entry points (launches seen through CUPTI "
                         "callbacks (TMAPGEN_TRACE_LAUNCH_VIA=cupti))")) << r.err;
  EXPECT_FALSE(Has(r.err, "tmapgen trace preload:")) << "not preloaded, so nothing wrapped\n" << r.err;
}

TEST(TraceInjectPreload, AMissingPreloadLibraryIsSaidAndCuptiWatchesLaunches) {
  const Result r = Trace("--fail-on error", "launch_paths",
                         "TMAPGEN_TRACE_PRELOAD=/nonexistent/libtmapgen_trace_preload.so TMAPGEN_TRACE_LAUNCH_STATS=1");
  ExpectEveryPathFound(r);
  EXPECT_TRUE(Has(r.err, "tmapgen trace: /nonexistent/libtmapgen_trace_preload.so was not found: kernel launches are "
                         "watched through CUPTI callbacks")) << r.err;
  EXPECT_TRUE(Has(r.err, "(libtmapgen_trace_preload.so is not preloaded)")) << r.err;
}

TEST(TraceInjectPreload, RunningOutOfWrapperSlotsHandsLaunchesToCupti) {
  // Twelve distinct launch functions from cuGetProcAddress, the preload library has 8 slots: the 9th goes out
  // unwrapped, CUPTI's launch callbacks are enabled then, and every one of the 13 launches is still checked
  // once (the first through the wrapper, the other 12 through CUPTI).
  const Result r = Trace("--fail-on error", "launch_copies", "TMAPGEN_TRACE_LAUNCH_STATS=1");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_TRUE(Has(r.err, "a kernel-launch entry point could not be wrapped; launches are watched through CUPTI from "
                         "now on")) << r.err;
  EXPECT_TRUE(Has(r.err, "copies: 13 launches, 13 maps, 13 findings")) << r.err;
}

TEST(TraceInjectPreload, AWindowThatKeepsHoldingSomethingElseIsRetired) {
  // 1000 launches whose parameter starts with a new aligned pointer each time (past the never-written test,
  // not a map): judged at 8 launches, then no longer scanned.
  const Result r = Trace("", "launch_churn", "TMAPGEN_TRACE_LAUNCH_STATS=1");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Has(r.err, "launch checks: 1000 launches, 1000 scanned, 8 windows past the never-written test, 8 looked "
                         "up, 8 judged (decoded), cache overflow 0, 1 windows retired")) << r.err;
}

TEST(TraceInjectPreload, AMapWhoseAddressChangesAtEveryLaunchIsFoundAtEveryLaunch) {
  const Result r = Trace("--fail-on error", "launch_moving_map");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Has(r.err, "moving_map: 100 launches, 100 maps, 0 findings")) << r.err;
}

TEST(TraceInjectPreload, ThePreloadedDlsymAnswersOtherLookupsAsGlibcDoes) {
  const std::string probe = std::string(TMAPGEN_PRELOAD_PROBE) + " ";
  const std::string local = std::string(" ") + TMAPGEN_PROBE_LOCAL;
  for (int mode = 0; mode < 3; ++mode) {
    // plain; the preload library alone; the preload library and, after it, another tool's dlsym interposer.
    const bool preloaded = mode > 0;
    const std::string env = mode == 0   ? std::string()
                            : mode == 1 ? std::string("LD_PRELOAD=") + TMAPGEN_PRELOAD_LIB + " "
                                        : std::string("LD_PRELOAD=") + TMAPGEN_PRELOAD_LIB + ":" + TMAPGEN_PROBE_HOOKDL + " ";
    const std::string cmd = env + "timeout 20 " + probe + (preloaded ? "preloaded" : "plain") + local +
                            (mode == 2 ? " hook" : "") + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (fgets(buf, sizeof(buf), p) != nullptr) out += buf;
    const int st = pclose(p);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << cmd << "\n" << out;
    EXPECT_TRUE(Has(out, "probe: all checks hold")) << cmd << "\n" << out;
  }
}

TEST(TraceInjectPreload, AProgramWithASharedAddressSanitizerRuntimeRunsUnderTrace) {
  if (std::string(TMAPGEN_ASAN_PROBE).empty()) GTEST_SKIP() << "the compiler cannot build with -fsanitize=address here";
  // Without a driver nothing is traced; the program's own exit status and output are what count.
  const Result r = TraceProgram("", TMAPGEN_ASAN_PROBE);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "asan_probe: 7\n") << r.err;
  EXPECT_FALSE(Has(r.err, "ASan runtime does not come first")) << r.err;
}

TEST(TraceInjectLaunch, AGraphsMapsAreCheckedAgainAtEachLaunchAfterMemoryWasFreed) {
  // launch_graph: one kernel node whose map covers a 1 MiB tensor; the executable graph launched while the
  // tensor is live (nothing), after it was freed and its range handed to another allocation (reallocated),
  // again with nothing freed since (not checked again), after that allocation was freed too (no allocation).
  const Result r = Trace("--fail-on error", "launch_graph");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "fake_app launch_graph: done\n");
  EXPECT_TRUE(Has(r.err, "graph_map: 1 launch, 1 map, 2 findings")) << r.err;
  int graph_records = 0, reallocated = 0, none = 0;
  for (const std::string& line : r.records) {
    if (!Has(line, "\"call\":\"cuGraphLaunch\"")) continue;
    ++graph_records;
    reallocated += Has(line, "\"memory\":\"reallocated\"");
    none += Has(line, "\"memory\":\"no-allocation\"");
    const absl::StatusOr<tmapgen::TensorMapSpec> parsed = tmapgen::ParseSpecJson(line);
    EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << line;
  }
  EXPECT_EQ(graph_records, 2) << r.err;
  EXPECT_EQ(reallocated, 1) << r.err;
  EXPECT_EQ(none, 1) << r.err;
}

TEST(TraceInjectPreload, ALaunchThroughAnotherToolsInterposerIsCheckedOnce) {
  // LD_PRELOAD holds another tool's cuLaunchKernel (after tmapgen's, where tmapgen trace puts its own first),
  // which forwards to what dlsym(libcuda.so.1) gives it: tmapgen's wrapper. The linked launch passes through
  // tmapgen's export and its wrapper; it is one launch.
  const Result r = Trace("--fail-on error", "launch_paths",
                         std::string("LD_PRELOAD=") + TMAPGEN_LAUNCH_INTERPOSER + " TMAPGEN_TRACE_LAUNCH_STATS=1");
  ExpectEveryPathFound(r);
  EXPECT_TRUE(Has(r.err, "; 7 seen through the preloaded entry points")) << r.err;
}

TEST(TraceInjectPreload, WindowsRetiringOnManyThreadsNeverHideTheKernelsMap) {
  // 8 threads x 2,000 launches of one kernel: its map at 0 and 56 windows of changing non-map bytes after it, which
  // retire. Every launch finds the map: retirements counted twice by racing threads once made the kernel look
  // fully retired and hid it.
  const Result r = Trace("--fail-on error", "launch_threads");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Has(r.err, "threads_map: 16,000 launches, 16,000 maps, 0 findings")) << r.err;
}
