// rule_catalogue.cc: the catalogue of every rule (rule_catalogue.h), its rows in rule_catalogue_data.h.
#include "src/tmap/rule_catalogue.h"

#include "src/tmap/rule_catalogue_data.h"

#include <cstdlib>

namespace tmapgen {

std::string_view Name(RuleFamily f) {
  switch (f) {
    case RuleFamily::kTensorMap: return "tensor-map";
    case RuleFamily::kSmemDescriptor: return "smem-descriptor";
    case RuleFamily::kMapDescriptor: return "map-descriptor";
    case RuleFamily::kInstrDescriptor: return "instr-descriptor";
  }
  return "tensor-map";
}

const RuleEntry* RuleCatalogue() { return catalogue_internal::kEntries; }
int NumCatalogueEntries() { return catalogue_internal::kNumEntries; }

const RuleEntry* FindCatalogueEntry(std::string_view id) {
  for (int i = 0; i < NumCatalogueEntries(); ++i)
    if (RuleCatalogue()[i].id == id) return &RuleCatalogue()[i];
  return nullptr;
}

namespace catalogue_internal {
void UnknownRuleId() { std::abort(); }  // reached only by a run-time CatalogueEntry of an unknown id
}  // namespace catalogue_internal

}  // namespace tmapgen
