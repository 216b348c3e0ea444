// map_consistency.h: the tensor map that fills a buffer and the shared-memory descriptor that reads it,
// side by side. Derives the descriptor a map calls for, and compares any descriptor with the map 16
// bytes at a time.
//
// Contract
// - DeriveFromMap() is total: whatever the map holds it fills a MapDerivation; what does not fit (an
//   interleaved map, a swizzle with no descriptor counterpart, a box row that is not one swizzle row, a
//   data type that no MMA reads) is recorded in its flags and reported by the map-* rules of
//   desc_rules.h. It reads the map through ComputeDerivedFacts (src/tmap/derived_facts.h); it does not run the
//   tensor-map validator.
// - The box as the MMA sees it: dim 0 is the contiguous dimension (K for a K-major operand, M/N for an
//   MN-major one); its bytes are one box row in shared memory. The rows are box_dim[1] (tiled), 4
//   (gather4/scatter4) or pixels_per_column (im2col; 128 for im2col::w::128). A tiled box of rank >= 3
//   stacks box_dim[2] such slabs, the canonical way to give a no-swizzle tile more than 16 bytes of K.
// - The destination is the map's smem_address, or MapUse::smem_address when given, or 0 (assumed on the
//   swizzle repeat; `smem_known` says which).
// - TmaChunkAddress() is where the TMA writes a 16-byte chunk: dst + the dense box offset, swizzled on the
//   absolute address (PTX ISA 5.5.7). CompareChunks() compares it with where the descriptor reads the same
//   chunk (smem_descriptor.h address model) for the first K slice of one MMA.
// - No I/O, no allocation beyond the copied spec's name.
#ifndef TMAPGEN_SRC_DESC_MAP_CONSISTENCY_H_
#define TMAPGEN_SRC_DESC_MAP_CONSISTENCY_H_

#include <cstdint>
#include <string_view>

#include "src/tmap/derived_facts.h"
#include "src/desc/desc_types.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::desc {

// How the map's box feeds an MMA.
struct MapUse {
  DescArch arch = DescArch::kTcgen05;
  Operand operand = Operand::kA;
  Major major = Major::kK;
  bool has_type = false;  // else inferred from the map's data type
  ElemType type = ElemType::kBF16;
  bool has_smem_address = false;  // overrides the map's smem_address
  uint64_t smem_address = 0;
  uint32_t mma_k = 0;  // K of one MMA, elements; 0 = 32 bytes' worth
  bool has_target = false;
  Target target = Target::kSm100a;
};

struct MapDerivation {
  TensorMapSpec map;
  DerivedFacts map_facts;
  MapUse use;
  bool interleaved = false;     // interleave != NONE: no canonical layout
  bool swizzle_ok = true;       // the map's swizzle has a descriptor counterpart for the family
  bool type_known = true;       // the map's data type is an MMA operand type
  bool type_inferred = false;   // the element type came from the map
  bool type_bits_agree = true;  // the user's type occupies as many bits in shared memory as the map's
  uint64_t inner_bytes = 0;     // bytes of one box row in shared memory
  uint32_t rows = 0;            // box rows (the strided dimension)
  uint32_t slabs = 1;           // stacked box slabs along the contiguous dimension
  bool smem_known = false;
  uint64_t dst = 0;             // shared-memory destination
  OperandLayout layout;         // the operand tile the map writes
  LayoutFacts facts;
  SmemDesc desc;                // the descriptor that reads it as written
};

// The MMA element type of a map data type, as far as the map decides it: f16, bf16; tf32 for the 32-bit types;
// u8 for UINT8 (an 8-bit layout: e4m3, e5m2, u8 or s8 is the MMA's choice); e2m1 for 16U4; e2m3 for 16U6 (a
// 6-bit layout: e2m3 or e3m2 is the instruction descriptor's choice). Only the element size shapes the layout.
bool ElemTypeForMap(DataType t, ElemType* out, bool* padded);
// What the MMA, not the map, decides about the element type read from a map of type t ("" where the map's type
// is the operand type): wgmma's .atype/.btype (PTX ISA 9.2 section 9.7.15.5.1), the tcgen05 instruction
// descriptor's A/B type fields per .kind (section 9.7.16.4.2, Tables 42-44).
std::string_view TypeFromMapNote(DataType t, DescArch arch);

void DeriveFromMap(const TensorMapSpec& map, const MapUse& use, MapDerivation* out);

// Where the TMA writes the 16-byte chunk `col` (along the contiguous dimension) of box row `row`.
uint64_t TmaChunkAddress(const MapDerivation& d, uint32_t row, uint32_t col);
// Where a descriptor makes the MMA read the same chunk (first K slice).
uint64_t MmaChunkAddress(const SmemDesc& desc, Major major, DescSwizzle fallback_swizzle, uint64_t slab_pitch,
                         uint32_t row, uint32_t col);

// The chunks one MMA reads for the first K slice: K-major, every row of the tile and K-step / 16 chunks;
// MN-major, the K-step rows and every 16-byte chunk of the tile's M/N extent.
struct ChunkGrid {
  uint32_t rows = 0;
  uint32_t cols = 0;
};
ChunkGrid FirstSliceGrid(const OperandLayout& l, const LayoutFacts& f);

struct ChunkCompare {
  bool compared = false;  // false when the geometry does not allow a comparison
  uint32_t total = 0;
  uint32_t mismatched = 0;
  uint32_t first_row = 0, first_col = 0;
  uint64_t first_mma = 0, first_tma = 0;
};
ChunkCompare CompareChunks(const MapDerivation& d, const SmemDesc& desc);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_MAP_CONSISTENCY_H_
