// gpu_host.cc: see gpu_host.h.
#include "src/ops/gpu_host.h"

#include <mutex>
#include <string>

#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::ops {

Host DetectHost(bool use_gpu) {
  Host h;
  if (!use_gpu) return h;
  driver::CudaDriver& drv = driver::CudaDriver::Get();
  if (!drv.info().available) return h;
  const absl::StatusOr<driver::DeviceInfo> got = drv.GetDevice(0);
  if (!got.ok()) return h;
  const driver::DeviceInfo& dev = *got;
  h.gpu = true;
  h.driver_version = drv.info().driver_version;
  const std::string t = driver::TargetForComputeCapability(dev.cc_major, dev.cc_minor);
  h.has_target = Parse(t, &h.target);
  h.description = StrCat(dev.name, " (", t, "), driver ", drv.info().driver_version);
  h.encode = &EncodeWithDriver;
  return h;
}

void EncodeWithDriver(const Host& host, const TensorMapSpec& spec, Encoding* enc) {
  static std::mutex mu;  // the driver's current context is per thread: one encode at a time
  std::lock_guard<std::mutex> lock(mu);
  driver::CudaDriver& drv = driver::CudaDriver::Get();
  enc->attempted = true;
  enc->device = host.description;
  if (const absl::Status st = drv.MakeCurrent(0); !st.ok()) {
    enc->cu_result = -1;
    enc->error_name = "no context";
    enc->note = std::string(StatusMessage(st));
    return;
  }
  const uint64_t addr = spec.Has(kFieldGlobalAddress) ? spec.global_address : kPlaceholderAddress;
  const driver::CudaDriver::EncodeResult r = EncodeSpec(drv, spec, addr);
  enc->cu_result = r.cu_result;
  enc->error_name = r.error_name;
  for (int i = 0; i < 16; ++i) enc->map[i] = r.map[i];
  if (!spec.Has(kFieldGlobalAddress))
    enc->note = StrCat("global_address not given: encoded at placeholder ", Hex(addr),
                       " (word 0); point it at your tensor with cuTensorMapReplaceAddress");
  if (r.cu_result != 0)
    enc->note += StrCat(enc->note.empty() ? "" : "; ", "the validator accepted this spec but the driver did not: please "
                        "report it (a rule is missing)");
}

}  // namespace tmapgen::ops
