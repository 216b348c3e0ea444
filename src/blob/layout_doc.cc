#include "src/blob/layout_doc.h"

#include "src/util/strings.h"

namespace tmapgen::blob {
namespace {

std::string Range(int lo, int width) {
  return width == 1 ? StrCat(lo) : StrCat(lo, "-", lo + width - 1);
}

}  // namespace

std::string BitsText(const MapField& f) {
  std::string s = Range(f.pieces[0].lo, f.pieces[0].width);
  if (f.pieces[1].width) StrAppend(&s, ", ", Range(f.pieces[1].lo, f.pieces[1].width));
  return s;
}

std::string LayoutMarkdown() {
  std::string o =
      "| field | bits | width | encoding | kind | layouts | meaning |\n"
      "|---|---|---|---|---|---|---|\n";
  int n = 0;
  const MapField* f = Fields(&n);
  for (int k = 0; k < n; ++k) {
    std::string layouts = LayoutMaskText(f[k].layouts);
    if (f[k].min_rank > 1) StrAppend(&layouts, ", rank >= ", f[k].min_rank);
    StrAppend(&o, "| `", f[k].name, "` | ", BitsText(f[k]), " | ", FieldWidth(f[k]), " | ", FieldCodingText(f[k].coding), " | ",
              KindName(f[k].kind), " | ", layouts, " | ", f[k].meaning, " |\n");
  }
  return o;
}

std::string NeverWrittenText() {
  const auto& m = NeverWrittenMask();
  std::string o;
  int b = 0;
  while (b < kMapBits) {
    if (!((m[b / 64] >> (b % 64)) & 1)) { ++b; continue; }
    int e = b;
    while (e + 1 < kMapBits && ((m[(e + 1) / 64] >> ((e + 1) % 64)) & 1)) ++e;
    StrAppend(&o, o.empty() ? "" : ", ", Range(b, e - b + 1));
    b = e + 1;
  }
  return o;
}

}  // namespace tmapgen::blob
