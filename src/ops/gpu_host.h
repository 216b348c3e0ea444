// gpu_host.h: this machine as an operation's Host (src/ops/host.h), found through the CUDA driver
// (opened at run time; never linked).
//
// Contract
// - DetectHost(false), and a host without a driver or device, is NoGpu(). Otherwise device 0: its name,
//   target and driver version, and the driver encoder (EncodeWithDriver).
// - EncodeWithDriver makes device 0 current on the calling thread, encodes, and says in the Encoding's
//   note what a user must know: the placeholder address, or that the driver refused a spec the validator
//   accepted (a missing rule). Calls are serialized by a process-wide mutex.
#ifndef TMAPGEN_SRC_OPS_GPU_HOST_H_
#define TMAPGEN_SRC_OPS_GPU_HOST_H_

#include "src/ops/host.h"

namespace tmapgen::ops {

Host DetectHost(bool use_gpu);
void EncodeWithDriver(const Host& host, const TensorMapSpec& spec, Encoding* out);

}  // namespace tmapgen::ops

#endif  // TMAPGEN_SRC_OPS_GPU_HOST_H_
