#include "src/tmap/types.h"

#include "src/util/name_index.h"
#include "src/util/text_util.h"

#include <array>
#include <string>

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
// The data-type names (types.h, DataTypeName; docs/schema.md "Data types"). Sources:
// - cuda.h (CUDA 13.0) CUtensorMapDataType: UINT8 .. 16U6_ALIGN16B; it has no signed 8- or 16-bit type and no
//   8-, 6- or 4-bit float type: such data is carried by the type of its width, whose copies move the bits.
// - The MMA column: PTX ISA 9.7.15 (wgmma .atype/.btype: f16, bf16, tf32, e4m3, e5m2, s8, u8; 32-bit floats
//   are read as tf32) and 9.7.16 (tcgen05.mma .kind::f8f6f4: e4m3, e5m2, e2m3, e3m2, e2m1; .kind::i8: s8, u8).
// - The carriers of the data aliases: DeepGEMM csrc/jit_kernels/impls/runtime_utils.hpp l. 85-88 (commit
//   54e2261) encodes torch.float8_e4m3fn as UINT8 and packed FP4 as 16U4_ALIGN8B; CUTLASS
//   include/cute/arch/copy_sm90_desc.hpp l. 225-233 maps int8_t, float_e4m3_t, float_e5m2_t and
//   float_ue8m0_t to UINT8 and float_e2m3_t / float_e3m2_t to 16U6_ALIGN16B.
using M = MmaOperandType;
using D = DataType;
constexpr std::string_view kF8 = "an 8-bit float (FP8 E4M3)", kF8b = "an 8-bit float (FP8 E5M2)";
constexpr std::string_view kF6a = "a 6-bit float (FP6 E2M3)", kF6b = "a 6-bit float (FP6 E3M2)";
constexpr std::string_view kF4 = "a 4-bit float (FP4 E2M1)", kS8 = "a signed 8-bit integer";
constexpr std::string_view kS16 = "a signed 16-bit integer";
constexpr DataTypeName kDataTypeNameTable[] = {
    // Row i: the short name of DataType i.
    {"u8", D::kUint8, M::kU8, ""}, {"u16", D::kUint16, M::kNone, ""}, {"u32", D::kUint32, M::kNone, ""},
    {"s32", D::kInt32, M::kNone, ""}, {"u64", D::kUint64, M::kNone, ""}, {"s64", D::kInt64, M::kNone, ""},
    {"f16", D::kFloat16, M::kF16, ""}, {"f32", D::kFloat32, M::kTF32, ""}, {"f64", D::kFloat64, M::kNone, ""},
    {"bf16", D::kBfloat16, M::kBF16, ""}, {"f32_ftz", D::kFloat32Ftz, M::kTF32, ""},
    {"tf32", D::kTfloat32, M::kTF32, ""}, {"tf32_ftz", D::kTfloat32Ftz, M::kTF32, ""},
    {"16u4_align8b", D::k16U4Align8B, M::kNone, ""}, {"16u4_align16b", D::k16U4Align16B, M::kNone, ""},
    {"16u6_align16b", D::k16U6Align16B, M::kNone, ""},
    // Other spellings of the same map types.
    {"uint8", D::kUint8, M::kU8, ""}, {"uint16", D::kUint16, M::kNone, ""}, {"uint32", D::kUint32, M::kNone, ""},
    {"int32", D::kInt32, M::kNone, ""}, {"i32", D::kInt32, M::kNone, ""}, {"uint64", D::kUint64, M::kNone, ""},
    {"int64", D::kInt64, M::kNone, ""}, {"i64", D::kInt64, M::kNone, ""}, {"fp16", D::kFloat16, M::kF16, ""},
    {"float16", D::kFloat16, M::kF16, ""}, {"half", D::kFloat16, M::kF16, ""}, {"fp32", D::kFloat32, M::kTF32, ""},
    {"float32", D::kFloat32, M::kTF32, ""}, {"float", D::kFloat32, M::kTF32, ""},
    {"fp64", D::kFloat64, M::kNone, ""}, {"float64", D::kFloat64, M::kNone, ""},
    {"double", D::kFloat64, M::kNone, ""}, {"bfloat16", D::kBfloat16, M::kBF16, ""},
    {"float32_ftz", D::kFloat32Ftz, M::kTF32, ""}, {"fp32_ftz", D::kFloat32Ftz, M::kTF32, ""},
    {"tfloat32", D::kTfloat32, M::kTF32, ""}, {"tfloat32_ftz", D::kTfloat32Ftz, M::kTF32, ""},
    {"u4", D::k16U4Align8B, M::kNone, ""}, {"b4x16", D::k16U4Align8B, M::kNone, ""},
    {"u4_align16b", D::k16U4Align16B, M::kNone, ""}, {"b4x16_p64", D::k16U4Align16B, M::kNone, ""},
    {"u6", D::k16U6Align16B, M::kNone, ""}, {"u6_align16b", D::k16U6Align16B, M::kNone, ""},
    {"b6x16_p32", D::k16U6Align16B, M::kNone, ""}, {"b6p2x16", D::k16U6Align16B, M::kNone, ""},
    // Data aliases: what the bytes hold, carried by the map type of their width.
    {"e4m3", D::kUint8, M::kE4M3, kF8}, {"fp8_e4m3", D::kUint8, M::kE4M3, kF8},
    {"float_e4m3", D::kUint8, M::kE4M3, kF8}, {"float8_e4m3fn", D::kUint8, M::kE4M3, kF8},
    {"e5m2", D::kUint8, M::kE5M2, kF8b}, {"fp8_e5m2", D::kUint8, M::kE5M2, kF8b},
    {"float_e5m2", D::kUint8, M::kE5M2, kF8b}, {"float8_e5m2", D::kUint8, M::kE5M2, kF8b},
    {"fp8", D::kUint8, M::kAmbiguous, "an 8-bit float (FP8: E4M3 or E5M2)"},
    {"ue8m0", D::kUint8, M::kNone, "an 8-bit scale factor (UE8M0)"},
    {"ue4m3", D::kUint8, M::kNone, "an 8-bit scale factor (UE4M3)"},
    {"s8", D::kUint8, M::kS8, kS8}, {"int8", D::kUint8, M::kS8, kS8}, {"i8", D::kUint8, M::kS8, kS8},
    {"s16", D::kUint16, M::kNone, kS16}, {"int16", D::kUint16, M::kNone, kS16}, {"i16", D::kUint16, M::kNone, kS16},
    {"e2m1", D::k16U4Align8B, M::kE2M1, kF4}, {"fp4", D::k16U4Align8B, M::kE2M1, kF4},
    {"fp4_e2m1", D::k16U4Align8B, M::kE2M1, kF4},
    {"e2m3", D::k16U6Align16B, M::kE2M3, kF6a}, {"fp6_e2m3", D::k16U6Align16B, M::kE2M3, kF6a},
    {"e3m2", D::k16U6Align16B, M::kE3M2, kF6b}, {"fp6_e3m2", D::k16U6Align16B, M::kE3M2, kF6b},
    {"fp6", D::k16U6Align16B, M::kAmbiguous, "a 6-bit float (FP6: E2M3 or E3M2)"},
};
constexpr int kNumDataTypeNames = static_cast<int>(sizeof(kDataTypeNameTable) / sizeof(kDataTypeNameTable[0]));
static_assert(kNumDataTypeNames < 256, "rows are kept in one byte");
constexpr bool ShortNamesFirst() {
  for (int i = 0; i < kNumDataTypes; ++i)
    if (static_cast<int>(kDataTypeNameTable[i].type) != i || !kDataTypeNameTable[i].holds.empty() ||
        kDataTypeNameTable[i].name != internal_types::kDataTypeShort[i])
      return false;
  return true;
}
static_assert(ShortNamesFirst(), "row i is the short name of DataType i");

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
std::string_view Name(Completion v) {
  switch (v) {
    case Completion::kMbarrierCompleteTx: return "mbarrier::complete_tx::bytes";
    case Completion::kBulkGroup: return "bulk_group";
    case Completion::kNone: return "none";
  }
  return "none";
}
std::string_view Name(SmemRole v) {
  switch (v) {
    case SmemRole::kDestination: return "destination";
    case SmemRole::kSource: return "source";
    case SmemRole::kNone: return "none";
  }
  return "none";
}
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
// Every data-type name to its row: the cuda.h enumerators and their bare suffixes ("UINT8") to the row of
// their type, then the table's names.
constexpr NameIndex<256> MakeDataTypeIndex() {
  NameIndex<256> idx;
  for (int i = 0; i < kNumDataTypes; ++i) {
    if (!idx.Add(kDataTypeFull[i], static_cast<uint8_t>(i))) throw "NameIndex full";
    if (!idx.Add(kDataTypeFull[i].substr(24), static_cast<uint8_t>(i))) throw "NameIndex full";  // "UINT8"
  }
  for (int r = 0; r < kNumDataTypeNames; ++r)
    if (!idx.Add(kDataTypeNameTable[r].name, static_cast<uint8_t>(r))) throw "NameIndex full";
  return idx;
}
constexpr NameIndex<256> kDataTypeIndex = MakeDataTypeIndex();
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

bool Parse(std::string_view s, DataType* out) {
  uint8_t row = 0;
  if (!kDataTypeIndex.Find(s, &row) || !kDataTypeNameTable[row].holds.empty()) return false;
  *out = kDataTypeNameTable[row].type;
  return true;
}
bool ParseDataType(std::string_view s, DataType* out, uint8_t* alias) {
  uint8_t row = 0;
  if (!kDataTypeIndex.Find(s, &row)) return false;
  *out = kDataTypeNameTable[row].type;
  *alias = kDataTypeNameTable[row].holds.empty() ? kNoDataAlias : row;
  return true;
}
int FindDataTypeName(std::string_view s) {
  uint8_t row = 0;
  return kDataTypeIndex.Find(s, &row) ? row : -1;
}
const DataTypeName* DataTypeNames(int* count) {
  *count = kNumDataTypeNames;
  return kDataTypeNameTable;
}
const DataTypeName& DataTypeNameRow(int row) {
  return kDataTypeNameTable[row >= 0 && row < kNumDataTypeNames ? row : 0];
}
std::string_view DataAliasNote(uint8_t alias) {
  // Built once: one text per data alias.
  static const std::array<std::string, kNumDataTypeNames>* const notes = [] {
    auto* n = new std::array<std::string, kNumDataTypeNames>();
    for (int r = 0; r < kNumDataTypeNames; ++r) {
      const DataTypeName& d = kDataTypeNameTable[r];
      if (d.holds.empty()) continue;
      std::string how;
      switch (d.type) {
        case DataType::kUint8: case DataType::kUint16:
          // Bytes are bytes to a copy: what they mean matters only to the instruction that reads them.
          how = d.holds.find("integer") != std::string_view::npos
                    ? " (TMA moves the bytes unchanged: the signedness matters only to the code that reads them, "
                      "an MMA's .s8 type or a kernel's arithmetic; the map's type fixes the element size, the NaN "
                      "fill and the reductions)"
                : d.holds.find("scale") != std::string_view::npos
                    ? " (TMA moves the bytes unchanged: the scale format matters only to the block-scaled MMA that "
                      "reads them; the map's type fixes the element size, the NaN fill and the reductions)"
                    : " (TMA moves the bytes unchanged: the float format matters only to the MMA that reads them; "
                      "the map's type fixes the element size, the NaN fill and the reductions)";
          break;
        case DataType::k16U4Align8B:
          how = " (two 4-bit values per byte in global and shared memory, as .kind::mxf4 and .kind::mxf4nvf4 read "
                "them; for .kind::f8f6f4 / mxf8f6f4, which read one value per byte, give 16u4_align16b)";
          break;
        default:
          how = " (16 six-bit values in 12 bytes, padded to 16 bytes in shared memory; the only 6-bit type)";
          break;
      }
      (*n)[r] = std::string(d.name) + " is " + std::string(d.holds) + ", not a tensor-map type: the map uses " +
                std::string(FullName(d.type)) + how;
    }
    return n;
  }();
  return alias == kNoDataAlias || alias >= kNumDataTypeNames ? std::string_view() : (*notes)[alias];
}
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
      "fp16, half, float, double, bfloat16, b4x16, b4x16_p64, b6x16_p32; what the bytes hold: e4m3, e5m2, "
      "fp8, ue8m0, ue4m3, s8, int8, s16, int16 (as u8/u16), e2m1, fp4 (16u4_align8b), e2m3, e3m2, fp6 "
      "(16u6_align16b); docs/schema.md lists every name)");
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
