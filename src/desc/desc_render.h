// desc_render.h: what the descriptor commands say, as text for people, stable JSON for tools, and a
// drawing (text or SVG) of which shared-memory bytes each 8 x 16-byte core matrix is read from, next to
// where the tensor map put them.
//
// Contract
// - A SmemDescReport / IdescReport holds everything one command computed; Finish*() validates it (all
//   rules at once) and must be called after the report is filled and before it is rendered. Reports
//   are plain values; the rule contexts are rebuilt from them when rendering, so copying is safe.
// - JSON (docs/descriptors.md) is stable: fields are only ever added. Every report has "kind"
//   ("smem_descriptor" or "instr_descriptor"), "valid", "value", "fields" (name, bits, encoded value and,
//   for address fields, bytes), "counts" and "diagnostics" (rule, severity, field, message, fix, source),
//   like the tensor-map report.
// - Drawings label each 16-byte chunk "row.col": row along the strided dimension (M/N rows for K-major,
//   K rows for MN-major) and col the 16-byte column along the contiguous dimension. The drawing covers
//   the first K slice the descriptor reads and the whole box the map writes, at most `max_lines` lines of
//   128 bytes.
// - No I/O.
#ifndef TMAPGEN_SRC_DESC_DESC_RENDER_H_
#define TMAPGEN_SRC_DESC_DESC_RENDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/desc/desc_rules.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/map_consistency.h"
#include "src/desc/smem_descriptor.h"
#include "src/json/json_writer.h"

namespace tmapgen::desc {

struct SmemDescReport {
  SmemDesc desc;             // the value reported: built, derived from the map, or the user's
  bool user_value = false;   // decoded or given with --check
  bool has_layout = false;
  OperandLayout layout;
  LayoutFacts facts;
  bool has_map = false;
  MapDerivation map;
  std::string map_source;    // where the map came from (file name), for the text header
  bool has_advance = false;
  Advance advance;
  bool advance_is_sub_tile = false;
  uint32_t advance_k_slice = 0;
  uint32_t advance_mn = 0, advance_k = 0;
  bool has_target = false;
  Target target = Target::kSm100a;
  bool arch_guessed = false;  // decode: the family was read from bits 46-48, not given
  bool draw = false;         // include the drawing in text and JSON
  int max_lines = 32;        // drawing height in 128-byte lines
  DescValidation validation;
};

// The rule context of a report (pointers into it).
SmemCheck MakeSmemCheck(const SmemDescReport& r);
void FinishSmemReport(SmemDescReport* r);

struct IdescReport {
  IdescCheck check;
  bool kind_given = true;  // decode without --kind: every kind is tried
  DescValidation validation;
};
void FinishIdescReport(IdescReport* r);

// One 16-byte chunk placement.
struct ChunkPlace {
  uint32_t row = 0, col = 0;
  uint64_t address = 0;
};
// Where the descriptor makes the MMA read each chunk of the first K slice (layout required).
std::vector<ChunkPlace> MmaPlacements(const SmemDescReport& r);
// Where the map writes each chunk of its box (map required).
std::vector<ChunkPlace> TmaPlacements(const SmemDescReport& r);

std::string RenderSmemText(const SmemDescReport& r, bool color);
void WriteSmemJson(const SmemDescReport& r, json::Writer* w);
std::string DrawText(const SmemDescReport& r);
std::string DrawSvg(const SmemDescReport& r);

std::string RenderIdescText(const IdescReport& r, bool color);
void WriteIdescJson(const IdescReport& r, json::Writer* w);
// Decode without a kind: one line per kind saying whether the value is valid for it.
std::string RenderIdescAllKindsText(uint32_t value, const IdescSpec& context, bool color);
void WriteIdescAllKindsJson(uint32_t value, const IdescSpec& context, json::Writer* w);
// True when the value is valid for at least one kind.
bool IdescValidForSomeKind(uint32_t value, const IdescSpec& context);

// The pieces the text and JSON show, for other forms of the same report (tmapd's messages).
std::string FieldMeaning(const SmemDesc& d, const BitField& f, uint64_t v);    // "128 B", "128B swizzle"
std::string FieldMeaning(const IdescSpec& s, const BitField& f, uint32_t v);   // "N = 256"
std::string IdescPtx(const IdescSpec& s);           // the tcgen05.mma line that takes the descriptor
uint32_t KSliceDescriptorsShown(const SmemDescReport& r);  // the "k_slices" JSON lists (layout known)
std::string LegalElementTypes(DescArch a, Major m, DescSwizzle s);
CanonicalLayout ReportCanonical(const SmemDescReport& r);  // the "canonical" JSON object (layout known)

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_DESC_RENDER_H_
