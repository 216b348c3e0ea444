#include "cli/check_cmd.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/common_flags.h"
#include "cli/plan_cmd.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/check/check_report.h"
#include "src/gpu/check/check_runner.h"
#include "src/gpu/check/codegen_example.h"
#include "src/gpu/check/mcast_check.h"
#include "src/gpu/check/mcast_plan.h"
#include "src/gpu/check/wgmma_check.h"
#include "src/ops/check.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

int Usage(const std::string& msg) {
  std::fputs(CheckUsageText(msg).c_str(), stderr);
  return 2;
}

// --self-test: a good copy, a copy that traps (misaligned dimension-0 start, docs/model.md M2), a good
// copy, a copy whose mbarrier expects 16 bytes too many, a good copy. Expected: PASS FAULT PASS TIMEOUT PASS.
int SelfTest() {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = DataType::kFloat16;
  s.rank = 2;
  s.global_dim = {40, 20, 0, 0, 0};
  s.box_dim = {32, 8, 0, 0, 0};
  FillPaddedStrides(&s);
  gpu::CheckCase good;
  good.spec = s;
  good.in.smem_address = 1024;
  good.in.coords = {8, 4, 0, 0, 0};
  good.seed = 11;
  good.label = "load at (8, 4)";
  gpu::CheckCase trap = good;
  trap.in.coords = {-3, 16, 0, 0, 0};
  trap.label = "load at (-3, 16): dimension-0 start not 16-byte aligned (traps)";
  trap.force_run = true;
  gpu::CheckCase wrong = good;
  wrong.tx_delta = 16;
  wrong.label = "load at (8, 4) with the mbarrier expecting 16 bytes too many";
  const std::vector<gpu::CheckCase> cases = {good, trap, good, wrong, good};
  const gpu::Outcome want[] = {gpu::Outcome::kPass, gpu::Outcome::kFault, gpu::Outcome::kPass, gpu::Outcome::kTimeout,
                               gpu::Outcome::kPass};
  std::vector<gpu::CaseResult> res;
  gpu::RunSummary sum;
  gpu::RunChecks(cases, gpu::RunOptions{}, &res, &sum);
  if (!sum.gpu_available) {
    std::fprintf(stderr, "tmapgen check: no usable GPU: %s\n", sum.why_no_gpu.c_str());
    return 2;
  }
  std::printf("tmapgen check --self-test on %s: a fault and a wrong transaction count must be reported, the run "
              "must go on\n", sum.device.c_str());
  int ok = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const bool good_outcome = res[i].outcome == want[i];
    ok += good_outcome;
    std::string d = res[i].detail;
    while (!d.empty() && d.back() == '\n') d.pop_back();
    std::printf("  %-7s (expected %-7s) %s%s%s\n", gpu::OutcomeName(res[i].outcome), gpu::OutcomeName(want[i]),
                cases[i].label.c_str(), d.empty() ? "" : ": ", d.c_str());
  }
  std::printf("self-test: %d of %zu as expected; %d check process(es) (a fault restarts the child)\n", ok,
              cases.size(), sum.children);
  return ok == static_cast<int>(cases.size()) ? 0 : 1;
}

}  // namespace

namespace {

// Returns the number of findings (a plan whose copies disagree with its counts or tiles fails the check).
size_t PrintFindings(const std::vector<gpu::McastJob>& jobs, uint64_t seed) {
  size_t n = 0;
  for (const gpu::McastJob& job : jobs) {
    if (job.control) continue;
    for (const std::string& f : gpu::CheckMcastJob(job, seed)) {
      if (n++ == 0) std::printf("model: the copies disagree with the counts or the tiles:\n");
      std::printf("  %s: %s\n", job.label.c_str(), f.c_str());
    }
  }
  if (n == 0)
    std::printf("model: every CTA's count equals the transaction bytes its loads bring, no byte is written twice%s\n",
                jobs.empty() || jobs[0].rounds.empty() || jobs[0].rounds[0].reference.empty()
                    ? ""
                    : ", every CTA's stage equals its whole A and B tiles loaded without multicast");
  return n;
}

int RunMulticast(const CheckArgs& a) {
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  if (a.files.empty()) return Usage("--multicast needs SPEC (a JSON spec file or a JSON-lines file of specs)");
  for (const std::string& f : a.files)
    if (const absl::Status st = ReadSpecsFile(f, &specs, &names); !st.ok()) return Usage(std::string(StatusMessage(st)));
  std::vector<gpu::McastJob> jobs;
  for (size_t i = 0; i < specs.size(); ++i) {
    TensorMapSpec s = specs[i];
    if (s.name.empty()) s.name = names[i];
    const absl::StatusOr<std::vector<gpu::McastJob>> one = gpu::SingleMapJobs(s, a.multicast, a.mask);
    if (!one.ok()) {
      std::fprintf(stderr, "tmapgen check: %s: %s\n", names[i].c_str(), std::string(StatusMessage(one.status())).c_str());
      return 1;
    }
    jobs.insert(jobs.end(), one->begin(), one->end());
  }
  const size_t findings = PrintFindings(jobs, a.seed);
  gpu::McastReport rep;
  gpu::RunMcastJobs(jobs, a.seed, 120, &rep);
  const int rc = gpu::PrintMcastReport(StrCat("tiled loads multicast over ", a.multicast, " CTAs"), jobs, rep, stdout);
  return rc == 0 && findings != 0 ? 1 : rc;
}

int RunPlanCheck(const CheckArgs& a) {
  PlanGemmArgs pa;
  if (const absl::Status st = ParsePlanGemmArgs(a.plan_args, &pa); !st.ok())
    return Usage(StrCat("--plan gemm: ", StatusMessage(st)));
  if (pa.help) return Usage("--plan gemm takes the flags of tmapgen plan gemm (see tmapgen plan gemm --help)");
  if (absl::Status st = plan::CheckGemmRequest(pa.request); !st.ok())
    return Usage(StrCat("--plan gemm: ", StatusMessage(st)));
  plan::GemmPlan p;
  plan::RunGemmPlan(pa.request, &p);
  const absl::StatusOr<std::vector<gpu::McastJob>> jobs = gpu::PlanMcastJobs(p, a.k_tiles);
  if (!jobs.ok()) {
    std::fprintf(stderr, "tmapgen check: --plan gemm: %s\n", std::string(StatusMessage(jobs.status())).c_str());
    return 1;
  }
  const size_t findings = PrintFindings(*jobs, a.seed);
  gpu::McastReport rep;
  gpu::RunMcastJobs(*jobs, a.seed, 120, &rep);
  const int rc = gpu::PrintMcastReport(gpu::PlanMcastTitle(p), *jobs, rep, stdout);
  return rc == 0 && findings != 0 ? 1 : rc;
}

}  // namespace

absl::Status ReadSpecsFile(const std::string& path, std::vector<TensorMapSpec>* specs,
                           std::vector<std::string>* names) {
  std::string text;
  if (path == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream f(path);
    if (!f) {  // the code from errno; the message names the file alone
      return absl::Status(ErrnoStatus(errno, "cannot open", path).code(), ToAbsl(StrCat("cannot open ", path)));
    }
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  const absl::StatusOr<TensorMapSpec> whole = ParseSpecJson(text);
  if (whole.ok()) {
    names->push_back(whole->name.empty() ? path : whole->name);
    specs->push_back(*whole);
    return absl::OkStatus();
  }
  // JSON lines.
  std::istringstream in(text);
  std::string line;
  size_t no = 0, got = 0;
  while (std::getline(in, line)) {
    ++no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const absl::StatusOr<TensorMapSpec> t = ParseSpecJson(line, no);
    if (!t.ok()) return Annotate(t.status(), path);
    names->push_back(t->name.empty() ? path + ":" + std::to_string(no) : t->name);
    specs->push_back(*t);
    ++got;
  }
  if (got == 0) return Annotate(whole.status(), path);
  return absl::OkStatus();
}

absl::Status ParseCheckArgs(const std::vector<std::string>& args_in, CheckArgs* a) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "check") args.erase(args.begin());
  *a = CheckArgs();
  auto count = [](const std::string& flag, const std::string& v, uint64_t lo, uint64_t hi,
                  uint64_t* out) -> absl::Status {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 0);
    if (v.empty() || *end != '\0' || n < lo || n > hi)
      return absl::InvalidArgumentError(ToAbsl(StrCat(flag, " needs a number from ", lo, " to ", hi, ", not \"", v, "\"")));
    *out = n;
    return absl::OkStatus();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& x = args[i];
    if (x == "--plan") {
      // The rest are the plan's flags (tmapgen plan gemm ...) and --k-tiles.
      if (i + 1 >= args.size() || args[i + 1] != "gemm")
        return absl::InvalidArgumentError(
            "--plan needs \"gemm\" and the flags of tmapgen plan gemm (--plan gemm --m M --n N --k K ...)");
      a->mode = CheckArgs::Mode::kPlan;
      for (size_t j = i + 2; j < args.size(); ++j) {
        if (args[j] == "--k-tiles" || args[j] == "--seed") {
          uint64_t v = 0;
          if (j + 1 >= args.size()) return absl::InvalidArgumentError(ToAbsl(args[j] + " needs a value"));
          if (args[j] == "--k-tiles") {
            if (absl::Status st = count("--k-tiles", args[j + 1], 1, 16, &v); !st.ok()) return st;
            a->k_tiles = static_cast<uint32_t>(v);
          } else {
            if (absl::Status st = count("--seed", args[j + 1], 0, UINT64_MAX, &v); !st.ok()) return st;
            a->seed = v;
          }
          ++j;
        } else {
          a->plan_args.push_back(args[j]);
        }
      }
      return absl::OkStatus();
    } else if (x == "--multicast" || x == "--mask") {
      uint64_t v = 0;
      if (i + 1 >= args.size()) return absl::InvalidArgumentError(ToAbsl(x + " needs a value"));
      if (x == "--multicast") {
        if (absl::Status st = count(x, args[++i], 2, 8, &v); !st.ok()) return st;
        a->multicast = static_cast<uint32_t>(v);
      } else {
        if (absl::Status st = count(x, args[++i], 1, 0xff, &v); !st.ok()) return st;
        a->mask = static_cast<uint16_t>(v);
      }
    } else if (x == "--help" || x == "-h") {
      a->mode = CheckArgs::Mode::kHelp;
      return absl::OkStatus();
    } else if (x == "--seed" && i + 1 < args.size()) {
      a->seed = std::strtoull(args[++i].c_str(), nullptr, 10);
    } else if (x == "--self-test") {
      a->mode = CheckArgs::Mode::kSelfTest;
      return absl::OkStatus();
    } else if (x == "--wgmma") {
      a->mode = CheckArgs::Mode::kWgmma;
      return absl::OkStatus();
    } else if (x == "--codegen-example") {
      a->mode = CheckArgs::Mode::kCodegenExample;
      return absl::OkStatus();
    } else if (x == "--verbose" || x == "-v") {
      a->verbose = true;
    } else if (!x.empty() && x[0] == '-' && x != "-") {
      return absl::InvalidArgumentError(ToAbsl(StrCat(
          "unknown flag ", x, DidYouMean(x, {"--seed", "--self-test", "--wgmma", "--codegen-example", "--verbose", "--help",
                                             "--multicast", "--mask", "--plan"}))));
    } else {
      a->files.push_back(x);
    }
  }
  if (a->mask != 0 && a->multicast == 0) return absl::InvalidArgumentError("--mask needs --multicast N");
  if (a->multicast != 0) {
    if (a->mask >> a->multicast != 0)
      return absl::InvalidArgumentError(
          ToAbsl(StrCat("--mask ", a->mask, " names CTAs beyond a cluster of ", a->multicast)));
    a->mode = CheckArgs::Mode::kMulticast;
  }
  if (a->files.empty()) return absl::InvalidArgumentError("missing SPEC (a JSON spec file or a JSON-lines file of specs)");
  return absl::OkStatus();
}

std::string CheckUsageText(const std::string& msg) {
  return "tmapgen check: " + msg + "\n" + HelpHint("check");
}

int RunCheckCommand(const std::vector<std::string>& args) {
  CheckArgs a;
  if (const absl::Status st = ParseCheckArgs(args, &a); !st.ok()) return Usage(std::string(StatusMessage(st)));
  switch (a.mode) {
    case CheckArgs::Mode::kHelp:
      std::printf("usage: tmapgen check SPEC... [--seed S] [--verbose] | --self-test | --wgmma | --codegen-example\n"
                  "       tmapgen check --multicast N [--mask M] SPEC... | --plan gemm PLAN-FLAGS... [--k-tiles N]\n"
                  "  runs every copy of each spec on this GPU and compares every byte with the model\n"
                  "  --codegen-example: the kernel built with examples/codegen/tile_a.gen.h, one load per coordinate\n"
                  "  --multicast N: each spec's tiled load, multicast over a cluster of N CTAs (2-8) to the CTAs of\n"
                  "    --mask M (default all), every receiving CTA's shared memory against the model\n"
                  "  --plan gemm ...: every CTA of the plan's cluster issues the plan's copies for --k-tiles K tiles\n"
                  "    (default 4) and arms its barrier with the plan's expect_tx (flags of tmapgen plan gemm)\n");
      return 0;
    case CheckArgs::Mode::kMulticast: return RunMulticast(a);
    case CheckArgs::Mode::kPlan: return RunPlanCheck(a);
    case CheckArgs::Mode::kSelfTest: return SelfTest();
    case CheckArgs::Mode::kWgmma: return gpu::RunWgmmaProof(stdout);
    case CheckArgs::Mode::kCodegenExample: {
      gpu::CodegenExampleReport rep;
      gpu::RunCodegenExample(60, &rep);
      return gpu::PrintCodegenExample(rep, stdout);
    }
    case CheckArgs::Mode::kRun: break;
  }
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  for (const std::string& f : a.files)
    if (const absl::Status st = ReadSpecsFile(f, &specs, &names); !st.ok()) return Usage(std::string(StatusMessage(st)));
  ops::CheckRequest req;
  req.specs = std::move(specs);
  req.names = std::move(names);
  req.seed = a.seed;
  const absl::StatusOr<gpu::CheckReport> run = ops::RunCheck(req);
  if (!run.ok()) {
    std::fprintf(stderr, "%s", NoGpuText(std::string(StatusMessage(run.status()))).c_str());
    return 2;
  }
  const gpu::CheckReport& rep = *run;
  const std::string text = gpu::RenderCheckText(rep, a.verbose);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return gpu::Passed(rep) ? 0 : 1;
}

std::string NoGpuText(const std::string& why) { return "tmapgen check: no usable GPU: " + why + "\n"; }

}  // namespace tmapgen::cli
