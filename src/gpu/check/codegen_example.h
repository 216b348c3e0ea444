// codegen_example.h: `tmapgen check --codegen-example`: the example kernel that uses a generated
// header runs on the GPU through the GPU-check machinery.
//
// What runs
// - The kernel tmapgen_codegen_example (kernels/codegen_example.cuh, in the embedded fatbin) includes
//   examples/codegen/tile_a.gen.h (device part only) and does ONE tiled TMA load into a shared buffer of the
//   header's kSmemFootprintBytes at kSmemAlignmentRecommended, armed with its kTransactionBytes, with a bounded wait.
// - The host side encodes the map from the same spec the header was generated from: the text of
//   examples/codegen/tile.json is embedded at build time (tests/codegen checks that regenerating the header
//   from that file gives the checked-in bytes). The parsed spec is checked against the header's constants
//   (compiled in here with TMAPGEN_GEN_NO_HOST) before anything runs.
// - For each coordinate of CodegenExampleCoords() (interior, origin, the last full box, a box hanging past
//   the end, a box hanging before 0) the global tensor is filled with seeded random bytes, the kernel loads,
//   and the shared-memory window (swizzled as it landed) is compared byte for byte with ModelLoad's image;
//   the model's transaction count must equal kTransactionBytes.
// - Everything with CUDA happens in a child process (the caller must not have opened CUDA: it forks); a
//   fault or a hang (watchdog) kills only the child, the coordinate is reported FAULT and a new child runs
//   the rest (the GPU runtime's worker, src/gpu/runtime/worker.h).
#ifndef TMAPGEN_SRC_GPU_CHECK_CODEGEN_EXAMPLE_H_
#define TMAPGEN_SRC_GPU_CHECK_CODEGEN_EXAMPLE_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/gpu/check/check_runner.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

// The embedded text of examples/codegen/tile.json.
std::string CodegenExampleSpecText();

// Parses the embedded spec and checks it against the generated header's constants (rank, type, dims,
// strides, box, swizzle, transaction bytes, footprint). kFailedPrecondition with the first disagreement
// (the header must be generated again).
absl::StatusOr<TensorMapSpec> CodegenExampleSpec();

struct CodegenExampleCoord {
  int32_t x0 = 0, x1 = 0;
  std::string label;  // "interior", "edge (last full box)", ...
};
std::vector<CodegenExampleCoord> CodegenExampleCoords();

struct CodegenExampleRow {
  CodegenExampleCoord coord;
  Outcome outcome = Outcome::kError;
  std::string detail;
};

struct CodegenExampleReport {
  bool ran = false;        // a GPU was opened and the kernel found
  std::string why_not;     // when !ran
  std::string device;
  int children = 0;
  std::vector<CodegenExampleRow> rows;
};

// Runs every coordinate (in child processes). `watchdog_s`: per child.
void RunCodegenExample(int watchdog_s, CodegenExampleReport* report);

// Prints the report; returns 0 when every coordinate passed, 1 on any FAIL / TIMEOUT / FAULT / ERROR, 2 when
// not run on hardware.
int PrintCodegenExample(const CodegenExampleReport& report, FILE* out);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_CODEGEN_EXAMPLE_H_
