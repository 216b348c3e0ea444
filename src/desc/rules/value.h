// value.h: the descriptor rules about the 64-bit shared-memory descriptor value alone (fields, version,
//   reserved bits, base offset, target).
//
// Contract (src/desc/desc_rules.h): checks append Findings and never format text; messages and fixes
// are made only when diagnostics are. Defined in value.cc; the table in src/desc/desc_rules.cc uses them.
#ifndef TMAPGEN_SRC_DESC_RULES_VALUE_H_
#define TMAPGEN_SRC_DESC_RULES_VALUE_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"

namespace tmapgen::desc::rules {

void CheckLayoutTypeInvalid(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgLayoutTypeInvalid(const DescContext&, const Finding& f);
std::string FixLayoutTypeInvalid(const DescContext&, const Finding& f);
void CheckVersion(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgVersion(const DescContext&, const Finding& f);
std::string FixVersion(const DescContext&, const Finding&);
void CheckFixedZero(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgFixedZero(const DescContext&, const Finding& f);
std::string FixFixedZero(const DescContext&, const Finding&);
void CheckReserved(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgReserved(const DescContext& c, const Finding& f);
std::string FixReserved(const DescContext& c, const Finding&);
void CheckBaseNoSwizzle(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgBaseNoSwizzle(const DescContext&, const Finding& f);
std::string FixBaseNoSwizzle(const DescContext&, const Finding&);
void CheckBaseRange(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgBaseRange(const DescContext& c, const Finding& f);
std::string FixBaseRange(const DescContext& c, const Finding& f);
void CheckArchTarget(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgArchTarget(const DescContext& c, const Finding&);
std::string FixArchTarget(const DescContext& c, const Finding&);
void CheckAbsTarget(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAbsTarget(const DescContext& c, const Finding&);
std::string FixAbsTarget(const DescContext&, const Finding&);
void CheckAbsSwizzle(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAbsSwizzle(const DescContext& c, const Finding&);
std::string FixAbsSwizzle(const DescContext&, const Finding&);
void CheckAbsBase(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAbsBase(const DescContext&, const Finding& f);
std::string FixAbsBase(const DescContext&, const Finding&);
void CheckSboZero(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgSboZero(const DescContext&, const Finding&);
std::string FixSboZero(const DescContext&, const Finding&);

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_VALUE_H_
