// copy_instruction.h: one cp.async.bulk.tensor / cp.reduce.async.bulk.tensor instruction as the copy model
// (copy_model.h) takes it: its .load_mode, direction, coordinates and shared-memory address.
//
// Contract
// - Plain data and the names of the modes; no I/O, no global state.
#ifndef TMAPGEN_SRC_MODEL_COPY_INSTRUCTION_H_
#define TMAPGEN_SRC_MODEL_COPY_INSTRUCTION_H_

#include <array>
#include <cstdint>
#include <string_view>

#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen::model {

// The .load_mode of the instruction (PTX ISA 9.2 section 9.7.9.25.5.2).
enum class CopyMode : uint8_t {
  kTile = 0,          // .tile (loads, stores, reductions)
  kTileGather4 = 1,   // .tile::gather4 (loads; 2D maps)
  kTileScatter4 = 2,  // .tile::scatter4 (stores; 2D maps)
  kIm2col = 3,        // .im2col (loads)
  kIm2colW = 4,       // .im2col::w (loads)
  kIm2colW128 = 5,    // .im2col::w::128 (loads)
  kIm2colNoOffs = 6,  // .im2col_no_offs (stores, reductions; im2col and im2col::w maps)
};
inline constexpr int kNumCopyModes = 7;
std::string_view Name(CopyMode m);  // ".tile", ".tile::gather4", ..., ".im2col_no_offs"
bool Parse(std::string_view s, CopyMode* out);  // with or without the dot; "tiled" and "gather4" too

// One instruction. Coordinates are in elements, dimension 0 (innermost) first, as in the PTX operand
// tensorCoords: tiled {x0, x1, ...}; im2col {c, w, h, d, n} for the dims the map has (rank 4: {c, w, h, n});
// gather4/scatter4 {column, row0, row1, row2, row3} go to coords[0] and rows[0..3].
struct CopyInstruction {
  CopyMode mode = CopyMode::kTile;
  Direction direction = Direction::kLoadCta;  // kLoadCta, kLoadCluster, kStore, kReduce
  ReduceOp reduce_op = ReduceOp::kAdd;
  std::array<int32_t, kMaxRank> coords{};
  std::array<int32_t, 4> rows{};                    // gather4/scatter4 row indices
  std::array<uint16_t, kMaxRank - 2> im2col_offsets{};  // .im2col: {W, H, D} offsets (rank - 2 of them)
  uint16_t w_halo = 0;    // .im2col::w, .im2col::w::128
  uint16_t w_offset = 0;  // .im2col::w, .im2col::w::128
  uint64_t smem_address = 0;  // destination (load) or source (store); its bits 7.. steer the swizzle
};

// The instruction a spec is usually used with: its mode and direction (stores of im2col maps use
// .im2col_no_offs), coordinates 0, the spec's smem_address when given (else 0).
CopyInstruction DefaultInstruction(const TensorMapSpec& spec);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_COPY_INSTRUCTION_H_
