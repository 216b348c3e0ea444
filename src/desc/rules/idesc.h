// idesc.h: the descriptor rules about the tcgen05 instruction descriptor.
//
// Contract (src/desc/desc_rules.h): checks append Findings and never format text; messages and fixes
// are made only when diagnostics are. Defined in idesc.cc; the table in src/desc/desc_rules.cc uses them.
#ifndef TMAPGEN_SRC_DESC_RULES_IDESC_H_
#define TMAPGEN_SRC_DESC_RULES_IDESC_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"

namespace tmapgen::desc::rules {

void CheckIdVariant(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdVariant(const DescContext& c, const Finding&);
std::string FixIdVariant(const DescContext&, const Finding&);
void CheckIdM(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdM(const DescContext& c, const Finding& f);
std::string FixIdM(const DescContext& c, const Finding&);
void CheckIdN(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdN(const DescContext& c, const Finding& f);
std::string FixIdN(const DescContext& c, const Finding&);
void CheckIdTmemTranspose(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdTmemTranspose(const DescContext& c, const Finding&);
std::string FixIdTmemTranspose(const DescContext&, const Finding&);
void CheckIdK96(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdK96(const DescContext& c, const Finding& f);
std::string FixIdK96(const DescContext&, const Finding&);
void CheckIdDType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdDType(const DescContext& c, const Finding& f);
std::string FixIdDType(const DescContext& c, const Finding&);
void CheckIdAbType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdAbType(const DescContext& c, const Finding& f);
std::string FixIdAbType(const DescContext& c, const Finding&);
void CheckIdAbMatch(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdAbMatch(const DescContext&, const Finding&);
std::string FixIdAbMatch(const DescContext&, const Finding&);
void CheckIdNegateI8(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdNegateI8(const DescContext&, const Finding&);
std::string FixIdNegateI8(const DescContext&, const Finding&);
void CheckIdSaturate(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdSaturate(const DescContext& c, const Finding&);
std::string FixIdSaturate(const DescContext&, const Finding&);
void CheckIdTransposeKind(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdTransposeKind(const DescContext& c, const Finding&);
std::string FixIdTransposeKind(const DescContext&, const Finding&);
void CheckIdTransposeType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdTransposeType(const DescContext&, const Finding& f);
std::string FixIdTransposeType(const DescContext&, const Finding& f);
void CheckIdTransposeN(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdTransposeN(const DescContext& c, const Finding& f);
std::string FixIdTransposeN(const DescContext&, const Finding& f);
void CheckIdSparseSel(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdSparseSel(const DescContext&, const Finding& f);
std::string FixIdSparseSel(const DescContext&, const Finding&);
void CheckIdMaxShift(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdMaxShift(const DescContext&, const Finding& f);
std::string FixIdMaxShift(const DescContext&, const Finding&);
void CheckIdScaleType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdScaleType(const DescContext& c, const Finding&);
std::string FixIdScaleType(const DescContext&, const Finding&);
void CheckIdSfId(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdSfId(const DescContext& c, const Finding& f);
std::string FixIdSfId(const DescContext&, const Finding&);
void CheckIdReserved(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdReserved(const DescContext& c, const Finding& f);
std::string FixIdReserved(const DescContext&, const Finding&);
void CheckIdTarget(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgIdTarget(const DescContext& c, const Finding& f);
std::string FixIdTarget(const DescContext&, const Finding& f);

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_IDESC_H_
