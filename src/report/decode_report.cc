// decode_report.cc: see decode_report.h.
#include "src/report/decode_report.h"

#include "src/blob/layout_doc.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "src/util/strings.h"
#include "src/util/text_util.h"

namespace tmapgen::blob {

// ---------------------------------------------------------------------------------------------- values

std::string ValueText(const FieldValue& fv, const TensorMapSpec& s) {
  const MapField& f = *fv.field;
  switch (f.ref) {
    case Ref::kGlobalAddress: return Hex(fv.raw);
    case Ref::kIm2col: return fv.raw ? "1 (cuTensorMapEncodeIm2col / Im2colWide)" : "0 (cuTensorMapEncodeTiled)";
    case Ref::kDataType:
      return fv.value < 0 ? StrCat("unknown code ", fv.raw)
                          : StrCat(FullName(static_cast<DataType>(fv.value)), " (", ShortName(static_cast<DataType>(fv.value)),
                                   "; code ", fv.raw, ")");
    case Ref::kInterleave:
      return fv.raw < kNumInterleaves ? std::string(FullName(static_cast<Interleave>(fv.raw))) : StrCat("unknown ", fv.raw);
    case Ref::kSwizzle: return std::string(FullName(static_cast<Swizzle>(fv.raw)));
    case Ref::kOobFill: return std::string(FullName(static_cast<OobFill>(fv.raw)));
    case Ref::kL2Promotion: return std::string(FullName(static_cast<L2Promotion>(fv.raw)));
    case Ref::kGlobalStride: return StrCat(fv.value, " B");
    case Ref::kBoxBytes: return StrCat(fv.value, " B");
    case Ref::kSwizzleRepeat: return StrCat(fv.value, " B");
    default: break;
  }
  (void)s;
  return StrCat(fv.value);
}

namespace {
std::string Padded(std::string s, size_t n) {
  if (s.size() < n) s.resize(n, ' ');
  return s;
}
}  // namespace

std::string UnexplainedText(const Decoded& d) {
  std::string o;
  for (size_t i = 0; i < d.unexplained.size(); ++i) {
    const UnexplainedBit& u = d.unexplained[i];
    StrAppend(&o, i ? ", " : "", u.bit);
    if (!u.other_field.empty()) StrAppend(&o, " (", u.other_field, " in another layout or rank)");
  }
  return o;
}

// No unexplained bit and no finding other than notes (derived fields that tensormap.replace leaves stale).
bool Clean(const Decoded& d) {
  if (!d.spec_ok || !d.unexplained.empty()) return false;
  for (const DecodeFinding& f : d.findings)
    if (!f.note) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------- decode

std::string DecodeText(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o,
                       bool* valid) {
  (void)bytes;
  const TermColors c{o.color};
  std::string out = StrCat(c.bold(), "map ", index, c.off(), " (", label, "): ", LayoutName(d.layout), " layout, ",
                           d.reencodes ? "re-encodes to the same 128 bytes"
                                       : StrCat(c.red(), "does not re-encode to the same bytes", c.off()),
                           "\n");
  StrAppend(&out, "  ", Padded("field", 28), Padded("bits", 18), Padded("raw", 20), "value\n");
  for (const FieldValue& fv : d.fields) {
    std::string name(fv.field->name);
    if (fv.field->kind == Kind::kDerived) name += " (derived)";
    StrAppend(&out, "  ", Padded(name, 28), Padded(BitsText(*fv.field), 18), Padded(Hex(fv.raw), 20), ValueText(fv, d.spec),
              "\n");
  }
  if (!d.recognised.empty()) {
    StrAppend(&out, c.bold(), "recognised bits", c.off(), "\n");
    for (const FieldValue& fv : d.recognised)
      StrAppend(&out, "  bit ", BitsText(*fv.field), " (", fv.field->name, ") = ", fv.raw, ": ", fv.field->meaning, "\n");
  }
  StrAppend(&out, "unexplained bits: ", d.unexplained.empty() ? "none" : StrCat(c.red(), UnexplainedText(d), c.off()), "\n");
  for (const DecodeFinding& f : d.findings)
    StrAppend(&out, c.yellow(), f.note ? "note" : "finding", c.off(), " [", f.field, "] ", f.message, "\n");
  if (d.maybe_wide)
    StrAppend(&out, "note: driver ", MeasuredEvidence().driver,
              " writes im2col::w and im2col::w::128 maps exactly like this (corner[0] = the W corners, the other "
              "corners 0; the wide mode is not in the map), so the mode of use cannot be recovered\n");
  *valid = true;
  if (!d.spec_ok) {
    StrAppend(&out, "spec: not recovered (see the findings), so it is not validated\n");
    *valid = false;
    return out;
  }
  if (!o.validate) return out;
  TensorMapSpec spec = d.spec;
  if (o.has_target) { spec.target = o.target; spec.set_fields |= kFieldTarget; }
  Validation v;
  Validate(spec, &v);
  *valid = v.valid;
  ReportOptions ro;
  ro.color = o.color;
  ro.show_code = false;
  out += RenderReportText(index, spec, v, tmapgen::Encoding{}, ro);
  return out;
}

void DecodeJson(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o, bool* valid,
                json::Writer* w) {
  w->BeginObject();
  w->Key("index").Int(index).Key("source").String(label);
  w->Key("layout").String(LayoutName(d.layout));
  w->Key("reencodes").Bool(d.reencodes).Key("maybe_wide").Bool(d.maybe_wide);
  w->Key("bytes").String(ToHex(bytes));
  w->Key("spec");
  TensorMapSpec spec = d.spec;
  if (o.has_target) { spec.target = o.target; spec.set_fields |= kFieldTarget; }
  if (d.spec_ok) WriteSpecJson(spec, w); else w->Null();
  w->Key("fields").BeginArray();
  for (const FieldValue& fv : d.fields) {
    w->BeginObject().Key("name").String(fv.field->name).Key("bits").String(BitsText(*fv.field));
    w->Key("kind").String(KindName(fv.field->kind)).Key("raw").Uint(fv.raw).Key("value").Int(fv.value);
    w->Key("text").String(ValueText(fv, d.spec)).EndObject();
  }
  w->EndArray();
  w->Key("recognised").BeginArray();
  for (const FieldValue& fv : d.recognised)
    w->BeginObject().Key("name").String(fv.field->name).Key("bits").String(BitsText(*fv.field)).Key("raw").Uint(fv.raw)
        .Key("meaning").String(fv.field->meaning).EndObject();
  w->EndArray();
  w->Key("unexplained_bits").BeginArray();
  for (const UnexplainedBit& u : d.unexplained) {
    w->BeginObject().Key("bit").Int(u.bit);
    if (!u.other_field.empty()) w->Key("other_field").String(u.other_field);
    w->EndObject();
  }
  w->EndArray();
  w->Key("findings").BeginArray();
  for (const DecodeFinding& f : d.findings)
    w->BeginObject().Key("field").String(f.field).Key("message").String(f.message).Key("note").Bool(f.note).EndObject();
  w->EndArray();
  *valid = d.spec_ok;
  if (d.spec_ok && o.validate) {
    Validation v;
    Validate(spec, &v);
    *valid = v.valid;
    w->Key("report");
    WriteReportJson(index, spec, v, tmapgen::Encoding{}, ReportOptions{}, w);
  }
  w->EndObject();
}

std::string RenderDecoded(int index, std::string_view label, const MapBytes& bytes, const Decoded& d, const DecodeOptions& o,
                          bool* valid, json::Writer* w) {
  if (o.json) {
    w->Clear();
    DecodeJson(index, label, bytes, d, o, valid, w);
    return w->str() + "\n";
  }
  return DecodeText(index, label, bytes, d, o, valid) + "\n";
}

TensorMapSpec ReportedSpec(const Decoded& d, const DecodeOptions& o) {
  TensorMapSpec spec = d.spec;
  if (o.has_target) {
    spec.target = o.target;
    spec.set_fields |= kFieldTarget;
  }
  return spec;
}

}  // namespace tmapgen::blob
