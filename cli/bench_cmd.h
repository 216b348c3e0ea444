// bench_cmd.h: `tmapgen bench SPEC [--gib G] [--iters N] [--stages S] [--blocks-per-sm B]`: the bandwidth of a
// TMA load-then-store copy of a large tensor with SPEC's data type, box and swizzle, next to the device's
// plain device-to-device copy measured in the same run (src/gpu/bandwidth/copy_bandwidth.h). Exit 0 done,
// 1 the copy is wrong, 2 bad usage, no GPU, or a spec this GPU cannot run.
#ifndef TMAPGEN_CLI_BENCH_CMD_H_
#define TMAPGEN_CLI_BENCH_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

int RunBenchCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_BENCH_CMD_H_
