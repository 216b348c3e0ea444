// advance.h: the descriptor rules about a descriptor advanced to a K slice or sub-tile.
//
// Contract (src/desc/desc_rules.h): checks append Findings and never format text; messages and fixes
// are made only when diagnostics are. Defined in advance.cc; the table in src/desc/desc_rules.cc uses them.
#ifndef TMAPGEN_SRC_DESC_RULES_ADVANCE_H_
#define TMAPGEN_SRC_DESC_RULES_ADVANCE_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"

namespace tmapgen::desc::rules {

void CheckAdvAlign(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAdvAlign(const DescContext& c, const Finding& f);
std::string FixAdvAlign(const DescContext&, const Finding&);
void CheckAdvBase(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAdvBase(const DescContext& c, const Finding& f);
std::string FixAdvBase(const DescContext& c, const Finding&);
void CheckAdvRange(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAdvRange(const DescContext& c, const Finding& f);
std::string FixAdvRange(const DescContext&, const Finding&);
void CheckAdvOutside(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAdvOutside(const DescContext& c, const Finding& f);
std::string FixAdvOutside(const DescContext&, const Finding&);

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_ADVANCE_H_
