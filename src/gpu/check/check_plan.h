// check_plan.h: what `tmapgen check` runs for a spec, and how a result is compared and reported. CPU only
// (no CUDA): the runner (check_runner.h) executes the plan on a GPU; the tests exercise this part anywhere.
//
// Contract
// - PlanChecks(spec) lists the copies to run for one spec: every direction the spec's mode supports
//   (tiled: load to .shared::cta, load to .shared::cluster, prefetch + load, store, reduce-add where the type
//   supports add; im2col: load (cta and cluster) and im2col_no_offs store; im2col::w / ::w::128: their load
//   and im2col_no_offs store; gather4: load; scatter4: store), each at every coordinate of CoordinateSet().
//   Cases the model refuses are dropped (and counted in `skipped`, with the first reason).
// - CoordinateSet() covers, per dimension, the start, the interior, the last full box, a box hanging past
//   the end, the last element and (loads only; stores need non-negative coordinates) a box hanging before
//   0; plus all-interior, all-hanging-past-the-end and all-negative corners. It avoids the documented traps
//   (docs/model.md M2: dimension-0 starts are 16-byte aligned; M4: im2col base points inside the bounding
//   box). The shared-memory destination rotates through the eight 128-byte phases (1024 + 128 k).
// - HardwareRequirement() is "" when a GPU of compute capability major.minor executes the copy, else
//   "needs sm_100a; this GPU is sm_90" (gather4, scatter4, im2col::w, im2col::w::128, the 128B atomicity
//   swizzles and the sub-byte types need sm_100a).
// - CompareLoad / CompareStore compare every byte with the model and describe the first differences with the
//   element coordinates, expected and actual values.
#ifndef TMAPGEN_SRC_GPU_CHECK_CHECK_PLAN_H_
#define TMAPGEN_SRC_GPU_CHECK_CHECK_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct CheckCase {
  std::string label;         // "load cta at (0, 64)"
  TensorMapSpec spec;        // with direction and mode set for this copy
  model::CopyInstruction in;
  bool prefetch = false;     // issue cp.async.bulk.prefetch.tensor before the load
  int spec_index = 0;        // which input spec (reports group by it)
  uint64_t seed = 0;         // global data and shared-memory input bytes derive from it
  int tx_delta = 0;          // self-test only: added to the model's transaction bytes (must give a TIMEOUT)
  bool force_run = false;    // self-test only: run even where the model refuses (a copy expected to trap)
};

struct Plan {
  std::vector<CheckCase> cases;
  int skipped = 0;
  std::string first_skip_reason;
};

// Coordinates (and offsets, halo, rows) for one instruction template; in.mode and in.direction are kept.
std::vector<model::CopyInstruction> CoordinateSet(const TensorMapSpec& spec, const model::CopyInstruction& base);

void PlanChecks(const TensorMapSpec& spec, int spec_index, uint64_t seed, Plan* plan);

std::string HardwareRequirement(const TensorMapSpec& spec, const model::CopyInstruction& in, int cc_major,
                                int cc_minor);

// "load cta", "load cluster", "prefetch+load", "store", "reduce add", with the mode when not tile.
std::string CopyKindName(const CheckCase& c);
std::string CoordText(const TensorMapSpec& spec, const model::CopyInstruction& in);

// The first difference of a comparison, for programs (the report says the same for people).
struct Mismatch {
  bool present = false;
  bool global = false;        // false: shared-memory byte offset (loads); true: global byte offset
  uint64_t offset = 0;        // the first differing byte
  uint64_t differing = 0;     // bytes that differ
  uint64_t compared = 0;      // bytes compared
  std::string expected;       // up to kMismatchWindow bytes from `offset`: the model's
  std::string actual;         // ... and the GPU's
};
inline constexpr size_t kMismatchWindow = 16;

struct Comparison {
  bool equal = true;
  uint64_t differing = 0;
  std::string report;  // the first differences, one per line (empty when equal)
  Mismatch first;      // when !equal
};

inline constexpr uint8_t kSentinelByte = 0xA5;  // kernels/tma_check.cu fills shared memory with it before loads

// A load: `gpu` holds footprint bytes copied out of shared memory (untouched bytes keep kSentinelByte).
Comparison CompareLoad(const TensorMapSpec& spec, const model::CopyInstruction& in, const model::SmemImage& expected,
                       const uint8_t* gpu, size_t n, int max_shown = 6);
// A store or reduction: the whole global tensor after the copy, against the model's.
Comparison CompareStore(const TensorMapSpec& spec, const uint8_t* before, const uint8_t* expected, const uint8_t* gpu,
                        size_t n, int max_shown = 6);

// The global element coordinates of byte `offset` of a tensor (dims, strides of the spec): "(x0, x1, ..)".
std::string GlobalCoordOf(const TensorMapSpec& spec, uint64_t offset);

// Fills `n` bytes with the seeded generator (splitmix64); the same seed gives the same bytes.
void FillRandom(uint64_t seed, uint8_t* p, size_t n);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_CHECK_PLAN_H_
