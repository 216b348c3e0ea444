// sweep_cmd.h: `tmapgen sweep`: large sweeps on a GPU host (docs/gpu-checks.md).
//
//   tmapgen sweep --random N [--seed S] [--json FILE] [--max-print K]
//       N random specs (biased to the rules' boundaries, every mode) through the validator (sm_90a) and the
//       real driver's encoders; prints the agreement table. Exit 0 when no spec is valid-but-rejected.
//   tmapgen sweep --matrix [--count N] [--seed S] [--unit U] [--max-seconds T]
//       the coverage matrix of the copies this GPU executes, each configuration checked byte for byte on
//       the hardware; prints the matrix, the totals and configurations per second. Exit 0 when all pass.
// Exit status 2: bad usage or no GPU / driver.
#ifndef TMAPGEN_CLI_SWEEP_CMD_H_
#define TMAPGEN_CLI_SWEEP_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

int RunSweepCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_SWEEP_CMD_H_
