// layout.h: the descriptor rules about the descriptor against the tile it describes (LBO, SBO, swizzle, major-
//   ness, alignment, capacity).
//
// Contract (src/desc/desc_rules.h): checks append Findings and never format text; messages and fixes
// are made only when diagnostics are. Defined in layout.cc; the table in src/desc/desc_rules.cc uses them.
#ifndef TMAPGEN_SRC_DESC_RULES_LAYOUT_H_
#define TMAPGEN_SRC_DESC_RULES_LAYOUT_H_

#include <cstdint>
#include <string>

#include "src/desc/desc_rules.h"

namespace tmapgen::desc::rules {

void CheckStartAlign(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgStartAlign(const DescContext& c, const Finding&);
std::string FixStartAlign(const DescContext& c, const Finding&);
void CheckLboAlign(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgLboAlign(const DescContext&, const Finding& f);
std::string FixLboAlign(const DescContext&, const Finding& f);
void CheckSboAlign(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgSboAlign(const DescContext&, const Finding& f);
std::string FixSboAlign(const DescContext&, const Finding& f);
void CheckStartRange(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgStartRange(const DescContext&, const Finding& f);
std::string FixStartRange(const DescContext&, const Finding&);
void CheckLboRange(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgLboRange(const DescContext&, const Finding& f);
std::string FixLboRange(const DescContext&, const Finding&);
void CheckSboRange(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgSboRange(const DescContext&, const Finding& f);
std::string FixSboRange(const DescContext&, const Finding&);
void CheckBaseMismatch(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgBaseMismatch(const DescContext& c, const Finding& f);
std::string FixBaseMismatch(const DescContext&, const Finding& f);
void CheckStartPhase(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgStartPhase(const DescContext& c, const Finding& f);
std::string FixStartPhase(const DescContext& c, const Finding& f);
void CheckWgmmaSwizzle(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgWgmmaSwizzle(const DescContext&, const Finding&);
std::string FixWgmmaSwizzle(const DescContext&, const Finding&);
void CheckWgmmaType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgWgmmaType(const DescContext& c, const Finding&);
std::string FixWgmmaType(const DescContext&, const Finding&);
void CheckWgmmaMnType(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgWgmmaMnType(const DescContext& c, const Finding&);
std::string FixWgmmaMnType(const DescContext&, const Finding&);
void CheckKMajorAtom32(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgKMajorAtom32(const DescContext&, const Finding&);
std::string FixKMajorAtom32(const DescContext&, const Finding&);
void CheckMnSubByte(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMnSubByte(const DescContext& c, const Finding&);
std::string FixMnSubByte(const DescContext&, const Finding&);
void CheckMnTf32(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgMnTf32(const DescContext& c, const Finding&);
std::string FixMnTf32(const DescContext&, const Finding&);
void CheckAtom32Type(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAtom32Type(const DescContext& c, const Finding& f);
std::string FixAtom32Type(const DescContext&, const Finding&);
void CheckTileMn(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgTileMn(const DescContext& c, const Finding& f);
std::string FixTileMn(const DescContext&, const Finding& f);
void CheckTileK(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgTileK(const DescContext& c, const Finding& f);
std::string FixTileK(const DescContext&, const Finding& f);
void CheckTileKStep(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgTileKStep(const DescContext&, const Finding& f);
std::string FixTileKStep(const DescContext&, const Finding& f);
void CheckTileKAtoms(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgTileKAtoms(const DescContext& c, const Finding& f);
std::string FixTileKAtoms(const DescContext&, const Finding&);
void CheckLboUnused(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgLboUnused(const DescContext&, const Finding& f);
std::string FixLboUnused(const DescContext&, const Finding&);
void CheckLboCanonical(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgLboCanonical(const DescContext& c, const Finding& f);
std::string FixLboCanonical(const DescContext&, const Finding& f);
void CheckSboCanonical(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgSboCanonical(const DescContext& c, const Finding& f);
std::string FixSboCanonical(const DescContext&, const Finding& f);
void CheckAbsMajor(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgAbsMajor(const DescContext&, const Finding&);
std::string FixAbsMajor(const DescContext&, const Finding&);
void CheckSmemCapacity(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgSmemCapacity(const DescContext& c, const Finding& f);
std::string FixSmemCapacity(const DescContext&, const Finding&);
void CheckStrideZero(const DescContext& c, uint16_t r, FindingList* o);
std::string MsgStrideZero(const DescContext& c, const Finding& f);
std::string FixStrideZero(const DescContext& c, const Finding& f);

}  // namespace tmapgen::desc::rules

#endif  // TMAPGEN_SRC_DESC_RULES_LAYOUT_H_
