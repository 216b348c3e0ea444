// random_sweep.h: the validator (target sm_90a) against the real driver's cuTensorMapEncode*, spec by
// spec (docs/hardware.md). Used by `tmapgen sweep --random` and tools/driver_agreement.cc.
//
// Contract
// - RunRandomAgreement: `n` random specs from `seed`, biased to the rules' boundaries, for every mode the
//   encoders serve. Prints the agreement table (both accept, both reject, BAD = valid but rejected by the
//   driver, reject-only groups, masked) to standard output, and to `jw` when given. Returns the number of
//   BAD specs (0 = the validator never calls a driver-rejected spec valid).
// - Needs the driver opened with a current context (CudaDriver::MakeCurrent).
// - The pieces: agreement_eval.h (one spec's verdicts), src/specgen/random_spec.h (the specs), agreement_shrink.h
//   (minimal disagreeing specs). The hand-made boundary probes are tool-only (tools/boundary_probes.h).
#ifndef TMAPGEN_SRC_GPU_AGREEMENT_RANDOM_SWEEP_H_
#define TMAPGEN_SRC_GPU_AGREEMENT_RANDOM_SWEEP_H_

#include <cstdint>

#include "src/driver/cuda_driver.h"
#include "src/json/json_writer.h"

namespace tmapgen::gpu {

int RunRandomAgreement(const driver::CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_AGREEMENT_RANDOM_SWEEP_H_
