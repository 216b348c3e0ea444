// py_blob.cc: tmapgen.decode (a 128-byte CUtensorMap back into its parameters) and tmapgen._encode
// (parameters into the 128 bytes the measured driver writes, offline), over src/blob/blob.h, the API the
// command line's `tmapgen decode` and the reports' offline bytes use.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include "python/ext/py_errors.h"
#include "python/ext/py_report.h"
#include "python/ext/py_spec.h"
#include "src/blob/blob.h"
#include "src/blob/blob_text.h"
#include "src/blob/layout_doc.h"
#include "src/ops/decode.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
void BindBlob(nb::module_& m);

namespace {

struct MapFieldValue {
  std::string name, bits, kind, meaning;
  uint64_t raw = 0;
  int64_t value = 0;
};

struct UnexplainedBit {
  int bit = 0;
  std::string other_field;  // "" when no field of another layout has this bit
};

struct PyDecoded {
  blob::MapBytes bytes{};
  blob::Decoded d;
  std::optional<Target> target;
};

MapFieldValue FieldOf(const blob::FieldValue& f) {
  return MapFieldValue{std::string(f.field->name), blob::BitsText(*f.field), std::string(blob::KindName(f.field->kind)),
                       std::string(f.field->meaning), f.raw, f.value};
}

blob::MapBytes BytesArg(nb::handle data) {
  std::vector<blob::MapBytes> maps;
  if (PyUnicode_Check(data.ptr())) {
    const std::string text = nb::cast<std::string>(data);
    absl::StatusOr<std::vector<blob::MapBytes>> parsed = blob::ParseBlobText(text, true);
    if (!parsed.ok()) ThrowSpec("data", std::string(StatusMessage(parsed.status())));
    maps = *std::move(parsed);
  } else {
    nb::object b = nb::steal(PyBytes_FromObject(data.ptr()));
    if (!b.is_valid()) {
      PyErr_Clear();
      throw nb::type_error(StrCat("decode takes the 128 bytes of a CUtensorMap (bytes, bytearray, memoryview, a "
                                  "buffer) or their text (hex digits or 16 words), got ", Py_TYPE(data.ptr())->tp_name).c_str());
    }
    const std::string_view v(PyBytes_AS_STRING(b.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(b.ptr())));
    if (v.size() != static_cast<size_t>(blob::kMapBytes))
      ThrowSpec("data", StrCat("a CUtensorMap is 128 bytes, got ", v.size()));
    absl::StatusOr<std::vector<blob::MapBytes>> parsed = blob::ParseBlobBinary(v);
    if (!parsed.ok()) ThrowSpec("data", std::string(StatusMessage(parsed.status())));
    maps = *std::move(parsed);
  }
  if (maps.size() != 1) ThrowSpec("data", StrCat("the text holds ", maps.size(), " maps; decode takes one"));
  return maps[0];
}

std::string DecodedText(const PyDecoded& p) {
  const blob::Decoded& d = p.d;
  std::string o = StrCat("CUtensorMap, ", blob::LayoutName(d.layout), d.reencodes ? ", re-encodes to the same bytes" : "",
                         d.maybe_wide ? ", also an im2col::w map" : "", "\n  bytes  ", blob::ToHex(p.bytes), "\n");
  for (const blob::FieldValue& f : d.fields)
    o += StrCat("  ", f.field->name, " = ", f.value, "  (bits ", blob::BitsText(*f.field), ", raw ", Hex(f.raw), ")\n");
  for (const blob::FieldValue& f : d.recognised)
    o += StrCat("  recognised: ", f.field->name, " (bits ", blob::BitsText(*f.field), "): ", f.field->meaning, "\n");
  for (const blob::UnexplainedBit& u : d.unexplained)
    o += StrCat("  unexplained bit ", u.bit, u.other_field.empty() ? "" : StrCat(" (", u.other_field, " elsewhere)"), "\n");
  for (const blob::DecodeFinding& f : d.findings) o += StrCat("  finding: ", f.field, ": ", f.message, "\n");
  if (!d.spec_ok) o += "  the parameters could not all be recovered: no spec\n";
  return o;
}

}  // namespace

void BindBlob(nb::module_& m) {
  nb::class_<MapFieldValue>(m, "MapField", "One field of a CUtensorMap: name, bits, kind (parameter, derived, recognised), raw bits, value.")
      .def_ro("name", &MapFieldValue::name)
      .def_ro("bits", &MapFieldValue::bits, "The bit positions (\"96-127, 224-227\").")
      .def_ro("kind", &MapFieldValue::kind)
      .def_ro("raw", &MapFieldValue::raw)
      .def_ro("value", &MapFieldValue::value, "The decoded value (the data type: its cuda.h value; -1 when unknown).")
      .def_ro("meaning", &MapFieldValue::meaning)
      .def("__repr__", [](const MapFieldValue& f) { return StrCat("<MapField ", f.name, " = ", f.value, " (bits ", f.bits, ")>"); });
  nb::class_<UnexplainedBit>(m, "UnexplainedBit", "A set bit that no field explains; other_field names it in another layout.")
      .def_ro("bit", &UnexplainedBit::bit)
      .def_ro("other_field", &UnexplainedBit::other_field)
      .def("__repr__", [](const UnexplainedBit& u) { return StrCat("<UnexplainedBit ", u.bit, ">"); });

  nb::class_<PyDecoded> c(m, "DecodedMap",
                          "A 128-byte CUtensorMap read back into its fields (src/blob, docs/tensormap-layout.md).\n"
                          "`spec` is the recovered cuTensorMapEncode* parameters (None when some could not be\n"
                          "recovered), `report` its validation; every set bit is a field, a recognised bit or listed\n"
                          "in `unexplained_bits`.");
  c.def_prop_ro("bytes", [](const PyDecoded& p) { return nb::bytes(reinterpret_cast<const char*>(p.bytes.data()), p.bytes.size()); });
  c.def_prop_ro("hex", [](const PyDecoded& p) { return blob::ToHex(p.bytes); }, "256 lowercase hex digits, byte 0 first.");
  c.def_prop_ro("words", [](const PyDecoded& p) {
    uint64_t w[16];
    blob::ToWords(p.bytes, w);
    return std::vector<uint64_t>(w, w + 16);
  }, "The 16 little-endian 64-bit words (as CUTLASS-style dumps print them).");
  c.def_prop_ro("layout", [](const PyDecoded& p) { return std::string(blob::LayoutName(p.d.layout)); });
  c.def_prop_ro("spec_ok", [](const PyDecoded& p) { return p.d.spec_ok; });
  c.def_prop_ro("reencodes", [](const PyDecoded& p) { return p.d.reencodes; }, "encode(spec) gives back exactly these bytes.");
  c.def_prop_ro("maybe_wide", [](const PyDecoded& p) { return p.d.maybe_wide; },
                "The bytes are also what the sm_90 driver writes for an im2col::w map (the wide mode is not recoverable).");
  c.def_prop_ro("spec", [](const PyDecoded& p) -> nb::object {
    if (!p.d.spec_ok) return nb::none();
    PySpec s;
    s.spec = p.d.spec;
    if (p.target) {
      s.spec.target = *p.target;
      s.spec.set_fields |= kFieldTarget;
    }
    s.origin.push_back(StrCat("decoded from a 128-byte CUtensorMap (", blob::LayoutName(p.d.layout), ")"));
    return nb::cast(s);
  }, nb::sig("def spec(self) -> TensorMapSpec | None"));
  c.def_prop_ro("report", [](const PyDecoded& p) -> nb::object {
    if (!p.d.spec_ok) return nb::none();
    Result r;
    ValidateInto(p.d.spec, p.target.has_value(), p.target.value_or(Target::kSm90a), 0, &r);
    return nb::cast(r);
  }, nb::sig("def report(self) -> Report | None"), "The recovered spec validated (for decode's target), or None.");
  c.def_prop_ro("fields", [](const PyDecoded& p) {
    std::vector<MapFieldValue> out;
    for (const blob::FieldValue& f : p.d.fields) out.push_back(FieldOf(f));
    return out;
  }, "Every field of the map's layout, in table order.");
  c.def_prop_ro("recognised", [](const PyDecoded& p) {
    std::vector<MapFieldValue> out;
    for (const blob::FieldValue& f : p.d.recognised) out.push_back(FieldOf(f));
    return out;
  }, "Recognised bits that are set (bit 85, the Blackwell driver quirk).");
  c.def_prop_ro("unexplained_bits", [](const PyDecoded& p) {
    std::vector<UnexplainedBit> out;
    for (const blob::UnexplainedBit& u : p.d.unexplained) out.push_back(UnexplainedBit{u.bit, std::string(u.other_field)});
    return out;
  });
  c.def_prop_ro("findings", [](const PyDecoded& p) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const blob::DecodeFinding& f : p.d.findings) out.emplace_back(f.field, f.message);
    return out;
  }, nb::sig("def findings(self) -> list[tuple[str, str]]"), "(field, message) for values no measured driver writes.");
  c.def("__str__", &DecodedText);
  c.def("__repr__", &DecodedText);

  m.def(
      "decode",
      [](nb::handle data, nb::handle target) {
        PyDecoded p;
        p.bytes = BytesArg(data);
        Target t;
        if (TargetArg(target, &t)) p.target = t;
        // The report is validated when it is asked for (DecodedMap.report).
        ops::DecodeRequest req;
        req.maps.push_back(p.bytes);
        req.labels.emplace_back("data");
        req.options.validate = false;
        ops::RunDecode(req, [&p](const ops::DecodedMap& m) {
          p.d = m.decoded;
          return absl::OkStatus();
        }).IgnoreError();  // `each` never fails
        return p;
      },
      nb::arg("data"), nb::kw_only(), nb::arg("target").none() = nb::none(),
      nb::sig("def decode(data: bytes | bytearray | memoryview | str, *, target: str | None = None) -> DecodedMap"),
      "Reads a 128-byte CUtensorMap back into its parameters, as `tmapgen decode` does: `data` is the 128\n"
      "bytes (any buffer), or text: 256 hex digits, or the 16 64-bit words a CUTLASS-style dump prints.\n"
      "The recovered spec is validated for `target` (report). Garbage raises SpecError(field \"data\").");
  m.def(
      "_encode",
      [](const PySpec& s) {
        absl::StatusOr<blob::Encoded> e = blob::Encode(s.spec);
        if (!e.ok()) {
          const std::string msg(e.status().message());
          const size_t end = msg.find_first_of(" :=");
          throw SpecFailure(end == std::string::npos ? std::string() : msg.substr(0, end), msg);
        }
        return nb::make_tuple(nb::bytes(reinterpret_cast<const char*>(e->bytes.data()), e->bytes.size()), e->caveats);
      },
      nb::arg("spec"), "(bytes, caveats) of blob::Encode. Internal: tmapgen.encode.");
}

}  // namespace tmapgen::py
