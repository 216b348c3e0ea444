// py_bulk.cc: tmapgen.validate_many and tmapgen.ReportList.
//
// JSON Lines bytes are parsed and validated by the command line's own pieces (the JSON Lines splitter and
// ParseSpecJson, then Validate) with the GIL released; an iterable of specs is read with the GIL held
// (it is made of Python objects) and validated with it released. The results stay in one C++ vector;
// a ReportList hands out Report objects only when they are asked for.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <vector>

#include "python/ext/py_errors.h"
#include "python/ext/py_report.h"
#include "python/ext/py_spec.h"
#include "src/json/json_reader.h"
#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
void BindBulk(nb::module_& m);

namespace {

struct ReportList {
  std::shared_ptr<std::vector<Result>> results = std::make_shared<std::vector<Result>>();
  size_t valid = 0, input_errors = 0;
};

enum class OnError { kRaise, kReport };

OnError ParseOnError(const std::string& s) {
  if (s == "raise") return OnError::kRaise;
  if (s == "report") return OnError::kReport;
  throw nb::value_error(StrCat("on_error: expected \"raise\" or \"report\", got \"", s, "\"").c_str());
}

// JSON Lines, as `tmapgen validate FILE.jsonl` reads them: blank lines skipped, each other line one spec,
// 1-based line numbers in errors. Runs without the GIL.
void ValidateJsonLines(std::string_view text, bool has_t, Target t, OnError on_error, ReportList* out, InputError* first_error,
                       bool* failed) {
  json::LineSplitter split;
  std::string_view line;
  size_t line_no = 0;
  TensorMapSpec spec;
  InputError err;
  std::vector<Result>& res = *out->results;
  auto drain = [&]() {
    while (split.Next(&line, &line_no)) {
      const int index = static_cast<int>(res.size());
      if (ParseSpecJson(line, line_no, &spec, &err)) {
        res.emplace_back();
        ValidateInto(spec, has_t, t, index, &res.back());
        out->valid += res.back().valid;
      } else if (on_error == OnError::kRaise) {
        *first_error = err;
        *failed = true;
        return false;
      } else {
        res.push_back(InputErrorResult(err, index));
        ++out->input_errors;
      }
    }
    return true;
  };
  // One result per non-blank line at most: reserve them at once (no reallocation while they are made).
  size_t lines = 1;
  for (const char* p = text.data(); (p = static_cast<const char*>(std::memchr(p, '\n', text.data() + text.size() - p))) != nullptr; ++p)
    ++lines;
  res.reserve(res.size() + lines);
  split.Feed(text);
  if (!drain()) return;
  split.Finish();
  if (!drain()) return;
  if (split.line_too_long()) {
    InputError e;
    e.line = split.error_line();
    e.message = StrCat("line ", e.line, ": longer than ", json::LineSplitter::kDefaultMaxLineBytes, " bytes");
    if (on_error == OnError::kRaise) {
      *first_error = e;
      *failed = true;
      return;
    }
    res.push_back(InputErrorResult(e, static_cast<int>(res.size())));
    ++out->input_errors;
  }
}

nb::object ReportAt(const ReportList& l, Py_ssize_t i) {
  const Py_ssize_t n = static_cast<Py_ssize_t>(l.results->size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw nb::index_error("ReportList index out of range");
  return nb::cast((*l.results)[static_cast<size_t>(i)]);
}

const char* kListDoc =
    "The reports of validate_many(), in input order: a sequence of Report (len, indexing, slicing,\n"
    "iteration). The results are kept in C++; a Report object is made when one is asked for.\n"
    "to_jsonl() gives the command line's `--format json` output for the same input.";

const char* kManyDoc =
    "Validates many specs and returns a ReportList, in input order.\n\n"
    "`specs` is JSON Lines text (bytes, bytearray, memoryview or str: one spec per line, as `tmapgen\n"
    "validate FILE.jsonl` reads it; parsed and validated in C++ with the GIL released), or an iterable of\n"
    "TensorMapSpec objects and dicts (read with the GIL held, validated with it released).\n"
    "`target` is the target of every spec, replacing a spec's own as in validate() (None: each spec's own\n"
    "target, or every target; the command line's --target fills in only specs without one).\n\n"
    "on_error=\"raise\" (the default) raises SpecError for the first spec that cannot be read, naming it\n"
    "(\"line 3, column 17: global_dim[2]: ...\", or \"specs[3].global_dim[2]\"); on_error=\"report\" puts an\n"
    "input-error Report in its place and goes on, as the command line does.";

}  // namespace

void BindBulk(nb::module_& m) {
  nb::class_<ReportList> c(m, "ReportList", kListDoc);
  c.def("__len__", [](const ReportList& l) { return l.results->size(); });
  c.def("__getitem__", [](const ReportList& l, Py_ssize_t i) { return ReportAt(l, i); }, nb::arg("index"),
        nb::sig("def __getitem__(self, index: int, /) -> Report"));
  c.def("__getitem__",
        [](const ReportList& l, nb::slice s) {
          auto [start, stop, step, len] = s.compute(l.results->size());
          nb::list out;
          for (size_t k = 0; k < len; ++k) out.append(ReportAt(l, static_cast<Py_ssize_t>(start + k * step)));
          return out;
        },
        nb::arg("index"), nb::sig("def __getitem__(self, index: slice, /) -> list[Report]"));
  c.def_prop_ro("all_valid", [](const ReportList& l) { return l.valid == l.results->size(); },
                "True when every spec is valid (True for an empty list).");
  c.def_prop_ro("valid_count", [](const ReportList& l) { return l.valid; }, "Number of valid specs.");
  c.def_prop_ro("invalid_count", [](const ReportList& l) { return l.results->size() - l.valid; },
                "Number of invalid specs, input errors included.");
  c.def_prop_ro("input_error_count", [](const ReportList& l) { return l.input_errors; },
                "Number of entries that could not be read (on_error=\"report\").");
  c.def("invalid",
        [](const ReportList& l) {
          nb::list out;
          for (size_t i = 0; i < l.results->size(); ++i)
            if (!(*l.results)[i].valid) out.append(nb::cast((*l.results)[i]));
          return out;
        },
        nb::sig("def invalid(self) -> list[Report]"), "The reports of the invalid specs (and input errors).");
  c.def("to_jsonl",
        [](const ReportList& l) {
          std::string out;
          {
            nb::gil_scoped_release nogil;
            json::Writer w;
            const std::vector<Result>& rs = *l.results;
            for (size_t i = 0; i < rs.size(); ++i) {
              AppendResultJson(rs[i], &w, &out);
              out += '\n';
              if (i == 63 && rs.size() > 64)  // one allocation for the rest, from the size of the first reports
                out.reserve(out.size() / 64 * rs.size() * 11 / 10);
            }
          }
          return nb::bytes(out.data(), out.size());
        },
        "Every report as one JSON line (bytes): what `tmapgen validate --format json --no-gpu` prints for the\n"
        "same input.");
  c.def("__repr__", [](const ReportList& l) {
    return StrCat("<ReportList of ", l.results->size(), " reports: ", l.valid, " valid, ", l.results->size() - l.valid,
                  " invalid>");
  });

  m.def(
      "validate_many",
      [](nb::handle specs, nb::handle target, const std::string& on_error_s) {
        Target t = Target::kSm90a;
        const bool has_t = TargetArg(target, &t);
        const OnError on_error = ParseOnError(on_error_s);
        ReportList out;
        // Text: bytes (zero-copy), str (its UTF-8), bytearray and memoryview (copied: they can change).
        std::string copy;
        std::string_view text;
        bool is_text = true;
        nb::object keep;
        if (PyBytes_Check(specs.ptr())) {
          text = std::string_view(PyBytes_AS_STRING(specs.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(specs.ptr())));
        } else if (PyUnicode_Check(specs.ptr())) {
          Py_ssize_t n = 0;
          const char* p = PyUnicode_AsUTF8AndSize(specs.ptr(), &n);
          if (p == nullptr) throw nb::python_error();
          text = std::string_view(p, static_cast<size_t>(n));
        } else if (PyByteArray_Check(specs.ptr()) || PyMemoryView_Check(specs.ptr())) {
          nb::object b = nb::steal(PyBytes_FromObject(specs.ptr()));
          if (!b.is_valid()) throw nb::python_error();
          copy.assign(PyBytes_AS_STRING(b.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(b.ptr())));
          text = copy;
        } else {
          is_text = false;
        }
        if (is_text) {
          InputError first;
          bool failed = false;
          {
            nb::gil_scoped_release nogil;
            ValidateJsonLines(text, has_t, t, on_error, &out, &first, &failed);
          }
          if (failed) throw SpecFailure(first.field, first.message);
          return out;
        }
        if (PyDict_Check(specs.ptr()))
          throw nb::type_error("validate_many takes many specs (an iterable, or JSON Lines text); for one dict use validate()");
        nb::object it = nb::steal(PyObject_GetIter(specs.ptr()));
        if (!it.is_valid()) {
          PyErr_Clear();
          throw nb::type_error(StrCat("validate_many takes JSON Lines text or an iterable of specs, got ",
                                      Py_TYPE(specs.ptr())->tp_name).c_str());
        }
        std::vector<PySpec> read;
        std::vector<std::shared_ptr<const InputError>> errors;
        for (;;) {
          nb::object item = nb::steal(PyIter_Next(it.ptr()));
          if (!item.is_valid()) {
            if (PyErr_Occurred()) throw nb::python_error();
            break;
          }
          const std::string where = StrCat("specs[", read.size(), "]");
          try {
            read.push_back(SpecFromObject(item, where));
            errors.emplace_back();
          } catch (const SpecFailure& e) {
            if (on_error == OnError::kRaise) throw;
            InputError ie;
            ie.field = e.field;
            ie.message = e.message;
            read.emplace_back();
            errors.push_back(std::make_shared<const InputError>(std::move(ie)));
          }
        }
        std::vector<Result>& res = *out.results;
        res.resize(read.size());
        {
          nb::gil_scoped_release nogil;
          for (size_t i = 0; i < read.size(); ++i) {
            if (errors[i]) {
              res[i].index = static_cast<int>(i);
              res[i].input_error = errors[i];
              ++out.input_errors;
              continue;
            }
            ValidateInto(read[i].spec, has_t, t, static_cast<int>(i), &res[i]);
            if (!read[i].origin.empty())
              res[i].origin = std::make_shared<const std::vector<std::string>>(std::move(read[i].origin));
            out.valid += res[i].valid;
          }
        }
        return out;
      },
      nb::arg("specs"), nb::kw_only(), nb::arg("target").none() = nb::none(), nb::arg("on_error") = "raise",
      nb::sig("def validate_many(specs: bytes | bytearray | memoryview | str | "
              "typing.Iterable[TensorMapSpec | dict[str, object]], *, target: str | None = None, "
              "on_error: typing.Literal['raise', 'report'] = 'raise') -> ReportList"),
      kManyDoc);
}

}  // namespace tmapgen::py
