// validate.h: validate and build, the one pipeline behind `tmapgen validate`, `tmapgen [build]`, tmapd's
// Validate, Build and ValidateBatch, and Python's validate() and validate_many(): a spec gets its
// target, is validated, and (build on a GPU host) encoded by the driver. Rendering the result is the
// front end's (src/report: text, JSON, short, the text-format report).
//
// Contract
// - A ValidateRequest is what every spec of one run shares; RunValidate judges one spec under it, so a
//   stream of millions of specs reuses one ValidateResult (nothing is allocated per spec in a steady
//   stream, as the validator itself allocates nothing).
// - The target: a spec without one gets the request's (`has_target`: --target, options.default_target),
//   else the host's GPU's when `use_gpu`; `replace_target` (Python's target=) replaces every spec's own
//   with the request's instead.
// - `encode` (build): a spec the validator accepts is also encoded by the host's driver when `use_gpu`
//   and the host has one (host.h); the Encoding says what the driver did. Otherwise the Encoding is empty.
// - An invalid spec is an OK answer (validation.valid is false); RunValidate fails only for a request it
//   cannot run, and today it has none: it returns OK.
// - result.spec() is the spec as validated: the caller's spec itself when no target was filled in (it
//   must outlive the result's use), else the result's own copy.
#ifndef TMAPGEN_SRC_OPS_VALIDATE_H_
#define TMAPGEN_SRC_OPS_VALIDATE_H_

#include "absl/status/status.h"
#include "src/ops/host.h"
#include "src/report/report.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen::ops {

struct ValidateRequest {
  bool has_target = false;
  Target target = Target::kSm90a;
  bool replace_target = false;
  bool use_gpu = true;
  bool encode = false;
};

class ValidateResult {
 public:
  ValidateResult() = default;
  ValidateResult(const ValidateResult&) = delete;
  ValidateResult& operator=(const ValidateResult&) = delete;

  const TensorMapSpec& spec() const { return *spec_; }
  Validation validation;
  Encoding encoding;

 private:
  friend absl::Status RunValidate(const ValidateRequest& req, const Host& host, const TensorMapSpec& spec,
                                  ValidateResult* out);
  const TensorMapSpec* spec_ = &with_target_;
  TensorMapSpec with_target_;  // reused: a spec given a target
};

absl::Status RunValidate(const ValidateRequest& req, const Host& host, const TensorMapSpec& spec, ValidateResult* out);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_VALIDATE_H_
