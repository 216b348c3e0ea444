#include "src/desc/desc_render.h"

#include <algorithm>
#include <array>
#include <map>

#include "src/util/strings.h"
#include "src/util/text_util.h"

namespace tmapgen::desc {
namespace {

using Colors = TermColors;

std::string Pad(std::string s, size_t n) {
  if (s.size() < n) s.resize(n, ' ');
  return s;
}
std::string Row(const char* key, const std::string& value, int indent = 2) {
  return StrCat(std::string(static_cast<size_t>(indent), ' '), Pad(key, 22), value, "\n");
}
std::string BitsText(const BitField& f) {
  return f.width == 1 ? StrCat("bit ", f.lo) : StrCat("bits ", f.lo, "-", f.lo + f.width - 1);
}
uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// "0x" and exactly `digits` hex digits: descriptor values are easier to compare at full width.
std::string HexPad(uint64_t v, int digits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s = "0x";
  for (int i = digits - 1; i >= 0; --i) s.push_back(kDigits[(v >> (4 * i)) & 0xf]);
  return s;
}
std::string V64(uint64_t v) { return HexPad(v, 16); }
std::string V32(uint32_t v) { return HexPad(v, 8); }

std::string SwizzleText(DescArch a, uint32_t v) {
  DescSwizzle s;
  if (!SwizzleFromLayoutType(a, v, &s)) return "invalid";
  switch (s) {
    case DescSwizzle::kNone: return "no swizzle (interleave)";
    case DescSwizzle::k32B: return "32B swizzle";
    case DescSwizzle::k64B: return "64B swizzle";
    case DescSwizzle::k128B: return "128B swizzle";
    case DescSwizzle::k128BAtom32B: return "128B swizzle with 32-byte atomicity";
  }
  return "";
}

// Interpretation of one smem-descriptor field value.
std::string SmemFieldMeaning(const SmemDesc& d, const BitField& f, uint64_t v) {
  if (f.unit_shift == 4) {
    const uint64_t bytes = v << 4;
    if (f.lo == 0) return StrCat(bytes, " B (", Hex(bytes), ")");
    if (f.lo == 16 && d.lbo_absolute()) return StrCat(bytes, " B: absolute address ", Hex(bytes));
    return StrCat(bytes, " B");
  }
  if (f.name == "layout_type") return SwizzleText(d.arch(), static_cast<uint32_t>(v));
  if (f.name == "fixed_0b001") return v == 1 ? "0b001 (as required)" : StrCat("0b", (v >> 2) & 1, (v >> 1) & 1, v & 1, " (must be 0b001)");
  if (f.name == "fixed_zero") return v == 0 ? "0 (as required)" : StrCat(Hex(v), " (must be 0)");
  if (f.name == "lbo_mode") return v ? "1: absolute leading-dimension address (sm_103a)" : "0: relative offset";
  if (f.name == "base_offset") return StrCat(v, v ? StrCat(" (pattern row ", v, ")") : std::string(""));
  return StrCat(v);
}

std::string LayoutTitle(const OperandLayout& l) {
  return StrCat("operand ", Name(l.operand), ", ", Name(l.major), "-major, ", Name(l.type),
             l.type == ElemType::kE2M1 ? (l.padded ? " (padded, 1 B each)" : " (packed, 2 per byte)") : "", ", ",
             l.swizzle == DescSwizzle::kNone ? std::string("no") : std::string(Name(l.swizzle)), " swizzle, tile ", l.mn, " (", l.operand == Operand::kA ? "M" : "N", ") x ", l.k,
             " (K) at ", Hex(l.smem_address));
}

std::string Legal(DescArch a, Major m, DescSwizzle s) {
  if (a == DescArch::kWgmma) {
    if (s == DescSwizzle::k128BAtom32B) return "not a wgmma layout";
    return m == Major::kK ? "f16, bf16, tf32, e4m3, e5m2, s8, u8 (K-major)" : "f16 and bf16 only";
  }
  if (s == DescSwizzle::k128BAtom32B) return m == Major::kK ? "no K-major layout" : "32-bit (tf32) only";
  return m == Major::kK ? "every type (4, 6, 8, 16 and 32-bit)" : "8- and 16-bit types (tf32 needs 128B_atom_32B)";
}

void Field(json::Writer* w, const BitField& f, uint64_t v) {
  w->BeginObject();
  w->Key("name").String(f.name).Key("lo").Uint(f.lo).Key("width").Uint(f.width).Key("encoded").Uint(v);
  if (f.unit_shift == 4) w->Key("bytes").Uint(v << 4);
  w->EndObject();
}

void Canonical(json::Writer* w, const CanonicalLayout& c) {
  w->BeginObject();
  w->Key("defined").Bool(c.defined).Key("cute_swizzle").String(c.cute_swizzle).Key("generic").String(c.generic);
  w->Key("instantiated").String(c.instantiated).Key("atom").String(c.atom);
  w->Key("lbo_meaning").String(c.lbo_meaning).Key("sbo_meaning").String(c.sbo_meaning);
  w->EndObject();
}

void Diagnostics(json::Writer* w, const std::vector<DescDiagnostic>& ds) {
  w->Key("diagnostics").BeginArray();
  for (const DescDiagnostic& d : ds) {
    w->BeginObject();
    w->Key("rule").String(d.rule).Key("severity").String(Name(d.severity)).Key("field").String(d.field);
    w->Key("message").String(d.message).Key("fix").String(d.fix).Key("source").String(d.source);
    w->EndObject();
  }
  w->EndArray();
}

std::string DiagnosticsText(const std::vector<DescDiagnostic>& ds, const DescValidation& v, const Colors& c) {
  if (ds.empty()) return "";
  std::string o = StrCat(c.bold(), "diagnostics", c.off(), " (", v.errors, " error", v.errors == 1 ? "" : "s", ", ",
                      v.warnings, " warning", v.warnings == 1 ? "" : "s", ", ", v.notes, " note", v.notes == 1 ? "" : "s",
                      ")\n");
  for (const DescDiagnostic& d : ds) {
    const char* col = d.severity == Severity::kError ? c.red() : d.severity == Severity::kWarning ? c.yellow() : c.blue();
    o += StrCat("  ", col, Name(d.severity), c.off(), " [", d.rule, "] ", d.field.empty() ? "" : d.field + ": ", d.message, "\n");
    o += StrCat("      fix: ", d.fix, "\n");
    o += StrCat(c.dim(), "      source: ", d.source, c.off(), "\n");
  }
  return o;
}

std::string Verdict(bool valid, const Colors& c) {
  return valid ? StrCat(c.green(), c.bold(), "VALID", c.off()) : StrCat(c.red(), c.bold(), "INVALID", c.off());
}

uint32_t KSlicesShown(const SmemDescReport& r) {
  const uint32_t n = r.facts.k_slices == 0 ? 1 : r.facts.k_slices;
  return n < 16 ? n : 16;
}

}  // namespace

// ---------------------------------------------------------------------------------------------- reports

SmemCheck MakeSmemCheck(const SmemDescReport& r) {
  SmemCheck c;
  c.desc = r.desc;
  c.user_value = r.user_value;
  if (r.has_layout) {
    c.layout = &r.layout;
    c.facts = &r.facts;
  }
  c.has_target = r.has_target;
  c.target = r.target;
  if (r.has_map) c.map = &r.map;
  if (r.has_advance) {
    c.advance = &r.advance;
    c.advance_is_sub_tile = r.advance_is_sub_tile;
    c.advance_k_slice = r.advance_k_slice;
    c.advance_mn = r.advance_mn;
    c.advance_k = r.advance_k;
  }
  return c;
}

void FinishSmemReport(SmemDescReport* r) {
  const SmemCheck c = MakeSmemCheck(*r);
  ValidateSmem(c, &r->validation);
}

void FinishIdescReport(IdescReport* r) { ValidateIdesc(r->check, &r->validation); }

std::vector<ChunkPlace> MmaPlacements(const SmemDescReport& r) {
  std::vector<ChunkPlace> out;
  if (!r.has_layout) return out;
  const ChunkGrid g = FirstSliceGrid(r.layout, r.facts);
  const uint32_t rows = std::min<uint32_t>(g.rows, 256), cols = std::min<uint32_t>(g.cols, 64);
  const uint64_t pitch = CeilDiv(r.layout.mn, 8) * r.desc.sbo_bytes();
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t col = 0; col < cols; ++col)
      out.push_back({row, col, MmaChunkAddress(r.desc, r.layout.major, r.layout.swizzle, pitch, row, col)});
  return out;
}

std::vector<ChunkPlace> TmaPlacements(const SmemDescReport& r) {
  std::vector<ChunkPlace> out;
  if (!r.has_map || r.map.inner_bytes == 0 || r.map.inner_bytes % 16 != 0 || r.map.interleaved) return out;
  const uint64_t cols64 = r.map.inner_bytes / 16 * r.map.slabs;
  const uint32_t rows = std::min<uint32_t>(r.map.rows, 256), cols = static_cast<uint32_t>(std::min<uint64_t>(cols64, 64));
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t col = 0; col < cols; ++col) out.push_back({row, col, TmaChunkAddress(r.map, row, col)});
  return out;
}

// ---------------------------------------------------------------------------------------------- drawing

namespace {

struct Cell {
  bool set = false;
  uint32_t row = 0, col = 0;
};
using Lines = std::map<uint64_t, std::array<Cell, 8>>;

void Place(const std::vector<ChunkPlace>& ps, Lines* lines) {
  for (const ChunkPlace& p : ps) {
    Cell& c = (*lines)[p.address >> 7][(p.address >> 4) & 7];
    c.set = true;
    c.row = p.row;
    c.col = p.col;
  }
}

std::string Label(const Cell& c) { return c.set ? StrCat(c.row, ".", c.col) : std::string("."); }

uint32_t CoreMatrixIndex(const SmemDescReport& r, uint32_t row, uint32_t col) {
  if (r.layout.major == Major::kK) return (row / 8) * 64 + col;
  return col * 64 + row / 8;
}

}  // namespace

std::string DrawText(const SmemDescReport& r) {
  if (!r.has_layout) return "  (no drawing: the tile is unknown; give the layout flags or --for-map)\n";
  const std::vector<ChunkPlace> mma = MmaPlacements(r);
  const std::vector<ChunkPlace> tma = TmaPlacements(r);
  Lines m, t;
  Place(mma, &m);
  Place(tma, &t);
  std::vector<uint64_t> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  for (const auto& kv : t)
    if (m.find(kv.first) == m.end()) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  const bool both = r.has_map;
  std::string o = StrCat("  16-byte chunks labelled row.col (row: ", r.layout.major == Major::kK ? "M/N row" : "K row",
                      "; col: 16-byte column along ", r.layout.major == Major::kK ? "K" : "M/N", "); '.' = not touched\n");
  o += StrCat("  ", Pad("address", 10), Pad("MMA reads (first K slice)", 8 * 7), both ? " | TMA wrote (whole box)" : "", "\n");
  int shown = 0, differ_total = 0;
  for (uint64_t key : keys) {
    const auto mi = m.find(key);
    const auto ti = t.find(key);
    std::string left, right;
    int differ = 0;
    for (int i = 0; i < 8; ++i) {
      const Cell mc = mi == m.end() ? Cell() : mi->second[static_cast<size_t>(i)];
      const Cell tc = ti == t.end() ? Cell() : ti->second[static_cast<size_t>(i)];
      left += Pad(Label(mc), 7);
      right += Pad(Label(tc), 7);
      if (both && mc.set && (!tc.set || tc.row != mc.row || tc.col != mc.col)) ++differ;
    }
    differ_total += differ;
    if (shown < r.max_lines) {
      o += StrCat("  ", Pad(Hex(key << 7), 10), left, both ? StrCat("| ", right) : std::string(),
               differ ? StrCat(" <- ", differ, " differ") : std::string(), "\n");
    }
    ++shown;
  }
  if (shown > r.max_lines) o += StrCat("  ... ", shown - r.max_lines, " more 128-byte lines (--max-lines)\n");
  if (both) {
    o += differ_total == 0 ? "  every chunk the MMA reads is where the TMA put it\n"
                           : StrCat("  ", differ_total, " chunk", differ_total == 1 ? " is" : "s are",
                                 " read from bytes that hold other data\n");
  }
  // Core matrices: the eight 16-byte rows of each.
  const ChunkGrid g = FirstSliceGrid(r.layout, r.facts);
  const uint64_t pitch = CeilDiv(r.layout.mn, 8) * r.desc.sbo_bytes();
  int listed = 0;
  o += "  core matrices (8 rows of 16 B each, first ones):\n";
  if (r.layout.major == Major::kK) {
    for (uint32_t i = 0; i * 8 < g.rows && listed < 8; ++i)
      for (uint32_t j = 0; j < g.cols && listed < 8; ++j, ++listed) {
        std::string rows;
        for (uint32_t t8 = 0; t8 < 8; ++t8)
          rows += StrCat(" ", Hex(MmaChunkAddress(r.desc, r.layout.major, r.layout.swizzle, pitch, i * 8 + t8, j)));
        o += StrCat("    rows ", i * 8, "-", i * 8 + 7, ", K column ", j, ":", rows, "\n");
      }
  } else {
    for (uint32_t j = 0; j * 8 < g.rows && listed < 8; ++j)
      for (uint32_t i = 0; i < g.cols && listed < 8; ++i, ++listed) {
        std::string rows;
        for (uint32_t t8 = 0; t8 < 8 && j * 8 + t8 < g.rows; ++t8)
          rows += StrCat(" ", Hex(MmaChunkAddress(r.desc, r.layout.major, r.layout.swizzle, pitch, j * 8 + t8, i)));
        o += StrCat("    K rows ", j * 8, "-", j * 8 + 7, ", M/N column ", i, ":", rows, "\n");
      }
  }
  return o;
}

std::string DrawSvg(const SmemDescReport& r) {
  const std::vector<ChunkPlace> mma = MmaPlacements(r);
  const std::vector<ChunkPlace> tma = TmaPlacements(r);
  Lines m, t;
  Place(mma, &m);
  Place(tma, &t);
  std::vector<uint64_t> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  for (const auto& kv : t)
    if (m.find(kv.first) == m.end()) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  const int lines = std::min<int>(static_cast<int>(keys.size()), std::max(1, r.max_lines) * 4);
  const int cw = 52, ch = 18, left = 84, top = 56, gap = 36;
  const bool both = r.has_map;
  const int panel = 8 * cw;
  const int width = left + panel + (both ? gap + panel : 0) + 16;
  const int height = top + lines * ch + 24;
  std::string o = StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", width, "\" height=\"", height,
                      "\" font-family=\"monospace\" font-size=\"11\">\n");
  o += StrCat("<rect width=\"", width, "\" height=\"", height, "\" fill=\"white\"/>\n");
  o += StrCat("<text x=\"8\" y=\"18\" font-size=\"13\">", Name(r.desc.arch()), " descriptor ", V64(r.desc.bits()),
           r.has_layout ? StrCat(": ", Name(r.layout.major), "-major ", Name(r.layout.type), ", ", Name(r.layout.swizzle)) : "",
           "</text>\n");
  o += StrCat("<text x=\"", left, "\" y=\"44\">MMA reads (first K slice)</text>\n");
  if (both) o += StrCat("<text x=\"", left + panel + gap, "\" y=\"44\">TMA wrote (whole box)</text>\n");
  auto cell = [&](int x, int y, const Cell& c, bool bad) {
    std::string s;
    if (!c.set) {
      s += StrCat("<rect x=\"", x, "\" y=\"", y, "\" width=\"", cw - 2, "\" height=\"", ch - 2,
               "\" fill=\"#f4f4f4\" stroke=\"#ddd\"/>\n");
      return s;
    }
    const uint32_t hue = (CoreMatrixIndex(r, c.row, c.col) * 47u) % 360u;
    s += StrCat("<rect x=\"", x, "\" y=\"", y, "\" width=\"", cw - 2, "\" height=\"", ch - 2, "\" fill=\"hsl(", hue,
             ",60%,82%)\" stroke=\"", bad ? "#d00" : "#888", "\" stroke-width=\"", bad ? 2 : 1, "\"/>\n");
    s += StrCat("<text x=\"", x + 4, "\" y=\"", y + ch - 6, "\">", c.row, ".", c.col, "</text>\n");
    return s;
  };
  for (int i = 0; i < lines; ++i) {
    const uint64_t key = keys[static_cast<size_t>(i)];
    const int y = top + i * ch;
    o += StrCat("<text x=\"8\" y=\"", y + ch - 6, "\">", Hex(key << 7), "</text>\n");
    const auto mi = m.find(key);
    const auto ti = t.find(key);
    for (int j = 0; j < 8; ++j) {
      const Cell mc = mi == m.end() ? Cell() : mi->second[static_cast<size_t>(j)];
      const Cell tc = ti == t.end() ? Cell() : ti->second[static_cast<size_t>(j)];
      const bool bad = both && mc.set && (!tc.set || tc.row != mc.row || tc.col != mc.col);
      o += cell(left + j * cw, y, mc, bad);
      if (both) o += cell(left + panel + gap + j * cw, y, tc, false);
    }
  }
  if (static_cast<int>(keys.size()) > lines)
    o += StrCat("<text x=\"8\" y=\"", top + lines * ch + 14, "\">... ", keys.size() - static_cast<size_t>(lines),
             " more lines</text>\n");
  o += "</svg>\n";
  return o;
}

// ---------------------------------------------------------------------------------------------- smem text

std::string RenderSmemText(const SmemDescReport& r, bool color) {
  const Colors c{color};
  const SmemDesc& d = r.desc;
  std::string o = StrCat(c.bold(), Name(d.arch()), " shared-memory descriptor ", V64(d.bits()), c.off(), " -- ",
                      Verdict(r.validation.valid, c), r.has_target ? StrCat(" for ", Name(r.target)) : "", "\n");
  o += Row("value", StrCat(V64(d.bits()), "  (hi ", V32(static_cast<uint32_t>(d.bits() >> 32)), ", lo ",
                        V32(static_cast<uint32_t>(d.bits())), ")"));
  o += StrCat(c.bold(), "fields", c.off(), "\n");
  int n = 0;
  const BitField* fs = DescFields(d.arch(), &n);
  for (int i = 0; i < n; ++i) {
    const uint64_t v = FieldGet(d.bits(), fs[i]);
    o += StrCat("  ", Pad(std::string(fs[i].name), 22), Pad(BitsText(fs[i]), 12), Pad(StrCat("= ", v), 10),
             SmemFieldMeaning(d, fs[i], v), "\n");
  }
  if (d.reserved_bits() != 0) o += Row("reserved bits set", Hex(d.reserved_bits()));
  DescSwizzle sw = DescSwizzle::kNone;
  const bool sw_ok = d.swizzle(&sw);
  if (r.has_layout) {
    const OperandLayout& l = r.layout;
    const LayoutFacts& f = r.facts;
    o += StrCat(c.bold(), "layout", c.off(), " (", LayoutTitle(l), ")\n");
    const uint32_t m = l.major == Major::kK ? l.mn / 8 : static_cast<uint32_t>(CeilDiv(f.contiguous_bytes, static_cast<uint64_t>(f.row_bytes)));
    const uint32_t k = l.major == Major::kK ? static_cast<uint32_t>(CeilDiv(f.kstep_bytes, 32)) : f.kstep_rows / static_cast<uint32_t>(f.atom_rows);
    const CanonicalLayout cl = DescribeCanonical(l.arch, l.major, sw_ok ? sw : l.swizzle, f.smem_bits, d.lbo_bytes(),
                                                 d.sbo_bytes(), m, k);
    o += Row("canonical layout", StrCat(cl.cute_swizzle, " o ", cl.generic));
    o += Row("this descriptor", StrCat(cl.cute_swizzle, " o ", cl.instantiated, "  (elements; one MMA K slice)"));
    o += Row("swizzle atom", cl.atom);
    o += Row("LBO", StrCat(d.lbo_bytes(), " B: ", cl.lbo_meaning));
    o += Row("SBO", StrCat(d.sbo_bytes(), " B: ", cl.sbo_meaning));
    o += Row("T", StrCat(f.t, " elements per 16 bytes (", f.smem_bits, " bits each in shared memory)"));
    o += Row("MMA K slice", l.major == Major::kK
                                ? StrCat(f.mma_k, " elements = ", f.kstep_bytes, " B of each row; ", f.k_slices, " slice",
                                      f.k_slices == 1 ? "" : "s", " in the tile")
                                : StrCat(f.mma_k, " K rows; ", f.k_slices, " slice", f.k_slices == 1 ? "" : "s", " in the tile"));
    o += Row("tile bytes", StrCat(f.footprint_bytes, " B (", f.slabs, " slab", f.slabs == 1 ? "" : "s", " of ", f.slab_bytes,
                               " B, ", f.row_bytes, " B rows)"));
    if (l.swizzle != DescSwizzle::kNone)
      o += Row("base offset", StrCat("(", Hex(l.smem_address), " % ", f.repeat_bytes, ") / 128 = ", f.base_offset));
    o += StrCat(c.bold(), "K slices", c.off(), " (descriptor of each MMA along K)\n");
    const uint32_t shown = KSlicesShown(r);
    for (uint32_t k2 = 0; k2 < shown; ++k2) {
      const Advance a = AdvanceKSlice(l, f, d, k2);
      o += StrCat("  k=", Pad(StrCat(k2), 4), "start ", Pad(Hex(a.start_bytes), 9), "(+", a.delta_bytes, " B)  base offset ",
               a.base_offset, "  ", V64(a.desc.bits()), a.aligned_16 ? "" : "  (not 16-byte aligned)", "\n");
    }
    if (f.k_slices > shown) o += StrCat("  ... ", f.k_slices - shown, " more\n");
  } else {
    o += StrCat(c.bold(), "layouts this value can describe", c.off(), " (give --major/--dtype/--tile for one)\n");
    for (int mj = 0; mj < 2; ++mj) {
      const Major major = static_cast<Major>(mj);
      const CanonicalLayout cl = DescribeCanonical(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone, 0, d.lbo_bytes(),
                                                   d.sbo_bytes(), 0, 0);
      o += StrCat("  ", Name(major), "-major: ", cl.defined ? StrCat(cl.cute_swizzle, " o ", cl.generic) : cl.generic, "\n");
      if (!cl.defined) continue;
      o += StrCat("    LBO ", d.lbo_bytes(), " B: ", cl.lbo_meaning, "\n");
      o += StrCat("    SBO ", d.sbo_bytes(), " B: ", cl.sbo_meaning, "\n");
      o += StrCat("    element types: ", Legal(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone), "\n");
    }
  }
  if (r.has_map) {
    const MapDerivation& md = r.map;
    o += StrCat(c.bold(), "tensor map", c.off(), r.map_source.empty() ? "" : StrCat(" (", r.map_source, ")"), "\n");
    o += Row("map", StrCat(Name(md.map.mode), " ", ShortName(md.map.data_type), ", swizzle ", ShortName(md.map.swizzle),
                        ", box rows of ", md.inner_bytes, " B x ", md.rows, " rows", md.slabs > 1 ? StrCat(" x ", md.slabs, " slabs") : ""));
    o += Row("destination", md.smem_known ? Hex(md.dst) : std::string("unknown (assumed 0x0, on the swizzle repeat)"));
    const std::string_view note = md.type_inferred ? TypeFromMapNote(md.map.data_type, md.use.arch) : std::string_view();
    o += Row("feeds", StrCat("operand ", Name(md.use.operand), ", ", Name(md.use.major), "-major, ", Name(md.layout.type),
                          !md.type_inferred ? "" : note.empty() ? " (from the map's data type)" : StrCat(" (", note, ")")));
    o += Row("matching descriptor", V64(md.desc.bits()));
    if (r.user_value) {
      const ChunkCompare cc = CompareChunks(md, d);
      if (cc.compared && d.start_bytes() == md.desc.start_bytes())
        o += Row("agreement", StrCat(cc.total - cc.mismatched, " of ", cc.total, " chunks of the first K slice read where written"));
    }
  }
  if (r.has_advance) {
    const Advance& a = r.advance;
    o += StrCat(c.bold(), r.advance_is_sub_tile ? StrCat("sub-tile (", r.advance_mn, ", ", r.advance_k, ")")
                                             : StrCat("K slice ", r.advance_k_slice), c.off(), "\n");
    o += Row("descriptor", V64(a.desc.bits()));
    o += Row("start", StrCat(Hex(a.start_bytes), " (+", a.delta_bytes, " B, +", a.delta_bytes / 16, " in 16-byte units)"));
    o += Row("base offset", StrCat(a.base_offset, a.base_offset_changed ? " (changed)" : ""));
  }
  const SmemCheck chk = MakeSmemCheck(r);
  DescContext ctx;
  ctx.smem = &chk;
  o += DiagnosticsText(MakeDescDiagnostics(ctx, r.validation), r.validation, c);
  if (r.draw) {
    o += StrCat(c.bold(), "drawing", c.off(), "\n");
    o += DrawText(r);
  }
  return o;
}

void WriteSmemJson(const SmemDescReport& r, json::Writer* w) {
  const SmemDesc& d = r.desc;
  w->BeginObject();
  w->Key("kind").String("smem_descriptor");
  w->Key("arch").String(Name(d.arch()));
  if (r.arch_guessed) w->Key("arch_guessed").Bool(true);
  w->Key("valid").Bool(r.validation.valid);
  w->Key("value").String(V64(d.bits()));
  if (r.has_target) w->Key("target").String(Name(r.target)); else w->Key("target").Null();
  w->Key("fields").BeginArray();
  int n = 0;
  const BitField* fs = DescFields(d.arch(), &n);
  for (int i = 0; i < n; ++i) Field(w, fs[i], FieldGet(d.bits(), fs[i]));
  w->EndArray();
  w->Key("reserved_bits").String(Hex(d.reserved_bits()));
  DescSwizzle sw = DescSwizzle::kNone;
  const bool sw_ok = d.swizzle(&sw);
  if (sw_ok) w->Key("swizzle").String(Name(sw)); else w->Key("swizzle").Null();
  if (r.has_layout) {
    const OperandLayout& l = r.layout;
    const LayoutFacts& f = r.facts;
    w->Key("layout").BeginObject();
    w->Key("operand").String(Name(l.operand)).Key("major").String(Name(l.major)).Key("dtype").String(Name(l.type));
    w->Key("padded").Bool(l.padded).Key("swizzle").String(Name(l.swizzle));
    w->Key("tile").BeginArray().Uint(l.mn).Uint(l.k).EndArray();
    w->Key("tile_order").String(l.operand == Operand::kA ? "M,K" : "N,K");  // --tile's order: (MN, K)
    w->Key("smem_address").String(Hex(l.smem_address));
    w->Key("smem_bits").Int(f.smem_bits).Key("t").Int(f.t).Key("row_bytes").Int(f.row_bytes);
    w->Key("repeat_bytes").Int(f.repeat_bytes).Key("base_offset").Int(f.base_offset);
    w->Key("lbo_bytes").Uint(f.lbo).Key("sbo_bytes").Uint(f.sbo);
    w->Key("canonical_lbo_bytes").Uint(f.canonical_lbo).Key("canonical_sbo_bytes").Uint(f.canonical_sbo);
    w->Key("lbo_used").Bool(f.lbo_used).Key("mma_k").Uint(f.mma_k).Key("k_slices").Uint(f.k_slices);
    w->Key("footprint_bytes").Uint(f.footprint_bytes);
    w->EndObject();
    const uint32_t m = l.major == Major::kK ? l.mn / 8 : static_cast<uint32_t>(CeilDiv(f.contiguous_bytes, static_cast<uint64_t>(f.row_bytes)));
    const uint32_t k = l.major == Major::kK ? static_cast<uint32_t>(CeilDiv(f.kstep_bytes, 32)) : f.kstep_rows / static_cast<uint32_t>(f.atom_rows);
    w->Key("canonical");
    Canonical(w, DescribeCanonical(l.arch, l.major, sw_ok ? sw : l.swizzle, f.smem_bits, d.lbo_bytes(), d.sbo_bytes(), m, k));
    w->Key("k_slices").BeginArray();
    for (uint32_t k2 = 0; k2 < KSlicesShown(r); ++k2) {
      const Advance a = AdvanceKSlice(l, f, d, k2);
      w->BeginObject().Key("k").Uint(k2).Key("value").String(V64(a.desc.bits())).Key("start").String(Hex(a.start_bytes));
      w->Key("delta_bytes").Int(a.delta_bytes).Key("base_offset").Uint(a.base_offset).EndObject();
    }
    w->EndArray();
  } else {
    w->Key("interpretations").BeginArray();
    for (int mj = 0; mj < 2; ++mj) {
      const Major major = static_cast<Major>(mj);
      w->BeginObject().Key("major").String(Name(major));
      w->Key("canonical");
      Canonical(w, DescribeCanonical(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone, 0, d.lbo_bytes(), d.sbo_bytes(), 0, 0));
      w->Key("element_types").String(Legal(d.arch(), major, sw_ok ? sw : DescSwizzle::kNone));
      w->EndObject();
    }
    w->EndArray();
  }
  if (r.has_map) {
    const MapDerivation& md = r.map;
    w->Key("map").BeginObject();
    if (!r.map_source.empty()) w->Key("source").String(r.map_source);
    w->Key("derived_value").String(V64(md.desc.bits()));
    w->Key("inner_bytes").Uint(md.inner_bytes).Key("rows").Uint(md.rows).Key("slabs").Uint(md.slabs);
    w->Key("destination").String(Hex(md.dst)).Key("destination_known").Bool(md.smem_known);
    w->Key("dtype").String(Name(md.layout.type)).Key("dtype_inferred").Bool(md.type_inferred);
    if (md.type_inferred && !TypeFromMapNote(md.map.data_type, md.use.arch).empty())
      w->Key("map_dtype").String(ShortName(md.map.data_type))
          .Key("dtype_note").String(TypeFromMapNote(md.map.data_type, md.use.arch));
    if (r.user_value) {
      const ChunkCompare cc = CompareChunks(md, d);
      w->Key("chunks_compared").Uint(cc.compared ? cc.total : 0).Key("chunks_mismatched").Uint(cc.mismatched);
    }
    w->EndObject();
  }
  if (r.has_advance) {
    const Advance& a = r.advance;
    w->Key("advance").BeginObject();
    if (r.advance_is_sub_tile) w->Key("sub_tile").BeginArray().Uint(r.advance_mn).Uint(r.advance_k).EndArray();
    else w->Key("k_slice").Uint(r.advance_k_slice);
    w->Key("value").String(V64(a.desc.bits())).Key("start").String(Hex(a.start_bytes));
    w->Key("delta_bytes").Int(a.delta_bytes).Key("base_offset").Uint(a.base_offset);
    w->Key("base_offset_changed").Bool(a.base_offset_changed).Key("aligned_16").Bool(a.aligned_16);
    w->EndObject();
  }
  w->Key("counts").BeginObject().Key("errors").Int(r.validation.errors).Key("warnings").Int(r.validation.warnings);
  w->Key("notes").Int(r.validation.notes).EndObject();
  const SmemCheck chk = MakeSmemCheck(r);
  DescContext ctx;
  ctx.smem = &chk;
  Diagnostics(w, MakeDescDiagnostics(ctx, r.validation));
  if (r.draw && r.has_layout) {
    w->Key("drawing").BeginObject();
    w->Key("mma").BeginArray();
    for (const ChunkPlace& p : MmaPlacements(r))
      w->BeginArray().Uint(p.row).Uint(p.col).String(Hex(p.address)).EndArray();
    w->EndArray();
    if (r.has_map) {
      w->Key("tma").BeginArray();
      for (const ChunkPlace& p : TmaPlacements(r))
        w->BeginArray().Uint(p.row).Uint(p.col).String(Hex(p.address)).EndArray();
      w->EndArray();
    }
    w->EndObject();
  }
  w->EndObject();
}

// ---------------------------------------------------------------------------------------------- idesc

namespace {

std::string IdescFieldMeaning(const IdescSpec& s, const BitField& f, uint32_t v) {
  const std::string_view n = f.name;
  ElemType t;
  if (n == "d_type") return v <= 2 ? std::string(Name(static_cast<DType>(v))) : "invalid";
  if (n == "a_type" || n == "b_type") return TypeFromCode(s.kind, v, &t) ? std::string(Name(t)) : "invalid for this kind";
  if (n == "n") return StrCat("N = ", v << 3);
  if (n == "m") return StrCat("M = ", v << f.unit_shift);
  if (n == "sparsity") return v ? "sparse" : "dense";
  if (n == "transpose_a" || n == "transpose_b") return v ? "MN-major (transposed)" : "K-major";
  if (n == "negate_a" || n == "negate_b") return v ? "negated" : "not negated";
  if (n == "max_shift") return v ? StrCat("maximum shift ", MaxShiftFromCode(v)) : "no shift";
  if (n == "scale_type") return v ? "ue8m0" : "ue4m3";
  if (n == "k") return v ? "K = 96 (sm_103a)" : "K = 64 dense / 128 sparse";
  if (n == "saturate") return v ? "saturate" : "no saturate";
  return StrCat(v);
}

std::string PtxLine(const IdescSpec& s) {
  const std::string base = StrCat("tcgen05.mma", s.ws ? ".ws" : "", s.sparse ? ".sp" : "", ".cta_group::", s.cta_group,
                               ".kind::", Name(s.kind));
  const std::string sp = s.sparse ? " [sp_meta_tmem]," : "";
  const char* a = s.a_tmem ? "[a_tmem]" : "a_desc";
  if (IsBlockScaled(s.kind))
    return StrCat(base, ".block_scale [d_tmem], ", a, ", b_desc,", sp, " idesc, [sfa_tmem], [sfb_tmem], enable_input_d;");
  return StrCat(base, " [d_tmem], ", a, ", b_desc,", sp, " idesc, enable_input_d;");
}

}  // namespace

std::string RenderIdescText(const IdescReport& r, bool color) {
  const Colors c{color};
  const IdescSpec& s = r.check.spec;
  const uint32_t v = r.check.fields.raw;
  std::string o = StrCat(c.bold(), "tcgen05 instruction descriptor ", V32(v), " (.kind::", Name(s.kind), ")", c.off(), " -- ",
                      Verdict(r.validation.valid, c), s.has_target ? StrCat(" for ", Name(s.target)) : "", "\n");
  o += StrCat(c.bold(), "fields", c.off(), "\n");
  int n = 0;
  const BitField* fs = IdescFieldTable(s.kind, &n);
  for (int i = 0; i < n; ++i) {
    const uint32_t fv = static_cast<uint32_t>(FieldGet(v, fs[i]));
    o += StrCat("  ", Pad(std::string(fs[i].name), 22), Pad(BitsText(fs[i]), 12), Pad(StrCat("= ", fv), 8),
             IdescFieldMeaning(s, fs[i], fv), "\n");
  }
  if (r.check.fields.reserved) o += Row("reserved bits set", Hex(r.check.fields.reserved));
  o += Row("form", FormText(s));
  o += Row("shape", StrCat("M = ", s.m, ", N = ", s.n, ", K = ", InstrK(s)));
  o += Row("valid M / N", StrCat("M in {", ValidMText(s), "}; N in ", ValidNText(s), " (", FormShapeText(s), ")"));
  o += Row("ptx", PtxLine(s));
  const DescContext ctx{nullptr, &r.check};
  o += DiagnosticsText(MakeDescDiagnostics(ctx, r.validation), r.validation, c);
  return o;
}

void WriteIdescJson(const IdescReport& r, json::Writer* w) {
  const IdescSpec& s = r.check.spec;
  const uint32_t v = r.check.fields.raw;
  w->BeginObject();
  w->Key("kind").String("instr_descriptor");
  w->Key("mma_kind").String(Name(s.kind));
  w->Key("valid").Bool(r.validation.valid);
  w->Key("value").String(V32(v));
  if (s.has_target) w->Key("target").String(Name(s.target)); else w->Key("target").Null();
  w->Key("fields").BeginArray();
  int n = 0;
  const BitField* fs = IdescFieldTable(s.kind, &n);
  for (int i = 0; i < n; ++i) Field(w, fs[i], FieldGet(v, fs[i]));
  w->EndArray();
  w->Key("reserved_bits").String(Hex(r.check.fields.reserved));
  w->Key("cta_group").Int(s.cta_group).Key("ws").Bool(s.ws).Key("sparse").Bool(s.sparse);
  w->Key("a_source").String(s.a_tmem ? "tmem" : "smem").Key("form").String(FormText(s));
  w->Key("m").Uint(s.m).Key("n").Uint(s.n).Key("k").Uint(InstrK(s));
  w->Key("a_type").String(Name(s.a_type)).Key("b_type").String(Name(s.b_type));
  w->Key("a_major").String(Name(s.a_major)).Key("b_major").String(Name(s.b_major));
  if (!IsBlockScaled(s.kind)) w->Key("d_type").String(Name(s.d_type));
  else w->Key("scale_type").String(Name(s.scale_type)).Key("a_sf_id").Uint(s.a_sf_id).Key("b_sf_id").Uint(s.b_sf_id);
  w->Key("valid_m").String(ValidMText(s)).Key("valid_n").String(ValidNText(s)).Key("valid_shapes").String(FormShapeText(s));
  w->Key("ptx").String(PtxLine(s));
  w->Key("counts").BeginObject().Key("errors").Int(r.validation.errors).Key("warnings").Int(r.validation.warnings);
  w->Key("notes").Int(r.validation.notes).EndObject();
  const DescContext ctx{nullptr, &r.check};
  Diagnostics(w, MakeDescDiagnostics(ctx, r.validation));
  w->EndObject();
}

namespace {
IdescReport ReportForKind(uint32_t value, const IdescSpec& context, MmaKind kind) {
  IdescReport r;
  IdescSpec ctx = context;
  ctx.kind = kind;
  r.check.fields = DecodeIdescFields(value, kind);
  r.check.spec = SpecFromFields(r.check.fields, ctx);
  r.check.user_value = true;
  FinishIdescReport(&r);
  return r;
}
}  // namespace

bool IdescValidForSomeKind(uint32_t value, const IdescSpec& context) {
  for (int k = 0; k < kNumMmaKinds; ++k)
    if (ReportForKind(value, context, static_cast<MmaKind>(k)).validation.valid) return true;
  return false;
}

std::string RenderIdescAllKindsText(uint32_t value, const IdescSpec& context, bool color) {
  const Colors c{color};
  std::string o = StrCat(c.bold(), "tcgen05 instruction descriptor ", V32(value), c.off(),
                      ": the layout depends on .kind; read as each kind (--kind K for the full decode):\n");
  for (int k = 0; k < kNumMmaKinds; ++k) {
    const IdescReport r = ReportForKind(value, context, static_cast<MmaKind>(k));
    const IdescSpec& s = r.check.spec;
    std::string first;
    if (!r.validation.valid) {
      const DescContext ctx{nullptr, &r.check};
      for (const DescDiagnostic& d : MakeDescDiagnostics(ctx, r.validation))
        if (d.severity == Severity::kError) { first = StrCat(": [", d.rule, "] ", d.message); break; }
    }
    ElemType at, bt;
    const std::string a = TypeFromCode(s.kind, r.check.fields.a_type, &at) ? std::string(Name(at))
                                                                           : StrCat("code ", r.check.fields.a_type);
    const std::string b = TypeFromCode(s.kind, r.check.fields.b_type, &bt) ? std::string(Name(bt))
                                                                           : StrCat("code ", r.check.fields.b_type);
    o += StrCat("  ", Pad(StrCat(".kind::", Name(s.kind)), 17), Verdict(r.validation.valid, c), "  M=", s.m, " N=", s.n, " K=",
             InstrK(s), " A=", a, " B=", b, first, "\n");
  }
  return o;
}

void WriteIdescAllKindsJson(uint32_t value, const IdescSpec& context, json::Writer* w) {
  w->BeginObject();
  w->Key("kind").String("instr_descriptor");
  w->Key("value").String(V32(value));
  w->Key("valid").Bool(IdescValidForSomeKind(value, context));
  w->Key("by_kind").BeginArray();
  for (int k = 0; k < kNumMmaKinds; ++k) {
    const IdescReport r = ReportForKind(value, context, static_cast<MmaKind>(k));
    WriteIdescJson(r, w);
  }
  w->EndArray();
  w->EndObject();
}

// ---------------------------------------------------------------------------------------------- pieces

std::string FieldMeaning(const SmemDesc& d, const BitField& f, uint64_t v) { return SmemFieldMeaning(d, f, v); }
std::string FieldMeaning(const IdescSpec& s, const BitField& f, uint32_t v) { return IdescFieldMeaning(s, f, v); }
std::string IdescPtx(const IdescSpec& s) { return PtxLine(s); }
uint32_t KSliceDescriptorsShown(const SmemDescReport& r) { return KSlicesShown(r); }
std::string LegalElementTypes(DescArch a, Major m, DescSwizzle s) { return Legal(a, m, s); }
CanonicalLayout ReportCanonical(const SmemDescReport& r) {
  const SmemDesc& d = r.desc;
  const OperandLayout& l = r.layout;
  const LayoutFacts& f = r.facts;
  DescSwizzle sw = DescSwizzle::kNone;
  const bool sw_ok = d.swizzle(&sw);
  const uint32_t m = l.major == Major::kK ? l.mn / 8 : static_cast<uint32_t>(CeilDiv(f.contiguous_bytes, static_cast<uint64_t>(f.row_bytes)));
  const uint32_t k = l.major == Major::kK ? static_cast<uint32_t>(CeilDiv(f.kstep_bytes, 32)) : f.kstep_rows / static_cast<uint32_t>(f.atom_rows);
  return DescribeCanonical(l.arch, l.major, sw_ok ? sw : l.swizzle, f.smem_bits, d.lbo_bytes(), d.sbo_bytes(), m, k);
}

}  // namespace tmapgen::desc
