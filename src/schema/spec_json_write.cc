// spec_json_write.cc: WriteSpecJson (see spec_json.h). Apart from the reader (spec_json.cc) so that what
// only writes specs (the trace injection library, cmake/trace_inject.cmake) does not pull in simdjson.
#include "src/schema/spec_json.h"

#include <charconv>
#include <cstring>
#include <string>
#include <type_traits>

#include "src/json/json_sink.h"
#include "src/util/strings.h"

namespace tmapgen {

// The compact form is written through a pointer into the writer's buffer and appended as one value (a fifth
// of the instructions of Writer calls: docs/lab/perf-history.md, section 13); pretty output makes Writer calls; both from
// one body, WriteSpec (src/json/json_sink.h; tests/schema: WriteSpecJson compact vs pretty).
// Room for the compact form, from the field table: braces, and for each row its key with quotes, colon and comma
// and the longest value of its kind (an integer: 21 bytes; an address: "0x" and 16 digits, quoted; an array:
// brackets and its entries with commas; a name: the QuotedBound of 48 bytes, the table names being shorter;
// a text: the QuotedBound of its length).
namespace {
constexpr size_t kNameBound = 6 * 48 + 2 + 32;  // json::Writer::QuotedBound(48)
constexpr size_t FixedBound() {
  size_t n = 2;
  for (const FieldInfo& f : kSpecFields) {
    n += f.key.size() + 4;
    switch (f.kind) {
      case FieldKind::kText: break;  // CompactSpecJsonBound adds it
      case FieldKind::kName: case FieldKind::kEnum: case FieldKind::kDataType: n += kNameBound; break;
      case FieldKind::kU32: case FieldKind::kI32: case FieldKind::kDriverVersion: n += 21; break;
      case FieldKind::kAddress: n += 20; break;
      case FieldKind::kArray: n += 2 + kMaxRank * 22; break;
    }
  }
  return n;
}
}  // namespace

size_t CompactSpecJsonBound(const TensorMapSpec& s) {
  static_assert(FixedBound() < 8192, "a spec's compact form is a few KB");
  size_t n = FixedBound();
  ForEachField(s, [&](auto tag, const auto& m) {
    (void)m;
    if constexpr (kSpecFields[decltype(tag)::value].kind == FieldKind::kText) n += json::Writer::QuotedBound(m.size());
  });
  return n;
}

namespace {

// Whether the canonical JSON form writes row I: what the map uses, plus every field given.
template <size_t I>
bool Written(const TensorMapSpec& s) {
  constexpr FieldUse use = kSpecFields[I].use;
  if constexpr (use == FieldUse::kAlways) return true;
  else if constexpr (use == FieldUse::kIfGiven) return s.Has(static_cast<Field>(kSpecFields[I].bit));
  else if constexpr (use == FieldUse::kIfNotEmpty) return !Member<I>(s).empty();
  else return UsedBy(use, s.mode, s.direction) || s.Has(static_cast<Field>(kSpecFields[I].bit));
}

// The value of row I in its JSON form.
template <size_t I, class Out, class V>
void Value(const TensorMapSpec& s, const V& v, Out& o) {
  constexpr FieldKind kind = kSpecFields[I].kind;
  if constexpr (kind == FieldKind::kText) o.Str(v);
  else if constexpr (kind == FieldKind::kName) o.Plain(Name(v));
  else if constexpr (kind == FieldKind::kEnum || kind == FieldKind::kDataType) o.Plain(FullName(v));
  else if constexpr (kind == FieldKind::kU32 || kind == FieldKind::kDriverVersion) o.U(v);
  else if constexpr (kind == FieldKind::kI32) o.I(v);
  else if constexpr (kind == FieldKind::kAddress) o.HexStr(v);
  else o.Arr(v.data(), ArrayLength(ArrayTraits<V>::kSize, s.rank));
}

// One member: its key (`first`: the object's first member opens it) and value.
template <size_t I, class Out, class V, size_t N, size_t M>
void WriteMember(const TensorMapSpec& s, const V& v, const char (&key)[N], const char (&first_key)[M], bool* first,
            Out& o) {
  if (!Written<I>(s)) return;
  if (*first) o.M(first_key);
  else o.M(key);
  *first = false;
  Value<I>(s, v, o);
}

// The spec's members in table order, one body for both forms (src/json/json_sink.h).
template <class Out>
void WriteSpec(const TensorMapSpec& s, Out& o) {
  bool first = true;
#define TMAPGEN_WRITE_MEMBER(Id, member, key, ...) \
  WriteMember<kFieldIndex##Id>(s, s.member, TMAPGEN_JSON_K(#key), TMAPGEN_JSON_OK(#key), &first, o);
  TMAPGEN_SPEC_FIELDS(TMAPGEN_WRITE_MEMBER)
#undef TMAPGEN_WRITE_MEMBER
  o.EndObject();
}

}  // namespace

void WriteCompactSpecJson(const TensorMapSpec& s, json::RawText* out) {
  json::CompactSink o(*out);
  WriteSpec(s, o);
  *out = *o.raw();
}

void WriteSpecJson(const TensorMapSpec& s, json::Writer* w) {
  if (w->pretty()) {
    json::WriterSink o(w);
    return WriteSpec(s, o);
  }
  char* const begin = w->RawBegin(CompactSpecJsonBound(s));  // written in the writer's buffer, no copy
  if (begin == nullptr) return;
  json::RawText o(begin);
  WriteCompactSpecJson(s, &o);
  w->RawEnd(o.end());
}

}  // namespace tmapgen
