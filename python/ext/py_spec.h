// py_spec.h: tmapgen.TensorMapSpec, and reading a spec from Python values (dicts, keyword arguments).
//
// Contract
// - The Python spec is the C++ TensorMapSpec (src/tmap/tensor_map_spec.h) plus `origin`: lines saying
//   where it came from when it was not typed by hand (for_tensor: the protocol, the dtype mapping).
// - Field names are the schema's (docs/schema.md: tensor_data_type, global_dim, box_dim, swizzle, ...),
//   plus the short names of the command line where they mean the same thing: dtype, rank, l2, oob,
//   channels, pixels, lower_corner, upper_corner, lower_corner_w, upper_corner_w. Arrays are innermost
//   first, as in cuda.h. Values are what JSON takes (enum names in either form or the cuda.h integer,
//   addresses as int or "0x..." str, driver_version as 13000 or "13.0") in their Python types; any
//   iterable of ints is an array; None means "not given".
// - Semantics are the schema's, decided by the same code (FinishSpec in src/schema/spec_json.h):
//   required fields, defaults, array lengths against the rank. A value the schema cannot hold (negative,
//   more than 64 bits, a wrong type, an unknown name, a field given twice) raises SpecError naming the
//   field; a value the schema holds but the driver rejects is the validator's business, not an error.
#ifndef TMAPGEN_PYTHON_EXT_PY_SPEC_H_
#define TMAPGEN_PYTHON_EXT_PY_SPEC_H_

#include <nanobind/nanobind.h>

#include <string>
#include <string_view>
#include <vector>

#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::py {

struct PySpec {
  TensorMapSpec spec;
  std::vector<std::string> origin;
};

// Reads `mapping` (a dict, or None) overlaid with `overrides` (a dict of keyword arguments, or None:
// a key there replaces the same field in `mapping`). `where` prefixes error messages ("specs[3]").
// Throws SpecFailure.
PySpec SpecFromMapping(nanobind::handle mapping, nanobind::handle overrides, std::string_view where = {});

// A TensorMapSpec object (copied) or a mapping; anything else raises TypeError.
PySpec SpecFromObject(nanobind::handle obj, std::string_view where = {});

// The fields the spec was given explicitly, as a dict of Python values under the schema names.
nanobind::dict ExplicitFields(const TensorMapSpec& spec);

// The canonical JSON form (src/schema/spec_json.h WriteSpecJson).
std::string SpecJson(const TensorMapSpec& spec);

void BindSpec(nanobind::module_& m);

}  // namespace tmapgen::py

#endif  // TMAPGEN_PYTHON_EXT_PY_SPEC_H_
