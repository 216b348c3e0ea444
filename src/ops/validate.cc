// validate.cc: see validate.h.
#include "src/ops/validate.h"

namespace tmapgen::ops {

absl::Status RunValidate(const ValidateRequest& req, const Host& host, const TensorMapSpec& spec, ValidateResult* out) {
  // A copy only when the target changes.
  out->spec_ = &spec;
  const bool gpu_target = req.use_gpu && host.has_target;
  if (req.replace_target && req.has_target) {
    if (!spec.has_target() || spec.target != req.target) {
      out->with_target_ = spec;
      out->with_target_.target = req.target;
      out->with_target_.set_fields |= kFieldTarget;
      out->spec_ = &out->with_target_;
    }
  } else if (!spec.has_target() && (req.has_target || gpu_target)) {
    out->with_target_ = spec;
    out->with_target_.target = req.has_target ? req.target : host.target;
    out->with_target_.set_fields |= kFieldTarget;
    out->spec_ = &out->with_target_;
  }
  Validate(*out->spec_, &out->validation);
  if (out->encoding.attempted) out->encoding = Encoding();
  if (req.encode && req.use_gpu && host.gpu && host.encode != nullptr && out->validation.valid)
    host.encode(host, *out->spec_, &out->encoding);
  return absl::OkStatus();
}

}  // namespace tmapgen::ops
