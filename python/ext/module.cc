// module.cc: tmapgen._tmapgen, the extension module of the tmapgen Python package (python/src/tmapgen).
//
// One implementation, two faces: every function here calls the C++ core the command line calls
// (src/tmap validator, src/schema spec forms, src/report renderers, src/desc descriptors); the Python
// layer adds only the conversion between Python values and the core's types.
#include <nanobind/nanobind.h>

#include "python/ext/py_errors.h"
#include "python/ext/py_report.h"
#include "python/ext/py_spec.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.0.0"
#endif

namespace tmapgen::py {
void BindBulk(nanobind::module_& m);
void BindDlpack(nanobind::module_& m);
void BindDesc(nanobind::module_& m);
void BindBlob(nanobind::module_& m);
void BindPlan(nanobind::module_& m);
}  // namespace tmapgen::py

NB_MODULE(_tmapgen, m) {
  m.doc() = "tmapgen's C++ core (validator, reports, descriptors). Use the tmapgen package, not this module.";
  m.attr("__version__") = TMAPGEN_VERSION;
  tmapgen::py::RegisterErrors(m);
  tmapgen::py::BindSpec(m);
  tmapgen::py::BindReport(m);
  tmapgen::py::BindBulk(m);
  tmapgen::py::BindDlpack(m);
  tmapgen::py::BindDesc(m);
  tmapgen::py::BindBlob(m);
  tmapgen::py::BindPlan(m);
}
