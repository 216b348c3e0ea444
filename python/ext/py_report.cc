#include "python/ext/py_report.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <variant>

#include "python/ext/py_errors.h"
#include "python/ext/py_spec.h"
#include "src/json/json_writer.h"
#include "src/ops/validate.h"
#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
namespace {

struct PyDiagnostic {
  std::string rule, severity, field, message, fix, source;
  std::optional<std::string> target;
  std::variant<int64_t, uint64_t> value = int64_t{0};  // uint64_t for dims, strides, byte counts (2^63 and up)
  int64_t limit = 0;
  std::optional<size_t> line, column;
};

std::vector<PyDiagnostic> Diagnostics(const Result& r) {
  std::vector<PyDiagnostic> out;
  if (r.input_error) {
    PyDiagnostic& d = out.emplace_back();
    d.rule = "input-error";
    d.severity = "error";
    d.field = r.input_error->field;
    d.message = r.input_error->message;
    d.fix = "correct the input; docs/schema.md describes every field";
    d.source = "tmapgen spec schema (docs/schema.md)";
    if (r.input_error->line != 0) {
      d.line = r.input_error->line;
      d.column = r.input_error->column;
    }
    return out;
  }
  Validation v;
  ToValidation(r, &v);
  for (const Diagnostic& x : MakeDiagnostics(r.spec, v)) {
    PyDiagnostic& d = out.emplace_back();
    d.rule = std::string(x.rule);
    d.severity = std::string(Name(x.severity));
    d.field = x.field;
    d.message = x.message;
    d.fix = x.fix;
    d.source = std::string(x.source);
    if (!x.target.empty()) d.target = std::string(x.target);
    if (x.value_unsigned) d.value = static_cast<uint64_t>(x.value); else d.value = x.value;
    d.limit = x.limit;
  }
  return out;
}

std::vector<PyDiagnostic> OfSeverity(const Result& r, std::string_view sev) {
  std::vector<PyDiagnostic> all = Diagnostics(r), out;
  for (PyDiagnostic& d : all)
    if (d.severity == sev) out.push_back(std::move(d));
  return out;
}

// Reports of input errors have no spec: asking for what only a spec has is an error naming the input's.
const Result& NeedSpec(const Result& r) {
  if (r.input_error) throw SpecFailure(r.input_error->field, StrCat("this report is an input error: ", r.input_error->message));
  return r;
}

std::vector<std::string> TargetNames(uint32_t mask) {
  std::vector<std::string> out;
  for (int t = 0; t < kNumTargets; ++t)
    if (mask & (1u << t)) out.emplace_back(Name(static_cast<Target>(t)));
  return out;
}

nb::object JsonLoads(const std::string& s) { return nb::module_::import_("json").attr("loads")(s); }

std::string ResultJson(const Result& r) {
  json::Writer w;
  std::string out;
  AppendResultJson(r, &w, &out);
  return out;
}

const char* kReportDoc =
    "What tmapgen says about one spec: the verdict, every finding with its fix, and the facts a kernel\n"
    "needs (bytes per copy and how the copy completes, shared-memory footprint and alignment, swizzle repeat,\n"
    "PTX forms, targets).\n\n"
    "str(report) is the command line's text report; to_json() its JSON report (docs/json-report.md).\n"
    "A Report is never an error: an invalid spec gives valid=False and its diagnostics.";

const char* kDiagDoc =
    "One finding: the rule it breaks (`rule`, a stable id: docs/rules.md), `severity` (error, warning,\n"
    "note), the `field` it is about, what is wrong (`message`), how to fix it (`fix`), where the rule is\n"
    "documented (`source`), and the offending `value` and the `limit` it broke, as the rule defines them.";

}  // namespace

void ValidateInto(const TensorMapSpec& spec, bool has_target, Target target, int index, Result* out) {
  // Python's target= replaces the spec's own; there is no GPU here (no default target, no encoding).
  ops::ValidateRequest req;
  req.has_target = has_target;
  req.target = target;
  req.replace_target = true;
  req.use_gpu = false;
  thread_local ops::ValidateResult res;
  ops::RunValidate(req, ops::NoGpu(), spec, &res).IgnoreError();  // never fails (src/ops/validate.h)
  out->spec = res.spec();
  const Validation& v = res.validation;
  out->findings.assign(v.findings.begin(), v.findings.end());
  out->dropped = v.findings.dropped();
  out->valid = v.valid;
  out->valid_targets = v.valid_targets;
  out->reported_target = v.reported_target;
  out->failed_targets = v.failed_targets;
  out->errors = v.errors;
  out->warnings = v.warnings;
  out->notes = v.notes;
  out->index = index;
  out->input_error.reset();
}

Result InputErrorResult(const InputError& e, int index) {
  Result r;
  r.index = index;
  r.input_error = std::make_shared<const InputError>(e);
  return r;
}

DerivedFacts Facts(const Result& r) {
  DerivedFacts f = ComputeDerivedFacts(r.spec);
  f.valid_targets = r.valid_targets;
  return f;
}

void ToValidation(const Result& r, Validation* v) {
  v->facts = Facts(r);
  v->findings.Clear();
  for (const Finding& f : r.findings) {
    if (f.value_unsigned) v->findings.AddU(f.rule, f.index, f.uvalue(), f.limit, static_cast<Target>(f.target));
    else v->findings.Add(f.rule, f.index, f.value, f.limit, static_cast<Target>(f.target));
  }
  v->valid = r.valid;
  v->valid_targets = r.valid_targets;
  v->reported_target = r.reported_target;
  v->failed_targets = r.failed_targets;
  v->errors = r.errors;
  v->warnings = r.warnings;
  v->notes = r.notes;
}

void AppendResultJson(const Result& r, json::Writer* w, std::string* out) {
  w->Clear();
  if (r.input_error) {
    WriteInputErrorJson(r.index, *r.input_error, w);
    *out += w->str();
    return;
  }
  Validation v;
  ToValidation(r, &v);
  WriteReportJson(r.index, r.spec, v, Encoding{}, ReportOptions{}, w);
  if (!r.origin || r.origin->empty()) {
    *out += w->str();
    return;
  }
  // The report object is complete; the origin is one more member before its closing brace.
  const std::string& s = w->str();
  out->append(s.data(), s.size() - 1);
  *out += ",\"origin\":[";
  for (size_t i = 0; i < r.origin->size(); ++i) {
    if (i) *out += ",";
    json::Writer::AppendQuoted((*r.origin)[i], out);
  }
  *out += "]}";
}

std::string ResultText(const Result& r, bool color) {
  if (r.input_error) return RenderInputErrorText(r.index, "", *r.input_error, color);
  Validation v;
  ToValidation(r, &v);
  ReportOptions opt;
  opt.color = color;
  std::string text = RenderReportText(r.index, r.spec, v, Encoding{}, opt);
  if (r.origin && !r.origin->empty()) {
    std::string rows;
    for (const std::string& line : *r.origin) rows += StrCat("  origin                ", line, "\n");
    const size_t nl = text.find('\n');
    text.insert(nl == std::string::npos ? text.size() : nl + 1, rows);
  }
  return text;
}

bool TargetArg(nb::handle target, Target* out) {
  if (target.is_none()) return false;
  if (!PyUnicode_Check(target.ptr()))
    ThrowSpec("target", StrCat("expected a target name (str) such as \"sm_90a\", got ", Py_TYPE(target.ptr())->tp_name));
  const std::string t = nb::cast<std::string>(target);
  if (!Parse(t, out))
    ThrowSpec("target", StrCat("unknown value \"", t, "\"; expected one of: ", AcceptedNames(static_cast<Target*>(nullptr))));
  return true;
}

void BindReport(nb::module_& m) {
  nb::class_<PyDiagnostic>(m, "Diagnostic", kDiagDoc)
      .def_ro("rule", &PyDiagnostic::rule, "The rule's stable id (docs/rules.md), or \"input-error\".")
      .def_ro("severity", &PyDiagnostic::severity, "\"error\", \"warning\" or \"note\".")
      .def_ro("field", &PyDiagnostic::field, "The field the finding is about (\"box_dim[1]\"), or \"\".")
      .def_ro("message", &PyDiagnostic::message, "What is wrong and why, with the values.")
      .def_ro("fix", &PyDiagnostic::fix, "The nearest valid value or another configuration that works.")
      .def_ro("source", &PyDiagnostic::source, "Where the rule is documented (cuda.h, PTX ISA section, measurement).")
      .def_ro("target", &PyDiagnostic::target, "For per-target rules: the target the finding is about; else None.")
      .def_ro("value", &PyDiagnostic::value, "The offending value, as the rule defines it (docs/rules.md).")
      .def_ro("limit", &PyDiagnostic::limit, "The limit it broke, as the rule defines it.")
      .def_ro("line", &PyDiagnostic::line, "Input errors of JSON text: the 1-based line; else None.")
      .def_ro("column", &PyDiagnostic::column, "Input errors of JSON text: the 1-based column; else None.")
      .def("__repr__", [](const PyDiagnostic& d) {
        return StrCat("<Diagnostic ", d.severity, " [", d.rule, "] ", d.field.empty() ? std::string() : d.field + ": ", d.message, ">");
      })
      .def("__str__", [](const PyDiagnostic& d) {
        return StrCat(d.severity, " [", d.rule, "] ", d.field.empty() ? std::string() : d.field + ": ", d.message, "\n    fix: ", d.fix,
                      "\n    source: ", d.source);
      });

  nb::class_<Result> c(m, "Report", kReportDoc);
  c.def_prop_ro("valid", [](const Result& r) { return r.valid; },
                "True when the spec is valid for its target (or, without a target, for at least one target):\n"
                "the driver accepts the map and the hardware can execute the declared use.");
  c.def_prop_ro("index", [](const Result& r) { return r.index; }, "Position in the input (0 for validate()).");
  c.def_prop_ro("is_input_error", [](const Result& r) { return static_cast<bool>(r.input_error); },
                "True for a bulk input entry that could not be read as a spec (validate_many(on_error=\"report\")).");
  c.def_prop_ro("diagnostics", &Diagnostics, "Every finding, errors first, then warnings, then notes.");
  c.def_prop_ro("errors", [](const Result& r) { return OfSeverity(r, "error"); }, "The error diagnostics.");
  c.def_prop_ro("warnings", [](const Result& r) { return OfSeverity(r, "warning"); }, "The warning diagnostics.");
  c.def_prop_ro("notes", [](const Result& r) { return OfSeverity(r, "note"); }, "The note diagnostics.");
  c.def_prop_ro("counts",
                [](const Result& r) {
                  nb::dict d;
                  d["errors"] = r.input_error ? 1 : r.errors;
                  d["warnings"] = r.warnings;
                  d["notes"] = r.notes;
                  return d;
                },
                nb::sig("def counts(self) -> dict[str, int]"), "{\"errors\": n, \"warnings\": n, \"notes\": n}.");
  c.def_prop_ro("spec",
                [](const Result& r) {
                  NeedSpec(r);
                  PySpec p;
                  p.spec = r.spec;
                  if (r.origin) p.origin = *r.origin;
                  return p;
                },
                "The spec that was validated (with the target validate() was given).");
  c.def_prop_ro("origin", [](const Result& r) { return r.origin ? *r.origin : std::vector<std::string>(); },
                "The spec's origin lines (for_tensor: protocol and dtype mapping); [] otherwise.");
  c.def_prop_ro("target",
                [](const Result& r) -> nb::object {
                  if (r.input_error || !r.spec.has_target()) return nb::none();
                  return nb::str(std::string(Name(r.spec.target)).c_str());
                },
                nb::sig("def target(self) -> str | None"), "The target the verdict is for, or None (every target tried).");
  c.def_prop_ro("reported_target", [](const Result& r) { return std::string(Name(NeedSpec(r).reported_target)); },
                "The target whose per-target findings are shown (the spec's, or without one the first valid target,\n"
                "or the one with the fewest errors).");
  c.def_prop_ro("valid_targets", [](const Result& r) { return TargetNames(r.input_error ? 0 : r.valid_targets); },
                "Targets for which the spec is valid, in order (sm_90, sm_90a, sm_100, ...).");
  c.def_prop_ro("min_target",
                [](const Result& r) -> nb::object {
                  Target t;
                  if (r.input_error || !LowestValidTarget(r.spec, r.valid_targets, &t)) return nb::none();
                  return nb::str(std::string(Name(t)).c_str());
                },
                nb::sig("def min_target(self) -> str | None"),
                "The lowest target on which the map is valid, whatever target was asked (valid_targets names\n"
                "only the asked one), or None when no target accepts it.");

  // Derived facts (src/tmap/derived_facts.h; the "derived" object of the JSON report).
  c.def_prop_ro("encoder", [](const Result& r) { return std::string(Name(Facts(NeedSpec(r)).encoder)); },
                "cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col or cuTensorMapEncodeIm2colWide.");
  c.def_prop_ro("element_bits", [](const Result& r) { return Facts(NeedSpec(r)).element_bits; }, "Bits per element in global memory.");
  c.def_prop_ro("smem_element_bits", [](const Result& r) { return Facts(NeedSpec(r)).smem_element_bits; },
                "Bits per element in shared memory (8 for the padded 16U4/16U6_ALIGN16B types).");
  c.def_prop_ro("inner_box_bytes", [](const Result& r) { return Facts(NeedSpec(r)).inner_box_bytes; },
                "Bytes of the innermost box dimension (box_dim[0], or channels_per_pixel for im2col) in shared memory.");
  c.def_prop_ro("elements_per_copy", [](const Result& r) { return Facts(NeedSpec(r)).elements_per_copy; });
  c.def_prop_ro("bytes_per_copy", [](const Result& r) { return Facts(NeedSpec(r)).bytes_per_copy; },
                "Bytes of tensor data one copy moves, in every direction: what a load writes into shared memory, what\n"
                "a store or reduction reads from shared memory into global memory, what a prefetch brings into L2.");
  c.def_prop_ro("transaction_bytes", [](const Result& r) { return Facts(NeedSpec(r)).transaction_bytes; },
                "The mbarrier complete_tx count of a load (arm the mbarrier with it: mbarrier.arrive.expect_tx).\n"
                "0 for store, reduce and prefetch, which signal no mbarrier (see completion and bytes_per_copy).");
  c.def_prop_ro("completion",
                [](const Result& r) { return std::string(Name(CompletionOf(NeedSpec(r).spec.direction))); },
                "How a copy completes: \"mbarrier::complete_tx::bytes\" (load, load_cluster), \"bulk_group\" (store,\n"
                "reduce: cp.async.bulk.commit_group / wait_group.read) or \"none\" (prefetch).");
  c.def_prop_ro("smem_role", [](const Result& r) { return std::string(Name(SmemRoleOf(NeedSpec(r).spec.direction))); },
                "What shared memory is to the copy: \"destination\" (loads), \"source\" (store, reduce), \"none\" (prefetch).");
  c.def_prop_ro("bytes_per_halo_pixel",
                [](const Result& r) -> nb::object {
                  const DerivedFacts f = Facts(NeedSpec(r));
                  return f.halo_adds_bytes ? nb::object(nb::int_(f.bytes_per_halo_pixel)) : nb::none();
                },
                nb::sig("def bytes_per_halo_pixel(self) -> int | None"),
                "im2col::w modes: bytes each halo pixel (wHalo, an instruction operand) adds to a copy; else None.");
  c.def_prop_ro("smem_bytes", [](const Result& r) { return Facts(NeedSpec(r)).smem_footprint_bytes; },
                "Shared memory one copy occupies (the footprint), bytes: the destination of a load, the source of\n"
                "a store or reduction; 0 for a prefetch.");
  c.def_prop_ro("smem_footprint_bytes", [](const Result& r) { return Facts(NeedSpec(r)).smem_footprint_bytes; }, "Same as smem_bytes.");
  c.def_prop_ro("smem_row_pitch", [](const Result& r) { return Facts(NeedSpec(r)).smem_row_pitch; },
                "Bytes from one box row to the next in shared memory.");
  c.def_prop_ro("coord0_multiple", [](const Result& r) { return Facts(NeedSpec(r)).coord0_multiple; },
                "The copy's dimension-0 coordinate must be a multiple of this many elements, or it faults.");
  // One name per meaning, as in the JSON report and generated code: a bare smem_alignment once meant the
  // required value here and the recommended one in codegen. Reading it fails, naming the two.
  c.def_prop_ro(
      "smem_alignment",
      [](const Result&) -> nb::object {
        throw nb::attribute_error(
            "Report.smem_alignment was removed because it meant two things: use smem_alignment_required (the "
            "hardware minimum for the copy's shared-memory address, 128 bytes) or smem_alignment_recommended "
            "(the swizzle repeat: a tile there has swizzle phase 0 and a matrix descriptor with base offset 0)");
      },
      nb::sig("def smem_alignment(self) -> typing.NoReturn"),
      "Removed: raises AttributeError naming smem_alignment_required and smem_alignment_recommended.");
  c.def_prop_ro("smem_alignment_required", [](const Result& r) { return Facts(NeedSpec(r)).smem_alignment_required; },
                "Alignment the shared-memory address of a copy requires, bytes: 128, the hardware minimum\n"
                "(PTX ISA, cp.async.bulk.tensor). A tile aligned only to this may have a non-zero swizzle phase.");
  c.def_prop_ro("smem_alignment_recommended", [](const Result& r) { return Facts(NeedSpec(r)).smem_alignment_recommended; },
                "Alignment to give a swizzled tile, bytes: the swizzle repeat (1024 for SWIZZLE_128B), at least 128.\n"
                "There the swizzle phase is 0 and a wgmma/tcgen05 matrix descriptor's base offset is 0 (PTX ISA,\n"
                "matrix descriptor).");
  c.def_prop_ro("swizzle_span", [](const Result& r) { return Facts(NeedSpec(r)).swizzle_span; }, "Swizzle span in bytes (0 for none).");
  c.def_prop_ro("swizzle_repeat", [](const Result& r) { return Facts(NeedSpec(r)).swizzle_repeat; },
                "Bytes after which the swizzle pattern repeats (0 for none).");
  c.def_prop_ro("swizzle_atomicity", [](const Result& r) { return Facts(NeedSpec(r)).swizzle_atomicity; },
                "Bytes the swizzle keeps together (16, or 32/64 for the 128B atom swizzles).");
  c.def_prop_ro("swizzle_base_offset",
                [](const Result& r) -> nb::object {
                  const DerivedFacts f = Facts(NeedSpec(r));
                  return f.swizzle_base_offset >= 0 ? nb::object(nb::int_(f.swizzle_base_offset)) : nb::none();
                },
                nb::sig("def swizzle_base_offset(self) -> int | None"),
                "With smem_address: (address / 128) % (repeat / 128), the descriptor's base offset; else None.");
  c.def_prop_ro("global_extent_bytes", [](const Result& r) { return Facts(NeedSpec(r)).global_extent_bytes; },
                "Bytes of global memory the tensor spans.");
  c.def_prop_ro("ptx", [](const Result& r) { return PtxForms(NeedSpec(r).spec); },
                "The PTX instructions the map works with in its declared direction.");
  c.def_prop_ro("host_code", [](const Result& r) { return HostEncodeSnippet(NeedSpec(r).spec); },
                "C++ for the host: the cuTensorMapEncode* call with these exact parameters.");
  c.def_prop_ro("derived", [](const Result& r) { return JsonLoads(ResultJson(NeedSpec(r))).attr("__getitem__")("derived"); },
                nb::sig("def derived(self) -> dict[str, object]"), "Every derived fact as a dict (the JSON report's \"derived\").");

  c.def("nearest_valid",
        [](const Result& r) -> nb::object {
          const Result& x = NeedSpec(r);
          PySpec p;
          if (x.origin) p.origin = *x.origin;
          if (x.valid) {
            p.spec = x.spec;
            return nb::cast(p);
          }
          if (!NearestValid(x.spec, &p.spec)) return nb::none();
          return nb::cast(p);
        },
        nb::sig("def nearest_valid(self) -> TensorMapSpec | None"),
        "The closest spec that validates, made by applying the rules' automatic fixes (the spec itself when it\n"
        "is valid), or None when the remaining errors have no automatic fix.");
  c.def("nearest_valid_changes",
        [](const Result& r) {
          const Result& x = NeedSpec(r);
          TensorMapSpec fixed;
          if (x.valid || !NearestValid(x.spec, &fixed)) return std::vector<std::string>();
          return DescribeChanges(x.spec, fixed);
        },
        "What nearest_valid() changes, one \"field: old -> new\" line each ([] when valid or not repairable).");
  c.def("to_json", &ResultJson,
        "The JSON report, exactly as `tmapgen validate --format json --no-gpu` prints it for this spec and index\n"
        "(docs/json-report.md), plus \"origin\" for specs from for_tensor.");
  c.def("to_dict", [](const Result& r) { return JsonLoads(ResultJson(r)); },
        nb::sig("def to_dict(self) -> dict[str, object]"), "json.loads(self.to_json()).");
  c.def("text", [](const Result& r, bool color) { return ResultText(r, color); }, nb::arg("color") = false,
        "The text report; color=True adds ANSI colors as on a terminal.");
  c.def("__str__", [](const Result& r) { return ResultText(r, false); });
  c.def("__repr__", [](const Result& r) { return ResultText(r, false); });
  c.def("__copy__", [](const Result& r) { return r; });
  c.def("__deepcopy__", [](const Result& r, nb::handle) { return r; }, nb::arg("memo"));

  m.def(
      "validate",
      [](nb::handle spec, nb::handle target, nb::kwargs fields) {
        Target t = Target::kSm90a;
        const bool has_t = TargetArg(target, &t);
        Result r;
        PySpec* p = nullptr;
        if (PyDict_Size(fields.ptr()) == 0 && nb::try_cast<PySpec*>(spec, p) && p != nullptr) {
          ValidateInto(p->spec, has_t, t, 0, &r);
          if (!p->origin.empty()) r.origin = std::make_shared<const std::vector<std::string>>(p->origin);
          return r;
        }
        PySpec s;
        if (!spec.is_none() && !PyDict_Check(spec.ptr())) {
          PySpec base = SpecFromObject(spec);
          s = SpecFromMapping(ExplicitFields(base.spec), fields);
          s.origin = base.origin;
        } else {
          s = SpecFromMapping(spec, fields);
        }
        ValidateInto(s.spec, has_t, t, 0, &r);
        if (!s.origin.empty()) r.origin = std::make_shared<const std::vector<std::string>>(std::move(s.origin));
        return r;
      },
      nb::arg("spec").none() = nb::none(), nb::arg("target").none() = nb::none(), nb::arg("fields"),
      nb::sig("def validate(spec: TensorMapSpec | dict[str, object] | None = None, /, target: str | None = None, "
              "**fields: object) -> Report"),
      "Validates one tensor map against every rule and returns its Report.\n\n"
      "`spec` is a TensorMapSpec or a dict of fields; keyword arguments give the fields directly or replace\n"
      "those of `spec` (the names of TensorMapSpec). `target` (\"sm_90a\", \"sm_100a\", ...) is the target the\n"
      "verdict is for, like any other field: it replaces the spec's own; None keeps the spec's, or tries\n"
      "every target when it has none. (The command line's --target only fills in specs without one.)\n\n"
      "A malformed spec raises SpecError naming the field; an invalid one returns a Report with valid=False.\n\n"
      "    >>> r = tmapgen.validate(dtype=\"f32\", global_dim=[1024, 1024], box_dim=[64, 64], swizzle=\"128B\")\n"
      "    >>> r.valid, r.errors[0].rule\n"
      "    (False, 'swizzle-inner-span')\n");
}

}  // namespace tmapgen::py
