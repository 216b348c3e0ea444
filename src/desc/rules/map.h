// map.h: the descriptor rules about the descriptor against the tensor map that fills the buffer.
//
// Contract (src/desc/desc_rules.h): checks append Findings and never format text; messages and fixes
// are made only when diagnostics are. Defined in map.cc; the table in src/desc/desc_rules.cc uses them.
#ifndef TMAPGEN_SRC_DESC_RULES_MAP_H_
#define TMAPGEN_SRC_DESC_RULES_MAP_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"

namespace tmapgen::desc::rules {

void CheckMapInterleave(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapInterleave(const DescContext& c, const Finding&);
std::string FixMapInterleave(const DescContext&, const Finding&);
void CheckMapSwizzleUnsupported(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapSwizzleUnsupported(const DescContext& c, const Finding&);
std::string FixMapSwizzleUnsupported(const DescContext& c, const Finding&);
void CheckMapDtype(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapDtype(const DescContext& c, const Finding&);
std::string FixMapDtype(const DescContext&, const Finding&);
void CheckMapTypeBits(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapTypeBits(const DescContext& c, const Finding& f);
std::string FixMapTypeBits(const DescContext&, const Finding&);
void CheckMapBoxWider(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapBoxWider(const DescContext& c, const Finding& f);
std::string FixMapBoxWider(const DescContext& c, const Finding& f);
void CheckMapBoxNarrower(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapBoxNarrower(const DescContext& c, const Finding& f);
std::string FixMapBoxNarrower(const DescContext&, const Finding& f);
void CheckMapDstAlign(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapDstAlign(const DescContext& c, const Finding&);
std::string FixMapDstAlign(const DescContext& c, const Finding&);
void CheckMapDstPhase(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapDstPhase(const DescContext& c, const Finding& f);
std::string FixMapDstPhase(const DescContext& c, const Finding& f);
void CheckMapEncoding(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapEncoding(const DescContext& c, const Finding& f);
std::string FixMapEncoding(const DescContext& c, const Finding& f);
void CheckMapSwizzle(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapSwizzle(const DescContext& c, const Finding& f);
std::string FixMapSwizzle(const DescContext& c, const Finding& f);
void CheckMapAtomicity(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapAtomicity(const DescContext& c, const Finding& f);
std::string FixMapAtomicity(const DescContext& c, const Finding&);
void CheckMapLbo(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapLbo(const DescContext& c, const Finding& f);
std::string FixMapLbo(const DescContext&, const Finding& f);
void CheckMapSbo(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapSbo(const DescContext& c, const Finding& f);
std::string FixMapSbo(const DescContext&, const Finding& f);
void CheckMapBase(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapBase(const DescContext& c, const Finding& f);
std::string FixMapBase(const DescContext&, const Finding& f);
void CheckMapStartOutside(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapStartOutside(const DescContext& c, const Finding& f);
std::string FixMapStartOutside(const DescContext& c, const Finding&);
void CheckMapStartOffset(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapStartOffset(const DescContext&, const Finding& f);
std::string FixMapStartOffset(const DescContext&, const Finding&);
void CheckMapChunks(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMapChunks(const DescContext& c, const Finding& f);
std::string FixMapChunks(const DescContext& c, const Finding&);

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_MAP_H_
