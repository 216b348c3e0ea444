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
                       -fno-asynchronous-unwind-tables -fno-threadsafe-statics)
target_link_libraries(tmapgen_trace_preload PRIVATE ${CMAKE_DL_LIBS})
target_link_options(tmapgen_trace_preload PRIVATE
  -Wl,--as-needed -Wl,-z,defs -Wl,-z,now
  -Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/trace/preload/exports.map)
set_target_properties(tmapgen_trace_preload PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
  LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/trace/preload/exports.map)
