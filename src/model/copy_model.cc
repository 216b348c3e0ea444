#include "src/model/copy_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "src/tmap/derived_facts.h"
#include "src/model/swizzle.h"
#include "src/tmap/rule.h"
#include "src/util/strings.h"
#include "src/tmap/validator.h"

namespace tmapgen::model {
namespace {

constexpr std::string_view kModeNames[kNumCopyModes] = {
    ".tile", ".tile::gather4", ".tile::scatter4", ".im2col", ".im2col::w", ".im2col::w::128", ".im2col_no_offs"};

// One row of the copy: elements contiguous in shared memory (before the swizzle).
struct Row {
  std::array<int64_t, kMaxRank> coord{};  // accessed coordinates of the row's first element
  uint64_t linear_offset = 0;             // from the destination, before the swizzle
  uint32_t step0 = 1;                     // dimension-0 traversal stride
  uint32_t count = 0;                     // elements
  bool outer_oob = false;                 // a coordinate other than dimension 0 is out of bounds
  bool halo = false;
};

// How elements sit inside a row in shared memory.
enum class Packing : uint8_t {
  kPlain,    // element e at bit e * smem_bits
  kP64,      // 16U4_ALIGN16B load (.b4x16_p64): 16 nibbles, then 8 undefined bytes
  kP32,      // 16U6_ALIGN16B load (.b6x16_p32): 16 packed 6-bit values (12 B), then 4 undefined bytes
  kP2x16,    // 16U6_ALIGN16B store (.b6p2x16): one byte per element, data in the 6 low bits
};

struct Plan {
  const TensorMapSpec* spec = nullptr;
  CopyLayout layout;
  int rank = 0;
  bool load = true;
  bool stop_at_first_oob = false;  // stores with .im2col_no_offs
  Packing packing = Packing::kPlain;
  uint64_t smem_address = 0;
  std::vector<Row> rows;
};

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }
uint64_t RoundUp(uint64_t a, uint64_t m) { return m == 0 ? a : CeilDiv(a, m) * m; }

bool Fail(std::string* error, std::string msg) {
  if (error != nullptr) *error = std::move(msg);
  return false;
}

Mode MapModeFor(CopyMode m, Mode spec_mode) {
  switch (m) {
    case CopyMode::kTile: return Mode::kTiled;
    case CopyMode::kTileGather4: return Mode::kGather4;
    case CopyMode::kTileScatter4: return Mode::kScatter4;
    case CopyMode::kIm2col: return Mode::kIm2col;
    case CopyMode::kIm2colW: return Mode::kIm2colW;
    case CopyMode::kIm2colW128: return Mode::kIm2colW128;
    case CopyMode::kIm2colNoOffs: return spec_mode;
  }
  return spec_mode;
}

bool IsModeLoadOnly(CopyMode m) {
  return m == CopyMode::kTileGather4 || m == CopyMode::kIm2col || m == CopyMode::kIm2colW || m == CopyMode::kIm2colW128;
}
bool IsModeStoreOnly(CopyMode m) { return m == CopyMode::kTileScatter4 || m == CopyMode::kIm2colNoOffs; }

// Element bit offset inside a row (before the swizzle) and whether a byte of a row is undefined padding.
uint64_t ElementBit(Packing p, int smem_bits, uint32_t e) {
  switch (p) {
    case Packing::kPlain: return static_cast<uint64_t>(e) * static_cast<uint64_t>(smem_bits);
    case Packing::kP64: return static_cast<uint64_t>(e / 16) * 128 + (e % 16) * 4;
    case Packing::kP32: return static_cast<uint64_t>(e / 16) * 128 + (e % 16) * 6;
    case Packing::kP2x16: return static_cast<uint64_t>(e) * 8;
  }
  return 0;
}
// Bits of data an element has in shared memory (what is copied).
int ElementDataBits(Packing p, int smem_bits) {
  switch (p) {
    case Packing::kP64: return 4;
    case Packing::kP32: case Packing::kP2x16: return 6;
    default: return smem_bits;
  }
}

uint64_t GetBits(const uint8_t* p, uint64_t bit, int n) {
  if ((bit & 7) == 0 && (n & 7) == 0) {
    uint64_t v = 0;
    std::memcpy(&v, p + bit / 8, static_cast<size_t>(n / 8));  // little endian host
    return v;
  }
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>((p[(bit + i) >> 3] >> ((bit + i) & 7)) & 1u) << i;
  return v;
}
void PutBits(uint8_t* p, uint64_t bit, int n, uint64_t v);
// Copies n bits; whole bytes by memcpy (interleaved slices are 128 or 256 bits).
void CopyBits(uint8_t* dst, uint64_t dbit, const uint8_t* src, uint64_t sbit, int n) {
  if ((dbit & 7) == 0 && (sbit & 7) == 0 && (n & 7) == 0) {
    std::memcpy(dst + dbit / 8, src + sbit / 8, static_cast<size_t>(n / 8));
    return;
  }
  PutBits(dst, dbit, n, GetBits(src, sbit, n));
}
void PutBits(uint8_t* p, uint64_t bit, int n, uint64_t v) {
  if ((bit & 7) == 0 && (n & 7) == 0) {
    std::memcpy(p + bit / 8, &v, static_cast<size_t>(n / 8));
    return;
  }
  for (int i = 0; i < n; ++i) {
    const uint64_t b = bit + i;
    const uint8_t m = static_cast<uint8_t>(1u << (b & 7));
    if ((v >> i) & 1u) p[b >> 3] |= m; else p[b >> 3] &= static_cast<uint8_t>(~m);
  }
}

// Byte offset in global memory of the element at `coord` (dimension 0 in elements, as a bit offset).
uint64_t GlobalBit(const TensorMapSpec& s, int rank, const std::array<int64_t, kMaxRank>& coord, int gbits) {
  uint64_t byte = 0;
  for (int d = 1; d < rank; ++d) byte += static_cast<uint64_t>(coord[d]) * s.global_strides[d - 1];
  return byte * 8 + static_cast<uint64_t>(coord[0]) * static_cast<uint64_t>(gbits);
}

bool OuterOob(const TensorMapSpec& s, int rank, const std::array<int64_t, kMaxRank>& coord) {
  for (int d = 1; d < rank; ++d)
    if (coord[d] < 0 || coord[d] >= static_cast<int64_t>(s.global_dim[d])) return true;
  return false;
}

// The im2col pixel walk: `pos` steps along the spatial dims by the traversal strides, wrapping to the
// lower corner of the bounding box and carrying into the next dimension, then into N.
struct Walk {
  int dims = 0;  // spatial dims that move (W only for the wide modes)
  int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, st[3] = {1, 1, 1}, pos[3] = {0, 0, 0};
  int64_t n = 0;
  void Step() {
    for (int i = 0; i < dims; ++i) {
      pos[i] += st[i];
      if (pos[i] <= hi[i]) return;
      pos[i] = lo[i];
    }
    n += 1;
  }
};

std::string ValidationError(const TensorMapSpec& v, const Validation& val) {
  const Rule* rules = Rules();
  for (const Finding& f : val.findings) {
    const Rule& r = rules[f.rule];
    if (r.severity != Severity::kError) continue;
    return StrCat("the spec does not validate for this instruction: ", r.id, ": ", MessageText(r, v, f).view());
  }
  return "the spec does not validate for this instruction";
}

uint32_t RowPitch(const TensorMapSpec& s, uint32_t row_bytes) {
  // Reading (docs/model.md R2): rows start on 16-byte boundaries; with a swizzle, an inner box narrower
  // than the swizzle span still occupies a whole span (the rest of the span is not written).
  uint32_t pitch = static_cast<uint32_t>(RoundUp(row_bytes, 16));
  const uint32_t span = static_cast<uint32_t>(SwizzleSpanBytes(s.swizzle));
  if (span > pitch) pitch = span;
  return pitch;
}

bool BuildPlan(const TensorMapSpec& spec, const CopyInstruction& in, Plan* plan, std::string* error) {
  plan->spec = &spec;
  plan->rows.clear();
  CopyLayout& L = plan->layout;
  L = CopyLayout{};
  L.mode = in.mode;
  const int rank = static_cast<int>(spec.rank);
  plan->rank = rank;
  if (rank < 1 || rank > kMaxRank) return Fail(error, StrCat("tensor_rank ", spec.rank, " is not 1 to 5"));

  // ---- direction and mode against the map
  if (in.direction == Direction::kPrefetch)
    return Fail(error, "direction prefetch writes no shared memory: the model covers loads, stores and reductions");
  plan->load = IsLoad(in.direction);
  if (static_cast<int>(in.mode) >= kNumCopyModes) return Fail(error, "unknown copy mode");
  if (plan->load && IsModeStoreOnly(in.mode))
    return Fail(error, StrCat(Name(in.mode), " is a store mode; a load uses .tile, .tile::gather4, .im2col, .im2col::w or .im2col::w::128"));
  if (!plan->load && IsModeLoadOnly(in.mode))
    return Fail(error, StrCat(Name(in.mode), " is a load mode; stores and reductions use .tile, .tile::scatter4 or .im2col_no_offs"));
  switch (in.mode) {
    case CopyMode::kTile:
      if (spec.mode != Mode::kTiled) return Fail(error, StrCat(".tile needs a tiled map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kTileGather4: case CopyMode::kTileScatter4:
      if (EncoderFor(spec.mode) != Encoder::kTiled)
        return Fail(error, StrCat(Name(in.mode), " needs a 2D tiled map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2col:
      if (spec.mode != Mode::kIm2col) return Fail(error, StrCat(".im2col needs an im2col map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2colW: case CopyMode::kIm2colW128:
      if (!IsWideMode(spec.mode))
        return Fail(error, StrCat(Name(in.mode), " needs an im2col wide map (cuTensorMapEncodeIm2colWide); this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2colNoOffs:
      if (spec.mode != Mode::kIm2col && spec.mode != Mode::kIm2colW)
        return Fail(error, StrCat(".im2col_no_offs needs an im2col or im2col::w map; this map is ", Name(spec.mode)));
      break;
  }

  // ---- the spec must validate for this use
  TensorMapSpec v = spec;
  v.mode = MapModeFor(in.mode, spec.mode);
  if (in.mode == CopyMode::kIm2colW) v.wide_mode = Im2colWideMode::kW;
  if (in.mode == CopyMode::kIm2colW128) v.wide_mode = Im2colWideMode::kW128;
  v.direction = in.direction;
  v.reduce_op = in.reduce_op;
  v.smem_address = in.smem_address;
  v.set_fields |= kFieldMode | kFieldDirection | kFieldSmemAddress;
  if (in.direction == Direction::kReduce) v.set_fields |= kFieldReduceOp;
  Validation val;
  Validate(v, &val);
  if (!val.valid) return Fail(error, ValidationError(v, val));
  if (in.smem_address % 128 != 0)
    return Fail(error, StrCat("smem_address ", Hex(in.smem_address), " is not 128-byte aligned"));

  // ---- instruction operands
  if (!plan->load) {
    // PTX ISA 9.7.9.25.5.1: the .global.shared::cta direction needs non-negative tensorCoords.
    const int ncoords = IsGatherScatter(v.mode) ? 1 : rank;
    for (int d = 0; d < ncoords; ++d)
      if (in.coords[d] < 0)
        return Fail(error, StrCat("coords[", d, "] = ", in.coords[d], ": stores and reductions need non-negative coordinates"));
    if (IsGatherScatter(v.mode))
      for (int k = 0; k < 4; ++k)
        if (in.rows[k] < 0) return Fail(error, StrCat("rows[", k, "] = ", in.rows[k], ": scatter4 needs non-negative row indices"));
  }
  {
    // Measured on an H200 (docs/model.md M2): a box whose start along dimension 0 is not 16-byte aligned
    // raises an illegal-instruction error (PTX ISA 5.5.3.1: "the address of the bounding box must be aligned
    // to 16 bytes"). Dimension 0 is the channel coordinate in im2col modes and the column in gather4/scatter4.
    // Interleaved maps count dimension 0 in whole 16/32-byte slices (M6), so every coordinate is aligned.
    const int64_t bits = static_cast<int64_t>(in.coords[0]) * DataTypeBits(spec.data_type);
    if (spec.interleave == Interleave::kNone && bits % 128 != 0)
      return Fail(error, StrCat("coords[0] = ", in.coords[0], ": the box must start on a 16-byte boundary along dimension 0 (",
                             in.coords[0], " elements of ", DataTypeBits(spec.data_type),
                             " bits); the GPU raises an illegal-instruction error"));
  }
  const bool interleaved = spec.interleave != Interleave::kNone;
  if (interleaved) {
    // Measured on an H200 (docs/model.md M6) for .tile loads and stores with zero fill and plain data types;
    // the rest is refused rather than guessed.
    const char* what = nullptr;
    if (in.mode != CopyMode::kTile) what = "copy modes other than .tile (interleaved im2col was not measured)";
    else if (in.direction == Direction::kReduce) what = "reductions";
    else if (spec.oob_fill != OobFill::kNone) what = "OOB-NaN fill";
    else if (spec.data_type == DataType::kTfloat32 || spec.data_type == DataType::kTfloat32Ftz || IsSubByte(spec.data_type))
      what = "tf32 and sub-byte data types";
    if (what != nullptr)
      return Fail(error, StrCat("interleaved layouts (", FullName(spec.interleave), ") are modelled for .tile loads and stores "
                             "with zero fill only (docs/model.md, measurement M6); not for ", what));
  }
  if (in.mode == CopyMode::kIm2col || (in.mode == CopyMode::kIm2colNoOffs && spec.mode == Mode::kIm2col)) {
    // Measured on an H200 (docs/model.md M4): a filter base point outside the bounding box raises an
    // illegal-instruction error (PTX ISA 5.5.4.1: "the filter corner must lie within the bounding box").
    static constexpr const char* kDim[3] = {"W", "H", "D"};
    for (int i = 0; i < rank - 2; ++i) {
      const int64_t lo = spec.pixel_box_lower_corner[i];
      const int64_t hi = static_cast<int64_t>(spec.global_dim[i + 1]) - 1 + spec.pixel_box_upper_corner[i];
      if (in.coords[i + 1] < lo || in.coords[i + 1] > hi)
        return Fail(error, StrCat("coords[", i + 1, "] = ", in.coords[i + 1], ": the filter base point lies outside the bounding box along ",
                               kDim[i], " [", lo, ", ", hi, "]; the GPU raises an illegal-instruction error"));
    }
  }
  if (in.mode == CopyMode::kIm2col) {
    const uint32_t limit = rank == 3 ? 65535u : rank == 4 ? 255u : 31u;
    for (int i = 0; i < rank - 2; ++i)
      if (in.im2col_offsets[i] > limit)
        return Fail(error, StrCat("im2col_offsets[", i, "] = ", in.im2col_offsets[i], " exceeds ", limit, " for a ", rank, "D tensor"));
  } else {
    for (int i = 0; i < kMaxRank - 2; ++i)
      if (in.im2col_offsets[i] != 0)
        return Fail(error, StrCat(Name(in.mode), " takes no im2col offsets (im2col_offsets[", i, "] = ", in.im2col_offsets[i], ")"));
  }
  if (in.mode == CopyMode::kIm2colW || in.mode == CopyMode::kIm2colW128) {
    const uint32_t halo_limit = in.mode == CopyMode::kIm2colW ? 512 : 32;
    if (in.w_halo >= halo_limit) return Fail(error, StrCat("w_halo = ", in.w_halo, " must be below ", halo_limit, " for ", Name(in.mode)));
    if (in.w_offset >= 32) return Fail(error, StrCat("w_offset = ", in.w_offset, " must be below 32"));
  } else if (in.w_halo != 0 || in.w_offset != 0) {
    return Fail(error, StrCat(Name(in.mode), " takes no w_halo / w_offset"));
  }

  // ---- element sizes and packing
  L.global_element_bits = DataTypeBits(spec.data_type);
  L.smem_element_bits = DataTypeSmemBits(spec.data_type);
  if (interleaved) {
    // M6: with an interleaved layout the unit of dimension 0 is one 16- or 32-byte slice, whatever the type:
    // global_dim[0], box_dim[0], coords[0] and element_strides[0] all count slices.
    L.global_element_bits = L.smem_element_bits = spec.interleave == Interleave::k32B ? 256 : 128;
  }
  if (spec.data_type == DataType::k16U4Align16B) plan->packing = Packing::kP64;
  else if (spec.data_type == DataType::k16U6Align16B) plan->packing = plan->load ? Packing::kP32 : Packing::kP2x16;
  plan->smem_address = in.smem_address;
  plan->stop_at_first_oob = in.mode == CopyMode::kIm2colNoOffs;

  // ---- rows
  auto add_row = [&](const std::array<int64_t, kMaxRank>& coord, uint32_t count, uint32_t step0, bool halo) {
    Row r;
    r.coord = coord;
    r.count = count;
    r.step0 = step0;
    r.halo = halo;
    r.outer_oob = OuterOob(spec, rank, coord);
    plan->rows.push_back(r);
  };

  if (in.mode == CopyMode::kTile) {
    for (int d = 0; d < rank; ++d) {
      const uint32_t es = (d == 0 && !interleaved) ? 1 : std::max<uint32_t>(1, spec.element_strides[d]);
      L.box_counts[d] = static_cast<uint32_t>(CeilDiv(spec.box_dim[d], es));
    }
    // M6: the engine moves one position along dimension rank-2 (its coordinate is used, box_dim[rank-2] and
    // element_strides[rank-2] are not): rank 3 ignores box_dim[1], rank 4 box_dim[2], rank 5 box_dim[3].
    if (interleaved) L.box_counts[rank - 2] = 1;
    for (int d = rank; d < kMaxRank; ++d) L.box_counts[d] = 1;
    L.row_elements = L.box_counts[0];
    const uint32_t step0 = interleaved ? std::max<uint32_t>(1, spec.element_strides[0]) : 1;
    uint64_t nrows = 1;
    for (int d = 1; d < rank; ++d) nrows *= L.box_counts[d];
    plan->rows.reserve(nrows);
    std::array<uint32_t, kMaxRank> idx{};
    for (uint64_t r = 0; r < nrows; ++r) {
      std::array<int64_t, kMaxRank> c{};
      c[0] = in.coords[0];
      for (int d = 1; d < rank; ++d)
        c[d] = static_cast<int64_t>(in.coords[d]) + static_cast<int64_t>(idx[d]) * std::max<uint32_t>(1, spec.element_strides[d]);
      add_row(c, L.row_elements, step0, false);
      for (int d = 1; d < rank; ++d) {
        if (++idx[d] < L.box_counts[d]) break;
        idx[d] = 0;
      }
    }
  } else if (in.mode == CopyMode::kTileGather4 || in.mode == CopyMode::kTileScatter4) {
    L.row_elements = spec.box_dim[0];
    L.box_counts = {spec.box_dim[0], 4, 1, 1, 1};
    for (int k = 0; k < 4; ++k) add_row({in.coords[0], in.rows[k], 0, 0, 0}, L.row_elements, 1, false);
  } else {
    // im2col family. Spatial dims are 1 .. rank-2 (W, H, D); dim rank-1 is N.
    const int spatial = rank - 2;
    const bool wide_map = IsWideMode(spec.mode);
    const bool wide = in.mode == CopyMode::kIm2colW || in.mode == CopyMode::kIm2colW128 ||
                      (in.mode == CopyMode::kIm2colNoOffs && wide_map);
    L.row_elements = spec.channels_per_pixel;
    uint32_t main = in.mode == CopyMode::kIm2colW128 ? 128u : spec.pixels_per_column;
    const uint32_t halo = in.w_halo;
    Walk w;
    std::array<int64_t, kMaxRank> fixed{};  // coordinates that do not walk
    for (int d = 0; d < rank; ++d) fixed[d] = in.coords[d];
    if (wide) {
      const int64_t off = in.w_offset;
      w.dims = 1;
      w.lo[0] = static_cast<int64_t>(spec.pixel_box_lower_corner_width) + off;
      w.hi[0] = static_cast<int64_t>(spec.global_dim[1]) - 1 + spec.pixel_box_upper_corner_width + off;
      w.st[0] = std::max<uint32_t>(1, spec.element_strides[1]);
      w.pos[0] = static_cast<int64_t>(in.coords[1]) + off;
    } else {
      w.dims = spatial;
      for (int i = 0; i < spatial; ++i) {
        w.lo[i] = spec.pixel_box_lower_corner[i];
        w.hi[i] = static_cast<int64_t>(spec.global_dim[i + 1]) - 1 + spec.pixel_box_upper_corner[i];
        w.st[i] = std::max<uint32_t>(1, spec.element_strides[i + 1]);
        w.pos[i] = in.coords[i + 1];
      }
    }
    w.n = in.coords[rank - 1];
    const uint32_t walk_len = main + halo;
    // Positions along the walk, then placed in shared memory.
    std::vector<std::array<int64_t, kMaxRank>> pos;
    pos.reserve(walk_len + (in.mode == CopyMode::kIm2colW128 ? 3 * halo : 0));
    auto current = [&]() {
      std::array<int64_t, kMaxRank> c = fixed;
      if (wide) {
        c[1] = w.pos[0];
      } else {
        for (int i = 0; i < spatial; ++i)
          c[i + 1] = w.pos[i] + (in.mode == CopyMode::kIm2col ? in.im2col_offsets[i] : 0);
      }
      c[rank - 1] = w.n;
      return c;
    };
    const uint32_t steps = in.mode == CopyMode::kIm2colW128 ? main + halo : walk_len;
    for (uint32_t p = 0; p < steps; ++p) {
      pos.push_back(current());
      w.Step();
    }
    if (in.mode == CopyMode::kIm2colW128) {
      // Reading R7: four groups of 32 pixels, each followed by w_halo halo pixels (the next pixels of the
      // walk after the group), so group g occupies rows g * (32 + w_halo) ...
      for (uint32_t g = 0; g < 4; ++g) {
        for (uint32_t j = 0; j < 32; ++j) add_row(pos[g * 32 + j], L.row_elements, 1, false);
        for (uint32_t j = 0; j < halo; ++j) add_row(pos[(g + 1) * 32 + j], L.row_elements, 1, true);
      }
    } else {
      for (uint32_t p = 0; p < walk_len; ++p) add_row(pos[p], L.row_elements, 1, p >= main);
    }
    L.main_rows = main;
  }

  // ---- geometry
  L.rows = static_cast<uint32_t>(plan->rows.size());
  if (L.main_rows == 0) L.main_rows = L.rows;
  switch (plan->packing) {
    case Packing::kPlain: L.row_bytes = static_cast<uint32_t>(CeilDiv(static_cast<uint64_t>(L.row_elements) * L.smem_element_bits, 8)); break;
    default: L.row_bytes = static_cast<uint32_t>(CeilDiv(L.row_elements, 16) * 16); break;
  }
  // M6: interleaved rows follow each other without padding, also under a swizzle.
  L.row_pitch = interleaved ? L.row_bytes : RowPitch(spec, L.row_bytes);
  for (uint32_t r = 0; r < L.rows; ++r) plan->rows[r].linear_offset = static_cast<uint64_t>(r) * L.row_pitch;
  L.footprint_bytes = static_cast<uint64_t>(L.rows) * L.row_pitch;
  if (spec.swizzle != Swizzle::kNone) L.footprint_bytes = RoundUp(L.footprint_bytes, 128);
  // complete_tx counts the data in its global (packed) size; the padded shared-memory image is the footprint
  // (16U4_ALIGN16B / 16U6_ALIGN16B: CUTLASS and DeepGEMM arm the packed size, docs/hardware.md).
  L.transaction_bytes = CeilDiv(static_cast<uint64_t>(L.rows) * L.row_elements * L.global_element_bits, 8);
  uint64_t need = CeilDiv(spec.global_dim[0] * static_cast<uint64_t>(L.global_element_bits), 8);
  for (int d = 1; d < rank; ++d) need += (spec.global_dim[d] - 1) * spec.global_strides[d - 1];
  L.required_global_bytes = need;
  return true;
}

// Fills `n` elements starting at element `e0` of a row buffer with the out-of-bounds pattern.
void FillElements(const Plan& p, uint8_t* buf, uint8_t* st, uint32_t e0, uint32_t n, const uint8_t* pat, int pat_bytes) {
  const int sbits = p.layout.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  if (p.packing == Packing::kPlain && pat_bytes > 0 && dbits == pat_bytes * 8) {
    // Whole-byte elements: the pattern repeated over the range.
    const size_t b0 = static_cast<size_t>(e0) * static_cast<size_t>(pat_bytes);
    const size_t nb = static_cast<size_t>(n) * static_cast<size_t>(pat_bytes);
    if (nb > 0) {
      std::memcpy(buf + b0, pat, static_cast<size_t>(pat_bytes));
      for (size_t done = static_cast<size_t>(pat_bytes); done < nb; done *= 2)
        std::memcpy(buf + b0 + done, buf + b0, std::min(done, nb - done));
    }
    std::memset(st + b0, kFill, nb);
    return;
  }
  for (uint32_t e = e0; e < e0 + n; ++e) {
    const uint64_t bit = ElementBit(p.packing, sbits, e);
    if (pat_bytes > 0 && (bit & 7) == 0 && dbits == pat_bytes * 8) {
      std::memcpy(buf + bit / 8, pat, static_cast<size_t>(pat_bytes));
    } else if (dbits > 64) {
      std::memset(buf + bit / 8, 0, static_cast<size_t>(dbits / 8));  // interleaved slices: zero fill only
    } else {
      PutBits(buf, bit, dbits, 0);
    }
    for (uint64_t b = bit / 8; b < CeilDiv(bit + dbits, 8); ++b) st[b] = kFill;
  }
}

void LoadRow(const Plan& p, const Row& row, const uint8_t* global, uint8_t* buf, uint8_t* st, const uint8_t* pat,
             int pat_bytes) {
  const TensorMapSpec& s = *p.spec;
  const CopyLayout& L = p.layout;
  const int gbits = L.global_element_bits;
  const int sbits = L.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  std::memset(buf, 0, L.row_bytes);
  std::memset(st, kUntouched, L.row_bytes);
  if (p.packing == Packing::kP64 || p.packing == Packing::kP32) {
    // The gap after every 16 packed elements is written with undefined contents.
    const uint32_t data = p.packing == Packing::kP64 ? 8 : 12;
    for (uint32_t g = 0; g < L.row_bytes; g += 16)
      for (uint32_t b = data; b < 16; ++b) st[g + b] = kPadding;
  }
  if (row.outer_oob) {
    FillElements(p, buf, st, 0, row.count, pat, pat_bytes);
    return;
  }
  const int64_t dim0 = static_cast<int64_t>(s.global_dim[0]);
  const int64_t c0 = row.coord[0];
  // Elements [lo, hi) are inside the tensor along dimension 0.
  int64_t lo = 0, hi = row.count;
  if (row.step0 == 1) {
    lo = std::clamp<int64_t>(-c0, 0, row.count);
    hi = std::clamp<int64_t>(dim0 - c0, lo, row.count);
  }
  if (row.step0 == 1 && p.packing == Packing::kPlain && gbits == sbits && (gbits & 7) == 0) {
    if (lo > 0) FillElements(p, buf, st, 0, static_cast<uint32_t>(lo), pat, pat_bytes);
    if (hi < row.count) FillElements(p, buf, st, static_cast<uint32_t>(hi), static_cast<uint32_t>(row.count - hi), pat, pat_bytes);
    if (hi > lo) {
      std::array<int64_t, kMaxRank> c = row.coord;
      c[0] = c0 + lo;
      const uint64_t gbyte = GlobalBit(s, p.rank, c, gbits) / 8;
      const size_t eb = static_cast<size_t>(gbits / 8);
      std::memcpy(buf + lo * eb, global + gbyte, static_cast<size_t>(hi - lo) * eb);
      std::memset(st + lo * eb, kData, static_cast<size_t>(hi - lo) * eb);
    }
    return;
  }
  // General path: strided dimension 0, sub-byte and packed types, element by element.
  std::array<int64_t, kMaxRank> c = row.coord;
  const uint64_t row_gbit = GlobalBit(s, p.rank, [&] { auto z = row.coord; z[0] = 0; return z; }(), gbits);
  for (uint32_t e = 0; e < row.count; ++e) {
    c[0] = c0 + static_cast<int64_t>(e) * row.step0;
    if (c[0] < 0 || c[0] >= dim0) {
      FillElements(p, buf, st, e, 1, pat, pat_bytes);
      continue;
    }
    const uint64_t gbit = row_gbit + static_cast<uint64_t>(c[0]) * static_cast<uint64_t>(gbits);
    const uint64_t sbit = ElementBit(p.packing, sbits, e);
    CopyBits(buf, sbit, global, gbit, dbits);
    for (uint64_t b = sbit / 8; b < CeilDiv(sbit + dbits, 8); ++b) st[b] = kData;
  }
}

// Measured on an H200 (docs/model.md M5): loads of TFLOAT32 and TFLOAT32_FTZ round every element to tf32
// (round to nearest even at bit 13, low 13 bits cleared; NaN becomes 0x7fffe000; no flush of denormals).
void RoundTf32(uint8_t* buf, const uint8_t* st, uint32_t n) {
  for (uint32_t i = 0; i + 4 <= n; i += 4) {
    if (st[i] != kData) continue;
    uint32_t v;
    std::memcpy(&v, buf + i, 4);
    if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x007fffffu) != 0) v = 0x7fffe000u;
    else v = (v + 0xfffu + ((v >> 13) & 1u)) & ~0x1fffu;
    std::memcpy(buf + i, &v, 4);
  }
}

// Copies `n` row bytes (a multiple of 8) between a row buffer and the image through the swizzle.
void ScatterRow(Swizzle sw, uint64_t dst, uint64_t row_off, const uint8_t* buf, const uint8_t* st, uint32_t n,
                uint8_t* img, uint8_t* img_st) {
  for (uint32_t k = 0; k < n; k += 8) {
    const uint64_t a = dst + row_off + k;
    const uint64_t off = SwizzleAddress(sw, a) - dst;
    const uint32_t len = std::min<uint32_t>(8, n - k);
    std::memcpy(img + off, buf + k, len);
    std::memcpy(img_st + off, st + k, len);
  }
}
void GatherRow(Swizzle sw, uint64_t src, uint64_t row_off, const uint8_t* smem, uint32_t n, uint8_t* buf) {
  for (uint32_t k = 0; k < n; k += 8) {
    const uint64_t a = src + row_off + k;
    const uint64_t off = SwizzleAddress(sw, a) - src;
    std::memcpy(buf + k, smem + off, std::min<uint32_t>(8, n - k));
  }
}

// ---- floating point helpers for reductions
uint16_t RoundToHalfLike(double v, int mant_bits, int exp_bits) {
  // Round-to-nearest-even conversion of a double to an IEEE-like format with `mant_bits` fraction bits and
  // `exp_bits` exponent bits (binary16: 10, 5; bfloat16: 7, 8). Exact for every value a sum of two such
  // numbers can take, since double has more than 2p+2 bits.
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint16_t exp_all = static_cast<uint16_t>((1u << exp_bits) - 1);
  uint16_t sign = std::signbit(v) ? static_cast<uint16_t>(1u << (mant_bits + exp_bits)) : 0;
  if (std::isnan(v)) return static_cast<uint16_t>((exp_all << mant_bits) | ((1u << mant_bits) - 1));  // 0x7fff
  double a = std::fabs(v);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | (exp_all << mant_bits));
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int unbiased = e - 1;
  const int min_normal = 1 - bias;
  int shift = unbiased < min_normal ? min_normal - mant_bits : unbiased - mant_bits;  // ulp exponent
  double scaled = std::ldexp(a, -shift);  // integer significand (possibly with fraction)
  double r = std::nearbyint(scaled);      // FE_TONEAREST (ties to even)
  uint64_t sig = static_cast<uint64_t>(r);
  // Re-normalise after rounding.
  int biased;
  if (unbiased < min_normal) {
    biased = 0;
    if (sig >= (1ull << mant_bits)) { biased = 1; sig -= (1ull << mant_bits); }
  } else {
    biased = unbiased + bias;
    if (sig >= (2ull << mant_bits)) { sig >>= 1; ++biased; }
    sig -= (1ull << mant_bits);
  }
  if (biased >= exp_all) return static_cast<uint16_t>(sign | (exp_all << mant_bits));
  return static_cast<uint16_t>(sign | (static_cast<uint16_t>(biased) << mant_bits) | static_cast<uint16_t>(sig));
}
double HalfLikeToDouble(uint16_t h, int mant_bits, int exp_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  const bool neg = (h >> (mant_bits + exp_bits)) & 1u;
  const uint32_t ex = (h >> mant_bits) & exp_all;
  const uint32_t m = h & ((1u << mant_bits) - 1);
  double v;
  if (ex == exp_all) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ex == 0) v = std::ldexp(static_cast<double>(m), 1 - bias - mant_bits);
  else v = std::ldexp(static_cast<double>(m | (1u << mant_bits)), static_cast<int>(ex) - bias - mant_bits);
  return neg ? -v : v;
}

template <typename T>
T Load(const uint8_t* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
template <typename T>
void Store(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

template <typename T>
bool IntReduce(ReduceOp op, uint8_t* dst, const uint8_t* src, bool inc_dec) {
  const T a = Load<T>(dst), b = Load<T>(src);
  T r;
  switch (op) {
    case ReduceOp::kAdd: r = static_cast<T>(a + b); break;
    case ReduceOp::kMin: r = std::min(a, b); break;
    case ReduceOp::kMax: r = std::max(a, b); break;
    case ReduceOp::kInc: if (!inc_dec) return false; r = a >= b ? T(0) : static_cast<T>(a + 1); break;
    case ReduceOp::kDec: if (!inc_dec) return false; r = (a == 0 || a > b) ? b : static_cast<T>(a - 1); break;
    case ReduceOp::kAnd: r = a & b; break;
    case ReduceOp::kOr: r = a | b; break;
    case ReduceOp::kXor: r = a ^ b; break;
    default: return false;
  }
  Store<T>(dst, r);
  return true;
}

// min/max of PTX: a NaN operand yields the other operand; -0 is below +0.
double PtxMin(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
double PtxMax(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

}  // namespace

std::string_view Name(CopyMode m) {
  const int i = static_cast<int>(m);
  return i >= 0 && i < kNumCopyModes ? kModeNames[i] : std::string_view("?");
}

bool Parse(std::string_view s, CopyMode* out) {
  if (!s.empty() && s[0] == '.') s.remove_prefix(1);
  struct A { std::string_view n; CopyMode m; };
  static constexpr A kAliases[] = {
      {"tile", CopyMode::kTile}, {"tiled", CopyMode::kTile}, {"tile::gather4", CopyMode::kTileGather4},
      {"gather4", CopyMode::kTileGather4}, {"tile::scatter4", CopyMode::kTileScatter4},
      {"scatter4", CopyMode::kTileScatter4}, {"im2col", CopyMode::kIm2col}, {"im2col::w", CopyMode::kIm2colW},
      {"im2col_w", CopyMode::kIm2colW}, {"im2col::w::128", CopyMode::kIm2colW128},
      {"im2col_w_128", CopyMode::kIm2colW128}, {"im2col_w128", CopyMode::kIm2colW128},
      {"im2col_no_offs", CopyMode::kIm2colNoOffs}, {"im2col_no_offs::w", CopyMode::kIm2colNoOffs},
  };
  for (const A& a : kAliases) {
    if (a.n == s) {
      *out = a.m;
      return true;
    }
  }
  return false;
}

CopyInstruction DefaultInstruction(const TensorMapSpec& spec) {
  CopyInstruction in;
  in.direction = spec.direction == Direction::kPrefetch ? Direction::kLoadCta : spec.direction;
  in.reduce_op = spec.reduce_op;
  const bool load = IsLoad(in.direction);
  switch (spec.mode) {
    case Mode::kTiled: in.mode = CopyMode::kTile; break;
    case Mode::kGather4: in.mode = load ? CopyMode::kTileGather4 : CopyMode::kTileScatter4; break;
    case Mode::kScatter4: in.mode = load ? CopyMode::kTileGather4 : CopyMode::kTileScatter4; break;
    case Mode::kIm2col: in.mode = load ? CopyMode::kIm2col : CopyMode::kIm2colNoOffs; break;
    case Mode::kIm2colW: in.mode = load ? CopyMode::kIm2colW : CopyMode::kIm2colNoOffs; break;
    case Mode::kIm2colW128: in.mode = CopyMode::kIm2colW128; break;
  }
  if (spec.Has(kFieldSmemAddress)) in.smem_address = spec.smem_address;
  return in;
}

int OobFillBytes(DataType t, OobFill fill, uint8_t out[8]) {
  const int bits = DataTypeBits(t);
  if (bits < 8) return 0;
  const int n = bits / 8;
  std::memset(out, 0, 8);
  if (fill == OobFill::kNanRequestZeroFma && IsFloat(t)) {
    // Measured on an H200 (docs/model.md M3): every float type is filled with the 16-bit pattern 0x7ff7
    // repeated: f16/bf16 0x7ff7, f32/tf32 0x7ff77ff7, f64 0x7ff77ff77ff77ff7 (all NaNs).
    for (int i = 0; i < n; i += 2) {
      out[i] = 0xf7;
      out[i + 1] = 0x7f;
    }
  }
  return n;
}

bool DescribeCopy(const TensorMapSpec& spec, const CopyInstruction& instr, CopyLayout* layout, std::string* error) {
  Plan p;
  if (!BuildPlan(spec, instr, &p, error)) return false;
  if (layout != nullptr) *layout = p.layout;
  return true;
}

bool ModelPlacements(const TensorMapSpec& spec, const CopyInstruction& instr, std::vector<ElementPlacement>* out,
                     CopyLayout* layout, std::string* error) {
  Plan p;
  if (!BuildPlan(spec, instr, &p, error)) return false;
  if (layout != nullptr) *layout = p.layout;
  out->clear();
  out->reserve(static_cast<size_t>(p.layout.rows) * p.layout.row_elements);
  const int sbits = p.layout.smem_element_bits;
  const uint64_t gbits = static_cast<uint64_t>(p.layout.global_element_bits);
  const int64_t dim0_bound = p.load ? static_cast<int64_t>(spec.global_dim[0])
                                    : static_cast<int64_t>(CeilDiv(spec.global_dim[0] * gbits, 128) * 128 / gbits);
  bool stopped = false;
  for (uint32_t r = 0; r < p.rows.size(); ++r) {
    const Row& row = p.rows[r];
    if (!p.load && p.stop_at_first_oob && row.outer_oob) stopped = true;
    for (uint32_t e = 0; e < row.count; ++e) {
      ElementPlacement ep;
      ep.coord = row.coord;
      ep.coord[0] = row.coord[0] + static_cast<int64_t>(e) * row.step0;
      ep.row = r;
      ep.index = e;
      ep.halo = row.halo;
      ep.oob = row.outer_oob || ep.coord[0] < 0 || ep.coord[0] >= dim0_bound;
      ep.skipped = stopped;
      ep.linear_bit = row.linear_offset * 8 + ElementBit(p.packing, sbits, e);
      const uint64_t lin_byte = ep.linear_bit / 8;
      ep.smem_bit = (SwizzleAddress(spec.swizzle, p.smem_address + lin_byte) - p.smem_address) * 8 + (ep.linear_bit & 7);
      out->push_back(ep);
    }
  }
  return true;
}

bool ModelLoad(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* global, size_t global_size,
               SmemImage* out, std::string* error) {
  Plan p;
  if (!BuildPlan(spec, instr, &p, error)) return false;
  if (!p.load) return Fail(error, StrCat("ModelLoad needs a load; direction is ", Name(instr.direction)));
  if (global_size < p.layout.required_global_bytes)
    return Fail(error, StrCat("the global buffer has ", global_size, " bytes; the tensor spans ", p.layout.required_global_bytes));
  const CopyLayout& L = p.layout;
  out->address = instr.smem_address;
  out->transaction_bytes = L.transaction_bytes;
  out->bytes.assign(L.footprint_bytes, 0);
  out->state.assign(L.footprint_bytes, kUntouched);
  uint8_t pat[8];
  const int pat_bytes = OobFillBytes(spec.data_type, spec.oob_fill, pat);
  std::vector<uint8_t> buf(L.row_bytes + 8), st(L.row_bytes + 8);
  const bool tf32 = spec.data_type == DataType::kTfloat32 || spec.data_type == DataType::kTfloat32Ftz;
  for (const Row& row : p.rows) {
    LoadRow(p, row, global, buf.data(), st.data(), pat, pat_bytes);
    if (tf32) RoundTf32(buf.data(), st.data(), L.row_bytes);
    ScatterRow(spec.swizzle, instr.smem_address, row.linear_offset, buf.data(), st.data(), L.row_bytes,
               out->bytes.data(), out->state.data());
  }
  return true;
}

bool ModelStore(const TensorMapSpec& spec, const CopyInstruction& instr, const uint8_t* smem, size_t smem_size,
                uint8_t* global, size_t global_size, std::vector<uint8_t>* written_mask, StoreResult* result,
                std::string* error) {
  Plan p;
  if (!BuildPlan(spec, instr, &p, error)) return false;
  if (p.load) return Fail(error, StrCat("ModelStore needs a store or reduction; direction is ", Name(instr.direction)));
  const CopyLayout& L = p.layout;
  if (global_size < L.required_global_bytes)
    return Fail(error, StrCat("the global buffer has ", global_size, " bytes; the tensor spans ", L.required_global_bytes));
  if (smem_size < L.footprint_bytes)
    return Fail(error, StrCat("the shared-memory source has ", smem_size, " bytes; the copy reads ", L.footprint_bytes));
  if (written_mask != nullptr) written_mask->assign(global_size, 0);
  StoreResult res;
  res.transaction_bytes = L.transaction_bytes;
  const int gbits = L.global_element_bits;
  const int sbits = L.smem_element_bits;
  const int dbits = ElementDataBits(p.packing, sbits);
  const bool reduce = instr.direction == Direction::kReduce;
  std::vector<uint8_t> buf(L.row_bytes + 8);
  bool stopped = false;
  // Measured on an H200 (docs/model.md M7): along dimension 0 a store or reduction writes every element of
  // the 16-byte chunk that holds the tensor's last element, so the bound is global_dim[0] rounded up to 16 bytes.
  const int64_t store_dim0 = static_cast<int64_t>(
      CeilDiv(spec.global_dim[0] * static_cast<uint64_t>(gbits), 128) * 128 / static_cast<uint64_t>(gbits));
  for (const Row& row : p.rows) {
    if (p.stop_at_first_oob && row.outer_oob) stopped = true;  // reading R9
    if (stopped || row.outer_oob) {
      res.elements_skipped += row.count;
      continue;
    }
    GatherRow(spec.swizzle, instr.smem_address, row.linear_offset, smem, L.row_bytes, buf.data());
    std::array<int64_t, kMaxRank> c = row.coord;
    c[0] = 0;
    const uint64_t row_gbit = GlobalBit(spec, p.rank, c, gbits);
    if (!reduce && row.step0 == 1 && p.packing == Packing::kPlain && (gbits & 7) == 0 && gbits == sbits) {
      // Fast path: one contiguous range of whole-byte elements.
      const int64_t lo = std::clamp<int64_t>(-row.coord[0], 0, row.count);
      const int64_t hi = std::clamp<int64_t>(store_dim0 - row.coord[0], lo, row.count);
      const size_t eb = static_cast<size_t>(gbits / 8);
      if (hi > lo) {
        const uint64_t b0 = row_gbit / 8 + static_cast<uint64_t>(row.coord[0] + lo) * eb;
        const size_t nb = static_cast<size_t>(hi - lo) * eb;
        std::memcpy(global + b0, buf.data() + static_cast<size_t>(lo) * eb, nb);
        if (written_mask != nullptr) std::memset(written_mask->data() + b0, 1, nb);
        res.bytes_written += nb;
        res.elements_written += static_cast<uint32_t>(hi - lo);
      }
      res.elements_skipped += static_cast<uint32_t>(row.count - (hi - lo));
      continue;
    }
    for (uint32_t e = 0; e < row.count; ++e) {
      const int64_t x0 = row.coord[0] + static_cast<int64_t>(e) * row.step0;
      if (x0 < 0 || x0 >= store_dim0) {
        ++res.elements_skipped;
        continue;
      }
      const uint64_t gbit = row_gbit + static_cast<uint64_t>(x0) * static_cast<uint64_t>(gbits);
      const uint64_t sbit = ElementBit(p.packing, sbits, e);
      if (reduce) {
        if ((gbit & 7) != 0 || (sbit & 7) != 0 || (gbits & 7) != 0)
          return Fail(error, "reductions of sub-byte types are not supported");
        if (!ReduceElement(spec.data_type, instr.reduce_op, global + gbit / 8, buf.data() + sbit / 8))
          return Fail(error, StrCat("cp.reduce.async.bulk.tensor .", Name(instr.reduce_op), " does not support ",
                                 PtxElemType(spec.data_type)));
      } else {
        CopyBits(global, gbit, buf.data(), sbit, dbits);
      }
      ++res.elements_written;
      const uint64_t b0 = gbit / 8, b1 = CeilDiv(gbit + gbits, 8);
      res.bytes_written += b1 - b0;
      if (written_mask != nullptr)
        for (uint64_t b = b0; b < b1; ++b) (*written_mask)[b] = 1;
    }
  }
  if (result != nullptr) *result = res;
  return true;
}

uint16_t FloatToHalf(double v) { return RoundToHalfLike(v, 10, 5); }
double HalfToFloat(uint16_t h) { return HalfLikeToDouble(h, 10, 5); }
uint16_t FloatToBf16(double v) { return RoundToHalfLike(v, 7, 8); }
double Bf16ToFloat(uint16_t h) { return HalfLikeToDouble(h, 7, 8); }

bool ReduceElement(DataType t, ReduceOp op, uint8_t* dst, const uint8_t* src) {
  const bool bitwise = op == ReduceOp::kAnd || op == ReduceOp::kOr || op == ReduceOp::kXor;
  switch (t) {
    case DataType::kUint32: return IntReduce<uint32_t>(op, dst, src, true);
    case DataType::kInt32:
      if (op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<int32_t>(op, dst, src, false);
    case DataType::kUint64:
      if (op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<uint64_t>(op, dst, src, false);
    case DataType::kInt64:
      if (op == ReduceOp::kAdd || op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<int64_t>(op, dst, src, false);
    case DataType::kFloat16: case DataType::kBfloat16: {
      if (op != ReduceOp::kAdd && op != ReduceOp::kMin && op != ReduceOp::kMax) return false;
      const bool half = t == DataType::kFloat16;
      const uint16_t ha = Load<uint16_t>(dst), hb = Load<uint16_t>(src);
      const double a = half ? HalfToFloat(ha) : Bf16ToFloat(ha);
      const double b = half ? HalfToFloat(hb) : Bf16ToFloat(hb);
      if (op == ReduceOp::kAdd) {
        const double r = a + b;
        Store<uint16_t>(dst, half ? FloatToHalf(r) : FloatToBf16(r));
      } else {
        // The result is one of the operands: keep its exact bits (NaN only when both are NaN).
        const double r = op == ReduceOp::kMin ? PtxMin(a, b) : PtxMax(a, b);
        uint16_t bits;
        if (std::isnan(r)) bits = 0x7fff;
        else if (!std::isnan(a) && r == a && std::signbit(r) == std::signbit(a)) bits = ha;
        else bits = hb;
        Store<uint16_t>(dst, bits);
      }
      return true;
    }
    case DataType::kFloat32: {
      if (bitwise) return IntReduce<uint32_t>(op, dst, src, false);
      if (op != ReduceOp::kAdd) return false;
      const float a = Load<float>(dst), b = Load<float>(src);
      float r = static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
      if (std::isnan(r)) r = std::numeric_limits<float>::quiet_NaN();
      uint32_t bits;
      std::memcpy(&bits, &r, 4);
      if (std::isnan(r)) bits = 0x7fffffffu;  // reading: canonical NaN of PTX
      Store<uint32_t>(dst, bits);
      return true;
    }
    default:
      if (bitwise && !IsSubByte(t)) {
        if (DataTypeBits(t) == 32) return IntReduce<uint32_t>(op, dst, src, false);
        if (DataTypeBits(t) == 64) return IntReduce<uint64_t>(op, dst, src, false);
      }
      return false;
  }
}

}  // namespace tmapgen::model
