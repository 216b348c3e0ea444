# CUDA kernels (kernels/*.cu: one translation unit, kernels/tmapgen_kernels.cu, including kernels/*.cuh) are compiled when nvcc is found, for sm_90a and sm_100a, into one fatbin
# that is embedded in the tmapgen binary (a generated .cc holding its bytes, tmapgen_kernels_fatbin[]) and
# loaded at run time through the driver API (cuModuleLoadData from the dlopen'd libcuda). Without nvcc
# the embedded array is empty and the GPU commands say that this build has no kernels. Nothing here links
# against CUDA.
#
# Also defines the libraries of src/gpu/ (tmapgen_gpu_runtime, _check, _matrix, _bandwidth, _agreement) and
# links them, with the check/sweep/bench commands, into tmapgen_cli.
file(GLOB TMAPGEN_KERNEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cu)
file(GLOB TMAPGEN_KERNEL_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.h ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cuh)
option(TMAPGEN_WITH_KERNELS "Compile and embed the CUDA kernels when nvcc is found" ON)
find_program(TMAPGEN_NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
set(TMAPGEN_FATBIN_CC ${CMAKE_CURRENT_BINARY_DIR}/tmapgen_kernels_fatbin.cc)
set(TMAPGEN_HAVE_KERNELS OFF)
if(NOT TMAPGEN_WITH_KERNELS)
  message(STATUS "tmapgen: TMAPGEN_WITH_KERNELS=OFF: CUDA kernels are NOT built (GPU checks unavailable in this build)")
elseif(NOT TMAPGEN_KERNEL_SOURCES)
  message(STATUS "tmapgen: no CUDA kernels in kernels/")
elseif(NOT TMAPGEN_NVCC)
  message(STATUS "tmapgen: nvcc not found: CUDA kernels are NOT built (GPU checks unavailable in this build)")
else()
  set(TMAPGEN_HAVE_KERNELS ON)
endif()
if(TMAPGEN_HAVE_KERNELS)
  set(TMAPGEN_FATBIN ${CMAKE_CURRENT_BINARY_DIR}/tmapgen_kernels.fatbin)
  add_custom_command(
    OUTPUT ${TMAPGEN_FATBIN}
    COMMAND ${TMAPGEN_NVCC} -fatbin -std=c++17 -O3 -I${CMAKE_CURRENT_SOURCE_DIR}
            -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_100a,code=sm_100a
            -o ${TMAPGEN_FATBIN} ${TMAPGEN_KERNEL_SOURCES}
    DEPENDS ${TMAPGEN_KERNEL_SOURCES} ${TMAPGEN_KERNEL_HEADERS}
            ${CMAKE_CURRENT_SOURCE_DIR}/examples/codegen/tile_a.gen.h
    COMMENT "nvcc: kernels for sm_90a and sm_100a")
  add_custom_command(
    OUTPUT ${TMAPGEN_FATBIN_CC}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${TMAPGEN_FATBIN} -DOUTPUT=${TMAPGEN_FATBIN_CC}
            -DSYMBOL=tmapgen_kernels_fatbin -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_file.cmake
    DEPENDS ${TMAPGEN_FATBIN} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_file.cmake
    COMMENT "embedding the kernel fatbin")
  add_custom_target(tmapgen_kernels ALL DEPENDS ${TMAPGEN_FATBIN_CC})
  message(STATUS "tmapgen: nvcc found (${TMAPGEN_NVCC}): kernels built for sm_90a and sm_100a and embedded")
else()
  # No nvcc: an empty array (written at configure time).
  execute_process(COMMAND ${CMAKE_COMMAND} -DINPUT=/nonexistent -DOUTPUT=${TMAPGEN_FATBIN_CC}
                          -DSYMBOL=tmapgen_kernels_fatbin -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_file.cmake)
endif()

# The codegen example's spec (examples/codegen/tile.json, the spec tile_a.gen.h is generated from), embedded
# as text for `tmapgen check --codegen-example` (src/gpu/check/codegen_example.h).
set(TMAPGEN_CODEGEN_SPEC_CC ${CMAKE_CURRENT_BINARY_DIR}/tmapgen_codegen_example_spec.cc)
add_custom_command(
  OUTPUT ${TMAPGEN_CODEGEN_SPEC_CC}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/examples/codegen/tile.json -DOUTPUT=${TMAPGEN_CODEGEN_SPEC_CC}
          -DSYMBOL=tmapgen_codegen_example_spec -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_file.cmake
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/examples/codegen/tile.json ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_file.cmake
  COMMENT "embedding examples/codegen/tile.json")

# src/gpu/: one library per room (docs/design.md, docs/layers.txt).
# runtime: the GPU API over the dlopen'd driver (modules, launches, copies, events), the embedded fatbin, and
# the worker that runs items of GPU work in child processes (worker.*).
add_library(tmapgen_gpu_runtime STATIC src/gpu/runtime/gpu_api.cc src/gpu/runtime/worker.cc ${TMAPGEN_FATBIN_CC})
target_link_libraries(tmapgen_gpu_runtime PUBLIC tmapgen_driver tmapgen_util)
if(TMAPGEN_HAVE_KERNELS)
  add_dependencies(tmapgen_gpu_runtime tmapgen_kernels)
endif()
# check: `tmapgen check`: the plan of a map's copies, the runner, the report, the codegen example (with its
# embedded spec), the wgmma proof and the multicast checks (single maps and GEMM plans over a cluster).
add_library(tmapgen_gpu_check STATIC
  src/gpu/check/check_plan.cc
  src/gpu/check/check_runner.cc
  src/gpu/check/check_report.cc
  src/gpu/check/wgmma_check.cc
  src/gpu/check/codegen_example.cc
  src/gpu/check/mcast_check.cc
  src/gpu/check/mcast_plan.cc
  ${TMAPGEN_CODEGEN_SPEC_CC}
)
target_link_libraries(tmapgen_gpu_check PUBLIC tmapgen_gpu_runtime tmapgen_plan tmapgen_driver tmapgen_model tmapgen_desc
                      tmapgen_schema tmapgen_tmap tmapgen_util)
# matrix: `tmapgen sweep --matrix`, the coverage matrix of checks.
add_library(tmapgen_gpu_matrix STATIC src/gpu/matrix/matrix.cc)
target_link_libraries(tmapgen_gpu_matrix PUBLIC tmapgen_gpu_check tmapgen_tmap tmapgen_util)
# bandwidth: `tmapgen bench`, the copy bandwidth of a map beside a plain copy, and multicast beside per-CTA loads.
add_library(tmapgen_gpu_bandwidth STATIC src/gpu/bandwidth/copy_bandwidth.cc src/gpu/bandwidth/mcast_bandwidth.cc)
target_link_libraries(tmapgen_gpu_bandwidth PUBLIC tmapgen_gpu_check tmapgen_gpu_runtime tmapgen_driver tmapgen_model tmapgen_tmap
                      tmapgen_util)
# agreement: the validator against the driver's encoders (`tmapgen sweep --random`, tools/driver_agreement).
add_library(tmapgen_gpu_agreement STATIC
  src/gpu/agreement/agreement_eval.cc
  src/gpu/agreement/agreement_shrink.cc
  src/gpu/agreement/random_sweep.cc
)
target_link_libraries(tmapgen_gpu_agreement PUBLIC tmapgen_specgen tmapgen_driver tmapgen_schema tmapgen_json
                      tmapgen_tmap tmapgen_util)
target_sources(tmapgen_cli PRIVATE cli/check_cmd.cc cli/sweep_cmd.cc cli/bench_cmd.cc)
target_link_libraries(tmapgen_cli PUBLIC tmapgen_gpu_check tmapgen_gpu_matrix tmapgen_gpu_bandwidth
                      tmapgen_gpu_agreement)
