// common.cc: see common.h.
#include "src/rpc/common.h"

#include "src/schema/proto_convert.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::rpc {

std::string FieldOf(const absl::Status& s) {
  const std::string m(s.message());
  const size_t c = m.find(": ");
  if (c == std::string::npos || m.find(' ') < c) return "";
  return m.substr(0, c);
}

namespace detail {

absl::Status Bad(std::string_view field, std::string_view what) {
  return absl::InvalidArgumentError(ToAbsl(StrCat(field, ": ", what)));
}

absl::Status TooMany(std::string_view field, size_t n, uint32_t max) {
  return absl::ResourceExhaustedError(ToAbsl(StrCat(field, ": ", n, " entries; at most ", max)));
}

absl::Status BadEnum(std::string_view field, int v) { return Bad(field, StrCat("unknown value ", v)); }

absl::Status TargetFromProto(const std::string& s, std::string_view field, bool* has, Target* t) {
  *has = false;
  if (s.empty()) return absl::OkStatus();
  if (!Parse(s, t))
    return Bad(field, StrCat("unknown value \"", s, "\"; expected one of: ", AcceptedNames(static_cast<Target*>(nullptr))));
  *has = true;
  return absl::OkStatus();
}

absl::Status SpecFromMessage(const v1::TensorMapSpec& m, const std::string& prefix, TensorMapSpec* s) {
  const absl::Status st = SpecFromProto(m, s);
  if (st.ok()) return st;
  return absl::InvalidArgumentError(ToAbsl(StrCat(prefix, StatusMessage(st))));
}

void DiagnosticToProto(const desc::DescDiagnostic& d, v1::Diagnostic* p) {
  p->set_rule(d.rule);
  p->set_severity(std::string(Name(d.severity)));
  p->set_field(d.field);
  p->set_message(d.message);
  p->set_fix(d.fix);
  p->set_source(d.source);
}

void FieldToProto(const desc::BitField& f, uint64_t v, std::string meaning, v2::BitField* p) {
  p->set_name(std::string(f.name));
  p->set_lo(f.lo);
  p->set_width(f.width);
  p->set_encoded(v);
  if (f.unit_shift == 4) p->set_bytes(v << 4);
  p->set_meaning(std::move(meaning));
}

}  // namespace detail
}  // namespace tmapgen::rpc
