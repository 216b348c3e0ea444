# trace_inject.cmake: libtmapgen_trace_inject.so, the library `tmapgen trace` names in
# CUDA_INJECTION64_PATH (src/trace/inject/, docs/trace.md).
#
# It is loaded into other people's processes (Python with PyTorch, JAX, anything with its own Abseil or
# Protobuf), so it carries everything it needs and shows nothing: the tmapgen core (compiled as
# position-independent code), Abseil's static archives, libstdc++ and libgcc are linked in, and the
# version script exports InitializeInjection alone. Its only run-time dependencies are libc and libm
# (and libdl/libpthread where glibc still splits them); CUPTI and the driver are dlopen'd.
#
# Abseil's static archives come from the same installation as the absl:: targets (Debian's
# libabsl-dev ships both); where they are missing the library is not built and `tmapgen trace` says so.

# The static archive beside each shared library of an absl:: target and of everything it links.
function(tmapgen_absl_static_archives out_var)
  set(seen "")
  set(archives "")
  set(missing "")
  set(queue ${ARGN})
  while(queue)
    list(POP_FRONT queue t)
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "UNKNOWN_LIBRARY")
      set(loc "")
      foreach(prop IMPORTED_LOCATION_NONE IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION IMPORTED_LOCATION_NOCONFIG)
        get_target_property(l ${t} ${prop})
        if(l)
          set(loc ${l})
          break()
        endif()
      endforeach()
      if(loc)
        get_filename_component(dir ${loc} DIRECTORY)
        get_filename_component(name ${loc} NAME)
        string(REGEX REPLACE "\\.so.*$" ".a" aname ${name})
        if(EXISTS ${dir}/${aname})
          list(APPEND archives ${dir}/${aname})
        else()
          list(APPEND missing ${dir}/${aname})
        endif()
      endif()
    endif()
    get_target_property(deps ${t} INTERFACE_LINK_LIBRARIES)
    if(deps)
      foreach(d ${deps})
        if(d MATCHES "^absl::")
          list(APPEND queue ${d})
        endif()
      endforeach()
    endif()
  endwhile()
  set(${out_var} ${archives} PARENT_SCOPE)
  set(${out_var}_MISSING ${missing} PARENT_SCOPE)
endfunction()

tmapgen_absl_static_archives(TMAPGEN_ABSL_ARCHIVES absl::strings absl::str_format absl::status absl::statusor)
set(TMAPGEN_HAVE_TRACE_INJECT OFF)
if(TMAPGEN_ABSL_ARCHIVES_MISSING)
  message(STATUS "tmapgen: Abseil static archives missing (${TMAPGEN_ABSL_ARCHIVES_MISSING}): "
                 "libtmapgen_trace_inject.so is not built; tmapgen trace will say so")
else()
  set(TMAPGEN_HAVE_TRACE_INJECT ON)
  get_target_property(TMAPGEN_ABSL_INCLUDES absl::strings INTERFACE_INCLUDE_DIRECTORIES)
  add_library(tmapgen_trace_inject SHARED src/trace/inject/inject.cc src/driver/cuda_driver.cc)
  target_include_directories(tmapgen_trace_inject PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${TMAPGEN_ABSL_INCLUDES})
  add_dependencies(tmapgen_trace_inject tmapgen_trace tmapgen_core)
  target_compile_options(tmapgen_trace_inject PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden
                         -ffunction-sections -fdata-sections)
  target_link_libraries(tmapgen_trace_inject PRIVATE
    $<TARGET_FILE:tmapgen_trace> $<TARGET_FILE:tmapgen_core>
    -Wl,--start-group ${TMAPGEN_ABSL_ARCHIVES} -Wl,--end-group
    ${CMAKE_DL_LIBS} Threads::Threads)
  target_link_options(tmapgen_trace_inject PRIVATE
    -static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL -Wl,--gc-sections -Wl,-z,defs
    -Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/trace/inject/exports.map)
  set_target_properties(tmapgen_trace_inject PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
    LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/trace/inject/exports.map)
  message(STATUS "tmapgen: libtmapgen_trace_inject.so with Abseil linked in statically")
endif()
