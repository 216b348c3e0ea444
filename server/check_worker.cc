// check_worker.cc: see check_worker.h.
#include "server/check_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace tmapgen::server {
namespace {

bool WriteAll(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = write(fd, text.data() + off, text.size() - off);
    if (n <= 0) {
      close(fd);
      return false;
    }
    off += static_cast<size_t>(n);
  }
  return close(fd) == 0;
}

void ReplaceAll(std::string* s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t p = 0; (p = s->find(from, p)) != std::string::npos; p += to.size()) s->replace(p, from.size(), to);
}

}  // namespace

std::string DefaultCheckWorker() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = '\0';
  std::string dir(buf);
  dir = dir.substr(0, dir.rfind('/'));
  for (const std::string& c : {dir + "/tmapgen", dir + "/../tmapgen"})
    if (access(c.c_str(), X_OK) == 0) return c;
  return "";
}

bool RunCheckWorker(const std::string& binary, const CheckJob& job, bool (*cancelled)(void*), void* arg,
                    CheckOutcome* out, std::string* why) {
  char tmpl[] = "/tmp/tmapd-check-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    *why = std::string("cannot create a temporary directory: ") + std::strerror(errno);
    return false;
  }
  const std::string dir = tmpl;
  std::vector<std::string> paths;
  std::vector<std::string> argv_s = {binary, "check"};
  bool ok = true;
  for (size_t i = 0; i < job.files.size() && ok; ++i) {
    // Keep the extension: the check reads JSON and JSON Lines alike, but names carry it.
    const std::string& name = job.files[i].first;
    std::string ext;
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos && name.find('/', dot) == std::string::npos && name.size() - dot <= 8) ext = name.substr(dot);
    for (char& c : ext)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
    paths.push_back(dir + "/spec" + std::to_string(i) + ext);
    ok = WriteAll(paths.back(), job.files[i].second);
    argv_s.push_back(paths.back());
  }
  for (const std::string& f : job.flags) argv_s.push_back(f);
  auto cleanup = [&]() {
    for (const std::string& p : paths) unlink(p.c_str());
    rmdir(dir.c_str());
  };
  if (!ok) {
    cleanup();
    *why = "cannot write the spec files";
    return false;
  }
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    cleanup();
    *why = "cannot create pipes";
    return false;
  }
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    cleanup();
    *why = std::string("fork: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {
    setpgid(0, 0);  // the worker and any children it starts: killed together
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // tmapd blocks SIGTERM in its threads
    setenv("CI", "1", 1);                     // no progress output
    execv(argv[0], argv.data());
    const char msg[] = "tmapd: cannot run the check worker\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[1 << 15];
  out->end = CheckOutcome::End::kExited;
  while (open_fds > 0) {
    if (std::chrono::system_clock::now() >= job.deadline) {
      out->end = CheckOutcome::End::kTimedOut;
      break;
    }
    if (cancelled != nullptr && cancelled(arg)) {
      out->end = CheckOutcome::End::kCancelled;
      break;
    }
    const int r = poll(fds, 2, 100);
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? out->out : out->err).append(buf, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  if (out->end != CheckOutcome::End::kExited) kill(-pid, SIGKILL);
  for (pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (out->end == CheckOutcome::End::kExited) {
    if (WIFSIGNALED(status)) {
      out->end = CheckOutcome::End::kKilledBySignal;
      out->signal = WTERMSIG(status);
    } else {
      out->exit_code = WEXITSTATUS(status);
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    ReplaceAll(&out->out, paths[i], job.files[i].first);
    ReplaceAll(&out->err, paths[i], job.files[i].first);
  }
  cleanup();
  return true;
}

}  // namespace tmapgen::server
