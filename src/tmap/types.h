// types.h: the vocabulary of tensor maps: data types, interleave, swizzle, L2 promotion, OOB fill,
// im2col wide mode, the mode of use, the copy direction, the reduction operation and the target.
//
// Contract
// - Every enum whose name starts with a CUDA driver enum (DataType, Interleave, Swizzle, L2Promotion,
//   OobFill, Im2colWideMode) has the numeric values of cuda.h (CUDA 13.0), so a value can be passed to
//   the driver as it is.
// - Names: `FullName()` gives the cuda.h enumerator (`CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B`), `ShortName()`
//   the short form used on the command line and in JSON (`128B_atom_32B`). `Parse...()` accepts both, case
//   insensitively, plus a few documented aliases (`fp16`, `half`). Parsing never allocates and returns
//   false on an unknown name.
// - Data types have one table of names (kDataTypeNames below, documented in docs/schema.md "Data types")
//   read by every input. A name either spells a CUtensorMapDataType (`bf16`, `half`, `uint8`) or says what
//   the bytes hold where cuda.h has no such type (`e4m3`, `int8`: a *data alias*, carried by the cuda.h type
//   of the same width). `Parse(s, DataType*)` takes only the former; `ParseDataType` takes both and says
//   which data alias was given, so that no input merges the two meanings silently.
// - Pure functions and constant tables only: no I/O, no allocation on the hot paths, thread-safe.
#ifndef TMAPGEN_SRC_TMAP_TYPES_H_
#define TMAPGEN_SRC_TMAP_TYPES_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace tmapgen {

// CUtensorMapDataType.
enum class DataType : uint8_t {
  kUint8 = 0, kUint16 = 1, kUint32 = 2, kInt32 = 3, kUint64 = 4, kInt64 = 5, kFloat16 = 6,
  kFloat32 = 7, kFloat64 = 8, kBfloat16 = 9, kFloat32Ftz = 10, kTfloat32 = 11, kTfloat32Ftz = 12,
  k16U4Align8B = 13, k16U4Align16B = 14, k16U6Align16B = 15,
};
inline constexpr int kNumDataTypes = 16;

// CUtensorMapInterleave.
enum class Interleave : uint8_t { kNone = 0, k16B = 1, k32B = 2 };
inline constexpr int kNumInterleaves = 3;

// CUtensorMapSwizzle.
enum class Swizzle : uint8_t {
  kNone = 0, k32B = 1, k64B = 2, k128B = 3, k128BAtom32B = 4, k128BAtom32BFlip8B = 5, k128BAtom64B = 6,
};
inline constexpr int kNumSwizzles = 7;

// CUtensorMapL2promotion.
enum class L2Promotion : uint8_t { kNone = 0, k64B = 1, k128B = 2, k256B = 3 };
inline constexpr int kNumL2Promotions = 4;

// CUtensorMapFloatOOBfill.
enum class OobFill : uint8_t { kNone = 0, kNanRequestZeroFma = 1 };
inline constexpr int kNumOobFills = 2;

// CUtensorMapIm2ColWideMode.
enum class Im2colWideMode : uint8_t { kW = 0, kW128 = 1 };
inline constexpr int kNumIm2colWideModes = 2;

// How the map is used by cp.async.bulk.tensor (the driver never sees this). gather4 and scatter4 use a
// 2D tiled map; im2col::w and im2col::w::128 use a map from cuTensorMapEncodeIm2colWide.
enum class Mode : uint8_t { kTiled = 0, kIm2col = 1, kIm2colW = 2, kIm2colW128 = 3, kGather4 = 4, kScatter4 = 5 };
inline constexpr int kNumModes = 6;

// The copy the map is used for.
enum class Direction : uint8_t {
  kLoadCta = 0,      // cp.async.bulk.tensor...shared::cta.global
  kLoadCluster = 1,  // cp.async.bulk.tensor...shared::cluster.global
  kStore = 2,        // cp.async.bulk.tensor...global.shared::cta
  kReduce = 3,       // cp.reduce.async.bulk.tensor...global.shared::cta
  kPrefetch = 4,     // cp.async.bulk.prefetch.tensor...L2.global
};
inline constexpr int kNumDirections = 5;

// cp.reduce.async.bulk.tensor .redOp.
enum class ReduceOp : uint8_t { kAdd = 0, kMin = 1, kMax = 2, kInc = 3, kDec = 4, kAnd = 5, kOr = 6, kXor = 7 };
inline constexpr int kNumReduceOps = 8;

// Compilation targets. The order is the order of the report's target lists.
enum class Target : uint8_t {
  kSm90 = 0, kSm90a, kSm100, kSm100a, kSm100f, kSm101a, kSm103, kSm103a, kSm103f, kSm110, kSm110a,
  kSm110f, kSm120, kSm120a, kSm120f, kSm121a,
};
inline constexpr int kNumTargets = 16;

// The encoder that builds a map for a mode.
enum class Encoder : uint8_t { kTiled = 0, kIm2col = 1, kIm2colWide = 2 };

// ---- per-value facts -------------------------------------------------------------------------------

// Bits one element occupies in global memory: 4 for the 16U4 types, 6 for 16U6, else 8 x size.
constexpr inline int DataTypeBits(DataType t) {
  switch (t) {
    case DataType::kUint8: return 8;
    case DataType::kUint16: case DataType::kFloat16: case DataType::kBfloat16: return 16;
    case DataType::kUint32: case DataType::kInt32: case DataType::kFloat32: case DataType::kFloat32Ftz:
    case DataType::kTfloat32: case DataType::kTfloat32Ftz: return 32;
    case DataType::kUint64: case DataType::kInt64: case DataType::kFloat64: return 64;
    case DataType::k16U4Align8B: case DataType::k16U4Align16B: return 4;
    case DataType::k16U6Align16B: return 6;
  }
  return 8;
}
// Bits one element occupies in shared memory after a load (16U4_ALIGN16B and 16U6_ALIGN16B are padded
// to 8 bits per element: 16 elements in 16 bytes; PTX ISA 5.5.1.1).
constexpr inline int DataTypeSmemBits(DataType t) {
  if (t == DataType::k16U4Align16B || t == DataType::k16U6Align16B) return 8;
  return DataTypeBits(t);
}
constexpr inline bool IsSubByte(DataType t) { return static_cast<int>(t) >= 13; }        // 13, 14, 15
constexpr inline bool IsFloat(DataType t) {
  switch (t) {
    case DataType::kFloat16: case DataType::kFloat32: case DataType::kFloat64: case DataType::kBfloat16:
    case DataType::kFloat32Ftz: case DataType::kTfloat32: case DataType::kTfloat32Ftz: return true;
    default: return false;
  }
}          // FLOAT16/32/64, BFLOAT16, FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ
constexpr inline bool IsAlign16BPacked(DataType t) { return t == DataType::k16U4Align16B || t == DataType::k16U6Align16B; } // 16U4_ALIGN16B, 16U6_ALIGN16B
std::string_view PtxElemType(DataType t);  // tensormap.replace .elemtype name (".f16", ".b4x16_p64")
int PtxElemTypeValue(DataType t);          // tensormap.replace .elemtype value (not the driver value)

// Swizzle span in bytes (the inner-box limit): 0 for NONE, 32, 64, 128 for all 128B modes.
constexpr inline int SwizzleSpanBytes(Swizzle s) {
  switch (s) {
    case Swizzle::kNone: return 0;
    case Swizzle::k32B: return 32;
    case Swizzle::k64B: return 64;
    default: return 128;
  }
}
// Bytes after which the shared-memory swizzle pattern repeats (0 for NONE). 256/512/1024 for
// 32B/64B/128B (PTX ISA 5.5.7, Programming Guide table "swizzle patterns"); for the 128B atomicity
// variants derived from their XOR rule: ATOM_32B and ATOM_32B_FLIP_8B 512, ATOM_64B 256.
constexpr inline int SwizzleRepeatBytes(Swizzle s) {
  switch (s) {
    case Swizzle::kNone: return 0;
    case Swizzle::k32B: return 256;
    case Swizzle::k64B: return 512;
    case Swizzle::k128B: return 1024;
    case Swizzle::k128BAtom32B: case Swizzle::k128BAtom32BFlip8B: return 512;
    case Swizzle::k128BAtom64B: return 256;
  }
  return 0;
}
// Smallest alignment of the shared-memory destination the hardware needs at all: 128 bytes for every
// tensor copy (Programming Guide alignment table).
inline constexpr int kSmemMinAlignment = 128;
// Atomicity (bytes kept together) of a swizzle: 16 for 32B/64B/128B, 32 or 64 for the atom variants.
constexpr inline int SwizzleAtomicityBytes(Swizzle s) {
  switch (s) {
    case Swizzle::k128BAtom32B: case Swizzle::k128BAtom32BFlip8B: return 32;
    case Swizzle::k128BAtom64B: return 64;
    default: return 16;
  }
}
constexpr inline bool IsAtomicitySwizzle(Swizzle s) { return static_cast<int>(s) >= 4; }  // 128B_ATOM_*
// tensormap.replace encodings (PTX ISA Table 33).
int PtxSwizzleModeValue(Swizzle s);
int PtxSwizzleAtomicityValue(Swizzle s);

constexpr inline Encoder EncoderFor(Mode m) {
  switch (m) {
    case Mode::kIm2col: return Encoder::kIm2col;
    case Mode::kIm2colW: case Mode::kIm2colW128: return Encoder::kIm2colWide;
    default: return Encoder::kTiled;
  }
}
constexpr inline bool IsIm2colMode(Mode m) { return m == Mode::kIm2col || m == Mode::kIm2colW || m == Mode::kIm2colW128; }      // im2col, im2col::w, im2col::w::128
constexpr inline bool IsWideMode(Mode m) { return m == Mode::kIm2colW || m == Mode::kIm2colW128; }        // im2col::w, im2col::w::128
constexpr inline bool IsGatherScatter(Mode m) { return m == Mode::kGather4 || m == Mode::kScatter4; }   // gather4, scatter4
constexpr inline bool IsLoad(Direction d) { return d == Direction::kLoadCta || d == Direction::kLoadCluster; }       // load to shared::cta or shared::cluster
constexpr inline bool IsStoreLike(Direction d) { return d == Direction::kStore || d == Direction::kReduce; }  // store or reduce

// How a copy in each direction completes (PTX ISA 9.2 sections 9.7.9.25.5.2-9.7.9.25.5.4): a load into shared
// memory (.shared::cta or .shared::cluster) signals an mbarrier (.mbarrier::complete_tx::bytes, counting the bytes
// written); a store or a reduction into global memory joins a bulk async-group (.bulk_group: committed with
// cp.async.bulk.commit_group, waited for with cp.async.bulk.wait_group, .read when only the shared-memory source
// is to be reused); cp.async.bulk.prefetch.tensor has no completion mechanism.
enum class Completion : uint8_t { kMbarrierCompleteTx = 0, kBulkGroup = 1, kNone = 2 };
constexpr inline Completion CompletionOf(Direction d) {
  return IsLoad(d) ? Completion::kMbarrierCompleteTx : IsStoreLike(d) ? Completion::kBulkGroup : Completion::kNone;
}
// What shared memory is to a copy in each direction.
enum class SmemRole : uint8_t { kDestination = 0, kSource = 1, kNone = 2 };
constexpr inline SmemRole SmemRoleOf(Direction d) {
  return IsLoad(d) ? SmemRole::kDestination : IsStoreLike(d) ? SmemRole::kSource : SmemRole::kNone;
}

// Targets.
struct TargetInfo {
  Target target;
  std::string_view name;  // "sm_100a"
  int cc;                 // compute capability x10: 90, 100, 103, 110, 120
  char variant;           // ' ' plain, 'a' arch-specific, 'f' family
  int max_smem_per_block; // bytes of shared memory one block can opt in to
};
namespace internal_types {
inline constexpr int kSmem227K = 232448;  // 227 KiB: sm_90 and sm_100 class, opt-in per block
inline constexpr int kSmem99K = 101376;   // 99 KiB: sm_120 class
inline constexpr std::array<TargetInfo, kNumTargets> kTargets = {{
    {Target::kSm90, "sm_90", 90, ' ', kSmem227K},
    {Target::kSm90a, "sm_90a", 90, 'a', kSmem227K},
    {Target::kSm100, "sm_100", 100, ' ', kSmem227K},
    {Target::kSm100a, "sm_100a", 100, 'a', kSmem227K},
    {Target::kSm100f, "sm_100f", 100, 'f', kSmem227K},
    {Target::kSm101a, "sm_101a", 101, 'a', kSmem227K},
    {Target::kSm103, "sm_103", 103, ' ', kSmem227K},
    {Target::kSm103a, "sm_103a", 103, 'a', kSmem227K},
    {Target::kSm103f, "sm_103f", 103, 'f', kSmem227K},
    {Target::kSm110, "sm_110", 110, ' ', kSmem227K},
    {Target::kSm110a, "sm_110a", 110, 'a', kSmem227K},
    {Target::kSm110f, "sm_110f", 110, 'f', kSmem227K},
    {Target::kSm120, "sm_120", 120, ' ', kSmem99K},
    {Target::kSm120a, "sm_120a", 120, 'a', kSmem99K},
    {Target::kSm120f, "sm_120f", 120, 'f', kSmem99K},
    {Target::kSm121a, "sm_121a", 121, 'a', kSmem99K},
}};
}  // namespace internal_types
constexpr inline const TargetInfo& Info(Target t) { return internal_types::kTargets[static_cast<int>(t)]; }
constexpr inline bool IsBlackwellOrLater(Target t) { return Info(t).cc >= 100; }
// sm_100a/sm_100f/sm_101a/sm_103a/sm_103f/sm_110a/sm_110f: the datacenter Blackwell features that PTX
// gives to the "a" and "f" targets of the 10.x/11.x families (tcgen05, .cta_group, scatter4, im2col::w::128).
constexpr inline bool HasBlackwellDatacenterFeatures(Target t) {
  return Info(t).cc >= 100 && Info(t).cc < 120 && Info(t).variant != ' ';
}

// ---- names -------------------------------------------------------------------------------------------
// The two a rule text names for most findings (the element type, the swizzle) are inline table lookups; the
// others are out of line.
namespace internal_types {
inline constexpr std::array<std::string_view, kNumDataTypes> kDataTypeShort = {
    "u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz",
    "16u4_align8b", "16u4_align16b", "16u6_align16b",
};
inline constexpr std::array<std::string_view, kNumSwizzles> kSwizzleFull = {
    "CU_TENSOR_MAP_SWIZZLE_NONE",
    "CU_TENSOR_MAP_SWIZZLE_32B",
    "CU_TENSOR_MAP_SWIZZLE_64B",
    "CU_TENSOR_MAP_SWIZZLE_128B",
    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
};
}  // namespace internal_types
std::string_view FullName(DataType v);
inline std::string_view ShortName(DataType v) { return internal_types::kDataTypeShort[static_cast<int>(v)]; }
std::string_view FullName(Interleave v);
std::string_view ShortName(Interleave v);
inline std::string_view FullName(Swizzle v) { return internal_types::kSwizzleFull[static_cast<int>(v)]; }
std::string_view ShortName(Swizzle v);
std::string_view FullName(L2Promotion v);
std::string_view ShortName(L2Promotion v);
std::string_view FullName(OobFill v);
std::string_view ShortName(OobFill v);
std::string_view FullName(Im2colWideMode v);
std::string_view ShortName(Im2colWideMode v);
std::string_view Name(Mode v);       // "tiled", "im2col", "im2col::w", "im2col::w::128", "gather4", "scatter4"
std::string_view Name(Direction v);  // "load", "load_cluster", "store", "reduce", "prefetch"
std::string_view Name(ReduceOp v);   // "add", ...
std::string_view Name(Completion v); // "mbarrier::complete_tx::bytes", "bulk_group", "none"
std::string_view Name(SmemRole v);   // "destination", "source", "none"
inline std::string_view Name(Target v) { return Info(v).name; }  // "sm_90a" (inline: named in every per-target finding)
std::string_view Name(Encoder v);    // "cuTensorMapEncodeTiled", ...

// Names of the map type only: false for a data alias ("e4m3"), which only ParseDataType reads.
bool Parse(std::string_view s, DataType* out);
bool Parse(std::string_view s, Interleave* out);
bool Parse(std::string_view s, Swizzle* out);
bool Parse(std::string_view s, L2Promotion* out);
bool Parse(std::string_view s, OobFill* out);
bool Parse(std::string_view s, Im2colWideMode* out);
bool Parse(std::string_view s, Mode* out);
bool Parse(std::string_view s, Direction* out);
bool Parse(std::string_view s, ReduceOp* out);
bool Parse(std::string_view s, Target* out);

// A comma-separated list of the accepted spellings, for error messages ("expected one of: ...").
std::string_view AcceptedNames(DataType*);
std::string_view AcceptedNames(Interleave*);
std::string_view AcceptedNames(Swizzle*);
std::string_view AcceptedNames(L2Promotion*);
std::string_view AcceptedNames(OobFill*);
std::string_view AcceptedNames(Im2colWideMode*);
std::string_view AcceptedNames(Mode*);
std::string_view AcceptedNames(Direction*);
std::string_view AcceptedNames(ReduceOp*);
std::string_view AcceptedNames(Target*);

// ---- the data-type name table ---------------------------------------------------------------------
// The MMA operand type a data-type name also names, for desc/idesc (PTX ISA 9.7.15 wgmma .atype/.btype,
// 9.7.16 tcgen05.mma .kind types). The values are desc::ElemType's (src/desc/desc_types.cc checks them).
enum class MmaOperandType : uint8_t {
  kF16 = 0, kBF16, kTF32, kE4M3, kE5M2, kE2M3, kE3M2, kE2M1, kS8, kU8,
  kNone,       // not an MMA operand type (u16, s32, the scale factors ue8m0/ue4m3, the packed map types)
  kAmbiguous,  // names a width, not one MMA type (fp8: e4m3 or e5m2; fp6: e2m3 or e3m2)
};

// One name of a data type.
struct DataTypeName {
  std::string_view name;  // as documented, lower case ("e4m3"); matched ignoring ASCII case
  DataType type;          // the one CUtensorMapDataType it stands for in a tensor map
  MmaOperandType mma;     // what it names as an MMA operand type (desc, idesc)
  // Data aliases: what the bytes hold ("an 8-bit float (FP8 E4M3)"), cuda.h having no type for it. Empty
  // for the names of the map type itself.
  std::string_view holds;
};
// The table: row i < kNumDataTypes is the short name of DataType i; then the other spellings of map
// types; then the data aliases. The cuda.h enumerators (CU_TENSOR_MAP_DATA_TYPE_UINT8, or UINT8) are read
// as the row of their type.
const DataTypeName* DataTypeNames(int* count);
inline constexpr uint8_t kNoDataAlias = 0;  // TensorMapSpec::data_type_alias when no data alias was given
// The row of a name (cuda.h enumerators included), or -1.
int FindDataTypeName(std::string_view s);
const DataTypeName& DataTypeNameRow(int row);
// Any name: *out is the map type; *alias the row of the data alias given, kNoDataAlias for a name of the
// map type. False on an unknown name.
bool ParseDataType(std::string_view s, DataType* out, uint8_t* alias);
// What a data alias was read as, for reports: "e4m3 is an 8-bit float (FP8 E4M3), not a tensor-map type:
// the map uses CU_TENSOR_MAP_DATA_TYPE_UINT8 (...)". Empty for kNoDataAlias.
std::string_view DataAliasNote(uint8_t alias);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_TYPES_H_
