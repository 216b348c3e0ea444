// check.cc: see check.h.
#include "src/rpc/check.h"

#include "src/rpc/common.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

using detail::Bad;
using detail::SpecFromMessage;
using detail::TooMany;

void ToProto(const ops::CheckRequest& r, bool verbose, v2::CheckRequest* m) {
  const std::vector<TensorMapSpec>& specs = r.specs;
  const std::vector<std::string>& names = r.names;
  const uint64_t seed = r.seed;
  m->Clear();
  for (size_t i = 0; i < specs.size(); ++i) {
    v2::NamedSpec* n = m->add_specs();
    n->set_name(i < names.size() ? names[i] : specs[i].name);
    SpecToProto(specs[i], n->mutable_spec());
  }
  m->set_seed(seed);
  m->set_verbose(verbose);
  m->mutable_render()->set_format(v2::Rendering::TEXT);
}

absl::Status FromProto(const v2::CheckRequest& m, const RequestLimits& limits, ops::CheckRequest* r) {
  *r = ops::CheckRequest();
  std::vector<TensorMapSpec>* specs = &r->specs;
  std::vector<std::string>* names = &r->names;
  uint64_t* seed = &r->seed;
  if (m.specs_size() == 0) return Bad("specs", "no spec");
  if (static_cast<uint32_t>(m.specs_size()) > limits.max_check_specs)
    return TooMany("specs", m.specs_size(), limits.max_check_specs);
  if (m.render().format() == v2::Rendering::JSON) return Bad("render.format", "Check renders TEXT only");
  for (int i = 0; i < m.specs_size(); ++i) {
    TensorMapSpec s;
    if (absl::Status st = SpecFromMessage(m.specs(i).spec(), StrCat("specs[", i, "].spec."), &s); !st.ok()) return st;
    specs->push_back(std::move(s));
    names->push_back(m.specs(i).name().empty() ? StrCat("spec ", i) : m.specs(i).name());
  }
  *seed = m.has_seed() ? m.seed() : 1;
  return absl::OkStatus();
}

void ToProto(const gpu::CheckReport& r, v2::CheckResponse* m) {
  m->set_device(r.device);
  m->set_seed(r.seed);
  for (const gpu::SpecCheck& sc : r.specs) {
    v2::SpecCheck* p = m->add_specs();
    p->set_name(sc.name);
    p->set_valid(sc.invalid.empty());
    p->set_invalid_reason(sc.invalid);
    p->set_skipped_coordinates(static_cast<uint32_t>(sc.skipped));
    p->set_skip_reason(sc.skip_reason);
    for (const gpu::CopyCheck& c : sc.copies) {
      v2::CopyResult* q = p->add_copies();
      q->set_kind(c.kind);
      q->set_label(c.label);
      for (int64_t x : c.coords) q->add_coordinates(x);
      q->set_outcome(static_cast<v2::CopyOutcome>(static_cast<int>(c.outcome) + 1));
      q->set_passed(c.outcome == gpu::Outcome::kPass);
      q->set_detail(c.detail);
      if (c.mismatch.present) {
        v2::Mismatch* mm = q->mutable_first_mismatch();
        mm->set_global(c.mismatch.global);
        mm->set_offset(c.mismatch.offset);
        mm->set_expected(c.mismatch.expected);
        mm->set_actual(c.mismatch.actual);
        mm->set_differing_bytes(c.mismatch.differing);
        mm->set_compared_bytes(c.mismatch.compared);
      }
    }
  }
  m->set_passed(static_cast<uint32_t>(r.passed));
  m->set_failed(static_cast<uint32_t>(r.failed));
  m->set_not_run(static_cast<uint32_t>(r.not_run));
  m->set_invalid_specs(static_cast<uint32_t>(r.invalid_specs));
  m->set_processes(static_cast<uint32_t>(r.processes));
  m->set_all_passed(gpu::Passed(r));
}

}  // namespace tmapgen::rpc
