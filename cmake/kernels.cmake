# CUDA kernels (kernels/*.cu) are compiled when nvcc is found, for sm_90a and sm_100a, into one fatbin
# that the tools load at run time through the driver API. Without nvcc they are skipped, and the build
# says so. Nothing here links against CUDA.
file(GLOB TMAPGEN_KERNEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cu)
find_program(TMAPGEN_NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
if(NOT TMAPGEN_KERNEL_SOURCES)
  message(STATUS "tmapgen: no CUDA kernels in kernels/ yet")
elseif(NOT TMAPGEN_NVCC)
  message(STATUS "tmapgen: nvcc not found: CUDA kernels are NOT built (GPU checks unavailable)")
else()
  set(TMAPGEN_FATBIN ${CMAKE_CURRENT_BINARY_DIR}/tmapgen_kernels.fatbin)
  add_custom_command(
    OUTPUT ${TMAPGEN_FATBIN}
    COMMAND ${TMAPGEN_NVCC} -fatbin -std=c++17
            -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_100a,code=sm_100a
            -o ${TMAPGEN_FATBIN} ${TMAPGEN_KERNEL_SOURCES}
    DEPENDS ${TMAPGEN_KERNEL_SOURCES}
    COMMENT "nvcc: kernels for sm_90a and sm_100a")
  add_custom_target(tmapgen_kernels ALL DEPENDS ${TMAPGEN_FATBIN})
  message(STATUS "tmapgen: nvcc found (${TMAPGEN_NVCC}): kernels built for sm_90a and sm_100a")
endif()
