// cli_test_util.h: running the tmapgen binary from tests (exit status and the output, stderr included).
#ifndef TMAPGEN_TESTS_CLI_CLI_TEST_UTIL_H_
#define TMAPGEN_TESTS_CLI_CLI_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace tmapgen::cli_test {

struct Result {
  int code = -1;
  std::string out;
};

// The binary with exactly `args` (stderr into the output); `stdin_text`, when given, on standard input.
inline Result RunToolArgs(const std::string& args, const std::string& stdin_text = "") {
  std::string cmd = std::string(TMAPGEN_BINARY) + " " + args + " 2>&1";
  std::string input_path;
  if (!stdin_text.empty()) {
    // One file per process: ctest runs tests of several binaries at once in the same TempDir.
    input_path = testing::TempDir() + "/stdin." + std::to_string(getpid()) + ".txt";
    std::ofstream(input_path) << stdin_text;
    cmd += " < " + input_path;
  }
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `validate` treats --no-gpu as a common flag too; RunTool() always passes it.
inline Result RunTool(const std::string& args, const std::string& stdin_text = "") {
  return RunToolArgs(args + " --no-gpu", stdin_text);
}

inline std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    if (nl > start) out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace tmapgen::cli_test

#endif  // TMAPGEN_TESTS_CLI_CLI_TEST_UTIL_H_
