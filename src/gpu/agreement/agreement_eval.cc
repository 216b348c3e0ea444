// agreement_eval.cc: see agreement_eval.h.
#include "src/gpu/agreement/agreement_eval.h"

#include <algorithm>

#include "src/driver/encode_spec.h"
#include "src/gpu/agreement/agreement_util.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {

using driver::CudaDriver;

// ============================== rule categories ==============================
// Rules about what the driver never sees (target, mode of use, direction, shared memory, driver version).
bool IsUseFinding(const Rule& r, const TensorMapSpec& s) {
  if (r.per_target) return true;
  static const char* const kUse[] = {"mode-direction", "im2col-store-corners", "packed-direction",
                                     "swizzle-flip8b-load-only", "reduce-op-type", "gather4-rank",
                                     "gather4-box-rows", "smem-align-128", "smem-swizzle-phase",
                                     "driver-version", "wide-mode-mismatch"};
  for (const char* u : kUse)
    if (r.id == u) return true;
  if (r.id == "interleave-mode" && IsGatherScatter(s.mode)) return true;  // the driver sees a tiled map
  return false;
}
// The message says that the tested driver does not enforce the rule.
bool SaysNotEnforced(const std::string& msg) {
  return msg.find("accepts") != std::string::npos || msg.find("encodes") != std::string::npos ||
         msg.find("does not enforce") != std::string::npos || msg.find("anyway") != std::string::npos;
}
// Rules ignored in the driver view (target-mode and shared-memory capacity: the driver never sees them).
bool IgnoredInDriverView(const Rule& r) {
  static const char* const kIgnored[] = {"target-mode", "target-smem-capacity", "mode-direction",
                                         "im2col-store-corners", "packed-direction", "swizzle-flip8b-load-only",
                                         "reduce-op-type", "smem-align-128", "smem-swizzle-phase",
                                         "driver-version", "wide-mode-mismatch"};
  for (const char* u : kIgnored)
    if (r.id == u) return true;
  return false;
}


// ============================== evaluation ==============================

std::vector<uint16_t> ErrorRules(const Validation& v, bool driver_view) {
  const Rule* rules = Rules();
  std::vector<uint16_t> out;
  for (const Finding& f : v.findings) {
    const Rule& r = rules[f.rule];
    if (r.severity != Severity::kError) continue;
    if (driver_view && IgnoredInDriverView(r)) continue;
    out.push_back(f.rule);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TensorMapSpec DriverView(const TensorMapSpec& s) {
  TensorMapSpec t = s;
  if (IsGatherScatter(t.mode)) t.mode = Mode::kTiled;
  t.direction = Direction::kLoadCta;
  t.set_fields &= ~(kFieldSmemAddress | kFieldSmemAlignment | kFieldWideMode | kFieldDriverVersion);
  t.target = kAgreementTarget;
  t.set_fields |= kFieldTarget;
  return t;
}

uint64_t AddressFor(const TensorMapSpec& s) {
  return s.Has(kFieldGlobalAddress) ? s.global_address : kPlaceholderAddress;
}

int EncodeResult(const CudaDriver& drv, const TensorMapSpec& s, std::string* name) {
  const CudaDriver::EncodeResult r = EncodeSpec(drv, s, AddressFor(s));
  if (name != nullptr) *name = r.error_name;
  return r.cu_result;
}

Eval Evaluate(const CudaDriver& drv, const TensorMapSpec& s, bool driver_view) {
  Eval e;
  Validation v;
  Validate(s, &v);
  e.valid = v.valid;
  e.errors = ErrorRules(v, false);
  if (driver_view) {
    Validation dv;
    Validate(DriverView(s), &dv);
    e.dv_errors = ErrorRules(dv, true);
    e.dv_valid = e.dv_errors.empty();
  }
  e.cu = EncodeResult(drv, s, &e.cu_name);
  return e;
}

bool DriverViewValid(const TensorMapSpec& s) {
  Validation dv;
  Validate(DriverView(s), &dv);
  return ErrorRules(dv, true).empty();
}

std::string RuleList(const std::vector<uint16_t>& ids) {
  std::string out;
  for (uint16_t i : ids) {
    if (!out.empty()) out += ",";
    out += Rules()[i].id;
  }
  return out;
}

std::string SpecText(const TensorMapSpec& s) {
  json::Writer w;
  WriteSpecJson(s, &w);
  return w.str();
}

// Messages of the error findings of a spec.
std::vector<std::pair<std::string, std::string>> ErrorMessages(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  std::vector<std::pair<std::string, std::string>> out;
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError) continue;
    out.emplace_back(std::string(r.id), MessageText(r, s, f).str());
  }
  return out;
}

// Whether a reject-only spec is explained: one of its errors is a use/target rule or says "not enforced".
bool Explained(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError) continue;
    if (IsUseFinding(r, s) || SaysNotEnforced(MessageText(r, s, f).str())) return true;
  }
  return false;
}

// For a spec the driver accepted: the driver-level error rules that fired and whose message does not say the
// driver lets it through (a message that says "rejects" is contradicted even for a target rule).
std::vector<std::string> Contradicted(const TensorMapSpec& s) {
  const TensorMapSpec d = DriverView(s);
  Validation v;
  Validate(d, &v);
  std::vector<std::string> out;
  for (const Finding& f : v.findings) {
    const Rule& r = Rules()[f.rule];
    if (r.severity != Severity::kError || IgnoredInDriverView(r)) continue;
    const std::string msg = MessageText(r, d, f).str();
    const bool claims_reject = msg.find("rejects") != std::string::npos;
    if (claims_reject || (!IsUseFinding(r, d) && !SaysNotEnforced(msg))) out.emplace_back(r.id);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void WriteRuleArray(json::Writer* w, const std::vector<uint16_t>& ids) {
  w->BeginArray();
  for (uint16_t i : ids) w->String(Rules()[i].id);
  w->EndArray();
}


}  // namespace tmapgen::gpu
