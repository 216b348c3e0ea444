#include "src/desc/map_consistency.h"

namespace tmapgen::desc {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

}  // namespace

bool ElemTypeForMap(DataType t, ElemType* out, bool* padded) {
  *padded = false;
  switch (t) {
    case DataType::kFloat16: *out = ElemType::kF16; return true;
    case DataType::kBfloat16: *out = ElemType::kBF16; return true;
    case DataType::kFloat32: case DataType::kFloat32Ftz: case DataType::kTfloat32: case DataType::kTfloat32Ftz:
      *out = ElemType::kTF32;
      return true;
    case DataType::kUint8: *out = ElemType::kU8; return true;  // the layout is any 8-bit type's (TypeFromMapNote)
    case DataType::k16U4Align8B: *out = ElemType::kE2M1; return true;
    case DataType::k16U4Align16B: *out = ElemType::kE2M1; *padded = true; return true;
    case DataType::k16U6Align16B: *out = ElemType::kE2M3; *padded = true; return true;
    default: return false;
  }
}

std::string_view TypeFromMapNote(DataType t, DescArch arch) {
  const bool wg = arch == DescArch::kWgmma;
  switch (t) {
    case DataType::kFloat16: case DataType::kBfloat16: case DataType::kTfloat32: return "";
    case DataType::kFloat32: case DataType::kFloat32Ftz: case DataType::kTfloat32Ftz:
      return wg ? "the map's 32-bit elements, read as .tf32 by wgmma, its only 32-bit operand type"
                : "the map's 32-bit elements, read as tf32 by .kind::tf32, the only 32-bit operand type";
    case DataType::kUint8:
      return wg ? "the map says u8: 8-bit elements whose type the instruction decides: wgmma .atype/.btype e4m3 or e5m2, "
                  "or u8 or s8 for integer wgmma"
                : "the map says u8: 8-bit elements whose type the MMA decides: the instruction descriptor's A/B type "
                  "fields, e4m3, e5m2, ... under .kind::f8f6f4, u8 or s8 under .kind::i8";
    case DataType::k16U4Align8B: case DataType::k16U4Align16B:
      return "the map's 4-bit elements, read as e2m1, the one 4-bit type of .kind::f8f6f4, .kind::mxf4 and .kind::mxf4nvf4";
    case DataType::k16U6Align16B:
      return "the map's 6-bit elements, padded to 8 bits: e2m3 or e3m2 is the choice of the instruction descriptor's "
             "A/B type fields under .kind::f8f6f4 and .kind::mxf8f6f4; the layout is the same";
    default: return "";
  }
}

void DeriveFromMap(const TensorMapSpec& map, const MapUse& use, MapDerivation* out) {
  MapDerivation& d = *out;
  d = MapDerivation();
  d.map = map;
  d.use = use;
  d.map_facts = ComputeDerivedFacts(map);
  d.interleaved = map.interleave != Interleave::kNone;

  ElemType map_type = ElemType::kBF16;
  bool map_padded = false;
  d.type_known = ElemTypeForMap(map.data_type, &map_type, &map_padded);
  OperandLayout& l = d.layout;
  l.arch = use.arch;
  l.operand = use.operand;
  l.major = use.major;
  if (use.has_type) {
    l.type = use.type;
    l.padded = use.type == ElemType::kE2M1 && map_padded;
    d.type_bits_agree = SmemBits(l.type, l.padded) == d.map_facts.smem_element_bits;
  } else {
    l.type = map_type;
    l.padded = map_padded;
    d.type_inferred = true;
  }

  DescSwizzle sw = DescSwizzle::kNone;
  const bool mapped = DescSwizzleForMap(map.swizzle, &sw);
  d.swizzle_ok = mapped && LayoutTypeValue(use.arch, sw) >= 0;
  l.swizzle = mapped ? sw : DescSwizzle::kNone;

  d.inner_bytes = d.map_facts.inner_box_bytes;
  const uint32_t rank = map.rank > kMaxRank ? kMaxRank : map.rank;
  if (IsIm2colMode(map.mode)) {
    d.rows = map.mode == Mode::kIm2colW128 ? 128 : map.pixels_per_column;
  } else if (IsGatherScatter(map.mode)) {
    d.rows = 4;
  } else {
    d.rows = rank >= 2 ? map.box_dim[1] : 1;
    d.slabs = rank >= 3 && map.box_dim[2] > 0 ? map.box_dim[2] : 1;
  }
  const uint64_t bits = static_cast<uint64_t>(SmemBits(l.type, l.padded));
  const uint64_t inner_elems = bits == 0 ? 0 : d.inner_bytes * 8 / bits;
  const uint64_t contig = inner_elems * d.slabs;
  const uint32_t contig32 = static_cast<uint32_t>(contig > UINT32_MAX ? UINT32_MAX : contig);
  if (use.major == Major::kK) {
    l.k = contig32;
    l.mn = d.rows;
  } else {
    l.mn = contig32;
    l.k = d.rows;
  }
  if (use.has_smem_address) {
    d.smem_known = true;
    d.dst = use.smem_address;
  } else if (map.Has(kFieldSmemAddress)) {
    d.smem_known = true;
    d.dst = map.smem_address;
  }
  l.smem_address = d.dst;
  l.mma_k = use.mma_k;
  l.has_target = use.has_target;
  l.target = use.target;
  d.facts = ComputeLayoutFacts(l);
  d.desc = BuildSmemDesc(l, d.facts);
}

uint64_t TmaChunkAddress(const MapDerivation& d, uint32_t row, uint32_t col) {
  const uint64_t cpr = d.inner_bytes / 16 == 0 ? 1 : d.inner_bytes / 16;
  const uint64_t slab = col / cpr, within = col % cpr;
  const uint64_t pre = slab * (uint64_t{d.rows} * d.inner_bytes) + uint64_t{row} * d.inner_bytes + within * 16;
  return ApplyMapSwizzle(d.map.swizzle, d.dst + pre);
}

uint64_t MmaChunkAddress(const SmemDesc& desc, Major major, DescSwizzle fallback_swizzle, uint64_t slab_pitch,
                         uint32_t row, uint32_t col) {
  DescSwizzle sw = fallback_swizzle;
  if (!desc.swizzle(&sw)) sw = fallback_swizzle;
  const uint64_t start = desc.start_bytes();
  const uint64_t linear = start + CanonicalOffset(major, sw, desc.lbo_bytes(), desc.sbo_bytes(), slab_pitch, row,
                                                  uint64_t{col} * 16);
  return ApplyDescSwizzle(sw, linear, start & ~uint64_t{127}, desc.base_offset());
}

ChunkGrid FirstSliceGrid(const OperandLayout& l, const LayoutFacts& f) {
  ChunkGrid g;
  if (l.major == Major::kK) {
    g.rows = l.mn;
    g.cols = static_cast<uint32_t>(CeilDiv(f.kstep_bytes, 16));
  } else {
    g.rows = f.kstep_rows < l.k ? f.kstep_rows : l.k;
    g.cols = static_cast<uint32_t>(CeilDiv(f.contiguous_bytes, 16));
  }
  return g;
}

ChunkCompare CompareChunks(const MapDerivation& d, const SmemDesc& desc) {
  ChunkCompare c;
  if (d.interleaved || d.inner_bytes == 0 || d.inner_bytes % 16 != 0 || !d.type_bits_agree) return c;
  const ChunkGrid g = FirstSliceGrid(d.layout, d.facts);
  if (g.rows == 0 || g.cols == 0) return c;
  // Stay within what the box holds along the contiguous dimension.
  const uint64_t box_cols = d.inner_bytes / 16 * d.slabs;
  const uint32_t cols = g.cols < box_cols ? g.cols : static_cast<uint32_t>(box_cols);
  const uint32_t rows = g.rows < d.rows ? g.rows : d.rows;
  const uint64_t slab_pitch = CeilDiv(d.layout.mn, 8) * desc.sbo_bytes();
  c.compared = true;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t col = 0; col < cols; ++col) {
      const uint64_t mma = MmaChunkAddress(desc, d.layout.major, d.layout.swizzle, slab_pitch, r, col);
      const uint64_t tma = TmaChunkAddress(d, r, col);
      ++c.total;
      if (mma != tma) {
        if (c.mismatched == 0) {
          c.first_row = r;
          c.first_col = col;
          c.first_mma = mma;
          c.first_tma = tma;
        }
        ++c.mismatched;
      }
    }
  }
  return c;
}

}  // namespace tmapgen::desc
