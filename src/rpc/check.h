// check.h: tmapd's Check messages <-> check's request and report (src/ops/check.h,
// src/gpu/check/check_report.h). The --remote client sends ToProto(specs); tmapd's check worker runs
// FromProto(message) on the GPU and answers ToProto(report). No gRPC, no I/O.
//
// Contract
// - FromProto: at least one spec and at most limits.max_check_specs; TEXT rendering only; a spec
//   without a name is "spec I"; the seed defaults to 1. Errors name the field (common.h).
#ifndef TMAPGEN_SRC_RPC_CHECK_H_
#define TMAPGEN_SRC_RPC_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/tmapd_v2.pb.h"
#include "src/gpu/check/check_report.h"
#include "src/ops/check.h"
#include "src/rpc/common.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::rpc {

// `verbose` is how the answer is rendered (the worker renders it).
void ToProto(const ops::CheckRequest& r, bool verbose, v2::CheckRequest* m);
absl::Status FromProto(const v2::CheckRequest& m, const RequestLimits& limits, ops::CheckRequest* r);
void ToProto(const gpu::CheckReport& r, v2::CheckResponse* m);

}  // namespace tmapgen::rpc

#endif  // TMAPGEN_SRC_RPC_CHECK_H_
