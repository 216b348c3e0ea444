// check_worker.h: runs `tmapgen check` for tmapd in a worker process (fork + exec of the tmapgen
// binary), so that a kernel fault that poisons the CUDA context ends with that process and never with
// the service; the next request gets a fresh worker. The spec files are written to a private temporary
// directory and their paths shown under the caller's names.
#ifndef TMAPGEN_SERVER_CHECK_WORKER_H_
#define TMAPGEN_SERVER_CHECK_WORKER_H_

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace tmapgen::server {

struct CheckJob {
  std::vector<std::pair<std::string, std::string>> files;  // (caller's name, content)
  std::vector<std::string> flags;                          // already allowed: --seed S, --verbose
  std::chrono::system_clock::time_point deadline;
};

struct CheckOutcome {
  enum class End { kExited, kKilledBySignal, kTimedOut, kCancelled } end = End::kExited;
  int exit_code = 0;
  int signal = 0;
  std::string out, err;
};

// The tmapgen binary next to tmapd (same directory, or its parent: build/server/tmapd, build/tmapgen);
// "" when there is none.
std::string DefaultCheckWorker();

// Runs the job; `cancelled` is polled (the client went away). Returns false with *why when the worker
// could not be started at all.
bool RunCheckWorker(const std::string& binary, const CheckJob& job, bool (*cancelled)(void*), void* arg,
                    CheckOutcome* out, std::string* why);

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_CHECK_WORKER_H_
