#include "src/schema/spec_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "src/util/strings.h"

namespace tmapgen {
namespace {

using json::ErrorCode;
using json::Reader;
using json::Type;

constexpr uint32_t kAbsent = ~0u;

struct KeyInfo {
  std::string_view name;
  uint32_t field;
};
constexpr std::array<KeyInfo, 26> kKeys = {{
    {"name", kFieldName},
    {"mode", kFieldMode},
    {"direction", kFieldDirection},
    {"reduce_op", kFieldReduceOp},
    {"tensor_data_type", kFieldDataType},
    {"tensor_rank", kFieldRank},
    {"global_address", kFieldGlobalAddress},
    {"global_dim", kFieldGlobalDim},
    {"global_strides", kFieldGlobalStrides},
    {"box_dim", kFieldBoxDim},
    {"element_strides", kFieldElementStrides},
    {"interleave", kFieldInterleave},
    {"swizzle", kFieldSwizzle},
    {"l2_promotion", kFieldL2Promotion},
    {"oob_fill", kFieldOobFill},
    {"pixel_box_lower_corner", kFieldLowerCorner},
    {"pixel_box_upper_corner", kFieldUpperCorner},
    {"pixel_box_lower_corner_width", kFieldLowerCornerWidth},
    {"pixel_box_upper_corner_width", kFieldUpperCornerWidth},
    {"channels_per_pixel", kFieldChannelsPerPixel},
    {"pixels_per_column", kFieldPixelsPerColumn},
    {"wide_mode", kFieldWideMode},
    {"target", kFieldTarget},
    {"smem_address", kFieldSmemAddress},
    {"smem_alignment", kFieldSmemAlignment},
    {"driver_version", kFieldDriverVersion},
}};

// Levenshtein distance, for "did you mean" on unknown keys.
size_t Distance(std::string_view a, std::string_view b) {
  std::array<size_t, 64> prev{}, cur{};
  if (a.size() >= prev.size() || b.size() >= prev.size()) return 99;
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    prev = cur;
  }
  return prev[b.size()];
}

std::string Suggest(std::string_view key) {
  for (const KeyInfo& k : kKeys) {  // a prefix is the likeliest slip ("box" for "box_dim")
    if (key.size() >= 3 && k.name.substr(0, key.size()) == key) return StrCat(" (did you mean \"", k.name, "\"?)");
  }
  size_t best = 99;
  std::string_view name;
  for (const KeyInfo& k : kKeys) {
    const size_t d = Distance(key, k.name);
    if (d < best) { best = d; name = k.name; }
  }
  if (best <= 3) return StrCat(" (did you mean \"", name, "\"?)");
  return "";
}

class SpecReader {
 public:
  SpecReader(Reader* r, TensorMapSpec* spec, InputError* err) : r_(r), s_(spec), err_(err) {}

  bool Read() {
    *s_ = TensorMapSpec();
    s_->element_strides = {1, 1, 1, 1, 1};
    counts_.fill(kAbsent);
    if (!r_->BeginObject()) return SyntaxFail("");
    std::string_view key;
    std::string key_copy;
    while (r_->NextKey(&key)) {
      key_copy.assign(key.data(), key.size());
      const KeyInfo* info = nullptr;
      for (const KeyInfo& k : kKeys)
        if (k.name == key_copy) { info = &k; break; }
      if (info == nullptr && (key_copy == "trace" || key_copy == "bytes")) {
        // Members of a `tmapgen trace` record (docs/trace.md): what the driver returned and wrote, and
        // who called. They describe the map; they are not part of its spec.
        if (!r_->SkipValue()) return SyntaxFail(key_copy);
        continue;
      }
      if (info == nullptr) {
        Semantic(key_copy, StrCat("unknown field \"", key_copy, "\"", Suggest(key_copy)));
        if (!r_->SkipValue()) return SyntaxFail(key_copy);
        continue;
      }
      if (s_->set_fields & info->field) {
        Semantic(key_copy, StrCat("field \"", key_copy, "\" appears twice"));
        if (!r_->SkipValue()) return SyntaxFail(key_copy);
        continue;
      }
      s_->set_fields |= info->field;
      if (!ReadField(info->field, key_copy)) {
        if (!r_->ok() && !semantic_) return SyntaxFail(key_copy);
        if (!r_->ok()) return false;  // a reader-level error after a semantic one: stop here
      }
    }
    if (!r_->ok()) return SyntaxFail("");
    if (semantic_) return false;
    uint32_t counts[8];
    for (int i = 0; i < kNumSpecArrays; ++i) counts[i] = counts_[i];
    return FinishSpec(s_, counts, err_);
  }

 private:
  // A semantic error: recorded (first one wins); parsing goes on so the rest of the input can be used.
  void Semantic(std::string_view field, std::string message) {
    if (semantic_) return;
    semantic_ = true;
    const json::Location loc = r_->LocationOf(r_->value_offset());
    err_->field = std::string(field);
    err_->line = loc.line;
    err_->column = loc.column;
    err_->message = StrCat("line ", loc.line, ", column ", loc.column, ": ", field, field.empty() ? "" : ": ", message);
  }
  bool SyntaxFail(std::string_view field) {
    if (semantic_ && r_->ok()) return false;
    err_->field = std::string(field);
    err_->line = r_->error().line;
    err_->column = r_->error().column;
    err_->message = r_->ErrorAt(field);
    return false;
  }
  // For a reader-level failure on a typed read (wrong type, negative, overflow): these are value
  // errors, not syntax errors, but the reader has stopped; report them with their path.
  bool ValueFail(std::string_view path) {
    if (!semantic_) {
      semantic_ = true;
      err_->field = std::string(path);
      err_->line = r_->error().line;
      err_->column = r_->error().column;
      err_->message = r_->ErrorAt(path);
    }
    return false;
  }

  bool ReadU64(std::string_view path, uint64_t* out) {
    if (!r_->ReadUint64(out)) return ValueFail(path);
    return true;
  }
  bool ReadU32(std::string_view path, uint32_t* out) {
    uint64_t v = 0;
    if (!ReadU64(path, &v)) return false;
    if (v > UINT32_MAX) {
      Semantic(path, StrCat("value ", v, " does not fit in 32 bits"));
      return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
  }
  bool ReadI32(std::string_view path, int32_t* out) {
    int64_t v = 0;
    if (!r_->ReadInt64(&v)) return ValueFail(path);
    if (v < INT32_MIN || v > INT32_MAX) {
      Semantic(path, StrCat("value ", v, " does not fit in a 32-bit int"));
      return false;
    }
    *out = static_cast<int32_t>(v);
    return true;
  }
  // Integer or "0x..." / decimal string.
  bool ReadAddress(std::string_view path, uint64_t* out) {
    if (r_->PeekType() == Type::kString) {
      std::string_view sv;
      if (!r_->ReadStringView(&sv)) return ValueFail(path);
      int base = 10;
      if (sv.size() > 2 && sv[0] == '0' && (sv[1] == 'x' || sv[1] == 'X')) { sv.remove_prefix(2); base = 16; }
      uint64_t v = 0;
      auto res = std::from_chars(sv.data(), sv.data() + sv.size(), v, base);
      if (sv.empty() || res.ec != std::errc() || res.ptr != sv.data() + sv.size()) {
        Semantic(path, StrCat("expected an address (integer or \"0x...\" string), got \"", sv, "\"",
                           res.ec == std::errc::result_out_of_range ? ": out of range (more than 64 bits)" : ""));
        return false;
      }
      *out = v;
      return true;
    }
    return ReadU64(path, out);
  }

  template <typename E>
  bool ReadEnum(std::string_view path, E* out, int count) {
    const Type t = r_->PeekType();
    if (t == Type::kNumber) {
      uint64_t v = 0;
      if (!ReadU64(path, &v)) return false;
      if (v >= static_cast<uint64_t>(count)) {
        Semantic(path, StrCat("enum value ", v, " is out of range; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
        return false;
      }
      *out = static_cast<E>(v);
      return true;
    }
    std::string_view sv;
    if (!r_->ReadStringView(&sv)) return ValueFail(path);
    if (!Parse(sv, out)) {
      Semantic(path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
      return false;
    }
    return true;
  }
  template <typename E>
  bool ReadNamed(std::string_view path, E* out) {
    std::string_view sv;
    if (!r_->ReadStringView(&sv)) return ValueFail(path);
    if (!Parse(sv, out)) {
      Semantic(path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
      return false;
    }
    return true;
  }

  template <typename T, size_t N, typename F>
  bool ReadArray(std::string_view name, std::array<T, N>* out, int arr, F read_one) {
    if (!r_->BeginArray()) return ValueFail(name);
    uint32_t n = 0;
    std::string path;
    while (r_->NextElement()) {
      path = StrCat(name, "[", n, "]");
      if (n >= N) {
        Semantic(path, StrCat(name, " has more than ", N, " entries (tensor_rank is at most ", kMaxRank, ")"));
        if (!r_->SkipValue()) return ValueFail(path);
        ++n;
        continue;
      }
      T v{};
      if (!read_one(path, &v)) {
        if (!r_->ok()) return false;
        ++n;
        continue;
      }
      (*out)[n++] = v;
    }
    if (!r_->ok()) return ValueFail(name);
    counts_[arr] = n;
    return true;
  }

  bool ReadField(uint32_t field, std::string_view key) {
    TensorMapSpec& s = *s_;
    auto u64 = [this](std::string_view p, uint64_t* v) { return ReadU64(p, v); };
    auto u32 = [this](std::string_view p, uint32_t* v) { return ReadU32(p, v); };
    auto i32 = [this](std::string_view p, int32_t* v) { return ReadI32(p, v); };
    switch (field) {
      case kFieldName: {
        if (!r_->ReadString(&s.name)) return ValueFail(key);
        return true;
      }
      case kFieldMode: return ReadNamed(key, &s.mode);
      case kFieldDirection: return ReadNamed(key, &s.direction);
      case kFieldReduceOp: return ReadNamed(key, &s.reduce_op);
      case kFieldDataType: return ReadEnum(key, &s.data_type, kNumDataTypes);
      case kFieldRank: return ReadU32(key, &s.rank);
      case kFieldGlobalAddress: return ReadAddress(key, &s.global_address);
      case kFieldGlobalDim: return ReadArray(key, &s.global_dim, kArrGlobalDim, u64);
      case kFieldGlobalStrides: return ReadArray(key, &s.global_strides, kArrGlobalStrides, u64);
      case kFieldBoxDim: return ReadArray(key, &s.box_dim, kArrBoxDim, u32);
      case kFieldElementStrides: return ReadArray(key, &s.element_strides, kArrElementStrides, u32);
      case kFieldInterleave: return ReadEnum(key, &s.interleave, kNumInterleaves);
      case kFieldSwizzle: return ReadEnum(key, &s.swizzle, kNumSwizzles);
      case kFieldL2Promotion: return ReadEnum(key, &s.l2_promotion, kNumL2Promotions);
      case kFieldOobFill: return ReadEnum(key, &s.oob_fill, kNumOobFills);
      case kFieldLowerCorner: return ReadArray(key, &s.pixel_box_lower_corner, kArrLowerCorner, i32);
      case kFieldUpperCorner: return ReadArray(key, &s.pixel_box_upper_corner, kArrUpperCorner, i32);
      case kFieldLowerCornerWidth: return ReadI32(key, &s.pixel_box_lower_corner_width);
      case kFieldUpperCornerWidth: return ReadI32(key, &s.pixel_box_upper_corner_width);
      case kFieldChannelsPerPixel: return ReadU32(key, &s.channels_per_pixel);
      case kFieldPixelsPerColumn: return ReadU32(key, &s.pixels_per_column);
      case kFieldWideMode: return ReadEnum(key, &s.wide_mode, kNumIm2colWideModes);
      case kFieldTarget: return ReadNamed(key, &s.target);
      case kFieldSmemAddress: return ReadAddress(key, &s.smem_address);
      case kFieldSmemAlignment: return ReadU32(key, &s.smem_alignment);
      case kFieldDriverVersion: {
        if (r_->PeekType() == Type::kString) {
          std::string_view sv;
          if (!r_->ReadStringView(&sv)) return ValueFail(key);
          if (!ParseDriverVersion(sv, &s.driver_version)) {
            Semantic(key, StrCat("expected a driver version such as 13000 or \"13.0\", got \"", sv, "\""));
            return false;
          }
          return true;
        }
        return ReadU32(key, &s.driver_version);
      }
    }
    return false;
  }

  Reader* r_;
  TensorMapSpec* s_;
  InputError* err_;
  bool semantic_ = false;
  std::array<uint32_t, kNumSpecArrays> counts_{};
};

void WriteU64Array(json::Writer* w, std::string_view key, const uint64_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Uint(v[i]);
  w->EndArray();
}
void WriteU32Array(json::Writer* w, std::string_view key, const uint32_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Uint(v[i]);
  w->EndArray();
}
void WriteI32Array(json::Writer* w, std::string_view key, const int32_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Int(v[i]);
  w->EndArray();
}

InputError MakeError(std::string field, std::string message) {
  InputError e;
  e.message = field.empty() ? message : StrCat(field, ": ", message);
  e.field = std::move(field);
  return e;
}

}  // namespace

bool ParseDriverVersion(std::string_view s, uint32_t* out) {
  const size_t dot = s.find('.');
  uint32_t major = 0, minor = 0;
  if (dot == std::string_view::npos) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), major);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
    if (major < 1000) major *= 1000;  // "13" means 13.0
    *out = major;
    return true;
  }
  auto r1 = std::from_chars(s.data(), s.data() + dot, major);
  auto r2 = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
  if (dot == 0 || dot + 1 >= s.size() || r1.ec != std::errc() || r1.ptr != s.data() + dot || r2.ec != std::errc() ||
      r2.ptr != s.data() + s.size() || major > 999 || minor > 99)
    return false;
  *out = major * 1000 + minor * 10;
  return true;
}

bool FinishSpec(TensorMapSpec* s, uint32_t counts[8], InputError* error) {
  if (!s->Has(kFieldDataType)) {
    *error = MakeError("tensor_data_type", "missing; every spec needs its data type (e.g. \"bf16\")");
    return false;
  }
  if (!s->Has(kFieldGlobalDim) || counts[kArrGlobalDim] == 0) {
    *error = MakeError("global_dim", "missing; give the tensor's size per dimension, innermost first");
    return false;
  }
  const uint32_t ndims = counts[kArrGlobalDim];
  if (!s->Has(kFieldRank)) {
    s->rank = ndims;
  } else if (s->rank != ndims) {
    *error = MakeError("global_dim", StrCat("has ", ndims, " entries but tensor_rank is ", s->rank));
    return false;
  }
  const uint32_t rank = s->rank;
  if (counts[kArrGlobalStrides] != kAbsent && counts[kArrGlobalStrides] != rank - 1) {
    *error = MakeError("global_strides",
                       StrCat("has ", counts[kArrGlobalStrides], " entries; tensor_rank ", rank, " needs ", rank - 1,
                           " (the stride of dimension 0 is the element size and is not given)"));
    return false;
  }
  if (counts[kArrGlobalStrides] == kAbsent) FillDenseStrides(s);
  if (counts[kArrElementStrides] != kAbsent && counts[kArrElementStrides] != rank) {
    *error = MakeError("element_strides", StrCat("has ", counts[kArrElementStrides], " entries; tensor_rank ", rank, " needs ", rank));
    return false;
  }
  const bool tiled_like = !IsIm2colMode(s->mode);
  if (tiled_like) {
    if (counts[kArrBoxDim] == kAbsent) {
      *error = MakeError("box_dim", StrCat("missing; mode ", Name(s->mode), " needs the box size per dimension"));
      return false;
    }
    if (counts[kArrBoxDim] != rank) {
      *error = MakeError("box_dim", StrCat("has ", counts[kArrBoxDim], " entries; tensor_rank ", rank, " needs ", rank));
      return false;
    }
  } else {
    if (!s->Has(kFieldChannelsPerPixel)) {
      *error = MakeError("channels_per_pixel", StrCat("missing; mode ", Name(s->mode), " needs it"));
      return false;
    }
    if (!s->Has(kFieldPixelsPerColumn)) {
      if (s->mode != Mode::kIm2colW128) {
        *error = MakeError("pixels_per_column", StrCat("missing; mode ", Name(s->mode), " needs it"));
        return false;
      }
      s->pixels_per_column = 128;
    }
    if (s->mode == Mode::kIm2col) {
      const uint32_t need = rank >= 2 ? rank - 2 : 0;
      for (int a : {static_cast<int>(kArrLowerCorner), static_cast<int>(kArrUpperCorner)}) {
        if (counts[a] != kAbsent && counts[a] != need) {
          *error = MakeError(a == kArrLowerCorner ? "pixel_box_lower_corner" : "pixel_box_upper_corner",
                             StrCat("has ", counts[a], " entries; tensor_rank ", rank, " needs ", need, " (one per D, H, W dimension)"));
          return false;
        }
      }
    }
    if (IsWideMode(s->mode) && !s->Has(kFieldWideMode))
      s->wide_mode = s->mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  }
  return true;
}

bool ReadSpecObject(json::Reader* reader, TensorMapSpec* spec, InputError* error) {
  SpecReader sr(reader, spec, error);
  return sr.Read();
}

bool ParseSpecJson(std::string_view text, size_t first_line, TensorMapSpec* spec, InputError* error) {
  json::ReaderOptions opt;
  opt.first_line = first_line;
  opt.max_depth = 8;
  Reader r(text, opt);
  if (!ReadSpecObject(&r, spec, error)) return false;
  if (!r.Finish()) {
    error->field.clear();
    error->line = r.error().line;
    error->column = r.error().column;
    error->message = r.ErrorAt("");
    return false;
  }
  return true;
}

void WriteSpecJson(const TensorMapSpec& s, json::Writer* w) {
  const uint32_t rank = s.rank > kMaxRank ? kMaxRank : s.rank;
  w->BeginObject();
  if (!s.name.empty()) w->Key("name").String(s.name);
  w->Key("mode").String(Name(s.mode));
  w->Key("direction").String(Name(s.direction));
  if (s.direction == Direction::kReduce || s.Has(kFieldReduceOp)) w->Key("reduce_op").String(Name(s.reduce_op));
  w->Key("tensor_data_type").String(FullName(s.data_type));
  w->Key("tensor_rank").Uint(s.rank);
  if (s.Has(kFieldGlobalAddress)) w->Key("global_address").String(Hex(s.global_address));
  WriteU64Array(w, "global_dim", s.global_dim.data(), rank);
  WriteU64Array(w, "global_strides", s.global_strides.data(), rank > 0 ? rank - 1 : 0);
  if (!IsIm2colMode(s.mode) || s.Has(kFieldBoxDim)) WriteU32Array(w, "box_dim", s.box_dim.data(), rank);
  WriteU32Array(w, "element_strides", s.element_strides.data(), rank);
  w->Key("interleave").String(FullName(s.interleave));
  w->Key("swizzle").String(FullName(s.swizzle));
  w->Key("l2_promotion").String(FullName(s.l2_promotion));
  w->Key("oob_fill").String(FullName(s.oob_fill));
  const uint32_t ncorner = rank >= 2 ? rank - 2 : 0;
  if (s.mode == Mode::kIm2col || s.Has(kFieldLowerCorner))
    WriteI32Array(w, "pixel_box_lower_corner", s.pixel_box_lower_corner.data(), ncorner > 3 ? 3 : ncorner);
  if (s.mode == Mode::kIm2col || s.Has(kFieldUpperCorner))
    WriteI32Array(w, "pixel_box_upper_corner", s.pixel_box_upper_corner.data(), ncorner > 3 ? 3 : ncorner);
  if (IsWideMode(s.mode) || s.Has(kFieldLowerCornerWidth))
    w->Key("pixel_box_lower_corner_width").Int(s.pixel_box_lower_corner_width);
  if (IsWideMode(s.mode) || s.Has(kFieldUpperCornerWidth))
    w->Key("pixel_box_upper_corner_width").Int(s.pixel_box_upper_corner_width);
  if (IsIm2colMode(s.mode) || s.Has(kFieldChannelsPerPixel)) w->Key("channels_per_pixel").Uint(s.channels_per_pixel);
  if (IsIm2colMode(s.mode) || s.Has(kFieldPixelsPerColumn)) w->Key("pixels_per_column").Uint(s.pixels_per_column);
  if (IsWideMode(s.mode) || s.Has(kFieldWideMode)) w->Key("wide_mode").String(FullName(s.wide_mode));
  if (s.has_target()) w->Key("target").String(Name(s.target));
  if (s.Has(kFieldSmemAddress)) w->Key("smem_address").String(Hex(s.smem_address));
  if (s.Has(kFieldSmemAlignment)) w->Key("smem_alignment").Uint(s.smem_alignment);
  if (s.Has(kFieldDriverVersion)) w->Key("driver_version").Uint(s.driver_version);
  w->EndObject();
}

}  // namespace tmapgen
