// boundary_probes.h: the hand-made probes and bisection searches of tools/driver_agreement.cc
// (--boundaries) that settle open questions about the driver's limits (im2col::w corner and extent limits,
// im2col channel bytes, interleave box bytes, ...). Tool-only: it lives next to its tool.
//
// Contract
// - RunBoundaryProbes: every probe through the validator (target sm_90a) and the real driver; prints the
//   findings, writes them to `jw` when given, and adds its BAD count (valid but driver-rejected) to
//   *bad_out. Needs the driver opened with a current context (CudaDriver::MakeCurrent).
#ifndef TMAPGEN_TOOLS_BOUNDARY_PROBES_H_
#define TMAPGEN_TOOLS_BOUNDARY_PROBES_H_

#include "src/driver/cuda_driver.h"
#include "src/json/json_writer.h"

namespace tmapgen::tools {

void RunBoundaryProbes(const driver::CudaDriver& drv, json::Writer* jw, int* bad_out);

}  // namespace tmapgen::tools

#endif  // TMAPGEN_TOOLS_BOUNDARY_PROBES_H_
