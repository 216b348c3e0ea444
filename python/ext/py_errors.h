// py_errors.h: tmapgen.SpecError, the one exception a malformed spec raises.
//
// Contract
// - SpecError is a ValueError subclass created once per interpreter (RegisterErrors). Its instances carry
//   `field` (the schema path of the offending field, "global_dim[2]", or "" for the whole spec) and the
//   message as str(e), which starts with the field ("global_dim[2]: expected an unsigned integer, got -4").
// - C++ code raises it by throwing SpecFailure; the translator registered here turns it into SpecError.
//   Nothing else is translated here (nanobind maps std exceptions as usual).
#ifndef TMAPGEN_PYTHON_EXT_PY_ERRORS_H_
#define TMAPGEN_PYTHON_EXT_PY_ERRORS_H_

#include <nanobind/nanobind.h>

#include <exception>
#include <string>

namespace tmapgen::py {

struct SpecFailure : std::exception {
  SpecFailure(std::string f, std::string m) : field(std::move(f)), message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string field;
  std::string message;  // complete: already prefixed with the field where there is one
};

// Throws SpecFailure with message "<field>: <what>" (or just <what> when field is empty).
[[noreturn]] void ThrowSpec(const std::string& field, const std::string& what);

void RegisterErrors(nanobind::module_& m);

}  // namespace tmapgen::py

#endif  // TMAPGEN_PYTHON_EXT_PY_ERRORS_H_
