// map.cc: checks, messages and fixes of the descriptor rules about the descriptor against the tensor map that
//   fills the buffer (map.h).
#include "src/desc/rules/map.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/common.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

namespace {
bool UserVsMap(const DescContext& c) { return M(c) != nullptr && S(c)->user_value; }
}  // namespace
void CheckMapInterleave(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->interleaved) o->Add(r, -1, static_cast<int>(M(c)->map.interleave), 0);
}
std::string MsgMapInterleave(const DescContext& c, const Finding&) {
  return StrCat("the map uses ", FullName(M(c)->map.interleave), ": interleaved layouts are no canonical MMA layout");
}
std::string FixMapInterleave(const DescContext&, const Finding&) {
  return "use CU_TENSOR_MAP_INTERLEAVE_NONE with a swizzle matching the descriptor";
}
void CheckMapSwizzleUnsupported(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && !M(c)->swizzle_ok) o->Add(r, -1, static_cast<int>(M(c)->map.swizzle), 0);
}
std::string MsgMapSwizzleUnsupported(const DescContext& c, const Finding&) {
  return StrCat("the map's ", FullName(M(c)->map.swizzle), " has no ", FamilyName(M(c)->use.arch),
             " descriptor counterpart (descriptors name none, 32B, 64B, 128B",
             M(c)->use.arch == DescArch::kTcgen05 ? " and 128B with 32-byte atomicity)" : ")");
}
std::string FixMapSwizzleUnsupported(const DescContext& c, const Finding&) {
  return M(c)->use.arch == DescArch::kWgmma ? "use CU_TENSOR_MAP_SWIZZLE_128B (or 64B/32B) for wgmma operands"
                                            : "use CU_TENSOR_MAP_SWIZZLE_128B, or _128B_ATOM_32B for MN-major tf32";
}
void CheckMapDtype(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && !M(c)->type_known && !M(c)->use.has_type) o->Add(r, -1, static_cast<int>(M(c)->map.data_type), 0);
}
std::string MsgMapDtype(const DescContext& c, const Finding&) {
  return StrCat("the map's data type ", FullName(M(c)->map.data_type), " is no MMA operand type");
}
std::string FixMapDtype(const DescContext&, const Finding&) {
  return "use f16, bf16, f32/tf32, u8 (8-bit types) or a 16U4/16U6 packed type, or give --dtype";
}
void CheckMapTypeBits(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->use.has_type && !M(c)->type_bits_agree)
    o->Add(r, -1, SmemBits(M(c)->layout.type, M(c)->layout.padded), M(c)->map_facts.smem_element_bits);
}
std::string MsgMapTypeBits(const DescContext& c, const Finding& f) {
  return StrCat("the operand is ", Name(M(c)->layout.type), " (", f.value, " bits in shared memory) but the map copies ",
             ShortName(M(c)->map.data_type), " (", f.limit, " bits): rows and core matrices would not line up");
}
std::string FixMapTypeBits(const DescContext&, const Finding&) { return "make the map's data type and the MMA operand type agree"; }
void CheckMapBoxWider(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (m && !m->interleaved && m->inner_bytes > static_cast<uint64_t>(RowBytes(m->layout.swizzle)))
    o->Add(r, 0, static_cast<int64_t>(m->inner_bytes), RowBytes(m->layout.swizzle));
}
std::string MsgMapBoxWider(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  return StrCat("the box's rows are ", f.value, " B wide along ", m->use.major == Major::kK ? "K" : "M/N",
             ", more than one ", m->layout.swizzle == DescSwizzle::kNone ? "no-swizzle core matrix" : "swizzle atom", " (",
             f.limit, " B): the MMA's canonical layout has rows ", f.limit, " B apart, the TMA writes them ", f.value,
             " B apart");
}
std::string FixMapBoxWider(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const uint64_t elems = static_cast<uint64_t>(f.limit) * 8 / static_cast<uint64_t>(m->facts.smem_bits);
  if (m->layout.swizzle == DescSwizzle::kNone && f.value <= 128)
    return StrCat("swizzle the map to match (", f.value <= 32 ? "32B" : f.value <= 64 ? "64B" : "128B",
               ") and the descriptor with it, or use box_dim[0] = ", elems, " with a 3D box for the rest");
  return StrCat("use box_dim[0] = ", elems, " and one box (or a 3D box) per ", f.limit, "-byte slab");
}
void CheckMapBoxNarrower(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (m && !m->interleaved && m->layout.swizzle != DescSwizzle::kNone && m->inner_bytes > 0 &&
      m->inner_bytes < static_cast<uint64_t>(RowBytes(m->layout.swizzle)))
    o->Add(r, 0, static_cast<int64_t>(m->inner_bytes), RowBytes(m->layout.swizzle));
}
std::string MsgMapBoxNarrower(const DescContext& c, const Finding& f) {
  return StrCat("the box's rows are ", f.value, " B, narrower than the ", Name(M(c)->layout.swizzle),
             " swizzle atom: the TMA writes rows ", f.value, " B apart while the canonical layout has them ", f.limit,
             " B apart");
}
std::string FixMapBoxNarrower(const DescContext&, const Finding& f) {
  return StrCat("use the swizzle whose span equals the row (", f.value == 32 ? "32B" : f.value == 64 ? "64B" : "none",
             ") in both, or widen box_dim[0] to ", f.limit, " bytes");
}
void CheckMapDstAlign(const DescContext& c, uint16_t r, FindingList* o) {
  if (M(c) && M(c)->smem_known && M(c)->dst % 128 != 0) o->Add(r, -1, static_cast<int64_t>(M(c)->dst % 0x40000), 128);
}
std::string MsgMapDstAlign(const DescContext& c, const Finding&) {
  return StrCat("the map's shared-memory destination ", H(M(c)->dst), " is not 128-byte aligned, which every tensor copy requires");
}
std::string FixMapDstAlign(const DescContext& c, const Finding&) {
  return StrCat("align the destination to 128 bytes (", H(RoundUp(M(c)->dst, 128)), "), better to the swizzle repeat");
}
void CheckMapDstPhase(const DescContext& c, uint16_t r, FindingList* o) {
  const MapDerivation* m = M(c);
  if (!m || !m->smem_known || m->layout.swizzle == DescSwizzle::kNone || m->facts.repeat_bytes == 0) return;
  if (m->dst % static_cast<uint64_t>(m->facts.repeat_bytes) != 0)
    o->Add(r, -1, m->facts.base_offset, m->facts.repeat_bytes);
}
std::string MsgMapDstPhase(const DescContext& c, const Finding& f) {
  return StrCat("the map's destination ", H(M(c)->dst), " is not aligned to the ", f.limit, "-byte swizzle repeat: the TMA "
             "writes with pattern phase ", f.value, ", so the descriptor needs base offset ", f.value);
}
std::string FixMapDstPhase(const DescContext& c, const Finding& f) {
  return StrCat("align the destination to ", f.limit, " bytes (", H(RoundUp(M(c)->dst, static_cast<uint64_t>(f.limit))),
             "), or keep base offset ", f.value, " in every descriptor of this buffer");
}
namespace {
// The layout-type value the other family uses for the map's swizzle, in this family's field width.
bool OtherFamilyEncoding(const DescContext& c, uint32_t* other) {
  const MapDerivation* m = M(c);
  const DescArch own = S(c)->desc.arch();
  const DescArch oth = own == DescArch::kWgmma ? DescArch::kTcgen05 : DescArch::kWgmma;
  const int v_own = LayoutTypeValue(own, m->layout.swizzle);
  const int v_oth = LayoutTypeValue(oth, m->layout.swizzle);
  const uint32_t width_mask = own == DescArch::kWgmma ? 3u : 7u;
  const uint32_t field = S(c)->desc.layout_type();
  if (v_oth < 0 || static_cast<int>(field) == v_own) return false;
  if ((static_cast<uint32_t>(v_oth) & width_mask) != field) return false;
  *other = static_cast<uint32_t>(v_oth);
  return true;
}
}  // namespace
void CheckMapEncoding(const DescContext& c, uint16_t r, FindingList* o) {
  uint32_t other;
  if (UserVsMap(c) && M(c)->swizzle_ok && OtherFamilyEncoding(c, &other))
    o->Add(r, -1, S(c)->desc.layout_type(), LayoutTypeValue(S(c)->desc.arch(), M(c)->layout.swizzle));
}
std::string MsgMapEncoding(const DescContext& c, const Finding& f) {
  const DescArch own = S(c)->desc.arch();
  const DescArch oth = own == DescArch::kWgmma ? DescArch::kTcgen05 : DescArch::kWgmma;
  DescSwizzle read = DescSwizzle::kNone;
  const bool valid = S(c)->desc.swizzle(&read);
  return StrCat("layout_type = ", f.value, " is ", FamilyName(oth), "'s code for the map's ", Name(M(c)->layout.swizzle),
             ": was the other family's encoding used? ", FamilyName(own), " reads ", f.value, " as ",
             valid ? std::string(Name(read)) : std::string("an invalid mode"), "; ", FamilyName(own), "'s ",
             Name(M(c)->layout.swizzle), " is ", f.limit);
}
std::string FixMapEncoding(const DescContext& c, const Finding& f) {
  return StrCat("set layout_type = ", f.limit, " (", FamilyName(S(c)->desc.arch()), " encoding)");
}
void CheckMapSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  DescSwizzle s;
  if (!S(c)->desc.swizzle(&s)) return;  // desc-layout-type-invalid reports it
  if (RowBytes(s) != RowBytes(M(c)->layout.swizzle) || (s == DescSwizzle::kNone) != (M(c)->layout.swizzle == DescSwizzle::kNone))
    o->Add(r, -1, static_cast<int>(s), static_cast<int>(M(c)->layout.swizzle));
}
std::string MsgMapSwizzle(const DescContext& c, const Finding& f) {
  return StrCat("the descriptor reads with ", Name(static_cast<DescSwizzle>(f.value)), " swizzle but the map writes with ",
             FullName(M(c)->map.swizzle), ": every row but the first is read from the wrong 16-byte chunks");
}
std::string FixMapSwizzle(const DescContext& c, const Finding& f) {
  return StrCat("set the descriptor's layout type to ", LayoutTypeValue(S(c)->desc.arch(), static_cast<DescSwizzle>(f.limit)),
             " (", Name(static_cast<DescSwizzle>(f.limit)), "), or change the map");
}
void CheckMapAtomicity(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  DescSwizzle s;
  if (!S(c)->desc.swizzle(&s)) return;
  if (RowBytes(s) == RowBytes(M(c)->layout.swizzle) && s != DescSwizzle::kNone &&
      AtomicityBytes(s) != AtomicityBytes(M(c)->layout.swizzle))
    o->Add(r, -1, AtomicityBytes(s), AtomicityBytes(M(c)->layout.swizzle));
}
std::string MsgMapAtomicity(const DescContext& c, const Finding& f) {
  return StrCat("both swizzle 128 B, but the descriptor uses ", f.value, "-byte atomicity and the map (",
             FullName(M(c)->map.swizzle), ") ", f.limit, "-byte atomicity: chunks are permuted differently");
}
std::string FixMapAtomicity(const DescContext& c, const Finding&) {
  return StrCat("set the descriptor's layout type to ", LayoutTypeValue(S(c)->desc.arch(), M(c)->layout.swizzle), " (",
             Name(M(c)->layout.swizzle), ")");
}
namespace {
std::string SwapNote(const DescContext& c) {
  const SmemDesc& d = S(c)->desc;
  const SmemDesc& e = M(c)->desc;
  if (d.lbo_bytes() == e.sbo_bytes() && d.sbo_bytes() == e.lbo_bytes() && d.lbo_bytes() != d.sbo_bytes())
    return "; LBO and SBO look swapped";
  if (d.lbo_bytes() == e.lbo_bytes() * 16 || d.sbo_bytes() == e.sbo_bytes() * 16)
    return "; it looks like bytes were written where 16-byte units belong";
  if (e.lbo_bytes() == d.lbo_bytes() * 16 || e.sbo_bytes() == d.sbo_bytes() * 16)
    return "; it looks like a value already divided by 16 was encoded again";
  return "";
}
}  // namespace
void CheckMapLbo(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->facts.lbo_used || S(c)->desc.lbo_absolute()) return;
  if (S(c)->desc.lbo_bytes() != M(c)->desc.lbo_bytes())
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.lbo_bytes()), static_cast<int64_t>(M(c)->desc.lbo_bytes()));
}
std::string MsgMapLbo(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const CanonicalLayout cl = DescribeCanonical(m->use.arch, m->use.major, m->layout.swizzle, m->facts.smem_bits, 0, 0, 0, 0);
  return StrCat("LBO = ", U16(static_cast<uint64_t>(f.value)), ", but in the box the ", cl.lbo_meaning, " is ",
             U16(static_cast<uint64_t>(f.limit)), SwapNote(c));
}
std::string FixMapLbo(const DescContext&, const Finding& f) {
  return StrCat("set LBO to ", f.limit, " B (encoded ", f.limit / 16, ")");
}
void CheckMapSbo(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  if (S(c)->desc.sbo_bytes() != M(c)->desc.sbo_bytes())
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.sbo_bytes()), static_cast<int64_t>(M(c)->desc.sbo_bytes()));
}
std::string MsgMapSbo(const DescContext& c, const Finding& f) {
  const MapDerivation* m = M(c);
  const CanonicalLayout cl = DescribeCanonical(m->use.arch, m->use.major, m->layout.swizzle, m->facts.smem_bits, 0, 0, 0, 0);
  return StrCat("SBO = ", U16(static_cast<uint64_t>(f.value)), ", but in the box the ", cl.sbo_meaning, " is ",
             U16(static_cast<uint64_t>(f.limit)), SwapNote(c));
}
std::string FixMapSbo(const DescContext&, const Finding& f) {
  return StrCat("set SBO to ", f.limit, " B (encoded ", f.limit / 16, ")");
}
namespace {
// Expected base offset for the user's start (which may be a K slice into the box).
uint32_t ExpectedBase(const DescContext& c) {
  const MapDerivation* m = M(c);
  const uint64_t mask = static_cast<uint64_t>(BaseOffsetMask(m->layout.swizzle));
  const uint64_t user_line = S(c)->desc.start_bytes() & ~uint64_t{127};
  const uint64_t dst_line = m->desc.start_bytes() & ~uint64_t{127};
  return static_cast<uint32_t>((m->desc.base_offset() + ((user_line - dst_line) >> 7)) & mask);
}
}  // namespace
void CheckMapBase(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok || M(c)->layout.swizzle == DescSwizzle::kNone) return;
  const uint32_t want = ExpectedBase(c);
  if (S(c)->desc.base_offset() != want) o->Add(r, -1, S(c)->desc.base_offset(), want);
}
std::string MsgMapBase(const DescContext& c, const Finding& f) {
  return StrCat("base offset ", f.value, " but the TMA wrote the tile at ", H(M(c)->dst), M(c)->smem_known ? "" : " (assumed)",
             " with pattern phase ", f.limit, ": rows are read with the wrong XOR");
}
std::string FixMapBase(const DescContext&, const Finding& f) { return StrCat("set the base offset to ", f.limit); }
void CheckMapStartOutside(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  const uint64_t start = S(c)->desc.start_bytes();
  const uint64_t dst = M(c)->desc.start_bytes();
  if (start < dst || start >= dst + M(c)->facts.footprint_bytes)
    o->Add(r, -1, static_cast<int64_t>(start), static_cast<int64_t>(dst));
}
std::string MsgMapStartOutside(const DescContext& c, const Finding& f) {
  return StrCat("the descriptor starts at ", H(static_cast<uint64_t>(f.value)), ", outside the box the map writes at ",
             H(static_cast<uint64_t>(f.limit)), M(c)->smem_known ? "" : " (assumed; give --smem-address or the map's smem_address)",
             " .. +", M(c)->facts.footprint_bytes, " B");
}
std::string FixMapStartOutside(const DescContext& c, const Finding&) {
  return StrCat("start the descriptor at the map's destination ", H(M(c)->dst), " (plus the K-slice offset)");
}
namespace {
// The K slice the user's start corresponds to, or -1.
int SliceOf(const DescContext& c) {
  const MapDerivation* m = M(c);
  const uint64_t start = S(c)->desc.start_bytes();
  const uint32_t n = m->facts.k_slices == 0 ? 1 : m->facts.k_slices;
  for (uint32_t k = 0; k < n && k < 4096; ++k) {
    const Advance a = AdvanceKSlice(m->layout, m->facts, m->desc, k);
    if (a.desc.start_bytes() == start) return static_cast<int>(k);
  }
  return -1;
}
}  // namespace
void CheckMapStartOffset(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c)) return;
  const uint64_t start = S(c)->desc.start_bytes();
  const uint64_t dst = M(c)->desc.start_bytes();
  if (start < dst || start >= dst + M(c)->facts.footprint_bytes || start == dst) return;
  if (SliceOf(c) < 0) o->Add(r, -1, static_cast<int64_t>(start - dst), 0);
}
std::string MsgMapStartOffset(const DescContext&, const Finding& f) {
  return StrCat("the descriptor starts ", f.value, " B into the box, which is not where any K slice starts");
}
std::string FixMapStartOffset(const DescContext&, const Finding&) {
  return "start at the box, or at a K slice (tmapgen desc ... --k-slice N prints each)";
}
void CheckMapChunks(const DescContext& c, uint16_t r, FindingList* o) {
  if (!UserVsMap(c) || !M(c)->swizzle_ok) return;
  const int k = SliceOf(c);
  if (k != 0) return;  // the first K slice only
  const ChunkCompare cc = CompareChunks(*M(c), S(c)->desc);
  if (cc.compared && cc.mismatched > 0) o->Add(r, -1, cc.mismatched, cc.total);
}
std::string MsgMapChunks(const DescContext& c, const Finding& f) {
  const ChunkCompare cc = CompareChunks(*M(c), S(c)->desc);
  return StrCat(f.value, " of ", f.limit, " 16-byte chunks of the first K slice are read from bytes the map did not put "
             "them in; first: ", M(c)->use.major == Major::kK ? "row " : "K row ", cc.first_row, ", 16-byte column ",
             cc.first_col, " is read at ", H(cc.first_mma), " but was written at ", H(cc.first_tma));
}
std::string FixMapChunks(const DescContext& c, const Finding&) {
  return StrCat("use the derived descriptor ", H(M(c)->desc.bits()), " (tmapgen desc ", FamilyName(M(c)->use.arch),
             " --for-map ...); the drawing (--draw) shows both placements");
}

}  // namespace tmapgen::desc::rules
