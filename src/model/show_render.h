// show_render.h: pictures of where a copy puts each 16-byte chunk: a compact text grid, JSON, and SVG.
//
// Contract
// - BuildShow() runs the model (ModelPlacements) for a spec and an instruction and reduces it to one cell per
//   16-byte chunk of shared memory (a chunk is the unit of every swizzle; FLIP_8B additionally swaps its
//   8-byte halves, shown as "flipped"), plus the bank-conflict report of bank_conflicts.h.
// - A cell names its source: the row of the copy (box row, gather row or im2col pixel) and the 16-byte chunk
//   within that row, the global coordinates of its first element, and whether its elements are out of
//   bounds (all, some or none) or belong to an im2col::w halo pixel.
// - RenderText: one line per 128-byte line of shared memory (8 chunks = the 32 banks); RenderSvg: the box in
//   global order and the shared-memory image side by side with the same colours, the 32 banks, the swizzle
//   repeat boundaries, out-of-bounds cells hatched, and the bank-conflict table. No I/O.
#ifndef TMAPGEN_SRC_MODEL_SHOW_RENDER_H_
#define TMAPGEN_SRC_MODEL_SHOW_RENDER_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/json/json_writer.h"
#include "src/model/bank_conflicts.h"
#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::model {

enum class CellOob : uint8_t { kNone = 0, kSome = 1, kAll = 2 };

struct ChunkCell {
  int32_t row = -1;    // source row; -1 when the copy does not write this chunk
  int32_t chunk = -1;  // 16-byte chunk within the row
  CellOob oob = CellOob::kNone;
  bool flipped = false;  // SWIZZLE_128B_ATOM_32B_FLIP_8B: 8-byte halves swapped
  bool halo = false;
  bool padding = false;  // holds the undefined gap of 16U4_ALIGN16B / 16U6_ALIGN16B
  std::array<int64_t, kMaxRank> coord{};  // global coordinates of the chunk's first element
};

struct ShowData {
  TensorMapSpec spec;
  CopyInstruction instr;
  CopyLayout layout;
  uint32_t chunks_per_row = 0;             // 16-byte chunks one row holds
  std::vector<ChunkCell> cells;            // one per 16-byte chunk of the footprint, in address order
  std::vector<BankPattern> banks;
  int swizzle_base_offset = 0;
};

// The model's errors (ModelPlacements) as they are.
absl::Status BuildShow(const TensorMapSpec& spec, const CopyInstruction& instr, ShowData* out);

// `max_lines` bounds the 128-byte lines printed (0 = all).
std::string RenderText(const ShowData& d, int max_lines);
void RenderJson(const ShowData& d, json::Writer* w);
// `max_lines` bounds the 128-byte lines drawn (0 = all).
std::string RenderSvg(const ShowData& d, int max_lines);

// "tile f16 [4096, 4096] box [64, 128] SWIZZLE_128B at {0, 0} -> smem 0x400": one line for headers.
std::string Summary(const ShowData& d);

}  // namespace tmapgen::model

#endif  // TMAPGEN_SRC_MODEL_SHOW_RENDER_H_
