// mcast_check.h: `tmapgen check --multicast N SPEC` and `tmapgen check --plan gemm ...`: tiled loads with
// .multicast::cluster over a real cluster of CTAs on the GPU, every receiving CTA's shared memory compared byte for
// byte with the copy model, every CTA's barrier armed with the count it was given (a plan's expect_tx).
//
// Contract
// - A McastJob is one launch of one cluster (kernels/mcast_check.cuh, tmapgen_mcast_check): `cluster` CTAs, a list
//   of rounds, each giving every CTA the loads it issues (map, coordinates, destination offset from a 1024-aligned
//   window base, ctaMask) and the transaction count its round barrier is armed with (0: not armed). Loads with
//   mask 0 land in the issuing CTA only; with a mask, in every CTA of the mask, at the same CTA-relative offset
//   (PTX ISA 9.7.9.25.5.2), and the signal reaches each receiver's barrier at the same offset as the issuer's.
// - ModelWindow() is the CPU reference of one CTA in one round: the window filled with the sentinel, then every
//   load that reaches the CTA laid in by ModelLoad; it counts the transaction bytes the CTA receives and the bytes
//   written by more than one load (a plan whose copies overlap). Pure; the tests use it without a GPU.
// - RunMcastJobs() runs the jobs in a child process (the GPU runtime's worker, src/gpu/runtime/worker.h: the
//   caller must not have opened CUDA, it forks) with tensors of seeded random bytes; a fault or a hang (watchdog)
//   kills only the child: the job is FAULT and a new child runs the rest. Every (round, CTA) gets an outcome: PASS (the window equals the model), FAIL (the first
//   differences are described), TIMEOUT (the barrier did not complete within the clock64 bound: a wrong count),
//   FAULT, ERROR.
// - A job marked `control` is a negative control: one CTA's count is deliberately wrong, and the job passes when
//   exactly that CTA times out (the others still pass).
#ifndef TMAPGEN_SRC_GPU_CHECK_MCAST_CHECK_H_
#define TMAPGEN_SRC_GPU_CHECK_MCAST_CHECK_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/gpu/check/check_runner.h"
#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::gpu {

struct McastLoad {
  uint32_t map = 0;            // McastJob::maps
  model::CopyInstruction in;   // tile mode; coords; smem_address = destination offset from the window base
  uint16_t mask = 0;           // ctaMask; 0: into the issuing CTA only
};

struct McastRound {
  std::string label;                          // "k tile 3 (stage 1)"
  std::vector<std::vector<McastLoad>> loads;  // [rank]: the loads that CTA issues
  std::vector<uint64_t> expect_tx;            // [rank]: its barrier's count (0: not armed)
  // [rank]: the loads that give the CTA its expected window another way (a plan's whole tiles, no multicast);
  // empty when there is none. CheckMcastJob compares the two models.
  std::vector<std::vector<McastLoad>> reference;
};

struct McastJob {
  std::string label;                  // "first cluster (tiles m 0-1, n 0-1)"
  uint32_t cluster = 2;               // CTAs (1..8)
  std::vector<TensorMapSpec> maps;    // validated tiled maps
  std::vector<uint32_t> map_tensor;   // [map]: which tensor it reads
  std::vector<uint64_t> tensor_bytes; // sizes of the global tensors
  uint32_t window = 0;                // bytes compared per CTA
  std::vector<McastRound> rounds;     // at most 16
  bool control = false;               // negative control (see the header comment)
  uint32_t control_rank = 0;          // the CTA whose count is wrong
};

// The CPU reference of CTA `rank` in round `round`. `globals[t]` holds tensor t.
struct McastWindow {
  std::vector<uint8_t> bytes;    // window bytes (sentinel 0xA5 where untouched)
  std::vector<uint8_t> state;    // model::ByteState per byte
  uint64_t received_tx = 0;      // transaction bytes of the loads that reach the CTA
  uint32_t loads_received = 0;
  uint64_t overlap_bytes = 0;    // bytes written by more than one of those loads
};
absl::Status ModelWindow(const McastJob& job, const std::vector<std::vector<uint8_t>>& globals, size_t round,
                         uint32_t rank, McastWindow* out, bool reference = false);

// Model-only consistency of a job (no GPU): for every round and CTA, the count it is armed with equals the
// transaction bytes the model delivers to it, no byte is written twice, and where the round has reference loads,
// the window equals the reference's. One line per finding; empty when consistent. Tensors are filled from `seed`.
std::vector<std::string> CheckMcastJob(const McastJob& job, uint64_t seed);

// Window bytes of a job: the end of the farthest load's footprint, rounded up to 16. Error when a load does not fit
// the model or the window exceeds what one block may have (227 KiB less the 1024-byte alignment slack).
absl::StatusOr<uint32_t> McastWindowBytes(const McastJob& job);

// The single-map form: the spec's tiled load at each coordinate of CoordinateSet (one round each, swizzle phases
// rotating), issued by CTA (round mod cluster) with `mask` (0: every CTA of the cluster), each CTA in the mask
// armed with the model's count; then one negative control round. Error for a spec that is not a tiled map, a
// cluster outside 2..8 or a mask with bits beyond it.
absl::StatusOr<std::vector<McastJob>> SingleMapJobs(const TensorMapSpec& spec, uint32_t cluster, uint16_t mask);

// Sets tensor_bytes (the largest global extent any load of a tensor needs) and window (McastWindowBytes) of a job
// whose maps, map_tensor (with tensor_bytes sized to the tensor count) and rounds are set.
absl::Status FinishMcastJob(McastJob* job);

// A negative control from a job's first round: CTA `rank`'s count plus 16 bytes (every load still issued).
McastJob NegativeControl(const McastJob& job, uint32_t rank);

struct McastCell {
  Outcome outcome = Outcome::kError;
  std::string detail;
};
struct McastJobResult {
  std::vector<std::vector<McastCell>> cells;  // [round][rank]
  bool passed = false;                        // every cell PASS (control: exactly the control CTA TIMEOUT)
};
struct McastReport {
  bool ran = false;
  std::string why_not;
  std::string device;
  int children = 0;
  std::vector<McastJobResult> jobs;
};

// Runs every job (in child processes); `seed` fills the tensors.
void RunMcastJobs(const std::vector<McastJob>& jobs, uint64_t seed, int watchdog_s, McastReport* report);

// Prints the report; returns 0 when every job passed, 1 otherwise, 2 when not run on hardware.
int PrintMcastReport(const std::string& title, const std::vector<McastJob>& jobs, const McastReport& report, FILE* out);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_CHECK_MCAST_CHECK_H_
