// replay_main.cc: a main() for the libFuzzer targets of this folder in the ordinary build (any compiler, no
// sanitizers, no fuzzing): it feeds LLVMFuzzerTestOneInput every file named on the command line (folders are
// walked), each whole and then line by line, so that ctest builds and links every target and replays the
// seed inputs through the checks the targets make (a failed check aborts; ctest reports it). Fuzzing itself
// is scripts/dev/fuzz.sh with clang.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void RunOne(const std::string& bytes, size_t* runs) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ++*runs;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    const fs::path p(argv[i]);
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  size_t runs = 0;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() > (1u << 20)) continue;  // the fuzzers run with -max_len of a few KiB
    RunOne(bytes, &runs);
    size_t start = 0;
    while (start < bytes.size()) {
      size_t nl = bytes.find('\n', start);
      if (nl == std::string::npos) nl = bytes.size();
      if (nl > start && nl - start < bytes.size()) RunOne(bytes.substr(start, nl - start), &runs);  // not the whole file again
      start = nl + 1;
    }
  }
  std::printf("replayed %zu inputs from %zu files\n", runs, files.size());
  return runs == 0 ? 1 : 0;
}
