// gemm_plan.h: a GEMM tile plan (D = A x B (+ C)) from the problem in the user's terms: every tensor map, the
// shared-memory plan, what each CTA of the cluster copies per stage and what its barriers expect, the matrix
// descriptors of every K step, the MMA instruction, and what the edge tiles load and store; each checked.
//
// Contract
// - Pure: no I/O, no CUDA, no gRPC. CheckGemmRequest() says whether a request is well formed (INVALID_ARGUMENT,
//   the message starts with the request field: "bm: ..."); RunGemmPlan() is total for a request it accepts and
//   fills a GemmPlan whose `valid` says whether every check passed. A plan that breaks a rule is data (issues),
//   not an error.
// - The model (docs/plan.md says the same, with sources):
//   * Operands. A is M x K, B is N x K (CUTLASS's and DeepGEMM's convention: B is given as N x K). K-major: K is
//     the contiguous dimension of the operand in global memory (A row-major, B column-major); MN-major: M (A)
//     or N (B) is. The map's dimension 0 is the contiguous one; its row pitch is the leading dimension (lda,
//     ldb, in elements; default dense).
//   * The shared-memory tile of an operand is stored as the descriptor library's dense TMA order
//     (src/desc/smem_descriptor.h): slabs one swizzle row wide (16 bytes without swizzle) along the
//     contiguous dimension, each holding every row of the strided dimension. One 2D copy per slab
//     (DeepGEMM deep_gemm/common/tma_copy.cuh: one copy per BLOCK_INNER_ATOM, destination
//     smem + i * BLOCK_OUTER * BLOCK_INNER_ATOM). Every slab buffer starts on the swizzle repeat, so every
//     descriptor's base offset is 0.
//   * Multicast (sm_90a, tcgen05 with cta_group 1): the cluster is cluster_m x cluster_n CTAs, rank =
//     x + y * cluster_m (CUTLASS: Layout<ClusterShape> is column-major, cluster_local_block_id =
//     {rank % cluster_m, rank / cluster_m}); CTA (x, y) computes tile (m0 + x, n0 + y). A is shared by the
//     CTAs of one x (mask bits x + n * cluster_m), B by the CTAs of one y (mask bits m + y * cluster_m)
//     (CUTLASS sm90_mma_tma_gmma_ss_warpspecialized.hpp, load()). Two ways to issue it:
//       slice  (CUTLASS): each CTA of the group issues 1/g of every box, its rows (g = group size; CuTe
//              truncates the box's outermost dimension by the multicast count, make_tma_copy_desc), to the
//              whole group;
//       leader (DeepGEMM sm_90): the group's first CTA issues every whole box to the whole group.
//     Either way every receiving CTA gets the whole tile, and its full barrier expects the whole stage:
//     A + B tile bytes (CUTLASS TmaTransactionBytes = MK + NK bytes; DeepGEMM
//     arrive_and_expect_tx(SMEM_A_SIZE_PER_STAGE + SMEM_B_SIZE_PER_STAGE)). Data and barrier signal land at
//     the same CTA-relative offsets in every destination CTA (PTX ISA 9.2, cp.async.bulk .multicast::cluster).
//     The empty barrier of a stage is released by the consumers of every CTA that writes into it: CUTLASS
//     initialises it with (cluster_m + cluster_n - 1) x consumer warpgroups arrivals (sm90_pipeline.hpp).
//   * 2-CTA MMA (tcgen05 cta_group 2, modelled, not run): CTAs 2i and 2i+1 of a cluster pair along M; each
//     loads its own BM rows of A and BN / 2 rows of B; the copies signal the even (leader) CTA's barrier,
//     which expects both CTAs' bytes (CUTLASS sm100_mma_warpspecialized.hpp TmaTransactionBytes =
//     size(AtomThrShapeMNK) x per-CTA bytes; DeepGEMM sm100_bf16_gemm.cuh arrive_and_expect_tx(bytes x 2)
//     on the leader, a plain arrive on the other).
//   * Edges: a load past M, N or K is filled with zeros (OOB fill NONE; NaN fill would poison the sums) and
//     still counts the whole box toward the barrier (CUTLASS arms every k tile with the same constant); a
//     TMA store writes only the elements inside the tensor.
// - Every map is a TensorMapSpec validated by the tensor-map validator for the target, with its destination
//   offset as smem_address (offsets are from a base aligned to the largest swizzle repeat used, which the
//   kernel must provide). Every K step's descriptor is validated by the descriptor rules against the map that
//   fills its buffer (src/desc/desc_rules.h).
#ifndef TMAPGEN_SRC_PLAN_GEMM_PLAN_H_
#define TMAPGEN_SRC_PLAN_GEMM_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/desc/desc_rules.h"
#include "src/desc/desc_types.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen::plan {

// How a multicast tile is issued (see the header comment).
enum class McastIssue : uint8_t { kSlice = 0, kLeader = 1 };
// Layout of C and D: row-major (N contiguous) or column-major (M contiguous).
enum class CdLayout : uint8_t { kRow = 0, kCol = 1 };

std::string_view Name(McastIssue v);  // "slice", "leader"
std::string_view Name(CdLayout v);    // "row", "col"
bool Parse(std::string_view s, McastIssue* out);
bool Parse(std::string_view s, CdLayout* out);

struct GemmRequest {
  uint64_t m = 4096, n = 4096, k = 4096;
  desc::ElemType a_type = desc::ElemType::kBF16;
  desc::ElemType b_type = desc::ElemType::kBF16;
  desc::Major a_major = desc::Major::kK;
  desc::Major b_major = desc::Major::kK;
  uint64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;  // elements between rows of the strided dimension; 0 = dense
  bool has_c = false;                            // C is read (beta != 0): a C load map and buffer
  DataType c_type = DataType::kBfloat16;
  DataType d_type = DataType::kBfloat16;
  CdLayout cd_layout = CdLayout::kRow;
  desc::DType accumulator = desc::DType::kF32;
  bool has_accumulator = false;                  // else f32 (s32 for s8/u8)
  uint32_t bm = 128, bn = 128, bk = 64;          // per CTA; with cta_group 2 the MMA is (2 x bm) x bn
  uint32_t stages = 0;                           // 0 = as many as fit
  uint32_t cluster_m = 1, cluster_n = 1;
  bool multicast_a = false, multicast_b = false;
  McastIssue mcast_issue = McastIssue::kSlice;
  Target target = Target::kSm90a;
  int cta_group = 1;                             // tcgen05 only
  bool has_swizzle_a = false, has_swizzle_b = false, has_swizzle_cd = false;  // else the widest that fits
  desc::DescSwizzle swizzle_a = desc::DescSwizzle::k128B;
  desc::DescSwizzle swizzle_b = desc::DescSwizzle::k128B;
  desc::DescSwizzle swizzle_cd = desc::DescSwizzle::k128B;
  uint32_t math_warpgroups = 0;                  // wgmma: consumer warpgroups splitting BM; 0 = BM / 64, at most 2
  bool epilogue = true;                          // plan a TMA-store epilogue buffer for D
};

absl::Status CheckGemmRequest(const GemmRequest& r);

// The tensor-map data type an MMA operand type is copied as (CuTe's to_CUtensorMapDataType: 8-bit types as UINT8,
// tf32 as TFLOAT32).
DataType OperandMapType(desc::ElemType t);
// The widest swizzle whose row divides `contiguous_bytes` (none when no swizzle row does).
desc::DescSwizzle WidestSwizzle(uint64_t contiguous_bytes);

// One finding of the plan's own rules (ids in docs/plan.md).
struct PlanIssue {
  std::string id;
  Severity severity = Severity::kError;
  std::string field;
  std::string message;
  std::string source;
};

// One copy a CTA issues per stage (or the epilogue issues per tile).
struct PlannedCopy {
  uint32_t map = 0;          // index into GemmPlan::maps
  uint32_t slab = 0;         // slab of the tile (along the contiguous dimension)
  uint64_t coord0_offset = 0, coord1_offset = 0;  // added to the tile's origin (elements)
  uint64_t smem_offset = 0;  // destination (source for stores) from the buffer of stage s
  uint64_t bytes = 0;        // the box's bytes
  uint16_t mask = 0;         // .multicast::cluster ctaMask; 0 = no multicast
  bool to_leader_barrier = false;  // .cta_group::2: signals the pair's even CTA
};

struct PlannedMap {
  std::string name;          // "A", "B", "A_slice", "C", "D"
  std::string operand;       // "A", "B", "C", "D"
  std::string coords;        // what the copy's coordinates are, in words
  std::string note;          // e.g. the whole tile as it lands, when the copies use the slice map
  TensorMapSpec spec;
  Validation validation;
  std::vector<std::string> messages;  // "error[rule] field: message" of its findings
};

struct SmemBuffer {
  std::string name;          // "A[0]", "B[3]", "D", "full_barrier[0]"
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint32_t alignment = 0;
  std::string cute;          // "Swizzle<3,4,3> o ..." for tiles; "" for barriers
};

struct CtaPlan {
  uint32_t rank = 0, x = 0, y = 0;
  std::vector<PlannedCopy> copies;  // per stage
  uint16_t mask_a = 0, mask_b = 0;  // the groups that receive its A and B copies (0 = no multicast)
  uint64_t issued_bytes = 0;        // bytes its copies move per stage
  uint64_t received_bytes = 0;      // bytes that land in its shared memory per stage
  uint64_t expect_tx = 0;           // what its own full barrier must expect per stage
  uint32_t full_arrivals = 1;       // arrivals its full barrier is initialised with
  uint32_t empty_arrivals = 0;      // arrivals its empty barrier is initialised with
  uint16_t release_mask = 0;        // the CTAs whose empty barrier its consumers arrive on (each writes into it)
};

struct KStepDesc {
  uint32_t k_step = 0;
  uint32_t mn_offset = 0;     // rows from the tile's first (A: the warpgroup's m64 slice)
  desc::SmemDesc desc;        // stage 0
  uint64_t start_offset = 0;  // bytes from the smem base
  uint32_t base_offset = 0;
  desc::DescValidation validation;
  std::vector<std::string> messages;
};

struct OperandPlan {
  std::string name;  // "A", "B"
  desc::ElemType type = desc::ElemType::kBF16;
  desc::Major major = desc::Major::kK;
  desc::DescSwizzle swizzle = desc::DescSwizzle::k128B;
  bool swizzle_chosen = false;      // chosen as the widest that fits
  uint32_t rows = 0;                // tile extent along M (A) or N (B) per CTA
  uint64_t contiguous_bytes = 0;    // tile bytes along the contiguous dimension
  uint32_t strided = 0;             // tile extent along the strided dimension (elements)
  uint32_t slabs = 0;
  uint32_t slab_elems = 0;          // elements of the contiguous dimension per slab
  uint64_t slab_bytes = 0;
  uint64_t stage_bytes = 0;         // the whole tile, one stage
  uint32_t repeat = 0;              // swizzle repeat (alignment)
  uint32_t map = 0;                 // the whole-tile map (GemmPlan::maps)
  int slice_map = -1;               // the multicast slice map, when slices are issued
  uint32_t mcast_group = 1;         // CTAs sharing the tile
  desc::OperandLayout layout;       // stage 0
  desc::LayoutFacts facts;
  std::vector<KStepDesc> steps;     // every K step (A: of every m64 slice of warpgroup 0 and 1)
  std::string cute_swizzle;
};

struct MmaPlan {
  std::string instruction;       // "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"
  uint32_t m = 0, n = 0, k = 0;  // one instruction
  uint32_t per_k_step = 0;       // instructions per K step per warpgroup (wgmma) or per CTA pair/CTA
  uint32_t k_steps = 0;          // per stage
  uint32_t warpgroups = 0;       // wgmma consumers
  uint32_t rows_per_warpgroup = 0;
  uint32_t accum_regs = 0;       // accumulator registers per thread (wgmma)
  bool trans_a = false, trans_b = false;
  uint32_t idesc = 0;            // tcgen05 instruction descriptor
  desc::DescValidation idesc_validation;
  std::vector<std::string> why;  // why the shape is legal, with sources
};

struct EdgePlan {
  uint64_t tiles_m = 0, tiles_n = 0, k_tiles = 0;
  uint32_t last_m = 0, last_n = 0, last_k = 0;  // valid extent of the last tile
  uint64_t grid_m = 0, grid_n = 0;              // CTAs, rounded up to the cluster
  uint64_t idle_ctas = 0;                       // CTAs whose tile lies wholly outside the problem
  std::vector<std::string> notes;
};

struct GemmPlan {
  GemmRequest request;
  desc::DescArch arch = desc::DescArch::kWgmma;
  bool valid = false;
  int errors = 0, warnings = 0;
  std::vector<PlanIssue> issues;
  std::vector<PlannedMap> maps;
  OperandPlan a, b;
  uint32_t stages = 0;
  uint32_t max_stages = 0;            // the largest count that fits
  bool stages_chosen = false;         // "as many as fit"
  uint64_t stage_bytes = 0;           // A + B of one stage
  uint64_t smem_total = 0, smem_limit = 0;
  std::vector<SmemBuffer> smem;
  uint64_t a_stage_stride = 0, b_stage_stride = 0;
  std::vector<CtaPlan> ctas;
  std::vector<PlannedCopy> epilogue_copies;  // D (and C) per tile
  int d_map = -1, c_map = -1;
  MmaPlan mma;
  EdgePlan edges;
};

void RunGemmPlan(const GemmRequest& r, GemmPlan* out);

// The operand maps of a GEMM that is not a plain matrix product (an implicit-GEMM convolution): the planner takes
// them as given (it sets each map's target, direction and shared-memory destination) instead of building 2D maps
// over M x K and N x K. `rows` is the box's extent along the strided dimension (pixels per column for im2col).
struct OperandMapOverride {
  bool given = false;
  TensorMapSpec spec;       // the map of slab 0; later slabs add slab x slab_elems to coordinate 0
  std::string coords;       // the copy's coordinates, in words
  uint32_t strided_dim = 1; // the map dimension the multicast slices split (the last one for a filter map)
};
struct GemmOverrides {
  OperandMapOverride a, b;
};
void RunGemmPlanWith(const GemmRequest& r, const GemmOverrides& o, GemmPlan* out);

// One K step of an operand's shared-memory descriptors, checked by the descriptor rules (src/desc): step 0 of
// the tile's first rows is `base`, every other step advances it by `mn` rows and `k_step` MMA K slices;
// `map` (may be null) adds the map-consistency rules. The step's messages hold its errors, its warnings when
// `with_warnings`, never its notes (they repeat for every step, e.g. "K spans 2 atoms").
KStepDesc PlanKStep(const desc::OperandLayout& l, const desc::LayoutFacts& facts, const desc::SmemDesc& base,
                    Target target, uint32_t mn, uint32_t k_step, const desc::MapDerivation* map, bool with_warnings);

}  // namespace tmapgen::plan

#endif  // TMAPGEN_SRC_PLAN_GEMM_PLAN_H_
