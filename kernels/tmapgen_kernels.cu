// tmapgen_kernels.cu: the one translation unit nvcc compiles into the embedded fatbin (sm_90a + sm_100a;
// cmake/kernels.cmake). The kernels live in the headers it includes.
#include "tma_check.cuh"
#include "copy_bandwidth.cuh"
#include "wgmma_check.cuh"
#include "codegen_example.cuh"
#include "mcast_check.cuh"
