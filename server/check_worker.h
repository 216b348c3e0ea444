// check_worker.h: runs tmapd's GPU check in a worker process (fork + exec of tmapd_check_worker,
// server/check_worker_main.cc), so that a kernel fault that poisons the CUDA context ends with that
// process and never with the service; the next request gets a fresh worker.
//
// Contract
// - The worker gets no arguments from the request: its argv is the binary alone (plus fixed flags of
//   this server), its standard input the request bytes, its standard output the answer bytes. No file
//   is written for it; nothing a request names is opened.
// - Input is written while output is read (poll), so neither side blocks on a full pipe. Output over
//   `max_output_bytes` stops the worker (End::kTooLarge).
// - `cancelled` is polled every 100 ms (the client went away); the deadline is checked as often. Both
//   kill the worker's process group.
#ifndef TMAPGEN_SERVER_CHECK_WORKER_H_
#define TMAPGEN_SERVER_CHECK_WORKER_H_

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tmapgen::server {

struct CheckJob {
  std::string input;                      // the worker's standard input
  std::vector<std::string> flags;         // fixed flags of the server (never from a request)
  std::chrono::system_clock::time_point deadline;
  size_t max_output_bytes = 64u << 20;
};

struct CheckOutcome {
  enum class End { kExited, kKilledBySignal, kTimedOut, kCancelled, kTooLarge } end = End::kExited;
  int exit_code = 0;
  int signal = 0;
  std::string out, err;
};

// The worker next to tmapd (same directory, or its parent's server/); "" when there is none.
std::string DefaultCheckWorker();

// Runs the job. OK when the worker ran, however it ended (*out says how); an error only when it could not
// be started at all: pipes (ErrnoStatus's code, "cannot create pipes: REASON") or fork (kResourceExhausted,
// "fork: REASON").
absl::Status RunCheckWorker(const std::string& binary, const CheckJob& job, bool (*cancelled)(void*), void* arg,
                            CheckOutcome* out);

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_CHECK_WORKER_H_
