// worker.h: items of GPU work run in child processes, so that a kernel fault (which poisons the CUDA
// context) or a hang ends only a child: the caller learns which item the child died on, and a new child
// goes on with the next item. The routine itself needs no CUDA (the callbacks open the GPU inside each
// child), so it runs, and is tested, on a machine without a GPU.
//
// Contract
// - RunWorker(items, watchdog_s, callbacks) runs items 0 .. items - 1 in order, in as few children as it
//   can. Each child (fork(), a pipe back to the caller) arms alarm(watchdog_s) once, when it starts (the
//   watchdog covers everything that child runs), calls `open` once, then `run` for every item from where
//   the previous child stopped, and exits.
// - `open` (in the child) opens what the items need, the GPU. Its error ends the run: nothing more is
//   tried, WorkerRun::opened is false and why_not is the error's message. OK: its value is the device's
//   description (WorkerRun::device).
// - `run(i, send)` (in the child) runs item i and sends its results with `send`, any number of texts
//   (newlines and backslashes included: they are escaped on the pipe). The caller's `on_line(i, text)`
//   receives each text as it was sent, in order. An error from `run` is a fault (CUDA's context is lost
//   after a kernel fault): the child exits (status 3), the caller's `on_fault(i, message)` receives the
//   error's message, and a new child starts at item i + 1.
// - A child that ends without finishing (a crash, an exit, the watchdog's SIGALRM) while item i runs: the
//   caller's `on_death(i, death)` (death.hung: the watchdog killed it), then a new child starts at i + 1.
//   Texts item i sent before it died have reached on_line already.
// - A child that dies before `open` answers ends the run like an open error, with an empty why_not (the
//   caller names it). pipe() or fork() failing ends the run with why_not "pipe() failed" / "fork() failed"
//   (opened stays what the previous child left: true when one had opened). No items: no child, opened
//   false, why_not empty.
// - WorkerRun::opened and device are those of the last child that answered; children counts them all.
// - The caller must not have opened CUDA before calling (CUDA does not survive fork(); gpu_api.h). Standard
//   I/O is flushed before each fork, so that nothing buffered is written twice.
#ifndef TMAPGEN_SRC_GPU_RUNTIME_WORKER_H_
#define TMAPGEN_SRC_GPU_RUNTIME_WORKER_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tmapgen::gpu {

using WorkerSend = std::function<void(std::string_view text)>;

struct WorkerDeath {
  bool hung = false;    // killed by the watchdog (SIGALRM)
  int wait_status = 0;  // as waitpid() reported it
};

struct WorkerCallbacks {
  // In each child, once, before its first item: the device's description, or why nothing can run.
  std::function<absl::StatusOr<std::string>()> open;
  // In the child, per item.
  std::function<absl::Status(size_t item, const WorkerSend& send)> run;
  // In the caller.
  std::function<void(size_t item, const std::string& text)> on_line;
  std::function<void(size_t item, const std::string& message)> on_fault;
  std::function<void(size_t item, const WorkerDeath& death)> on_death;
};

struct WorkerRun {
  bool opened = false;   // the last child that answered opened (open() was OK)
  std::string device;    // open()'s description
  std::string why_not;   // !opened: open()'s error, "pipe() failed", "fork() failed", or empty (died first)
  int children = 0;      // children started
};

WorkerRun RunWorker(size_t items, int watchdog_s, const WorkerCallbacks& callbacks);

}  // namespace tmapgen::gpu

#endif  // TMAPGEN_SRC_GPU_RUNTIME_WORKER_H_
