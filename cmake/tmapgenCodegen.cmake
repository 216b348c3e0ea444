# tmapgenCodegen.cmake: tmapgen_codegen(), installed with the CMake package (docs/codegen.md,
# "From CMake").
#
#   tmapgen_codegen(TARGET tgt SPECS a.json [b.jsonl ...] OUTPUT x.gen.h
#                   [NAMESPACE ns] [GPU_TARGET sm_90a] [LANG cpp|json|ptx] [OPTIONS flag...] [PUBLIC])
#
# Generates OUTPUT at build time with `tmapgen codegen SPECS... -o OUTPUT` (before tgt's sources are
# compiled), adds OUTPUT's directory to tgt's include path (PRIVATE, or PUBLIC with PUBLIC), and runs
# again when a spec file or the tmapgen command changes. An invalid spec fails the build: tmapgen codegen
# exits 1 with the validator's report (rule ids, fixes, the nearest valid configuration) on standard
# error, which the build tool shows, and writes nothing.
#   SPECS        spec files (JSON, JSON Lines or the text format); relative to the current source dir
#   OUTPUT       the generated file; relative to the current binary dir
#   NAMESPACE    --namespace (default tmapgen_gen)
#   GPU_TARGET   --target, for the specs that name none
#   LANG         --lang (default cpp)
#   OPTIONS      further codegen flags, as given (--desc ..., --idesc ...)
# The command is tmapgen::tmapgen, or the program named by the TMAPGEN_EXECUTABLE variable when set.

function(tmapgen_codegen)
  cmake_parse_arguments(PARSE_ARGV 0 arg "PUBLIC" "TARGET;OUTPUT;NAMESPACE;GPU_TARGET;LANG" "SPECS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tmapgen_codegen: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "tmapgen_codegen: TARGET is required (the target that includes the generated file)")
  endif()
  if(NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "tmapgen_codegen: TARGET ${arg_TARGET} is not a target")
  endif()
  if(NOT arg_SPECS)
    message(FATAL_ERROR "tmapgen_codegen: SPECS is required (one or more spec files)")
  endif()
  if(NOT arg_OUTPUT)
    message(FATAL_ERROR "tmapgen_codegen: OUTPUT is required (the file to generate, e.g. maps.gen.h)")
  endif()

  if(TMAPGEN_EXECUTABLE)
    set(tool ${TMAPGEN_EXECUTABLE})
    set(tool_dep ${TMAPGEN_EXECUTABLE})
  elseif(TARGET tmapgen::tmapgen)
    set(tool $<TARGET_FILE:tmapgen::tmapgen>)
    set(tool_dep $<TARGET_FILE:tmapgen::tmapgen>)
  else()
    message(FATAL_ERROR "tmapgen_codegen: no tmapgen command (find_package(tmapgen) defines tmapgen::tmapgen; "
                        "or set TMAPGEN_EXECUTABLE)")
  endif()

  set(specs)
  foreach(s ${arg_SPECS})
    get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND specs ${abs})
  endforeach()
  get_filename_component(out ${arg_OUTPUT} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  get_filename_component(out_dir ${out} DIRECTORY)

  set(flags)
  if(arg_NAMESPACE)
    list(APPEND flags --namespace ${arg_NAMESPACE})
  endif()
  if(arg_GPU_TARGET)
    list(APPEND flags --target ${arg_GPU_TARGET})
  endif()
  if(arg_LANG)
    list(APPEND flags --lang ${arg_LANG})
  endif()

  file(MAKE_DIRECTORY ${out_dir})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${tool} codegen ${specs} ${flags} ${arg_OPTIONS} -o ${out}
    DEPENDS ${specs} ${tool_dep}
    COMMENT "tmapgen codegen ${arg_OUTPUT}"
    VERBATIM)
  target_sources(${arg_TARGET} PRIVATE ${out})
  if(arg_PUBLIC)
    target_include_directories(${arg_TARGET} PUBLIC $<BUILD_INTERFACE:${out_dir}>)
  else()
    target_include_directories(${arg_TARGET} PRIVATE ${out_dir})
  endif()
endfunction()
