// instr_descriptor.h: the 32-bit tcgen05 instruction descriptor (idesc) of tcgen05.mma: its field
// tables per .kind, encoding from named values, decoding, and the valid M/N/K of each kind.
//
// Contract
// - Field tables are PTX ISA 9.2 section 9.7.16.4.2: Table 42 (.kind::tf32, f16, f8f6f4, i8), Table 43
//   (.kind::mxf8f6f4), Table 44 (.kind::mxf4, mxf4nvf4). Shapes are Table 39 (section 9.7.16.2.1) and
//   its target note (K = 96 only on sm_103a).
// - The block-scaled kinds keep M >> 7 in bits 27-28 with bits 24-26 reserved, as PTX writes them
//   (CUTLASS writes M >> 4 in bits 24-28; the two agree bit for bit for M = 128 and 256, the only M
//   those kinds allow; see docs/descriptors.md, open question 10).
// - EncodeIdesc() encodes what it is given, masking each value to its field; the validator
//   (desc_rules.h) says what is out of range. DecodeIdesc() never fails: unknown type codes are kept in
//   IdescFields and reported by the validator.
// - No I/O.
#ifndef TMAPGEN_SRC_DESC_INSTR_DESCRIPTOR_H_
#define TMAPGEN_SRC_DESC_INSTR_DESCRIPTOR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/desc/desc_types.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/types.h"

namespace tmapgen::desc {

// Matrix D type (Table 42 bits 4-5).
enum class DType : uint8_t { kF16 = 0, kF32 = 1, kS32 = 2 };
// Scale-factor type of the block-scaled kinds (bit 23).
enum class ScaleType : uint8_t { kUE4M3 = 0, kUE8M0 = 1 };

std::string_view Name(DType v);      // "f16", "f32", "s32"
std::string_view Name(ScaleType v);  // "ue4m3", "ue8m0"
bool Parse(std::string_view s, DType* out);
bool Parse(std::string_view s, ScaleType* out);

bool IsBlockScaled(MmaKind k);  // mxf8f6f4, mxf4, mxf4nvf4

// Everything an instruction descriptor says, plus what the instruction says around it (cta_group, .ws,
// the target), which decides what is valid.
struct IdescSpec {
  MmaKind kind = MmaKind::kF16;
  int cta_group = 1;      // 1 or 2 (.cta_group::1 / ::2)
  bool ws = false;        // tcgen05.mma.ws
  // Where A is read from: shared memory through a matrix descriptor (a_desc, the default) or tensor memory
  // ([a_tmem]). The instruction descriptor does not encode it; the shapes allowed depend on it.
  bool a_tmem = false;
  bool sparse = false;
  uint32_t sparse_selector = 0;  // 0..3, Table 42 kinds only
  bool saturate = false;         // .kind::i8 only
  DType d_type = DType::kF32;    // Table 42 kinds; the block-scaled kinds always accumulate in f32
  ElemType a_type = ElemType::kBF16;
  ElemType b_type = ElemType::kBF16;
  bool negate_a = false;
  bool negate_b = false;
  Major a_major = Major::kK;  // MN = transpose bit set
  Major b_major = Major::kK;
  uint32_t m = 128;
  uint32_t n = 256;
  bool k96 = false;            // mxf4/mxf4nvf4: the K = 96 form (bit 31), sm_103a only
  uint32_t max_shift = 0;      // .ws B-reuse maximum shift: 0, 8, 16 or 32
  ScaleType scale_type = ScaleType::kUE8M0;  // block-scaled kinds
  uint32_t a_sf_id = 0;        // block-scaled kinds: scale-factor data id, 0..3
  uint32_t b_sf_id = 0;
  bool has_target = false;
  Target target = Target::kSm100a;
};

// The raw value of every field as decoded for a kind (type codes kept even when unknown).
struct IdescFields {
  uint32_t raw = 0;
  uint32_t sparse_selector = 0, sparse = 0, saturate = 0, d_type = 0;
  uint32_t a_type = 0, b_type = 0, negate_a = 0, negate_b = 0, transpose_a = 0, transpose_b = 0;
  uint32_t n_enc = 0;   // N >> 3
  uint32_t m_enc = 0;   // M >> 4 (Table 42) or M >> 7 (Tables 43 and 44)
  uint32_t max_shift = 0, scale_type = 0, a_sf_id = 0, b_sf_id = 0, k_bit = 0;
  uint32_t reserved = 0;  // set bits in the kind's reserved positions
};

// The fields of a kind's descriptor, in bit order (unit_shift: 3 for N, 4 or 7 for M).
const BitField* IdescFieldTable(MmaKind kind, int* n);
uint32_t IdescReservedMask(MmaKind kind);

// The code of an element type in the atype/btype fields of a kind, or -1 when the kind has none.
int TypeCode(MmaKind kind, ElemType t);
bool TypeFromCode(MmaKind kind, uint32_t code, ElemType* out);
// Max-shift field value of a shift (0, 8, 16, 32 -> 0..3), or -1.
int MaxShiftCode(uint32_t shift);
uint32_t MaxShiftFromCode(uint32_t code);

uint32_t EncodeIdesc(const IdescSpec& s);
IdescFields DecodeIdescFields(uint32_t value, MmaKind kind);
// The spec the fields denote (kind, cta_group, ws and target are taken from `context`).
IdescSpec SpecFromFields(const IdescFields& f, const IdescSpec& context);

// K of one instruction in elements (Table 39): dense f16 16, tf32 8, f8f6f4/i8/mxf8f6f4 32, mxf4 64
// (96 with k96); sparse doubles it.
uint32_t InstrK(const IdescSpec& s);
// Valid shapes for the spec's form: kind, cta_group, .ws, sparsity and where A lives. Table 39 gives the shapes
// per kind, cta_group, .ws and sparsity; it does not separate the A source. With A in tensor memory CUTLASS's
// SM100_MMA_{TF32,F16BF16,F8F6F4}_TS atoms (cute/arch/mma_sm100_umma.hpp) require, for M = 128 with
// .cta_group::1, N a multiple of 16 (16..256) instead of 8, and with .cta_group::2 (the *_2x1SM_TS atoms, i8
// included) N a multiple of 32 (32..256) instead of 16; that stricter rule is applied to those forms. The text
// forms list the shapes ("64, 128"; "8..256 step 8").
bool ValidM(const IdescSpec& s);
bool ValidN(const IdescSpec& s);
std::string ValidMText(const IdescSpec& s);
std::string ValidNText(const IdescSpec& s);
// The form in words: "tcgen05.mma.cta_group::1.kind::f16 (dense, A in tensor memory: [a_tmem])".
std::string FormText(const IdescSpec& s);
// Every M of the form with its N: "M = 64: N in 8..256 step 8; M = 128: N in 16..256 step 16".
std::string FormShapeText(const IdescSpec& s);
// Whether the A-in-tensor-memory restriction of CUTLASS's *_TS atoms applies to this form and M.
bool TmemANarrowsN(const IdescSpec& s);
// The combination (kind, cta_group, .ws, sparsity) exists at all (Table 39 "Invalid" rows).
bool ValidVariant(const IdescSpec& s);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_INSTR_DESCRIPTOR_H_
