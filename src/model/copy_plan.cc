#include "src/model/copy_plan.h"

#include <algorithm>

#include "src/model/swizzle.h"
#include "src/tmap/derived_facts.h"
#include "src/tmap/rule.h"
#include "src/tmap/validator.h"
#include "src/util/strings.h"

namespace tmapgen::model {
namespace internal {
namespace {

absl::Status Fail(const std::string& msg) { return absl::InvalidArgumentError(ToAbsl(msg)); }
absl::Status NotModelled(const std::string& msg) { return absl::UnimplementedError(ToAbsl(msg)); }

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

}  // namespace

absl::Status BuildPlan(const TensorMapSpec& spec, const CopyInstruction& in, Plan* plan) {
  plan->spec = &spec;
  plan->rows.clear();
  CopyLayout& L = plan->layout;
  L = CopyLayout{};
  L.mode = in.mode;
  const int rank = static_cast<int>(spec.rank);
  plan->rank = rank;
  if (rank < 1 || rank > kMaxRank) return Fail(StrCat("tensor_rank ", spec.rank, " is not 1 to 5"));

  // ---- direction and mode against the map
  if (in.direction == Direction::kPrefetch)
    return NotModelled("direction prefetch writes no shared memory: the model covers loads, stores and reductions");
  plan->load = IsLoad(in.direction);
  if (static_cast<int>(in.mode) >= kNumCopyModes) return Fail("unknown copy mode");
  if (plan->load && IsModeStoreOnly(in.mode))
    return Fail(StrCat(Name(in.mode), " is a store mode; a load uses .tile, .tile::gather4, .im2col, .im2col::w or .im2col::w::128"));
  if (!plan->load && IsModeLoadOnly(in.mode))
    return Fail(StrCat(Name(in.mode), " is a load mode; stores and reductions use .tile, .tile::scatter4 or .im2col_no_offs"));
  switch (in.mode) {
    case CopyMode::kTile:
      if (spec.mode != Mode::kTiled) return Fail(StrCat(".tile needs a tiled map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kTileGather4: case CopyMode::kTileScatter4:
      if (EncoderFor(spec.mode) != Encoder::kTiled)
        return Fail(StrCat(Name(in.mode), " needs a 2D tiled map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2col:
      if (spec.mode != Mode::kIm2col) return Fail(StrCat(".im2col needs an im2col map; this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2colW: case CopyMode::kIm2colW128:
      if (!IsWideMode(spec.mode))
        return Fail(StrCat(Name(in.mode), " needs an im2col wide map (cuTensorMapEncodeIm2colWide); this map is ", Name(spec.mode)));
      break;
    case CopyMode::kIm2colNoOffs:
      if (spec.mode != Mode::kIm2col && spec.mode != Mode::kIm2colW)
        return Fail(StrCat(".im2col_no_offs needs an im2col or im2col::w map; this map is ", Name(spec.mode)));
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
  if (!val.valid) return Fail(ValidationError(v, val));
  if (in.smem_address % 128 != 0)
    return Fail(StrCat("smem_address ", Hex(in.smem_address), " is not 128-byte aligned"));

  // ---- instruction operands
  if (!plan->load) {
    // PTX ISA 9.7.9.25.5.1: the .global.shared::cta direction needs non-negative tensorCoords.
    const int ncoords = IsGatherScatter(v.mode) ? 1 : rank;
    for (int d = 0; d < ncoords; ++d)
      if (in.coords[d] < 0)
        return Fail(StrCat("coords[", d, "] = ", in.coords[d], ": stores and reductions need non-negative coordinates"));
    if (IsGatherScatter(v.mode))
      for (int k = 0; k < 4; ++k)
        if (in.rows[k] < 0) return Fail(StrCat("rows[", k, "] = ", in.rows[k], ": scatter4 needs non-negative row indices"));
  }
  {
    // Measured on an H200 (docs/model.md M2): a box whose start along dimension 0 is not 16-byte aligned
    // raises an illegal-instruction error (PTX ISA 5.5.3.1: "the address of the bounding box must be aligned
    // to 16 bytes"). Dimension 0 is the channel coordinate in im2col modes and the column in gather4/scatter4.
    // Interleaved maps count dimension 0 in whole 16/32-byte slices (M6), so every coordinate is aligned.
    const int64_t bits = static_cast<int64_t>(in.coords[0]) * DataTypeBits(spec.data_type);
    if (spec.interleave == Interleave::kNone && bits % 128 != 0)
      return Fail(StrCat("coords[0] = ", in.coords[0], ": the box must start on a 16-byte boundary along dimension 0 (",
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
      return NotModelled(StrCat("interleaved layouts (", FullName(spec.interleave), ") are modelled for .tile loads and stores "
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
        return Fail(StrCat("coords[", i + 1, "] = ", in.coords[i + 1], ": the filter base point lies outside the bounding box along ",
                               kDim[i], " [", lo, ", ", hi, "]; the GPU raises an illegal-instruction error"));
    }
  }
  if (in.mode == CopyMode::kIm2col) {
    const uint32_t limit = rank == 3 ? 65535u : rank == 4 ? 255u : 31u;
    for (int i = 0; i < rank - 2; ++i)
      if (in.im2col_offsets[i] > limit)
        return Fail(StrCat("im2col_offsets[", i, "] = ", in.im2col_offsets[i], " exceeds ", limit, " for a ", rank, "D tensor"));
  } else {
    for (int i = 0; i < kMaxRank - 2; ++i)
      if (in.im2col_offsets[i] != 0)
        return Fail(StrCat(Name(in.mode), " takes no im2col offsets (im2col_offsets[", i, "] = ", in.im2col_offsets[i], ")"));
  }
  if (in.mode == CopyMode::kIm2colW || in.mode == CopyMode::kIm2colW128) {
    const uint32_t halo_limit = in.mode == CopyMode::kIm2colW ? 512 : 32;
    if (in.w_halo >= halo_limit) return Fail(StrCat("w_halo = ", in.w_halo, " must be below ", halo_limit, " for ", Name(in.mode)));
    if (in.w_offset >= 32) return Fail(StrCat("w_offset = ", in.w_offset, " must be below 32"));
  } else if (in.w_halo != 0 || in.w_offset != 0) {
    return Fail(StrCat(Name(in.mode), " takes no w_halo / w_offset"));
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
  return absl::OkStatus();
}

}  // namespace internal

using internal::BuildPlan;
using internal::CeilDiv;
using internal::ElementBit;
using internal::Plan;
using internal::Row;

absl::StatusOr<CopyLayout> DescribeCopy(const TensorMapSpec& spec, const CopyInstruction& instr) {
  Plan p;
  if (absl::Status st = BuildPlan(spec, instr, &p); !st.ok()) return st;
  return p.layout;
}

absl::Status ModelPlacements(const TensorMapSpec& spec, const CopyInstruction& instr, std::vector<ElementPlacement>* out,
                             CopyLayout* layout) {
  Plan p;
  if (absl::Status st = BuildPlan(spec, instr, &p); !st.ok()) return st;
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
  return absl::OkStatus();
}
}  // namespace tmapgen::model
