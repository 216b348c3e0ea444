#include "src/schema/corpus_json.h"

#include <simdjson.h>

#include <optional>
#include <type_traits>

#include "src/schema/json_diagnostics.h"
#include "src/schema/spec_json_keys.h"
#include "src/util/strings.h"

namespace tmapgen {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

simdjson::dom::parser& Parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

// The text is not JSON (simdjson said so): where and why, from json_diagnostics.
std::string NotJson(std::string_view line, simdjson::error_code code) {
  if (std::optional<json::SyntaxError> e = json::FindSyntaxError(line)) {
    const json::TextPos pos = json::PositionOf(line, e->offset);
    return StrCat("line ", pos.line, ", column ", pos.column, ": ", e->path, e->path.empty() ? "" : ": ", e->message);
  }
  return StrCat("not JSON simdjson can read: ", simdjson::error_message(code));
}

// What a value is, for "got ...": its JSON text, cut at 32 bytes.
std::string Got(simdjson::dom::element v) {
  std::string text = simdjson::minify(v);
  if (text.size() > 32) text = text.substr(0, 29) + "...";
  return text;
}

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

// An enum given as a name (parsed with `parse`) or an integer; an undefined one clears *representable (not an
// error).
template <typename E>
absl::Status ReadEnum(simdjson::dom::element v, std::string_view key, int count, E* out, bool* representable) {
  int64_t n = 0;
  std::string_view s;
  if (!v.get_int64().get(n)) {
    if (n >= 0 && n < count) *out = static_cast<E>(n); else *representable = false;
    return absl::OkStatus();
  }
  if (v.get_string().get(s)) return Bad(StrCat(key, ": expected a name or an integer, got ", Got(v)));
  if (!Parse(s, out)) *representable = false;
  return absl::OkStatus();
}

template <typename T, size_t N>
absl::Status ReadArray(simdjson::dom::element v, std::string_view key, std::array<T, N>* out, uint32_t* count,
                       bool* representable) {
  simdjson::dom::array a;
  if (v.get_array().get(a)) return Bad(StrCat(key, ": expected an array, got ", Got(v)));
  uint32_t n = 0;
  for (simdjson::dom::element e : a) {
    int64_t i = 0;
    uint64_t u = 0;
    const bool bad = std::is_signed<T>::value ? static_cast<bool>(e.get_int64().get(i)) : static_cast<bool>(e.get_uint64().get(u));
    if (bad)
      return Bad(StrCat(key, "[", n, "]: expected ", std::is_signed<T>::value ? "an integer" : "an unsigned integer",
                        ", got ", Got(e)));
    if (n < N) (*out)[n] = std::is_signed<T>::value ? static_cast<T>(i) : static_cast<T>(u);
    else *representable = false;
    ++n;
  }
  *count = n;
  return absl::OkStatus();
}

// The spec fields a corpus line carries under their schema names: the parameters of the driver's encoders
// (the corpus's mode and wide mode have their own names and values, read apart).
constexpr uint32_t kCorpusFields = kFieldDataType | kFieldRank | kFieldGlobalAddress | kFieldGlobalDim |
                                   kFieldGlobalStrides | kFieldBoxDim | kFieldElementStrides | kFieldInterleave |
                                   kFieldSwizzle | kFieldL2Promotion | kFieldOobFill | kFieldLowerCorner |
                                   kFieldUpperCorner | kFieldLowerCornerWidth | kFieldUpperCornerWidth |
                                   kFieldChannelsPerPixel | kFieldPixelsPerColumn;

// Row `row` of the field table from a corpus value: what the driver was given, which may be beyond what a spec
// represents (then *representable is cleared, never an error).
absl::Status CorpusField(size_t row, simdjson::dom::element v, TensorMapSpec* s, CorpusEntry* out) {
  return WithField(
      *s, row,
      [&](auto tag, auto& m) -> absl::Status {
        constexpr size_t kRow = decltype(tag)::value;
        constexpr FieldKind kind = kSpecFields[kRow].kind;
        const std::string_view key = kSpecFields[kRow].key;
        if constexpr (kind == FieldKind::kEnum || kind == FieldKind::kDataType) {
          return ReadEnum(v, key, EnumCount(&m), &m, &out->representable);
        } else if constexpr (kind == FieldKind::kArray) {
          uint32_t count = 0;
          return ReadArray(v, key, &m, &count, &out->representable);
        } else if constexpr (kind == FieldKind::kU32) {
          uint64_t u = 0;
          if (v.get_uint64().get(u)) return Bad(StrCat(key, ": expected an unsigned integer, got ", Got(v)));
          if constexpr (kRow == kFieldIndexRank) {
            m = static_cast<uint32_t>(u > 1000 ? 1000 : u);
            if (u > static_cast<uint64_t>(kMaxRank)) out->representable = false;
          } else {
            m = static_cast<uint32_t>(u);
            if (u > 0xffffffffu) out->representable = false;
          }
          return absl::OkStatus();
        } else if constexpr (kind == FieldKind::kI32) {
          int64_t i = 0;
          if (v.get_int64().get(i)) return Bad(StrCat(key, ": expected an integer, got ", Got(v)));
          m = static_cast<int32_t>(i);
          return absl::OkStatus();
        } else if constexpr (kind == FieldKind::kAddress) {
          if (!v.get_uint64().get(m)) return absl::OkStatus();
          return Bad(StrCat(key, ": expected an unsigned integer, got ", Got(v)));
        } else {
          return Bad(StrCat(key, ": not a field of a corpus line"));
        }
      },
      absl::InternalError("not a row of the field table"));
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

// The corpus line into *out; kInvalidArgument naming the key. ParseCorpusLine below.
static absl::Status ReadCorpusLine(std::string_view line, CorpusEntry* out) {
  *out = CorpusEntry{};
  TensorMapSpec& s = out->spec;
  s = TensorMapSpec{};
  simdjson::dom::element doc;
  if (const simdjson::error_code e = Parser().parse(line.data(), line.size(), true).get(doc))
    return Bad(NotJson(line, e));
  simdjson::dom::object obj;
  if (doc.get_object().get(obj)) return Bad(StrCat("expected an object, got ", Got(doc)));
  std::string mode = "tiled";
  Im2colWideMode wide = Im2colWideMode::kW;
  for (auto [key, v] : obj) {
    auto u64 = [&, key = key, v = v](uint64_t* x) {
      if (!v.get_uint64().get(*x)) return absl::OkStatus();
      return Bad(StrCat(key, ": expected an unsigned integer, got ", Got(v)));
    };
    auto i64 = [&, key = key, v = v](int64_t* x) {
      if (!v.get_int64().get(*x)) return absl::OkStatus();
      return Bad(StrCat(key, ": expected an integer, got ", Got(v)));
    };
    auto str = [&, key = key, v = v](std::string_view* x) {
      if (!v.get_string().get(*x)) return absl::OkStatus();
      return Bad(StrCat(key, ": expected a string, got ", Got(v)));
    };
    auto hex = [&, key = key](std::array<uint8_t, 128>* dst, bool* has) {
      std::string_view h;
      if (absl::Status st = str(&h); !st.ok()) return st;
      if (h.empty()) { *has = false; return absl::OkStatus(); }
      if (!ParseHex128(h, dst)) return Bad(StrCat(key, ": expected 256 hex digits, got ", h.size(), " characters"));
      *has = true;
      return absl::OkStatus();
    };
    int64_t i = 0;
    bool has = false;
    std::string_view p;
    if (key == "header") {
      bool b = false;
      if (v.get_bool().get(b)) return Bad(StrCat("header: expected true or false, got ", Got(v)));
      out->is_header = b;
    }
    else if (key == "probe") { if (absl::Status st = str(&p); !st.ok()) return st; out->probe = std::string(p); }
    else if (key == "mode") { if (absl::Status st = str(&p); !st.ok()) return st; mode = std::string(p); }
    else if (key == "im2col_wide_mode") { if (absl::Status st = ReadEnum(v, key, kNumIm2colWideModes, &wide, &out->representable); !st.ok()) return st; }
    else if (const size_t row = internal_spec_json::FindKey(key);
             row < kNumSpecFields && (kCorpusFields & kSpecFields[row].bit) != 0) {
      if (absl::Status st = CorpusField(row, v, &s, out); !st.ok()) return st;
    }
    else if (key == "driver_result") { if (absl::Status st = i64(&i); !st.ok()) return st; out->driver_result = static_cast<int>(i); }
    else if (key == "bytes") { if (absl::Status st = hex(&out->bytes, &has); !st.ok()) return st; out->has_bytes = has; }
    else if (key == "bytes_before") { if (absl::Status st = hex(&out->bytes_before, &has); !st.ok()) return st; }
    else if (key == "prefill") { if (absl::Status st = i64(&i); !st.ok()) return st; out->prefill = static_cast<int>(i); }
    else if (key == "replace_address") { if (absl::Status st = u64(&out->replace_address); !st.ok()) return st; out->is_replace = true; }
    else if (key == "replace_result") { if (absl::Status st = i64(&i); !st.ok()) return st; out->replace_result = static_cast<int>(i); }
  }
  if (mode == "tiled") s.mode = Mode::kTiled;
  else if (mode == "im2col") s.mode = Mode::kIm2col;
  else if (mode == "im2col_wide") s.mode = wide == Im2colWideMode::kW128 ? Mode::kIm2colW128 : Mode::kIm2colW;
  else if (!out->is_header) return Bad(StrCat("mode: expected tiled, im2col or im2col_wide, got \"", mode, "\""));
  s.wide_mode = wide;
  s.set_fields = kFieldMode | kFieldDataType | kFieldRank | kFieldGlobalAddress | kFieldGlobalDim | kFieldGlobalStrides |
                 kFieldElementStrides | kFieldInterleave | kFieldSwizzle | kFieldL2Promotion | kFieldOobFill;
  if (s.mode == Mode::kTiled) s.set_fields |= kFieldBoxDim;
  else {
    s.set_fields |= kFieldChannelsPerPixel | kFieldPixelsPerColumn;
    s.set_fields |= s.mode == Mode::kIm2col ? (kFieldLowerCorner | kFieldUpperCorner)
                                            : (kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode);
  }
  return absl::OkStatus();
}

absl::StatusOr<CorpusEntry> ParseCorpusLine(std::string_view line) {
  absl::StatusOr<CorpusEntry> entry{CorpusEntry()};
  if (absl::Status st = ReadCorpusLine(line, &*entry); !st.ok()) return st;
  return entry;
}

absl::StatusOr<std::string> ExtractBytesField(std::string_view line) {
  simdjson::dom::element doc;
  if (const simdjson::error_code e = Parser().parse(line.data(), line.size(), true).get(doc))
    return absl::InvalidArgumentError(ToAbsl(NotJson(line, e)));
  simdjson::dom::object obj;
  if (doc.get_object().get(obj)) return absl::InvalidArgumentError(ToAbsl(StrCat("expected an object, got ", Got(doc))));
  std::optional<std::string> bytes;
  for (auto [key, v] : obj) {
    if (key != "bytes") continue;
    std::string_view b;
    if (v.get_string().get(b))
      return absl::InvalidArgumentError(ToAbsl(StrCat("bytes: expected a string, got ", Got(v))));
    bytes.emplace(b.data(), b.size());  // the last "bytes" wins, as before
  }
  if (!bytes) return absl::InvalidArgumentError("no \"bytes\" key in the JSON object");
  return *std::move(bytes);
}

}  // namespace tmapgen
