// decode.cc: see decode.h.
#include "src/rpc/decode.h"

#include <algorithm>

#include "src/blob/layout_doc.h"
#include "src/report/report.h"
#include "src/rpc/common.h"
#include "src/report/report_proto.h"
#include "src/schema/proto_convert.h"
#include "src/tmap/validator.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::BadEnum;
using detail::TargetFromProto;
using detail::TooMany;

void ToProto(const ops::DecodeRequest& r, v2::DecodeRequest* m) {
  const std::vector<blob::MapBytes>& maps = r.maps;
  const std::vector<std::string>& labels = r.labels;
  const blob::DecodeOptions& o = r.options;
  m->Clear();
  for (const blob::MapBytes& b : maps) m->add_maps(reinterpret_cast<const char*>(b.data()), b.size());
  for (const std::string& l : labels) m->add_labels(l);
  if (o.has_target) m->set_target(std::string(Name(o.target)));
  m->set_no_validate(!o.validate);
  m->mutable_render()->set_format(o.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
  m->mutable_render()->set_color(o.color);
}

absl::Status FromProto(const v2::DecodeRequest& m, const RequestLimits& limits, ops::DecodeRequest* r) {
  *r = ops::DecodeRequest();
  std::vector<blob::MapBytes>* maps = &r->maps;
  std::vector<std::string>* labels = &r->labels;
  blob::DecodeOptions* o = &r->options;
  if (m.maps_size() == 0) return Bad("maps", "no map");
  if (static_cast<uint32_t>(m.maps_size()) > limits.max_decode_maps) return TooMany("maps", m.maps_size(), limits.max_decode_maps);
  if (m.labels_size() > m.maps_size()) return Bad("labels", StrCat(m.labels_size(), " labels for ", m.maps_size(), " maps"));
  for (int i = 0; i < m.maps_size(); ++i) {
    const std::string& b = m.maps(i);
    if (b.size() != blob::kMapBytes)
      return Bad(StrCat("maps[", i, "]"), StrCat(b.size(), " bytes; a CUtensorMap is ", blob::kMapBytes));
    blob::MapBytes mb;
    std::copy(b.begin(), b.end(), reinterpret_cast<char*>(mb.data()));
    maps->push_back(mb);
    labels->push_back(i < m.labels_size() && !m.labels(i).empty() ? m.labels(i) : StrCat("map ", i));
  }
  if (absl::Status s = TargetFromProto(m.target(), "target", &o->has_target, &o->target); !s.ok()) return s;
  o->validate = !m.no_validate();
  if (m.render().format() < v2::Rendering::NONE || m.render().format() > v2::Rendering::JSON)
    return BadEnum("render.format", m.render().format());
  o->json = m.render().format() == v2::Rendering::JSON;
  o->color = !o->json && m.render().color();
  return absl::OkStatus();
}

void ToProto(const ops::DecodedMap& map, const blob::DecodeOptions& o, v2::DecodedMap* m) {
  const blob::Decoded& d = map.decoded;
  m->set_label(std::string(map.label));
  m->set_layout(std::string(blob::LayoutName(d.layout)));
  m->set_reencodes(d.reencodes);
  m->set_maybe_wide(d.maybe_wide);
  m->set_spec_recovered(d.spec_ok);
  const TensorMapSpec spec = blob::ReportedSpec(d, o);
  if (d.spec_ok) SpecToProto(spec, m->mutable_spec());
  for (const blob::FieldValue& fv : d.fields) {
    v2::DecodedField* f = m->add_fields();
    f->set_name(std::string(fv.field->name));
    f->set_bits(blob::BitsText(*fv.field));
    f->set_kind(std::string(blob::KindName(fv.field->kind)));
    f->set_raw(fv.raw);
    f->set_value(fv.value);
    f->set_text(blob::ValueText(fv, d.spec));
  }
  for (const blob::FieldValue& fv : d.recognised) {
    v2::RecognisedBit* r = m->add_recognised();
    r->set_name(std::string(fv.field->name));
    r->set_bits(blob::BitsText(*fv.field));
    r->set_raw(fv.raw);
    r->set_meaning(std::string(fv.field->meaning));
  }
  for (const blob::UnexplainedBit& u : d.unexplained) {
    v2::UnexplainedBit* x = m->add_unexplained();
    x->set_bit(u.bit);
    x->set_other_field(std::string(u.other_field));
  }
  for (const blob::DecodeFinding& f : d.findings) {
    v2::DecodeFinding* x = m->add_findings();
    x->set_field(f.field);
    x->set_message(f.message);
    x->set_note(f.note);
  }
  if (d.spec_ok && o.validate) {
    Validation v;
    Validate(spec, &v);
    FillReport(map.index, spec, v, tmapgen::Encoding(), m->mutable_report());
  }
  m->set_valid(map.valid);
  m->set_clean(map.clean);
}

}  // namespace tmapgen::rpc
