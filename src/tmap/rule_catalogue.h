// rule_catalogue.h: every rule id tmapgen has ever had, of every family, one row each: the tensor-map rules,
// the shared-memory matrix descriptor rules (desc-*), a descriptor checked against its tensor map (map-*) and
// the tcgen05 instruction descriptor (idesc-*). A row says what users and documentation see of a rule: its id,
// family, severity, the field it is about, its statement, its source, an example that trips it, and whether it
// is active or retired (and then what it became).
//
// Contract
// - The rows are in rule_catalogue_data.h, which only the catalogue and the rule tables include (so that adding
//   a rule recompiles those files, not every user of the rule types). They are data, nothing else: no check,
//   no text function. The rule tables that run the checks
//   (src/tmap/rules.cc for tensor maps, src/desc/desc_rules.cc for the descriptor families) take id, severity,
//   field, statement and source from here by id at compile time and add the code (check, message, fix, patch,
//   scope or modes). A table row whose id is not here, an active row of the family missing from its table, or
//   a table out of this order does not compile; the tables run in this order, which is the order findings of one
//   severity are reported in.
// - Ids are stable: tests, documentation, users' scripts and configurations refer to them. Never renumber or
//   rename a rule and never delete a row. To withdraw a rule, retire it: state kRetired, replaced_by = the id
//   that took over its findings (or ""), became = one sentence saying what happened to it; the row keeps the
//   severity, field, statement and source it had. `tmapgen rules` lists retired ids in a section of their own,
//   `tmapgen explain OLDID` says what the id became, docs/rules.md (scripts/dev/gen-rules-doc.sh) lists them.
// - example: the arguments of a tmapgen command that trips the rule, for `tmapgen explain` and docs/rules.md:
//   tensor-map rules are build commands (`tmapgen ARGS`), descriptor rules start with `desc` or `idesc`.
//   Arguments are separated by single spaces (an inline JSON spec, a --for-map value, contains none). "" when
//   the rule cannot be reached from the command line (the row's comment says why) and for retired rules.
//   tests/cli/rules_cmd_test.cc runs every example and requires that it trips its rule.
// - Severity: kError = the driver rejects the map, or the hardware faults or computes garbage for the declared
//   use, or the documentation forbids it even though a tested driver accepts it (the message then says so);
//   kWarning = legal but slow or risky; kNote = worth knowing, nothing wrong.
// - docs/dev/add-a-rule.md says how to add a rule of either family and how to retire one.
#ifndef TMAPGEN_SRC_TMAP_RULE_CATALOGUE_H_
#define TMAPGEN_SRC_TMAP_RULE_CATALOGUE_H_

#include <cstdint>
#include <string_view>

namespace tmapgen {

enum class Severity : uint8_t { kError = 0, kWarning = 1, kNote = 2 };
std::string_view Name(Severity s);  // "error", "warning", "note"

enum class RuleFamily : uint8_t {
  kTensorMap = 0,        // src/tmap/rules.cc: a tensor map (spec)
  kSmemDescriptor = 1,   // src/desc/desc_rules.cc: a wgmma/tcgen05 shared-memory matrix descriptor (desc-*)
  kMapDescriptor = 2,    // src/desc/desc_rules.cc: a descriptor against the tensor map that fills its buffer (map-*)
  kInstrDescriptor = 3,  // src/desc/desc_rules.cc: the tcgen05 instruction descriptor (idesc-*)
};
// "tensor-map", "smem-descriptor", "map-descriptor", "instr-descriptor".
std::string_view Name(RuleFamily f);

enum class RuleState : uint8_t { kActive = 0, kRetired = 1 };

struct RuleEntry {
  std::string_view id;
  RuleFamily family;
  Severity severity;           // for a retired rule: the severity it had
  std::string_view field;      // the field path the finding is about; "[i]" stands for the finding's index,
                               // "a|b" for two fields (the finding's index picks one), "" for several
  std::string_view statement;  // the requirement, one sentence
  std::string_view source;     // cuda.h, PTX ISA section, Programming Guide, production code, or measurement
  std::string_view example;    // tmapgen arguments that trip the rule, or ""
  RuleState state = RuleState::kActive;
  std::string_view replaced_by = {};  // retired: the id that reports what this one did, or ""
  std::string_view became = {};       // retired: what the rule became, one sentence
};

// Every row, active and retired, in catalogue order (rule_catalogue_data.h holds them).
const RuleEntry* RuleCatalogue();
int NumCatalogueEntries();

// The row of an id, or nullptr.
const RuleEntry* FindCatalogueEntry(std::string_view id);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_RULE_CATALOGUE_H_
