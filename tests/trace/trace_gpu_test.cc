// `tmapgen trace` with the real CUDA driver and CUPTI: tmapgen itself is the traced program (it encodes
// maps through the dlopen'd driver). Skipped, with the reason, where there is no GPU, no driver or no
// CUPTI. What the driver wrote is the reference: the traced bytes must equal the bytes the driver
// returned to the program, and every map the driver rejects must be explained by a rule.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/driver/cuda_driver.h"

namespace {

std::string Slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) v.push_back(l);
  return v;
}

// "0x..." words of the report's encoding -> 256 hex digits in memory order (little-endian words).
std::string WordsToHex(const std::string& report) {
  const size_t p = report.find("\"words\":[");
  if (p == std::string::npos) return "";
  std::string hex;
  size_t q = p;
  for (int i = 0; i < 16; ++i) {
    q = report.find("\"0x", q);
    if (q == std::string::npos) return "";
    const uint64_t w = std::strtoull(report.c_str() + q + 3, nullptr, 16);
    for (int b = 0; b < 8; ++b) {
      char buf[3];
      std::snprintf(buf, sizeof(buf), "%02x", static_cast<unsigned>((w >> (8 * b)) & 0xff));
      hex += buf;
    }
    q += 3;
  }
  return hex;
}

void SkipWithoutGpu() {
  const auto& info = tmapgen::driver::CudaDriver::Get().info();
  if (!info.available) GTEST_SKIP() << "no usable CUDA driver and GPU here: " << info.why_unavailable;
}

std::string RunTrace(const std::string& args, std::string* err, int* rc) {
  char t[] = "/tmp/tmapgen-trace-gpu.XXXXXX";
  const std::string dir = mkdtemp(t) ? t : "/tmp";
  const std::string cmd = "env TMAPGEN_TRACE_LIB=" TMAPGEN_INJECT_LIB " " TMAPGEN_BINARY " trace --out " + dir +
                          "/r.jsonl " + args + " > " + dir + "/out 2> " + dir + "/err";
  const int st = std::system(cmd.c_str());
  *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  *err = Slurp(dir + "/err");
  return dir;
}

TEST(TraceGpu, TheTracedBytesAreTheBytesTheDriverReturned) {
  SkipWithoutGpu();
  if (IsSkipped()) return;
  std::string err;
  int rc = 0;
  const std::string dir = RunTrace("-- " TMAPGEN_BINARY " --format json --dtype bf16 --dims 4096,4096 --box 64,128 --swizzle 128B",
                              &err, &rc);
  if (err.find("not tracing: CUPTI not found") != std::string::npos)
    GTEST_SKIP() << "CUPTI is not installed here (set TMAPGEN_CUPTI): " << err;
  ASSERT_EQ(rc, 0) << err;
  const std::vector<std::string> recs = Lines(Slurp(dir + "/r.jsonl"));
  ASSERT_EQ(recs.size(), 1u) << err;
  const std::string report = Slurp(dir + "/out");
  const std::string want = WordsToHex(report);
  ASSERT_EQ(want.size(), 256u) << "the program's report has no encoding: " << report;
  EXPECT_NE(recs[0].find("\"bytes\":\"" + want + "\""), std::string::npos) << recs[0] << "\nwant " << want;
  EXPECT_NE(recs[0].find("\"result\":\"CUDA_SUCCESS\""), std::string::npos);
  EXPECT_NE(recs[0].find("/tmapgen\""), std::string::npos) << "the caller is the tmapgen binary: " << recs[0];
}

TEST(TraceGpu, EveryMapTheDriverRejectsIsExplainedByARule) {
  SkipWithoutGpu();
  if (IsSkipped()) return;
  std::string err;
  int rc = 0;
  const std::string dir = RunTrace("-- " TMAPGEN_BINARY " sweep --random 300 --seed 7", &err, &rc);
  if (err.find("not tracing: CUPTI not found") != std::string::npos)
    GTEST_SKIP() << "CUPTI is not installed here (set TMAPGEN_CUPTI): " << err;
  ASSERT_EQ(rc, 0) << err;
  int rejected = 0;
  for (const std::string& r : Lines(Slurp(dir + "/r.jsonl")))
    rejected += r.find("\"result\":\"CUDA_ERROR_INVALID_VALUE\"") != std::string::npos;
  EXPECT_GT(rejected, 0) << "a random sweep always holds maps the driver rejects";
  EXPECT_EQ(err.find("finds no documented rule"), std::string::npos) << err;
}

}  // namespace
