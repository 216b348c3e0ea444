// value.cc: checks, messages and fixes of the descriptor rules about the 64-bit shared-memory descriptor value
//   alone (fields, version, reserved bits, base offset, target) (value.h).
#include "src/desc/rules/value.h"

#include <cstdint>
#include <string>

#include "src/desc/rules/common.h"
#include "src/util/strings.h"

namespace tmapgen::desc::rules {

void CheckLayoutTypeInvalid(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (S(c) && !DescSw(S(c)->desc, &s)) o->Add(r, -1, S(c)->desc.layout_type(), 0);
}
std::string MsgLayoutTypeInvalid(const DescContext&, const Finding& f) {
  return StrCat("layout_type = ", f.value, " (bits 61-63) is not a tcgen05 swizzle mode: values 3, 5 and 7 are invalid");
}
std::string FixLayoutTypeInvalid(const DescContext&, const Finding& f) {
  std::string s = "use 0 (none), 1 (128B with 32B atomicity), 2 (128B), 4 (64B) or 6 (32B)";
  if (f.value == 3) s += "; 3 is wgmma's code for 32B, tcgen05's 32B is 6";
  return s;
}
void CheckVersion(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.arch() == DescArch::kTcgen05 && S(c)->desc.version() != 1)
    o->Add(r, -1, S(c)->desc.version(), 1);
}
std::string MsgVersion(const DescContext&, const Finding& f) {
  return StrCat("bits 46-48 = ", Bin3(static_cast<uint32_t>(f.value)), ": tcgen05 requires the fixed constant 0b001",
             f.value == 0 ? " (a descriptor built the wgmma way leaves it 0)" : "");
}
std::string FixVersion(const DescContext&, const Finding&) {
  return "set bit 46 and clear bits 47-48 (desc = (desc & ~(7ull << 46)) | (1ull << 46))";
}
void CheckFixedZero(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.arch() == DescArch::kTcgen05 && S(c)->desc.fixed_zero() != 0)
    o->Add(r, -1, S(c)->desc.fixed_zero(), 0);
}
std::string MsgFixedZero(const DescContext&, const Finding& f) {
  return StrCat("bits 53-60 = ", H(static_cast<uint64_t>(f.value)), " must be 0",
             f.value == 0xb0 ? ": Table 40 prints the constant as \"0xb00000000\", the 8-bit binary 0b00000000, not "
                               "the hexadecimal 0xb0"
                             : "");
}
std::string FixFixedZero(const DescContext&, const Finding&) { return "clear bits 53-60 (desc &= ~(0xffull << 53))"; }
void CheckReserved(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && S(c)->desc.reserved_bits() != 0)
    o->Add(r, -1, static_cast<int64_t>(S(c)->desc.reserved_bits() & 0x7fffffffffffffffull), 0);
}
std::string MsgReserved(const DescContext& c, const Finding& f) {
  const uint64_t m = static_cast<uint64_t>(f.value);
  const DescArch a = S(c)->desc.arch();
  std::string s = StrCat("bit", (m & (m - 1)) ? "s " : " ", BitList(m), " set where the ", FamilyName(a),
                      " descriptor defines no field");
  if (a == DescArch::kWgmma && (m & (uint64_t{1} << 46)))
    s += "; bit 46 is tcgen05's fixed 0b001: this looks like a tcgen05 descriptor given to wgmma";
  else if (a == DescArch::kWgmma && (m & (uint64_t{1} << 61)))
    s += "; bit 61 is tcgen05's 32-byte-atomicity bit: this looks like a tcgen05 layout type";
  return s;
}
std::string FixReserved(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma
             ? "clear them: wgmma defines bits 0-13, 16-29, 32-45, 49-51 and 62-63"
             : "clear bits 14-15 and 30-31 (a start address or offset wider than 14 bits of 16-byte units spilled "
               "there?)";
}
void CheckBaseNoSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (S(c) && DescSw(S(c)->desc, &s) && s == DescSwizzle::kNone && S(c)->desc.base_offset() != 0)
    o->Add(r, -1, S(c)->desc.base_offset(), 0);
}
std::string MsgBaseNoSwizzle(const DescContext&, const Finding& f) {
  return StrCat("base offset ", f.value, " with no swizzle: the base offset is valid for all swizzling modes except "
             "the no-swizzle mode, so it is ignored here");
}
std::string FixBaseNoSwizzle(const DescContext&, const Finding&) { return "set the base offset to 0"; }
void CheckBaseRange(const DescContext& c, uint16_t r, FindingList* o) {
  DescSwizzle s;
  if (!S(c) || !DescSw(S(c)->desc, &s) || s == DescSwizzle::kNone) return;
  const uint32_t mask = static_cast<uint32_t>(BaseOffsetMask(s));
  if (S(c)->desc.base_offset() > mask) o->Add(r, -1, S(c)->desc.base_offset(), mask);
}
std::string MsgBaseRange(const DescContext& c, const Finding& f) {
  const DescSwizzle s = SwOr(S(c)->desc, DescSwizzle::k128B);
  return StrCat("base offset ", f.value, " with ", Name(s), " swizzle: its pattern repeats every ", RepeatBytes(s),
             " B, so only 0..", f.limit, " name a phase; the literal formula (addr >> 7) & 7 gives larger values for "
             "addresses on the repeat, where Table 41 says the base offset is 0");
}
std::string FixBaseRange(const DescContext& c, const Finding& f) {
  const DescSwizzle s = SwOr(S(c)->desc, DescSwizzle::k128B);
  return StrCat("use (pattern start % ", RepeatBytes(s), ") / 128 = ", f.value & f.limit);
}
void CheckArchTarget(const DescContext& c, uint16_t r, FindingList* o) {
  if (!S(c) || !S(c)->has_target) return;
  const bool ok = S(c)->desc.arch() == DescArch::kWgmma ? TargetHasWgmma(S(c)->target) : TargetHasTcgen05(S(c)->target);
  if (!ok) o->Add(r, -1, static_cast<int>(S(c)->target), 0);
}
std::string MsgArchTarget(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma
             ? StrCat("wgmma.mma_async needs sm_90a; the target is ", Name(S(c)->target))
             : StrCat("tcgen05.mma needs sm_100a, sm_101a, sm_103a, sm_110a or a family target (sm_100f, sm_103f, "
                   "sm_110f); the target is ", Name(S(c)->target));
}
std::string FixArchTarget(const DescContext& c, const Finding&) {
  return S(c)->desc.arch() == DescArch::kWgmma ? "compile for sm_90a, or use tcgen05 descriptors on Blackwell"
                                               : "compile for sm_100a (or another tcgen05 target), or use wgmma on sm_90a";
}
namespace {
bool AbsMode(const DescContext& c) { return S(c) && S(c)->desc.lbo_absolute(); }
}  // namespace
void CheckAbsTarget(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && S(c)->has_target && S(c)->target != Target::kSm103a) o->Add(r, -1, static_cast<int>(S(c)->target), 0);
}
std::string MsgAbsTarget(const DescContext& c, const Finding&) {
  return StrCat("lbo_mode = 1 (leading-dimension absolute address) is supported on sm_103a only; the target is ",
             Name(S(c)->target));
}
std::string FixAbsTarget(const DescContext&, const Finding&) {
  return "use relative LBO (bit 52 = 0) and lay the K chunks out so that they stay within the 128-byte rows, or "
         "target sm_103a";
}
void CheckAbsSwizzle(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && SwOr(S(c)->desc, DescSwizzle::kNone) != DescSwizzle::k128B) o->Add(r, -1, S(c)->desc.layout_type(), 2);
}
std::string MsgAbsSwizzle(const DescContext& c, const Finding&) {
  return StrCat("the absolute leading-dimension address mode supports only 128B swizzle with 16-byte atomicity; the "
             "descriptor has ", Name(SwOr(S(c)->desc, DescSwizzle::kNone)));
}
std::string FixAbsSwizzle(const DescContext&, const Finding&) { return "use 128B swizzle (layout type 2), or relative LBO"; }
void CheckAbsBase(const DescContext& c, uint16_t r, FindingList* o) {
  if (AbsMode(c) && S(c)->desc.base_offset() != 0) o->Add(r, -1, S(c)->desc.base_offset(), 0);
}
std::string MsgAbsBase(const DescContext&, const Finding& f) {
  return StrCat("base offset ", f.value, " with the absolute leading-dimension address mode, which requires 0");
}
std::string FixAbsBase(const DescContext&, const Finding&) {
  return "place the tile on a 1024-byte boundary so the base offset is 0";
}
void CheckSboZero(const DescContext& c, uint16_t r, FindingList* o) {
  if (S(c) && L(c) == nullptr && S(c)->desc.sbo_enc() == 0) o->Add(r, -1, 0, 16);
}
std::string MsgSboZero(const DescContext&, const Finding&) {
  return "SBO = 0: consecutive 8-row groups (K-major) or the stride-dimension steps (MN-major) would read the same "
         "bytes; only a tile with a single group can work";
}
std::string FixSboZero(const DescContext&, const Finding&) {
  return "set SBO to the byte distance between 8-row groups (1024 B for a dense 128B-swizzled K-major tile)";
}

}  // namespace tmapgen::desc::rules
