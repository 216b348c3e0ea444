#include "cli/spec_flags.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <type_traits>

#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/util/text_util.h"

namespace tmapgen::cli {
namespace {

// A flag: its row of the field table (src/tmap/spec_fields.h), its name (the row's flag) and its second
// spelling (the row's key with dashes, "global-dim", when that differs from the flag).
struct FlagInfo {
  size_t row;
  std::string_view name;
  std::string_view alias;  // or ""
  uint32_t field;
  std::string_view help;
};

// The flags in the order of `--help`: the map's fields in table order, then the name.
struct FlagTable {
  std::array<FlagInfo, kNumSpecFields> flags;
  std::array<std::string, kNumSpecFields> dashed;  // storage of the aliases
  FlagTable() {
    size_t n = 0;
    for (size_t pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < kNumSpecFields; ++i) {
        if ((i == kFieldIndexName) != (pass == 1)) continue;
        const FieldInfo& f = kSpecFields[i];
        std::string d(f.key);
        std::replace(d.begin(), d.end(), '_', '-');
        dashed[n] = d == f.flag ? std::string() : d;
        flags[n] = FlagInfo{i, f.flag, std::string_view(), f.bit, f.help};
        ++n;
      }
    }
    for (size_t i = 0; i < n; ++i) flags[i].alias = dashed[i];
  }
};
const FlagTable& Flags() {
  static const FlagTable* const table = new FlagTable();
  return *table;
}

const FlagInfo* Find(std::string_view name) {
  for (const FlagInfo& f : Flags().flags)
    if (f.name == name || (!f.alias.empty() && f.alias == name)) return &f;
  return nullptr;
}

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

absl::Status ParseU64(std::string_view flag, std::string_view v, uint64_t* out) {
  int base = 10;
  std::string_view digits = v;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) { digits.remove_prefix(2); base = 16; }
  if (!digits.empty() && digits[0] == '-')
    return Bad(StrCat("--", flag, ": expected a non-negative integer, got \"", v, "\""));
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), *out, base);
  if (digits.empty() || r.ec == std::errc::invalid_argument || r.ptr != digits.data() + digits.size())
    return Bad(StrCat("--", flag, ": expected an integer, got \"", v, "\""));
  if (r.ec == std::errc::result_out_of_range) return Bad(StrCat("--", flag, ": \"", v, "\" does not fit in 64 bits"));
  return absl::OkStatus();
}
absl::Status ParseU32(std::string_view flag, std::string_view v, uint32_t* out) {
  uint64_t x = 0;
  if (absl::Status st = ParseU64(flag, v, &x); !st.ok()) return st;
  if (x > UINT32_MAX) return Bad(StrCat("--", flag, ": ", x, " does not fit in 32 bits"));
  *out = static_cast<uint32_t>(x);
  return absl::OkStatus();
}
absl::Status ParseI32(std::string_view flag, std::string_view v, int32_t* out) {
  int64_t x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || x < INT32_MIN || x > INT32_MAX)
    return Bad(StrCat("--", flag, ": expected a 32-bit integer, got \"", v, "\""));
  *out = static_cast<int32_t>(x);
  return absl::OkStatus();
}

template <typename T, size_t N, typename F>
absl::Status ParseList(std::string_view flag, std::string_view v, std::array<T, N>* out, uint32_t* count, F one) {
  uint32_t n = 0;
  size_t start = 0;
  while (true) {
    const size_t comma = v.find(',', start);
    std::string_view item = v.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (n >= N) return Bad(StrCat("--", flag, ": more than ", N, " values (tensor_rank is at most ", kMaxRank, ")"));
    T x{};
    if (absl::Status st = one(StrCat(flag, "[", n, "]"), item, &x); !st.ok()) return st;
    (*out)[n++] = x;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  *count = n;
  return absl::OkStatus();
}

template <typename E>
absl::Status ParseEnum(std::string_view flag, std::string_view v, E* out) {
  if (Parse(v, out)) return absl::OkStatus();
  return Bad(
      StrCat("--", flag, ": unknown value \"", v, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
}

}  // namespace

std::vector<std::string_view> SpecFlagNames() {
  std::vector<std::string_view> out;
  for (const FlagInfo& f : Flags().flags) {
    out.push_back(f.name);
    if (!f.alias.empty()) out.push_back(f.alias);
  }
  return out;
}

bool IsSpecFlag(std::string_view name) { return Find(name) != nullptr; }

std::string SpecFlagsHelp() {
  std::string o;
  for (const FlagInfo& f : Flags().flags) {
    std::string n = StrCat("  --", f.name);
    if (!f.alias.empty()) n += StrCat(", --", f.alias);
    if (n.size() < 40) n.resize(40, ' '); else n += "\n" + std::string(40, ' ');
    o += StrCat(n, f.help, "\n");
  }
  return o;
}

namespace {

absl::Status Build(const std::vector<std::pair<std::string, std::string>>& flags, const TensorMapSpec* base,
                   TensorMapSpec* out) {
  // First pass: the mode, which decides the defaults.
  Mode mode = base ? base->mode : Mode::kTiled;
  for (const auto& [name, value] : flags) {
    const FlagInfo* f = Find(name);
    if (f != nullptr && f->field == kFieldMode) {
      if (absl::Status st = ParseEnum("mode", value, &mode); !st.ok()) return st;
    }
  }
  TensorMapSpec s = base ? *base : DefaultSpec(mode);
  const TensorMapSpec defaults = DefaultSpec(mode);
  s.mode = mode;
  uint32_t given = 0;
  std::array<uint32_t, kNumSpecArrays> counts;
  counts.fill(~0u);
  auto u64 = [](std::string_view fl, std::string_view v, uint64_t* x) { return ParseU64(fl, v, x); };
  auto u32 = [](std::string_view fl, std::string_view v, uint32_t* x) { return ParseU32(fl, v, x); };
  auto i32 = [](std::string_view fl, std::string_view v, int32_t* x) { return ParseI32(fl, v, x); };
  for (const auto& [name, value] : flags) {
    const FlagInfo* f = Find(name);
    if (f == nullptr) return Bad(StrCat("unknown flag --", name));
    const std::string_view fl = f->name;
    absl::Status field = WithField(
        s, f->row,
        [&](auto tag, auto& m) -> absl::Status {
          constexpr size_t kRow = decltype(tag)::value;
          constexpr FieldKind kind = kSpecFields[kRow].kind;
          if constexpr (kRow == kFieldIndexMode) {
            return absl::OkStatus();  // read in the first pass
          } else if constexpr (kind == FieldKind::kText) {
            m = value;
            return absl::OkStatus();
          } else if constexpr (kind == FieldKind::kName || kind == FieldKind::kEnum) {
            return ParseEnum(fl, value, &m);
          } else if constexpr (kind == FieldKind::kDataType) {
            // Any name of the data-type table (src/tmap/types.h), a data alias ("e4m3") included.
            if (ParseDataType(value, &s.data_type, &s.data_type_alias)) return absl::OkStatus();
            return ParseEnum(fl, value, &s.data_type);
          } else if constexpr (kind == FieldKind::kU32) {
            if (absl::Status st = ParseU32(fl, value, &m); !st.ok()) return st;
            if constexpr (kRow == kFieldIndexRank) {
              if (s.rank < 1 || s.rank > kMaxRank)
                return Bad(StrCat("--rank: ", s.rank, " is outside 1..", kMaxRank, ": a tensor map has 1 to ", kMaxRank,
                                  " dimensions (merge contiguous dimensions)"));
            }
            return absl::OkStatus();
          } else if constexpr (kind == FieldKind::kI32) {
            return ParseI32(fl, value, &m);
          } else if constexpr (kind == FieldKind::kAddress) {
            return ParseU64(fl, value, &m);
          } else if constexpr (kind == FieldKind::kDriverVersion) {
            if (absl::StatusOr<uint32_t> dv = ParseDriverVersion(value); dv.ok()) {
              m = *dv;
              return absl::OkStatus();
            }
            return Bad(StrCat("--driver-version: expected 13000 or 13.0, got \"", value, "\""));
          } else {
            using T = typename ArrayTraits<std::remove_reference_t<decltype(m)>>::Element;
            uint32_t* const count = &counts[static_cast<size_t>(ArrayNumber(kRow))];
            if constexpr (std::is_same_v<T, uint64_t>) return ParseList(fl, value, &m, count, u64);
            else if constexpr (std::is_same_v<T, uint32_t>) return ParseList(fl, value, &m, count, u32);
            else return ParseList(fl, value, &m, count, i32);
          }
        },
        absl::InternalError(ToAbsl(StrCat("--", fl, ": not a row of the field table"))));
    if (!field.ok()) return field;
    given |= f->field;
  }
  s.set_fields |= given;

  // Adapt the defaults to what was given (not for a spec file, which is explicit).
  if (base == nullptr) {
    const int bits = DataTypeSmemBits(s.data_type);
    if (counts[kArrGlobalDim] != ~0u && !(given & kFieldRank)) s.rank = counts[kArrGlobalDim];
    const uint32_t rank = std::min<uint32_t>(s.rank, kMaxRank);
    if ((given & kFieldGlobalDim) && counts[kArrGlobalDim] != rank)
      return Bad(StrCat("--dims: ", counts[kArrGlobalDim], " values but --rank is ", s.rank));
    // --rank without --dims: the default tensor, truncated or extended with dimensions of size 1.
    if ((given & kFieldRank) && !(given & kFieldGlobalDim))
      for (uint32_t i = 0; i < rank; ++i) s.global_dim[i] = i < defaults.rank ? defaults.global_dim[i] : 1;
    for (uint32_t i = rank; i < kMaxRank; ++i) s.global_dim[i] = 0;
    uint32_t overflow_dim = 0;
    if (!(given & kFieldGlobalStrides) && !FillDenseStrides(&s, &overflow_dim))
      return Bad(StrCat("--dims: the dense stride of dimension ", overflow_dim,
                        " does not fit in 64 bits (the product of the dimensions below it overflows); give --strides"));
    if ((given & kFieldGlobalStrides) && counts[kArrGlobalStrides] + 1 != rank)
      return Bad(StrCat("--strides: ", counts[kArrGlobalStrides], " values; tensor_rank ", rank, " needs ", rank - 1,
                        " (the stride of dimension 0 is the element size and is not given)"));
    if ((given & kFieldElementStrides) && counts[kArrElementStrides] != rank)
      return Bad(StrCat("--element-strides: ", counts[kArrElementStrides], " values; tensor_rank ", rank, " needs ",
                        rank));
    const uint32_t inner_elems = std::max<uint32_t>(1, 128u * 8u / static_cast<uint32_t>(bits));
    if (!IsIm2colMode(s.mode)) {
      if (!(given & kFieldBoxDim)) {
        for (uint32_t i = 0; i < kMaxRank; ++i) {
          uint64_t b = i < rank ? (i < defaults.rank ? defaults.box_dim[i] : 1) : 0;
          if (i == 0 && (given & kFieldDataType)) b = std::min<uint32_t>(256, inner_elems);
          if (i < rank && s.global_dim[i] != 0) b = std::min<uint64_t>(b, s.global_dim[i]);
          s.box_dim[i] = static_cast<uint32_t>(b);
        }
        if (IsGatherScatter(s.mode) && rank >= 2) s.box_dim[1] = 1;
      } else if (counts[kArrBoxDim] != rank) {
        return Bad(StrCat("--box: ", counts[kArrBoxDim], " values; tensor_rank ", rank, " needs ", rank));
      }
    } else {
      const uint32_t corners = rank >= 2 ? std::min<uint32_t>(rank - 2, 3) : 0;
      if (s.mode == Mode::kIm2col) {
        for (int a : {static_cast<int>(kArrLowerCorner), static_cast<int>(kArrUpperCorner)}) {
          if (counts[a] != ~0u && counts[a] != corners)
            return Bad(StrCat(a == kArrLowerCorner ? "--lower-corner: " : "--upper-corner: ", counts[a],
                              " values; tensor_rank ", rank, " needs ", corners, " (one per spatial dimension)"));
        }
        for (uint32_t i = 0; i < 3; ++i) {
          if (!(given & kFieldLowerCorner)) s.pixel_box_lower_corner[i] = i < corners ? -1 : 0;
          if (!(given & kFieldUpperCorner)) s.pixel_box_upper_corner[i] = i < corners ? -1 : 0;
        }
      }
      if (!(given & kFieldChannelsPerPixel)) {
        uint64_t ch = inner_elems;
        if (IsAlign16BPacked(s.data_type)) ch = 128;
        else if (rank >= 1 && s.global_dim[0] != 0) ch = std::min<uint64_t>(ch, s.global_dim[0]);
        s.channels_per_pixel = static_cast<uint32_t>(std::min<uint64_t>(ch, 256));
      }
      if (IsWideMode(s.mode) && !(given & kFieldWideMode))
        s.wide_mode = s.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
    }
  } else if (IsWideMode(s.mode) && !(given & kFieldWideMode) && !base->Has(kFieldWideMode)) {
    s.wide_mode = s.mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  }
  *out = s;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TensorMapSpec> BuildSpecFromFlags(const std::vector<std::pair<std::string, std::string>>& flags,
                                                 const TensorMapSpec* base) {
  TensorMapSpec spec;
  if (absl::Status st = Build(flags, base, &spec); !st.ok()) return st;
  return spec;
}

}  // namespace tmapgen::cli
