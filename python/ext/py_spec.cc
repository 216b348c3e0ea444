#include "python/ext/py_spec.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <type_traits>

#include "python/ext/py_errors.h"
#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace nb = nanobind;

namespace tmapgen::py {
namespace {

constexpr uint32_t kAbsent = ~0u;

// A keyword: the schema name (the field table's key) or the row's Python alias.
const FieldInfo* FindKey(std::string_view k) {
  for (const FieldInfo& f : kSpecFields)
    if (f.key == k || (!f.py_alias.empty() && f.py_alias == k)) return &f;
  return nullptr;
}

// "unknown field" help: the closest name, and what the tensor-order names of for_tensor mean here.
std::string UnknownFieldHelp(std::string_view key) {
  if (key == "box" || key == "dims" || key == "strides" || key == "shape")
    return StrCat(" (the spec's arrays are innermost first, as in cuda.h: global_dim, global_strides, box_dim; "
                  "tmapgen.for_tensor(tensor, box) takes the box in the tensor's own order)");
  std::string_view best;
  size_t best_d = 99;
  for (const FieldInfo& k : kSpecFields) {
    for (std::string_view n : {k.key, k.py_alias}) {
      if (n.empty()) continue;
      if (key.size() >= 3 && n.substr(0, key.size()) == key) return StrCat(" (did you mean \"", k.key, "\"?)");
      const size_t d = EditDistance(key, n);
      if (d < best_d) { best_d = d; best = k.key; }
    }
  }
  if (best_d <= 3) return StrCat(" (did you mean \"", best, "\"?)");
  return "";
}

std::string TypeName(nb::handle h) { return Py_TYPE(h.ptr())->tp_name; }

std::string Describe(nb::handle h) {
  std::string r = nb::cast<std::string>(nb::repr(h));
  if (r.size() > 40) {  // cut on a UTF-8 character boundary
    size_t n = 37;
    while (n > 0 && (static_cast<unsigned char>(r[n]) & 0xC0) == 0x80) --n;
    r = r.substr(0, n) + "...";
  }
  return StrCat(TypeName(h), " ", r);
}

class Reader {
 public:
  Reader(std::string_view where) : where_(where) { counts_.fill(kAbsent); }

  [[noreturn]] void Fail(std::string_view field, const std::string& what) const {
    std::string f = where_.empty() ? std::string(field) : (field.empty() ? std::string(where_) : StrCat(where_, ".", field));
    ThrowSpec(f, what);
  }

  // An integer value (int, or anything with __index__ except bool), as a signed 128-bit-ish pair:
  // returns false for non-integers. *neg is set for negative values, *mag holds |v| when it fits 64 bits.
  bool Int(nb::handle h, std::string_view path, bool* neg, uint64_t* mag) const {
    if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr())) return false;
    nb::object v = nb::steal(PyNumber_Index(h.ptr()));
    if (!v.is_valid()) {
      PyErr_Clear();
      return false;
    }
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow == 0) {
      if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); return false; }
      *neg = x < 0;
      *mag = x < 0 ? static_cast<uint64_t>(-(x + 1)) + 1 : static_cast<uint64_t>(x);
      return true;
    }
    if (overflow < 0) Fail(path, StrCat("expected an unsigned integer, got ", nb::cast<std::string>(nb::repr(v)), " (below -2^63)"));
    const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      Fail(path, StrCat("value ", nb::cast<std::string>(nb::repr(v)), " does not fit in 64 bits"));
    }
    *neg = false;
    *mag = u;
    return true;
  }

  uint64_t U64(nb::handle h, std::string_view path) const {
    bool neg = false;
    uint64_t mag = 0;
    if (!Int(h, path, &neg, &mag)) Fail(path, StrCat("expected an unsigned integer, got ", Describe(h)));
    if (neg) Fail(path, StrCat("expected an unsigned integer, got -", mag));
    return mag;
  }
  uint32_t U32(nb::handle h, std::string_view path) const {
    const uint64_t v = U64(h, path);
    if (v > UINT32_MAX) Fail(path, StrCat("value ", v, " does not fit in 32 bits"));
    return static_cast<uint32_t>(v);
  }
  int32_t I32(nb::handle h, std::string_view path) const {
    bool neg = false;
    uint64_t mag = 0;
    if (!Int(h, path, &neg, &mag)) Fail(path, StrCat("expected an integer, got ", Describe(h)));
    if ((!neg && mag > INT32_MAX) || (neg && mag > uint64_t{1} << 31))
      Fail(path, StrCat("value ", neg ? "-" : "", mag, " does not fit in a 32-bit int"));
    return neg ? static_cast<int32_t>(-static_cast<int64_t>(mag)) : static_cast<int32_t>(mag);
  }
  bool Str(nb::handle h, std::string_view* out) const {
    if (!PyUnicode_Check(h.ptr())) return false;
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
    if (p == nullptr) throw nb::python_error();
    *out = std::string_view(p, static_cast<size_t>(n));
    return true;
  }
  uint64_t Address(nb::handle h, std::string_view path) const {
    std::string_view sv;
    if (Str(h, &sv)) {
      const std::string_view orig = sv;
      int base = 10;
      if (sv.size() > 2 && sv[0] == '0' && (sv[1] == 'x' || sv[1] == 'X')) { sv.remove_prefix(2); base = 16; }
      uint64_t v = 0;
      const auto r = std::from_chars(sv.data(), sv.data() + sv.size(), v, base);
      if (sv.empty() || r.ec != std::errc() || r.ptr != sv.data() + sv.size())
        Fail(path, StrCat("expected an address (int or \"0x...\" str), got \"", orig, "\"",
                          r.ec == std::errc::result_out_of_range ? ": out of range (more than 64 bits)" : ""));
      return v;
    }
    bool neg = false;
    uint64_t mag = 0;
    if (!Int(h, path, &neg, &mag)) Fail(path, StrCat("expected an address (int or \"0x...\" str), got ", Describe(h)));
    if (neg) Fail(path, StrCat("expected an address (int or \"0x...\" str), got -", mag));
    return mag;
  }
  // Enums of the driver: a name in either form, or the cuda.h integer.
  template <typename E>
  E Enum(nb::handle h, std::string_view path, int count) const {
    std::string_view sv;
    if (Str(h, &sv)) {
      E e{};
      if (!Parse(sv, &e)) Fail(path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
      return e;
    }
    bool neg = false;
    uint64_t mag = 0;
    if (!Int(h, path, &neg, &mag))
      Fail(path, StrCat("expected a name (str) or the cuda.h integer, got ", Describe(h)));
    if (neg || mag >= static_cast<uint64_t>(count))
      Fail(path, StrCat("enum value ", neg ? "-" : "", mag, " is out of range; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
    return static_cast<E>(mag);
  }
  // tensor_data_type: any name of the data-type table (a data alias such as "e4m3" is remembered in the spec),
  // or the cuda.h integer.
  void DataTypeField(nb::handle h, std::string_view path, TensorMapSpec* s) const {
    std::string_view sv;
    s->data_type_alias = kNoDataAlias;
    if (Str(h, &sv)) {
      if (!ParseDataType(sv, &s->data_type, &s->data_type_alias))
        Fail(path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<DataType*>(nullptr))));
      return;
    }
    s->data_type = Enum<DataType>(h, path, kNumDataTypes);
  }
  // Names only (the schema's mode, direction, reduce_op, target).
  template <typename E>
  E Named(nb::handle h, std::string_view path) const {
    std::string_view sv;
    if (!Str(h, &sv)) Fail(path, StrCat("expected a name (str), got ", Describe(h)));
    E e{};
    if (!Parse(sv, &e)) Fail(path, StrCat("unknown value \"", sv, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
    return e;
  }

  template <typename T, size_t N, typename F>
  void Array(nb::handle h, std::string_view name, std::array<T, N>* out, int arr, F one) {
    if (PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()) || PyDict_Check(h.ptr()) || PyIndex_Check(h.ptr()))
      Fail(name, StrCat("expected a list of integers, got ", Describe(h)));
    nb::object seq = nb::steal(PySequence_Fast(h.ptr(), ""));
    if (!seq.is_valid()) {
      PyErr_Clear();
      Fail(name, StrCat("expected a list of integers, got ", Describe(h)));
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
    PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
    if (static_cast<size_t>(n) > N)
      Fail(StrCat(name, "[", N, "]"), StrCat(name, " has more than ", N, " entries (tensor_rank is at most ", kMaxRank, ")"));
    for (Py_ssize_t i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = one(nb::handle(items[i]), StrCat(name, "[", i, "]"));
    counts_[arr] = static_cast<uint32_t>(n);
  }

  // Row `row` of the field table from its Python value, read as its kind says.
  void Field(size_t row, nb::handle v, TensorMapSpec* s) {
    WithField(
        *s, row,
        [&](auto tag, auto& m) {
          constexpr size_t kRow = decltype(tag)::value;
          constexpr FieldKind kind = kSpecFields[kRow].kind;
          const std::string_view p = kSpecFields[kRow].key;
          using M = std::remove_reference_t<decltype(m)>;
          if constexpr (kind == FieldKind::kText) {
            std::string_view sv;
            if (!Str(v, &sv)) Fail(p, StrCat("expected a str, got ", Describe(v)));
            m.assign(sv.data(), sv.size());
          } else if constexpr (kind == FieldKind::kName) {
            m = Named<M>(v, p);
          } else if constexpr (kind == FieldKind::kEnum) {
            m = Enum<M>(v, p, EnumCount(&m));
          } else if constexpr (kind == FieldKind::kDataType) {
            DataTypeField(v, p, s);
          } else if constexpr (kind == FieldKind::kU32) {
            m = U32(v, p);
          } else if constexpr (kind == FieldKind::kI32) {
            m = I32(v, p);
          } else if constexpr (kind == FieldKind::kAddress) {
            m = Address(v, p);
          } else if constexpr (kind == FieldKind::kDriverVersion) {
            std::string_view sv;
            if (Str(v, &sv)) {
              if (const absl::StatusOr<uint32_t> dv = ParseDriverVersion(sv); dv.ok())
                m = *dv;
              else
                Fail(p, StrCat("expected a driver version such as 13000 or \"13.0\", got \"", sv, "\""));
            } else {
              m = U32(v, p);
            }
          } else {
            using T = typename ArrayTraits<M>::Element;
            if constexpr (std::is_same_v<T, uint64_t>)
              Array(v, p, &m, ArrayNumber(kRow), [this](nb::handle h, const std::string& path) { return U64(h, path); });
            else if constexpr (std::is_same_v<T, uint32_t>)
              Array(v, p, &m, ArrayNumber(kRow), [this](nb::handle h, const std::string& path) { return U32(h, path); });
            else
              Array(v, p, &m, ArrayNumber(kRow), [this](nb::handle h, const std::string& path) { return I32(h, path); });
          }
          return true;
        },
        false);
    s->set_fields |= kSpecFields[row].bit;
  }

  // Collects the entries of one mapping into `slots` (one per row of the field table), rejecting unknown keys and
  // a field given twice under two names.
  void Collect(nb::handle mapping, std::array<PyObject*, kNumSpecFields>* slots, std::array<std::string_view, kNumSpecFields>* spelled,
               bool override_ok) {
    if (mapping.is_none()) return;
    if (!PyDict_Check(mapping.ptr())) {
      nb::object items = nb::steal(PyMapping_Items(mapping.ptr()));
      if (!items.is_valid()) {
        PyErr_Clear();
        throw nb::type_error(StrCat("a spec is a dict of fields (or a TensorMapSpec), got ", TypeName(mapping)).c_str());
      }
      nb::dict d;
      for (nb::handle kv : items) d[nb::handle(PyTuple_GET_ITEM(kv.ptr(), 0))] = nb::handle(PyTuple_GET_ITEM(kv.ptr(), 1));
      CollectDict(d, slots, spelled, override_ok);
      return;
    }
    CollectDict(mapping, slots, spelled, override_ok);
  }

  PySpec Finish(const std::array<PyObject*, kNumSpecFields>& slots) {
    PySpec out;
    TensorMapSpec& s = out.spec;
    s.element_strides = {1, 1, 1, 1, 1};
    for (size_t i = 0; i < kNumSpecFields; ++i)
      if (slots[i] != nullptr) Field(i, nb::handle(slots[i]), &s);
    uint32_t counts[kNumSpecArrays];
    for (int i = 0; i < kNumSpecArrays; ++i) counts[i] = counts_[i];
    if (const absl::Status st = FinishSpec(&s, counts); !st.ok()) {
      const InputError err = InputErrorOf(st);
      // FinishSpec's message already starts with the field.
      std::string msg = err.message;
      if (!err.field.empty() && msg.rfind(err.field + ": ", 0) == 0) msg = msg.substr(err.field.size() + 2);
      Fail(err.field, msg);
    }
    return out;
  }

 private:
  void CollectDict(nb::handle d, std::array<PyObject*, kNumSpecFields>* slots, std::array<std::string_view, kNumSpecFields>* spelled,
                   bool override_ok) {
    std::array<bool, kNumSpecFields> seen_here{};
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d.ptr(), &pos, &key, &value)) {
      std::string_view k;
      if (!Str(nb::handle(key), &k)) Fail("", StrCat("field names are str, got ", Describe(nb::handle(key))));
      const FieldInfo* info = FindKey(k);
      if (info == nullptr) Fail(k, StrCat("unknown field \"", k, "\"", UnknownFieldHelp(k)));
      const size_t idx = static_cast<size_t>(info - kSpecFields.data());
      if (seen_here[idx])
        Fail(info->key, StrCat("given twice (as \"", (*spelled)[idx], "\" and \"", k, "\")"));
      seen_here[idx] = true;
      if ((*slots)[idx] != nullptr && !override_ok)
        Fail(info->key, StrCat("given twice (as \"", (*spelled)[idx], "\" and \"", k, "\")"));
      (*spelled)[idx] = k;
      (*slots)[idx] = value == Py_None ? nullptr : value;
    }
  }

  std::string_view where_;
  std::array<uint32_t, kNumSpecArrays> counts_{};
};

// ---- Python values of the fields -------------------------------------------------------------------

template <typename T, size_t N>
nb::list ToList(const std::array<T, N>& a, uint32_t n) {
  nb::list l;
  for (uint32_t i = 0; i < n && i < N; ++i) l.append(a[i]);
  return l;
}
template <typename T, size_t N>
nb::tuple ToTuple(const std::array<T, N>& a, uint32_t n) {
  return nb::tuple(ToList(a, n));
}
uint32_t Rank(const TensorMapSpec& s) { return std::min<uint32_t>(s.rank, kMaxRank); }
uint32_t Corners(const TensorMapSpec& s) { return std::min<uint32_t>(Rank(s) >= 2 ? Rank(s) - 2 : 0, 3); }

nb::object Opt(bool has, nb::object v) { return has ? v : nb::none(); }

std::string Str(std::string_view v) { return std::string(v); }

const char* kSpecDoc =
    "One tensor map, as cuTensorMapEncodeTiled/Im2col/Im2colWide take it, plus how it is used.\n\n"
    "TensorMapSpec(spec=None, **fields): `spec` is a dict (or another TensorMapSpec) of fields; keyword\n"
    "arguments add fields or replace those of `spec`. Names are the schema's (docs/schema.md):\n"
    "tensor_data_type, global_dim, global_strides, box_dim, element_strides, swizzle, interleave,\n"
    "l2_promotion, oob_fill, mode, direction, target, ... and the short forms dtype, rank, l2, oob,\n"
    "channels, pixels, lower_corner, upper_corner, lower_corner_w, upper_corner_w. Arrays are innermost\n"
    "first, as in cuda.h; strides are in bytes. Enum values take either name form (\"128B\" or\n"
    "\"CU_TENSOR_MAP_SWIZZLE_128B\") or the cuda.h integer. None means \"not given\".\n\n"
    "Required: tensor_data_type and global_dim; box_dim for tiled/gather4/scatter4; channels_per_pixel and\n"
    "pixels_per_column for the im2col modes. Missing strides are the dense tensor's (no row\n"
    "padding: global_dim[0] x element size per row); reports say when they were filled in.\n"
    "A malformed spec raises SpecError naming the field; a well-formed spec is never an error, whatever\n"
    "its values: validate() says what is wrong with it.\n\n"
    "    >>> spec = tmapgen.TensorMapSpec(dtype=\"bf16\", global_dim=[4096, 4096], box_dim=[64, 128],\n"
    "    ...                              swizzle=\"128B\")\n"
    "    >>> tmapgen.validate(spec).transaction_bytes\n"
    "    16384\n";

}  // namespace

PySpec SpecFromMapping(nb::handle mapping, nb::handle overrides, std::string_view where) {
  Reader r(where);
  std::array<PyObject*, kNumSpecFields> slots{};
  std::array<std::string_view, kNumSpecFields> spelled{};
  r.Collect(mapping, &slots, &spelled, false);
  r.Collect(overrides, &slots, &spelled, true);
  return r.Finish(slots);
}

PySpec SpecFromObject(nb::handle obj, std::string_view where) {
  PySpec* p = nullptr;
  if (nb::try_cast<PySpec*>(obj, p) && p != nullptr) return *p;
  if (PyDict_Check(obj.ptr()) || (PyMapping_Check(obj.ptr()) && !PySequence_Check(obj.ptr())))
    return SpecFromMapping(obj, nb::none(), where);
  throw nb::type_error(StrCat(where.empty() ? "" : StrCat(where, ": "), "a spec is a TensorMapSpec or a dict of fields, got ",
                              TypeName(obj)).c_str());
}

namespace {

// Row I's value in Python: str for names (short enum names; tensor_data_type as given, a data alias included),
// int, list for arrays (the entries the rank uses).
template <size_t I, class M>
nb::object PyValue(const TensorMapSpec& s, const M& m) {
  constexpr FieldKind kind = kSpecFields[I].kind;
  if constexpr (kind == FieldKind::kText) return nb::str(m.c_str());
  else if constexpr (kind == FieldKind::kName) return nb::str(Str(Name(m)).c_str());
  else if constexpr (kind == FieldKind::kEnum) return nb::str(Str(ShortName(m)).c_str());
  else if constexpr (kind == FieldKind::kDataType)
    return nb::str(Str(s.data_type_alias != kNoDataAlias ? DataTypeNameRow(s.data_type_alias).name : ShortName(m)).c_str());
  else if constexpr (kind == FieldKind::kArray) return ToList(m, ArrayLength(ArrayTraits<M>::kSize, s.rank));
  else return nb::int_(m);
}

}  // namespace

nb::dict ExplicitFields(const TensorMapSpec& s) {
  nb::dict d;
  ForEachField(s, [&](auto tag, const auto& m) {
    constexpr size_t kRow = decltype(tag)::value;
    if (s.Has(static_cast<Field>(kSpecFields[kRow].bit))) d[kSpecFields[kRow].key.data()] = PyValue<kRow>(s, m);
  });
  return d;
}

std::string SpecJson(const TensorMapSpec& s) {
  json::Writer w;
  WriteSpecJson(s, &w);
  return w.str();
}

void BindSpec(nb::module_& m) {
  nb::class_<PySpec> c(m, "TensorMapSpec", kSpecDoc);
  c.def("__init__",
        [](PySpec* self, nb::handle spec, nb::kwargs fields) {
          if (!spec.is_none() && !PyDict_Check(spec.ptr())) {
            PySpec base = SpecFromObject(spec);
            if (PyDict_Size(fields.ptr()) == 0) {
              new (self) PySpec(std::move(base));
              return;
            }
            nb::dict d = ExplicitFields(base.spec);
            new (self) PySpec(SpecFromMapping(d, fields));
            self->origin = base.origin;
            return;
          }
          new (self) PySpec(SpecFromMapping(spec, fields));
        },
        nb::arg("spec").none() = nb::none(), nb::arg("fields"),
        nb::sig("def __init__(self, spec: dict[str, object] | TensorMapSpec | None = None, /, **fields: object) -> None"));
  c.def_static("from_json",
               [](const std::string& text) {
                 absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(text);
                 if (!parsed.ok()) {
                   const InputError e = InputErrorOf(parsed.status());
                   throw SpecFailure(e.field, e.message);
                 }
                 PySpec out;
                 out.spec = *std::move(parsed);
                 return out;
               },
               nb::arg("text"),
               "Reads one spec from its JSON form (docs/schema.md), as `tmapgen validate` reads a .json file.\n"
               "Errors raise SpecError with the line, column and field.");
  c.def_static("_with_origin",
               [](nb::dict fields, std::vector<std::string> origin, bool box_given_outermost_first) {
                 PySpec out = SpecFromMapping(fields, nb::none());
                 out.origin = std::move(origin);
                 out.spec.box_given_outermost_first = box_given_outermost_first;
                 return out;
               },
               nb::arg("fields"), nb::arg("origin"), nb::arg("box_given_outermost_first") = false);
  m.def(
      "_data_type_info",
      [](nb::handle name) {
        Reader r("");
        TensorMapSpec s;
        r.DataTypeField(name, "dtype", &s);
        const DataType t = s.data_type;
        return nb::make_tuple(Str(s.data_type_alias != kNoDataAlias ? DataTypeNameRow(s.data_type_alias).name : ShortName(t)),
                              Str(FullName(t)), DataTypeBits(t));
      },
      nb::arg("name"),
      "(name to give, cuda.h name, bits in global memory) of a data type; the name is the short name, or the data\n"
      "alias as given (\"e4m3\"). Internal.");
  c.def("to_json", [](const PySpec& p) { return SpecJson(p.spec); },
        "The canonical JSON form (the \"spec\" object of a report; `tmapgen validate` reads it back).");
  c.def("to_dict",
        [](const PySpec& p, bool explicit_only) -> nb::object {
          if (explicit_only) return ExplicitFields(p.spec);
          return nb::module_::import_("json").attr("loads")(SpecJson(p.spec));
        },
        nb::arg("explicit_only") = false, nb::sig("def to_dict(self, explicit_only: bool = False) -> dict[str, object]"),
        "The spec as a dict. By default the canonical schema form (every field its mode uses, cuda.h enum\n"
        "names, the JSON of to_json()); explicit_only=True gives only the fields that were given, with\n"
        "short names, so that TensorMapSpec(spec.to_dict(explicit_only=True)) == spec.");
  c.def("replace",
        [](const PySpec& p, nb::kwargs changes) {
          nb::dict d = ExplicitFields(p.spec);
          PySpec out = SpecFromMapping(d, changes);
          out.origin = p.origin;
          // The box keeps the order it was given in unless a new box_dim (innermost first) replaces it.
          out.spec.box_given_outermost_first =
              p.spec.box_given_outermost_first && !changes.contains("box_dim") && !changes.contains("box");
          return out;
        },
        nb::arg("changes"), nb::sig("def replace(self, **changes: object) -> TensorMapSpec"),
        "A copy with some fields changed (like dataclasses.replace). Fields that were not given explicitly\n"
        "(dense strides, the rank) are derived again from the new values.");
  c.def("__eq__", [](const PySpec& a, nb::handle b) -> bool {
    PySpec* o = nullptr;
    if (!nb::try_cast<PySpec*>(b, o) || o == nullptr) return false;
    return a.spec.set_fields == o->spec.set_fields && SpecJson(a.spec) == SpecJson(o->spec);
  });
  c.def("__hash__", [](const PySpec& a) { return nb::hash(nb::str(SpecJson(a.spec).c_str())); });
  c.def("__repr__", [](const PySpec& p) {
    nb::dict d = ExplicitFields(p.spec);
    std::string o = "TensorMapSpec(";
    bool first = true;
    for (auto [k, v] : d) {
      o += StrCat(first ? "" : ", ", nb::cast<std::string>(nb::str(k)), "=", nb::cast<std::string>(nb::repr(v)));
      first = false;
    }
    return o + ")";
  });
  c.def("__getstate__", [](const PySpec& p) { return nb::make_tuple(ExplicitFields(p.spec), p.origin); });
  c.def("__setstate__", [](PySpec* self, nb::tuple state) {
    PySpec s = SpecFromMapping(state[0], nb::none());
    s.origin = nb::cast<std::vector<std::string>>(state[1]);
    new (self) PySpec(std::move(s));
  });
  c.def("__copy__", [](const PySpec& p) { return p; });
  c.def("__deepcopy__", [](const PySpec& p, nb::handle) { return p; }, nb::arg("memo"));

  // Fields, in schema order. Enum values are the short names ("bf16", "128B").
  c.def_prop_ro("name", [](const PySpec& p) { return Opt(p.spec.Has(kFieldName), nb::str(p.spec.name.c_str())); },
                nb::sig("def name(self) -> str | None"), "A name for reports and generated code, or None.");
  c.def_prop_ro("mode", [](const PySpec& p) { return Str(Name(p.spec.mode)); },
                "How the map is used: tiled, im2col, im2col::w, im2col::w::128, gather4, scatter4.");
  c.def_prop_ro("direction", [](const PySpec& p) { return Str(Name(p.spec.direction)); },
                "load, load_cluster, store, reduce or prefetch.");
  c.def_prop_ro("reduce_op", [](const PySpec& p) { return Str(Name(p.spec.reduce_op)); }, "For direction reduce.");
  c.def_prop_ro("tensor_data_type", [](const PySpec& p) { return Str(ShortName(p.spec.data_type)); },
                "The cuda.h data type, short name (\"bf16\"); cuda_data_type has the full name.");
  c.def_prop_ro("dtype", [](const PySpec& p) { return Str(ShortName(p.spec.data_type)); }, "Same as tensor_data_type.");
  c.def_prop_ro("cuda_data_type", [](const PySpec& p) { return Str(FullName(p.spec.data_type)); },
                "The cuda.h enumerator, e.g. CU_TENSOR_MAP_DATA_TYPE_BFLOAT16.");
  c.def_prop_ro("data_type_alias",
                [](const PySpec& p) {
                  return Opt(p.spec.data_type_alias != kNoDataAlias,
                             nb::str(Str(DataTypeNameRow(p.spec.data_type_alias).name).c_str()));
                },
                nb::sig("def data_type_alias(self) -> str | None"),
                "When the data type was given as what the bytes hold (\"e4m3\", \"int8\"; docs/schema.md), that name;\n"
                "the map's type is then cuda_data_type (CU_TENSOR_MAP_DATA_TYPE_UINT8). None otherwise.");
  c.def_prop_ro("tensor_rank", [](const PySpec& p) { return p.spec.rank; });
  c.def_prop_ro("rank", [](const PySpec& p) { return p.spec.rank; }, "Same as tensor_rank.");
  c.def_prop_ro("global_address",
                [](const PySpec& p) { return Opt(p.spec.Has(kFieldGlobalAddress), nb::int_(p.spec.global_address)); },
                nb::sig("def global_address(self) -> int | None"), "The tensor's address, or None when not given.");
  c.def_prop_ro("global_dim", [](const PySpec& p) { return ToTuple(p.spec.global_dim, Rank(p.spec)); },
                nb::sig("def global_dim(self) -> tuple[int, ...]"), "Elements per dimension, innermost first.");
  c.def_prop_ro("global_strides",
                [](const PySpec& p) { return ToTuple(p.spec.global_strides, Rank(p.spec) > 0 ? Rank(p.spec) - 1 : 0); },
                nb::sig("def global_strides(self) -> tuple[int, ...]"),
                "Bytes between consecutive indices of dimensions 1..rank-1 (dimension 0 is contiguous).");
  c.def_prop_ro("box_dim",
                [](const PySpec& p) -> nb::object {
                  if (IsIm2colMode(p.spec.mode) && !p.spec.Has(kFieldBoxDim)) return nb::none();
                  return ToTuple(p.spec.box_dim, Rank(p.spec));
                },
                nb::sig("def box_dim(self) -> tuple[int, ...] | None"),
                "Box extent per dimension, innermost first (None for the im2col modes).");
  c.def_prop_ro("element_strides", [](const PySpec& p) { return ToTuple(p.spec.element_strides, Rank(p.spec)); },
                nb::sig("def element_strides(self) -> tuple[int, ...]"));
  c.def_prop_ro("interleave", [](const PySpec& p) { return Str(ShortName(p.spec.interleave)); });
  c.def_prop_ro("swizzle", [](const PySpec& p) { return Str(ShortName(p.spec.swizzle)); });
  c.def_prop_ro("l2_promotion", [](const PySpec& p) { return Str(ShortName(p.spec.l2_promotion)); });
  c.def_prop_ro("oob_fill", [](const PySpec& p) { return Str(ShortName(p.spec.oob_fill)); });
  c.def_prop_ro("pixel_box_lower_corner", [](const PySpec& p) { return ToTuple(p.spec.pixel_box_lower_corner, Corners(p.spec)); },
                nb::sig("def pixel_box_lower_corner(self) -> tuple[int, ...]"));
  c.def_prop_ro("pixel_box_upper_corner", [](const PySpec& p) { return ToTuple(p.spec.pixel_box_upper_corner, Corners(p.spec)); },
                nb::sig("def pixel_box_upper_corner(self) -> tuple[int, ...]"));
  c.def_prop_ro("pixel_box_lower_corner_width", [](const PySpec& p) { return p.spec.pixel_box_lower_corner_width; });
  c.def_prop_ro("pixel_box_upper_corner_width", [](const PySpec& p) { return p.spec.pixel_box_upper_corner_width; });
  c.def_prop_ro("channels_per_pixel", [](const PySpec& p) { return p.spec.channels_per_pixel; });
  c.def_prop_ro("pixels_per_column", [](const PySpec& p) { return p.spec.pixels_per_column; });
  c.def_prop_ro("wide_mode", [](const PySpec& p) { return Str(ShortName(p.spec.wide_mode)); });
  c.def_prop_ro("target", [](const PySpec& p) { return Opt(p.spec.has_target(), nb::str(Str(Name(p.spec.target)).c_str())); },
                nb::sig("def target(self) -> str | None"), "The target the map is for, or None (every target).");
  c.def_prop_ro("smem_address",
                [](const PySpec& p) { return Opt(p.spec.Has(kFieldSmemAddress), nb::int_(p.spec.smem_address)); },
                nb::sig("def smem_address(self) -> int | None"));
  c.def_prop_ro("smem_alignment",
                [](const PySpec& p) { return Opt(p.spec.Has(kFieldSmemAlignment), nb::int_(p.spec.smem_alignment)); },
                nb::sig("def smem_alignment(self) -> int | None"));
  c.def_prop_ro("driver_version",
                [](const PySpec& p) { return Opt(p.spec.Has(kFieldDriverVersion), nb::int_(p.spec.driver_version)); },
                nb::sig("def driver_version(self) -> int | None"));
  c.def_prop_ro("origin", [](const PySpec& p) { return p.origin; },
                "Where the spec came from when it was not written by hand (for_tensor: the protocol it read, the\n"
                "dtype mapping, strides it chose); [] otherwise.");

  // Every row of the field table without a property above gets one: its value as to_dict(explicit_only=True)
  // gives it, or None when an optional field was not given; its docstring is the flag's help.
  const TensorMapSpec defaults;
  ForEachField(defaults, [&](auto tag, const auto&) {
    constexpr size_t kRow = decltype(tag)::value;
    const char* const key = kSpecFields[kRow].key.data();  // string literals: NUL-terminated
    if (nb::hasattr(c, key)) return;
    c.def_prop_ro(
        key,
        [](const PySpec& p) -> nb::object {
          constexpr FieldUse use = kSpecFields[kRow].use;
          const auto& m = Member<kRow>(p.spec);
          if ((use == FieldUse::kIfGiven || use == FieldUse::kIfNotEmpty) &&
              !p.spec.Has(static_cast<Field>(kSpecFields[kRow].bit)))
            return nb::none();
          return PyValue<kRow>(p.spec, m);
        },
        kSpecFields[kRow].help.data());
  });
}

}  // namespace tmapgen::py
