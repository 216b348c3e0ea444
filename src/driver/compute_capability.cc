// compute_capability.cc: TargetForComputeCapability (declared in cuda_driver.h). A pure function in a file
// of its own, so that what needs only it (the trace injection library, cmake/trace_inject.cmake) does not
// link the driver layer and, through its absl::Status, Abseil's Cord (whose Debian static archive cannot go
// into a shared object).
#include <string>

#include "src/driver/cuda_driver.h"

namespace tmapgen {
namespace driver {

std::string TargetForComputeCapability(int major, int minor) {
  if (major <= 0 || minor < 0 || minor > 9) return std::string();
  struct Arch {
    int major, minor;
    const char* target;
  };
  static constexpr Arch kArchSpecific[] = {
      {9, 0, "sm_90a"},   {10, 0, "sm_100a"}, {10, 3, "sm_103a"},
      {11, 0, "sm_110a"}, {12, 0, "sm_120a"}, {12, 1, "sm_121a"},
  };
  for (const Arch& a : kArchSpecific) {
    if (a.major == major && a.minor == minor) return a.target;
  }
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

}  // namespace driver
}  // namespace tmapgen
