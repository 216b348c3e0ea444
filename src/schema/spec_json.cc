// spec_json.cc: see spec_json.h for the contract.
//
// Reading: a text in the common form is read by the fast path (spec_json_fast.cc: one pass without simdjson,
// docs/lab/perf-history.md section 13); any other text, and every error, by the full reader here: simdjson's
// On-Demand front end walks the object once and each field is read straight into the spec
// (docs/lab/perf-history.md, section 13, measures it against the DOM front end). simdjson reports failures as
// codes without
// a place; the first failure is then explained and placed by json_diagnostics (FindSyntaxError for text
// that is not JSON, Describe for "got ..."), on the error path only.
#include "src/schema/spec_json.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "src/schema/spec_json_fast.h"
#include "src/schema/spec_json_keys.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen {
namespace internal_spec_json {
namespace {

// Each byte's value as a hex digit, or 0x10 for a byte that is none.
struct HexValues {
  uint8_t v[256];
  constexpr HexValues() : v() {
    for (int c = 0; c < 256; ++c)
      v[c] = c >= '0' && c <= '9' ? static_cast<uint8_t>(c - '0')
             : c >= 'a' && c <= 'f' ? static_cast<uint8_t>(c - 'a' + 10)
             : c >= 'A' && c <= 'F' ? static_cast<uint8_t>(c - 'A' + 10)
                                    : uint8_t{0x10};
  }
};
constexpr HexValues kHexValue;

}  // namespace

std::errc ParseAddressText(std::string_view sv, uint64_t* out) {
  int base = 10;
  if (sv.size() > 2 && sv[0] == '0' && (sv[1] == 'x' || sv[1] == 'X')) {
    sv.remove_prefix(2);
    base = 16;
  }
  uint64_t x = 0;
  if (base == 16 && !sv.empty() && sv.size() <= 16) {
    // Up to 16 hex digits cannot overflow: read them directly (from_chars checks for overflow at each digit);
    // anything else is left to from_chars below, whose answer this is on the texts it accepts.
    unsigned bad = 0;
    for (const char c : sv) {
      const uint8_t v = kHexValue.v[static_cast<unsigned char>(c)];
      bad |= v;
      x = x << 4 | (v & 15u);
    }
    if ((bad & 0x10u) == 0) {
      *out = x;
      return std::errc();
    }
    x = 0;
  }
  const auto res = std::from_chars(sv.data(), sv.data() + sv.size(), x, base);
  if (res.ec != std::errc()) return res.ec;
  if (sv.empty() || res.ptr != sv.data() + sv.size()) return std::errc::invalid_argument;
  *out = x;
  return std::errc();
}

bool DriverVersionOf(std::string_view s, uint32_t* out) {
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

}  // namespace internal_spec_json

namespace {

using internal_spec_json::DriverVersionOf;
using internal_spec_json::FastState;
using internal_spec_json::FindKey;
using internal_spec_json::ParseAddressText;

namespace od = simdjson::ondemand;
static_assert(json::kPadding >= simdjson::SIMDJSON_PADDING, "json::kPadding must cover simdjson's padding");

std::string Suggest(std::string_view key) {
  for (const FieldInfo& k : kSpecFields) {  // a prefix is the likeliest slip ("box" for "box_dim")
    if (key.size() >= 3 && k.key.substr(0, key.size()) == key) return StrCat(" (did you mean \"", k.key, "\"?)");
  }
  size_t best = 99;
  std::string_view name;
  for (const FieldInfo& k : kSpecFields) {
    const size_t d = EditDistance(key, k.key);
    if (d < best) {
      best = d;
      name = k.key;
    }
  }
  if (best <= 3) return StrCat(" (did you mean \"", name, "\"?)");
  return "";
}

// The first '"' or '\\' at or after p, 16 bytes at a time. Only for p inside a text that stage 1 accepted
// (every string closed) and that is followed by simdjson's padding, so the 16-byte loads stay in the buffer.
inline const char* QuoteOrBackslash(const char* p) {
#if defined(__SSE2__)
  for (;; p += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))));
    if (m != 0) return p + __builtin_ctz(m);
  }
#else
  while (*p != '"' && *p != '\\') ++p;
  return p;
#endif
}

struct Path {
  std::string_view key;
  int index = -1;
  std::string str() const { return index < 0 ? std::string(key) : StrCat(key, "[", index, "]"); }
};

// One parse: reads the fields of the object into the spec; the first problem wins, except that text
// that is not JSON wins over a problem with a value (see Fail).
class ObjectReader {
 public:
  ObjectReader(std::string_view text, json::TextPos at, TensorMapSpec* spec) : text_(text), at_(at), s_(spec) {}

  // `fast` (the parser's FastState): try the fast path first, and the full reader when it declines;
  // nullptr: the full reader only.
  absl::Status Read(od::parser* parser, const char* data, size_t capacity, FastState* fast) {
    base_ = data;
    *s_ = TensorMapSpec();
    counts_.fill(kAbsentCount);
    if (fast != nullptr) {
      if (internal_spec_json::ReadFast(std::string_view(data, text_.size()), s_, counts_.data(), fast)) {
        ++fast->reads;
        return FinishSpec(s_, counts_.data());
      }
      *s_ = TensorMapSpec();  // what the fast path had read
      counts_.fill(kAbsentCount);
    }
    od::document doc;
    if (parser->iterate(simdjson::padded_string_view(data, text_.size(), capacity)).get(doc)) return NotJson();
    od::object obj;
    if (const simdjson::error_code e = doc.get_object().get(obj)) {
      if (e != simdjson::INCORRECT_TYPE) return NotJson();
      const size_t p = FirstByte();
      Value(p, Path(), StrCat("expected an object (a spec), got ", json::Describe(text_, p)));
      return Result();
    }
    for (auto member : obj) {
      od::field f;
      if (std::move(member).get(f)) return NotJson();
      const char* key_raw = f.key().raw();  // past the opening quote
      // In place when it has no escape (stage 1 has checked the text's strings: UTF-8, no control
      // characters); else unescaped by simdjson.
      std::string_view key;
      const char* q = QuoteOrBackslash(key_raw);  // the closing quote is there: stage 1 found it
      if (*q == '"') key = std::string_view(key_raw, static_cast<size_t>(q - key_raw));
      else if (f.unescaped_key().get(key)) return NotJson();
      const size_t row = FindKey(key);
      if (row == kNumSpecFields && (key == "trace" || key == "bytes")) {
        // Members of a `tmapgen trace` record (docs/trace.md): what the driver returned and wrote, and
        // who called. They describe the map; they are not part of its spec. On-Demand skips them
        // unread, so the text is checked whole at the end (strictness stays).
        continue;
      }
      if (row == kNumSpecFields) {
        Value(Offset(key_raw) - 1, Path{key}, StrCat("unknown field \"", key, "\"", Suggest(key)));
        continue;  // On-Demand skips the value
      }
      const uint32_t bit = kSpecFields[row].bit;
      if (s_->set_fields & bit) {
        Value(Offset(key_raw) - 1, Path{key}, StrCat("field \"", key, "\" appears twice"));
        continue;
      }
      s_->set_fields |= bit;
      if (!Field(row, f.value())) return NotJson();
    }
    // After the object: only whitespace (else simdjson still points at what follows).
    if (!doc.current_location().error()) return NotJson();
    if (failed_) return Result();
    // On-Demand does not check the structure of what it skips: a trace member, and also any value read
    // in place (Str, keys) is skipped by the next step, so `{"name":"a":"b",...}\n,...}` could pass as an
    // object without its second member (spec_json_fuzz found this). The text is checked whole
    // before it is accepted; this reader runs only for the texts the fast path declines.
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    return FinishSpec(s_, counts_.data());
  }

 private:
  // Field readers return false only when simdjson failed in a way that means the text is not JSON
  // (the caller then stops); a value that is JSON but wrong for the field is recorded with Value().

  size_t Offset(const char* p) const { return static_cast<size_t>(p - base_); }
  size_t ValueOffset(od::value& v) const { return Offset(v.raw_json_token().data()); }
  size_t FirstByte() const {
    size_t p = 0;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r')) ++p;
    return p;
  }

  // A problem with a value (the first one is kept; reading goes on so that text that is not JSON is
  // still found and reported instead).
  void Value(size_t offset, const Path& path, std::string message) {
    if (failed_) return;
    failed_ = true;
    err_offset_ = offset;
    err_path_ = path.str();
    err_message_ = std::move(message);
  }
  absl::Status At(size_t offset, std::string_view path, std::string_view message) const {
    const json::TextPos pos = json::PositionOf(text_, offset, at_);
    return InputErrorAt(path, message, pos.line, pos.column);
  }
  absl::Status Result() {
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    return At(err_offset_, err_path_, err_message_);
  }
  // simdjson stopped: the text is not JSON. FindSyntaxError says where and why; should it find nothing
  // (it and simdjson disagree, which the fuzzer looks for), simdjson's own word is reported.
  absl::Status NotJson() {
    if (std::optional<json::SyntaxError> e = json::FindSyntaxError(text_)) return At(e->offset, e->path, e->message);
    if (failed_) return At(err_offset_, err_path_, err_message_);
    return At(0, "", "not a JSON object that simdjson can read");
  }

  // --- scalars ------------------------------------------------------------------------------------

  // The number token of a value that failed a typed read, without trailing whitespace.
  std::string_view Token(od::value& v) const {
    std::string_view t = v.raw_json_token();
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
    return t;
  }
  bool WrongType(od::value& v, const Path& path, const char* expected) {
    const size_t off = ValueOffset(v);
    Value(off, path, StrCat("expected ", expected, ", got ", json::Describe(text_, off)));
    return true;
  }

  // *ok: the value was read. Returns false when the text is not JSON.
  bool U64(od::value& v, const Path& path, uint64_t* out, bool* ok) {
    *ok = false;
    const simdjson::error_code e = v.get_uint64().get(*out);
    if (!e) return *ok = true;
    return U64Slow(v, path, out, ok);
  }
  bool U64Slow(od::value& v, const Path& path, uint64_t* out, bool* ok) {
    od::json_type t;
    if (v.type().get(t)) return false;
    if (t != od::json_type::number) return WrongType(v, path, "an unsigned integer");
    uint64_t mag = 0;
    bool negative = false;
    const size_t off = ValueOffset(v);
    switch (json::ExactInteger(Token(v), &mag, &negative)) {
      case json::IntegerClass::kNotNumber: return false;
      case json::IntegerClass::kNotInteger: return WrongType(v, path, "an unsigned integer");
      case json::IntegerClass::kTooBig:
        Value(off, path,
              negative ? StrCat("expected an unsigned integer, got ", json::Describe(text_, off))
                       : StrCat("expected an unsigned integer <= 18446744073709551615, got ", json::Describe(text_, off)));
        return true;
      case json::IntegerClass::kOk:
        if (negative && mag != 0) return WrongType(v, path, "an unsigned integer");
        *out = mag;
        return *ok = true;
    }
    return false;
  }
  bool I64(od::value& v, const Path& path, int64_t* out, bool* ok) {
    *ok = false;
    const simdjson::error_code e = v.get_int64().get(*out);
    if (!e) return *ok = true;
    od::json_type t;
    if (v.type().get(t)) return false;
    if (t != od::json_type::number) return WrongType(v, path, "an integer");
    uint64_t mag = 0;
    bool negative = false;
    const size_t off = ValueOffset(v);
    constexpr uint64_t kMaxPos = static_cast<uint64_t>(INT64_MAX);
    switch (json::ExactInteger(Token(v), &mag, &negative)) {
      case json::IntegerClass::kNotNumber: return false;
      case json::IntegerClass::kNotInteger: return WrongType(v, path, "an integer");
      case json::IntegerClass::kTooBig: break;
      case json::IntegerClass::kOk:
        if (mag <= kMaxPos + (negative ? 1 : 0)) {
          *out = !negative ? static_cast<int64_t>(mag) : mag == kMaxPos + 1 ? INT64_MIN : -static_cast<int64_t>(mag);
          return *ok = true;
        }
        break;
    }
    Value(off, path, StrCat("expected an integer in [-9223372036854775808, 9223372036854775807], got ",
                            json::Describe(text_, off)));
    return true;
  }
  bool U32(od::value& v, const Path& path, uint32_t* out, bool* ok) {
    uint64_t x = 0;
    if (!U64(v, path, &x, ok)) return false;
    if (!*ok) return true;
    if (x > UINT32_MAX) {
      *ok = false;
      Value(ValueOffset(v), path, StrCat("value ", x, " does not fit in 32 bits"));
      return true;
    }
    *out = static_cast<uint32_t>(x);
    return true;
  }
  bool I32(od::value& v, const Path& path, int32_t* out, bool* ok) {
    int64_t x = 0;
    if (!I64(v, path, &x, ok)) return false;
    if (!*ok) return true;
    if (x < INT32_MIN || x > INT32_MAX) {
      *ok = false;
      Value(ValueOffset(v), path, StrCat("value ", x, " does not fit in a 32-bit int"));
      return true;
    }
    *out = static_cast<int32_t>(x);
    return true;
  }
  bool Str(od::value& v, const Path& path, std::string_view* out, bool* ok) {
    // A string without escapes is read in place: the bytes between its quotes (stage 1 has checked
    // them); On-Demand skips the value unread. Anything else goes through get_string.
    std::string_view t = v.raw_json_token();
    if (t.size() >= 2 && t[0] == '"') {
      while (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r') t.remove_suffix(1);
      const std::string_view in = t.substr(1, t.size() - 2);
      if (t.size() >= 2 && t.back() == '"' && QuoteOrBackslash(in.data()) == in.data() + in.size()) {
        *out = in;
        return *ok = true;
      }
    }
    *ok = false;
    const simdjson::error_code e = v.get_string().get(*out);
    if (!e) return *ok = true;
    if (e != simdjson::INCORRECT_TYPE) return false;
    return WrongType(v, path, "a string");
  }

  // Integer or "0x..." / decimal string.
  bool Address(od::value& v, const Path& path, uint64_t* out) {
    od::json_type t;
    if (v.type().get(t)) return false;
    bool ok = false;
    if (t != od::json_type::string) return U64(v, path, out, &ok);
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (!ok) return true;
    const std::errc ec = ParseAddressText(sv, out);
    if (ec != std::errc()) {
      Value(ValueOffset(v), path,
            StrCat("expected an address (integer or \"0x...\" string), got \"", sv, "\"",
                   ec == std::errc::result_out_of_range ? ": out of range (more than 64 bits)" : ""));
    }
    return true;
  }

  template <typename E>
  bool UnknownName(od::value& v, const Path& path, std::string_view sv) {
    Value(ValueOffset(v), path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
    return true;
  }
  // A name, or (with `count` > 0) the cuda.h integer below `count`.
  template <typename E>
  bool Enum(od::value& v, const Path& path, E* out, int count) {
    bool ok = false;
    if (count > 0) {
      od::json_type t;
      if (v.type().get(t)) return false;
      if (t == od::json_type::number) {
        uint64_t x = 0;
        if (!U64(v, path, &x, &ok)) return false;
        if (!ok) return true;
        if (x >= static_cast<uint64_t>(count)) {
          Value(ValueOffset(v), path, StrCat("enum value ", x, " is out of range; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
          return true;
        }
        *out = static_cast<E>(x);
        return true;
      }
    }
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (ok && !Parse(sv, out)) return UnknownName<E>(v, path, sv);
    return true;
  }

  // tensor_data_type: as Enum, and a data alias ("e4m3") is remembered in the spec (types.h ParseDataType).
  bool DataTypeValue(od::value& v, const Path& path, TensorMapSpec* s) {
    od::json_type t;
    if (v.type().get(t)) return false;
    s->data_type_alias = kNoDataAlias;
    if (t == od::json_type::number) return Enum(v, path, &s->data_type, kNumDataTypes);
    std::string_view sv;
    bool ok = false;
    if (!Str(v, path, &sv, &ok)) return false;
    if (ok && !ParseDataType(sv, &s->data_type, &s->data_type_alias)) return UnknownName<DataType>(v, path, sv);
    return true;
  }

  bool DriverVersion(od::value& v, const Path& path, uint32_t* out) {
    od::json_type t;
    if (v.type().get(t)) return false;
    bool ok = false;
    if (t != od::json_type::string) return U32(v, path, out, &ok);
    std::string_view sv;
    if (!Str(v, path, &sv, &ok)) return false;
    if (!ok) return true;
    absl::StatusOr<uint32_t> dv = ParseDriverVersion(sv);
    if (!dv.ok()) {
      Value(ValueOffset(v), path, StrCat("expected a driver version such as 13000 or \"13.0\", got \"", sv, "\""));
      return true;
    }
    *out = *dv;
    return true;
  }

  // --- arrays -------------------------------------------------------------------------------------

  template <typename T, size_t N, typename F>
  bool Array(od::value& v, std::string_view name, std::array<T, N>* out, int which, F read_one) {
    od::array arr;
    if (const simdjson::error_code e = v.get_array().get(arr)) {
      if (e != simdjson::INCORRECT_TYPE) return false;
      return WrongType(v, Path{name}, "an array");
    }
    uint32_t n = 0;
    for (auto element : arr) {
      od::value ev;
      if (std::move(element).get(ev)) return false;
      const Path path{name, static_cast<int>(n)};
      if (n >= N) {
        Value(ValueOffset(ev), path, StrCat(name, " has more than ", N, " entries (tensor_rank is at most ", kMaxRank, ")"));
        ++n;
        continue;
      }
      T x{};
      bool ok = false;
      if (!(this->*read_one)(ev, path, &x, &ok)) return false;
      if (ok) (*out)[n] = x;
      ++n;
    }
    counts_[static_cast<size_t>(which)] = n;
    return true;
  }

  // The value of row `row` of the field table, read as its kind says.
  bool Field(size_t row, od::value& v) {
    TensorMapSpec& s = *s_;
    return WithField(
        s, row,
        [&](auto tag, auto& m) -> bool {
          constexpr size_t kRow = decltype(tag)::value;
          constexpr FieldKind kind = kSpecFields[kRow].kind;
          const std::string_view key = kSpecFields[kRow].key;
          const Path path{key};
          bool ok = false;
          if constexpr (kind == FieldKind::kText) {
            std::string_view sv;
            if (!Str(v, path, &sv, &ok)) return false;
            if (ok) m.assign(sv.data(), sv.size());
            return true;
          } else if constexpr (kind == FieldKind::kName) {
            return Enum(v, path, &m, 0);
          } else if constexpr (kind == FieldKind::kEnum) {
            return Enum(v, path, &m, EnumCount(&m));
          } else if constexpr (kind == FieldKind::kDataType) {
            return DataTypeValue(v, path, &s);
          } else if constexpr (kind == FieldKind::kU32) {
            return U32(v, path, &m, &ok);
          } else if constexpr (kind == FieldKind::kI32) {
            return I32(v, path, &m, &ok);
          } else if constexpr (kind == FieldKind::kAddress) {
            return Address(v, path, &m);
          } else if constexpr (kind == FieldKind::kDriverVersion) {
            return DriverVersion(v, path, &m);
          } else {
            using T = typename ArrayTraits<std::remove_reference_t<decltype(m)>>::Element;
            if constexpr (std::is_same_v<T, uint64_t>) return Array(v, key, &m, ArrayNumber(kRow), &ObjectReader::U64);
            else if constexpr (std::is_same_v<T, uint32_t>) return Array(v, key, &m, ArrayNumber(kRow), &ObjectReader::U32);
            else return Array(v, key, &m, ArrayNumber(kRow), &ObjectReader::I32);
          }
        },
        true);
  }

  std::string_view text_;
  json::TextPos at_;
  TensorMapSpec* s_;
  const char* base_ = nullptr;
  std::array<uint32_t, kNumSpecArrays> counts_{};
  bool failed_ = false;
  size_t err_offset_ = 0;
  std::string err_path_;
  std::string err_message_;
};

}  // namespace

struct SpecJsonParser::Impl {
  od::parser parser;
  bool fast_path = true;
  FastState fast;
  FastState* FastReads() { return fast_path ? &fast : nullptr; }
  std::string copy;  // unpadded texts are copied here, followed by json::kPadding bytes
};

SpecJsonParser::SpecJsonParser() : impl_(std::make_unique<Impl>()) {}
SpecJsonParser::~SpecJsonParser() = default;
void SpecJsonParser::set_fast_path(bool on) { impl_->fast_path = on; }
size_t SpecJsonParser::fast_reads() const { return impl_->fast.reads; }

absl::Status SpecJsonParser::Parse(std::string_view text, json::TextPos at, bool padded, TensorMapSpec* spec) {
  ObjectReader reader(text, at, spec);
  if (padded) return reader.Read(&impl_->parser, text.data(), text.size() + json::kPadding, impl_->FastReads());
  std::string& copy = impl_->copy;
  copy.resize(text.size() + json::kPadding);
  if (!text.empty()) std::memcpy(copy.data(), text.data(), text.size());
  return reader.Read(&impl_->parser, copy.data(), copy.size(), impl_->FastReads());
}

absl::Status SpecJsonParser::ParseSpecOrWrapped(std::string_view text, json::TextPos at, bool padded,
                                                TensorMapSpec* spec) {
  const absl::Status own = Parse(text, at, padded, spec);
  if (own.ok() || text.find("\"spec\"") == std::string_view::npos) return own;
  if (json::FindSyntaxError(text).has_value()) return own;  // not JSON: the spec's error says where
  // The text is JSON; find its "spec" member. Work on a padded copy, in which the member is read in place.
  std::string copy(text);
  copy.append(json::kPadding, ' ');
  od::parser parser;
  od::document doc;
  od::object obj;
  if (parser.iterate(simdjson::padded_string_view(copy.data(), text.size(), copy.size())).get(doc) ||
      doc.get_object().get(obj))
    return own;
  for (auto member : obj) {
    od::field f;
    std::string_view key;
    if (std::move(member).get(f) || f.unescaped_key().get(key)) return own;
    od::json_type t;
    if (key != "spec" || f.value().type().get(t) || t != od::json_type::object) continue;
    od::object inner;
    std::string_view raw;
    if (f.value().get_object().get(inner) || inner.raw_json().get(raw)) return own;
    const size_t offset = static_cast<size_t>(raw.data() - copy.data());
    return Parse(std::string_view(text.data() + offset, raw.size()), json::PositionOf(text, offset, at), false, spec);
  }
  return own;
}

absl::StatusOr<TensorMapSpec> ParseSpecJson(std::string_view text, size_t first_line) {
  // One parser per thread keeps simdjson's buffers between calls; a text over 1 MiB gets its own parser
  // so that the thread's does not stay that large.
  constexpr size_t kKeepLimit = size_t{1} << 20;
  thread_local SpecJsonParser parser;
  TensorMapSpec spec;
  json::TextPos at;
  at.line = first_line;
  absl::Status st;
  if (text.size() <= kKeepLimit) {
    st = parser.Parse(text, at, false, &spec);
  } else {
    SpecJsonParser big;
    st = big.Parse(text, at, false, &spec);
  }
  if (!st.ok()) return st;
  return spec;
}

absl::StatusOr<uint32_t> ParseDriverVersion(std::string_view s) {
  uint32_t v = 0;
  if (internal_spec_json::DriverVersionOf(s, &v)) return v;
  return absl::InvalidArgumentError(StrCat("expected a driver version such as 13000 or \"13.0\", got \"", s, "\""));
}

absl::Status FinishSpec(TensorMapSpec* s, const uint32_t counts[kNumSpecArrays]) {
  if (!s->Has(kFieldDataType)) {
    return InputErrorAt("tensor_data_type", "missing; every spec needs its data type (e.g. \"bf16\")");
  }
  if (!s->Has(kFieldGlobalDim) || counts[kArrGlobalDim] == 0) {
    return InputErrorAt("global_dim", "missing; give the tensor's size per dimension, innermost first");
  }
  const uint32_t ndims = counts[kArrGlobalDim];
  if (!s->Has(kFieldRank)) {
    s->rank = ndims;
  } else if (s->rank != ndims) {
    return InputErrorAt("global_dim", StrCat("has ", ndims, " entries but tensor_rank is ", s->rank));
  }
  const uint32_t rank = s->rank;
  if (counts[kArrGlobalStrides] != kAbsentCount && counts[kArrGlobalStrides] != rank - 1) {
    return InputErrorAt("global_strides",
                       StrCat("has ", counts[kArrGlobalStrides], " entries; tensor_rank ", rank, " needs ", rank - 1,
                           " (the stride of dimension 0 is the element size and is not given)"));
  }
  if (counts[kArrGlobalStrides] == kAbsentCount) FillDenseStrides(s);
  if (counts[kArrElementStrides] != kAbsentCount && counts[kArrElementStrides] != rank) {
    return InputErrorAt("element_strides", StrCat("has ", counts[kArrElementStrides], " entries; tensor_rank ", rank, " needs ", rank));
  }
  const bool tiled_like = !IsIm2colMode(s->mode);
  if (tiled_like) {
    if (counts[kArrBoxDim] == kAbsentCount) {
      return InputErrorAt("box_dim", StrCat("missing; mode ", Name(s->mode), " needs the box size per dimension"));
    }
    if (counts[kArrBoxDim] != rank) {
      return InputErrorAt("box_dim", StrCat("has ", counts[kArrBoxDim], " entries; tensor_rank ", rank, " needs ", rank));
    }
  } else {
    if (!s->Has(kFieldChannelsPerPixel)) {
      return InputErrorAt("channels_per_pixel", StrCat("missing; mode ", Name(s->mode), " needs it"));
    }
    if (!s->Has(kFieldPixelsPerColumn)) {
      if (s->mode != Mode::kIm2colW128) {
        return InputErrorAt("pixels_per_column", StrCat("missing; mode ", Name(s->mode), " needs it"));
      }
      s->pixels_per_column = 128;
    }
    if (s->mode == Mode::kIm2col) {
      const uint32_t need = rank >= 2 ? rank - 2 : 0;
      for (int a : {static_cast<int>(kArrLowerCorner), static_cast<int>(kArrUpperCorner)}) {
        if (counts[a] != kAbsentCount && counts[a] != need) {
          return InputErrorAt(a == kArrLowerCorner ? "pixel_box_lower_corner" : "pixel_box_upper_corner",
                             StrCat("has ", counts[a], " entries; tensor_rank ", rank, " needs ", need, " (one per D, H, W dimension)"));
        }
      }
    }
    if (IsWideMode(s->mode) && !s->Has(kFieldWideMode))
      s->wide_mode = s->mode == Mode::kIm2colW128 ? Im2colWideMode::kW128 : Im2colWideMode::kW;
  }
  return absl::OkStatus();
}


}  // namespace tmapgen