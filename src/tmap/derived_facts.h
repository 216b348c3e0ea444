// derived_facts.h: what follows from a spec, computed once per validation and shown in every report.
//
// Contract
// - ComputeDerivedFacts() is total: it never fails and never divides by zero, whatever the spec holds
//   (values out of range give meaningless but finite facts; the validator reports the range errors).
// - No allocation. Texts derived from the facts (PTX instruction forms) are made by the report writers.
#ifndef TMAPGEN_SRC_TMAP_DERIVED_FACTS_H_
#define TMAPGEN_SRC_TMAP_DERIVED_FACTS_H_

#include <cstdint>

#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen {

struct DerivedFacts {
  Encoder encoder = Encoder::kTiled;
  int element_bits = 16;       // in global memory
  int smem_element_bits = 16;  // in shared memory (padded sub-byte types: 8)
  // Bytes along the innermost box dimension in shared memory: box_dim[0] (tiled, gather4, scatter4)
  // or channels_per_pixel (im2col modes), times the element size.
  uint64_t inner_box_bytes = 0;
  // Elements one copy moves, and the bytes of tensor data they are in global memory (bytes_per_copy, every
  // direction): what a load writes into shared memory, what a store or reduction reads from shared memory and
  // writes to (or combines into) global memory, what a prefetch brings toward L2 (each at most: elements
  // outside the tensor are filled by a load, skipped by the others). Packed sub-byte types
  // count their packed size (16U4_ALIGN16B 4 bits, 16U6_ALIGN16B 6 bits per element) although shared
  // memory holds them padded to 1 byte (smem_footprint_bytes): CUTLASS's block-scaled collectives and
  // DeepGEMM's FP4 GEMM arm their barriers so (production code, not measured here: docs/hardware.md). Tiled: prod(ceil(box_dim[i] / element_strides[i]))
  // with element_strides[0] ignored for interleave NONE; gather4/scatter4: 4 rows of box_dim[0];
  // im2col and im2col::w: pixels_per_column x channels_per_pixel; im2col::w::128: 128 x channels.
  // Interleaved tiled maps (measured, docs/model.md M6): dimension 0 counts 16/32-byte slices and
  // box_dim[rank-2] is not used, so the bytes are prod over i != rank-2 of ceil(box_dim[i] / element_strides[i])
  // slices; elements_per_copy is those bytes over the element size.
  uint64_t elements_per_copy = 0;
  uint64_t bytes_per_copy = 0;
  // The mbarrier transaction count of a load (.mbarrier::complete_tx::bytes, PTX ISA 9.2 section 9.7.9.25.5.2):
  // bytes_per_copy for load and load_cluster; 0 for the directions that complete without an mbarrier (store
  // and reduce: a bulk async-group; prefetch: no completion at all). CompletionOf(direction) says which.
  uint64_t transaction_bytes = 0;
  // Loads through im2col::w add wHalo x channels_per_pixel elements per copy (im2col::w::128: 4 x wHalo x
  // channels); wHalo is an operand of the instruction, so the report gives the bytes per halo pixel. A store
  // (.im2col_no_offs) takes no halo.
  bool halo_adds_bytes = false;
  uint64_t bytes_per_halo_pixel = 0;
  // Shared memory the destination must provide. Rows narrower than the swizzle span still occupy a
  // whole span each (measured on an H200: docs/model.md M1), so the footprint is rows x span then;
  // otherwise the bytes of the shared-memory image (elements x smem_element_bits) rounded up to the
  // swizzle span. Never less than bytes_per_copy (prefetch: 0, no shared memory).
  uint64_t smem_footprint_bytes = 0;
  uint64_t smem_row_pitch = 0;  // bytes from one box row to the next in shared memory
  // The instruction's coordinate along dimension 0 (x0, or the channel c of im2col) must be a multiple
  // of this many elements: 16 bytes (measured: otherwise an illegal-instruction fault, docs/model.md M2;
  // 128 elements for the ALIGN16B packed types, PTX ISA 9.7.9.25.5.1).
  uint32_t coord0_multiple = 1;
  uint32_t smem_alignment_required = kSmemMinAlignment;  // hardware minimum (128 B)
  uint32_t smem_alignment_recommended = kSmemMinAlignment;  // swizzle repeat, so the phase is 0
  uint32_t swizzle_span = 0;
  uint32_t swizzle_repeat = 0;
  uint32_t swizzle_atomicity = 16;
  // When the destination address is known: the swizzle base offset (dst / 128) % (repeat / 128), and
  // -1 when unknown.
  int swizzle_base_offset = -1;
  // Bytes of global memory the tensor spans: global_strides[rank-2] x global_dim[rank-1] (rank 1: the row).
  uint64_t global_extent_bytes = 0;
  // Targets for which the spec is valid (bit i = Target i); filled by the validator.
  uint32_t valid_targets = 0;
};

DerivedFacts ComputeDerivedFacts(const TensorMapSpec& spec);
// The same into *out (every field set), for callers that reuse one DerivedFacts (the validator).
void ComputeDerivedFacts(const TensorMapSpec& spec, DerivedFacts* out);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_DERIVED_FACTS_H_
