#include "src/tmap/types.h"

#include "src/util/name_index.h"
#include "src/util/text_util.h"

#include <array>

namespace tmapgen {
namespace {

struct Alias {
  std::string_view name;
  uint8_t value;
};

// ---- data types ----
constexpr std::array<std::string_view, kNumDataTypes> kDataTypeFull = {
    "CU_TENSOR_MAP_DATA_TYPE_UINT8",         "CU_TENSOR_MAP_DATA_TYPE_UINT16",
    "CU_TENSOR_MAP_DATA_TYPE_UINT32",        "CU_TENSOR_MAP_DATA_TYPE_INT32",
    "CU_TENSOR_MAP_DATA_TYPE_UINT64",        "CU_TENSOR_MAP_DATA_TYPE_INT64",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",       "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",       "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ",   "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ",  "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
    "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
};
constexpr std::array<Alias, 62> kDataTypeAliases = {{
    {"u8", 0}, {"uint8", 0}, {"u16", 1}, {"uint16", 1}, {"u32", 2}, {"uint32", 2}, {"s32", 3},
    {"int32", 3}, {"i32", 3}, {"u64", 4}, {"uint64", 4}, {"s64", 5}, {"int64", 5}, {"i64", 5},
    {"f16", 6}, {"fp16", 6}, {"float16", 6}, {"half", 6}, {"f32", 7}, {"fp32", 7}, {"float32", 7},
    {"float", 7}, {"f64", 8}, {"fp64", 8}, {"float64", 8}, {"double", 8}, {"bf16", 9},
    {"bfloat16", 9}, {"f32_ftz", 10}, {"float32_ftz", 10}, {"fp32_ftz", 10}, {"tf32", 11},
    {"tfloat32", 11}, {"tf32_ftz", 12}, {"tfloat32_ftz", 12}, {"16u4_align8b", 13}, {"u4", 13},
    {"b4x16", 13}, {"16u4_align16b", 14}, {"u4_align16b", 14}, {"b4x16_p64", 14},
    {"16u6_align16b", 15}, {"u6", 15}, {"u6_align16b", 15}, {"b6x16_p32", 15}, {"b6p2x16", 15},
    // The cuda.h enumerator names are matched separately; these are the bare suffixes.
    {"UINT8", 0}, {"UINT16", 1}, {"UINT32", 2}, {"INT32", 3}, {"UINT64", 4}, {"INT64", 5},
    {"FLOAT16", 6}, {"FLOAT32", 7}, {"FLOAT64", 8}, {"BFLOAT16", 9}, {"FLOAT32_FTZ", 10},
    {"TFLOAT32", 11}, {"TFLOAT32_FTZ", 12}, {"16U4_ALIGN8B", 13}, {"16U4_ALIGN16B", 14},
    {"16U6_ALIGN16B", 15},
}};

constexpr std::array<std::string_view, kNumInterleaves> kInterleaveFull = {
    "CU_TENSOR_MAP_INTERLEAVE_NONE", "CU_TENSOR_MAP_INTERLEAVE_16B", "CU_TENSOR_MAP_INTERLEAVE_32B"};
constexpr std::array<std::string_view, kNumInterleaves> kInterleaveShort = {"none", "16B", "32B"};
constexpr std::array<Alias, 3> kInterleaveAliases = {{{"none", 0}, {"16B", 1}, {"32B", 2}}};

constexpr std::array<std::string_view, kNumSwizzles> kSwizzleShort = {
    "none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"};
constexpr std::array<Alias, 7> kSwizzleAliases = {{{"none", 0},
                                                   {"32B", 1},
                                                   {"64B", 2},
                                                   {"128B", 3},
                                                   {"128B_atom_32B", 4},
                                                   {"128B_atom_32B_flip_8B", 5},
                                                   {"128B_atom_64B", 6}}};

constexpr std::array<std::string_view, kNumL2Promotions> kL2Full = {
    "CU_TENSOR_MAP_L2_PROMOTION_NONE", "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
    "CU_TENSOR_MAP_L2_PROMOTION_L2_128B", "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"};
constexpr std::array<std::string_view, kNumL2Promotions> kL2Short = {"none", "64B", "128B", "256B"};
constexpr std::array<Alias, 7> kL2Aliases = {
    {{"none", 0}, {"64B", 1}, {"128B", 2}, {"256B", 3}, {"L2_64B", 1}, {"L2_128B", 2}, {"L2_256B", 3}}};

constexpr std::array<std::string_view, kNumOobFills> kOobFull = {
    "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"};
constexpr std::array<std::string_view, kNumOobFills> kOobShort = {"zero", "nan"};
constexpr std::array<Alias, 4> kOobAliases = {
    {{"zero", 0}, {"none", 0}, {"nan", 1}, {"NAN_REQUEST_ZERO_FMA", 1}}};

constexpr std::array<std::string_view, kNumIm2colWideModes> kWideFull = {
    "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W", "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128"};
constexpr std::array<std::string_view, kNumIm2colWideModes> kWideShort = {"w", "w128"};
constexpr std::array<Alias, 2> kWideAliases = {{{"w", 0}, {"w128", 1}}};

constexpr std::array<std::string_view, kNumModes> kModeNames = {
    "tiled", "im2col", "im2col::w", "im2col::w::128", "gather4", "scatter4"};
constexpr std::array<Alias, 12> kModeAliases = {{{"tiled", 0},
                                                 {"tile", 0},
                                                 {"im2col", 1},
                                                 {"im2col::w", 2},
                                                 {"im2col_w", 2},
                                                 {"im2col::w::128", 3},
                                                 {"im2col_w_128", 3},
                                                 {"im2col_w128", 3},
                                                 {"gather4", 4},
                                                 {"tile::gather4", 4},
                                                 {"scatter4", 5},
                                                 {"tile::scatter4", 5}}};

constexpr std::array<std::string_view, kNumDirections> kDirectionNames = {
    "load", "load_cluster", "store", "reduce", "prefetch"};
constexpr std::array<Alias, 9> kDirectionAliases = {{{"load", 0},
                                                     {"load_cta", 0},
                                                     {"shared::cta", 0},
                                                     {"load_cluster", 1},
                                                     {"shared::cluster", 1},
                                                     {"store", 2},
                                                     {"reduce", 3},
                                                     {"prefetch", 4},
                                                     {"prefetch_l2", 4}}};

constexpr std::array<std::string_view, kNumReduceOps> kReduceNames = {"add", "min", "max", "inc",
                                                                      "dec", "and", "or",  "xor"};
constexpr std::array<Alias, 8> kReduceAliases = {
    {{"add", 0}, {"min", 1}, {"max", 2}, {"inc", 3}, {"dec", 4}, {"and", 5}, {"or", 6}, {"xor", 7}}};



std::string_view AcceptedList(std::string_view list) { return list; }

}  // namespace









std::string_view PtxElemType(DataType t) {
  static constexpr std::array<std::string_view, kNumDataTypes> k = {
      ".u8", ".u16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f32", ".f64", ".bf16", ".f32.ftz",
      ".tf32", ".tf32.ftz", ".b4x16", ".b4x16_p64", ".b6x16_p32"};
  return k[static_cast<int>(t)];
}
int PtxElemTypeValue(DataType t) {
  // PTX ISA Table 33: .f32.ftz is 8, .f64 9, .bf16 10; the rest equal the driver values.
  switch (t) {
    case DataType::kFloat64: return 9;
    case DataType::kBfloat16: return 10;
    case DataType::kFloat32Ftz: return 8;
    default: return static_cast<int>(t);
  }
}





int PtxSwizzleModeValue(Swizzle s) {
  switch (s) {
    case Swizzle::kNone: return 0;
    case Swizzle::k32B: return 1;
    case Swizzle::k64B: return 2;
    default: return 3;
  }
}
int PtxSwizzleAtomicityValue(Swizzle s) {
  switch (s) {
    case Swizzle::k128BAtom32B: return 1;
    case Swizzle::k128BAtom32BFlip8B: return 2;
    case Swizzle::k128BAtom64B: return 3;
    default: return 0;
  }
}









std::string_view FullName(DataType v) { return kDataTypeFull[static_cast<int>(v)]; }
std::string_view FullName(Interleave v) { return kInterleaveFull[static_cast<int>(v)]; }
std::string_view ShortName(Interleave v) { return kInterleaveShort[static_cast<int>(v)]; }
std::string_view ShortName(Swizzle v) { return kSwizzleShort[static_cast<int>(v)]; }
std::string_view FullName(L2Promotion v) { return kL2Full[static_cast<int>(v)]; }
std::string_view ShortName(L2Promotion v) { return kL2Short[static_cast<int>(v)]; }
std::string_view FullName(OobFill v) { return kOobFull[static_cast<int>(v)]; }
std::string_view ShortName(OobFill v) { return kOobShort[static_cast<int>(v)]; }
std::string_view FullName(Im2colWideMode v) { return kWideFull[static_cast<int>(v)]; }
std::string_view ShortName(Im2colWideMode v) { return kWideShort[static_cast<int>(v)]; }
std::string_view Name(Mode v) { return kModeNames[static_cast<int>(v)]; }
std::string_view Name(Direction v) { return kDirectionNames[static_cast<int>(v)]; }
std::string_view Name(ReduceOp v) { return kReduceNames[static_cast<int>(v)]; }
std::string_view Name(Encoder v) {
  switch (v) {
    case Encoder::kTiled: return "cuTensorMapEncodeTiled";
    case Encoder::kIm2col: return "cuTensorMapEncodeIm2col";
    case Encoder::kIm2colWide: return "cuTensorMapEncodeIm2colWide";
  }
  return "";
}

namespace {
// Name -> value indexes (src/util/name_index.h), built at compile time in the order a scan would try
// the names: the cuda.h names first, then the aliases; the first of equal names wins.
template <size_t kSlots, size_t N, size_t M>
constexpr NameIndex<kSlots> MakeIndex(const std::array<std::string_view, N>& full, const std::array<Alias, M>& aliases) {
  NameIndex<kSlots> idx;
  for (size_t i = 0; i < N; ++i)
    if (!idx.Add(full[i], static_cast<uint8_t>(i))) throw "NameIndex full";
  for (const Alias& a : aliases)
    if (!idx.Add(a.name, a.value)) throw "NameIndex full";
  return idx;
}
template <size_t kSlots, size_t M>
constexpr NameIndex<kSlots> MakeIndex(const std::array<Alias, M>& aliases) {
  return MakeIndex<kSlots>(std::array<std::string_view, 0>{}, aliases);
}
constexpr NameIndex<256> kDataTypeIndex = MakeIndex<256>(kDataTypeFull, kDataTypeAliases);
constexpr NameIndex<32> kInterleaveIndex = MakeIndex<32>(kInterleaveFull, kInterleaveAliases);
constexpr NameIndex<32> kSwizzleIndex = MakeIndex<32>(internal_types::kSwizzleFull, kSwizzleAliases);
constexpr NameIndex<32> kL2Index = MakeIndex<32>(kL2Full, kL2Aliases);
constexpr NameIndex<32> kOobIndex = MakeIndex<32>(kOobFull, kOobAliases);
constexpr NameIndex<16> kWideIndex = MakeIndex<16>(kWideFull, kWideAliases);
constexpr NameIndex<32> kModeIndex = MakeIndex<32>(kModeAliases);
constexpr NameIndex<32> kDirectionIndex = MakeIndex<32>(kDirectionAliases);
constexpr NameIndex<32> kReduceIndex = MakeIndex<32>(kReduceAliases);
constexpr NameIndex<64> MakeTargetIndex() {
  NameIndex<64> idx;
  for (const TargetInfo& t : internal_types::kTargets)
    if (!idx.Add(t.name, static_cast<uint8_t>(t.target))) throw "NameIndex full";
  return idx;
}
constexpr NameIndex<64> kTargetIndex = MakeTargetIndex();

template <typename E, size_t kSlots>
bool ParseIndexed(const NameIndex<kSlots>& idx, std::string_view s, E* out) {
  uint8_t v = 0;
  if (!idx.Find(s, &v)) return false;
  *out = static_cast<E>(v);
  return true;
}
}  // namespace

bool Parse(std::string_view s, DataType* out) { return ParseIndexed(kDataTypeIndex, s, out); }
bool Parse(std::string_view s, Interleave* out) { return ParseIndexed(kInterleaveIndex, s, out); }
bool Parse(std::string_view s, Swizzle* out) { return ParseIndexed(kSwizzleIndex, s, out); }
bool Parse(std::string_view s, L2Promotion* out) { return ParseIndexed(kL2Index, s, out); }
bool Parse(std::string_view s, OobFill* out) { return ParseIndexed(kOobIndex, s, out); }
bool Parse(std::string_view s, Im2colWideMode* out) { return ParseIndexed(kWideIndex, s, out); }
bool Parse(std::string_view s, Mode* out) { return ParseIndexed(kModeIndex, s, out); }
bool Parse(std::string_view s, Direction* out) { return ParseIndexed(kDirectionIndex, s, out); }
bool Parse(std::string_view s, ReduceOp* out) { return ParseIndexed(kReduceIndex, s, out); }
bool Parse(std::string_view s, Target* out) { return ParseIndexed(kTargetIndex, s, out); }

std::string_view AcceptedNames(DataType*) {
  return AcceptedList(
      "u8, u16, u32, s32, u64, s64, f16, f32, f64, bf16, f32_ftz, tf32, tf32_ftz, 16u4_align8b, "
      "16u4_align16b, 16u6_align16b (or the CU_TENSOR_MAP_DATA_TYPE_* names; aliases: uint8, int32, "
      "fp16, half, float, double, bfloat16, b4x16, b4x16_p64, b6x16_p32)");
}
std::string_view AcceptedNames(Interleave*) { return "none, 16B, 32B (or CU_TENSOR_MAP_INTERLEAVE_*)"; }
std::string_view AcceptedNames(Swizzle*) {
  return "none, 32B, 64B, 128B, 128B_atom_32B, 128B_atom_32B_flip_8B, 128B_atom_64B (or "
         "CU_TENSOR_MAP_SWIZZLE_*)";
}
std::string_view AcceptedNames(L2Promotion*) {
  return "none, 64B, 128B, 256B (or CU_TENSOR_MAP_L2_PROMOTION_*)";
}
std::string_view AcceptedNames(OobFill*) {
  return "zero, nan (or CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)";
}
std::string_view AcceptedNames(Im2colWideMode*) {
  return "w, w128 (or CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128)";
}
std::string_view AcceptedNames(Mode*) { return "tiled, im2col, im2col::w, im2col::w::128, gather4, scatter4"; }
std::string_view AcceptedNames(Direction*) { return "load, load_cluster, store, reduce, prefetch"; }
std::string_view AcceptedNames(ReduceOp*) { return "add, min, max, inc, dec, and, or, xor"; }
std::string_view AcceptedNames(Target*) {
  return "sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_101a, sm_103, sm_103a, sm_103f, sm_110, sm_110a, "
         "sm_110f, sm_120, sm_120a, sm_120f, sm_121a";
}

}  // namespace tmapgen
