// check_runner.h: runs planned copies (check_plan.h) on the GPU and compares every byte with the model.
//
// Contract
// - RunChecks() forks a child process that opens the driver, loads the embedded kernels and runs the cases
//   in units (`unit` cases per launch: 1 uses tmapgen_tma_check with the tensor map as a __grid_constant__
//   parameter, more use tmapgen_tma_check_batch, one block per case). The calling process must not have
//   opened CUDA (CudaDriver::Get()) before: CUDA does not survive fork().
// - A kernel fault (illegal instruction, misaligned address: the context is poisoned) or a hang (a child
//   watchdog of `watchdog_s` seconds) kills only the child. The parent re-runs a faulting unit of several
//   cases one case at a time, records the faulting case as kFault with the driver's error, and starts a new
//   child for the rest. A wrong transaction count shows as kTimeout (the kernel's mbarrier wait is bounded).
// - Every case gets a result. Cases this GPU cannot execute (HardwareRequirement) are kNotRun; for them the
//   driver encode and the model still run, and the detail says so.
// - Global tensors are filled from the case's seed (FillRandom), never zeros; loads see a sentinel-filled
//   shared-memory window, so bytes the copy must not touch are checked too.
#ifndef TMAPGEN_SRC_GPU_CHECK_CHECK_RUNNER_H_
#define TMAPGEN_SRC_GPU_CHECK_CHECK_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/gpu/check/check_plan.h"

namespace tmapgen::gpu {

enum class Outcome : uint8_t { kPass = 0, kFail, kTimeout, kFault, kNotRun, kError };
const char* OutcomeName(Outcome o);  // "PASS", "FAIL", "TIMEOUT", "FAULT", "NOT RUN", "ERROR"

struct CaseResult {
  Outcome outcome = Outcome::kError;
  std::string detail;  // differences, the fault, or why not run
  Mismatch mismatch;   // kFail of a comparison: the first difference
};

struct RunOptions {
  int unit = 1;
  int watchdog_s = 60;
  int64_t timeout_cycles = 400000000;  // about 0.2 s at 1.98 GHz
  double max_seconds = 0;              // > 0: no unit starts after this many seconds (the rest: kNotRun)
};

struct RunSummary {
  bool gpu_available = false;
  std::string why_no_gpu;   // when !gpu_available
  std::string device;       // "NVIDIA H200 (sm_90), driver 13000"
  int cc_major = 0, cc_minor = 0;
  int children = 0;         // child processes started (1 + restarts after faults)
  double seconds = 0;       // wall time of the run
};

// Runs every case; results[i] belongs to cases[i].
void RunChecks(const std::vector<CheckCase>& cases, const RunOptions& opt, std::vector<CaseResult>* results,
               RunSummary* summary);

// Probes for a usable GPU in a child process (the caller stays free of CUDA). Fills device/cc or why_no_gpu.
void ProbeGpu(RunSummary* summary);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_CHECK_RUNNER_H_
