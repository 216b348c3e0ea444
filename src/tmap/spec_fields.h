// spec_fields.h: the one table of TensorMapSpec's fields. Every front end and every writer of a spec
// iterates it: the JSON readers (src/schema/spec_json_*.cc) and writer (spec_json_write.cc), the
// command-line flags (cli/spec_flags.cc), the Python keywords and dict form (python/ext/py_spec.cc), the
// Protobuf conversion (src/schema/proto_convert.cc), SameSpec and the unused-field rule. docs/dev/add-a-field.md
// says how to add a field.
//
// Contract
// - TMAPGEN_SPEC_FIELDS(X) calls X once per field, in schema order (the order of docs/schema.md, of the
//   canonical JSON form and of the Protobuf field numbers: row i is field number i + 1 of
//   v1::TensorMapSpec and bit i of TensorMapSpec::set_fields):
//     X(Id, member, key, kind, use, flag, py_alias, help)
//   Id        the row's name: kField##Id is its set_fields bit, kFieldIndex##Id its index
//   member    the TensorMapSpec member that holds the value
//   key       the schema name, an identifier: the JSON key, the Protobuf field, the Python keyword
//   kind      how a value is read and written (FieldKind below); the C++ type is the member's
//   use       when the map uses the field, which also says when canonical forms write it (FieldUse below)
//   flag      the command-line flag without dashes ("dims"); the key with dashes ("global-dim") is a
//             second spelling of it when it differs
//   py_alias  a second Python keyword (the short flag with underscores: "dtype", "lower_corner") or ""
//   help      the flag's line in `tmapgen --help`
// - kSpecFields is the same table as data (constexpr), for what needs no member: names, help, kinds.
//   Member<I>(spec), ForEachField and WithField reach the members; all three are resolved at compile
//   time (WithField is a switch), so a reader that dispatches through them costs what a hand-written
//   switch costs.
// - What the table does not hold, because it is not a list of fields: the struct member itself (its type,
//   its default value and its comment: tensor_map_spec.h), the Protobuf field (proto/tmapgen.proto), the
//   cross-field checks and defaults of FinishSpec (src/schema/spec_json.h), the rules that use the value,
//   and the text report's and DescribeChanges' presentation (grouped rows in the order a reader wants).
#ifndef TMAPGEN_SRC_TMAP_SPEC_FIELDS_H_
#define TMAPGEN_SRC_TMAP_SPEC_FIELDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "src/tmap/types.h"

namespace tmapgen {

inline constexpr int kMaxRank = 5;

// How a field's value is read and written.
enum class FieldKind : uint8_t {
  kText,           // a string (name)
  kName,           // an enum given by name only (mode, direction, reduce_op, target): Name(), Parse()
  kEnum,           // a cuda.h enum: a name in either form or the cuda.h integer; FullName(), ShortName()
  kDataType,       // tensor_data_type: kEnum, plus the data aliases of ParseDataType ("e4m3")
  kU32,            // an unsigned 32-bit integer
  kI32,            // a signed 32-bit integer
  kAddress,        // a 64-bit address: an integer or a "0x..." string; written as "0x..."
  kDriverVersion,  // a CUDA driver version: 13000, or "13.0" where strings are allowed
  kArray,          // a std::array of integers; an array of kMaxRank - k entries holds rank - k values
};

// When the map uses a field. Canonical forms write kAlways fields always, kIfGiven fields when given,
// kIfNotEmpty when not empty, and the others when the mode or direction uses them (the JSON form also
// when given); the unused-fields rule reports a given field that the mode or direction ignores.
enum class FieldUse : uint8_t {
  kAlways,
  kIfGiven,     // optional facts: the addresses, target, smem alignment, driver version
  kIfNotEmpty,  // name
  kReduce,      // direction reduce
  kTiledLike,   // tiled, gather4, scatter4
  kIm2col,      // im2col only
  kIm2colModes, // im2col, im2col::w, im2col::w::128
  kWide,        // im2col::w, im2col::w::128
};

// clang-format off
#define TMAPGEN_SPEC_FIELDS(X)                                                                                   \
  X(Name, name, name, kText, kIfNotEmpty, "name", "",                                                            \
    "a name for the map (reports, generated code)")                                                              \
  X(Mode, mode, mode, kName, kAlways, "mode", "",                                                                \
    "tiled | im2col | im2col::w | im2col::w::128 | gather4 | scatter4 (default tiled)")                          \
  X(Direction, direction, direction, kName, kAlways, "direction", "",                                            \
    "load | load_cluster | store | reduce | prefetch (default load)")                                            \
  X(ReduceOp, reduce_op, reduce_op, kName, kReduce, "reduce-op", "",                                             \
    "add | min | max | inc | dec | and | or | xor (with --direction reduce)")                                     \
  X(DataType, data_type, tensor_data_type, kDataType, kAlways, "dtype", "dtype",                                 \
    "f16 bf16 f32 tf32 f64 u8 u16 u32 s32 u64 s64 f32_ftz tf32_ftz 16u4_align8b 16u4_align16b 16u6_align16b, "   \
    "or CU_TENSOR_MAP_DATA_TYPE_*; also what the bytes hold: e4m3 e5m2 fp8 s8 int8 ue8m0 (as u8), "              \
    "e2m1 fp4 (16u4_align8b), e2m3 e3m2 fp6 (16u6_align16b)")                                                   \
  X(Rank, rank, tensor_rank, kU32, kAlways, "rank", "rank",                                                      \
    "number of dimensions (default: the number of --dims)")                                                      \
  X(GlobalAddress, global_address, global_address, kAddress, kIfGiven, "global-address", "",                     \
    "global address (0x...), for its alignment rules")                                                           \
  X(GlobalDim, global_dim, global_dim, kArray, kAlways, "dims", "",                                              \
    "elements per dimension, innermost first: 64,56,56,32")                                                      \
  X(GlobalStrides, global_strides, global_strides, kArray, kAlways, "strides", "",                               \
    "bytes between consecutive indices of dims 1.. (rank-1 values; default dense)")                              \
  X(BoxDim, box_dim, box_dim, kArray, kTiledLike, "box", "",                                                     \
    "box size per dimension, innermost first (tiled, gather4, scatter4)")                                        \
  X(ElementStrides, element_strides, element_strides, kArray, kAlways, "element-strides", "",                    \
    "traversal stride per dimension, 1..8 (default all 1)")                                                      \
  X(Interleave, interleave, interleave, kEnum, kAlways, "interleave", "",                                        \
    "none | 16B | 32B")                                                                                          \
  X(Swizzle, swizzle, swizzle, kEnum, kAlways, "swizzle", "",                                                    \
    "none | 32B | 64B | 128B | 128B_atom_32B | 128B_atom_32B_flip_8B | 128B_atom_64B")                           \
  X(L2Promotion, l2_promotion, l2_promotion, kEnum, kAlways, "l2", "l2",                                         \
    "none | 64B | 128B | 256B (default 128B)")                                                                   \
  X(OobFill, oob_fill, oob_fill, kEnum, kAlways, "oob", "oob",                                                   \
    "zero | nan")                                                                                                \
  X(LowerCorner, pixel_box_lower_corner, pixel_box_lower_corner, kArray, kIm2col, "lower-corner", "lower_corner", \
    "im2col lower corner offsets, W,H,D order (rank-2 values)")                                                  \
  X(UpperCorner, pixel_box_upper_corner, pixel_box_upper_corner, kArray, kIm2col, "upper-corner", "upper_corner", \
    "im2col upper corner offsets, W,H,D order (rank-2 values)")                                                  \
  X(LowerCornerWidth, pixel_box_lower_corner_width, pixel_box_lower_corner_width, kI32, kWide, "lower-corner-w",  \
    "lower_corner_w", "im2col::w lower corner along W")                                                          \
  X(UpperCornerWidth, pixel_box_upper_corner_width, pixel_box_upper_corner_width, kI32, kWide, "upper-corner-w",  \
    "upper_corner_w", "im2col::w upper corner along W")                                                          \
  X(ChannelsPerPixel, channels_per_pixel, channels_per_pixel, kU32, kIm2colModes, "channels", "channels",         \
    "im2col channels per pixel")                                                                                 \
  X(PixelsPerColumn, pixels_per_column, pixels_per_column, kU32, kIm2colModes, "pixels", "pixels",                \
    "im2col pixels per column")                                                                                  \
  X(WideMode, wide_mode, wide_mode, kEnum, kWide, "wide-mode", "",                                               \
    "w | w128 (follows --mode)")                                                                                 \
  X(Target, target, target, kName, kIfGiven, "target", "",                                                       \
    "sm_90a, sm_100a, sm_100f, sm_103a, sm_110a, sm_120a, ... (default: this GPU, else all)")                   \
  X(SmemAddress, smem_address, smem_address, kAddress, kIfGiven, "smem-address", "",                             \
    "shared-memory destination address (0x...)")                                                                 \
  X(SmemAlignment, smem_alignment, smem_alignment, kU32, kIfGiven, "smem-alignment", "",                         \
    "guaranteed alignment of the destination in bytes")                                                          \
  X(DriverVersion, driver_version, driver_version, kDriverVersion, kIfGiven, "driver-version", "",                \
    "CUDA driver version, 13000 or 13.0")
// clang-format on

// The index of each row (kFieldIndexName = 0, ...) and the number of rows.
enum FieldIndex : size_t {
#define TMAPGEN_SPEC_FIELD_INDEX(Id, ...) kFieldIndex##Id,
  TMAPGEN_SPEC_FIELDS(TMAPGEN_SPEC_FIELD_INDEX)
#undef TMAPGEN_SPEC_FIELD_INDEX
  kNumSpecFields
};

// Bits of TensorMapSpec::set_fields: bit i is row i.
enum Field : uint32_t {
#define TMAPGEN_SPEC_FIELD_BIT(Id, ...) kField##Id = 1u << kFieldIndex##Id,
  TMAPGEN_SPEC_FIELDS(TMAPGEN_SPEC_FIELD_BIT)
#undef TMAPGEN_SPEC_FIELD_BIT
};
static_assert(kNumSpecFields <= 32, "set_fields has 32 bits");

struct FieldInfo {
  std::string_view key;       // the schema name
  uint32_t bit;               // the Field bit
  FieldKind kind;
  FieldUse use;
  std::string_view flag;      // without dashes
  std::string_view py_alias;  // "" when none
  std::string_view help;
};

inline constexpr std::array<FieldInfo, kNumSpecFields> kSpecFields = {{
#define TMAPGEN_SPEC_FIELD_INFO(Id, member, key, kind, use, flag, py_alias, help) \
  {#key, kField##Id, FieldKind::kind, FieldUse::use, flag, py_alias, help},
    TMAPGEN_SPEC_FIELDS(TMAPGEN_SPEC_FIELD_INFO)
#undef TMAPGEN_SPEC_FIELD_INFO
}};

// The index of the row of a Field bit (kNumSpecFields for a value that is no single bit of the table).
constexpr size_t FieldIndexOf(uint32_t bit) {
  for (size_t i = 0; i < kNumSpecFields; ++i)
    if (kSpecFields[i].bit == bit) return i;
  return kNumSpecFields;
}

// The schema name of a Field bit ("" for none).
constexpr std::string_view FieldKey(uint32_t bit) {
  const size_t i = FieldIndexOf(bit);
  return i < kNumSpecFields ? kSpecFields[i].key : std::string_view();
}

// Array fields are numbered in table order (the counts of FinishSpec, spec_json.h: SpecArray): the
// number of each array row, -1 for the others, and how many there are.
constexpr int ArrayNumber(size_t index) {
  int n = 0;
  for (size_t i = 0; i < index && i < kNumSpecFields; ++i) n += kSpecFields[i].kind == FieldKind::kArray;
  return index < kNumSpecFields && kSpecFields[index].kind == FieldKind::kArray ? n : -1;
}
constexpr int CountArrayFields() {
  int n = 0;
  for (const FieldInfo& f : kSpecFields) n += f.kind == FieldKind::kArray;
  return n;
}
constexpr int kNumArrayFields = CountArrayFields();

// The values an array of n_entries holds for a rank: rank - (kMaxRank - n_entries), at least 0 (global_dim:
// rank; global_strides: rank - 1; the corners: rank - 2); a rank over kMaxRank counts as kMaxRank.
constexpr uint32_t ArrayLength(size_t n_entries, uint32_t rank) {
  constexpr uint32_t kMax = static_cast<uint32_t>(kMaxRank);
  const uint32_t r = rank > kMax ? kMax : rank;
  const uint32_t drop = kMax - static_cast<uint32_t>(n_entries);
  return r > drop ? r - drop : 0;
}

// Whether a map of this mode and direction uses a field of this FieldUse (kIfGiven and kIfNotEmpty: always).
constexpr bool UsedBy(FieldUse u, Mode m, Direction d) {
  switch (u) {
    case FieldUse::kReduce: return d == Direction::kReduce;
    case FieldUse::kTiledLike: return !IsIm2colMode(m);
    case FieldUse::kIm2col: return m == Mode::kIm2col;
    case FieldUse::kIm2colModes: return IsIm2colMode(m);
    case FieldUse::kWide: return IsWideMode(m);
    default: return true;
  }
}

// The Field bits of the rows of one FieldUse.
constexpr uint32_t FieldsOfUse(FieldUse u) {
  uint32_t bits = 0;
  for (const FieldInfo& f : kSpecFields)
    if (f.use == u) bits |= f.bit;
  return bits;
}

// The fields a map of this mode and direction ignores (compile-time masks; no loop at run time).
constexpr uint32_t IgnoredFields(Mode m, Direction d) {
  constexpr uint32_t kReduceBits = FieldsOfUse(FieldUse::kReduce);
  constexpr uint32_t kTiledBits = FieldsOfUse(FieldUse::kTiledLike);
  constexpr uint32_t kIm2colBits = FieldsOfUse(FieldUse::kIm2col);
  constexpr uint32_t kIm2colModesBits = FieldsOfUse(FieldUse::kIm2colModes);
  constexpr uint32_t kWideBits = FieldsOfUse(FieldUse::kWide);
  uint32_t x = 0;
  if (!UsedBy(FieldUse::kReduce, m, d)) x |= kReduceBits;
  if (!UsedBy(FieldUse::kTiledLike, m, d)) x |= kTiledBits;
  if (!UsedBy(FieldUse::kIm2col, m, d)) x |= kIm2colBits;
  if (!UsedBy(FieldUse::kIm2colModes, m, d)) x |= kIm2colModesBits;
  if (!UsedBy(FieldUse::kWide, m, d)) x |= kWideBits;
  return x;
}

// ---- the members -----------------------------------------------------------------------------------

// The row index as a type: `kSpecFields[tag]` is a constant expression in the visitors' callbacks.
template <size_t I>
using FieldTag = std::integral_constant<size_t, I>;

// The member of row I of a spec (S: TensorMapSpec or const TensorMapSpec).
template <size_t I, class S>
constexpr auto& Member(S& s) {
#define TMAPGEN_SPEC_FIELD_MEMBER(Id, member, ...) \
  if constexpr (I == kFieldIndex##Id) return (s.member); else
  TMAPGEN_SPEC_FIELDS(TMAPGEN_SPEC_FIELD_MEMBER)
#undef TMAPGEN_SPEC_FIELD_MEMBER
  { static_assert(I < kNumSpecFields, "no such row"); return (s.name); }
}

// f(FieldTag<I>, member) for every row, in table order.
template <class S, class F, size_t... I>
constexpr void ForEachFieldImpl(S& s, F& f, std::index_sequence<I...>) {
  (f(FieldTag<I>{}, Member<I>(s)), ...);
}
template <class S, class F>
constexpr void ForEachField(S& s, F&& f) {
  ForEachFieldImpl(s, f, std::make_index_sequence<kNumSpecFields>{});
}

// f(FieldTag<I>, member) for row i (a switch); for an i out of range, `otherwise`.
template <class S, class F, class R>
R WithField(S& s, size_t i, F&& f, R otherwise) {
  switch (i) {
#define TMAPGEN_SPEC_FIELD_CASE(Id, member, ...) \
  case kFieldIndex##Id: return f(FieldTag<kFieldIndex##Id>{}, s.member);
    TMAPGEN_SPEC_FIELDS(TMAPGEN_SPEC_FIELD_CASE)
#undef TMAPGEN_SPEC_FIELD_CASE
  }
  return otherwise;
}

// The element type of an array member, and its number of entries.
template <class A>
struct ArrayTraits;
template <class T, size_t N>
struct ArrayTraits<std::array<T, N>> {
  using Element = T;
  static constexpr size_t kSize = N;
};

// The cuda.h integers an enum of kind kEnum or kDataType takes: 0 .. EnumCount - 1.
constexpr int EnumCount(const DataType*) { return kNumDataTypes; }
constexpr int EnumCount(const Interleave*) { return kNumInterleaves; }
constexpr int EnumCount(const Swizzle*) { return kNumSwizzles; }
constexpr int EnumCount(const L2Promotion*) { return kNumL2Promotions; }
constexpr int EnumCount(const OobFill*) { return kNumOobFills; }
constexpr int EnumCount(const Im2colWideMode*) { return kNumIm2colWideModes; }
constexpr int EnumCount(const Mode*) { return kNumModes; }
constexpr int EnumCount(const Direction*) { return kNumDirections; }
constexpr int EnumCount(const ReduceOp*) { return kNumReduceOps; }
constexpr int EnumCount(const Target*) { return kNumTargets; }

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_SPEC_FIELDS_H_
