// check_report.h: `tmapgen check` as a value: every copy of each spec run on this machine's GPU and
// compared byte for byte with the reference model (check_plan.h, check_runner.h), collected per spec and
// copy, and the text the command prints. The command line (cli/check_cmd.cc) and tmapd's check worker
// (server/check_worker_main.cc) both run RunSpecChecks and render the same text from it.
//
// Contract
// - RunSpecChecks validates each spec (an invalid spec is reported, not run), plans its copies with seed
//   `seed + i` for the i-th spec, and runs them all (RunChecks: in child processes; the caller must not
//   have opened CUDA). Copies keep plan order; `kind` groups them (CopyKindName).
// - Without a usable GPU, gpu_available is false and why_no_gpu says why; nothing else is filled.
// - RenderCheckText is the command's standard output for a report with a GPU; Passed() its exit status
//   (0 when true, else 1).
#ifndef TMAPGEN_SRC_GPU_CHECK_CHECK_REPORT_H_
#define TMAPGEN_SRC_GPU_CHECK_CHECK_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/gpu/check/check_plan.h"
#include "src/gpu/check/check_runner.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct CopyCheck {
  std::string kind;             // "load cta", "store", ... (CopyKindName)
  std::string label;            // "load cta at (0, 64)"
  std::vector<int64_t> coords;  // the copy's tensor coordinates (rank entries; 2 for gather4/scatter4)
  Outcome outcome = Outcome::kError;
  std::string detail;           // differences, the fault, or why not run
  Mismatch mismatch;            // kFail of a comparison: the first difference
};

struct SpecCheck {
  std::string name;
  TensorMapSpec spec;
  std::string invalid;          // "" = valid; else "rule-id: message" of the first error
  std::vector<CopyCheck> copies;
  int skipped = 0;              // coordinates the model refuses (not run)
  std::string skip_reason;
};

struct CheckReport {
  bool gpu_available = false;
  std::string why_no_gpu;
  std::string device;
  uint64_t seed = 1;
  std::vector<SpecCheck> specs;
  int processes = 0;            // check processes started (1 + restarts after faults)
  int passed = 0, failed = 0, not_run = 0, invalid_specs = 0;
};

void RunSpecChecks(const std::vector<TensorMapSpec>& specs, const std::vector<std::string>& names, uint64_t seed,
                   CheckReport* out);
std::string RenderCheckText(const CheckReport& r, bool verbose);
inline bool Passed(const CheckReport& r) { return r.failed == 0 && r.invalid_specs == 0; }

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_CHECK_REPORT_H_
