// accept_guard.cc: see accept_guard.h.
#include "server/accept_guard.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>

namespace tmapgen::server {
namespace {

std::atomic<bool> g_on{false};
std::atomic<int> g_threshold{0};
std::atomic<uint64_t> g_accepted{0}, g_refused{0};
int g_limit = 0;
std::mutex g_spare_mu;
int g_spare = -1;

int RawAccept(int fd, sockaddr* addr, socklen_t* len, int flags) {
  return static_cast<int>(syscall(SYS_accept4, fd, addr, len, flags));
}

int OpenFds() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d) != nullptr) ++n;
    closedir(d);
    n -= 3;  // ".", "..", and the directory itself
  }
  return n;
}

// Refuses what is queued on the listener: accept and close until nothing is left (or the spare cannot
// help). Returns -1 with errno = EAGAIN, which gRPC answers by waiting for the next connection.
int RefuseQueued(int fd) {
  for (int i = 0; i < 4096; ++i) {
    const int c = RawAccept(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c >= 0) {
      close(c);
      g_refused.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EMFILE && errno != ENFILE) break;
    std::lock_guard<std::mutex> lock(g_spare_mu);
    if (g_spare < 0) break;
    close(g_spare);
    const int c2 = RawAccept(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c2 >= 0) {
      close(c2);
      g_refused.fetch_add(1, std::memory_order_relaxed);
    }
    g_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (c2 < 0) break;
  }
  errno = EAGAIN;
  return -1;
}

}  // namespace

void InstallAcceptGuard(int reserve, int max_connections) {
  if (g_on.load()) return;
  rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    if (rl.rlim_cur < rl.rlim_max) {
      rl.rlim_cur = rl.rlim_max > (1u << 20) ? (1u << 20) : rl.rlim_max;
      setrlimit(RLIMIT_NOFILE, &rl);
      getrlimit(RLIMIT_NOFILE, &rl);
    }
    g_limit = static_cast<int>(rl.rlim_cur > (1u << 30) ? (1u << 30) : rl.rlim_cur);
  } else {
    g_limit = 1024;
  }
  {
    std::lock_guard<std::mutex> lock(g_spare_mu);
    g_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  int threshold = g_limit - (reserve < 8 ? 8 : reserve);
  if (max_connections > 0 && OpenFds() + max_connections < threshold) threshold = OpenFds() + max_connections;
  g_threshold.store(threshold < 16 ? 16 : threshold);
  g_on.store(true);
}

AcceptGuardStats AcceptGuard() {
  AcceptGuardStats s;
  s.accepted = g_accepted.load();
  s.refused = g_refused.load();
  s.threshold = g_threshold.load();
  s.limit = g_limit;
  return s;
}

}  // namespace tmapgen::server

// The accept4() every caller in this process gets, gRPC's listener included.
extern "C" int accept4(int fd, sockaddr* addr, socklen_t* len, int flags) {
  using namespace tmapgen::server;  // NOLINT
  const int c = RawAccept(fd, addr, len, flags);
  if (!g_on.load(std::memory_order_relaxed)) return c;
  if (c >= 0) {
    if (c < g_threshold.load(std::memory_order_relaxed)) {
      g_accepted.fetch_add(1, std::memory_order_relaxed);
      return c;
    }
    close(c);
    g_refused.fetch_add(1, std::memory_order_relaxed);
    return RefuseQueued(fd);
  }
  if (errno == EMFILE || errno == ENFILE) return RefuseQueued(fd);
  return c;
}
