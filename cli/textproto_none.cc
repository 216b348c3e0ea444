// Built when Protobuf is not available (for example on a GPU host with only a compiler and CMake):
// every text-format request fails with a message that says so.
#include "cli/textproto.h"

namespace tmapgen::cli {

bool TextprotoAvailable() { return false; }

absl::Status ParseSpecTextproto(std::string_view, size_t, TensorMapSpec*) {
  return absl::UnimplementedError(
      "Protocol Buffers text format is not supported by this build (built without protobuf); use JSON");
}

std::string ReportTextproto(int, const TensorMapSpec&, const Validation&, const Encoding&) { return std::string(); }
std::string InputErrorTextproto(int, const InputError&) { return std::string(); }

}  // namespace tmapgen::cli
