// copy_model.h: a CPU reference model of cp.async.bulk.tensor and cp.reduce.async.bulk.tensor, exact to
// the byte: what a copy with a validated tensor map writes to shared memory (loads) or to global memory
// (stores and reductions).
//
// Contract
// - Input: a TensorMapSpec that validates (Validate() from src/tmap/validator.h; the model refuses a spec that
//   does not, naming the first error), the bytes of the global tensor (byte 0 = the element at
//   coordinate 0 of every dimension; the map's global_address is not used), and one CopyInstruction.
// - Output of a load (ModelLoad): the shared-memory image starting at the destination address, with a
//   state for every byte (data, out-of-bounds fill, undefined padding of the packed sub-byte types, or
//   untouched), and the transaction byte count (the mbarrier complete_tx count), which equals
//   ComputeDerivedFacts().transaction_bytes plus the halo pixels of im2col::w / im2col::w::128.
// - Output of a store or reduction (ModelStore): the global tensor updated in place, a mask of the
//   global bytes written, and the number of shared-memory bytes read.
// - No I/O, no CUDA, no global state; thread-safe. A 64x128 bf16 box with SWIZZLE_128B is modelled in a
//   few microseconds (docs/model.md records the timings).
// - Every place where the documentation leaves a choice is one "reading", listed in docs/model.md; what an
//   H200 showed (tests/model/gpu/tma_probe.cu, 1104 cases bit-exact) is listed there as measurements M1-M7:
//   the swizzle is an XOR of absolute shared-memory address bits (swizzle.h); with a swizzle each row starts
//   on a swizzle-span boundary; OOB-NaN is 0x7ff7 repeated; tf32 loads round; a box start that is not
//   16-byte aligned along dimension 0, or an im2col base point outside the bounding box, traps (refused);
//   stores write whole 16-byte chunks at the end of dimension 0; interleaved maps count dimension 0 in
//   16/32-byte slices and move one position along dimension rank-2 (M6: .tile loads and stores with zero fill;
//   interleaved im2col, reductions, OOB-NaN fill, tf32 and sub-byte types are refused).
#ifndef TMAPGEN_SRC_MODEL_COPY_MODEL_H_
#define TMAPGEN_SRC_MODEL_COPY_MODEL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/model/copy_instruction.h"
#include "src/model/element_ops.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen::model {

// State of one shared-memory byte after a load.
enum ByteState : uint8_t {
  kUntouched = 0,  // not written by the copy (padding of an inner box narrower than the swizzle span)
  kData = 1,       // copied from the tensor
  kFill = 2,       // out of bounds: zero or the OOB-NaN pattern
  kPadding = 3,    // written with undefined contents (the gaps of 16U4_ALIGN16B and 16U6_ALIGN16B)
};

struct SmemImage {
  uint64_t address = 0;        // shared-memory address of bytes[0] (the destination)
  std::vector<uint8_t> bytes;  // untouched and padding bytes are 0 here
  std::vector<uint8_t> state;  // ByteState per byte
  uint64_t transaction_bytes = 0;
};

// Geometry of one copy in shared memory. A "row" is what the copy engine moves contiguously: one box row
// (dimension 0) in tiled modes, one of the four rows of gather4/scatter4, one pixel (channels) in im2col
// modes. Rows are placed at row_pitch intervals before the swizzle.
struct CopyLayout {
  CopyMode mode = CopyMode::kTile;
  int global_element_bits = 16;
  int smem_element_bits = 16;
  uint32_t row_elements = 0;  // elements per row
  uint32_t row_bytes = 0;     // bytes one row occupies in shared memory (packed-type padding included)
  uint32_t row_pitch = 0;     // bytes from one row to the next: row_bytes, or the swizzle span when wider
  uint32_t rows = 0;          // rows per copy (halo pixels included)
  uint32_t main_rows = 0;     // rows without the halo pixels
  std::array<uint32_t, kMaxRank> box_counts{};  // tiled: elements along each dimension (after strides)
  uint64_t footprint_bytes = 0;    // bytes of shared memory the copy may touch, from the destination
  uint64_t transaction_bytes = 0;  // bytes counted by complete_tx: data and fill in their global (packed) size
  uint64_t required_global_bytes = 0;  // size the global buffer must have
};

// Where one element goes: the model's answer for pictures and for debugging a mismatch.
struct ElementPlacement {
  std::array<int64_t, kMaxRank> coord{};  // global coordinates of the element (as accessed, offsets added)
  uint64_t linear_bit = 0;   // bit offset from the destination before the swizzle
  uint64_t smem_bit = 0;     // bit offset from the destination after the swizzle
  uint32_t row = 0;          // row in shared memory (box row, gather row, pixel incl. halo)
  uint32_t index = 0;        // element within the row
  bool oob = false;          // out of bounds: filled (load) or skipped (store)
  bool halo = false;         // an im2col::w halo pixel
  bool skipped = false;      // store: not executed (after the first out-of-bounds pixel of im2col_no_offs)
};

// Errors of the functions below: kInvalidArgument with a message naming the problem (a spec that does not
// validate for the instruction, a mode the map cannot take, a coordinate, a buffer too small, a reduction
// PTX does not have); kUnimplemented for what the model does not cover (prefetches, interleaved maps
// beyond .tile, reductions of sub-byte types).

// Checks spec + instruction (the spec must validate with the instruction's mode and direction) and
// computes the layout.
absl::StatusOr<CopyLayout> DescribeCopy(const TensorMapSpec& spec, const CopyInstruction& instr);

// Every element of the copy, in shared-memory order; *layout (when given) as DescribeCopy's.
absl::Status ModelPlacements(const TensorMapSpec& spec, const CopyInstruction& instr, std::vector<ElementPlacement>* out,
                             CopyLayout* layout);

// A load: global -> shared memory. `global` holds `global_size` bytes (at least
// layout.required_global_bytes). `out` is resized to the footprint; its buffers are reused.
absl::Status ModelLoad(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* global,
                       size_t global_size, SmemImage* out);

struct StoreResult {
  uint64_t bytes_written = 0;       // global bytes changed or rewritten
  uint64_t transaction_bytes = 0;   // bytes of tensor data the bulk_group moves (packed size; smem read: footprint)
  uint32_t elements_written = 0;
  uint32_t elements_skipped = 0;    // out of bounds (or after the first out-of-bounds im2col_no_offs pixel)
};

// A store or reduction: shared memory -> global. `smem` holds the bytes from instr.smem_address on
// (at least layout.footprint_bytes). `global` is updated in place; `written_mask`, when given, is resized to
// global_size and gets 1 for every global byte the operation wrote.
absl::Status ModelStore(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* smem, size_t smem_size,
                        uint8_t* global, size_t global_size, std::vector<uint8_t>* written_mask, StoreResult* result);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_COPY_MODEL_H_
