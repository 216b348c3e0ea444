// py_desc.cc: tmapgen.wgmma_desc / tcgen05_desc / decode_desc / check_desc (shared-memory matrix
// descriptors) and tmapgen.idesc / decode_idesc (the tcgen05 instruction descriptor).
//
// Python arguments become the request values of src/desc/desc_request.h, which the command line
// (`tmapgen desc`, `tmapgen idesc`) and tmapd fill from their flags and messages; the same
// CheckMatrixRequest/RunMatrixRequest and renderers answer all three, so the text and JSON reports are
// the command line's. Malformed arguments raise SpecError naming the Python argument.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <charconv>
#include <optional>
#include <type_traits>

#include "python/ext/py_errors.h"
#include "python/ext/py_report.h"
#include "python/ext/py_spec.h"
#include "src/desc/desc_request.h"
#include "src/ops/descriptors.h"
#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
void BindDesc(nb::module_& m);

namespace {
using namespace tmapgen::desc;  // NOLINT

struct DescField {
  std::string name;
  int lo = 0, width = 0;
  uint64_t encoded = 0;
  std::optional<uint64_t> bytes;  // address and offset fields: encoded x 16
};

struct DescDiag {
  std::string rule, severity, field, message, fix, source;
};

struct PyDescReport {
  SmemDescReport r;
};

struct PyIdescReport {
  IdescResult r;
};

// ---- arguments ---------------------------------------------------------------------------------------

uint64_t U64Arg(nb::handle h, const char* name) {
  if (PyUnicode_Check(h.ptr())) {
    std::string s = nb::cast<std::string>(h);
    std::string_view d = s;
    int base = 10;
    if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) { d.remove_prefix(2); base = 16; }
    uint64_t v = 0;
    const auto r = std::from_chars(d.data(), d.data() + d.size(), v, base);
    if (d.empty() || r.ec != std::errc() || r.ptr != d.data() + d.size())
      ThrowSpec(name, StrCat("expected an unsigned integer (int, or \"0x...\" str) below 2^64, got \"", s, "\""));
    return v;
  }
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    ThrowSpec(name, StrCat("expected an unsigned integer, got ", Py_TYPE(h.ptr())->tp_name));
  nb::object v = nb::steal(PyNumber_Index(h.ptr()));
  if (!v.is_valid()) throw nb::python_error();
  const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
  if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    ThrowSpec(name, StrCat("expected an unsigned integer below 2^64, got ", nb::cast<std::string>(nb::repr(v))));
  }
  return u;
}

uint32_t U32Arg(nb::handle h, const char* name) {
  const uint64_t v = U64Arg(h, name);
  if (v > UINT32_MAX) ThrowSpec(name, StrCat(v, " is out of range (at most 4294967295)"));
  return static_cast<uint32_t>(v);
}

template <typename E>
E EnumArg(nb::handle h, const char* name) {
  if (!PyUnicode_Check(h.ptr())) ThrowSpec(name, StrCat("expected a name (str), got ", Py_TYPE(h.ptr())->tp_name));
  const std::string s = nb::cast<std::string>(h);
  E e{};
  if (Parse(s, &e)) return e;
  if constexpr (std::is_same_v<E, ElemType>) {
    const std::string why = RefusedElemType(s);  // a data-type name that is not one MMA type (fp8, u16)
    if (!why.empty()) ThrowSpec(name, why);
  }
  ThrowSpec(name, StrCat("unknown value \"", s, "\"; expected one of: ", AcceptedNames(static_cast<E*>(nullptr))));
  return e;
}

Target TargetArgOrThrow(nb::handle h) {
  Target t;
  TargetArg(h, &t);
  return t;
}

void PairArg(nb::handle h, const char* name, uint32_t* a, uint32_t* b) {
  nb::object seq = nb::steal(PySequence_Fast(h.ptr(), ""));
  if (!seq.is_valid() || PyUnicode_Check(h.ptr()) || PySequence_Fast_GET_SIZE(seq.ptr()) != 2) {
    PyErr_Clear();
    ThrowSpec(name, "expected two integers (MN, K)");
  }
  *a = U32Arg(nb::handle(PySequence_Fast_GET_ITEM(seq.ptr(), 0)), name);
  *b = U32Arg(nb::handle(PySequence_Fast_GET_ITEM(seq.ptr(), 1)), name);
}

// --a-source: "smem" (A through a_desc) or "tmem" (A in tensor memory, [a_tmem]).
bool ASourceArg(nb::handle h) {
  const std::string v = PyUnicode_Check(h.ptr()) ? nb::cast<std::string>(h) : std::string();
  if (v != "smem" && v != "tmem")
    ThrowSpec("a_source", StrCat("expected \"smem\" (A through a_desc) or \"tmem\" (A in tensor memory, [a_tmem]), got ",
                                 nb::cast<std::string>(nb::repr(h))));
  return v == "tmem";
}

// A request field name of CheckMatrixRequest's message -> the Python argument it came from.
std::string ArgForField(std::string_view f) {
  if (f == "family") return "arch";
  if (f == "map") return "for_map";
  if (f == "layout.swizzle") return "swizzle";
  if (f == "layout.tile") return "tile";
  if (f == "layout.smem_address") return "smem_address";
  if (f == "layout.base_offset") return "base_offset";
  if (f == "layout.lbo_absolute") return "lbo_mode";
  if (f == "layout") return "lbo/sbo/base_offset/lbo_mode";
  if (f == "advance") return "k_slice/sub_tile";
  if (f == "spec.cta_group") return "cta_group";
  if (f == "spec.sparse_selector") return "sparse_selector";
  if (f == "spec.k") return "k";
  if (f == "spec.kind") return "kind";
  return std::string(f);
}

void ThrowStatus(const absl::Status& st) {
  const std::string msg(st.message());
  const size_t colon = msg.find(": ");
  if (colon == std::string::npos) ThrowSpec("", msg);
  ThrowSpec(ArgForField(std::string_view(msg).substr(0, colon)), msg.substr(colon + 2));
}

struct LayoutArgs {
  nb::handle operand, major, dtype, padded, swizzle, tile, smem_address, lbo, sbo, base_offset, lbo_mode, mma_k,
      target, for_map, k_slice, sub_tile;
  bool draw = false;
  int max_lines = 32;
};

void FillLayout(const LayoutArgs& a, MatrixRequest* q) {
  OperandLayout& l = q->layout;
  if (!a.operand.is_none()) { l.operand = EnumArg<Operand>(a.operand, "operand"); q->layout_given = true; }
  if (!a.major.is_none()) { l.major = EnumArg<Major>(a.major, "major"); q->layout_given = true; }
  if (!a.dtype.is_none()) { l.type = EnumArg<ElemType>(a.dtype, "dtype"); q->has_type = q->layout_given = true; }
  if (a.padded.is_valid() && !a.padded.is_none() && nb::cast<bool>(a.padded)) { l.padded = true; q->layout_given = true; }
  if (a.swizzle.is_valid() && !a.swizzle.is_none()) { l.swizzle = EnumArg<DescSwizzle>(a.swizzle, "swizzle"); q->has_swizzle = true; }
  if (a.tile.is_valid() && !a.tile.is_none()) { PairArg(a.tile, "tile", &l.mn, &l.k); q->has_tile = q->layout_given = true; }
  if (a.smem_address.is_valid() && !a.smem_address.is_none()) { l.smem_address = U64Arg(a.smem_address, "smem_address"); q->has_smem_address = true; }
  if (a.lbo.is_valid() && !a.lbo.is_none()) { l.lbo = U64Arg(a.lbo, "lbo"); l.has_lbo = true; }
  if (a.sbo.is_valid() && !a.sbo.is_none()) { l.sbo = U64Arg(a.sbo, "sbo"); l.has_sbo = true; }
  if (a.base_offset.is_valid() && !a.base_offset.is_none()) { l.base_offset = U32Arg(a.base_offset, "base_offset"); l.has_base_offset = true; }
  if (a.lbo_mode.is_valid() && !a.lbo_mode.is_none()) {
    const std::string v = PyUnicode_Check(a.lbo_mode.ptr()) ? nb::cast<std::string>(a.lbo_mode) : std::string("?");
    if (v == "absolute") l.lbo_absolute = true;
    else if (v != "relative") ThrowSpec("lbo_mode", StrCat("expected \"relative\" or \"absolute\", got ", nb::cast<std::string>(nb::repr(a.lbo_mode))));
  }
  if (a.mma_k.is_valid() && !a.mma_k.is_none()) l.mma_k = U32Arg(a.mma_k, "mma_k");
  if (a.target.is_valid() && !a.target.is_none()) { q->target = TargetArgOrThrow(a.target); q->has_target = true; }
  if (a.for_map.is_valid() && !a.for_map.is_none()) {
    q->map = SpecFromObject(a.for_map, "for_map").spec;
    q->has_map = true;
    q->map_source = "for_map";
  }
  const bool ks = a.k_slice.is_valid() && !a.k_slice.is_none(), st = a.sub_tile.is_valid() && !a.sub_tile.is_none();
  if (ks && st) ThrowSpec("k_slice", "give k_slice or sub_tile, not both");
  if (ks) { q->advance = AdvanceKind::kKSlice; q->k_slice = U32Arg(a.k_slice, "k_slice"); }
  if (st) { q->advance = AdvanceKind::kSubTile; PairArg(a.sub_tile, "sub_tile", &q->sub_mn, &q->sub_k); }
  q->draw = a.draw;
  q->max_lines = a.max_lines;
}

PyDescReport Run(const MatrixRequest& q) {
  absl::StatusOr<SmemDescReport> r = ops::RunMatrixDescriptor(q);
  if (!r.ok()) ThrowStatus(r.status());
  PyDescReport out;
  out.r = *std::move(r);
  return out;
}

PyIdescReport RunIdesc(const IdescRequest& q) {
  absl::StatusOr<IdescResult> r = ops::RunInstructionDescriptor(q);
  if (!r.ok()) ThrowStatus(r.status());
  PyIdescReport out;
  out.r = *std::move(r);
  return out;
}

std::vector<DescField> SmemFields(const SmemDesc& d) {
  int n = 0;
  const BitField* f = DescFields(d.arch(), &n);
  std::vector<DescField> out;
  for (int i = 0; i < n; ++i) {
    DescField& x = out.emplace_back();
    x.name = std::string(f[i].name);
    x.lo = f[i].lo;
    x.width = f[i].width;
    x.encoded = FieldGet(d.bits(), f[i]);
    if (f[i].unit_shift == 4) x.bytes = x.encoded << 4;
  }
  return out;
}

std::vector<DescField> IdescFieldList(const IdescResult& r) {
  std::vector<DescField> out;
  if (r.all_kinds) return out;
  int n = 0;
  const BitField* f = IdescFieldTable(r.report.check.spec.kind, &n);
  for (int i = 0; i < n; ++i) {
    DescField& x = out.emplace_back();
    x.name = std::string(f[i].name);
    x.lo = f[i].lo;
    x.width = f[i].width;
    x.encoded = FieldGet(r.value, f[i]);
  }
  return out;
}

std::vector<DescDiag> Diags(const DescContext& ctx, const DescValidation& v, std::string_view sev = {}) {
  std::vector<DescDiag> out;
  for (const DescDiagnostic& d : MakeDescDiagnostics(ctx, v)) {
    if (!sev.empty() && Name(d.severity) != sev) continue;
    out.push_back(DescDiag{d.rule, std::string(Name(d.severity)), d.field, d.message, d.fix, d.source});
  }
  return out;
}

std::vector<DescDiag> SmemDiags(const PyDescReport& p, std::string_view sev = {}) {
  const SmemCheck c = MakeSmemCheck(p.r);
  DescContext ctx;
  ctx.smem = &c;
  return Diags(ctx, p.r.validation, sev);
}

std::vector<DescDiag> IdescDiags(const PyIdescReport& p, std::string_view sev = {}) {
  if (p.r.all_kinds) return {};
  DescContext ctx;
  ctx.idesc = &p.r.report.check;
  return Diags(ctx, p.r.report.validation, sev);
}

nb::object Loads(const std::string& s) { return nb::module_::import_("json").attr("loads")(s); }

nb::dict Counts(const DescValidation& v) {
  nb::dict d;
  d["errors"] = v.errors;
  d["warnings"] = v.warnings;
  d["notes"] = v.notes;
  return d;
}

std::string Strip(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

const char* kLayoutArgsDoc =
    "Layout arguments (the command line's `tmapgen desc` flags):\n"
    "  operand     \"A\" or \"B\" (default A)\n"
    "  major       \"K\" or \"MN\": the contiguous dimension (default K)\n"
    "  dtype       f16 bf16 tf32 e4m3 e5m2 e2m3 e3m2 e2m1 s8 u8 (default bf16, or the map's)\n"
    "  padded      e2m1 stored one value per byte (16U4_ALIGN16B)\n"
    "  swizzle     none 32B 64B 128B 128B_atom_32B (default 128B, or the map's)\n"
    "  tile        (MN, K) in elements (default 128 x one swizzle row of K)\n"
    "  smem_address  the tile's shared-memory address (default 0)\n"
    "  lbo, sbo, base_offset  your own values (default: the dense tile's, as TMA writes it)\n"
    "  mma_k       K of one MMA in elements (default 32 bytes' worth)\n"
    "  target      sm_90a, sm_100a, ... (checks the family and target-only features)\n"
    "  for_map     the tensor map (TensorMapSpec or dict) that fills the tile: the descriptor is derived\n"
    "              from its box and swizzle\n"
    "  k_slice / sub_tile  the descriptor of the k-th MMA K slice, or of the sub-tile at (MN, K)\n"
    "  draw, max_lines     include the drawing of where each 16-byte chunk is read (DescReport.drawing())\n";

const char* kDescReportDoc =
    "A shared-memory matrix descriptor (wgmma or tcgen05) and everything checked about it: `value`, every\n"
    "bit field (`fields`), the layout it denotes, and diagnostics (rule ids of docs/descriptors.md).\n"
    "str() is the command line's text report, to_json() its JSON (`tmapgen desc ... --format json`).";

const char* kIdescReportDoc =
    "A tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2): the 32-bit `value`, its fields and diagnostics.\n"
    "From decode_idesc without a kind, the value is read as every kind: `all_kinds` is True, `valid` says\n"
    "whether some kind accepts it and to_dict()[\"by_kind\"] lists each. str() and to_json() are the command\n"
    "line's (`tmapgen idesc ...`).";

}  // namespace

void BindDesc(nb::module_& m) {
  nb::class_<DescField>(m, "DescField", "One bit field of a descriptor.")
      .def_ro("name", &DescField::name)
      .def_ro("lo", &DescField::lo, "First bit.")
      .def_ro("width", &DescField::width, "Bits.")
      .def_ro("encoded", &DescField::encoded, "The field's value as encoded.")
      .def_ro("bytes", &DescField::bytes, "Address and offset fields: the bytes (encoded x 16); else None.")
      .def("__repr__", [](const DescField& f) {
        return StrCat("<DescField ", f.name, " [", f.lo, ":", f.lo + f.width - 1, "] = ", f.encoded,
                      f.bytes ? StrCat(" (", *f.bytes, " B)") : std::string(), ">");
      });
  nb::class_<DescDiag>(m, "DescDiagnostic",
                       "One finding about a descriptor: rule (docs/descriptors.md), severity, field, message, fix, source.")
      .def_ro("rule", &DescDiag::rule)
      .def_ro("severity", &DescDiag::severity)
      .def_ro("field", &DescDiag::field)
      .def_ro("message", &DescDiag::message)
      .def_ro("fix", &DescDiag::fix)
      .def_ro("source", &DescDiag::source)
      .def("__repr__", [](const DescDiag& d) { return StrCat("<DescDiagnostic ", d.severity, " [", d.rule, "] ", d.message, ">"); });

  nb::class_<PyDescReport> c(m, "DescReport", kDescReportDoc);
  c.def_prop_ro("valid", [](const PyDescReport& p) { return p.r.validation.valid; }, "No error finding.");
  c.def_prop_ro("value", [](const PyDescReport& p) { return p.r.desc.bits(); }, "The 64-bit descriptor.");
  c.def_prop_ro("arch", [](const PyDescReport& p) { return std::string(Name(p.r.desc.arch())); }, "\"wgmma\" or \"tcgen05\".");
  c.def_prop_ro("arch_guessed", [](const PyDescReport& p) { return p.r.arch_guessed; },
                "decode_desc without arch: the family was read from bits 46-48 (0b001: tcgen05).");
  c.def_prop_ro("target", [](const PyDescReport& p) -> nb::object {
    if (!p.r.has_target) return nb::none();
    return nb::str(std::string(Name(p.r.target)).c_str());
  }, nb::sig("def target(self) -> str | None"));
  c.def_prop_ro("fields", [](const PyDescReport& p) { return SmemFields(p.r.desc); }, "Every bit field, in bit order.");
  c.def_prop_ro("start_address", [](const PyDescReport& p) { return p.r.desc.start_bytes(); }, "Bytes.");
  c.def_prop_ro("lbo", [](const PyDescReport& p) { return p.r.desc.lbo_bytes(); }, "Leading-dimension byte offset (bytes).");
  c.def_prop_ro("sbo", [](const PyDescReport& p) { return p.r.desc.sbo_bytes(); }, "Stride-dimension byte offset (bytes).");
  c.def_prop_ro("base_offset", [](const PyDescReport& p) { return p.r.desc.base_offset(); });
  c.def_prop_ro("layout_type", [](const PyDescReport& p) { return p.r.desc.layout_type(); }, "The raw layout-type field.");
  c.def_prop_ro("swizzle", [](const PyDescReport& p) -> nb::object {
    DescSwizzle s;
    if (!p.r.desc.swizzle(&s)) return nb::none();
    return nb::str(std::string(Name(s)).c_str());
  }, nb::sig("def swizzle(self) -> str | None"), "The swizzle the layout-type field names (None when undefined).");
  c.def_prop_ro("advanced_value", [](const PyDescReport& p) -> nb::object {
    if (!p.r.has_advance) return nb::none();
    return nb::int_(p.r.advance.desc.bits());
  }, nb::sig("def advanced_value(self) -> int | None"), "With k_slice/sub_tile: the advanced descriptor; else None.");
  c.def_prop_ro("has_tile", [](const PyDescReport& p) { return p.r.has_layout; }, "The report describes a tile (drawings need one).");
  c.def_prop_ro("diagnostics", [](const PyDescReport& p) { return SmemDiags(p); });
  c.def_prop_ro("errors", [](const PyDescReport& p) { return SmemDiags(p, "error"); });
  c.def_prop_ro("warnings", [](const PyDescReport& p) { return SmemDiags(p, "warning"); });
  c.def_prop_ro("notes", [](const PyDescReport& p) { return SmemDiags(p, "note"); });
  c.def_prop_ro("counts", [](const PyDescReport& p) { return Counts(p.r.validation); }, nb::sig("def counts(self) -> dict[str, int]"));
  c.def("to_json", [](const PyDescReport& p) { return Strip(RenderMatrixReport(p.r, true, false)); },
        "The JSON report of `tmapgen desc ... --format json` (docs/descriptors.md).");
  c.def("to_dict", [](const PyDescReport& p) { return Loads(RenderMatrixReport(p.r, true, false)); },
        nb::sig("def to_dict(self) -> dict[str, object]"),
        "json.loads(self.to_json()): layout facts, k slices, the map comparison, ...");
  c.def("text", [](const PyDescReport& p, bool color) { return RenderMatrixReport(p.r, false, color); }, nb::arg("color") = false);
  c.def("drawing", [](const PyDescReport& p) {
    if (!p.r.has_layout) ThrowSpec("tile", "a drawing needs the tile (layout arguments, tile or for_map)");
    return DrawText(p.r);
  }, "Text drawing: which shared-memory bytes each 16-byte chunk is read from (and where the map put them).");
  c.def("svg", [](const PyDescReport& p) {
    if (!p.r.has_layout) ThrowSpec("tile", "a drawing needs the tile (layout arguments, tile or for_map)");
    return DrawSvg(p.r);
  }, "The drawing as an SVG document.");
  c.def("__str__", [](const PyDescReport& p) { return RenderMatrixReport(p.r, false, false); });
  c.def("__repr__", [](const PyDescReport& p) { return RenderMatrixReport(p.r, false, false); });
  c.def("__int__", [](const PyDescReport& p) { return p.r.desc.bits(); });
  c.def("__index__", [](const PyDescReport& p) { return p.r.desc.bits(); });

  nb::class_<PyIdescReport> ic(m, "IdescReport", kIdescReportDoc);
  ic.def_prop_ro("valid", [](const PyIdescReport& p) { return p.r.valid; });
  ic.def_prop_ro("value", [](const PyIdescReport& p) { return p.r.value; }, "The 32-bit descriptor.");
  ic.def_prop_ro("all_kinds", [](const PyIdescReport& p) { return p.r.all_kinds; });
  ic.def_prop_ro("kind", [](const PyIdescReport& p) -> nb::object {
    if (p.r.all_kinds) return nb::none();
    return nb::str(std::string(Name(p.r.report.check.spec.kind)).c_str());
  }, nb::sig("def kind(self) -> str | None"), "The MMA kind, or None (all_kinds).");
  ic.def_prop_ro("m", [](const PyIdescReport& p) -> nb::object {
    if (p.r.all_kinds) return nb::none();
    return nb::int_(p.r.report.check.spec.m);
  }, nb::sig("def m(self) -> int | None"));
  ic.def_prop_ro("n", [](const PyIdescReport& p) -> nb::object {
    if (p.r.all_kinds) return nb::none();
    return nb::int_(p.r.report.check.spec.n);
  }, nb::sig("def n(self) -> int | None"));
  ic.def_prop_ro("k", [](const PyIdescReport& p) -> nb::object {
    if (p.r.all_kinds) return nb::none();
    return nb::int_(InstrK(p.r.report.check.spec));
  }, nb::sig("def k(self) -> int | None"), "K of one instruction (PTX ISA Table 39).");
  ic.def_prop_ro("fields", [](const PyIdescReport& p) { return IdescFieldList(p.r); }, "Every bit field of the kind ([] for all_kinds).");
  ic.def_prop_ro("diagnostics", [](const PyIdescReport& p) { return IdescDiags(p); });
  ic.def_prop_ro("errors", [](const PyIdescReport& p) { return IdescDiags(p, "error"); });
  ic.def_prop_ro("warnings", [](const PyIdescReport& p) { return IdescDiags(p, "warning"); });
  ic.def_prop_ro("notes", [](const PyIdescReport& p) { return IdescDiags(p, "note"); });
  ic.def("to_json", [](const PyIdescReport& p) { return Strip(RenderIdescResult(p.r, true, false)); },
         "The JSON report of `tmapgen idesc ... --format json`.");
  ic.def("to_dict", [](const PyIdescReport& p) { return Loads(RenderIdescResult(p.r, true, false)); },
         nb::sig("def to_dict(self) -> dict[str, object]"));
  ic.def("text", [](const PyIdescReport& p, bool color) { return RenderIdescResult(p.r, false, color); }, nb::arg("color") = false);
  ic.def("__str__", [](const PyIdescReport& p) { return RenderIdescResult(p.r, false, false); });
  ic.def("__repr__", [](const PyIdescReport& p) { return RenderIdescResult(p.r, false, false); });
  ic.def("__int__", [](const PyIdescReport& p) { return p.r.value; });
  ic.def("__index__", [](const PyIdescReport& p) { return p.r.value; });

  auto smem_builder = [](DescArch arch) {
    return [arch](nb::handle operand, nb::handle major, nb::handle dtype, bool padded, nb::handle swizzle, nb::handle tile,
                  nb::handle smem_address, nb::handle lbo, nb::handle sbo, nb::handle base_offset, nb::handle lbo_mode,
                  nb::handle mma_k, nb::handle target, nb::handle for_map, nb::handle k_slice, nb::handle sub_tile, bool draw,
                  int max_lines) {
      MatrixRequest q;
      q.has_arch = true;
      q.arch = arch;
      LayoutArgs a{operand, major, dtype, nb::bool_(padded), swizzle, tile, smem_address, lbo, sbo, base_offset, lbo_mode,
                   mma_k, target, for_map, k_slice, sub_tile, draw, max_lines};
      FillLayout(a, &q);
      q.op = q.has_map ? MatrixOp::kDerive : MatrixOp::kBuild;
      return Run(q);
    };
  };
  m.def("wgmma_desc", smem_builder(DescArch::kWgmma), nb::kw_only(), nb::arg("operand").none() = nb::none(),
        nb::arg("major").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("padded") = false, nb::arg("swizzle").none() = nb::none(),
        nb::arg("tile").none() = nb::none(), nb::arg("smem_address").none() = nb::none(), nb::arg("lbo").none() = nb::none(),
        nb::arg("sbo").none() = nb::none(), nb::arg("base_offset").none() = nb::none(), nb::arg("lbo_mode").none() = nb::none(),
        nb::arg("mma_k").none() = nb::none(), nb::arg("target").none() = nb::none(), nb::arg("for_map").none() = nb::none(),
        nb::arg("k_slice").none() = nb::none(), nb::arg("sub_tile").none() = nb::none(), nb::arg("draw") = false, nb::arg("max_lines") = 32,
        nb::sig("def wgmma_desc(*, operand: str | None = None, major: str | None = None, dtype: str | None = None, "
                "padded: bool = False, swizzle: str | None = None, tile: tuple[int, int] | None = None, "
                "smem_address: int | None = None, lbo: int | None = None, sbo: int | None = None, "
                "base_offset: int | None = None, lbo_mode: str | None = None, mma_k: int | None = None, "
                "target: str | None = None, for_map: TensorMapSpec | dict[str, object] | None = None, "
                "k_slice: int | None = None, sub_tile: tuple[int, int] | None = None, draw: bool = False, "
                "max_lines: int = 32) -> DescReport"),
        (std::string("The wgmma (sm_90a) shared-memory matrix descriptor of a tile, or of the tile a tensor map\n"
                     "fills (for_map): `tmapgen desc wgmma`. Returns a DescReport (int(report) is the value).\n\n") +
         kLayoutArgsDoc).c_str());
  m.def("tcgen05_desc", smem_builder(DescArch::kTcgen05), nb::kw_only(), nb::arg("operand").none() = nb::none(),
        nb::arg("major").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("padded") = false, nb::arg("swizzle").none() = nb::none(),
        nb::arg("tile").none() = nb::none(), nb::arg("smem_address").none() = nb::none(), nb::arg("lbo").none() = nb::none(),
        nb::arg("sbo").none() = nb::none(), nb::arg("base_offset").none() = nb::none(), nb::arg("lbo_mode").none() = nb::none(),
        nb::arg("mma_k").none() = nb::none(), nb::arg("target").none() = nb::none(), nb::arg("for_map").none() = nb::none(),
        nb::arg("k_slice").none() = nb::none(), nb::arg("sub_tile").none() = nb::none(), nb::arg("draw") = false, nb::arg("max_lines") = 32,
        nb::sig("def tcgen05_desc(*, operand: str | None = None, major: str | None = None, dtype: str | None = None, "
                "padded: bool = False, swizzle: str | None = None, tile: tuple[int, int] | None = None, "
                "smem_address: int | None = None, lbo: int | None = None, sbo: int | None = None, "
                "base_offset: int | None = None, lbo_mode: typing.Literal['relative', 'absolute'] | None = None, "
                "mma_k: int | None = None, target: str | None = None, "
                "for_map: TensorMapSpec | dict[str, object] | None = None, k_slice: int | None = None, "
                "sub_tile: tuple[int, int] | None = None, draw: bool = False, max_lines: int = 32) -> DescReport"),
        (std::string("The tcgen05 (sm_100a family) shared-memory matrix descriptor of a tile, or of the tile a\n"
                     "tensor map fills (for_map): `tmapgen desc tcgen05`. lbo_mode=\"absolute\" is the leading-dimension\n"
                     "absolute-address mode (sm_103a; lbo is then an address). Returns a DescReport.\n\n") +
         kLayoutArgsDoc).c_str());
  m.def(
      "decode_desc",
      [](nb::handle value, nb::handle arch, nb::handle operand, nb::handle major, nb::handle dtype, bool padded, nb::handle tile,
         nb::handle smem_address, nb::handle mma_k, nb::handle target, nb::handle for_map, nb::handle k_slice,
         nb::handle sub_tile, bool draw, int max_lines) {
        MatrixRequest q;
        q.op = MatrixOp::kDecode;
        q.value = U64Arg(value, "value");
        q.has_arch = !arch.is_none();
        if (q.has_arch) q.arch = EnumArg<DescArch>(arch, "arch");
        LayoutArgs a{operand, major, dtype, nb::bool_(padded), nb::none(), tile, smem_address, nb::none(), nb::none(), nb::none(),
                     nb::none(), mma_k, target, for_map, k_slice, sub_tile, draw, max_lines};
        FillLayout(a, &q);
        return Run(q);
      },
      nb::arg("value"), nb::kw_only(), nb::arg("arch").none() = nb::none(), nb::arg("operand").none() = nb::none(),
      nb::arg("major").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("padded") = false, nb::arg("tile").none() = nb::none(),
      nb::arg("smem_address").none() = nb::none(), nb::arg("mma_k").none() = nb::none(), nb::arg("target").none() = nb::none(),
      nb::arg("for_map").none() = nb::none(), nb::arg("k_slice").none() = nb::none(), nb::arg("sub_tile").none() = nb::none(),
      nb::arg("draw") = false, nb::arg("max_lines") = 32,
      nb::sig("def decode_desc(value: int | str, *, arch: typing.Literal['wgmma', 'tcgen05'] | None = None, "
              "operand: str | None = None, major: str | None = None, dtype: str | None = None, padded: bool = False, "
              "tile: tuple[int, int] | None = None, smem_address: int | None = None, mma_k: int | None = None, "
              "target: str | None = None, for_map: TensorMapSpec | dict[str, object] | None = None, "
              "k_slice: int | None = None, sub_tile: tuple[int, int] | None = None, draw: bool = False, "
              "max_lines: int = 32) -> DescReport"),
      "Every field of a shared-memory descriptor value and what is wrong with it: `tmapgen desc decode`.\n\n"
      "`arch` is the family (default: tcgen05 when bits 46-48 are 0b001, else wgmma; arch_guessed says so).\n"
      "With the tile it reads (tile=(MN, K) plus major/dtype/operand) the value is checked against that\n"
      "tile; with for_map, against the tile the map fills (smem_address then overrides the map's).");
  m.def(
      "check_desc",
      [](nb::handle value, nb::handle for_map, nb::handle arch, nb::handle operand, nb::handle major, nb::handle dtype,
         nb::handle smem_address, nb::handle mma_k, nb::handle target, bool draw, int max_lines) {
        if (for_map.is_none()) ThrowSpec("for_map", "check_desc compares a value with the tile a tensor map fills: give the map");
        MatrixRequest q;
        q.value = U64Arg(value, "value");
        q.has_arch = !arch.is_none();
        if (q.has_arch) q.arch = EnumArg<DescArch>(arch, "arch");
        q.op = q.has_arch ? MatrixOp::kCheck : MatrixOp::kDecode;
        LayoutArgs a{operand, major, dtype, nb::none(), nb::none(), nb::none(), smem_address, nb::none(), nb::none(), nb::none(),
                     nb::none(), mma_k, target, for_map, nb::none(), nb::none(), draw, max_lines};
        FillLayout(a, &q);
        return Run(q);
      },
      nb::arg("value"), nb::arg("for_map").none(), nb::kw_only(), nb::arg("arch").none() = nb::none(), nb::arg("operand").none() = nb::none(),
      nb::arg("major").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("smem_address").none() = nb::none(),
      nb::arg("mma_k").none() = nb::none(), nb::arg("target").none() = nb::none(), nb::arg("draw") = false, nb::arg("max_lines") = 32,
      nb::sig("def check_desc(value: int | str, for_map: TensorMapSpec | dict[str, object], *, "
              "arch: typing.Literal['wgmma', 'tcgen05'] | None = None, operand: str | None = None, "
              "major: str | None = None, dtype: str | None = None, smem_address: int | None = None, "
              "mma_k: int | None = None, target: str | None = None, draw: bool = False, max_lines: int = 32) -> DescReport"),
      "Every disagreement of a descriptor value with the tensor map that fills its tile, 16 bytes at a time:\n"
      "`tmapgen desc wgmma|tcgen05 --for-map SPEC --check VALUE` (with arch), or `tmapgen desc decode VALUE\n"
      "--for-map SPEC` (without: the family is read from bits 46-48). valid=False when they disagree.");

  m.def(
      "idesc",
      [](nb::handle kind, uint32_t m_, uint32_t n, nb::handle k, nb::handle a_type, nb::handle b_type, nb::handle d_type,
         nb::handle a_major, nb::handle b_major, bool negate_a, bool negate_b, bool sparse, uint32_t sparse_selector,
         bool saturate, int cta_group, bool ws, nb::handle a_source, uint32_t max_shift, nb::handle scale_type,
         uint32_t a_sf_id, uint32_t b_sf_id, nb::handle target) {
        IdescRequest q;
        IdescSpec& s = q.spec;
        if (!kind.is_none()) s.kind = EnumArg<MmaKind>(kind, "kind");
        s.a_type = s.b_type = DefaultOperandType(s.kind);
        s.d_type = DefaultAccumulator(s.kind);
        s.m = m_;
        s.n = n;
        if (!a_type.is_none()) s.a_type = EnumArg<ElemType>(a_type, "a_type");
        if (!b_type.is_none()) s.b_type = EnumArg<ElemType>(b_type, "b_type");
        if (!d_type.is_none()) {
          const std::string v = PyUnicode_Check(d_type.ptr()) ? nb::cast<std::string>(d_type) : "";
          if (!Parse(v, &s.d_type)) ThrowSpec("d_type", StrCat("expected \"f16\", \"f32\" or \"s32\", got ", nb::cast<std::string>(nb::repr(d_type))));
        }
        if (!a_major.is_none()) s.a_major = EnumArg<Major>(a_major, "a_major");
        if (!b_major.is_none()) s.b_major = EnumArg<Major>(b_major, "b_major");
        s.negate_a = negate_a;
        s.negate_b = negate_b;
        s.sparse = sparse;
        s.sparse_selector = sparse_selector;
        s.saturate = saturate;
        s.cta_group = cta_group;
        s.ws = ws;
        s.a_tmem = ASourceArg(a_source);
        s.max_shift = max_shift;
        if (!scale_type.is_none()) {
          const std::string v = PyUnicode_Check(scale_type.ptr()) ? nb::cast<std::string>(scale_type) : "";
          if (!Parse(v, &s.scale_type)) ThrowSpec("scale_type", StrCat("expected \"ue8m0\" or \"ue4m3\", got ", nb::cast<std::string>(nb::repr(scale_type))));
        }
        s.a_sf_id = a_sf_id;
        s.b_sf_id = b_sf_id;
        if (!target.is_none()) { s.target = TargetArgOrThrow(target); s.has_target = true; }
        if (!k.is_none()) {
          const uint32_t kv = U32Arg(k, "k");
          if (kv == 96 && (s.kind == MmaKind::kMxf4 || s.kind == MmaKind::kMxf4nvf4)) s.k96 = true;
          else if (kv != InstrK(s))
            ThrowSpec("k", StrCat(".kind::", Name(s.kind), s.sparse ? " (sparse)" : "", " has K = ", InstrK(s),
                                  "; only .kind::mxf4/.kind::mxf4nvf4 can choose K = 96"));
        }
        return RunIdesc(q);
      },
      nb::kw_only(), nb::arg("kind") = "f16", nb::arg("m") = 128, nb::arg("n") = 256, nb::arg("k").none() = nb::none(),
      nb::arg("a_type").none() = nb::none(), nb::arg("b_type").none() = nb::none(), nb::arg("d_type").none() = nb::none(),
      nb::arg("a_major").none() = nb::none(), nb::arg("b_major").none() = nb::none(), nb::arg("negate_a") = false,
      nb::arg("negate_b") = false, nb::arg("sparse") = false, nb::arg("sparse_selector") = 0, nb::arg("saturate") = false,
      nb::arg("cta_group") = 1, nb::arg("ws") = false, nb::arg("a_source") = "smem", nb::arg("max_shift") = 0,
      nb::arg("scale_type").none() = nb::none(),
      nb::arg("a_sf_id") = 0, nb::arg("b_sf_id") = 0, nb::arg("target").none() = nb::none(),
      nb::sig("def idesc(*, kind: str = 'f16', m: int = 128, n: int = 256, k: int | None = None, "
              "a_type: str | None = None, b_type: str | None = None, d_type: str | None = None, "
              "a_major: str | None = None, b_major: str | None = None, negate_a: bool = False, negate_b: bool = False, "
              "sparse: bool = False, sparse_selector: int = 0, saturate: bool = False, cta_group: int = 1, "
              "ws: bool = False, a_source: typing.Literal['smem', 'tmem'] = 'smem', max_shift: int = 0, scale_type: str | None = None, a_sf_id: int = 0, b_sf_id: int = 0, "
              "target: str | None = None) -> IdescReport"),
      "The 32-bit tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44): `tmapgen idesc`.\n\n"
      "kind: f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4; m, n: the shape; k only to choose K = 96 (mxf4 kinds);\n"
      "a_type/b_type default to the kind's first type (bf16, tf32, e4m3, s8, e2m1), d_type to f32 (s32 for i8);\n"
      "a_major/b_major \"MN\" = transposed; sparse (K doubles) with sparse_selector 0..3; saturate (i8);\n"
      "cta_group 1 or 2; ws with max_shift 0/8/16/32; a_source \"tmem\" when A is read from tensor memory\n"
      "([a_tmem]: the valid shapes depend on it); scale_type ue8m0/ue4m3 and a_sf_id/b_sf_id 0..3 for the\n"
      "block-scaled kinds; target sm_100a, sm_103a, ...");
  m.def(
      "decode_idesc",
      [](nb::handle value, nb::handle kind, int cta_group, bool ws, nb::handle a_source, nb::handle target) {
        IdescRequest q;
        q.decode = true;
        const uint64_t v = U64Arg(value, "value");
        if (v > UINT32_MAX) ThrowSpec("value", "the instruction descriptor has 32 bits");
        q.value = static_cast<uint32_t>(v);
        q.kind_given = !kind.is_none();
        if (q.kind_given) q.spec.kind = EnumArg<MmaKind>(kind, "kind");
        q.spec.cta_group = cta_group;
        q.spec.ws = ws;
        q.spec.a_tmem = ASourceArg(a_source);
        if (!target.is_none()) { q.spec.target = TargetArgOrThrow(target); q.spec.has_target = true; }
        return RunIdesc(q);
      },
      nb::arg("value"), nb::kw_only(), nb::arg("kind").none() = nb::none(), nb::arg("cta_group") = 1, nb::arg("ws") = false,
      nb::arg("a_source") = "smem", nb::arg("target").none() = nb::none(),
      nb::sig("def decode_idesc(value: int | str, *, kind: str | None = None, cta_group: int = 1, ws: bool = False, "
              "a_source: typing.Literal['smem', 'tmem'] = 'smem', target: str | None = None) -> IdescReport"),
      "Every field of a tcgen05 instruction descriptor and what is wrong with it: `tmapgen idesc decode`.\n"
      "Without `kind` the value is read as every kind (all_kinds=True).");
}

}  // namespace tmapgen::py
