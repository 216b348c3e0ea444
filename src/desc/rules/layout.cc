// layout.cc: checks, messages and fixes of the descriptor rules about the descriptor against the tile it
//   describes (LBO, SBO, swizzle, major-ness, alignment, capacity) (layout.h).
#include "src/desc/rules/layout.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/common.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

void CheckStartAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->smem_address % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->smem_address), 16);
}
std::string MsgStartAlign(const DescContext& c, const Finding&) {
  return StrCat("the tile's start address ", H(L(c)->smem_address), " is not 16-byte aligned: the descriptor keeps "
             "bits 4-17 only, so the MMA would read from ", H(L(c)->smem_address & ~uint64_t{15}));
}
std::string FixStartAlign(const DescContext& c, const Finding&) {
  return StrCat("align the tile to 16 bytes (at least 128 when TMA fills it): ", H(RoundUp(L(c)->smem_address, 16)));
}
void CheckLboAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->has_lbo && L(c)->lbo % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->lbo), 16);
}
std::string MsgLboAlign(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B is not a multiple of 16 bytes; the field holds 16-byte units");
}
std::string FixLboAlign(const DescContext&, const Finding& f) {
  return StrCat("pad the layout so that LBO is ", RoundUp(static_cast<uint64_t>(f.value), 16), " B");
}
void CheckSboAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->has_sbo && L(c)->sbo % 16 != 0) o->Add(r, -1, static_cast<int64_t>(L(c)->sbo), 16);
}
std::string MsgSboAlign(const DescContext&, const Finding& f) {
  return StrCat("SBO = ", f.value, " B is not a multiple of 16 bytes; the field holds 16-byte units");
}
std::string FixSboAlign(const DescContext&, const Finding& f) {
  return StrCat("pad the layout so that SBO is ", RoundUp(static_cast<uint64_t>(f.value), 16), " B");
}
void CheckStartRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->smem_address > kMaxFieldBytes)
    o->Add(r, -1, static_cast<int64_t>(L(c)->smem_address & 0x7fffffffffffffffull), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgStartRange(const DescContext&, const Finding& f) {
  std::string s = StrCat("start address ", H(static_cast<uint64_t>(f.value)),
                      " does not fit the 14-bit field (at most 262128 B = 256 KiB - 16): the encoding keeps bits 4-17 "
                      "and the MMA would read from ", H(static_cast<uint64_t>(f.value) & 0x3FFF0));
  if (static_cast<uint64_t>(f.value) >= (uint64_t{1} << 32)) s += "; this looks like a generic pointer, not a shared-memory address";
  return s;
}
std::string FixStartRange(const DescContext&, const Finding&) {
  return "use the shared-window address (__cvta_generic_to_shared / cvta.to.shared), not a generic pointer";
}
void CheckLboRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (F(c) && F(c)->lbo > kMaxFieldBytes) o->Add(r, -1, static_cast<int64_t>(F(c)->lbo), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgLboRange(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B overflows the 14-bit field of 16-byte units (at most 262128 B)");
}
std::string FixLboRange(const DescContext&, const Finding&) {
  return "split the tile so that consecutive slabs are less than 256 KiB apart";
}
void CheckSboRange(const DescContext& c, uint16_t r, FindingList* o) {
  if (F(c) && F(c)->sbo > kMaxFieldBytes) o->Add(r, -1, static_cast<int64_t>(F(c)->sbo), static_cast<int64_t>(kMaxFieldBytes));
}
std::string MsgSboRange(const DescContext&, const Finding& f) {
  return StrCat("SBO = ", f.value, " B overflows the 14-bit field of 16-byte units (at most 262128 B)");
}
std::string FixSboRange(const DescContext&, const Finding&) { return "split the tile; 8-row groups must be less than 256 KiB apart"; }
void CheckBaseMismatch(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_base_offset && l->swizzle != DescSwizzle::kNone &&
      static_cast<int>(l->base_offset) != F(c)->base_offset)
    o->Add(r, -1, l->base_offset, F(c)->base_offset);
}
std::string MsgBaseMismatch(const DescContext& c, const Finding& f) {
  return StrCat("base offset ", f.value, " does not match the tile's start ", H(L(c)->smem_address), ": (",
             H(L(c)->smem_address), " % ", F(c)->repeat_bytes, ") / 128 = ", f.limit,
             "; the MMA would apply the swizzle pattern with the wrong row phase");
}
std::string FixBaseMismatch(const DescContext&, const Finding& f) { return StrCat("set the base offset to ", f.limit); }
void CheckStartPhase(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l || M(c) != nullptr || l->swizzle == DescSwizzle::kNone || F(c)->repeat_bytes == 0) return;
  if (l->smem_address % static_cast<uint64_t>(F(c)->repeat_bytes) != 0)
    o->Add(r, -1, static_cast<int64_t>(l->smem_address % 0x40000), F(c)->repeat_bytes);
}
std::string MsgStartPhase(const DescContext& c, const Finding& f) {
  return StrCat("the tile starts at ", H(L(c)->smem_address), ", not on the ", f.limit, "-byte repeat of the ",
             Name(L(c)->swizzle), " swizzle: the descriptor needs base offset ", F(c)->base_offset,
             (L(c)->has_base_offset ? "" : " (set)"),
             ", and whatever filled the tile must have used the same phase; loops that only add to the start "
             "address keep it");
}
std::string FixStartPhase(const DescContext& c, const Finding& f) {
  return StrCat("align the tile to ", f.limit, " bytes (", H(RoundUp(L(c)->smem_address, static_cast<uint64_t>(f.limit))),
             ") so the base offset is 0");
}
void CheckWgmmaSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->arch == DescArch::kWgmma && EffSw(c) == DescSwizzle::k128BAtom32B) o->Add(r, -1, 4, 0);
}
std::string MsgWgmmaSwizzle(const DescContext&, const Finding&) {
  return "wgmma descriptors have no 128B-with-32-byte-atomicity mode (layout types: none, 128B, 64B, 32B)";
}
std::string FixWgmmaSwizzle(const DescContext&, const Finding&) { return "use 128B swizzle, or tcgen05 on sm_100a"; }
void CheckWgmmaType(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->arch == DescArch::kWgmma && IsSubByte(L(c)->type)) o->Add(r, -1, static_cast<int>(L(c)->type), 0);
}
std::string MsgWgmmaType(const DescContext& c, const Finding&) {
  return StrCat("wgmma.mma_async has no ", Name(L(c)->type), " operands (its types: f16, bf16, tf32, e4m3, e5m2, s8, u8, b1)");
}
std::string FixWgmmaType(const DescContext&, const Finding&) {
  return "use tcgen05.mma (.kind::f8f6f4 or a block-scaled kind) on sm_100a for 6- and 4-bit types";
}
void CheckWgmmaMnType(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kWgmma && l->major == Major::kMN && l->type != ElemType::kF16 &&
      l->type != ElemType::kBF16)
    o->Add(r, -1, static_cast<int>(l->type), 0);
}
std::string MsgWgmmaMnType(const DescContext& c, const Finding&) {
  return StrCat("wgmma reads MN-major (transposed) shared-memory operands only for .f16 and .bf16; ", Name(L(c)->type),
             " operands must be K-major");
}
std::string FixWgmmaMnType(const DescContext&, const Finding&) {
  return "store the operand K-major (transpose it when loading: a TMA box with K innermost)";
}
void CheckKMajorAtom32(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kK && EffSw(c) == DescSwizzle::k128BAtom32B)
    o->Add(r, -1, 1, 0);
}
std::string MsgKMajorAtom32(const DescContext&, const Finding&) {
  return "128B swizzle with 32-byte atomicity has no K-major layout (Table 55 lists its K-major atom as \"-\"); it is "
         "the MN-major layout of 32-bit (tf32) operands";
}
std::string FixKMajorAtom32(const DescContext&, const Finding&) {
  return "use 128B swizzle (16-byte atomicity) for K-major operands";
}
void CheckMnSubByte(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && IsSubByte(l->type)) o->Add(r, -1, static_cast<int>(l->type), 0);
}
std::string MsgMnSubByte(const DescContext& c, const Finding&) {
  return StrCat("tcgen05 reads ", Name(L(c)->type), " (", ElemBits(L(c)->type),
             "-bit) operands K-major only: Table 54 lists MN-major layouts for 8-, 16- and 32-bit types, and "
             ".kind::mxf4/.kind::mxf4nvf4 have no transpose");
}
std::string FixMnSubByte(const DescContext&, const Finding&) { return "store the operand K-major"; }
void CheckMnTf32(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && l->type == ElemType::kTF32 &&
      EffSw(c) != DescSwizzle::k128BAtom32B)
    o->Add(r, -1, static_cast<int>(EffSw(c)), 4);
}
std::string MsgMnTf32(const DescContext& c, const Finding&) {
  return StrCat("MN-major 32-bit (tf32) operands support only 128B swizzle with 32-byte atomicity; the layout has ",
             Name(EffSw(c)));
}
std::string FixMnTf32(const DescContext&, const Finding&) {
  return "use --swizzle 128B_atom_32B (TMA: CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B), or store tf32 K-major";
}
void CheckAtom32Type(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->arch == DescArch::kTcgen05 && l->major == Major::kMN && EffSw(c) == DescSwizzle::k128BAtom32B &&
      SmemBits(l->type, l->padded) != 32)
    o->Add(r, -1, SmemBits(l->type, l->padded), 32);
}
std::string MsgAtom32Type(const DescContext& c, const Finding& f) {
  return StrCat("128B swizzle with 32-byte atomicity is the MN-major layout of 32-bit operands only; ", Name(L(c)->type),
             " occupies ", f.value, " bits (8- and 16-bit MN-major operands use every mode except this one)");
}
std::string FixAtom32Type(const DescContext&, const Finding&) { return "use 128B swizzle (16-byte atomicity)"; }
void CheckTileMn(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  if (l->major == Major::kK) {
    if (l->mn == 0 || l->mn % 8 != 0) o->Add(r, -1, l->mn, 8);
  } else {
    const uint32_t per16 = static_cast<uint32_t>(F(c)->t);
    if (l->mn == 0 || l->mn % per16 != 0) o->Add(r, -1, l->mn, per16);
  }
}
std::string MsgTileMn(const DescContext& c, const Finding& f) {
  return L(c)->major == Major::kK
             ? StrCat("tile M/N = ", f.value, " is not a multiple of 8: K-major operands are read in core matrices of 8 rows")
             : StrCat("tile M/N = ", f.value, " ", Name(L(c)->type), " elements is not a multiple of ", f.limit,
                   " (16 bytes): MN-major core matrices are 16 bytes wide along M/N");
}
std::string FixTileMn(const DescContext&, const Finding& f) {
  return StrCat("pad M/N to ", RoundUp(static_cast<uint64_t>(f.value == 0 ? 1 : f.value), static_cast<uint64_t>(f.limit)));
}
void CheckTileK(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  if (l->major == Major::kK) {
    const uint32_t per16 = static_cast<uint32_t>(F(c)->t);
    if (l->k == 0 || F(c)->contiguous_bytes % 16 != 0) o->Add(r, -1, l->k, per16);
  } else {
    const uint32_t rows = static_cast<uint32_t>(F(c)->atom_rows);
    if (l->k == 0 || l->k % rows != 0) o->Add(r, -1, l->k, rows);
  }
}
std::string MsgTileK(const DescContext& c, const Finding& f) {
  return L(c)->major == Major::kK
             ? StrCat("tile K = ", f.value, " ", Name(L(c)->type), " elements is not a multiple of ", f.limit,
                   " (16 bytes): K-major core matrices are 16 bytes wide along K")
             : StrCat("tile K = ", f.value, " is not a multiple of ", f.limit, ": MN-major operands are read in groups of ",
                   f.limit, " K rows");
}
std::string FixTileK(const DescContext&, const Finding& f) {
  return StrCat("pad K to ", RoundUp(static_cast<uint64_t>(f.value == 0 ? 1 : f.value), static_cast<uint64_t>(f.limit)));
}
void CheckTileKStep(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->k > 0 && L(c)->k < F(c)->mma_k) o->Add(r, -1, L(c)->k, F(c)->mma_k);
}
std::string MsgTileKStep(const DescContext&, const Finding& f) {
  return StrCat("tile K = ", f.value, " is less than one MMA's K = ", f.limit, ": the MMA reads past the tile");
}
std::string FixTileKStep(const DescContext&, const Finding& f) { return StrCat("make the tile at least ", f.limit, " deep in K"); }
void CheckTileKAtoms(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->major == Major::kK && l->swizzle != DescSwizzle::kNone &&
      F(c)->contiguous_bytes > static_cast<uint64_t>(F(c)->row_bytes))
    o->Add(r, -1, static_cast<int64_t>(F(c)->contiguous_bytes), F(c)->row_bytes);
}
std::string MsgTileKAtoms(const DescContext& c, const Finding& f) {
  return StrCat("the tile's K (", f.value, " B) spans ", F(c)->slabs, " swizzle atoms of ", f.limit,
             " B; one descriptor covers one MMA K slice; slices in later atoms start ", F(c)->slab_bytes,
             " B further per atom (see --k-slice)");
}
std::string FixTileKAtoms(const DescContext&, const Finding&) {
  return "nothing to fix; fill each atom-wide slab with its own TMA box (or a 3D box)";
}
void CheckLboUnused(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->major == Major::kK && l->swizzle != DescSwizzle::kNone && l->has_lbo && !l->lbo_absolute && l->lbo != 16)
    o->Add(r, -1, static_cast<int64_t>(l->lbo), 16);
}
std::string MsgLboUnused(const DescContext&, const Finding& f) {
  return StrCat("LBO = ", f.value, " B for a swizzled K-major layout: PTX says LBO is not used there and assumed to be 1 "
             "(16 B); Triton reports that hardware does use it, so keep it 1 unless you rely on that");
}
std::string FixLboUnused(const DescContext&, const Finding&) { return "set LBO to 16 B (encoded 1), as CUTLASS does"; }
void CheckLboCanonical(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_lbo && !l->lbo_absolute && F(c)->lbo_used && l->lbo != F(c)->canonical_lbo)
    o->Add(r, -1, static_cast<int64_t>(l->lbo), static_cast<int64_t>(F(c)->canonical_lbo));
}
namespace {
bool Swapped(const DescContext& c) {
  const OperandLayout* l = L(c);
  return l->has_lbo && l->has_sbo && l->lbo == F(c)->canonical_sbo && l->sbo == F(c)->canonical_lbo &&
         l->lbo != l->sbo;
}
}  // namespace
std::string MsgLboCanonical(const DescContext& c, const Finding& f) {
  std::string s = StrCat("LBO = ", f.value, " B, but the tile stored densely in TMA order has LBO = ", f.limit, " B (",
                      DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0).lbo_meaning, ")");
  if (Swapped(c)) s += "; LBO and SBO look swapped";
  return s + "; right only if your tile is stored differently";
}
std::string FixLboCanonical(const DescContext&, const Finding& f) { return StrCat("use LBO = ", f.limit, " B for a dense tile"); }
void CheckSboCanonical(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (l && l->has_sbo && l->sbo != F(c)->canonical_sbo)
    o->Add(r, -1, static_cast<int64_t>(l->sbo), static_cast<int64_t>(F(c)->canonical_sbo));
}
std::string MsgSboCanonical(const DescContext& c, const Finding& f) {
  std::string s = StrCat("SBO = ", f.value, " B, but the tile stored densely in TMA order has SBO = ", f.limit, " B (",
                      DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0).sbo_meaning, ")");
  if (Swapped(c)) s += "; LBO and SBO look swapped";
  return s + "; right only if your tile is stored differently";
}
std::string FixSboCanonical(const DescContext&, const Finding& f) { return StrCat("use SBO = ", f.limit, " B for a dense tile"); }
void CheckAbsMajor(const DescContext& c, uint16_t r, FindingList* o) {
  if (L(c) && L(c)->lbo_absolute && L(c)->major == Major::kMN) o->Add(r, -1, 1, 0);
}
std::string MsgAbsMajor(const DescContext&, const Finding&) {
  return "the absolute leading-dimension address mode supports only K-major operands (instruction-descriptor "
         "transpose bits 15 and 16 must be 0)";
}
std::string FixAbsMajor(const DescContext&, const Finding&) { return "store the operand K-major, or use relative LBO"; }
void CheckSmemCapacity(const DescContext& c, uint16_t r, FindingList* o) {
  if (!L(c)) return;
  const uint64_t cap = L(c)->has_target ? static_cast<uint64_t>(Info(L(c)->target).max_smem_per_block) : 232448;
  const uint64_t end = L(c)->smem_address + F(c)->footprint_bytes;
  if (end > cap) o->Add(r, -1, static_cast<int64_t>(end & 0x7fffffffffffffffull), static_cast<int64_t>(cap));
}
std::string MsgSmemCapacity(const DescContext& c, const Finding& f) {
  return StrCat("the tile ends at ", H(static_cast<uint64_t>(f.value)), " (start ", H(L(c)->smem_address), " + ",
             F(c)->footprint_bytes, " B), past the ", f.limit, " B of shared memory a block can have");
}
std::string FixSmemCapacity(const DescContext&, const Finding&) { return "use a smaller tile or an earlier address"; }
void CheckStrideZero(const DescContext& c, uint16_t r, FindingList* o) {
  const OperandLayout* l = L(c);
  if (!l) return;
  const LayoutFacts& f = *F(c);
  bool lbo_needed = false, sbo_needed = false;
  if (l->major == Major::kK) {
    lbo_needed = l->swizzle == DescSwizzle::kNone || l->lbo_absolute;
    sbo_needed = l->mn > 8;
  } else if (l->swizzle == DescSwizzle::kNone) {
    lbo_needed = f.kstep_rows > 8;
    sbo_needed = f.contiguous_bytes > 16;
  } else {
    lbo_needed = f.contiguous_bytes > static_cast<uint64_t>(f.row_bytes);
    sbo_needed = f.kstep_rows > static_cast<uint32_t>(f.atom_rows);
  }
  if (lbo_needed && f.lbo == 0) o->Add(r, 0, 0, 16);
  if (sbo_needed && f.sbo == 0) o->Add(r, 1, 0, 16);
}
std::string MsgStrideZero(const DescContext& c, const Finding& f) {
  const CanonicalLayout cl = DescribeCanonical(L(c)->arch, L(c)->major, L(c)->swizzle, F(c)->smem_bits, 0, 0, 0, 0);
  return StrCat(f.index == 0 ? "LBO" : "SBO", " = 0, but this tile needs it (", f.index == 0 ? cl.lbo_meaning : cl.sbo_meaning,
             "): the MMA would read the same bytes twice");
}
std::string FixStrideZero(const DescContext& c, const Finding& f) {
  return StrCat("use ", f.index == 0 ? "LBO = " : "SBO = ", f.index == 0 ? F(c)->canonical_lbo : F(c)->canonical_sbo,
             " B for a dense tile");
}

}  // namespace tmapgen::desc::rules
