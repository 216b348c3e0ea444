#include "src/codegen/emit_json.h"

#include "src/codegen/emit_common.h"
#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/tmap/derived_facts.h"
#include "src/util/strings.h"

namespace tmapgen::codegen {

using internal::GlobalAlignment;
using internal::HexU;

std::string GenerateJson(const Plan& plan, const Options& opt) {
  if (!plan.valid) return "";
  json::WriterOptions wo;
  wo.pretty = true;
  json::Writer w(wo);
  w.BeginObject();
  w.Key("generator").String(StrCat("tmapgen ", opt.tool_version.empty() ? ToolVersion() : opt.tool_version));
  w.Key("sources").BeginArray();
  for (const std::string& s : opt.sources) w.String(s);
  w.EndArray();
  w.Key("namespace").String(plan.name_space);
  w.Key("maps").BeginArray();
  for (const PlannedMap& m : plan.maps) {
    const DerivedFacts& f = m.validation.facts;
    w.BeginObject();
    w.Key("identifier").String(m.ident);
    w.Key("encoder").String(Name(EncoderFor(m.spec.mode)));
    w.Key("spec");
    WriteSpecJson(m.spec, &w);
    w.Key("valid_targets").BeginArray();
    for (int t = 0; t < kNumTargets; ++t)
      if (m.validation.valid_targets & (1u << t)) w.String(Name(static_cast<Target>(t)));
    w.EndArray();
    w.Key("derived").BeginObject();
    w.Key("elements_per_copy").Uint(f.elements_per_copy);
    w.Key("bytes_per_copy").Uint(f.bytes_per_copy);
    w.Key("transaction_bytes").Uint(f.transaction_bytes);
    w.Key("completion").String(Name(CompletionOf(m.spec.direction)));
    w.Key("smem_role").String(Name(SmemRoleOf(m.spec.direction)));
    if (f.halo_adds_bytes) w.Key("bytes_per_halo_pixel").Uint(f.bytes_per_halo_pixel);
    w.Key("smem_footprint_bytes").Uint(f.smem_footprint_bytes);
    w.Key("smem_alignment_recommended").Uint(f.smem_alignment_recommended);
    w.Key("smem_alignment_required").Uint(f.smem_alignment_required);
    w.Key("smem_row_pitch").Uint(f.smem_row_pitch);
    w.Key("inner_box_bytes").Uint(f.inner_box_bytes);
    w.Key("swizzle_span").Uint(f.swizzle_span);
    w.Key("swizzle_repeat").Uint(f.swizzle_repeat);
    w.Key("coord0_multiple").Uint(f.coord0_multiple);
    w.Key("global_address_alignment").Uint(GlobalAlignment(m.spec));
    w.EndObject();
    w.Key("descriptors").BeginArray();
    for (const PlannedDesc& d : plan.descs) {
      if (&plan.maps[d.map_index] != &m) continue;
      w.BeginObject();
      w.Key("identifier").String(d.ident);
      w.Key("family").String(desc::Name(d.request.arch));
      w.Key("operand").String(desc::Name(d.request.operand));
      w.Key("major").String(desc::Name(d.request.major));
      w.Key("type").String(desc::Name(d.derivation.layout.type));
      w.Key("value_without_start").String(HexU(d.value, 16, ""));
      w.Key("lbo_bytes").Uint(d.derivation.facts.lbo);
      w.Key("sbo_bytes").Uint(d.derivation.facts.sbo);
      w.Key("base_offset").Uint(d.derivation.desc.base_offset());
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("instruction_descriptors").BeginArray();
  for (const PlannedIdesc& d : plan.idescs) {
    w.BeginObject();
    w.Key("identifier").String(d.ident);
    w.Key("kind").String(desc::Name(d.spec.kind));
    w.Key("value").String(HexU(d.value, 8, ""));
    w.Key("m").Uint(d.spec.m).Key("n").Uint(d.spec.n).Key("k").Uint(d.k);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take() + "\n";
}

}  // namespace tmapgen::codegen
