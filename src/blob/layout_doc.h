// layout_doc.h: the field table of layout.h as text for people: the Markdown table that
// docs/tensormap-layout.md embeds (a test keeps the two identical), and the bit ranges of a field.
//
// Contract
// - LayoutMarkdown() is generated from layout.h and nothing else; one row per table row, in table order:
//   name, bits, width, encoding, kind, layouts, meaning.
// - BitsText(f) is "96-127, 224-227" style (one piece: "68-70"; one bit: "64").
// - No I/O.
#ifndef TMAPGEN_SRC_BLOB_LAYOUT_DOC_H_
#define TMAPGEN_SRC_BLOB_LAYOUT_DOC_H_

#include <string>

#include "src/blob/layout.h"

namespace tmapgen::blob {

std::string BitsText(const MapField& f);
std::string LayoutMarkdown();
// The bits no row covers in any layout, as ranges ("83-84, 86-95, ...").
std::string NeverWrittenText();

}  // namespace tmapgen::blob

#endif  // TMAPGEN_SRC_BLOB_LAYOUT_DOC_H_
