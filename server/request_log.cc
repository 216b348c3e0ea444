// request_log.cc: see request_log.h.
#include "server/request_log.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

namespace tmapgen::server {

RequestLog::RequestLog(int fd) : fd_(fd), thread_([this] { Writer(); }) {}

RequestLog::~RequestLog() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
  Flush();
}

void RequestLog::Line(const char* method, const char* status, int64_t duration_us, const std::string& extra) {
  char line[160];
  const int n = std::snprintf(line, sizeof line, "tmapd: method=%s status=%s duration_us=%lld", method, status,
                              static_cast<long long>(duration_us));
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (buf_.size() >= (16u << 20)) {
      ++dropped_;
      return;
    }
    if (dropped_ > 0) {
      buf_ += "tmapd: log: " + std::to_string(dropped_) + " lines dropped (the log's reader did not keep up)\n";
      dropped_ = 0;
    }
    buf_.append(line, n > 0 && static_cast<size_t>(n) < sizeof line ? static_cast<size_t>(n) : 0);
    buf_ += extra;
    buf_ += '\n';
    wake = buf_.size() >= (256u << 10);
  }
  if (wake) cv_.notify_one();
}

void RequestLog::WriteOut(std::string* buf) {
  size_t off = 0;
  while (off < buf->size()) {
    // A reader that stopped reading: give up after 2 s rather than hang (at shutdown too).
    pollfd p{fd_, POLLOUT, 0};
    if (poll(&p, 1, 2000) <= 0) {
      uint64_t lines = 0;
      for (size_t i = off; i < buf->size(); ++i) lines += (*buf)[i] == '\n';
      std::lock_guard<std::mutex> lock(mu_);
      dropped_ += lines;
      break;
    }
    const ssize_t w = write(fd_, buf->data() + off, buf->size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;  // nowhere to write: the lines are lost with the descriptor, not the service
    off += static_cast<size_t>(w);
  }
  buf->clear();
}

void RequestLog::Flush() {
  std::lock_guard<std::mutex> wlock(write_mu_);
  std::string out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    out.swap(buf_);
    if (dropped_ > 0) out += "tmapd: log: " + std::to_string(dropped_) + " lines dropped (the log's reader did not keep up)\n";
    dropped_ = 0;
  }
  WriteOut(&out);
}

void RequestLog::Writer() {
  std::string out;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stop_ || buf_.size() >= (256u << 10); });
    if (buf_.empty()) continue;
    out.swap(buf_);
    lock.unlock();
    {
      std::lock_guard<std::mutex> wlock(write_mu_);
      WriteOut(&out);
    }
    lock.lock();
  }
}

}  // namespace tmapgen::server
