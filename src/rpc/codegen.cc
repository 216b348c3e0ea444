// codegen.cc: see codegen.h.
#include "src/rpc/codegen.h"

#include "src/report/diagnostics.h"
#include "src/rpc/common.h"
#include "src/rpc/instruction_descriptor.h"
#include "src/report/report_proto.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::BadEnum;
using detail::DiagnosticToProto;
using detail::EnumFromProto;
using detail::EnumToProto;
using detail::SpecFromMessage;
using detail::TargetFromProto;
using detail::TooMany;

void ToProto(const ops::CodegenRequest& r, v2::CodegenRequest* m) {
  const codegen::Input& in = r.input;
  const codegen::Options& opt = r.options;
  const codegen::Lang lang = r.lang;
  m->Clear();
  for (const TensorMapSpec& s : in.specs) SpecToProto(s, m->add_specs());
  m->set_language(lang == codegen::Lang::kCpp ? v2::CPP : lang == codegen::Lang::kJson ? v2::JSON : v2::PTX);
  if (opt.has_target) m->set_target(std::string(Name(opt.target)));
  m->set_cpp_namespace(opt.name_space);
  for (const codegen::NamedDesc& d : in.descs) {
    v2::CodegenMatrixDescriptor* p = m->add_matrix_descriptors();
    p->set_map(d.map);
    p->set_family(static_cast<v2::DescriptorFamily>(EnumToProto(d.arch)));
    p->set_operand(static_cast<v2::Operand>(EnumToProto(d.operand)));
    p->set_major(static_cast<v2::Major>(EnumToProto(d.major)));
    if (d.has_type) p->set_dtype(static_cast<v2::ElementType>(EnumToProto(d.type)));
  }
  for (const codegen::NamedIdesc& d : in.idescs) {
    v2::CodegenInstructionDescriptor* p = m->add_instruction_descriptors();
    p->set_name(d.name);
    ToProto(d.spec, p->mutable_spec());
  }
  for (const std::string& s : opt.sources) m->add_sources(s);
}

absl::Status FromProto(const v2::CodegenRequest& m, const RequestLimits& limits, ops::CodegenRequest* r) {
  *r = ops::CodegenRequest();
  codegen::Input* in = &r->input;
  codegen::Options* opt = &r->options;
  codegen::Lang* lang = &r->lang;
  if (m.specs_size() == 0) return Bad("specs", "no spec");
  if (static_cast<uint32_t>(m.specs_size()) > limits.max_specs) return TooMany("specs", m.specs_size(), limits.max_specs);
  const size_t descs = static_cast<size_t>(m.matrix_descriptors_size()) + static_cast<size_t>(m.instruction_descriptors_size());
  if (descs > limits.max_descriptors) return TooMany("matrix_descriptors + instruction_descriptors", descs, limits.max_descriptors);
  if (static_cast<uint32_t>(m.sources_size()) > limits.max_specs) return TooMany("sources", m.sources_size(), limits.max_specs);
  for (int i = 0; i < m.specs_size(); ++i) {
    TensorMapSpec s;
    if (absl::Status st = SpecFromMessage(m.specs(i), StrCat("specs[", i, "]."), &s); !st.ok()) return st;
    in->specs.push_back(std::move(s));
  }
  switch (m.language()) {
    case v2::LANGUAGE_UNSPECIFIED: case v2::CPP: *lang = codegen::Lang::kCpp; break;
    case v2::JSON: *lang = codegen::Lang::kJson; break;
    case v2::PTX: *lang = codegen::Lang::kPtx; break;
    default: return BadEnum("language", m.language());
  }
  if (absl::Status s = TargetFromProto(m.target(), "target", &opt->has_target, &opt->target); !s.ok()) return s;
  if (!m.cpp_namespace().empty()) {
    if (codegen::SanitizeIdentifier(m.cpp_namespace(), "") != m.cpp_namespace())
      return Bad("cpp_namespace", StrCat("\"", m.cpp_namespace(), "\" is not a plain C++ identifier"));
    opt->name_space = m.cpp_namespace();
  }
  for (int i = 0; i < m.matrix_descriptors_size(); ++i) {
    const v2::CodegenMatrixDescriptor& p = m.matrix_descriptors(i);
    const std::string f = StrCat("matrix_descriptors[", i, "].");
    codegen::NamedDesc d;
    d.map = p.map();
    if (d.map.empty()) return Bad(f + "map", "required: the spec's name or #INDEX");
    if (!EnumFromProto(p.family(), 2, &d.arch)) return Bad(f + "family", "required: WGMMA or TCGEN05");
    if (p.operand() != v2::OPERAND_UNSPECIFIED && !EnumFromProto(p.operand(), 2, &d.operand)) return BadEnum(f + "operand", p.operand());
    if (p.major() != v2::MAJOR_UNSPECIFIED && !EnumFromProto(p.major(), 2, &d.major)) return BadEnum(f + "major", p.major());
    if (p.dtype() != v2::ELEMENT_TYPE_UNSPECIFIED) {
      if (!EnumFromProto(p.dtype(), desc::kNumElemTypes, &d.type)) return BadEnum(f + "dtype", p.dtype());
      d.has_type = true;
    }
    in->descs.push_back(d);
  }
  for (int i = 0; i < m.instruction_descriptors_size(); ++i) {
    const v2::CodegenInstructionDescriptor& p = m.instruction_descriptors(i);
    const std::string f = StrCat("instruction_descriptors[", i, "].");
    codegen::NamedIdesc d;
    d.name = p.name().empty() ? "idesc" : p.name();
    bool kind_given = false;
    if (absl::Status s = FromProto(p.spec(), true, f + "spec.", &d.spec, &kind_given); !s.ok()) return s;
    in->idescs.push_back(d);
  }
  for (const std::string& s : m.sources()) opt->sources.push_back(s);
  return absl::OkStatus();
}

void ToProto(const ops::CodegenResult& r, codegen::Lang lang, v2::CodegenResponse* m) {
  const codegen::Plan& plan = r.plan;
  const codegen::Output& out = r.output;
  m->set_generated(out.generated);
  if (out.generated) {
    v2::GeneratedFile* f = m->add_files();
    f->set_name(codegen::DefaultFileName(plan, lang));
    f->set_content(out.text);
  } else {
    m->set_rejection(out.rejection);
  }
  for (const codegen::PlannedMap& p : plan.maps) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::MAP);
    it->set_identifier(p.ident);
    it->set_valid(p.validation.valid);
    for (const Diagnostic& d : MakeDiagnostics(p.spec, p.validation)) DiagnosticToProto(d, it->add_diagnostics());
  }
  for (const codegen::PlannedDesc& p : plan.descs) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::MATRIX_DESCRIPTOR);
    it->set_identifier(StrCat(plan.maps[p.map_index].ident, "::", p.ident));
    it->set_valid(p.validation.valid);
    for (const desc::DescDiagnostic& d : codegen::Diagnostics(p)) DiagnosticToProto(d, it->add_diagnostics());
  }
  for (const codegen::PlannedIdesc& p : plan.idescs) {
    v2::CodegenItem* it = m->add_items();
    it->set_kind(v2::CodegenItem::INSTRUCTION_DESCRIPTOR);
    it->set_identifier(p.ident);
    it->set_valid(p.validation.valid);
    for (const desc::DescDiagnostic& d : codegen::Diagnostics(p)) DiagnosticToProto(d, it->add_diagnostics());
  }
}

}  // namespace tmapgen::rpc
