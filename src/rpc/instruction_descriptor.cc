// instruction_descriptor.cc: see instruction_descriptor.h.
#include "src/rpc/instruction_descriptor.h"

#include "src/desc/desc_rules.h"
#include "src/rpc/common.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::BadEnum;
using detail::DiagnosticToProto;
using detail::EnumFromProto;
using detail::EnumToProto;
using detail::FieldToProto;
using detail::TargetFromProto;
using desc::MmaKind;

void ToProto(const desc::IdescSpec& s, v2::InstructionDescriptorSpec* m) {
  m->set_kind(static_cast<v2::MmaKind>(EnumToProto(s.kind)));
  m->set_cta_group(static_cast<uint32_t>(s.cta_group));
  m->set_ws(s.ws);
  m->set_sparse(s.sparse);
  m->set_sparse_selector(s.sparse_selector);
  m->set_saturate(s.saturate);
  m->set_d_type(static_cast<v2::AccumulatorType>(EnumToProto(s.d_type)));
  m->set_a_type(static_cast<v2::ElementType>(EnumToProto(s.a_type)));
  m->set_b_type(static_cast<v2::ElementType>(EnumToProto(s.b_type)));
  m->set_negate_a(s.negate_a);
  m->set_negate_b(s.negate_b);
  m->set_a_major(static_cast<v2::Major>(EnumToProto(s.a_major)));
  m->set_b_major(static_cast<v2::Major>(EnumToProto(s.b_major)));
  m->set_m(s.m);
  m->set_n(s.n);
  if (s.k96) m->set_k(96);
  m->set_max_shift(s.max_shift);
  m->set_scale_type(static_cast<v2::ScaleType>(EnumToProto(s.scale_type)));
  m->set_a_sf_id(s.a_sf_id);
  m->set_b_sf_id(s.b_sf_id);
  if (s.has_target) m->set_target(std::string(Name(s.target)));
  m->set_a_tmem(s.a_tmem);
}

absl::Status FromProto(const v2::InstructionDescriptorSpec& m, bool build, const std::string& prefix, desc::IdescSpec* out,
                       bool* kind_given) {
  desc::IdescSpec s;
  *kind_given = m.kind() != v2::KIND_UNSPECIFIED;
  if (*kind_given && !EnumFromProto(m.kind(), desc::kNumMmaKinds, &s.kind)) return BadEnum(prefix + "kind", m.kind());
  if (m.has_cta_group()) {
    if (m.cta_group() != 1 && m.cta_group() != 2) return Bad(prefix + "cta_group", StrCat("expected 1 or 2, got ", m.cta_group()));
    s.cta_group = static_cast<int>(m.cta_group());
  }
  s.ws = m.ws();
  s.a_tmem = m.a_tmem();
  if (absl::Status st = TargetFromProto(m.target(), prefix + "target", &s.has_target, &s.target); !st.ok()) return st;
  if (!build) {
    // The rest comes from the value.
    const char* given = m.sparse() ? "sparse" : m.sparse_selector() ? "sparse_selector" : m.saturate() ? "saturate"
                        : m.d_type() ? "d_type" : m.a_type() ? "a_type" : m.b_type() ? "b_type"
                        : m.negate_a() ? "negate_a" : m.negate_b() ? "negate_b" : m.a_major() ? "a_major"
                        : m.b_major() ? "b_major" : m.has_m() ? "m" : m.has_n() ? "n" : m.has_k() ? "k"
                        : m.max_shift() ? "max_shift" : m.scale_type() ? "scale_type" : m.a_sf_id() ? "a_sf_id"
                        : m.b_sf_id() ? "b_sf_id" : nullptr;
    if (given != nullptr) return Bad(prefix + given, "DECODE takes it from the value");
    *out = s;
    return absl::OkStatus();
  }
  if (!*kind_given) *kind_given = true;  // BUILD: unspecified is f16
  s.a_type = s.b_type = desc::DefaultOperandType(s.kind);
  s.d_type = desc::DefaultAccumulator(s.kind);
  s.sparse = m.sparse();
  s.sparse_selector = m.sparse_selector();
  if (s.sparse_selector > 3) return Bad(prefix + "sparse_selector", "the field has 2 bits (0..3)");
  s.saturate = m.saturate();
  if (m.d_type() != v2::ACCUMULATOR_UNSPECIFIED && !EnumFromProto(m.d_type(), 3, &s.d_type))
    return BadEnum(prefix + "d_type", m.d_type());
  if (m.a_type() != v2::ELEMENT_TYPE_UNSPECIFIED && !EnumFromProto(m.a_type(), desc::kNumElemTypes, &s.a_type))
    return BadEnum(prefix + "a_type", m.a_type());
  if (m.b_type() != v2::ELEMENT_TYPE_UNSPECIFIED && !EnumFromProto(m.b_type(), desc::kNumElemTypes, &s.b_type))
    return BadEnum(prefix + "b_type", m.b_type());
  s.negate_a = m.negate_a();
  s.negate_b = m.negate_b();
  if (m.a_major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(m.a_major(), 2, &s.a_major))
    return BadEnum(prefix + "a_major", m.a_major());
  if (m.b_major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(m.b_major(), 2, &s.b_major))
    return BadEnum(prefix + "b_major", m.b_major());
  if (m.has_m()) s.m = m.m();
  if (m.has_n()) s.n = m.n();
  s.max_shift = m.max_shift();
  if (m.scale_type() != v2::SCALE_TYPE_UNSPECIFIED && !EnumFromProto(m.scale_type(), 2, &s.scale_type))
    return BadEnum(prefix + "scale_type", m.scale_type());
  s.a_sf_id = m.a_sf_id();
  s.b_sf_id = m.b_sf_id();
  if (m.has_k()) {
    if (m.k() == 96 && (s.kind == MmaKind::kMxf4 || s.kind == MmaKind::kMxf4nvf4)) {
      s.k96 = true;
    } else if (m.k() != desc::InstrK(s)) {
      return Bad(prefix + "k", StrCat(".kind::", desc::Name(s.kind), s.sparse ? " (sparse)" : "", " has K = ", desc::InstrK(s),
                                      "; only .kind::mxf4/.kind::mxf4nvf4 can choose K = 96"));
    }
  }
  *out = s;
  return absl::OkStatus();
}

void ToProto(const desc::IdescRequest& r, v2::InstructionDescriptorRequest* m) {
  m->Clear();
  m->set_operation(r.decode ? v2::InstructionDescriptorRequest::DECODE : v2::InstructionDescriptorRequest::BUILD);
  v2::InstructionDescriptorSpec* s = m->mutable_spec();
  if (r.decode) {
    if (r.kind_given) s->set_kind(static_cast<v2::MmaKind>(EnumToProto(r.spec.kind)));
    s->set_cta_group(static_cast<uint32_t>(r.spec.cta_group));
    s->set_ws(r.spec.ws);
    s->set_a_tmem(r.spec.a_tmem);
    if (r.spec.has_target) s->set_target(std::string(Name(r.spec.target)));
    m->set_value(r.value);
  } else {
    ToProto(r.spec, s);
  }
}

absl::Status FromProto(const v2::InstructionDescriptorRequest& m, desc::IdescRequest* out) {
  desc::IdescRequest r;
  if (m.operation() == v2::InstructionDescriptorRequest::BUILD) r.decode = false;
  else if (m.operation() == v2::InstructionDescriptorRequest::DECODE) r.decode = true;
  else return Bad("operation", "expected BUILD or DECODE");
  if (!r.decode && m.value() != 0) return Bad("value", "BUILD encodes the spec; the value is for DECODE");
  if (absl::Status s = FromProto(m.spec(), !r.decode, "spec.", &r.spec, &r.kind_given); !s.ok()) return s;
  r.value = m.value();
  if (absl::Status s = desc::CheckIdescRequest(r); !s.ok()) return s;
  *out = r;
  return absl::OkStatus();
}

namespace {

void IdescReportToProto(const desc::IdescReport& r, v2::InstructionDescriptorResponse* m) {
  const desc::IdescSpec& s = r.check.spec;
  const uint32_t v = r.check.fields.raw;
  m->set_valid(r.validation.valid);
  m->set_value(v);
  m->set_kind(static_cast<v2::MmaKind>(EnumToProto(s.kind)));
  if (s.has_target) m->set_target(std::string(Name(s.target)));
  int n = 0;
  const desc::BitField* fs = desc::IdescFieldTable(s.kind, &n);
  for (int i = 0; i < n; ++i) {
    const uint32_t fv = static_cast<uint32_t>(desc::FieldGet(v, fs[i]));
    FieldToProto(fs[i], fv, desc::FieldMeaning(s, fs[i], fv), m->add_fields());
  }
  m->set_reserved_bits(r.check.fields.reserved);
  ToProto(s, m->mutable_decoded());
  m->set_k(desc::InstrK(s));
  m->set_valid_m(desc::ValidMText(s));
  m->set_valid_n(desc::ValidNText(s));
  m->set_ptx(desc::IdescPtx(s));
  m->set_form(desc::FormText(s));
  m->set_valid_shapes(desc::FormShapeText(s));
  m->set_errors(r.validation.errors);
  m->set_warnings(r.validation.warnings);
  m->set_notes(r.validation.notes);
  const desc::DescContext ctx{nullptr, &r.check};
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, r.validation)) DiagnosticToProto(d, m->add_diagnostics());
}

}  // namespace

void ToProto(const desc::IdescResult& r, v2::InstructionDescriptorResponse* m) {
  if (!r.all_kinds) {
    IdescReportToProto(r.report, m);
    return;
  }
  m->set_valid(r.valid);
  m->set_value(r.value);
  for (int k = 0; k < desc::kNumMmaKinds; ++k) {
    desc::IdescRequest q;
    q.decode = true;
    q.value = r.value;
    q.spec = r.context;
    q.spec.kind = static_cast<MmaKind>(k);
    desc::IdescResult one;
    desc::RunIdescRequest(q, &one);
    IdescReportToProto(one.report, m->add_by_kind());
  }
}

}  // namespace tmapgen::rpc
