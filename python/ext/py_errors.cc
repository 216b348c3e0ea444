#include "python/ext/py_errors.h"

namespace nb = nanobind;

namespace tmapgen::py {
namespace {
PyObject* g_spec_error = nullptr;

const char* kSpecErrorDoc =
    "A spec that cannot be read: a missing or unknown field, a value of the wrong type, a negative or\n"
    "overflowing number, an array whose length disagrees with the rank.\n\n"
    "A spec that is well formed but breaks a rule is not an error: validate() returns a Report with\n"
    "valid=False. `field` names the offending field in the schema's terms (\"global_dim[2]\"), or is \"\"\n"
    "when the error is about the whole input.";
}  // namespace

void ThrowSpec(const std::string& field, const std::string& what) {
  throw SpecFailure(field, field.empty() ? what : field + ": " + what);
}

void RegisterErrors(nb::module_& m) {
  nb::dict attrs;
  attrs["field"] = nb::str("");
  attrs["__module__"] = nb::str("tmapgen");
  g_spec_error = PyErr_NewExceptionWithDoc("tmapgen.SpecError", kSpecErrorDoc, PyExc_ValueError, attrs.ptr());
  if (g_spec_error == nullptr) throw nb::python_error();
  m.attr("SpecError") = nb::handle(g_spec_error);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const SpecFailure& e) {
      nb::object inst = nb::steal(PyObject_CallFunction(g_spec_error, "s", e.message.c_str()));
      if (!inst.is_valid()) return;  // the call set an error
      nb::setattr(inst, "field", nb::str(e.field.c_str()));
      PyErr_SetObject(g_spec_error, inst.ptr());
    }
  });
}

}  // namespace tmapgen::py
