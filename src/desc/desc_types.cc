#include "src/desc/desc_types.h"

#include "src/util/text_util.h"

#include <array>
#include <string>

namespace tmapgen::desc {
namespace {

struct Alias {
  std::string_view name;
  uint8_t value;
};

template <typename E, size_t N>
bool ParseWith(const std::array<Alias, N>& table, std::string_view s, E* out) {
  for (const Alias& a : table) {
    if (EqualsIgnoreCase(a.name, s)) {
      *out = static_cast<E>(a.value);
      return true;
    }
  }
  return false;
}

constexpr std::array<std::string_view, kNumElemTypes> kElemNames = {"f16",  "bf16", "tf32", "e4m3", "e5m2",
                                                                    "e2m3", "e3m2", "e2m1", "s8",   "u8"};
// Element types are read through the data-type name table (src/tmap/types.h), whose MMA column holds these values.
#define TMAPGEN_SAME(x) static_assert(static_cast<int>(ElemType::x) == static_cast<int>(MmaOperandType::x), #x)
TMAPGEN_SAME(kF16); TMAPGEN_SAME(kBF16); TMAPGEN_SAME(kTF32); TMAPGEN_SAME(kE4M3); TMAPGEN_SAME(kE5M2);
TMAPGEN_SAME(kE2M3); TMAPGEN_SAME(kE3M2); TMAPGEN_SAME(kE2M1); TMAPGEN_SAME(kS8); TMAPGEN_SAME(kU8);
#undef TMAPGEN_SAME
static_assert(kNumElemTypes == static_cast<int>(MmaOperandType::kNone), "the MMA column ends with the element types");

constexpr std::array<std::string_view, kNumDescSwizzles> kSwizzleNames = {"none", "32B", "64B", "128B",
                                                                         "128B_atom_32B"};
constexpr std::array<Alias, 14> kSwizzleAliases = {{
    {"none", 0},         {"interleave", 0},    {"0", 0},     {"32B", 1},   {"32", 1},   {"64B", 2},
    {"64", 2},           {"128B", 3},          {"128", 3},   {"128B_atom_32B", 4},
    {"128B_base32B", 4}, {"128B_32B_atom", 4}, {"128B_atom32", 4}, {"SWIZZLE_128B_BASE32B", 4},
}};

constexpr std::array<std::string_view, kNumMmaKinds> kKindNames = {"f16", "tf32", "f8f6f4", "i8",
                                                                  "mxf8f6f4", "mxf4", "mxf4nvf4"};
constexpr std::array<Alias, 14> kKindAliases = {{
    {"f16", 0}, {"kind::f16", 0}, {"tf32", 1}, {"kind::tf32", 1}, {"f8f6f4", 2}, {"kind::f8f6f4", 2}, {"i8", 3},
    {"kind::i8", 3}, {"mxf8f6f4", 4}, {"kind::mxf8f6f4", 4}, {"mxf4", 5}, {"kind::mxf4", 5}, {"mxf4nvf4", 6},
    {"kind::mxf4nvf4", 6},
}};

}  // namespace

int ElemBits(ElemType t) {
  switch (t) {
    case ElemType::kF16: case ElemType::kBF16: return 16;
    case ElemType::kTF32: return 32;
    case ElemType::kE2M3: case ElemType::kE3M2: return 6;
    case ElemType::kE2M1: return 4;
    default: return 8;
  }
}

int SmemBits(ElemType t, bool padded) {
  switch (t) {
    case ElemType::kE2M3: case ElemType::kE3M2: return 8;
    case ElemType::kE2M1: return padded ? 8 : 4;
    default: return ElemBits(t);
  }
}

bool IsSubByte(ElemType t) { return t == ElemType::kE2M3 || t == ElemType::kE3M2 || t == ElemType::kE2M1; }
bool IsFloat8(ElemType t) { return t == ElemType::kE4M3 || t == ElemType::kE5M2; }
bool IsInt8(ElemType t) { return t == ElemType::kS8 || t == ElemType::kU8; }

int RowBytes(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return 16;
    case DescSwizzle::k32B: return 32;
    case DescSwizzle::k64B: return 64;
    default: return 128;
  }
}

int RepeatBytes(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return 0;
    case DescSwizzle::k32B: return 256;
    case DescSwizzle::k64B: return 512;
    case DescSwizzle::k128B: return 1024;
    case DescSwizzle::k128BAtom32B: return 512;
  }
  return 0;
}

int BaseOffsetMask(DescSwizzle s) { return s == DescSwizzle::kNone ? 0 : RepeatBytes(s) / 128 - 1; }
int AtomicityBytes(DescSwizzle s) { return s == DescSwizzle::k128BAtom32B ? 32 : 16; }
int AtomRows(DescSwizzle s, Major m) { return (s == DescSwizzle::k128BAtom32B && m == Major::kMN) ? 4 : 8; }

int LayoutTypeValue(DescArch a, DescSwizzle s) {
  if (a == DescArch::kWgmma) {
    switch (s) {
      case DescSwizzle::kNone: return 0;
      case DescSwizzle::k128B: return 1;
      case DescSwizzle::k64B: return 2;
      case DescSwizzle::k32B: return 3;
      default: return -1;
    }
  }
  switch (s) {
    case DescSwizzle::kNone: return 0;
    case DescSwizzle::k128BAtom32B: return 1;
    case DescSwizzle::k128B: return 2;
    case DescSwizzle::k64B: return 4;
    case DescSwizzle::k32B: return 6;
  }
  return -1;
}

bool SwizzleFromLayoutType(DescArch a, uint32_t value, DescSwizzle* out) {
  for (int i = 0; i < kNumDescSwizzles; ++i) {
    const DescSwizzle s = static_cast<DescSwizzle>(i);
    if (LayoutTypeValue(a, s) == static_cast<int>(value)) {
      *out = s;
      return true;
    }
  }
  return false;
}

Swizzle MapSwizzleFor(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return Swizzle::kNone;
    case DescSwizzle::k32B: return Swizzle::k32B;
    case DescSwizzle::k64B: return Swizzle::k64B;
    case DescSwizzle::k128B: return Swizzle::k128B;
    case DescSwizzle::k128BAtom32B: return Swizzle::k128BAtom32B;
  }
  return Swizzle::kNone;
}

bool DescSwizzleForMap(Swizzle s, DescSwizzle* out) {
  switch (s) {
    case Swizzle::kNone: *out = DescSwizzle::kNone; return true;
    case Swizzle::k32B: *out = DescSwizzle::k32B; return true;
    case Swizzle::k64B: *out = DescSwizzle::k64B; return true;
    case Swizzle::k128B: *out = DescSwizzle::k128B; return true;
    case Swizzle::k128BAtom32B: *out = DescSwizzle::k128BAtom32B; return true;
    default: return false;
  }
}

std::string_view CuteSwizzle(DescSwizzle s) {
  switch (s) {
    case DescSwizzle::kNone: return "Swizzle<0,4,3>";
    case DescSwizzle::k32B: return "Swizzle<1,4,3>";
    case DescSwizzle::k64B: return "Swizzle<2,4,3>";
    case DescSwizzle::k128B: return "Swizzle<3,4,3>";
    case DescSwizzle::k128BAtom32B: return "Swizzle<2,5,2>";
  }
  return "";
}

bool TargetHasWgmma(Target t) { return t == Target::kSm90a; }
bool TargetHasTcgen05(Target t) { return HasBlackwellDatacenterFeatures(t); }
bool TargetHasKindI8(Target t) {
  return t == Target::kSm100a || t == Target::kSm101a || t == Target::kSm110a;
}

std::string_view Name(DescArch v) { return v == DescArch::kWgmma ? "wgmma" : "tcgen05"; }
std::string_view Name(Operand v) { return v == Operand::kA ? "A" : "B"; }
std::string_view Name(Major v) { return v == Major::kK ? "K" : "MN"; }
std::string_view Name(ElemType v) { return kElemNames[static_cast<int>(v)]; }
std::string_view Name(DescSwizzle v) { return kSwizzleNames[static_cast<int>(v)]; }
std::string_view Name(MmaKind v) { return kKindNames[static_cast<int>(v)]; }

bool Parse(std::string_view s, DescArch* out) {
  static constexpr std::array<Alias, 6> kT = {
      {{"wgmma", 0}, {"sm90", 0}, {"gmma", 0}, {"tcgen05", 1}, {"umma", 1}, {"sm100", 1}}};
  return ParseWith(kT, s, out);
}
bool Parse(std::string_view s, Operand* out) {
  static constexpr std::array<Alias, 2> kT = {{{"A", 0}, {"B", 1}}};
  return ParseWith(kT, s, out);
}
bool Parse(std::string_view s, Major* out) {
  static constexpr std::array<Alias, 10> kT = {{{"K", 0}, {"K-major", 0}, {"kmajor", 0}, {"k_major", 0}, {"MN", 1},
                                               {"MN-major", 1}, {"mnmajor", 1}, {"mn_major", 1}, {"M", 1}, {"N", 1}}};
  return ParseWith(kT, s, out);
}
bool Parse(std::string_view s, ElemType* out) {
  const int row = FindDataTypeName(s);
  if (row < 0) return false;
  const MmaOperandType m = DataTypeNameRow(row).mma;
  if (m == MmaOperandType::kNone || m == MmaOperandType::kAmbiguous) return false;
  *out = static_cast<ElemType>(m);
  return true;
}

std::string RefusedElemType(std::string_view s) {
  const int row = FindDataTypeName(s);
  if (row < 0) return "";
  const DataTypeName& d = DataTypeNameRow(row);
  if (d.mma == MmaOperandType::kAmbiguous) {
    const bool f8 = d.type == DataType::kUint8;
    // PTX ISA: wgmma names .e4m3 and .e5m2 as different types; the tcgen05 instruction descriptor's A/B type
    // field codes e4m3 0, e5m2 1, e2m3 3, e3m2 4.
    return std::string(s) + " is " + std::string(d.holds) + " and does not say which: the MMA takes them as different " +
           (f8 ? "types (wgmma .e4m3 / .e5m2; tcgen05 instruction-descriptor type 0 / 1); give e4m3 or e5m2"
               : "types (tcgen05 instruction-descriptor type 3 / 4); give e2m3 or e3m2");
  }
  if (d.mma != MmaOperandType::kNone) return "";
  const std::string what = d.holds.empty() ? "names the tensor-map type " + std::string(FullName(d.type))
                                           : "is " + std::string(d.holds);
  return std::string(s) + " " + what + ", which is not an MMA operand type; expected one of: " +
         std::string(AcceptedNames(static_cast<ElemType*>(nullptr)));
}
bool Parse(std::string_view s, DescSwizzle* out) { return ParseWith(kSwizzleAliases, s, out); }
bool Parse(std::string_view s, MmaKind* out) { return ParseWith(kKindAliases, s, out); }

std::string_view AcceptedNames(DescArch*) { return "wgmma, tcgen05"; }
std::string_view AcceptedNames(Operand*) { return "A, B"; }
std::string_view AcceptedNames(Major*) { return "K, MN"; }
std::string_view AcceptedNames(ElemType*) {
  return "f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8 (aliases: fp16, half, bfloat16, f32 (= tf32), fp4, "
         "int8, uint8; every name of docs/schema.md \"Data types\" that names one of them)";
}
std::string_view AcceptedNames(DescSwizzle*) { return "none, 32B, 64B, 128B, 128B_atom_32B"; }
std::string_view AcceptedNames(MmaKind*) { return "f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4"; }

}  // namespace tmapgen::desc
