// check_worker.cc: see check_worker.h.
#include "server/check_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::server {

std::string DefaultCheckWorker() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = '\0';
  std::string dir(buf);
  dir = dir.substr(0, dir.rfind('/'));
  for (const std::string& c : {dir + "/tmapd_check_worker", dir + "/server/tmapd_check_worker"})
    if (access(c.c_str(), X_OK) == 0) return c;
  return "";
}

absl::Status RunCheckWorker(const std::string& binary, const CheckJob& job, bool (*cancelled)(void*), void* arg,
                            CheckOutcome* out) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return ErrnoStatus(errno, "cannot create", "pipes");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    close(in_pipe[0]);
    close(in_pipe[1]);
    return ErrnoStatus(e, "cannot create", "pipes");
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return ErrnoStatus(e, "cannot create", "pipes");
  }
  std::vector<std::string> argv_s = {binary};
  for (const std::string& f : job.flags) argv_s.push_back(f);
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {  // EAGAIN (the process limit) or ENOMEM
    const std::string why = StrCat("fork: ", std::strerror(errno));
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return absl::ResourceExhaustedError(ToAbsl(why));
  }
  if (pid == 0) {
    setpgid(0, 0);  // the worker and any children it starts: killed together
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // tmapd blocks SIGTERM in its threads
    setenv("CI", "1", 1);                     // no progress output
    execv(argv[0], argv.data());
    const char msg[] = "tmapd: cannot run the check worker\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);  // a worker that exits early must not kill the service
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {in_pipe[1], POLLOUT, 0}};
  size_t written = 0;
  if (job.input.empty()) {
    close(in_pipe[1]);
    fds[2].fd = -1;
  }
  int open_reads = 2;
  char buf[1 << 15];
  out->end = CheckOutcome::End::kExited;
  while (open_reads > 0) {
    if (std::chrono::system_clock::now() >= job.deadline) {
      out->end = CheckOutcome::End::kTimedOut;
      break;
    }
    if (cancelled != nullptr && cancelled(arg)) {
      out->end = CheckOutcome::End::kCancelled;
      break;
    }
    const int r = poll(fds, 3, 100);
    if (r < 0 && errno != EINTR) break;
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      const ssize_t n = write(fds[2].fd, job.input.data() + written, job.input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == job.input.size()) {
        close(fds[2].fd);
        fds[2].fd = -1;
      }
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        std::string& dst = i == 0 ? out->out : out->err;
        dst.append(buf, static_cast<size_t>(n));
        if (dst.size() > job.max_output_bytes) {
          out->end = CheckOutcome::End::kTooLarge;
          break;
        }
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_reads;
      }
    }
    if (out->end == CheckOutcome::End::kTooLarge) break;
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
  return absl::OkStatus();
}

}  // namespace tmapgen::server
