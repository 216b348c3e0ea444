# trace_inject.cmake: libtmapgen_trace_inject.so, the library `tmapgen trace` names in
# CUDA_INJECTION64_PATH (src/trace/inject/, docs/trace.md).
#
# It is loaded into other people's processes (Python with PyTorch, JAX, anything with its own Abseil or
# Protobuf), so it shows nothing: the tmapgen core (compiled as position-independent code) is linked in and
# the version script exports InitializeInjection alone. CUPTI and the driver
# are dlopen'd.
#
# Abseil is linked as the shared libraries of its installation, not its static archives: Debian's
# libabsl-dev archives are compiled without -fPIC and use the local-exec TLS model
# (R_X86_64_TPOFF32 in libabsl_base, libabsl_cordz_functions, libabsl_raw_hash_set), which a shared
# object cannot hold ("relocation R_X86_64_TPOFF32 against hidden symbol ... can not be used when making
# a shared object", seen as soon as absl::Status reached the core's report path). Debian's Abseil
# symbols carry their own inline namespace (absl::debian3), so they cannot collide with another Abseil
# in the traced process. Where Abseil is not on the system's library path (a prefix carried with
# scripts/gpu-deps.sh), PREFIX/env.sh puts it on LD_LIBRARY_PATH, which tmapgen itself needs as well and
# which reaches the traced program with the rest of its environment. libstdc++ is the system's shared
# one, as Abseil's shared libraries use it (one copy in the process).

set(TMAPGEN_HAVE_TRACE_INJECT ON)
get_target_property(TMAPGEN_ABSL_INCLUDES absl::strings INTERFACE_INCLUDE_DIRECTORIES)
add_library(tmapgen_trace_inject SHARED src/trace/inject/inject.cc src/driver/compute_capability.cc)
target_include_directories(tmapgen_trace_inject PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${TMAPGEN_ABSL_INCLUDES})
# The recorder and the core rooms it uses, as archives in link order (each after the rooms that use it).
set(TMAPGEN_TRACE_INJECT_ARCHIVES tmapgen_trace tmapgen_report tmapgen_schema tmapgen_blob tmapgen_tmap tmapgen_json
    tmapgen_util)
add_dependencies(tmapgen_trace_inject ${TMAPGEN_TRACE_INJECT_ARCHIVES})
target_compile_options(tmapgen_trace_inject PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden
                       -ffunction-sections -fdata-sections)
target_link_libraries(tmapgen_trace_inject PRIVATE
  $<TARGET_FILE:tmapgen_trace> $<TARGET_FILE:tmapgen_report> $<TARGET_FILE:tmapgen_schema> $<TARGET_FILE:tmapgen_blob>
  $<TARGET_FILE:tmapgen_tmap> $<TARGET_FILE:tmapgen_json> $<TARGET_FILE:tmapgen_util>
  absl::strings absl::str_format absl::status absl::statusor
  ${CMAKE_DL_LIBS} Threads::Threads)
# --exclude-libs hides the archives' symbols where the linker has it (GNU ld, gold, lld; not Zig's, which the
# wheel uses: there the version script's "local: *" alone keeps them inside).
include(CheckLinkerFlag)
check_linker_flag(CXX "-Wl,--exclude-libs,ALL" TMAPGEN_HAVE_EXCLUDE_LIBS)
if(TMAPGEN_HAVE_EXCLUDE_LIBS)
  target_link_options(tmapgen_trace_inject PRIVATE -Wl,--exclude-libs,ALL)
endif()
target_link_options(tmapgen_trace_inject PRIVATE
  -Wl,--gc-sections -Wl,-z,defs
  -Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/trace/inject/exports.map)
set_target_properties(tmapgen_trace_inject PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
  LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/trace/inject/exports.map)
message(STATUS "tmapgen: libtmapgen_trace_inject.so (the core linked in, Abseil shared)")
