// trace_cmd.h: `tmapgen trace`: run a program and see, validate and explain every tensor map it
// encodes through the CUDA driver (docs/trace.md).
//
//   tmapgen trace [--out FILE] [--report FILE] [--all] [--fail-on error|warning] [--target T]
//                 [--max-configs N] -- PROGRAM ARGS...
//
// The program runs with CUDA_INJECTION64_PATH naming libtmapgen_trace_inject.so (found beside the
// tmapgen binary, or at $TMAPGEN_TRACE_LIB) and TMAPGEN_TRACE_DIR a fresh directory where each process
// leaves its record stream (src/trace/stream.h). Bad encodes are explained on standard error while the
// program runs; when it ends, the streams are merged: --out gets one JSON Lines record per configuration
// (per call with --all) in the spec schema, --report the whole trace as JSON, standard error a summary
// grouped by calling library. Nothing is written to standard output.
//
// Exit status: the program's own when it fails (128 + signal when it was killed); else 1 when --fail-on
// is given and a finding of that severity or worse was seen; else 0. 2: bad usage or the injection
// library missing (the program is then not run); 127: the program could not be started.
#ifndef TMAPGEN_CLI_TRACE_CMD_H_
#define TMAPGEN_CLI_TRACE_CMD_H_

#include <string>
#include <vector>

namespace tmapgen::cli {

// `args` are the arguments after "trace".
int RunTraceCommand(const std::vector<std::string>& args);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_TRACE_CMD_H_
