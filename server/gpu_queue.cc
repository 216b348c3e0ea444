// gpu_queue.cc: see gpu_queue.h.
#include "server/gpu_queue.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tmapgen::server {

GpuQueue::GpuQueue(uint32_t concurrency, uint32_t queue, int nice) : queue_(queue), nice_(nice) {
  for (uint32_t i = 0; i < (concurrency == 0 ? 1 : concurrency); ++i) threads_.emplace_back([this] { Work(); });
}

GpuQueue::~GpuQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool GpuQueue::Submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_ || running_ + jobs_.size() >= queue_ + threads_.size()) return false;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

uint32_t GpuQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<uint32_t>(jobs_.size());
}

void GpuQueue::Work() {
  // Linux: the nice value is per thread (a thread id names it to setpriority).
  if (nice_ > 0) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice_);
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, nothing left
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    ++running_;
    lock.unlock();
    job();
    lock.lock();
    --running_;
  }
}

}  // namespace tmapgen::server
