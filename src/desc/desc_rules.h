// desc_rules.h: the descriptor rule table: shared-memory matrix descriptors (desc-*), their agreement
// with the tensor map that fills the buffer (map-*), and the tcgen05 instruction descriptor (idesc-*).
//
// Contract (mirrors src/tmap/rule.h)
// - One row per rule: stable id, severity, scope, field, one-sentence summary, check, message, fix,
//   source. Id, severity, field, summary and source come from the rule's row of the catalogue of every rule
//   family (src/tmap/rule_catalogue.h; families smem-descriptor, map-descriptor, instr-descriptor), which also
//   holds its example. Ids are stable: tests, docs/descriptors.md and users' scripts refer to them. Never
//   renumber or rename a rule; retire it in the catalogue instead (docs/dev/add-a-rule.md).
// - Checks append Findings (src/tmap/rule.h) and never format text; text is made when diagnostics are made.
//   Every applicable rule runs: all violations are reported at once.
// - Severity as in src/tmap/rule.h: kError = the instruction faults or computes garbage for the declared use,
//   or the documentation forbids it; kWarning = legal but risky (a base offset a naive loop will miss);
//   kNote = worth knowing.
// - Scopes: kValue rules need only the 64-bit value (decode); kLayout rules need the tile description;
//   kAdvance rules check a descriptor advanced to a K slice or sub-tile; kMap rules compare with a tensor
//   map; kIdesc rules check an instruction descriptor. A check returns without findings when what it
//   needs is absent.
// - No I/O.
#ifndef TMAPGEN_SRC_DESC_DESC_RULES_H_
#define TMAPGEN_SRC_DESC_DESC_RULES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/rule.h"

namespace tmapgen::desc {

// What the shared-memory descriptor rules see.
struct SmemCheck {
  SmemDesc desc;                          // the value checked
  bool user_value = false;                // given by the user (decode, --check), not built here
  const OperandLayout* layout = nullptr;  // the tile, when known
  const LayoutFacts* facts = nullptr;     // with layout
  bool has_target = false;
  Target target = Target::kSm100a;
  const MapDerivation* map = nullptr;     // --for-map
  const Advance* advance = nullptr;       // a descriptor advanced to a K slice or sub-tile
  uint32_t advance_k_slice = 0;           // what was asked (for messages)
  bool advance_is_sub_tile = false;
  uint32_t advance_mn = 0, advance_k = 0;
};

// What the instruction-descriptor rules see.
struct IdescCheck {
  IdescSpec spec;      // decoded or given
  IdescFields fields;  // raw field values (EncodeIdesc + DecodeIdescFields when built)
  bool user_value = false;
};

struct DescContext {
  const SmemCheck* smem = nullptr;
  const IdescCheck* idesc = nullptr;
};

enum DescScope : uint8_t { kScopeValue = 1, kScopeLayout = 2, kScopeAdvance = 4, kScopeMap = 8, kScopeIdesc = 16 };

using DescCheckFn = void (*)(const DescContext& ctx, uint16_t rule, FindingList* out);
using DescTextFn = std::string (*)(const DescContext& ctx, const Finding& f);

struct DescRule {
  std::string_view id;
  Severity severity;
  uint8_t scope;            // one DescScope
  std::string_view field;   // descriptor field or flag the finding is about
  std::string_view summary;
  DescCheckFn check;
  DescTextFn message;
  DescTextFn fix;
  std::string_view source;
};

const DescRule* DescRules();
int NumDescRules();
int FindDescRule(std::string_view id);

struct DescValidation {
  FindingList findings;
  bool valid = false;  // no error findings
  int errors = 0;
  int warnings = 0;
  int notes = 0;
};

// Runs the value, layout, advance and map rules that apply (scopes whose inputs are present).
void ValidateSmem(const SmemCheck& in, DescValidation* out);
void ValidateIdesc(const IdescCheck& in, DescValidation* out);

struct DescDiagnostic {
  std::string rule;
  Severity severity = Severity::kError;
  std::string field;
  std::string message;
  std::string fix;
  std::string source;
};
std::vector<DescDiagnostic> MakeDescDiagnostics(const DescContext& ctx, const DescValidation& v);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_DESC_RULES_H_
