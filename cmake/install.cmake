# install.cmake: what `cmake --install` puts under a prefix, and the CMake package that
# find_package(tmapgen CONFIG) reads from it (docs/codegen.md, "From CMake").
#
# Components:
#   runtime   bin/tmapgen, lib/tmapgen/libtmapgen_trace_inject.so and libtmapgen_trace_preload.so (where
#             `tmapgen trace` looks for them)
#   service   bin/tmapd and libexec/tmapd/tmapd_check_worker
#   devel     the user-facing headers, the static libraries and the CMake package
#   deb       the systemd unit and /etc/default/tmapd: only in the Debian package (cmake/package.cmake),
#             never in a plain `cmake --install` (their paths are the package's, /usr and /etc)

include(CMakePackageConfigHelpers)

set(TMAPGEN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tmapgen)

# ---------------------------------------------------------------------------------------------- headers
# The core's public API, listed one by one: the spec and its types, the validator and the derived facts,
# spec JSON, the text and JSON reports, the matrix and instruction descriptors, codegen and the
# 128-byte map layout, with every project header they include (the installed set must be closed:
# tests/install/headers/ compiles each one alone against the installed package). They keep their
# source-tree paths below PREFIX/include/tmapgen, so `#include "src/tmap/validator.h"` works in both.
set(TMAPGEN_PUBLIC_HEADERS
  src/tmap/types.h
  src/tmap/spec_fields.h
  src/tmap/tensor_map_spec.h
  src/tmap/rule.h
  src/tmap/rule_catalogue.h
  src/tmap/rule_text.h
  src/tmap/derived_facts.h
  src/tmap/validator.h
  src/schema/spec_json.h
  src/schema/input_error.h
  src/schema/json_diagnostics.h
  src/report/report.h
  src/report/diagnostics.h
  src/json/json_writer.h
  src/desc/desc_types.h
  src/desc/smem_descriptor.h
  src/desc/instr_descriptor.h
  src/desc/map_consistency.h
  src/desc/desc_rules.h
  src/codegen/codegen.h
  src/codegen/plan.h
  src/codegen/emit_cpp.h
  src/codegen/emit_json.h
  src/codegen/emit_ptx.h
  src/blob/blob.h
  src/blob/layout.h
  src/util/decimal.h
)
foreach(h ${TMAPGEN_PUBLIC_HEADERS})
  get_filename_component(d ${h} DIRECTORY)
  install(FILES ${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tmapgen/${d} COMPONENT devel)
endforeach()

# ---------------------------------------------------------------------------------------------- libraries
# One library per room, exported under the room's name: tmapgen::util, ::json, ::tmap, ::schema, ::blob (the
# map layout), ::report, ::desc (descriptors) and ::codegen (the generator behind `tmapgen codegen`);
# tmapgen::core names the six core rooms (spec, validator, facts, JSON, reports, map layout). Static; their
# dependencies (Abseil, simdjson) come from the package's find_dependency calls (cmake/tmapgenConfig.cmake.in).
set(TMAPGEN_INSTALLED_ROOMS ${TMAPGEN_CORE_ROOMS} tmapgen_desc tmapgen_codegen)
foreach(t ${TMAPGEN_INSTALLED_ROOMS})
  string(REPLACE "tmapgen_" "" room ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${room})
endforeach()
set_target_properties(tmapgen_core PROPERTIES EXPORT_NAME core)
set_target_properties(tmapgen PROPERTIES EXPORT_NAME tmapgen)
install(TARGETS tmapgen_core ${TMAPGEN_INSTALLED_ROOMS}
  EXPORT tmapgenTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel)

# ---------------------------------------------------------------------------------------------- programs
# The command line is exported too (tmapgen::tmapgen): tmapgen_codegen() runs it.
install(TARGETS tmapgen EXPORT tmapgenTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(TMAPGEN_HAVE_TRACE_INJECT)
  # cli/trace_cmd.cc looks beside the binary, in ../lib and in ../lib/tmapgen.
  install(TARGETS tmapgen_trace_inject LIBRARY DESTINATION lib/tmapgen COMPONENT runtime)
endif()
# tmapgen trace preloads it from beside the injection library (src/trace/preload/).
install(TARGETS tmapgen_trace_preload LIBRARY DESTINATION lib/tmapgen COMPONENT runtime)
if(TARGET tmapd)
  install(TARGETS tmapd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT service)
  # Not a user command: tmapd is pointed at it with --check-worker (packaging/tmapd.service.d/).
  install(TARGETS tmapd_check_worker RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/tmapd COMPONENT service)
endif()

# ---------------------------------------------------------------------------------------------- package
install(EXPORT tmapgenTargets NAMESPACE tmapgen:: DESTINATION ${TMAPGEN_CMAKE_DIR} COMPONENT devel)
configure_package_config_file(cmake/tmapgenConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/tmapgenConfig.cmake
  INSTALL_DESTINATION ${TMAPGEN_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same major.minor is compatible.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tmapgenConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tmapgenConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/tmapgenConfigVersion.cmake
  cmake/tmapgenCodegen.cmake
  DESTINATION ${TMAPGEN_CMAKE_DIR} COMPONENT devel)

# ---------------------------------------------------------------------------------------------- tests
# Installs this build into a temporary prefix and builds examples/cmake-consumer/ and
# tests/install/headers/ against it (tests/install/install_test.sh).
if(TMAPGEN_TESTS)
  enable_testing()
  add_test(NAME install_consumer
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/install/install_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(install_consumer PROPERTIES LABELS install TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()
