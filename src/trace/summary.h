// summary.h: what `tmapgen trace` says at the end: every process's record stream merged, counted and
// grouped by the library that called the driver.
//
// Contract
// - AddProcess() once per process stream (state file), AddRecord() once per record with its count.
//   Records of several processes with the same configuration (call_spec.h ConfigKeyOf) are merged:
//   counts add up, the first record seen speaks for them, and the processes are counted.
// - Every configuration is judged (explain.h) for the target it carries. Text: maps seen, distinct
//   configurations, driver rejections, accepted maps that break a documented rule, accepted maps with
//   warnings, processes that could not be traced and why; then per calling library its counts and each
//   of its problem configurations explained (at most max_explained per library; the JSON report has
//   them all).
// - Launches (launch.h): AddLaunches() once per process with its kernel counts, AddLaunchRecord() per
//   launch record. RenderLaunchText() says how many launches were seen and scanned, the maps found and
//   their findings, per kernel (merged by name across processes), and explains each finding (at most
//   max_explained); it is empty when no launch was seen. A launch finding (a map whose tensor is not in
//   its allocation, or that breaks a documented rule) counts as an error for Worst().
// - Worst() is the most severe outcome seen, for --fail-on.
// - Memory: one entry per distinct configuration. No I/O.
#ifndef TMAPGEN_SRC_TRACE_SUMMARY_H_
#define TMAPGEN_SRC_TRACE_SUMMARY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/json/json_writer.h"
#include "src/trace/call.h"
#include "src/trace/call_spec.h"
#include "src/trace/explain.h"
#include "src/trace/launch.h"
#include "src/trace/stream.h"

namespace tmapgen::trace {

struct SummaryOptions {
  int max_explained = 8;  // problem configurations explained per library in the text
};

class Summary {
 public:
  void AddProcess(const ProcessInfo& p);
  void AddRecord(const EncodeCall& call, uint64_t count);

  std::string RenderText(const SummaryOptions& options) const;
  // The whole trace as one JSON object (docs/trace.md, "The report").
  void WriteJson(json::Writer* w) const;

  void AddLaunches(const LaunchTotals& totals);
  void AddLaunchRecord(const LaunchRecord& record);
  std::string RenderLaunchText(const SummaryOptions& options) const;
  void WriteLaunchJson(json::Writer* w) const;
  uint64_t launch_findings() const;

  Outcome Worst() const;
  uint64_t calls() const;
  size_t configurations() const { return configs_.size(); }
  size_t processes() const { return processes_.size(); }
  // Outcome counts over configurations.
  uint64_t configs_with(Outcome o) const;
  uint64_t calls_with(Outcome o) const;

 private:
  struct Config {
    EncodeCall first;
    uint64_t count = 0;
    int processes = 0;
    int32_t last_pid = 0;
    std::unique_ptr<Verdict> verdict;
  };
  struct KeyHash {
    size_t operator()(const ConfigKey& k) const { return static_cast<size_t>(HashKey(k)); }
  };
  std::vector<ProcessInfo> processes_;
  std::unordered_map<ConfigKey, size_t, KeyHash> index_;
  std::vector<Config> configs_;  // in order of first appearance
  LaunchTotals launches_;       // summed over processes, kernels merged by name
  bool have_launches_ = false;
  std::vector<LaunchRecord> launch_records_;
};

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_SUMMARY_H_
