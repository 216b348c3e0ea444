#include "cli/check_cmd.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "src/gpu/check_plan.h"
#include "src/gpu/check_runner.h"
#include "src/gpu/codegen_example.h"
#include "src/gpu/wgmma_check.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"

namespace tmapgen::cli {
namespace {

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen check: %s\nusage: tmapgen check SPEC... [--seed S] [--verbose]\n", msg.c_str());
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
  FillDenseStrides(&s);
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

bool ReadSpecsFile(const std::string& path, std::vector<TensorMapSpec>* specs, std::vector<std::string>* names,
                   std::string* err) {
  std::string text;
  if (path == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream f(path);
    if (!f) {
      *err = "cannot open " + path;
      return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  TensorMapSpec s;
  InputError e;
  if (ParseSpecJson(text, 1, &s, &e)) {
    names->push_back(s.name.empty() ? path : s.name);
    specs->push_back(s);
    return true;
  }
  // JSON lines.
  std::istringstream in(text);
  std::string line;
  size_t no = 0, got = 0;
  while (std::getline(in, line)) {
    ++no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    TensorMapSpec t;
    InputError le;
    if (!ParseSpecJson(line, no, &t, &le)) {
      *err = path + ": " + le.message;
      return false;
    }
    names->push_back(t.name.empty() ? path + ":" + std::to_string(no) : t.name);
    specs->push_back(t);
    ++got;
  }
  if (got == 0) {
    *err = path + ": " + e.message;
    return false;
  }
  return true;
}

int RunCheckCommand(const std::vector<std::string>& args_in) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "check") args.erase(args.begin());
  std::vector<std::string> files;
  uint64_t seed = 1;
  bool verbose = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: tmapgen check SPEC... [--seed S] [--verbose] | --self-test | --wgmma | --codegen-example\n"
                  "  runs every copy of each spec on this GPU and compares every byte with the model\n"
                  "  --codegen-example: the kernel built with examples/codegen/tile_a.gen.h, one load per coordinate\n");
      return 0;
    } else if (a == "--seed" && i + 1 < args.size()) {
      seed = std::strtoull(args[++i].c_str(), nullptr, 10);
    } else if (a == "--self-test") {
      return SelfTest();
    } else if (a == "--wgmma") {
      return gpu::RunWgmmaProof(stdout);
    } else if (a == "--codegen-example") {
      gpu::CodegenExampleReport rep;
      gpu::RunCodegenExample(60, &rep);
      return gpu::PrintCodegenExample(rep, stdout);
    } else if (a == "--verbose" || a == "-v") {
      verbose = true;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return Usage("unknown flag " + a);
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) return Usage("missing SPEC (a JSON spec file or a JSON-lines file of specs)");
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  for (const std::string& f : files) {
    std::string err;
    if (!ReadSpecsFile(f, &specs, &names, &err)) return Usage(err);
  }
  gpu::Plan plan;
  std::vector<std::string> invalid(specs.size());
  std::vector<int> skipped(specs.size(), 0);
  std::vector<std::string> skip_reason(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    Validation v;
    Validate(specs[i], &v);
    if (!v.valid) {
      for (const auto& f : v.findings) {
        const Rule& r = Rules()[f.rule];
        if (r.severity == Severity::kError) {
          invalid[i] = std::string(r.id) + ": " + r.message(specs[i], f).str();
          break;
        }
      }
      if (invalid[i].empty()) invalid[i] = "invalid";
      continue;
    }
    gpu::Plan p;
    gpu::PlanChecks(specs[i], static_cast<int>(i), seed + i, &p);
    for (auto& c : p.cases) plan.cases.push_back(std::move(c));
    skipped[i] = p.skipped;
    skip_reason[i] = p.first_skip_reason;
  }
  std::vector<gpu::CaseResult> res;
  gpu::RunSummary sum;
  gpu::RunOptions opt;
  opt.unit = 1;
  if (!plan.cases.empty()) {
    gpu::RunChecks(plan.cases, opt, &res, &sum);
  } else {
    gpu::ProbeGpu(&sum);
  }
  if (!sum.gpu_available) {
    std::fprintf(stderr, "tmapgen check: no usable GPU: %s\n", sum.why_no_gpu.c_str());
    return 2;
  }
  std::printf("tmapgen check on %s, seed %llu\n", sum.device.c_str(), static_cast<unsigned long long>(seed));
  int n_pass = 0, n_fail = 0, n_notrun = 0, bad_specs = 0;
  std::map<std::string, int> notrun_reasons;
  for (size_t i = 0; i < specs.size(); ++i) {
    const TensorMapSpec& s = specs[i];
    std::printf("\nspec %s: %s %s rank %u swizzle %s\n", names[i].c_str(), std::string(Name(s.mode)).c_str(),
                std::string(ShortName(s.data_type)).c_str(), s.rank, std::string(ShortName(s.swizzle)).c_str());
    if (!invalid[i].empty()) {
      std::printf("  INVALID  %s (not run)\n", invalid[i].c_str());
      ++bad_specs;
      continue;
    }
    // Group by copy kind, in plan order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t k = 0; k < plan.cases.size(); ++k) {
      if (plan.cases[k].spec_index != static_cast<int>(i)) continue;
      const std::string g = gpu::CopyKindName(plan.cases[k]);
      if (!groups.count(g)) order.push_back(g);
      groups[g].push_back(k);
    }
    for (const std::string& g : order) {
      int pass = 0, fail = 0, notrun = 0;
      std::string first_notrun;
      for (size_t k : groups[g]) {
        const auto& r = res[k];
        if (r.outcome == gpu::Outcome::kPass) ++pass;
        else if (r.outcome == gpu::Outcome::kNotRun) {
          ++notrun;
          if (first_notrun.empty()) first_notrun = r.detail;
        } else ++fail;
      }
      n_pass += pass;
      n_fail += fail;
      n_notrun += notrun;
      const size_t n = groups[g].size();
      if (fail > 0) {
        std::printf("  FAIL     %-28s %d of %zu coordinates fail\n", g.c_str(), fail, n);
      } else if (notrun == static_cast<int>(n)) {
        std::printf("  NOT RUN  %-28s %zu coordinates: %s\n", g.c_str(), n, first_notrun.c_str());
        const size_t semi = first_notrun.find(';');
        ++notrun_reasons[first_notrun.substr(0, semi)];
      } else {
        std::printf("  PASS     %-28s %d coordinates, every byte equal to the model%s\n", g.c_str(), pass,
                    notrun ? " (some not run)" : "");
      }
      for (size_t k : groups[g]) {
        const auto& r = res[k];
        const bool show = verbose || (r.outcome != gpu::Outcome::kPass && r.outcome != gpu::Outcome::kNotRun);
        if (!show) continue;
        std::printf("    %-7s %s\n", gpu::OutcomeName(r.outcome), plan.cases[k].label.c_str());
        if (r.outcome != gpu::Outcome::kPass && !r.detail.empty()) {
          std::string d = r.detail;
          if (d.back() != '\n') d += '\n';
          std::printf("%s", d.c_str());
        }
      }
    }
    if (skipped[i] > 0)
      std::printf("  (%d coordinates skipped: the model refuses them, e.g. %s)\n", skipped[i], skip_reason[i].c_str());
  }
  std::printf("\nsummary on %s: %d copies checked on hardware: %d pass, %d fail/timeout/fault; %d not run on hardware",
              sum.device.c_str(), n_pass + n_fail, n_pass, n_fail, n_notrun);
  if (bad_specs) std::printf("; %d invalid spec(s)", bad_specs);
  std::printf("; %d check process(es)\n", sum.children);
  for (const auto& [why, count] : notrun_reasons)
    std::printf("not proven on hardware (%d copy kind(s)): %s\n", count, why.c_str());
  return (n_fail == 0 && bad_specs == 0) ? 0 : 1;
}

}  // namespace tmapgen::cli
