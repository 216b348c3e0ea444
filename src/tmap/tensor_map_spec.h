// tensor_map_spec.h: one tensor map as the user describes it.
//
// Contract
// - TensorMapSpec carries every parameter of cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
//   cuTensorMapEncodeIm2colWide with the cuda.h meaning and units (dims in elements, strides in bytes,
//   dim 0 innermost, `global_strides` has rank-1 entries), plus what the driver never sees but the
//   hardware depends on: the mode of use, the direction, the target, the shared-memory destination and
//   the driver version.
// - It is a plain value type: no invariants are enforced here. Values that are out of range for the
//   driver are representable on purpose, so that the validator can explain them. Only what cannot be
//   represented (more than 5 dims, a negative size) is rejected by the parsers.
// - Every field has a row in the field table (spec_fields.h), which also defines its Field bit.
// - `set_fields` records which fields the user gave explicitly (Field bits), so that the validator can
//   say when a field is ignored by the chosen mode and the writers can print what was given.
// - DefaultSpec(mode) is the embedded default of each mode: a realistic shape that validates cleanly.
#ifndef TMAPGEN_SRC_TMAP_TENSOR_MAP_SPEC_H_
#define TMAPGEN_SRC_TMAP_TENSOR_MAP_SPEC_H_

#include <array>
#include <cstdint>
#include <string>

#include "src/tmap/spec_fields.h"
#include "src/tmap/types.h"

namespace tmapgen {

struct TensorMapSpec {
  std::string name;  // optional; used for generated identifiers and in reports

  // How the map is used.
  Mode mode = Mode::kTiled;
  Direction direction = Direction::kLoadCta;
  ReduceOp reduce_op = ReduceOp::kAdd;  // only for Direction::kReduce

  // cuTensorMapEncode* parameters.
  DataType data_type = DataType::kFloat16;  // how it was named: data_type_alias, below
  uint32_t rank = 2;
  uint64_t global_address = 0;  // meaningful only when kFieldGlobalAddress is set
  std::array<uint64_t, kMaxRank> global_dim{};
  std::array<uint64_t, kMaxRank - 1> global_strides{};
  std::array<uint32_t, kMaxRank> box_dim{};  // tiled, gather4, scatter4; innermost first, as every array here
  std::array<uint32_t, kMaxRank> element_strides{1, 1, 1, 1, 1};
  Interleave interleave = Interleave::kNone;
  Swizzle swizzle = Swizzle::kNone;
  L2Promotion l2_promotion = L2Promotion::k128B;
  OobFill oob_fill = OobFill::kNone;
  // im2col: rank-2 entries; entry i is the corner offset along global_dim[i + 1] (W, H, D: the same
  // innermost-first order as global_dim, as CUTLASS passes them; cuda.h calls the set "{D, H, W}").
  std::array<int32_t, kMaxRank - 2> pixel_box_lower_corner{};
  std::array<int32_t, kMaxRank - 2> pixel_box_upper_corner{};
  // im2col::w, im2col::w::128
  int32_t pixel_box_lower_corner_width = 0;
  int32_t pixel_box_upper_corner_width = 0;
  uint32_t channels_per_pixel = 0;  // im2col modes
  uint32_t pixels_per_column = 0;   // im2col modes
  Im2colWideMode wide_mode = Im2colWideMode::kW;  // follows `mode` unless given explicitly

  // What the hardware depends on.
  Target target = Target::kSm90a;  // meaningful only when kFieldTarget is set
  uint64_t smem_address = 0;       // shared-memory destination; meaningful when kFieldSmemAddress is set
  uint32_t smem_alignment = 0;     // guaranteed alignment of the destination; when kFieldSmemAlignment
  uint32_t driver_version = 0;     // CUDA driver version as cuDriverGetVersion reports it (13000); 0 = unknown

  uint32_t set_fields = 0;

  // How the user wrote what the map itself does not keep (in the struct's tail padding: the size of a spec is
  // unchanged).
  // - When the data type was given as a data alias ("e4m3", "int8": what the bytes hold, types.h), its row in
  //   the data-type name table, so that reports say what it was read as; kNoDataAlias otherwise.
  uint8_t data_type_alias = kNoDataAlias;
  // - The box (and element_strides) were given in the tensor's own order, outermost first, and reversed into
  //   box_dim (Python for_tensor): reports and the box rules' messages say which value of that box a
  //   box_dim[i] is. The map is the same either way.
  bool box_given_outermost_first = false;

  bool Has(Field f) const { return (set_fields & f) != 0; }
  bool has_target() const { return Has(kFieldTarget); }
};

// The embedded default for a mode: the shape `tmapgen --mode M` builds when nothing else is given.
//   tiled:          f16 [4096, 4096] (dense: row pitch 8192 B), box [64, 128], SWIZZLE_128B, L2 128B.
//   im2col:         f16 NHWC [C=64, W=56, H=56, N=32], 3x3 filter with padding 1 (corners -1/-1),
//                   64 channels x 128 pixels per copy, SWIZZLE_128B.
//   im2col::w:      the same tensor, W corners -1/-1, 64 channels x 128 pixels, SWIZZLE_128B.
//   im2col::w::128: the same, 128 pixels fixed by the mode.
//   gather4:        f16 [4096, 4096], box [64, 1] (four 128-byte rows per copy), SWIZZLE_128B.
//   scatter4:       as gather4, direction store.
TensorMapSpec DefaultSpec(Mode mode);

// Fills global_strides with the dense tensor's: global_strides[0] = RowBytes (global_dim[0] x element size,
// no padding), each higher stride the previous one times global_dim[i] (cuda.h's relation with padding 0).
// This is the default wherever strides are not given (command line, JSON and text specs, Python, the
// service), so that the map describes the tensor the user has; when that row pitch is not a multiple of 16
// bytes the validator says so (global-stride-align-16) instead of a padded pitch standing in for it. The
// arithmetic is checked: when a stride does not fit in 64 bits, it and the ones after it are set to
// 2^64 - 1, false is returned and *overflow_dim (when given) names the first dimension whose stride
// overflowed.
bool FillDenseStrides(TensorMapSpec* spec, uint32_t* overflow_dim = nullptr);

// The same with the row pitch rounded up to a multiple of 16 bytes: a tensor whose allocation pads each
// row. Only for tmapgen's own generators (GPU checks, benchmarks, tests) that build tensors themselves and
// need a pitch the driver accepts; never a default for a user's spec.
bool FillPaddedStrides(TensorMapSpec* spec, uint32_t* overflow_dim = nullptr);

// Whether the spec's strides were not given and are the dense default (rank 2 or more): the reports say so.
bool HasDenseDefaultStrides(const TensorMapSpec& spec);

// Sizes in bits and bytes of the global data of one spec.
uint64_t RowBytes(const TensorMapSpec& spec);  // global_dim[0] x element bits / 8, rounded up; saturates at 2^64 - 1

// Every field of a and b equal, set_fields included (tests and fuzzers compare two readers with it).
bool SameSpec(const TensorMapSpec& a, const TensorMapSpec& b);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_TENSOR_MAP_SPEC_H_
