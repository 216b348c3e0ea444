#include "src/model/show_render.h"

#include <algorithm>
#include <cstdio>

#include "src/model/swizzle.h"
#include "src/util/strings.h"

namespace tmapgen::model {
namespace {

std::string CoordList(const std::array<int64_t, kMaxRank>& c, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += StrCat(i ? ", " : "", c[i]);
  return s + "}";
}

std::string CellLabel(const ChunkCell& c) {
  if (c.row < 0) return ".";
  std::string s = StrCat(c.row, ".", c.chunk);
  if (c.oob == CellOob::kAll) s += "*";
  else if (c.oob == CellOob::kSome) s += "+";
  if (c.halo) s += "h";
  if (c.flipped) s += "f";
  if (c.padding) s += "p";
  return s;
}

// Colour of a source cell: hue by chunk column, lightness by row.
std::string CellColor(int row, int chunk) {
  const int hue = (chunk * 45 + 200) % 360;
  const int light = 82 - (row % 4) * 9;
  return StrCat("hsl(", hue, ",70%,", light, "%)");
}

std::string Esc(std::string_view s) {
  std::string o;
  for (char ch : s) {
    if (ch == '<') o += "&lt;";
    else if (ch == '>') o += "&gt;";
    else if (ch == '&') o += "&amp;";
    else if (ch == '"') o += "&quot;";
    else o += ch;
  }
  return o;
}

}  // namespace

absl::Status BuildShow(const TensorMapSpec& spec, const CopyInstruction& instr, ShowData* out) {
  std::vector<ElementPlacement> pl;
  out->spec = spec;
  out->instr = instr;
  if (absl::Status st = ModelPlacements(spec, instr, &pl, &out->layout); !st.ok()) return st;
  const CopyLayout& L = out->layout;
  out->chunks_per_row = (L.row_bytes + 15) / 16;
  out->swizzle_base_offset = SwizzleBaseOffset(spec.swizzle, instr.smem_address);
  // Per linear (unswizzled) chunk: element counts and the first element.
  const size_t nchunks = static_cast<size_t>((L.footprint_bytes + 15) / 16);
  struct Lin { int n = 0, oob = 0; bool halo = false; bool has = false; std::array<int64_t, kMaxRank> coord{}; };
  std::vector<Lin> lin(nchunks);
  for (const ElementPlacement& e : pl) {
    const size_t k = static_cast<size_t>(e.linear_bit / 128);
    if (k >= nchunks) continue;
    Lin& l = lin[k];
    if (!l.has) {
      l.has = true;
      l.coord = e.coord;
    }
    ++l.n;
    if (e.oob) ++l.oob;
    if (e.halo) l.halo = true;
  }
  const bool packed = spec.data_type == DataType::k16U4Align16B || spec.data_type == DataType::k16U6Align16B;
  out->cells.assign(nchunks, ChunkCell{});
  const uint64_t dst = instr.smem_address;
  for (size_t k = 0; k < nchunks; ++k) {
    const uint64_t linear = SwizzleAddress(spec.swizzle, dst + 16 * k) - dst;  // involution
    const size_t lk = static_cast<size_t>(linear / 16);
    if (lk >= nchunks) continue;
    const uint32_t row = static_cast<uint32_t>((lk * 16) / L.row_pitch);
    const uint32_t chunk = static_cast<uint32_t>(((lk * 16) % L.row_pitch) / 16);
    if (row >= L.rows || chunk >= out->chunks_per_row) continue;
    ChunkCell& c = out->cells[k];
    c.row = static_cast<int32_t>(row);
    c.chunk = static_cast<int32_t>(chunk);
    c.flipped = (linear & 8) != 0;
    const Lin& l = lin[lk];
    c.coord = l.coord;
    c.halo = l.halo;
    c.padding = packed && IsLoad(instr.direction);
    c.oob = l.n == 0 ? CellOob::kNone : l.oob == l.n ? CellOob::kAll : l.oob > 0 ? CellOob::kSome : CellOob::kNone;
  }
  out->banks = AnalyzeBankConflicts(L, spec.swizzle, dst);
  return absl::OkStatus();
}

std::string Summary(const ShowData& d) {
  const TensorMapSpec& s = d.spec;
  std::string dims, box;
  for (uint32_t i = 0; i < s.rank; ++i) dims += StrCat(i ? ", " : "", s.global_dim[i]);
  std::string what;
  if (IsIm2colMode(s.mode)) {
    what = StrCat("channels ", s.channels_per_pixel, " x pixels ", d.layout.main_rows);
  } else {
    for (uint32_t i = 0; i < s.rank; ++i) box += StrCat(i ? ", " : "", s.box_dim[i]);
    what = StrCat("box [", box, "]");
  }
  std::array<int64_t, kMaxRank> c{};
  for (int i = 0; i < kMaxRank; ++i) c[i] = d.instr.coords[i];
  return StrCat(Name(d.instr.mode), " ", Name(d.instr.direction), " ", ShortName(s.data_type), " [", dims, "] ", what, " ",
             FullName(s.swizzle), " at ", CoordList(c, static_cast<int>(s.rank)), " smem ", Hex(d.instr.smem_address));
}

std::string RenderText(const ShowData& d, int max_lines) {
  const CopyLayout& L = d.layout;
  std::string o;
  o += Summary(d) + "\n";
  o += StrCat("rows ", L.rows, " (", L.main_rows, " main) x ", L.row_bytes, " B, pitch ", L.row_pitch, " B; footprint ",
           L.footprint_bytes, " B; ", IsLoad(d.instr.direction) ? "transaction bytes " : "bytes per copy ", L.transaction_bytes,
           "; swizzle base offset ", d.swizzle_base_offset,
           " of ", SwizzlePatternRows(d.spec.swizzle), "\n");
  o += "cell = row.chunk of the copy (row = box row, gather row or im2col pixel; chunk = 16 B);"
       " * out of bounds, + partly, h halo, f 8-byte halves flipped, . untouched\n\n";
  o += "  smem line |";
  for (int k = 0; k < 8; ++k) {
    char b[16];
    std::snprintf(b, sizeof b, " b%02d-%02d ", k * 4, k * 4 + 3);
    o += b;
  }
  o += "\n";
  const size_t lines = (d.cells.size() + 7) / 8;
  const int rows_per_repeat = SwizzlePatternRows(d.spec.swizzle);
  const size_t shown = max_lines > 0 ? std::min<size_t>(lines, static_cast<size_t>(max_lines)) : lines;
  for (size_t ln = 0; ln < shown; ++ln) {
    const uint64_t addr = d.instr.smem_address + ln * 128;
    const bool boundary = rows_per_repeat > 1 && (addr / 128) % rows_per_repeat == 0 && ln > 0;
    if (boundary) o += "  ----------+" + std::string(64, '-') + "\n";
    char b[32];
    std::snprintf(b, sizeof b, "  %#9llx |", static_cast<unsigned long long>(addr));
    o += b;
    for (size_t k = ln * 8; k < ln * 8 + 8; ++k) {
      const std::string lab = k < d.cells.size() ? CellLabel(d.cells[k]) : "";
      std::snprintf(b, sizeof b, " %7s", lab.c_str());
      o += b;
    }
    o += "\n";
  }
  if (shown < lines) o += StrCat("  ... ", lines - shown, " more lines (--max-lines 0 shows all)\n");
  o += "\nbank conflicts (16-byte accesses, 8 threads per phase; ideal 1 wavefront per phase):\n";
  for (const BankPattern& p : d.banks) {
    char b[200];
    std::snprintf(b, sizeof b, "  %-9s %2d wavefronts (ideal %d, worst phase %d-way)  %s\n", p.name.c_str(), p.wavefronts,
                  p.ideal, p.worst_phase, p.description.c_str());
    o += b;
  }
  return o;
}

void RenderJson(const ShowData& d, json::Writer* w) {
  const CopyLayout& L = d.layout;
  w->BeginObject();
  w->Key("summary").String(Summary(d));
  w->Key("mode").String(Name(d.instr.mode));
  w->Key("direction").String(Name(d.instr.direction));
  w->Key("smem_address").Uint(d.instr.smem_address);
  w->Key("swizzle").String(ShortName(d.spec.swizzle));
  w->Key("swizzle_base_offset").Int(d.swizzle_base_offset);
  w->Key("layout").BeginObject();
  w->Key("rows").Uint(L.rows).Key("main_rows").Uint(L.main_rows).Key("row_elements").Uint(L.row_elements);
  w->Key("row_bytes").Uint(L.row_bytes).Key("row_pitch").Uint(L.row_pitch);
  w->Key("footprint_bytes").Uint(L.footprint_bytes).Key("transaction_bytes").Uint(L.transaction_bytes);
  w->EndObject();
  w->Key("chunks").BeginArray();
  for (size_t k = 0; k < d.cells.size(); ++k) {
    const ChunkCell& c = d.cells[k];
    w->BeginObject().Key("offset").Uint(k * 16);
    if (c.row < 0) {
      w->Key("written").Bool(false).EndObject();
      continue;
    }
    w->Key("row").Int(c.row).Key("chunk").Int(c.chunk);
    w->Key("coord").BeginArray();
    for (uint32_t i = 0; i < d.spec.rank; ++i) w->Int(c.coord[i]);
    w->EndArray();
    w->Key("oob").String(c.oob == CellOob::kAll ? "all" : c.oob == CellOob::kSome ? "some" : "none");
    if (c.flipped) w->Key("flipped").Bool(true);
    if (c.halo) w->Key("halo").Bool(true);
    w->EndObject();
  }
  w->EndArray();
  w->Key("bank_conflicts").BeginArray();
  for (const BankPattern& p : d.banks) {
    w->BeginObject().Key("pattern").String(p.name).Key("wavefronts").Int(p.wavefronts).Key("ideal").Int(p.ideal);
    w->Key("worst_phase").Int(p.worst_phase).Key("description").String(p.description).EndObject();
  }
  w->EndArray();
  w->EndObject();
}

std::string RenderSvg(const ShowData& d, int max_lines) {
  const CopyLayout& L = d.layout;
  const int cw = 58, ch = 20;         // cell size
  const int margin = 24, gap = 70;
  const size_t lines = (d.cells.size() + 7) / 8;
  const size_t shown = max_lines > 0 ? std::min<size_t>(lines, static_cast<size_t>(max_lines)) : lines;
  // Left panel: the copy's rows x chunks (global order). Show as many rows as the smem panel covers.
  const uint32_t cpr = std::max<uint32_t>(1, d.chunks_per_row);
  const uint32_t box_rows = static_cast<uint32_t>(std::min<uint64_t>(L.rows, (shown * 128 + L.row_pitch - 1) / L.row_pitch));
  const int left_w = static_cast<int>(cpr) * cw;
  const int right_x = margin + 60 + left_w + gap;
  const int top = 118;
  const int panel_h = static_cast<int>(std::max<size_t>(shown, box_rows)) * ch;
  const int width = right_x + 8 * cw + 130;
  const int height = top + panel_h + 40 + 22 * static_cast<int>(d.banks.size()) + 70;
  std::string o;
  o += StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ",
           height, "\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n");
  o += "<defs><pattern id=\"oob\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
       "<rect width=\"6\" height=\"6\" fill=\"#d8d8d8\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" stroke-width=\"3\"/>"
       "</pattern></defs>\n";
  o += StrCat("<rect width=\"", width, "\" height=\"", height, "\" fill=\"white\"/>\n");
  o += StrCat("<text x=\"", margin, "\" y=\"22\" font-size=\"14\" font-weight=\"bold\">", Esc(Summary(d)), "</text>\n");
  o += StrCat("<text x=\"", margin, "\" y=\"40\">rows ", L.rows, " x ", L.row_bytes, " B, pitch ", L.row_pitch, " B, footprint ",
           L.footprint_bytes, " B, ", IsLoad(d.instr.direction) ? "transaction " : "per copy ", L.transaction_bytes,
           " B, swizzle base offset ", d.swizzle_base_offset,
           " of ", SwizzlePatternRows(d.spec.swizzle), "</text>\n");
  o += StrCat("<text x=\"", margin, "\" y=\"56\" fill=\"#555\">cell = row.chunk (16 B); same colour = same data; hatched = out of bounds "
           "(filled on load); h = halo; f = 8-byte halves flipped</text>\n");
  // Panel titles.
  o += StrCat("<text x=\"", margin + 60, "\" y=\"", top - 32, "\" font-size=\"13\" font-weight=\"bold\">the copy, row by row (global order)</text>\n");
  o += StrCat("<text x=\"", right_x, "\" y=\"", top - 32, "\" font-size=\"13\" font-weight=\"bold\">shared memory, 128 B per line</text>\n");
  // Bank header over the shared-memory panel.
  for (int k = 0; k < 8; ++k) {
    const int x = right_x + k * cw;
    o += StrCat("<text x=\"", x + cw / 2, "\" y=\"", top - 16, "\" text-anchor=\"middle\" fill=\"#333\">banks</text>");
    o += StrCat("<text x=\"", x + cw / 2, "\" y=\"", top - 4, "\" text-anchor=\"middle\" fill=\"#333\">", k * 4, "-", k * 4 + 3,
             "</text>\n");
  }
  for (uint32_t c = 0; c < cpr; ++c)
    o += StrCat("<text x=\"", margin + 60 + static_cast<int>(c) * cw + cw / 2, "\" y=\"", top - 4,
             "\" text-anchor=\"middle\" fill=\"#333\">chunk ", c, "</text>\n");
  auto cell = [&](int x, int y, int row, int chunk, CellOob oob, bool halo, const std::string& label) {
    std::string fill = row < 0 ? "white" : CellColor(row, chunk);
    o += StrCat("<rect x=\"", x, "\" y=\"", y, "\" width=\"", cw, "\" height=\"", ch, "\" fill=\"", fill, "\" stroke=\"#666\" stroke-width=\"0.5\"",
             halo ? " stroke-dasharray=\"3,2\"" : "", "/>");
    if (oob == CellOob::kAll || oob == CellOob::kSome)
      o += StrCat("<rect x=\"", x + 1, "\" y=\"", y + 1, "\" width=\"", oob == CellOob::kAll ? cw - 2 : (cw - 2) / 2, "\" height=\"", ch - 2,
               "\" fill=\"url(#oob)\" opacity=\"0.85\"/>");
    if (!label.empty())
      o += StrCat("<text x=\"", x + cw / 2, "\" y=\"", y + ch - 6, "\" text-anchor=\"middle\">", Esc(label), "</text>");
    o += "\n";
  };
  // Left panel: source rows. Derive OOB per (row, chunk) from the cells.
  std::vector<const ChunkCell*> by_src(static_cast<size_t>(L.rows) * cpr, nullptr);
  for (const ChunkCell& c : d.cells)
    if (c.row >= 0) by_src[static_cast<size_t>(c.row) * cpr + static_cast<size_t>(c.chunk)] = &c;
  for (uint32_t r = 0; r < box_rows; ++r) {
    const int y = top + static_cast<int>(r) * ch;
    o += StrCat("<text x=\"", margin + 54, "\" y=\"", y + ch - 6, "\" text-anchor=\"end\" fill=\"#333\">row ", r, "</text>");
    for (uint32_t c = 0; c < cpr; ++c) {
      const ChunkCell* src = by_src[static_cast<size_t>(r) * cpr + c];
      cell(margin + 60 + static_cast<int>(c) * cw, y, static_cast<int>(r), static_cast<int>(c),
           src ? src->oob : CellOob::kNone, src && src->halo, StrCat(r, ".", c));
    }
  }
  // Right panel: shared memory.
  const int rows_per_repeat = SwizzlePatternRows(d.spec.swizzle);
  for (size_t ln = 0; ln < shown; ++ln) {
    const int y = top + static_cast<int>(ln) * ch;
    const uint64_t addr = d.instr.smem_address + ln * 128;
    o += StrCat("<text x=\"", right_x - 6, "\" y=\"", y + ch - 6, "\" text-anchor=\"end\" fill=\"#333\">", Hex(addr), "</text>");
    for (size_t k = ln * 8; k < ln * 8 + 8; ++k) {
      const int x = right_x + static_cast<int>(k - ln * 8) * cw;
      if (k >= d.cells.size()) continue;
      const ChunkCell& c = d.cells[k];
      cell(x, y, c.row, c.chunk, c.oob, c.halo, c.row < 0 ? "" : CellLabel(c));
    }
    if (rows_per_repeat > 1 && (addr / 128) % rows_per_repeat == 0) {
      o += StrCat("<line x1=\"", right_x - 2, "\" y1=\"", y, "\" x2=\"", right_x + 8 * cw + 2, "\" y2=\"", y,
               "\" stroke=\"#c00\" stroke-width=\"2\"/>");
      o += StrCat("<text x=\"", right_x + 8 * cw + 6, "\" y=\"", y + 4, "\" fill=\"#c00\">repeat ", Hex(addr), "</text>\n");
    }
  }
  int y = top + panel_h + 24;
  if (shown < lines) {
    o += StrCat("<text x=\"", margin, "\" y=\"", y, "\" fill=\"#555\">... ", lines - shown, " more lines of 128 B not drawn</text>\n");
    y += 18;
  }
  o += StrCat("<text x=\"", margin, "\" y=\"", y + 4, "\" font-size=\"13\" font-weight=\"bold\">bank conflicts (16-byte accesses, 8 threads per phase)</text>\n");
  y += 22;
  for (const BankPattern& p : d.banks) {
    const bool ok = p.wavefronts == p.ideal;
    o += StrCat("<text x=\"", margin, "\" y=\"", y, "\" fill=\"", ok ? "#064" : "#b00", "\">", Esc(p.name), ": ", p.wavefronts,
             " wavefronts (ideal ", p.ideal, ", worst phase ", p.worst_phase, "-way) - ", Esc(p.description), "</text>\n");
    y += 20;
  }
  o += "</svg>\n";
  return o;
}

}  // namespace tmapgen::model
