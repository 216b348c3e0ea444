// check_report.cc: see check_report.h. The text is the one `tmapgen check` printed before the report
// existed as a value (cli/check_cmd.cc), line for line.
#include "src/gpu/check/check_report.h"

#include <map>

#include "absl/strings/str_format.h"
#include "src/tmap/rule.h"
#include "src/tmap/validator.h"

namespace tmapgen::gpu {

void RunSpecChecks(const std::vector<TensorMapSpec>& specs, const std::vector<std::string>& names, uint64_t seed,
                   CheckReport* out) {
  CheckReport& rep = *out;
  rep = CheckReport();
  rep.seed = seed;
  rep.specs.resize(specs.size());
  Plan plan;
  for (size_t i = 0; i < specs.size(); ++i) {
    SpecCheck& sc = rep.specs[i];
    sc.name = i < names.size() ? names[i] : specs[i].name;
    sc.spec = specs[i];
    Validation v;
    Validate(specs[i], &v);
    if (!v.valid) {
      for (const auto& f : v.findings) {
        const Rule& r = Rules()[f.rule];
        if (r.severity == Severity::kError) {
          sc.invalid = std::string(r.id) + ": " + MessageText(r, specs[i], f).str();
          break;
        }
      }
      if (sc.invalid.empty()) sc.invalid = "invalid";
      continue;
    }
    Plan p;
    PlanChecks(specs[i], static_cast<int>(i), seed + i, &p);
    for (auto& c : p.cases) plan.cases.push_back(std::move(c));
    sc.skipped = p.skipped;
    sc.skip_reason = p.first_skip_reason;
  }
  std::vector<CaseResult> res;
  RunSummary sum;
  RunOptions opt;
  opt.unit = 1;
  if (!plan.cases.empty()) {
    RunChecks(plan.cases, opt, &res, &sum);
  } else {
    ProbeGpu(&sum);
  }
  rep.gpu_available = sum.gpu_available;
  rep.why_no_gpu = sum.why_no_gpu;
  rep.device = sum.device;
  rep.processes = sum.children;
  if (!sum.gpu_available) {
    rep.specs.clear();
    return;
  }
  for (size_t k = 0; k < plan.cases.size(); ++k) {
    const CheckCase& c = plan.cases[k];
    CopyCheck cc;
    cc.kind = CopyKindName(c);
    cc.label = c.label;
    const bool rows = c.in.mode == model::CopyMode::kTileGather4 || c.in.mode == model::CopyMode::kTileScatter4;
    const uint32_t rank = rows ? 2 : c.spec.rank;
    for (uint32_t d = 0; d < rank && d < c.in.coords.size(); ++d) cc.coords.push_back(c.in.coords[d]);
    cc.outcome = res[k].outcome;
    cc.detail = res[k].detail;
    cc.mismatch = res[k].mismatch;
    if (cc.outcome == Outcome::kPass) ++rep.passed;
    else if (cc.outcome == Outcome::kNotRun) ++rep.not_run;
    else ++rep.failed;
    rep.specs[static_cast<size_t>(c.spec_index)].copies.push_back(std::move(cc));
  }
  for (const SpecCheck& sc : rep.specs) rep.invalid_specs += sc.invalid.empty() ? 0 : 1;
}

std::string RenderCheckText(const CheckReport& r, bool verbose) {
  std::string o = absl::StrFormat("tmapgen check on %s, seed %llu\n", r.device, static_cast<unsigned long long>(r.seed));
  std::map<std::string, int> notrun_reasons;
  for (const SpecCheck& sc : r.specs) {
    const TensorMapSpec& s = sc.spec;
    o += absl::StrFormat("\nspec %s: %s %s rank %u swizzle %s\n", sc.name, std::string(Name(s.mode)),
                         std::string(ShortName(s.data_type)), s.rank, std::string(ShortName(s.swizzle)));
    if (!sc.invalid.empty()) {
      o += absl::StrFormat("  INVALID  %s (not run)\n", sc.invalid);
      continue;
    }
    // Group by copy kind, in plan order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t k = 0; k < sc.copies.size(); ++k) {
      const std::string& g = sc.copies[k].kind;
      if (!groups.count(g)) order.push_back(g);
      groups[g].push_back(k);
    }
    for (const std::string& g : order) {
      int pass = 0, fail = 0, notrun = 0;
      std::string first_notrun;
      for (size_t k : groups[g]) {
        const CopyCheck& c = sc.copies[k];
        if (c.outcome == Outcome::kPass) ++pass;
        else if (c.outcome == Outcome::kNotRun) {
          ++notrun;
          if (first_notrun.empty()) first_notrun = c.detail;
        } else ++fail;
      }
      const size_t n = groups[g].size();
      if (fail > 0) {
        o += absl::StrFormat("  FAIL     %-28s %d of %zu coordinates fail\n", g, fail, n);
      } else if (notrun == static_cast<int>(n)) {
        o += absl::StrFormat("  NOT RUN  %-28s %zu coordinates: %s\n", g, n, first_notrun);
        const size_t semi = first_notrun.find(';');
        ++notrun_reasons[first_notrun.substr(0, semi)];
      } else {
        o += absl::StrFormat("  PASS     %-28s %d coordinates, every byte equal to the model%s\n", g, pass,
                             notrun ? " (some not run)" : "");
      }
      for (size_t k : groups[g]) {
        const CopyCheck& c = sc.copies[k];
        const bool show = verbose || (c.outcome != Outcome::kPass && c.outcome != Outcome::kNotRun);
        if (!show) continue;
        o += absl::StrFormat("    %-7s %s\n", OutcomeName(c.outcome), c.label);
        if (c.outcome != Outcome::kPass && !c.detail.empty()) {
          std::string d = c.detail;
          if (d.back() != '\n') d += '\n';
          o += d;
        }
      }
    }
    if (sc.skipped > 0)
      o += absl::StrFormat("  (%d coordinates skipped: the model refuses them, e.g. %s)\n", sc.skipped, sc.skip_reason);
  }
  o += absl::StrFormat(
      "\nsummary on %s: %d copies checked on hardware: %d pass, %d fail/timeout/fault; %d not run on hardware", r.device,
      r.passed + r.failed, r.passed, r.failed, r.not_run);
  if (r.invalid_specs) o += absl::StrFormat("; %d invalid spec(s)", r.invalid_specs);
  o += absl::StrFormat("; %d check process(es)\n", r.processes);
  for (const auto& [why, count] : notrun_reasons)
    o += absl::StrFormat("not proven on hardware (%d copy kind(s)): %s\n", count, why);
  return o;
}

}  // namespace tmapgen::gpu
