// desc_types.h: the vocabulary of tensor-core operand descriptors: the descriptor family (wgmma on
// sm_90a, tcgen05 on the sm_100a family), the operand (A or B), its major-ness, the MMA element types,
// the swizzle modes a shared-memory descriptor can name, and the tcgen05 MMA kinds.
//
// Contract
// - Pure functions and constant tables only: no I/O, no allocation except the returned strings' views
//   into static storage, thread-safe.
// - Parse functions accept the short names printed by Name() case-insensitively plus a few documented
//   aliases, and return false on anything else. Element types are read through the one data-type name table
//   (src/tmap/types.h, DataTypeName::mma): a name that stands for one MMA type is accepted (int8 = s8,
//   f32 = tf32, float8_e4m3fn = e4m3); one that does not (fp8, u16, ue8m0) is refused, and RefusedElemType
//   says why.
// - Sizes: ElemBits() is the width of one value as the MMA sees it (4 for e2m1, 6 for e2m3/e3m2);
//   SmemBits() is the width one value occupies in shared memory: 6-bit values always occupy one byte
//   (the padded 16U6_ALIGN16B layout: tcgen05 reads no packed 6-bit layout), 4-bit values occupy half
//   a byte unless `padded` (16U4_ALIGN8B versus 16U4_ALIGN16B). PTX ISA 9.7.16 ("packed with padding"
//   for .kind::mxf8f6f4 and .kind::f8f6f4; two values per byte for .kind::mxf4 and .kind::mxf4nvf4).
#ifndef TMAPGEN_SRC_DESC_DESC_TYPES_H_
#define TMAPGEN_SRC_DESC_DESC_TYPES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/tmap/types.h"

namespace tmapgen::desc {

// The instruction family that reads the descriptor.
enum class DescArch : uint8_t { kWgmma = 0, kTcgen05 = 1 };

enum class Operand : uint8_t { kA = 0, kB = 1 };

// K-major: K is the contiguous dimension (wgmma imm-trans = 0, tcgen05 transpose bit = 0).
// MN-major: M (for A) or N (for B) is contiguous ("transposed").
enum class Major : uint8_t { kK = 0, kMN = 1 };

// Element types of MMA operands in shared memory.
enum class ElemType : uint8_t {
  kF16 = 0, kBF16, kTF32, kE4M3, kE5M2, kE2M3, kE3M2, kE2M1, kS8, kU8,
};
inline constexpr int kNumElemTypes = 10;

// Swizzle modes a shared-memory descriptor can name (the union of wgmma's and tcgen05's).
enum class DescSwizzle : uint8_t { kNone = 0, k32B = 1, k64B = 2, k128B = 3, k128BAtom32B = 4 };
inline constexpr int kNumDescSwizzles = 5;

// tcgen05.mma .kind.
enum class MmaKind : uint8_t { kF16 = 0, kTf32, kF8f6f4, kI8, kMxf8f6f4, kMxf4, kMxf4nvf4 };
inline constexpr int kNumMmaKinds = 7;

// ---- sizes ------------------------------------------------------------------------------------------
int ElemBits(ElemType t);
int SmemBits(ElemType t, bool padded);
bool IsSubByte(ElemType t);  // e2m3, e3m2, e2m1
bool IsFloat8(ElemType t);   // e4m3, e5m2
bool IsInt8(ElemType t);     // s8, u8

// ---- swizzle facts --------------------------------------------------------------------------------
// Bytes of one row of the swizzle atom along the contiguous dimension: 16 for none (the core matrix
// row), 32, 64, 128, and 128 for 128B with 32-byte atomicity.
int RowBytes(DescSwizzle s);
// Bytes after which the pattern repeats; 0 for none. 256/512/1024 (PTX ISA Table 41); 512 for 128B
// with 32-byte atomicity (derived from its XOR rule a[6:5] ^= a[8:7], tma-spec.md 2.2).
int RepeatBytes(DescSwizzle s);
// The mask of the 3-bit base offset that is meaningful: repeat / 128 - 1 (0 for none).
int BaseOffsetMask(DescSwizzle s);
int AtomicityBytes(DescSwizzle s);  // 16, or 32 for 128B_atom_32B
// Rows of 8 x 16 bytes... along the strided dimension that one swizzle atom spans: 8, except 4 for the
// MN-major 128B_atom_32B atom (PTX ISA Table 55: "8x4").
int AtomRows(DescSwizzle s, Major m);

// The descriptor layout-type field (wgmma: 2 bits at 62-63; tcgen05: 3 bits at 61-63). Returns -1 where
// the mode has no encoding in that family (128B_atom_32B on wgmma).
int LayoutTypeValue(DescArch a, DescSwizzle s);
// The inverse; false for values the family does not define (tcgen05 3, 5, 7).
bool SwizzleFromLayoutType(DescArch a, uint32_t value, DescSwizzle* out);
// The tensor-map swizzle that writes the layout this descriptor swizzle reads, and back. The 128B
// atom-64B and flip-8B map swizzles have no descriptor counterpart (false).
Swizzle MapSwizzleFor(DescSwizzle s);
bool DescSwizzleForMap(Swizzle s, DescSwizzle* out);
// The CuTe swizzle functor text ("Swizzle<3,4,3>") of the mode.
std::string_view CuteSwizzle(DescSwizzle s);

// ---- targets -----------------------------------------------------------------------------------------
bool TargetHasWgmma(Target t);    // sm_90a
bool TargetHasTcgen05(Target t);  // sm_100a/f, sm_101a, sm_103a/f, sm_110a/f
bool TargetHasKindI8(Target t);   // sm_100a, sm_101a, sm_110a (no family targets, PTX ISA 9.7.16.10.9)

// ---- names -------------------------------------------------------------------------------------------
std::string_view Name(DescArch v);     // "wgmma", "tcgen05"
std::string_view Name(Operand v);      // "A", "B"
std::string_view Name(Major v);        // "K", "MN"
std::string_view Name(ElemType v);     // "bf16"
std::string_view Name(DescSwizzle v);  // "none", "32B", "64B", "128B", "128B_atom_32B"
std::string_view Name(MmaKind v);      // "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"

bool Parse(std::string_view s, DescArch* out);
bool Parse(std::string_view s, Operand* out);
bool Parse(std::string_view s, Major* out);
bool Parse(std::string_view s, ElemType* out);
bool Parse(std::string_view s, DescSwizzle* out);
bool Parse(std::string_view s, MmaKind* out);

// Why a known data-type name is not an MMA element type ("fp8 ... give e4m3 or e5m2", "u16 names the
// tensor-map type ..."); "" for an element type's name and for an unknown name.
std::string RefusedElemType(std::string_view s);

std::string_view AcceptedNames(DescArch*);
std::string_view AcceptedNames(Operand*);
std::string_view AcceptedNames(Major*);
std::string_view AcceptedNames(ElemType*);
std::string_view AcceptedNames(DescSwizzle*);
std::string_view AcceptedNames(MmaKind*);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_DESC_TYPES_H_
