// layout.h: the 128-byte CUtensorMap as one table of named bit fields, derived only from what the real
// driver writes (docs/tensormap-layout.md gives the evidence for every row; tools/tmap_corpus.cc made it).
//
// Contract
// - Bits are numbered over the whole map as little-endian 64-bit words: bit b is bit (b % 64) of word
//   b / 64, i.e. bit (b % 8) of byte b / 8. Bit 85 is bit 21 of word 1, as CUTLASS and Triton write it.
// - Every row of kFields names one field: its name (as cuda.h and the spec schema call the parameter,
//   with an index for arrays: "global_dim[2]"), its bit range (one or two pieces, low piece first), its
//   coding (FieldCoding: how the raw bits become the value), and which map layouts use it. The decoder
//   (blob.h Decode), the encoder (Encode), the report and the documentation (LayoutMarkdown) are all
//   driven by this table and nothing else knows a bit position.
// - A layout is the shape of the map the driver writes: the tiled layout, or the im2col layout of rank 3,
//   4 or 5 (im2col and im2col::w maps share it; the sm_90 driver writes no bit for the wide mode). Which
//   one a map has is read from two fields that every layout shares: "im2col" (bit 64) and "tensor_rank".
//   A field is *active* in a map when its layout mask includes the map's layout and its rank condition
//   holds (dims, strides, element strides, box entries exist only up to the rank).
// - Kinds: kParam fields hold a cuTensorMapEncode* parameter; kDerived fields hold a value the driver
//   computes from parameters (its coding says how; the decoder checks it); kRecognised rows are bits
//   that no measured driver wrote but that public sources name (bit 85). Every other bit is unexplained.
// - Pure data and pure functions; no I/O; thread-safe.
#ifndef TMAPGEN_SRC_BLOB_LAYOUT_H_
#define TMAPGEN_SRC_BLOB_LAYOUT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tmapgen::blob {

inline constexpr int kMapBytes = 128;
inline constexpr int kMapBits = 1024;
using MapBytes = std::array<uint8_t, kMapBytes>;

// Map layouts (bit mask values, so that a field can name several).
enum LayoutBit : uint8_t {
  kLayoutTiled = 1u << 0,
  kLayoutIm2col3 = 1u << 1,
  kLayoutIm2col4 = 1u << 2,
  kLayoutIm2col5 = 1u << 3,
};
inline constexpr uint8_t kLayoutIm2colAny = kLayoutIm2col3 | kLayoutIm2col4 | kLayoutIm2col5;
inline constexpr uint8_t kLayoutAll = kLayoutTiled | kLayoutIm2colAny;

// A field's coding: how its raw bits become the parameter value.
enum class FieldCoding : uint8_t {
  kPlain,          // value = raw
  kMinusOne,       // value = raw + 1 (sizes and strides that cannot be 0)
  kUnits16,        // value = raw x 16 (byte strides, which are multiples of 16)
  kSigned,         // value = raw as a two's-complement number of the field's width
  kDataTypeCode,   // the driver's own data-type code (table in DataTypeCode below); not the cuda.h value
  kFlag,           // one bit: 0 or 1
  kBoxBytes,       // derived: the bytes of one box (tiled: element bytes x prod floor(box/es); im2col:
                   // element bytes x channels x pixels)
  kSwizzleRepeat,  // derived: 16 x raw = the swizzle's repeat in bytes (256/512/1024), 16 for none
};

enum class Kind : uint8_t { kParam, kDerived, kRecognised };

// What a field holds, so that the decoder and the encoder can move values between a spec and the map.
enum class Ref : uint8_t {
  kGlobalAddress, kIm2col, kRank, kDataType, kInterleave, kSwizzle, kOobFill, kTf32, kL2Promotion,
  kBit85, kGlobalStride, kGlobalDim, kElementStride, kBoxDim, kChannels, kLowerCorner, kUpperCorner,
  kPixels, kBoxBytes, kSwizzleRepeat,
};

struct Piece {
  uint16_t lo = 0;    // first bit
  uint8_t width = 0;  // bits
};

struct MapField {
  std::string_view name;     // "global_dim[2]", "im2col", "box_bytes"
  Ref ref;
  int8_t index;              // array index, -1 for scalars
  Piece pieces[2];           // low piece first; the second has width 0 when unused
  FieldCoding coding;
  Kind kind;
  uint8_t layouts;           // LayoutBit mask
  uint8_t min_rank;          // active only when tensor_rank >= min_rank
  std::string_view meaning;  // one line for the report and the doc
};

// The table, in bit order of the first piece.
const MapField* Fields(int* n);

// The two fields that select the layout.
const MapField& Im2colField();
const MapField& RankField();

int FieldWidth(const MapField& f);  // total bits of all pieces

// Raw value of a field (pieces concatenated, low piece first) and writing it back (masked to the width).
uint64_t Gather(const MapBytes& m, const MapField& f);
void Scatter(MapBytes* m, const MapField& f, uint64_t raw);
bool GetBit(const MapBytes& m, int bit);

// The same on the 16 little-endian 64-bit words of a map (the fast forms Decode and Encode use).
using MapWords = std::array<uint64_t, 16>;
MapWords ToMapWords(const MapBytes& m);
MapBytes FromMapWords(const MapWords& w);
inline uint64_t GatherWords(const MapWords& w, const MapField& f) {
  uint64_t v = 0;
  int shift = 0;
  for (const Piece& p : f.pieces) {
    if (p.width == 0) break;
    const int word = p.lo >> 6, off = p.lo & 63;
    uint64_t x = w[word] >> off;
    if (off + p.width > 64) x |= w[word + 1] << (64 - off);
    if (p.width < 64) x &= (uint64_t{1} << p.width) - 1;
    v |= x << shift;
    shift += p.width;
  }
  return v;
}
inline void ScatterWords(MapWords* w, const MapField& f, uint64_t raw) {
  for (const Piece& p : f.pieces) {
    if (p.width == 0) break;
    const uint64_t bits = p.width < 64 ? raw & ((uint64_t{1} << p.width) - 1) : raw;
    const uint64_t mask = p.width < 64 ? (uint64_t{1} << p.width) - 1 : ~uint64_t{0};
    const int word = p.lo >> 6, off = p.lo & 63;
    (*w)[word] = ((*w)[word] & ~(mask << off)) | (bits << off);
    if (off + p.width > 64) {
      const int hi = 64 - off;
      (*w)[word + 1] = ((*w)[word + 1] & ~(mask >> hi)) | (bits >> hi);
    }
    raw = p.width < 64 ? raw >> p.width : 0;
  }
}

// The fields active in one layout at one rank (table order), and the bits they cover; precomputed once.
struct LayoutPlan {
  int count = 0;
  uint8_t index[64] = {};  // indices into Fields()
  MapWords covered{};      // every bit of the active fields
};
// layout 0 (an unknown layout) gives the fields every layout shares at rank 0 (the header).
const LayoutPlan& PlanFor(uint8_t layout, uint32_t rank);
// The recognised rows (bit 85) and their bits.
const LayoutPlan& RecognisedPlan();

// The layout of a map of `rank` from its im2col flag: kLayoutTiled, kLayoutIm2col3..5, or 0 when the
// combination is one no measured driver writes (im2col with rank < 3).
uint8_t LayoutFor(bool im2col, uint32_t rank);
std::string_view LayoutName(uint8_t layout);  // "tiled", "im2col (rank 4)"
bool IsActive(const MapField& f, uint8_t layout, uint32_t rank);

// The data-type code the driver writes for a cuda.h data type (with the TF32 flag separately), and back.
// Returns false for the types no measured driver accepted (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B on
// sm_90): their code is unknown.
bool DataTypeCode(uint8_t cuda_value, uint32_t* code, bool* tf32);
// From a code and the TF32 flag; false for codes no measured driver wrote (11..15) or TF32 on a code
// other than FLOAT32 / FLOAT32_FTZ.
bool DataTypeFromCode(uint32_t code, bool tf32, uint8_t* cuda_value);

// Human-readable text of a field coding ("value - 1", "bytes / 16", ...).
std::string_view FieldCodingText(FieldCoding e);
std::string_view KindName(Kind k);  // "parameter", "derived", "recognised"
// "tiled, im2col 3/4/5", for the doc.
std::string LayoutMaskText(uint8_t layouts);

// Bits that no field of the table covers in any layout (never written by a measured driver).
const std::array<uint64_t, 16>& NeverWrittenMask();

}  // namespace tmapgen::blob

#endif  // TMAPGEN_SRC_BLOB_LAYOUT_H_
