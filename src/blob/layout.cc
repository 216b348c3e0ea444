#include "src/blob/layout.h"

#include <cstring>
#include <string>

namespace tmapgen::blob {
namespace {

constexpr uint8_t kIm2colAny = kLayoutIm2colAny;
constexpr uint8_t kAll = kLayoutAll;

// Helpers for the table rows.
constexpr MapField F(std::string_view name, Ref ref, int index, uint16_t lo, uint8_t width, FieldCoding e, Kind k,
                     uint8_t layouts, uint8_t min_rank, std::string_view meaning) {
  return MapField{name, ref, static_cast<int8_t>(index), {Piece{lo, width}, Piece{0, 0}}, e, k, layouts, min_rank,
                  meaning};
}
constexpr MapField F2(std::string_view name, Ref ref, int index, uint16_t lo, uint8_t width, uint16_t lo2,
                      uint8_t width2, FieldCoding e, Kind k, uint8_t layouts, uint8_t min_rank,
                      std::string_view meaning) {
  return MapField{name, ref, static_cast<int8_t>(index), {Piece{lo, width}, Piece{lo2, width2}}, e, k, layouts,
                  min_rank, meaning};
}

constexpr Kind P = Kind::kParam;
constexpr Kind D = Kind::kDerived;
constexpr Kind R = Kind::kRecognised;

// The layout. Evidence for every row: docs/tensormap-layout.md.
constexpr MapField kTable[] = {
    F("global_address", Ref::kGlobalAddress, -1, 0, 57, FieldCoding::kPlain, P, kAll, 0,
      "globalAddress as passed (the driver rejects addresses of 2^57 and above, and unaligned ones)"),
    F("im2col", Ref::kIm2col, -1, 64, 1, FieldCoding::kFlag, P, kAll, 0,
      "1 for maps from cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide, 0 for tiled maps"),
    F("tensor_rank", Ref::kRank, -1, 68, 3, FieldCoding::kMinusOne, P, kAll, 0, "tensorRank - 1"),
    F("tensor_data_type", Ref::kDataType, -1, 71, 4, FieldCoding::kDataTypeCode, P, kAll, 0,
      "the driver's data-type code (not the cuda.h value; TFLOAT32 types use the FLOAT32 codes plus bit 80)"),
    F("interleave", Ref::kInterleave, -1, 75, 2, FieldCoding::kPlain, P, kAll, 0, "CUtensorMapInterleave value"),
    F("swizzle", Ref::kSwizzle, -1, 77, 2, FieldCoding::kPlain, P, kAll, 0,
      "CUtensorMapSwizzle value (NONE, 32B, 64B, 128B; the 128B_ATOM_* modes were never written)"),
    F("oob_fill", Ref::kOobFill, -1, 79, 1, FieldCoding::kFlag, P, kAll, 0, "CUtensorMapFloatOOBfill value"),
    F("tf32", Ref::kTf32, -1, 80, 1, FieldCoding::kFlag, P, kAll, 0,
      "1 for TFLOAT32 and TFLOAT32_FTZ (part of tensor_data_type)"),
    F("l2_promotion", Ref::kL2Promotion, -1, 81, 2, FieldCoding::kPlain, P, kAll, 0, "CUtensorMapL2promotion value"),
    F("bit85", Ref::kBit85, -1, 85, 1, FieldCoding::kFlag, R, kAll, 0,
      "never written by the measured sm_90 driver; Blackwell drivers up to 13.1 set it (an OOB address mode that "
      "may read 128 KiB from the base) and CUTLASS (commit b7ecaa605), CCCL (#6985) and Triton (#9235) clear it for "
      "small tensors (triton-lang/triton#10442, quoting the 595.71.05 release notes)"),
    F2("global_strides[0]", Ref::kGlobalStride, 0, 96, 32, 224, 4, FieldCoding::kUnits16, P, kAll, 2,
       "globalStrides[0] / 16 (36 bits: low 32 bits here, high 4 bits at 224)"),
    F2("global_strides[1]", Ref::kGlobalStride, 1, 128, 32, 228, 4, FieldCoding::kUnits16, P, kAll, 3,
       "globalStrides[1] / 16 (high 4 bits at 228)"),
    F2("global_strides[2]", Ref::kGlobalStride, 2, 160, 32, 232, 4, FieldCoding::kUnits16, P, kAll, 4,
       "globalStrides[2] / 16 (high 4 bits at 232)"),
    F2("global_strides[3]", Ref::kGlobalStride, 3, 192, 32, 236, 4, FieldCoding::kUnits16, P, kAll, 5,
       "globalStrides[3] / 16 (high 4 bits at 236)"),
    F("global_dim[0]", Ref::kGlobalDim, 0, 256, 32, FieldCoding::kMinusOne, P, kAll, 1, "globalDim[0] - 1"),
    F("global_dim[1]", Ref::kGlobalDim, 1, 288, 32, FieldCoding::kMinusOne, P, kAll, 2, "globalDim[1] - 1"),
    F("global_dim[2]", Ref::kGlobalDim, 2, 320, 32, FieldCoding::kMinusOne, P, kAll, 3, "globalDim[2] - 1"),
    F("global_dim[3]", Ref::kGlobalDim, 3, 352, 32, FieldCoding::kMinusOne, P, kAll, 4, "globalDim[3] - 1"),
    F("global_dim[4]", Ref::kGlobalDim, 4, 384, 32, FieldCoding::kMinusOne, P, kAll, 5, "globalDim[4] - 1"),
    F("element_strides[0]", Ref::kElementStride, 0, 416, 3, FieldCoding::kMinusOne, P, kAll, 1,
      "elementStrides[0] - 1 (written even where the driver ignores it)"),
    F("element_strides[1]", Ref::kElementStride, 1, 419, 3, FieldCoding::kMinusOne, P, kAll, 2, "elementStrides[1] - 1"),
    F("element_strides[2]", Ref::kElementStride, 2, 422, 3, FieldCoding::kMinusOne, P, kAll, 3, "elementStrides[2] - 1"),
    F("element_strides[3]", Ref::kElementStride, 3, 425, 3, FieldCoding::kMinusOne, P, kAll, 4, "elementStrides[3] - 1"),
    F("element_strides[4]", Ref::kElementStride, 4, 428, 3, FieldCoding::kMinusOne, P, kAll, 5, "elementStrides[4] - 1"),
    F("box_dim[0]", Ref::kBoxDim, 0, 440, 8, FieldCoding::kMinusOne, P, kLayoutTiled, 1, "boxDim[0] - 1"),
    F("channels_per_pixel", Ref::kChannels, -1, 440, 8, FieldCoding::kMinusOne, P, kIm2colAny, 0,
      "channelsPerPixel - 1"),
    F("box_dim[1]", Ref::kBoxDim, 1, 448, 8, FieldCoding::kMinusOne, P, kLayoutTiled, 2, "boxDim[1] - 1"),
    F("pixel_box_lower_corner[0]", Ref::kLowerCorner, 0, 448, 16, FieldCoding::kSigned, P, kLayoutIm2col3, 0,
      "pixelBoxLowerCorner[0] (W), 16-bit two's complement (im2col::w: pixelBoxLowerCornerWidth)"),
    F("pixel_box_lower_corner[0]", Ref::kLowerCorner, 0, 448, 8, FieldCoding::kSigned, P, kLayoutIm2col4, 0,
      "pixelBoxLowerCorner[0] (W), 8-bit two's complement (im2col::w: pixelBoxLowerCornerWidth)"),
    F("pixel_box_lower_corner[1]", Ref::kLowerCorner, 1, 456, 8, FieldCoding::kSigned, P, kLayoutIm2col4, 0,
      "pixelBoxLowerCorner[1] (H), 8-bit two's complement"),
    F("pixel_box_lower_corner[0]", Ref::kLowerCorner, 0, 448, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxLowerCorner[0] (W), 5-bit two's complement (im2col::w: pixelBoxLowerCornerWidth)"),
    F("pixel_box_lower_corner[1]", Ref::kLowerCorner, 1, 453, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxLowerCorner[1] (H), 5-bit two's complement"),
    F("pixel_box_lower_corner[2]", Ref::kLowerCorner, 2, 458, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxLowerCorner[2] (D), 5-bit two's complement"),
    F("box_dim[2]", Ref::kBoxDim, 2, 456, 8, FieldCoding::kMinusOne, P, kLayoutTiled, 3, "boxDim[2] - 1"),
    F("box_dim[3]", Ref::kBoxDim, 3, 464, 8, FieldCoding::kMinusOne, P, kLayoutTiled, 4, "boxDim[3] - 1"),
    F("pixel_box_upper_corner[0]", Ref::kUpperCorner, 0, 464, 16, FieldCoding::kSigned, P, kLayoutIm2col3, 0,
      "pixelBoxUpperCorner[0] (W), 16-bit two's complement (im2col::w: pixelBoxUpperCornerWidth)"),
    F("pixel_box_upper_corner[0]", Ref::kUpperCorner, 0, 464, 8, FieldCoding::kSigned, P, kLayoutIm2col4, 0,
      "pixelBoxUpperCorner[0] (W), 8-bit two's complement (im2col::w: pixelBoxUpperCornerWidth)"),
    F("pixel_box_upper_corner[1]", Ref::kUpperCorner, 1, 472, 8, FieldCoding::kSigned, P, kLayoutIm2col4, 0,
      "pixelBoxUpperCorner[1] (H), 8-bit two's complement"),
    F("pixel_box_upper_corner[0]", Ref::kUpperCorner, 0, 464, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxUpperCorner[0] (W), 5-bit two's complement (im2col::w: pixelBoxUpperCornerWidth)"),
    F("pixel_box_upper_corner[1]", Ref::kUpperCorner, 1, 469, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxUpperCorner[1] (H), 5-bit two's complement"),
    F("pixel_box_upper_corner[2]", Ref::kUpperCorner, 2, 474, 5, FieldCoding::kSigned, P, kLayoutIm2col5, 0,
      "pixelBoxUpperCorner[2] (D), 5-bit two's complement"),
    F("box_dim[4]", Ref::kBoxDim, 4, 472, 8, FieldCoding::kMinusOne, P, kLayoutTiled, 5, "boxDim[4] - 1"),
    F("pixels_per_column", Ref::kPixels, -1, 480, 10, FieldCoding::kMinusOne, P, kIm2colAny, 0,
      "pixelsPerColumn - 1 (written as passed, also in im2col::w::128 mode)"),
    F("box_bytes", Ref::kBoxBytes, -1, 512, 18, FieldCoding::kBoxBytes, D, kAll, 0,
      "bytes of one box: tiled element bytes x prod floor(boxDim[i] / elementStrides[i]); im2col element bytes x "
      "channelsPerPixel x pixelsPerColumn (at most 233,472 seen: the driver rejects larger boxes)"),
    F("swizzle_repeat", Ref::kSwizzleRepeat, -1, 580, 7, FieldCoding::kSwizzleRepeat, D, kAll, 0,
      "the swizzle pattern's repeat in bytes / 16: NONE 1 (16 B), 32B 16 (256 B), 64B 32 (512 B), 128B 64 (1024 B)"),
};
constexpr int kNumFields = static_cast<int>(sizeof(kTable) / sizeof(kTable[0]));

std::array<uint64_t, 16> ComputeNeverWritten() {
  std::array<uint64_t, 16> m{};
  for (auto& w : m) w = ~uint64_t{0};
  for (const MapField& f : kTable)
    for (const Piece& p : f.pieces)
      for (int b = p.lo; b < p.lo + p.width; ++b) m[b / 64] &= ~(uint64_t{1} << (b % 64));
  return m;
}

// cuda.h value -> driver code (and TF32 flag). -1: unknown.
constexpr int8_t kCodeOf[16] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 7, 8, -1, -1, -1};

}  // namespace

const MapField* Fields(int* n) {
  *n = kNumFields;
  return kTable;
}
const MapField& Im2colField() { return kTable[1]; }
const MapField& RankField() { return kTable[2]; }

int FieldWidth(const MapField& f) { return f.pieces[0].width + f.pieces[1].width; }

bool GetBit(const MapBytes& m, int bit) { return (m[bit >> 3] >> (bit & 7)) & 1; }

namespace {
uint64_t GatherPiece(const MapBytes& m, Piece p) {
  // Read the 64-bit word(s) spanning the piece.
  const int word = p.lo / 64, off = p.lo % 64;
  uint64_t lo = 0;
  for (int i = 0; i < 8; ++i) lo |= uint64_t{m[word * 8 + i]} << (8 * i);
  uint64_t v = lo >> off;
  if (off + p.width > 64 && word < 15) {
    uint64_t hi = 0;
    for (int i = 0; i < 8; ++i) hi |= uint64_t{m[word * 8 + 8 + i]} << (8 * i);
    v |= hi << (64 - off);
  }
  return p.width >= 64 ? v : v & ((uint64_t{1} << p.width) - 1);
}
void ScatterPiece(MapBytes* m, Piece p, uint64_t raw) {
  for (int i = 0; i < p.width; ++i) {
    const int b = p.lo + i;
    const uint8_t mask = static_cast<uint8_t>(1u << (b & 7));
    if ((raw >> i) & 1) (*m)[b >> 3] |= mask; else (*m)[b >> 3] &= static_cast<uint8_t>(~mask);
  }
}
}  // namespace

// The map is 16 little-endian words; on a little-endian host that is a plain copy.
MapWords ToMapWords(const MapBytes& m) {
  MapWords w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(w.data(), m.data(), sizeof(w));
#else
  for (int i = 0; i < 16; ++i) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | m[i * 8 + b];
    w[i] = v;
  }
#endif
  return w;
}

MapBytes FromMapWords(const MapWords& w) {
  MapBytes m;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(m.data(), w.data(), sizeof(m));
#else
  for (int i = 0; i < 16; ++i)
    for (int b = 0; b < 8; ++b) m[i * 8 + b] = static_cast<uint8_t>(w[i] >> (8 * b));
#endif
  return m;
}

namespace {
void CoverWords(MapWords* w, const MapField& f) {
  MapWords ones{};
  ScatterWords(&ones, f, ~uint64_t{0});
  for (int i = 0; i < 16; ++i) (*w)[i] |= ones[i];
}

LayoutPlan MakePlan(uint8_t layout, uint32_t rank) {
  LayoutPlan p;
  for (int k = 0; k < kNumFields; ++k) {
    const MapField& f = kTable[k];
    if (f.kind == Kind::kRecognised) continue;
    const bool active = layout == 0 ? (f.layouts == kLayoutAll && f.min_rank == 0 && f.kind == Kind::kParam)
                                    : IsActive(f, layout, rank);
    if (!active) continue;
    p.index[p.count++] = static_cast<uint8_t>(k);
    CoverWords(&p.covered, f);
  }
  return p;
}

struct Plans {
  LayoutPlan header;
  LayoutPlan by[4][6];  // [tiled, im2col3, im2col4, im2col5][rank 0..5]
  LayoutPlan recognised;
};

const Plans& AllPlans() {
  static const Plans plans = [] {
    Plans ps;
    ps.header = MakePlan(0, 0);
    const uint8_t layouts[4] = {kLayoutTiled, kLayoutIm2col3, kLayoutIm2col4, kLayoutIm2col5};
    for (int l = 0; l < 4; ++l)
      for (uint32_t r = 0; r <= 5; ++r) ps.by[l][r] = MakePlan(layouts[l], r);
    for (int k = 0; k < kNumFields; ++k)
      if (kTable[k].kind == Kind::kRecognised) {
        ps.recognised.index[ps.recognised.count++] = static_cast<uint8_t>(k);
        CoverWords(&ps.recognised.covered, kTable[k]);
      }
    return ps;
  }();
  return plans;
}
}  // namespace

const LayoutPlan& PlanFor(uint8_t layout, uint32_t rank) {
  const Plans& ps = AllPlans();
  if (rank > 5) return ps.header;
  switch (layout) {
    case kLayoutTiled: return ps.by[0][rank];
    case kLayoutIm2col3: return ps.by[1][rank];
    case kLayoutIm2col4: return ps.by[2][rank];
    case kLayoutIm2col5: return ps.by[3][rank];
    default: return ps.header;
  }
}

const LayoutPlan& RecognisedPlan() { return AllPlans().recognised; }

uint64_t Gather(const MapBytes& m, const MapField& f) {
  uint64_t v = GatherPiece(m, f.pieces[0]);
  if (f.pieces[1].width) v |= GatherPiece(m, f.pieces[1]) << f.pieces[0].width;
  return v;
}

void Scatter(MapBytes* m, const MapField& f, uint64_t raw) {
  ScatterPiece(m, f.pieces[0], raw);
  if (f.pieces[1].width) ScatterPiece(m, f.pieces[1], f.pieces[0].width >= 64 ? 0 : raw >> f.pieces[0].width);
}

uint8_t LayoutFor(bool im2col, uint32_t rank) {
  if (rank < 1 || rank > 5) return 0;
  if (!im2col) return kLayoutTiled;
  switch (rank) {
    case 3: return kLayoutIm2col3;
    case 4: return kLayoutIm2col4;
    case 5: return kLayoutIm2col5;
    default: return 0;
  }
}

std::string_view LayoutName(uint8_t layout) {
  switch (layout) {
    case kLayoutTiled: return "tiled";
    case kLayoutIm2col3: return "im2col (rank 3)";
    case kLayoutIm2col4: return "im2col (rank 4)";
    case kLayoutIm2col5: return "im2col (rank 5)";
    default: return "unknown";
  }
}

bool IsActive(const MapField& f, uint8_t layout, uint32_t rank) {
  return (f.layouts & layout) != 0 && rank >= f.min_rank;
}

bool DataTypeCode(uint8_t cuda_value, uint32_t* code, bool* tf32) {
  if (cuda_value >= 16 || kCodeOf[cuda_value] < 0) return false;
  *code = static_cast<uint32_t>(kCodeOf[cuda_value]);
  *tf32 = cuda_value == 11 || cuda_value == 12;
  return true;
}

bool DataTypeFromCode(uint32_t code, bool tf32, uint8_t* cuda_value) {
  for (uint8_t v = 0; v < 16; ++v) {
    uint32_t c = 0;
    bool t = false;
    if (DataTypeCode(v, &c, &t) && c == code && t == tf32) {
      *cuda_value = v;
      return true;
    }
  }
  return false;
}

std::string_view FieldCodingText(FieldCoding e) {
  switch (e) {
    case FieldCoding::kPlain: return "value";
    case FieldCoding::kMinusOne: return "value - 1";
    case FieldCoding::kUnits16: return "bytes / 16";
    case FieldCoding::kSigned: return "two's complement";
    case FieldCoding::kDataTypeCode: return "driver data-type code";
    case FieldCoding::kFlag: return "flag";
    case FieldCoding::kBoxBytes: return "derived: box bytes";
    case FieldCoding::kSwizzleRepeat: return "derived: repeat bytes / 16";
  }
  return "?";
}

std::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kParam: return "parameter";
    case Kind::kDerived: return "derived";
    case Kind::kRecognised: return "recognised";
  }
  return "?";
}

std::string LayoutMaskText(uint8_t layouts) {
  if (layouts == kLayoutAll) return "all";
  std::string s;
  if (layouts & kLayoutTiled) s = "tiled";
  if ((layouts & kLayoutIm2colAny) == kLayoutIm2colAny) return s.empty() ? "im2col" : s + ", im2col";
  std::string ranks;
  for (int r = 3; r <= 5; ++r)
    if (layouts & (1u << (r - 2))) ranks += ranks.empty() ? std::to_string(r) : "/" + std::to_string(r);
  if (!ranks.empty()) s += (s.empty() ? "" : ", ") + std::string("im2col rank ") + ranks;
  return s;
}

const std::array<uint64_t, 16>& NeverWrittenMask() {
  static const std::array<uint64_t, 16> m = ComputeNeverWritten();
  return m;
}

}  // namespace tmapgen::blob
