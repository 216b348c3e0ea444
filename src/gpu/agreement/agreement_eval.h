// agreement_eval.h: one spec, the validator's verdict against the driver's (the core of `tmapgen sweep
// --random` and tools/driver_agreement.cc; docs/lab/hardware-history.md, "Method", describes the classes).
//
// Contract
// - Evaluate validates `s` for kAgreementTarget, and (driver_view) its driver view: what the driver sees
//   (gather4/scatter4 as a tiled map, direction load, no shared-memory or driver-version fields), with the
//   rules the driver never checks left out (IgnoredInDriverView); then encodes it with the real driver
//   (EncodeSpec, at its global_address or kPlaceholderAddress) and keeps the CUresult.
// - IsUseFinding: a rule about what the driver never sees (target, mode of use, direction, shared memory,
//   driver version); SaysNotEnforced: the message says the tested driver does not enforce the rule.
//   Explained / Contradicted classify reject-only and accepted specs with them.
// - Needs the driver opened with a current context (CudaDriver::MakeCurrent). Not thread-safe beyond what
//   the driver is.
#ifndef TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_EVAL_H_
#define TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_EVAL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/json/json_writer.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen::gpu {

bool IsUseFinding(const Rule& r, const TensorMapSpec& s);
bool SaysNotEnforced(const std::string& msg);
bool IgnoredInDriverView(const Rule& r);

struct Eval {
  bool valid = false;
  std::vector<uint16_t> errors;     // distinct error rule indices, sorted
  bool dv_valid = false;            // driver view
  std::vector<uint16_t> dv_errors;
  int cu = driver::kNotSubmitted;
  std::string cu_name;
  bool driver_ok() const { return cu == driver::kCudaSuccess; }
};

// Distinct error rule indices of a validation, sorted (without the driver-view-ignored ones when asked).
std::vector<uint16_t> ErrorRules(const Validation& v, bool driver_view);
TensorMapSpec DriverView(const TensorMapSpec& s);
uint64_t AddressFor(const TensorMapSpec& s);
// The driver's CUresult for `s` (*name: its name).
int EncodeResult(const driver::CudaDriver& drv, const TensorMapSpec& s, std::string* name);
Eval Evaluate(const driver::CudaDriver& drv, const TensorMapSpec& s, bool driver_view = true);
bool DriverViewValid(const TensorMapSpec& s);
// "rule-a,rule-b".
std::string RuleList(const std::vector<uint16_t>& ids);
// The spec's canonical JSON.
std::string SpecText(const TensorMapSpec& s);
// (rule id, message) of each error finding.
std::vector<std::pair<std::string, std::string>> ErrorMessages(const TensorMapSpec& s);
// A reject-only spec is explained when one of its errors is a use/target rule or says "not enforced".
bool Explained(const TensorMapSpec& s);
// For a spec the driver accepted: the driver-level error rules that fired and whose message does not say
// the driver lets it through.
std::vector<std::string> Contradicted(const TensorMapSpec& s);
// The rule ids as a JSON array.
void WriteRuleArray(json::Writer* w, const std::vector<uint16_t>& ids);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_AGREEMENT_AGREEMENT_EVAL_H_
