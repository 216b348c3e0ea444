#include "src/desc/instr_descriptor.h"

#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

// Table 42: .kind::tf32, .kind::f16, .kind::f8f6f4, .kind::i8.
constexpr BitField kTable42[] = {
    {"sparsity_selector", 0, 2, 0}, {"sparsity", 2, 1, 0},    {"saturate", 3, 1, 0},
    {"d_type", 4, 2, 0},            {"a_type", 7, 3, 0},      {"b_type", 10, 3, 0},
    {"negate_a", 13, 1, 0},         {"negate_b", 14, 1, 0},   {"transpose_a", 15, 1, 0},
    {"transpose_b", 16, 1, 0},      {"n", 17, 6, 3},          {"m", 24, 5, 4},
    {"max_shift", 30, 2, 0},
};
constexpr uint32_t kReserved42 = (1u << 6) | (1u << 23) | (1u << 29);

// Table 43: .kind::mxf8f6f4.
constexpr BitField kTable43[] = {
    {"sparsity", 2, 1, 0},     {"b_sf_id", 4, 2, 0},      {"a_type", 7, 3, 0},     {"b_type", 10, 3, 0},
    {"negate_a", 13, 1, 0},    {"negate_b", 14, 1, 0},    {"transpose_a", 15, 1, 0}, {"transpose_b", 16, 1, 0},
    {"n", 17, 6, 3},           {"scale_type", 23, 1, 0},  {"m", 27, 2, 7},         {"a_sf_id", 29, 2, 0},
};
constexpr uint32_t kReserved43 = 0x3u | (1u << 3) | (1u << 6) | (7u << 24) | (1u << 31);

// Table 44: .kind::mxf4, .kind::mxf4nvf4.
constexpr BitField kTable44[] = {
    {"sparsity", 2, 1, 0},     {"b_sf_id", 4, 2, 0},      {"a_type", 7, 3, 0},     {"b_type", 10, 2, 0},
    {"negate_a", 13, 1, 0},    {"negate_b", 14, 1, 0},    {"transpose_a", 15, 1, 0}, {"transpose_b", 16, 1, 0},
    {"n", 17, 6, 3},           {"scale_type", 23, 1, 0},  {"m", 27, 2, 7},         {"a_sf_id", 29, 2, 0},
    {"k", 31, 1, 0},
};
constexpr uint32_t kReserved44 = 0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (7u << 24);

uint32_t Bits(uint32_t v, int lo, int width) { return (v >> lo) & ((1u << width) - 1); }
uint32_t Put(uint32_t v, int lo, int width) { return (v & ((1u << width) - 1)) << lo; }

bool Table42(MmaKind k) { return !IsBlockScaled(k); }

}  // namespace

std::string_view Name(DType v) {
  switch (v) {
    case DType::kF16: return "f16";
    case DType::kF32: return "f32";
    case DType::kS32: return "s32";
  }
  return "?";
}
std::string_view Name(ScaleType v) { return v == ScaleType::kUE4M3 ? "ue4m3" : "ue8m0"; }

bool Parse(std::string_view s, DType* out) {
  if (s == "f16" || s == "F16" || s == "fp16") { *out = DType::kF16; return true; }
  if (s == "f32" || s == "F32" || s == "fp32") { *out = DType::kF32; return true; }
  if (s == "s32" || s == "S32" || s == "i32" || s == "int32") { *out = DType::kS32; return true; }
  return false;
}
bool Parse(std::string_view s, ScaleType* out) {
  if (s == "ue4m3" || s == "UE4M3") { *out = ScaleType::kUE4M3; return true; }
  if (s == "ue8m0" || s == "UE8M0") { *out = ScaleType::kUE8M0; return true; }
  return false;
}

bool IsBlockScaled(MmaKind k) { return k == MmaKind::kMxf8f6f4 || k == MmaKind::kMxf4 || k == MmaKind::kMxf4nvf4; }

const BitField* IdescFieldTable(MmaKind kind, int* n) {
  if (Table42(kind)) {
    *n = static_cast<int>(sizeof(kTable42) / sizeof(kTable42[0]));
    return kTable42;
  }
  if (kind == MmaKind::kMxf8f6f4) {
    *n = static_cast<int>(sizeof(kTable43) / sizeof(kTable43[0]));
    return kTable43;
  }
  *n = static_cast<int>(sizeof(kTable44) / sizeof(kTable44[0]));
  return kTable44;
}

uint32_t IdescReservedMask(MmaKind kind) {
  if (Table42(kind)) return kReserved42;
  return kind == MmaKind::kMxf8f6f4 ? kReserved43 : kReserved44;
}

int TypeCode(MmaKind kind, ElemType t) {
  switch (kind) {
    case MmaKind::kF16:
      if (t == ElemType::kF16) return 0;
      if (t == ElemType::kBF16) return 1;
      return -1;
    case MmaKind::kTf32: return t == ElemType::kTF32 ? 2 : -1;
    case MmaKind::kF8f6f4:
    case MmaKind::kMxf8f6f4:
      switch (t) {
        case ElemType::kE4M3: return 0;
        case ElemType::kE5M2: return 1;
        case ElemType::kE2M3: return 3;
        case ElemType::kE3M2: return 4;
        case ElemType::kE2M1: return 5;
        default: return -1;
      }
    case MmaKind::kI8:
      if (t == ElemType::kU8) return 0;
      if (t == ElemType::kS8) return 1;
      return -1;
    case MmaKind::kMxf4:
    case MmaKind::kMxf4nvf4: return t == ElemType::kE2M1 ? 1 : -1;
  }
  return -1;
}

bool TypeFromCode(MmaKind kind, uint32_t code, ElemType* out) {
  for (int i = 0; i < kNumElemTypes; ++i) {
    const ElemType t = static_cast<ElemType>(i);
    if (TypeCode(kind, t) == static_cast<int>(code)) {
      *out = t;
      return true;
    }
  }
  return false;
}

int MaxShiftCode(uint32_t shift) {
  switch (shift) {
    case 0: return 0;
    case 8: return 1;
    case 16: return 2;
    case 32: return 3;
    default: return -1;
  }
}
uint32_t MaxShiftFromCode(uint32_t code) { return code == 0 ? 0 : (4u << code); }

uint32_t EncodeIdesc(const IdescSpec& s) {
  uint32_t v = 0;
  const int at = TypeCode(s.kind, s.a_type), bt = TypeCode(s.kind, s.b_type);
  const uint32_t a = at < 0 ? 7u : static_cast<uint32_t>(at);
  const uint32_t b = bt < 0 ? 7u : static_cast<uint32_t>(bt);
  v |= Put(s.sparse ? 1 : 0, 2, 1);
  v |= Put(a, 7, 3);
  v |= Put(s.negate_a ? 1 : 0, 13, 1) | Put(s.negate_b ? 1 : 0, 14, 1);
  v |= Put(s.a_major == Major::kMN ? 1 : 0, 15, 1) | Put(s.b_major == Major::kMN ? 1 : 0, 16, 1);
  v |= Put(s.n >> 3, 17, 6);
  if (Table42(s.kind)) {
    v |= Put(s.sparse_selector, 0, 2);
    v |= Put(s.saturate ? 1 : 0, 3, 1);
    v |= Put(static_cast<uint32_t>(s.d_type), 4, 2);
    v |= Put(b, 10, 3);
    v |= Put(s.m >> 4, 24, 5);
    const int ms = MaxShiftCode(s.max_shift);
    v |= Put(ms < 0 ? 0u : static_cast<uint32_t>(ms), 30, 2);
  } else {
    v |= Put(s.b_sf_id, 4, 2);
    v |= Put(b, 10, s.kind == MmaKind::kMxf8f6f4 ? 3 : 2);
    v |= Put(static_cast<uint32_t>(s.scale_type), 23, 1);
    v |= Put(s.m >> 7, 27, 2);
    v |= Put(s.a_sf_id, 29, 2);
    if (s.kind != MmaKind::kMxf8f6f4) v |= Put(s.k96 ? 1 : 0, 31, 1);
  }
  return v;
}

IdescFields DecodeIdescFields(uint32_t value, MmaKind kind) {
  IdescFields f;
  f.raw = value;
  f.sparse = Bits(value, 2, 1);
  f.a_type = Bits(value, 7, 3);
  f.negate_a = Bits(value, 13, 1);
  f.negate_b = Bits(value, 14, 1);
  f.transpose_a = Bits(value, 15, 1);
  f.transpose_b = Bits(value, 16, 1);
  f.n_enc = Bits(value, 17, 6);
  if (Table42(kind)) {
    f.sparse_selector = Bits(value, 0, 2);
    f.saturate = Bits(value, 3, 1);
    f.d_type = Bits(value, 4, 2);
    f.b_type = Bits(value, 10, 3);
    f.m_enc = Bits(value, 24, 5);
    f.max_shift = Bits(value, 30, 2);
  } else {
    f.b_sf_id = Bits(value, 4, 2);
    f.b_type = Bits(value, 10, kind == MmaKind::kMxf8f6f4 ? 3 : 2);
    f.scale_type = Bits(value, 23, 1);
    f.m_enc = Bits(value, 27, 2);
    f.a_sf_id = Bits(value, 29, 2);
    if (kind != MmaKind::kMxf8f6f4) f.k_bit = Bits(value, 31, 1);
  }
  f.reserved = value & IdescReservedMask(kind);
  return f;
}

IdescSpec SpecFromFields(const IdescFields& f, const IdescSpec& context) {
  IdescSpec s = context;
  s.sparse = f.sparse != 0;
  s.sparse_selector = f.sparse_selector;
  s.saturate = f.saturate != 0;
  if (f.d_type <= 2) s.d_type = static_cast<DType>(f.d_type);
  ElemType t;
  if (TypeFromCode(s.kind, f.a_type, &t)) s.a_type = t;
  if (TypeFromCode(s.kind, f.b_type, &t)) s.b_type = t;
  s.negate_a = f.negate_a != 0;
  s.negate_b = f.negate_b != 0;
  s.a_major = f.transpose_a ? Major::kMN : Major::kK;
  s.b_major = f.transpose_b ? Major::kMN : Major::kK;
  s.n = f.n_enc << 3;
  s.m = IsBlockScaled(s.kind) ? (f.m_enc << 7) : (f.m_enc << 4);
  s.k96 = f.k_bit != 0;
  s.max_shift = MaxShiftFromCode(f.max_shift);
  s.scale_type = f.scale_type ? ScaleType::kUE8M0 : ScaleType::kUE4M3;
  s.a_sf_id = f.a_sf_id;
  s.b_sf_id = f.b_sf_id;
  return s;
}

uint32_t InstrK(const IdescSpec& s) {
  uint32_t k = 32;
  switch (s.kind) {
    case MmaKind::kF16: k = 16; break;
    case MmaKind::kTf32: k = 8; break;
    case MmaKind::kF8f6f4: case MmaKind::kI8: case MmaKind::kMxf8f6f4: k = 32; break;
    case MmaKind::kMxf4: case MmaKind::kMxf4nvf4: k = s.k96 ? 96 : 64; break;
  }
  return s.sparse ? 2 * k : k;
}

bool ValidVariant(const IdescSpec& s) {
  if (s.cta_group != 1 && s.cta_group != 2) return false;
  if (s.ws && (s.cta_group != 1 || IsBlockScaled(s.kind))) return false;
  return true;
}

bool ValidM(const IdescSpec& s) {
  if (s.ws) return s.m == 32 || s.m == 64 || s.m == 128;
  if (s.cta_group == 1) return IsBlockScaled(s.kind) ? s.m == 128 : (s.m == 64 || s.m == 128);
  if (IsBlockScaled(s.kind) && s.sparse) return s.m == 256;
  return s.m == 128 || s.m == 256;
}

std::string ValidMText(const IdescSpec& s) {
  if (s.ws) return "32, 64, 128";
  if (s.cta_group == 1) return IsBlockScaled(s.kind) ? "128" : "64, 128";
  if (IsBlockScaled(s.kind) && s.sparse) return "256";
  return "128, 256";
}

bool TmemANarrowsN(const IdescSpec& s) {
  if (!s.a_tmem || s.ws || IsBlockScaled(s.kind)) return false;
  if (s.cta_group == 1)  // SM100_MMA_{TF32,F16BF16,F8F6F4}_TS; SM100_MMA_S8_TS keeps the i8 shapes
    return s.m == 128 && (s.kind == MmaKind::kTf32 || s.kind == MmaKind::kF16 || s.kind == MmaKind::kF8f6f4);
  return s.cta_group == 2;  // SM100_MMA_{TF32,F16BF16,F8F6F4,S8}_2x1SM_TS
}

bool ValidN(const IdescSpec& s) {
  const uint32_t n = s.n;
  if (s.ws) return n == 64 || n == 128 || (n == 256 && !s.sparse);
  if (n == 0 || n > 256) return false;
  if (TmemANarrowsN(s)) return s.cta_group == 1 ? n >= 16 && n % 16 == 0 : n >= 32 && n % 32 == 0;
  if (s.cta_group == 1) {
    if (s.kind == MmaKind::kI8) return n == 8 || n == 16 || n == 24 || n == 32 || (n >= 48 && n % 16 == 0);
    return n % 8 == 0;
  }
  if (s.kind == MmaKind::kI8) return n >= 32 && n % 32 == 0;
  return n >= 16 && n % 16 == 0;
}

std::string ValidNText(const IdescSpec& s) {
  if (s.ws) return s.sparse ? "64, 128" : "64, 128, 256";
  if (TmemANarrowsN(s)) return s.cta_group == 1 ? "16..256 step 16" : "32..256 step 32";
  if (s.cta_group == 1) return s.kind == MmaKind::kI8 ? "8, 16, 24, 32, then 48..256 step 16" : "8..256 step 8";
  return s.kind == MmaKind::kI8 ? "32..256 step 32" : "16..256 step 16";
}

std::string FormText(const IdescSpec& s) {
  return StrCat("tcgen05.mma", s.ws ? ".ws" : "", s.sparse ? ".sp" : "", ".cta_group::", s.cta_group, ".kind::",
                Name(s.kind), " (", s.sparse ? "sparse" : "dense", ", A in ",
                s.a_tmem ? "tensor memory: [a_tmem]" : "shared memory: a_desc", ")");
}

std::string FormShapeText(const IdescSpec& s) {
  static constexpr uint32_t kMs[] = {32, 64, 128, 256};
  std::string o;
  for (const uint32_t m : kMs) {
    IdescSpec t = s;
    t.m = m;
    if (!ValidVariant(t) || !ValidM(t)) continue;
    o += StrCat(o.empty() ? "" : "; ", "M = ", m, ": N in ", ValidNText(t));
  }
  return o.empty() ? std::string("no shape (the form does not exist)") : o;
}

}  // namespace tmapgen::desc
