// tmapd: the tmapgen gRPC service (docs/service.md).
//
//   tmapd [--listen 127.0.0.1:50051] [--tls-cert FILE --tls-key FILE] [--token-file FILE] [limits...]
//
// Prints "tmapd: listening on HOST:PORT" on standard error once serving; SIGTERM or SIGINT stop it
// gracefully (calls in flight finish, up to --grace-ms).
#include <google/protobuf/stubs/logging.h>
#include <pthread.h>
#include <signal.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "server/health_listener.h"
#include "server/metrics.h"
#include "server/service.h"
#include "src/io/file.h"
#include "src/util/status.h"
#include "src/util/strings.h"

using tmapgen::ErrnoStatus;
using tmapgen::StatusMessage;
using tmapgen::StrCat;
using tmapgen::ToAbsl;

namespace {

// The most a credential file (--tls-cert, --tls-key, --token-file) may hold: PEM chains are kilobytes; a
// larger file is the wrong file (or /dev/zero), refused at start instead of read without end.
constexpr size_t kMaxCredentialBytes = size_t{1} << 20;

const char* kUsage =
    "usage: tmapd [--listen ADDR] [--tls-cert FILE --tls-key FILE] [--token-file FILE]\n"
    "             [--max-message-bytes N] [--max-specs-per-message N] [--max-specs-per-call N]\n"
    "             [--max-concurrent-calls N] [--gpu-concurrency N] [--gpu-queue N] [--grace-ms N]\n"
    "             [--check-worker PATH] [--max-check-tensor-bytes N] [--max-check-specs N] [--check-timeout-ms N]\n"
    "             [--handshake-timeout-ms N] [--max-connection-idle-ms N] [--max-connection-age-ms N]\n"
    "             [--keepalive-time-ms N] [--keepalive-timeout-ms N] [--max-streams-per-connection N]\n"
    "             [--fd-reserve N] [--max-connections N] [--validate-threads N] [--poll-strategy poll|epoll1]\n"
    "             [--max-streams N] [--max-pending-messages N] [--stream-idle-timeout-ms N] [--heavy-threads N] [--heavy-queue N]\n"
    "             [--batch-threads N] [--batch-response-bytes N] [--memory-quota-bytes N] [--allow-unauthenticated]\n"
    "             [--metrics-listen ADDR [--metrics-allow-remote]] [--health-listen ADDR] [--no-gpu] [--no-log]\n"
    "  --listen ADDR       127.0.0.1:50051 by default; port 0 picks one. An address that does not resolve to\n"
    "                      loopback only needs TLS.\n"
    "  --token-file FILE   require \"authorization: Bearer <token>\" on every call (also $TMAPD_TOKEN); a listener\n"
    "                      that is not loopback only needs one, or --allow-unauthenticated.\n"
    "  --metrics-listen ADDR  serve Prometheus metrics (GET /metrics, plain HTTP) on ADDR; loopback only unless\n"
    "                      --metrics-allow-remote\n"
    "  --health-listen ADDR   also serve grpc.health.v1 alone, in plaintext, on ADDR (for probes without TLS)\n";

bool ParseU64(const std::string& s, uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) return false;
  *out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

// A credential file's bytes. Only a regular file is read: a FIFO would block start-up until a writer
// came, a device (/dev/zero) would never end. It is opened without blocking (a FIFO swapped in after the
// check cannot hang the open either), then checked with fstat on the descriptor that is read.
absl::StatusOr<std::string> ReadCredential(const char* flag, const std::string& path) {
  if (path.empty())
    return absl::InvalidArgumentError(
        ToAbsl(StrCat(flag, ": empty file name (an unset variable?): name a file, or leave the flag out")));
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return ErrnoStatus(errno, StrCat(flag, ": cannot open"), path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        ToAbsl(StrCat(flag, ": ", path, " is not a regular file (a FIFO, device or directory is refused)")));
  }
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      close(fd);
      return ErrnoStatus(e, StrCat(flag, ": cannot read"), path);
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > kMaxCredentialBytes) {
      close(fd);
      return absl::ResourceExhaustedError(
          ToAbsl(StrCat(flag, ": ", path, " is longer than ", kMaxCredentialBytes, " bytes, the limit for ", flag)));
    }
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

// A token is the file's one line: surrounding spaces and the line end are not part of it. Empty, or
// with spaces or control characters inside, is refused: authentication must never be off by accident.
// It must be printable ASCII (0x21-0x7e): an HTTP/2 header value carries nothing else that every client
// can send, so any other byte makes a token no client can present.
absl::Status CleanToken(std::string* t, const char* from) {
  const size_t b = t->find_first_not_of(" \t\r\n");
  const size_t e = t->find_last_not_of(" \t\r\n");
  *t = b == std::string::npos ? "" : t->substr(b, e - b + 1);
  if (t->empty())
    return absl::InvalidArgumentError(ToAbsl(
        StrCat(from, " holds no token (empty or only whitespace): refusing to start without authentication")));
  for (unsigned char c : *t)
    if (c <= ' ' || c == 0x7f) {
      return absl::InvalidArgumentError(
          ToAbsl(StrCat(from, ": the token contains whitespace or a control character (one line, one token)")));
    } else if (c > 0x7e) {
      return absl::InvalidArgumentError(ToAbsl(StrCat(from, ": the token contains a byte outside printable ASCII "
                                                            "(0x21-0x7e), which no client can send in an HTTP header")));
    }
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  // Protobuf logs every request it cannot parse (invalid UTF-8 in a string field) on standard error; the
  // request is answered INVALID_ARGUMENT and logged once by tmapd, so its own lines would only let a
  // client flood the log. Fatal messages still abort.
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel level, const char* file, int line, const std::string& m) {
    if (level >= google::protobuf::LOGLEVEL_FATAL) std::fprintf(stderr, "tmapd: protobuf %s:%d: %s\n", file, line, m.c_str());
  });
  // gRPC's mutexes are Abseil's; Debian's Abseil checks every lock order for deadlocks at run time
  // (GraphCycles: about 4 % of a unary call's CPU). tmapd's lock order is fixed; the tests run with it on.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  tmapgen::server::ServerConfig c;
  std::string poll_strategy = "poll";
  std::string cert_file, key_file, token_file, metrics_listen, health_listen;
  bool metrics_allow_remote = false;
  bool cert_given = false, key_given = false, token_given = false;  // an empty value is refused, not ignored
  uint64_t grace_ms = 10000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], value;
    const size_t eq = a.find('=');
    bool has_value = false;
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_value = true;
    }
    auto take = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    auto num = [&](uint64_t* out, uint64_t max) -> bool {
      if (!take() || !ParseU64(value, out) || *out == 0 || *out > max) {
        std::fprintf(stderr, "tmapd: %s needs a number from 1 to %llu\n%s", a.c_str(),
                     static_cast<unsigned long long>(max), kUsage);
        return false;
      }
      return true;
    };
    auto ms = [&](int* out) -> bool {
      uint64_t n = 0;
      if (!num(&n, 86400000)) return false;
      *out = static_cast<int>(n);
      return true;
    };
    uint64_t n = 0;
    if (a == "--help" || a == "-h") { std::fputs(kUsage, stdout); return 0; }
    else if (a == "--listen") { if (!take()) { std::fputs(kUsage, stderr); return 2; } c.listen = value; }
    else if (a == "--tls-cert") { if (!take()) { std::fputs(kUsage, stderr); return 2; } cert_file = value; cert_given = true; }
    else if (a == "--tls-key") { if (!take()) { std::fputs(kUsage, stderr); return 2; } key_file = value; key_given = true; }
    else if (a == "--token-file") { if (!take()) { std::fputs(kUsage, stderr); return 2; } token_file = value; token_given = true; }
    else if (a == "--allow-unauthenticated") c.allow_unauthenticated = true;
    else if (a == "--metrics-listen") { if (!take() || value.empty()) { std::fprintf(stderr, "tmapd: --metrics-listen needs HOST:PORT\n%s", kUsage); return 2; } metrics_listen = value; }
    else if (a == "--metrics-allow-remote") metrics_allow_remote = true;
    else if (a == "--health-listen") { if (!take() || value.empty()) { std::fprintf(stderr, "tmapd: --health-listen needs HOST:PORT\n%s", kUsage); return 2; } health_listen = value; }
    else if (a == "--no-gpu") c.use_gpu = false;
    else if (a == "--no-log") c.log = false;
    else if (a == "--max-message-bytes") { if (!num(&n, 1u << 30)) return 2; c.limits.max_message_bytes = n; }
    else if (a == "--max-specs-per-message") { if (!num(&n, 1u << 24)) return 2; c.limits.max_specs_per_message = static_cast<uint32_t>(n); }
    else if (a == "--max-specs-per-call") { if (!num(&n, 1u << 31)) return 2; c.limits.max_specs_per_call = static_cast<uint32_t>(n); }
    else if (a == "--max-concurrent-calls") { if (!num(&n, 1u << 20)) return 2; c.limits.max_concurrent_calls = static_cast<uint32_t>(n); }
    else if (a == "--gpu-concurrency") { if (!num(&n, 64)) return 2; c.limits.gpu_concurrency = static_cast<uint32_t>(n); }
    else if (a == "--gpu-queue") { if (!num(&n, 1u << 20)) return 2; c.limits.gpu_queue = static_cast<uint32_t>(n); }
    else if (a == "--grace-ms") { if (!num(&n, 3600000)) return 2; grace_ms = n; }
    else if (a == "--check-worker") { if (!take()) { std::fputs(kUsage, stderr); return 2; } c.check_worker = value; }
    else if (a == "--max-check-tensor-bytes") { if (!num(&n, uint64_t{1} << 40)) return 2; c.limits.max_check_tensor_bytes = n; }
    else if (a == "--max-check-specs") { if (!num(&n, 1u << 16)) return 2; c.limits.max_check_specs = static_cast<uint32_t>(n); }
    else if (a == "--check-timeout-ms") { if (!num(&n, 3600000)) return 2; c.limits.check_timeout_ms = static_cast<uint32_t>(n); }
    else if (a == "--handshake-timeout-ms") { if (!ms(&c.handshake_timeout_ms)) return 2; }
    else if (a == "--max-connection-idle-ms") { if (!ms(&c.max_connection_idle_ms)) return 2; }
    else if (a == "--max-connection-age-ms") { if (!ms(&c.max_connection_age_ms)) return 2; }
    else if (a == "--keepalive-time-ms") { if (!ms(&c.keepalive_time_ms)) return 2; }
    else if (a == "--keepalive-timeout-ms") { if (!ms(&c.keepalive_timeout_ms)) return 2; }
    else if (a == "--max-streams-per-connection") { if (!num(&n, 1u << 16)) return 2; c.max_streams_per_connection = static_cast<int>(n); }
    else if (a == "--max-pending-messages") { if (!num(&n, 1u << 20)) return 2; c.max_pending_messages = static_cast<int>(n); }
    else if (a == "--max-streams") { if (!num(&n, 1u << 20)) return 2; c.max_streams = static_cast<int>(n); }
    else if (a == "--stream-idle-timeout-ms") {
      if (!take() || !ParseU64(value, &n) || n > 86400000) { std::fprintf(stderr, "tmapd: --stream-idle-timeout-ms needs 0 (never) to 86400000\n"); return 2; }
      c.stream_idle_timeout_ms = static_cast<int>(n);
    }
    else if (a == "--heavy-threads") { if (!num(&n, 256)) return 2; c.heavy_threads = static_cast<int>(n); }
    else if (a == "--heavy-queue") { if (!num(&n, 1u << 16)) return 2; c.heavy_queue = static_cast<int>(n); }
    else if (a == "--batch-threads") { if (!num(&n, 256)) return 2; c.batch_threads = static_cast<int>(n); }
    else if (a == "--batch-response-bytes") { if (!num(&n, 1u << 30)) return 2; c.limits.batch_response_bytes = n; }
    else if (a == "--memory-quota-bytes") {
      if (!take() || !ParseU64(value, &n) || (n != 0 && n < (16u << 20))) { std::fprintf(stderr, "tmapd: --memory-quota-bytes needs 0 (none) or at least 16777216\n"); return 2; }
      c.memory_quota_bytes = n;
    }
    else if (a == "--fd-reserve") { if (!num(&n, 1u << 16)) return 2; c.fd_reserve = static_cast<int>(n); }
    else if (a == "--max-connections") { if (!num(&n, 1u << 24)) return 2; c.max_connections = static_cast<int>(n); }
    else if (a == "--poll-strategy") {
      if (!take() || (value != "poll" && value != "epoll1")) { std::fprintf(stderr, "tmapd: --poll-strategy: poll or epoll1\n"); return 2; }
      poll_strategy = value;
    }
    else if (a == "--validate-threads") { if (!take() || !ParseU64(value, &n) || n > 64) { std::fprintf(stderr, "tmapd: --validate-threads needs 0 to 64\n"); return 2; } c.validate_threads = static_cast<int>(n); }
    else if (a == "--threads") {
      std::fprintf(stderr, "tmapd: --threads was removed: no call holds a thread any more (docs/service.md, \"Threads\")\n");
      return 2;
    } else {
      std::fprintf(stderr, "tmapd: unknown argument %s\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  // A credential file's bytes into *out; false (after saying why) when it cannot be read, is not a
  // regular file or is too large.
  auto read_credential = [](const char* flag, const std::string& path, std::string* out) {
    absl::StatusOr<std::string> read = ReadCredential(flag, path);
    if (!read.ok()) {
      std::fprintf(stderr, "tmapd: %s\n", std::string(StatusMessage(read.status())).c_str());
      return false;
    }
    *out = *std::move(read);
    return true;
  };
  if (cert_given && !read_credential("--tls-cert", cert_file, &c.tls_cert_pem)) return 2;
  if (key_given && !read_credential("--tls-key", key_file, &c.tls_key_pem)) return 2;
  if (token_given) {
    if (!read_credential("--token-file", token_file, &c.token)) return 2;
    if (const absl::Status st = CleanToken(&c.token, StrCat("--token-file ", token_file).c_str()); !st.ok()) {
      std::fprintf(stderr, "tmapd: %s\n", std::string(StatusMessage(st)).c_str());
      return 2;
    }
  } else if (const char* t = std::getenv("TMAPD_TOKEN")) {
    c.token = t;
    if (const absl::Status st = CleanToken(&c.token, "$TMAPD_TOKEN"); !st.ok()) {
      std::fprintf(stderr, "tmapd: %s (unset it to run without a token)\n", std::string(StatusMessage(st)).c_str());
      return 2;
    }
  }

  // gRPC's poller: with "poll", the thread that waits on a completion queue polls the connections itself,
  // so that the Validate thread reads, answers and writes without handing the call to another thread
  // (docs/lab/perf-history.md, section 7: half the CPU per call and a quarter of the p99 of epoll1 on 2
  // cores). GRPC_POLL_STRATEGY set in the environment wins.
  setenv("GRPC_POLL_STRATEGY", poll_strategy.c_str(), /*overwrite=*/0);

  // SIGTERM/SIGINT are taken by a thread (sigwait), so block them before gRPC starts its threads.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);

  if (metrics_allow_remote && metrics_listen.empty()) {
    std::fprintf(stderr, "tmapd: --metrics-allow-remote needs --metrics-listen\n");
    return 2;
  }
  // The metrics endpoint first: a flag that cannot be honoured stops tmapd before it serves.
  std::unique_ptr<tmapgen::server::Metrics> metrics;
  if (!metrics_listen.empty()) {
    absl::StatusOr<std::unique_ptr<tmapgen::server::Metrics>> started =
        tmapgen::server::Metrics::Start(metrics_listen, metrics_allow_remote);
    if (!started.ok()) {
      std::fprintf(stderr, "tmapd: %s\n", std::string(started.status().message()).c_str());
      return 2;
    }
    metrics = *std::move(started);
    c.metrics = metrics.get();
  }

  absl::StatusOr<std::unique_ptr<tmapgen::server::Server>> started = tmapgen::server::Server::Start(c);
  if (!started.ok()) {
    std::fprintf(stderr, "tmapd: %s\n", std::string(started.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<tmapgen::server::Server> server = *std::move(started);
  std::fprintf(stderr, "tmapd: listening on %s (%s%s)\n", server->bound().c_str(),
               c.tls_cert_pem.empty() ? "plaintext" : "TLS", c.token.empty() ? "" : ", token required");
  std::unique_ptr<tmapgen::server::HealthListener> health;
  if (!health_listen.empty()) {
    absl::StatusOr<std::unique_ptr<tmapgen::server::HealthListener>> listening =
        tmapgen::server::HealthListener::Start(health_listen, {"tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd"});
    if (!listening.ok()) {
      std::fprintf(stderr, "tmapd: %s\n", std::string(listening.status().message()).c_str());
      server->Shutdown(std::chrono::milliseconds(0));
      server->Wait();
      return 1;
    }
    health = *std::move(listening);
    std::fprintf(stderr, "tmapd: health listening on %s (grpc.health.v1 only, plaintext)\n", health->bound().c_str());
  }
  if (metrics) std::fprintf(stderr, "tmapd: metrics listening on %s (GET /metrics)\n", metrics->bound().c_str());
  if (!server->loopback() && c.token.empty())
    std::fprintf(stderr, "tmapd: warning: %s is not loopback only and no token is required (--allow-unauthenticated): "
                         "anyone who can reach it can use it\n", server->bound().c_str());
  std::fflush(stderr);

  std::thread stopper([&] {
    int sig = 0;
    sigwait(&set, &sig);
    // Readiness goes first: probes see NOT_SERVING while calls in flight finish.
    if (health) health->SetServing(false);
    std::fprintf(stderr, "tmapd: signal %d: finishing calls in flight (at most %llu ms)\n", sig,
                 static_cast<unsigned long long>(grace_ms));
    server->Shutdown(std::chrono::milliseconds(grace_ms));
  });
  server->Wait();
  stopper.join();
  server.reset();
  if (health) health->Shutdown();
  std::fprintf(stderr, "tmapd: stopped\n");
  return 0;
}
