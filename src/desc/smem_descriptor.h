// smem_descriptor.h: the 64-bit shared-memory matrix descriptors of wgmma (sm_90a) and tcgen05 (sm_100a
// family): a typed bit-field view, encoding from a layout a user understands, decoding, the canonical
// layout a value denotes, and advancing to the k-th K slice or to a sub-tile.
//
// Contract
// - Bit layouts are those of PTX ISA 9.2: wgmma section 9.7.15.5.1.2.2 ("Matrix Descriptor Format"),
//   tcgen05 section 9.7.16.4.1 (Table 40). matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: the start
//   address, LBO and SBO fields hold bytes / 16 in 14 bits (0 .. 262128 bytes).
// - SmemDesc is a plain value: any 64-bit pattern is representable, invalid ones included, so that the
//   validator (desc_rules.h) can explain them. Setters mask to the field width; they never fail.
// - OperandLayout describes a tile the way a user thinks of it (operand, major-ness, element type,
//   swizzle, tile shape, address). ComputeLayoutFacts() is total (never divides by zero) and
//   BuildSmemDesc() always returns a value; whether it is legal is the validator's business.
// - Dense tile order ("TMA order"): the tile is stored as slabs one swizzle row wide along the contiguous
//   dimension (16 bytes for no swizzle), each slab holding every row of the strided dimension at a pitch
//   of one swizzle row; slab s follows slab s-1. This is exactly what a TMA box of one swizzle row width
//   writes (and a 3D box or consecutive boxes for further slabs). The canonical LBO/SBO below are those
//   of this order; a user may give other values (--lbo/--sbo) and then they are used.
// - Address model used for drawings and consistency checks: the MMA computes the linear address of a
//   16-byte chunk from the canonical layout (start, LBO, SBO), then XORs the swizzle's column bits with
//   the pattern row ((address - start_line) >> 7) + base_offset, start_line being the start address
//   rounded down to 128 bytes. With the documented base offset this equals the absolute-address swizzle
//   that TMA applies (PTX ISA 5.5.7); a wrong base offset shifts the pattern phase. This is a model of
//   documented behaviour, not a measured one (docs/descriptors.md).
// - No I/O. Text helpers (canonical layout strings) allocate.
#ifndef TMAPGEN_SRC_DESC_SMEM_DESCRIPTOR_H_
#define TMAPGEN_SRC_DESC_SMEM_DESCRIPTOR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/desc/desc_types.h"
#include "src/tmap/types.h"

namespace tmapgen::desc {

// One named bit field of a descriptor.
struct BitField {
  std::string_view name;
  uint8_t lo;          // first bit
  uint8_t width;       // bits
  uint8_t unit_shift;  // bytes = encoded << unit_shift (4 for addresses and offsets), 0 for plain values
};

constexpr uint64_t FieldMask(const BitField& f) { return ((uint64_t{1} << f.width) - 1) << f.lo; }
constexpr uint64_t FieldGet(uint64_t v, const BitField& f) { return (v >> f.lo) & ((uint64_t{1} << f.width) - 1); }
constexpr uint64_t FieldSet(uint64_t v, const BitField& f, uint64_t x) {
  return (v & ~FieldMask(f)) | ((x << f.lo) & FieldMask(f));
}

// wgmma descriptor fields (PTX ISA 9.7.15.5.1.2.2).
namespace wgmma_field {
inline constexpr BitField kStart{"start_address", 0, 14, 4};
inline constexpr BitField kLbo{"leading_byte_offset", 16, 14, 4};
inline constexpr BitField kSbo{"stride_byte_offset", 32, 14, 4};
inline constexpr BitField kBaseOffset{"base_offset", 49, 3, 0};
inline constexpr BitField kLayout{"layout_type", 62, 2, 0};
}  // namespace wgmma_field

// tcgen05 shared-memory descriptor fields (PTX ISA 9.7.16.4.1, Table 40).
namespace tcgen05_field {
inline constexpr BitField kStart{"start_address", 0, 14, 4};
inline constexpr BitField kLbo{"leading_byte_offset", 16, 14, 4};
inline constexpr BitField kSbo{"stride_byte_offset", 32, 14, 4};
inline constexpr BitField kVersion{"fixed_0b001", 46, 3, 0};  // must be 0b001
inline constexpr BitField kBaseOffset{"base_offset", 49, 3, 0};
inline constexpr BitField kLboMode{"lbo_mode", 52, 1, 0};     // 0 relative offset, 1 absolute address
inline constexpr BitField kFixed53{"fixed_zero", 53, 8, 0};   // must be 0
inline constexpr BitField kLayout{"layout_type", 61, 3, 0};
}  // namespace tcgen05_field

// The fields of a family in bit order; *n receives the count.
const BitField* DescFields(DescArch a, int* n);
// Bits that no field of the family defines (wgmma: 14-15, 30-31, 46-48, 52-61; tcgen05: 14-15, 30-31).
uint64_t ReservedMask(DescArch a);

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4.
constexpr uint32_t MatrixDescriptorEncode(uint64_t bytes) { return static_cast<uint32_t>((bytes & 0x3FFFF) >> 4); }
// The largest byte value a 14-bit field holds: 0x3FFF << 4 = 262128.
inline constexpr uint64_t kMaxFieldBytes = uint64_t{0x3FFF} << 4;

class SmemDesc {
 public:
  SmemDesc() = default;
  SmemDesc(DescArch arch, uint64_t bits) : arch_(arch), bits_(bits) {}
  // A zero descriptor of the family, with tcgen05's fixed 0b001 at bits 46-48.
  static SmemDesc Empty(DescArch arch);

  DescArch arch() const { return arch_; }
  uint64_t bits() const { return bits_; }

  uint32_t start_enc() const { return static_cast<uint32_t>(FieldGet(bits_, wgmma_field::kStart)); }
  uint32_t lbo_enc() const { return static_cast<uint32_t>(FieldGet(bits_, wgmma_field::kLbo)); }
  uint32_t sbo_enc() const { return static_cast<uint32_t>(FieldGet(bits_, wgmma_field::kSbo)); }
  uint64_t start_bytes() const { return uint64_t{start_enc()} << 4; }
  uint64_t lbo_bytes() const { return uint64_t{lbo_enc()} << 4; }
  uint64_t sbo_bytes() const { return uint64_t{sbo_enc()} << 4; }
  uint32_t base_offset() const { return static_cast<uint32_t>(FieldGet(bits_, wgmma_field::kBaseOffset)); }
  // The raw layout-type field (2 bits for wgmma, 3 for tcgen05).
  uint32_t layout_type() const;
  // The swizzle the layout-type field names; false when the value is undefined (tcgen05 3, 5, 7).
  bool swizzle(DescSwizzle* out) const { return SwizzleFromLayoutType(arch_, layout_type(), out); }
  // tcgen05 only (0 for wgmma).
  bool lbo_absolute() const;
  uint32_t version() const;  // bits 46-48
  uint32_t fixed_zero() const;  // bits 53-60
  // The set bits that no field of the family defines.
  uint64_t reserved_bits() const { return bits_ & ReservedMask(arch_); }

  void set_start_enc(uint32_t v) { bits_ = FieldSet(bits_, wgmma_field::kStart, v); }
  void set_lbo_enc(uint32_t v) { bits_ = FieldSet(bits_, wgmma_field::kLbo, v); }
  void set_sbo_enc(uint32_t v) { bits_ = FieldSet(bits_, wgmma_field::kSbo, v); }
  void set_start_bytes(uint64_t b) { set_start_enc(MatrixDescriptorEncode(b)); }
  void set_lbo_bytes(uint64_t b) { set_lbo_enc(MatrixDescriptorEncode(b)); }
  void set_sbo_bytes(uint64_t b) { set_sbo_enc(MatrixDescriptorEncode(b)); }
  void set_base_offset(uint32_t v) { bits_ = FieldSet(bits_, wgmma_field::kBaseOffset, v); }
  void set_layout_type(uint32_t v);
  // Sets the layout type of `s` for this family (no change when the family has no encoding for it).
  void set_swizzle(DescSwizzle s);
  void set_lbo_absolute(bool on);  // tcgen05 only
  void set_version(uint32_t v);    // tcgen05 only

  friend bool operator==(const SmemDesc& a, const SmemDesc& b) { return a.arch_ == b.arch_ && a.bits_ == b.bits_; }
  friend bool operator!=(const SmemDesc& a, const SmemDesc& b) { return !(a == b); }

 private:
  DescArch arch_ = DescArch::kTcgen05;
  uint64_t bits_ = 0;
};

// A tile of one MMA operand in shared memory, as the user describes it.
struct OperandLayout {
  DescArch arch = DescArch::kTcgen05;
  Operand operand = Operand::kA;
  Major major = Major::kK;
  ElemType type = ElemType::kBF16;
  bool padded = false;  // e2m1 stored one value per byte (16U4_ALIGN16B); ignored for other types
  DescSwizzle swizzle = DescSwizzle::k128B;
  uint32_t mn = 128;  // tile extent along M (operand A) or N (operand B), elements
  uint32_t k = 64;    // tile extent along K, elements
  uint64_t smem_address = 0;  // shared-memory byte address (or offset in the CTA's window) of the tile
  // The user's own values; when absent, the dense-tile (TMA order) values are used.
  bool has_lbo = false;
  uint64_t lbo = 0;  // bytes (absolute mode: the byte address of the second K chunk)
  bool has_sbo = false;
  uint64_t sbo = 0;  // bytes
  bool has_base_offset = false;
  uint32_t base_offset = 0;
  bool lbo_absolute = false;  // tcgen05 leading-dimension absolute-address mode (sm_103a)
  uint32_t mma_k = 0;         // K of one MMA instruction in elements; 0 = 32 bytes' worth (dense)
  bool has_target = false;
  Target target = Target::kSm100a;
};

// What follows from a layout.
struct LayoutFacts {
  int elem_bits = 16;
  int smem_bits = 16;
  int t = 8;                  // elements per 16 bytes (PTX's T = 128 / bits)
  int row_bytes = 128;        // RowBytes(swizzle)
  int repeat_bytes = 1024;    // RepeatBytes(swizzle)
  int atom_rows = 8;          // rows of one atom along the strided dimension
  uint64_t contiguous_bytes = 0;  // tile extent along the contiguous dimension, bytes
  uint32_t strided_extent = 0;    // tile extent along the strided dimension: mn (K-major) or k (MN-major)
  uint32_t slabs = 0;             // ceil(contiguous_bytes / row_bytes)
  uint64_t slab_bytes = 0;        // strided_extent x row_bytes (dense)
  uint64_t footprint_bytes = 0;   // slabs x slab_bytes
  uint64_t canonical_lbo = 0;     // dense-tile LBO in bytes (16 where LBO is unused)
  uint64_t canonical_sbo = 0;     // dense-tile SBO in bytes
  uint64_t lbo = 0;               // the LBO the descriptor gets (user's or canonical)
  uint64_t sbo = 0;
  bool lbo_used = true;           // false for swizzled K-major layouts ("not used, assumed to be 1")
  uint32_t mma_k = 0;             // K of one MMA in elements
  uint32_t kstep_bytes = 0;       // K-major: bytes of K one MMA reads per row
  uint32_t kstep_rows = 0;        // MN-major: K rows one MMA reads
  uint32_t k_slices = 0;          // tile K / MMA K (rounded down)
  int base_offset = 0;            // (smem_address % repeat) / 128: the documented base offset
  uint64_t start_line = 0;        // smem_address rounded down to 128 bytes
};

LayoutFacts ComputeLayoutFacts(const OperandLayout& l);
// The descriptor of the tile's first K slice.
SmemDesc BuildSmemDesc(const OperandLayout& l, const LayoutFacts& f);
inline SmemDesc BuildSmemDesc(const OperandLayout& l) { return BuildSmemDesc(l, ComputeLayoutFacts(l)); }

// The canonical layout (PTX ISA 9.7.15.5.1.2.1.3 / 9.7.16.3.3) a descriptor denotes.
struct CanonicalLayout {
  bool defined = true;      // false for combinations without a canonical layout (K-major 128B_atom_32B)
  std::string cute_swizzle;  // "Swizzle<3,4,3>"
  std::string generic;      // "((8,m),(T,2k)):((8T,SBO),(1,T))"
  std::string instantiated;  // in elements, T, m, k, LBO and SBO substituted
  std::string atom;         // "8 rows x 128 B (8x8 of 128-bit elements), pattern repeats every 1024 B"
  std::string lbo_meaning;  // what LBO means here
  std::string sbo_meaning;
};
// `smem_bits` > 0 substitutes T = 128 / smem_bits; m and k are the repeat counts (0: left symbolic).
CanonicalLayout DescribeCanonical(DescArch arch, Major major, DescSwizzle s, int smem_bits, uint64_t lbo_bytes,
                                  uint64_t sbo_bytes, uint32_t m, uint32_t k);

// Linear (pre-swizzle) byte offset, from the descriptor's start, of the byte `contig_byte` along the
// contiguous dimension in row `strided` of the strided dimension, under the canonical layout with these
// strides. `slab_pitch` is the distance between atom-wide slabs along the contiguous dimension for
// swizzled K-major tiles (not a descriptor field: it belongs to the tile).
uint64_t CanonicalOffset(Major major, DescSwizzle s, uint64_t lbo, uint64_t sbo, uint64_t slab_pitch,
                         uint32_t strided, uint64_t contig_byte);

// The absolute-address swizzle of a tensor map (PTX ISA 5.5.7; XOR rules of tma-spec.md 2.2).
uint64_t ApplyMapSwizzle(Swizzle s, uint64_t address);
// The physical shared-memory address the MMA reads for a linear address, under the address model of
// the header comment.
uint64_t ApplyDescSwizzle(DescSwizzle s, uint64_t linear, uint64_t start_line, uint32_t base_offset);

// Advancing a descriptor.
struct Advance {
  SmemDesc desc;              // the new descriptor
  int64_t delta_bytes = 0;    // change of the start address
  uint64_t start_bytes = 0;   // new start address (bytes, before encoding)
  uint32_t base_offset = 0;   // base offset the new descriptor needs
  bool aligned_16 = true;     // delta is a multiple of 16 bytes
  bool base_offset_changed = false;  // differs from the original descriptor's
  bool field_overflow = false;       // the new start does not fit the 14-bit field (adding delta / 16 to
                                     // the raw value would carry into reserved bit 14)
  bool inside_tile = true;    // the new start lies inside the tile's footprint
};
// The descriptor of the k-th K slice of the tile (slice 0 = BuildSmemDesc).
Advance AdvanceKSlice(const OperandLayout& l, const LayoutFacts& f, const SmemDesc& base, uint32_t k_slice);
// The descriptor of the sub-tile whose first element is (mn_offset, k_offset) (elements).
Advance AdvanceSubTile(const OperandLayout& l, const LayoutFacts& f, const SmemDesc& base, uint32_t mn_offset,
                       uint32_t k_offset);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_SMEM_DESCRIPTOR_H_
