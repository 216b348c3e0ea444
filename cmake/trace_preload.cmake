# trace_preload.cmake: libtmapgen_trace_preload.so, the library `tmapgen trace` puts in LD_PRELOAD next to the
# injection library, so that launches are checked without a CUPTI callback per launch (src/trace/preload/,
# docs/trace.md "At kernel launch").
#
# It is loaded into every process the traced program starts, so it carries nothing but itself: no tmapgen
# core, no Abseil, no C++ runtime (no exceptions, no RTTI, no allocation; --as-needed drops libstdc++ from
# its dependencies), and it exports only the symbols it wraps plus its attach function (exports.map).
add_library(tmapgen_trace_preload SHARED src/trace/preload/preload.cc)
target_include_directories(tmapgen_trace_preload PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(tmapgen_trace_preload PRIVATE -fvisibility=hidden -fno-exceptions -fno-rtti
                       -fasynchronous-unwind-tables -fno-threadsafe-statics)
target_link_libraries(tmapgen_trace_preload PRIVATE ${CMAKE_DL_LIBS})
# Unwind tables stay (-fasynchronous-unwind-tables): a cancelled thread or a backtrace unwinds through a wrapper.
# dlsym is defined (in assembly) on x86-64 only; elsewhere the version script must not name it.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(TMAPGEN_PRELOAD_EXPORTS ${CMAKE_CURRENT_SOURCE_DIR}/src/trace/preload/exports.map)
else()
  set(TMAPGEN_PRELOAD_EXPORTS ${CMAKE_CURRENT_SOURCE_DIR}/src/trace/preload/exports_no_dlsym.map)
endif()
target_link_options(tmapgen_trace_preload PRIVATE
  -Wl,--as-needed -Wl,-z,defs -Wl,-z,now -Wl,--version-script=${TMAPGEN_PRELOAD_EXPORTS})
set_target_properties(tmapgen_trace_preload PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
  LINK_DEPENDS ${TMAPGEN_PRELOAD_EXPORTS})
