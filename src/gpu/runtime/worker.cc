#include "src/gpu/runtime/worker.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tmapgen::gpu {
namespace {

// The pipe carries one line per message: a tag, a space, the rest.
//   O why        open failed             D description   the child opened
//   U i          item i starts           L i text        a text item i sent
//   F i message  item i faulted          E i             item i finished
// Texts are escaped so that each message stays one line.
std::string Escape(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  for (char ch : s) {
    if (ch == '\n') r += "\\n";
    else if (ch == '\\') r += "\\\\";
    else r += ch;
  }
  return r;
}

std::string Unescape(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      r += s[i + 1] == 'n' ? '\n' : s[i + 1];
      ++i;
    } else {
      r += s[i];
    }
  }
  return r;
}

// "i" or "i text": the item (false when it is not a number below `items`) and the text after one space.
bool ItemAndText(const std::string& rest, size_t items, size_t* item, std::string* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(rest.c_str(), &end, 10);
  if (end == rest.c_str() || v >= items) return false;
  *item = static_cast<size_t>(v);
  const size_t at = static_cast<size_t>(end - rest.c_str());
  *text = at < rest.size() ? Unescape(std::string_view(rest).substr(at + 1)) : std::string();
  return true;
}

[[noreturn]] void Child(int fd, size_t first, size_t items, int watchdog_s, const WorkerCallbacks& cb) {
  FILE* w = fdopen(fd, "w");
  setvbuf(w, nullptr, _IOLBF, 0);
  alarm(static_cast<unsigned>(watchdog_s));
  const absl::StatusOr<std::string> opened = cb.open();
  if (!opened.ok()) {
    std::fprintf(w, "O %s\n", Escape(std::string(opened.status().message())).c_str());
    std::fflush(w);
    _exit(0);
  }
  std::fprintf(w, "D %s\n", Escape(*opened).c_str());
  for (size_t i = first; i < items; ++i) {
    std::fprintf(w, "U %zu\n", i);
    const WorkerSend send = [w, i](std::string_view text) {
      std::fprintf(w, "L %zu %s\n", i, Escape(text).c_str());
    };
    if (const absl::Status fault = cb.run(i, send); !fault.ok()) {
      std::fprintf(w, "F %zu %s\n", i, Escape(std::string(fault.message())).c_str());
      std::fflush(w);
      _exit(3);
    }
    std::fprintf(w, "E %zu\n", i);
  }
  std::fflush(w);
  _exit(0);
}

}  // namespace

WorkerRun RunWorker(size_t items, int watchdog_s, const WorkerCallbacks& cb) {
  WorkerRun run;
  size_t next = 0;
  while (next < items) {
    int fds[2];
    if (pipe(fds) != 0) {
      run.why_not = "pipe() failed";
      return run;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      run.why_not = "fork() failed";
      return run;
    }
    if (pid == 0) {
      close(fds[0]);
      Child(fds[1], next, items, watchdog_s, cb);
    }
    ++run.children;
    close(fds[1]);
    FILE* r = fdopen(fds[0], "r");
    char* buf = nullptr;
    size_t cap = 0;
    ssize_t len;
    long current = -1;
    bool opened = false, faulted = false;
    std::string why;
    while ((len = getline(&buf, &cap, r)) > 0) {
      std::string l(buf, static_cast<size_t>(len));
      if (!l.empty() && l.back() == '\n') l.pop_back();
      if (l.size() < 2) continue;
      const std::string rest = l.substr(2);
      size_t item = 0;
      std::string text;
      switch (l[0]) {
        case 'O': why = Unescape(rest); break;
        case 'D':
          run.device = Unescape(rest);
          opened = true;
          break;
        case 'U':
          if (ItemAndText(rest, items, &item, &text)) current = static_cast<long>(item);
          break;
        case 'L':
          if (ItemAndText(rest, items, &item, &text) && cb.on_line) cb.on_line(item, text);
          break;
        case 'F':
          if (ItemAndText(rest, items, &item, &text)) {
            if (cb.on_fault) cb.on_fault(item, text);
            next = item + 1;
            faulted = true;
          }
          break;
        case 'E':
          if (ItemAndText(rest, items, &item, &text)) next = item + 1;
          break;
      }
    }
    free(buf);
    fclose(r);
    int st = 0;
    waitpid(pid, &st, 0);
    if (!opened) {
      run.opened = false;
      run.why_not = why;
      return run;
    }
    run.opened = true;
    if (!faulted && next < items) {
      // The item the child was running; `next` when it died between two items (after one finished).
      const size_t at = current >= 0 && static_cast<size_t>(current) >= next ? static_cast<size_t>(current) : next;
      WorkerDeath death;
      death.hung = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
      death.wait_status = st;
      if (cb.on_death) cb.on_death(at, death);
      next = at + 1;
    }
  }
  return run;
}

}  // namespace tmapgen::gpu
