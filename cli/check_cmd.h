// check_cmd.h: `tmapgen check SPEC...`: proves on this machine's GPU that each spec's copies move exactly the
// bytes the reference model predicts (docs/gpu-checks.md).
//
//   tmapgen check SPEC... [--seed S] [--verbose] [--max-coords N]
//   tmapgen check --multicast N [--mask M] SPEC...   tiled loads with .multicast::cluster over N CTAs
//   tmapgen check --plan gemm PLAN-FLAGS... [--k-tiles N]   a GEMM plan's copies over its cluster
//
// SPEC is a JSON spec file (docs/schema.md) or a JSON-lines file of specs (examples/specs.jsonl). For each
// valid spec: the real driver encodes the map, the global tensor is filled with seeded random data, and
// every copy kind of the spec's mode runs at a coordinate set covering the interior, every edge, negative
// coordinates and boxes hanging past the end; every byte is compared with the model. One line per spec and
// copy kind (PASS / FAIL / NOT RUN), every failing copy with its first differing bytes (coordinates, expected
// and actual), and a summary of what was and was not proven on hardware.
//
// Exit status: 0 every copy run passed (copies this GPU cannot execute are reported, not failed), 1 a
// mismatch, timeout, fault or invalid spec, 2 bad usage, unreadable input or no usable GPU.
#ifndef TMAPGEN_CLI_CHECK_CMD_H_
#define TMAPGEN_CLI_CHECK_CMD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::cli {

// `args` are the arguments after "check".
int RunCheckCommand(const std::vector<std::string>& args);

// The command in steps (tmapgen --remote runs the same ones and sends only the specs): parse the
// flags, read the spec files (ReadSpecsFile), then gpu::RunSpecChecks and gpu::RenderCheckText.
struct CheckArgs {
  enum class Mode { kRun, kHelp, kSelfTest, kWgmma, kCodegenExample, kMulticast, kPlan } mode = Mode::kRun;
  std::vector<std::string> files;
  uint64_t seed = 1;
  bool verbose = false;
  uint32_t multicast = 0;               // --multicast N: CTAs of the cluster
  uint16_t mask = 0;                    // --mask M: the ctaMask (0: every CTA)
  std::vector<std::string> plan_args;   // --plan gemm ...: the flags of `tmapgen plan gemm`
  uint32_t k_tiles = 4;                 // --k-tiles N: K tiles per cluster run
};
// Bad usage is kInvalidArgument; the message is what the command prints after "tmapgen check: ".
absl::Status ParseCheckArgs(const std::vector<std::string>& args, CheckArgs* out);
// What the command prints on standard error for a usage error, and without a usable GPU.
std::string CheckUsageText(const std::string& msg);
std::string NoGpuText(const std::string& why);

// Reads specs from a JSON file or a JSON-lines file; names unnamed specs "FILE:LINE". An unreadable file
// is "cannot open FILE" with the code of its errno (status.h); a malformed spec is the reader's status
// with "FILE: " in front.
absl::Status ReadSpecsFile(const std::string& path, std::vector<TensorMapSpec>* specs,
                           std::vector<std::string>* names);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_CHECK_CMD_H_
