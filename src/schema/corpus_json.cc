#include "src/schema/corpus_json.h"

#include "src/json/json_reader.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// An enum given as a name (parsed with `parse`) or an integer; false + !representable when undefined.
template <typename E>
bool ReadEnum(json::Reader* r, std::string_view key, int count, E* out, bool* representable, std::string* error) {
  if (r->PeekType() == json::Type::kNumber) {
    int64_t v = 0;
    if (!r->ReadInt64(&v)) { *error = r->ErrorAt(key); return false; }
    if (v >= 0 && v < count) *out = static_cast<E>(v); else *representable = false;
    return true;
  }
  std::string_view s;
  if (!r->ReadStringView(&s)) { *error = r->ErrorAt(key); return false; }
  if (!Parse(s, out)) *representable = false;
  return true;
}

template <typename T, size_t N>
bool ReadArray(json::Reader* r, std::string_view key, std::array<T, N>* out, uint32_t* count, bool* representable,
               std::string* error) {
  if (!r->BeginArray()) { *error = r->ErrorAt(key); return false; }
  uint32_t n = 0;
  while (r->NextElement()) {
    int64_t v = 0;
    uint64_t u = 0;
    bool ok;
    if constexpr (std::is_signed<T>::value) ok = r->ReadInt64(&v); else ok = r->ReadUint64(&u);
    if (!ok) { *error = r->ErrorAt(StrCat(key, "[", n, "]")); return false; }
    if (n < N) (*out)[n] = std::is_signed<T>::value ? static_cast<T>(v) : static_cast<T>(u);
    else *representable = false;
    ++n;
  }
  if (!r->ok()) { *error = r->ErrorAt(key); return false; }
  *count = n;
  return true;
}

}  // namespace

bool ParseHex128(std::string_view hex, std::array<uint8_t, 128>* out) {
  if (hex.size() != 256) return false;
  for (size_t i = 0; i < 128; ++i) {
    const int hi = HexDigit(hex[2 * i]), lo = HexDigit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    (*out)[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return true;
}

bool ParseCorpusLine(std::string_view line, CorpusEntry* out, std::string* error) {
  *out = CorpusEntry{};
  TensorMapSpec& s = out->spec;
  s = TensorMapSpec{};
  json::Reader r(line);
  if (!r.BeginObject()) { *error = r.ErrorAt(""); return false; }
  std::string_view key;
  std::string mode = "tiled";
  Im2colWideMode wide = Im2colWideMode::kW;
  uint32_t count = 0;
  auto u64 = [&](uint64_t* v) {
    if (!r.ReadUint64(v)) { *error = r.ErrorAt(key); return false; }
    return true;
  };
  auto i64 = [&](int64_t* v) {
    if (!r.ReadInt64(v)) { *error = r.ErrorAt(key); return false; }
    return true;
  };
  auto hex = [&](std::array<uint8_t, 128>* dst, bool* has) {
    std::string_view h;
    if (!r.ReadStringView(&h)) { *error = r.ErrorAt(key); return false; }
    if (h.empty()) { *has = false; return true; }
    if (!ParseHex128(h, dst)) { *error = StrCat(key, ": expected 256 hex digits, got ", h.size(), " characters"); return false; }
    *has = true;
    return true;
  };
  while (r.NextKey(&key)) {
    uint64_t u = 0;
    int64_t v = 0;
    bool has = false;
    if (key == "header") { bool b = false; if (!r.ReadBool(&b)) { *error = r.ErrorAt(key); return false; } out->is_header = b; }
    else if (key == "probe") { std::string_view p; if (!r.ReadStringView(&p)) { *error = r.ErrorAt(key); return false; } out->probe = std::string(p); }
    else if (key == "mode") { std::string_view p; if (!r.ReadStringView(&p)) { *error = r.ErrorAt(key); return false; } mode = std::string(p); }
    else if (key == "tensor_data_type") { if (!ReadEnum(&r, key, kNumDataTypes, &s.data_type, &out->representable, error)) return false; }
    else if (key == "interleave") { if (!ReadEnum(&r, key, kNumInterleaves, &s.interleave, &out->representable, error)) return false; }
    else if (key == "swizzle") { if (!ReadEnum(&r, key, kNumSwizzles, &s.swizzle, &out->representable, error)) return false; }
    else if (key == "l2_promotion") { if (!ReadEnum(&r, key, kNumL2Promotions, &s.l2_promotion, &out->representable, error)) return false; }
    else if (key == "oob_fill") { if (!ReadEnum(&r, key, kNumOobFills, &s.oob_fill, &out->representable, error)) return false; }
    else if (key == "im2col_wide_mode") { if (!ReadEnum(&r, key, kNumIm2colWideModes, &wide, &out->representable, error)) return false; }
    else if (key == "tensor_rank") { if (!u64(&u)) return false; s.rank = static_cast<uint32_t>(u > 1000 ? 1000 : u); if (u > 5) out->representable = false; }
    else if (key == "global_address") { if (!u64(&s.global_address)) return false; }
    else if (key == "global_dim") { if (!ReadArray(&r, key, &s.global_dim, &count, &out->representable, error)) return false; }
    else if (key == "global_strides") { if (!ReadArray(&r, key, &s.global_strides, &count, &out->representable, error)) return false; }
    else if (key == "box_dim") { if (!ReadArray(&r, key, &s.box_dim, &count, &out->representable, error)) return false; }
    else if (key == "element_strides") { if (!ReadArray(&r, key, &s.element_strides, &count, &out->representable, error)) return false; }
    else if (key == "pixel_box_lower_corner") { if (!ReadArray(&r, key, &s.pixel_box_lower_corner, &count, &out->representable, error)) return false; }
    else if (key == "pixel_box_upper_corner") { if (!ReadArray(&r, key, &s.pixel_box_upper_corner, &count, &out->representable, error)) return false; }
    else if (key == "pixel_box_lower_corner_width") { if (!i64(&v)) return false; s.pixel_box_lower_corner_width = static_cast<int32_t>(v); }
    else if (key == "pixel_box_upper_corner_width") { if (!i64(&v)) return false; s.pixel_box_upper_corner_width = static_cast<int32_t>(v); }
    else if (key == "channels_per_pixel") { if (!u64(&u)) return false; s.channels_per_pixel = static_cast<uint32_t>(u); if (u > 0xffffffffu) out->representable = false; }
    else if (key == "pixels_per_column") { if (!u64(&u)) return false; s.pixels_per_column = static_cast<uint32_t>(u); if (u > 0xffffffffu) out->representable = false; }
    else if (key == "driver_result") { if (!i64(&v)) return false; out->driver_result = static_cast<int>(v); }
    else if (key == "bytes") { if (!hex(&out->bytes, &has)) return false; out->has_bytes = has; }
    else if (key == "bytes_before") { if (!hex(&out->bytes_before, &has)) return false; }
    else if (key == "prefill") { if (!i64(&v)) return false; out->prefill = static_cast<int>(v); }
    else if (key == "replace_address") { if (!u64(&out->replace_address)) return false; out->is_replace = true; }
    else if (key == "replace_result") { if (!i64(&v)) return false; out->replace_result = static_cast<int>(v); }
  }
  if (!r.ok() || !r.Finish()) { *error = r.ErrorAt(""); return false; }
  if (mode == "tiled") s.mode = Mode::kTiled;
  else if (mode == "im2col") s.mode = Mode::kIm2col;
  else if (mode == "im2col_wide") s.mode = wide == Im2colWideMode::kW128 ? Mode::kIm2colW128 : Mode::kIm2colW;
  else if (!out->is_header) { *error = StrCat("mode: expected tiled, im2col or im2col_wide, got \"", mode, "\""); return false; }
  s.wide_mode = wide;
  s.set_fields = kFieldMode | kFieldDataType | kFieldRank | kFieldGlobalAddress | kFieldGlobalDim | kFieldGlobalStrides |
                 kFieldElementStrides | kFieldInterleave | kFieldSwizzle | kFieldL2Promotion | kFieldOobFill;
  if (s.mode == Mode::kTiled) s.set_fields |= kFieldBoxDim;
  else {
    s.set_fields |= kFieldChannelsPerPixel | kFieldPixelsPerColumn;
    s.set_fields |= s.mode == Mode::kIm2col ? (kFieldLowerCorner | kFieldUpperCorner)
                                            : (kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode);
  }
  return true;
}

bool ExtractBytesField(std::string_view line, std::string* bytes, std::string* error) {
  json::Reader r(line);
  if (!r.BeginObject()) { *error = r.ErrorAt(""); return false; }
  std::string_view key;
  bool found = false;
  while (r.NextKey(&key)) {
    if (key == "bytes") {
      if (!r.ReadString(bytes)) { *error = r.ErrorAt("bytes"); return false; }
      found = true;
    }
  }
  if (!r.ok() || !r.Finish()) { *error = r.ErrorAt(""); return false; }
  if (!found) { *error = "no \"bytes\" key in the JSON object"; return false; }
  return true;
}

}  // namespace tmapgen
