// gpu_queue.h: a fixed pool of `concurrency` threads behind a queue of at most `queue` waiting jobs.
// tmapd runs each cost class of work on one of its own: GPU work (Build's driver encode, Check's worker
// process), heavy unary calls (Codegen, Decode) and the steps of batch streams, so that gRPC's threads
// never block on them, cheap calls keep their latency, and the number of threads stays fixed whatever
// the clients do.
//
// Contract
// - Submit() returns false at once when `queue` jobs are already waiting (the caller answers
//   RESOURCE_EXHAUSTED). A job runs exactly once, on a pool thread; it checks its own call's deadline
//   and cancellation when it starts (it may have waited).
// - The destructor runs the jobs still queued, then joins the threads.
#ifndef TMAPGEN_SERVER_GPU_QUEUE_H_
#define TMAPGEN_SERVER_GPU_QUEUE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tmapgen::server {

class GpuQueue {
 public:
  // nice > 0: the pool's threads run at that lower priority (setpriority on each thread), so that the
  // threads answering cheap calls take a core first when both want one.
  GpuQueue(uint32_t concurrency, uint32_t queue, int nice = 0);
  ~GpuQueue();
  GpuQueue(const GpuQueue&) = delete;
  GpuQueue& operator=(const GpuQueue&) = delete;

  bool Submit(std::function<void()> job);
  uint32_t waiting() const;

 private:
  void Work();

  const uint32_t queue_;
  const int nice_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  size_t running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_GPU_QUEUE_H_
