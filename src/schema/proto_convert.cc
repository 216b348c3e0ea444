// proto_convert.cc: see proto_convert.h.
#include "src/schema/proto_convert.h"

#include <string>
#include <type_traits>
#include <utility>

#include "src/util/strings.h"

namespace tmapgen {
namespace {

template <typename R, typename A>
absl::Status CopyRepeated(const R& from, A* to, uint32_t* count, std::string_view name) {
  if (static_cast<size_t>(from.size()) > to->size())
    return InputErrorAt(name, StrCat("has ", from.size(), " entries; at most ", to->size()));
  for (int i = 0; i < from.size(); ++i) (*to)[static_cast<size_t>(i)] = from.Get(i);
  *count = static_cast<uint32_t>(from.size());
  return absl::OkStatus();
}

// Row I of the field table: `get` returns the message's value, `has` whether the message holds it. Binary
// Protobuf keeps enum numbers the schema does not name; the core would misread them. The core's enums and
// the schema's have the same numbers, 0 to EnumCount - 1 (tests/schema/proto_convert_test.cc checks it).
template <size_t I, class Get, class Has>
absl::Status CheckEnum(const v1::TensorMapSpec& m, Get get, Has has) {
  using V = std::decay_t<decltype(get(m))>;
  if constexpr (std::is_enum_v<V>) {
    using E = std::decay_t<decltype(Member<I>(std::declval<TensorMapSpec&>()))>;
    const int n = static_cast<int>(get(m));
    if (has(m) && (n < 0 || n >= EnumCount(static_cast<E*>(nullptr))))
      return InputErrorAt(kSpecFields[I].key, StrCat("unknown value ", n, "; expected one of: ",
                                                      AcceptedNames(static_cast<E*>(nullptr))));
  }
  return absl::OkStatus();
}

template <size_t I, class Get, class Has>
absl::Status FromMessage(const v1::TensorMapSpec& m, Get get, Has has, TensorMapSpec* s, uint32_t* counts) {
  if (!has(m)) return absl::OkStatus();
  constexpr FieldInfo f = kSpecFields[I];
  auto& member = Member<I>(*s);
  using M = std::decay_t<decltype(member)>;
  using V = std::decay_t<decltype(get(m))>;
  if constexpr (f.kind == FieldKind::kArray) {
    if (absl::Status st = CopyRepeated(get(m), &member, &counts[ArrayNumber(I)], f.key); !st.ok()) return st;
  } else if constexpr (std::is_enum_v<M> && !std::is_enum_v<V>) {  // a name held as a string (target)
    if (!Parse(get(m), &member))
      return InputErrorAt(f.key, StrCat("unknown value \"", get(m), "\"; expected one of: ",
                                        AcceptedNames(static_cast<M*>(nullptr))));
  } else {
    member = static_cast<M>(get(m));
  }
  s->set_fields |= f.bit;
  return absl::OkStatus();
}

// Whether the Protobuf form writes row I: what the map uses (a given field the mode ignores is left out).
template <size_t I>
bool InMessage(const TensorMapSpec& s) {
  constexpr FieldUse use = kSpecFields[I].use;
  if constexpr (use == FieldUse::kAlways) return true;
  else if constexpr (use == FieldUse::kIfGiven) return s.Has(static_cast<Field>(kSpecFields[I].bit));
  else if constexpr (use == FieldUse::kIfNotEmpty) return !Member<I>(s).empty();
  else return UsedBy(use, s.mode, s.direction);
}

template <size_t I, class Set, class Add>
void ToMessage(const TensorMapSpec& s, v1::TensorMapSpec* m, Set set, Add add) {
  if (!InMessage<I>(s)) return;
  const auto& member = Member<I>(s);
  using M = std::decay_t<decltype(member)>;
  if constexpr (kSpecFields[I].kind == FieldKind::kArray) {
    const uint32_t n = ArrayLength(ArrayTraits<M>::kSize, s.rank);
    for (uint32_t i = 0; i < n; ++i) add(m, member[i]);
  } else {
    set(m, member);
  }
}

}  // namespace

// Each row's accessors are named after its key (the Protobuf field of the same name, proto/tmapgen.proto).
#define TMAPGEN_PROTO_GET(key) [](const v1::TensorMapSpec& p) -> decltype(auto) { return p.key(); }
#define TMAPGEN_PROTO_HAS(Id, key)                                                              \
  [](const auto& p) {                                                                          \
    if constexpr (kSpecFields[kFieldIndex##Id].kind == FieldKind::kArray) return p.key##_size() > 0; \
    else return p.has_##key();                                                                 \
  }

absl::Status SpecFromProto(const v1::TensorMapSpec& m, TensorMapSpec* s) {
#define TMAPGEN_CHECK_ENUM(Id, member, key, ...)                                                          \
  if (absl::Status st = CheckEnum<kFieldIndex##Id>(m, TMAPGEN_PROTO_GET(key), TMAPGEN_PROTO_HAS(Id, key)); \
      !st.ok())                                                                                          \
    return st;
  TMAPGEN_SPEC_FIELDS(TMAPGEN_CHECK_ENUM)
#undef TMAPGEN_CHECK_ENUM
  *s = TensorMapSpec();
  uint32_t counts[kNumSpecArrays];
  for (uint32_t& c : counts) c = kAbsentCount;
#define TMAPGEN_FROM_MESSAGE(Id, member, key, ...)                                                              \
  if (absl::Status st = FromMessage<kFieldIndex##Id>(m, TMAPGEN_PROTO_GET(key), TMAPGEN_PROTO_HAS(Id, key), s, counts); \
      !st.ok())                                                                                                \
    return st;
  TMAPGEN_SPEC_FIELDS(TMAPGEN_FROM_MESSAGE)
#undef TMAPGEN_FROM_MESSAGE
  return FinishSpec(s, counts);
}

void SpecToProto(const TensorMapSpec& s, v1::TensorMapSpec* m) {
  // Enums go to the Protobuf enum of the same numbers; a name held as a string (target) by its name.
#define TMAPGEN_TO_MESSAGE(Id, member, key, ...)                                         \
  ToMessage<kFieldIndex##Id>(                                                           \
      s, m,                                                                             \
      [](auto* p, const auto& v) {                                                      \
        using P = std::decay_t<decltype(p->key())>;                                     \
        if constexpr (std::is_enum_v<P>) p->set_##key(static_cast<P>(v));               \
        else if constexpr (std::is_enum_v<std::decay_t<decltype(v)>>) p->set_##key(std::string(Name(v))); \
        else p->set_##key(v);                                                           \
      },                                                                                \
      [](auto* p, auto v) { p->add_##key(v); });
  TMAPGEN_SPEC_FIELDS(TMAPGEN_TO_MESSAGE)
#undef TMAPGEN_TO_MESSAGE
}

#undef TMAPGEN_PROTO_HAS
#undef TMAPGEN_PROTO_GET

}  // namespace tmapgen
