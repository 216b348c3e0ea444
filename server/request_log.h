// request_log.h: tmapd's request log: one line per call on standard error,
//   tmapd: method=Validate status=OK duration_us=41
// (batches add specs= and valid=; a call the client abandoned adds client_cancelled=1). The status is
// the one the server sent, decided before sending (responses over the limit are refused by the
// service itself, so gRPC never turns an OK into something else on the way out). Tokens, metadata and
// specs are never logged.
//
// Contract
// - Lines are formatted by the calling thread and appended to a buffer; one writer thread writes the
//   buffer to the file descriptor every 20 ms (or at 256 KiB), so a call never waits for the disk.
//   Flush() and the destructor write everything that is buffered. A reader that stops reading (a full
//   pipe) must not stop the service or grow it without bound: past 16 MiB buffered, lines are counted
//   instead of kept, and the next write starts with "tmapd: log: N lines dropped (...)".
// - Thread-safe.
#ifndef TMAPGEN_SERVER_REQUEST_LOG_H_
#define TMAPGEN_SERVER_REQUEST_LOG_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tmapgen::server {

class RequestLog {
 public:
  explicit RequestLog(int fd = 2);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  void Line(const char* method, const char* status, int64_t duration_us, const std::string& extra);
  void Flush();

 private:
  void Writer();
  void WriteOut(std::string* buf);

  const int fd_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string buf_;
  uint64_t dropped_ = 0;
  bool stop_ = false;
  std::mutex write_mu_;  // the writer thread and Flush()
  std::thread thread_;
};

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_REQUEST_LOG_H_
