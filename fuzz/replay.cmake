# replay.cmake: the libFuzzer targets built by the ordinary compiler with fuzz/replay_main.cc as their main
# (no sanitizers, no fuzzing), and a ctest per target that replays the seed inputs through it. So CI builds
# and links every fuzz target (a target that no longer links fails the build here, not only under clang) and
# runs its checks on the seeds. Fuzzing is scripts/dev/fuzz.sh (clang, libFuzzer, ASan + UBSan).
set(TMAPGEN_REPLAY_SEEDS ${CMAKE_SOURCE_DIR}/examples ${CMAKE_SOURCE_DIR}/tests/trace/data)
foreach(name json_fuzz spec_json_fuzz blob_fuzz fast_path_fuzz trace_stream_fuzz)
  add_executable(${name}_replay ${CMAKE_SOURCE_DIR}/fuzz/${name}.cc ${CMAKE_SOURCE_DIR}/fuzz/replay_main.cc)
  target_include_directories(${name}_replay PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(${name}_replay PRIVATE tmapgen_trace tmapgen_blob tmapgen_core)
  add_test(NAME fuzz_replay.${name} COMMAND ${name}_replay ${TMAPGEN_REPLAY_SEEDS})
endforeach()
