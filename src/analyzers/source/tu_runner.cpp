#include "analyzers/source/tu_runner.h"

#include "common/temp_dirs.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "analyzers/source/libclang_loader/libclang_loader.h"

namespace torchabi::source {

namespace {

constexpr char kErrorTag = '\x01';
// Written after a complete result: with it the parent need not wait for the
// child's exit (tearing down a parsed TU's address space takes milliseconds)
// to know the result is whole.
constexpr std::string_view kDoneTrailer = "\n\x02torchabi-done\x02";

// Children whose result was complete and that are still exiting; reaped
// without blocking whenever the runner next looks.
std::vector<pid_t>& exiting() {
  static std::vector<pid_t> pids;
  return pids;
}

void reap_exited() {
  auto& pids = exiting();
  std::erase_if(pids, [](pid_t pid) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    return r == pid || (r < 0 && errno == ECHILD);
  });
}

void write_all(int fd, const std::string& s) {
  const char* p = s.data();
  size_t left = s.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= size_t(n);
  }
}

struct Child {
  size_t index;
  pid_t pid;
  int fd;
  std::string buffer;
};

std::function<void()>& fork_barrier() {
  static std::function<void()> wait;
  return wait;
}

}  // namespace

void set_fork_barrier(std::function<void()> wait) { fork_barrier() = std::move(wait); }

unsigned default_jobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

std::vector<IsolatedResult> run_isolated(size_t count, unsigned jobs, const std::function<std::string(size_t)>& work,
                                         const std::function<void()>& while_waiting) {
  IsolatedHooks hooks;
  hooks.while_waiting = while_waiting;
  return run_isolated(count, jobs, work, hooks);
}

std::vector<IsolatedResult> run_isolated(size_t count, unsigned jobs, const std::function<std::string(size_t)>& work,
                                         const IsolatedHooks& hooks) {
  const auto& while_waiting = hooks.while_waiting;
  std::vector<IsolatedResult> results(count);
  // Load libclang here, once: forked children inherit it instead of each
  // loading it, and a missing libclang fails the command instead of every unit.
  if (count > 0 && fork_barrier()) fork_barrier()();
  if (count > 0) libclang::load();
  if (jobs == 0) jobs = default_jobs();
  std::vector<Child> running;
  size_t next = 0;
  bool waited = false;
  auto finish = [&](Child& c) {
    ::close(c.fd);
    IsolatedResult& done = results[c.index];
    if (c.buffer.ends_with(kDoneTrailer) && (c.buffer.empty() || c.buffer[0] != kErrorTag)) {
      c.buffer.resize(c.buffer.size() - kDoneTrailer.size());
      done.ok = true;
      done.output = std::move(c.buffer);
      exiting().push_back(c.pid);
      reap_exited();
      return;
    }
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    IsolatedResult& r = results[c.index];
    if (WIFSIGNALED(status)) {
      r.error = std::string("crashed (signal ") + std::to_string(WTERMSIG(status)) + ": " + ::strsignal(WTERMSIG(status)) + ")";
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (c.buffer.empty() || c.buffer[0] != kErrorTag)) {
      r.ok = true;
      r.output = std::move(c.buffer);
    } else if (!c.buffer.empty() && c.buffer[0] == kErrorTag) {
      r.error = c.buffer.substr(1);
    } else {
      r.error = "analysis process exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
  };
  while (next < count || !running.empty()) {
    while (next < count && running.size() < jobs) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) {
        results[next].error = std::string("cannot create a pipe: ") + std::strerror(errno);
        if (hooks.finished) hooks.finished(next, results[next]);
        ++next;
        continue;
      }
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      pid_t pid = ::fork();
      if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        results[next].error = std::string("cannot start an analysis process: ") + std::strerror(errno);
        if (hooks.finished) hooks.finished(next, results[next]);
        ++next;
        continue;
      }
      if (pid == 0) {
        temp_dirs::die_with_parent();
        ::close(fds[0]);
        std::string out;
        int code = 0;
        try {
          out = work(next);
          out += kDoneTrailer;
        } catch (const std::exception& e) {
          out = std::string(1, kErrorTag) + e.what();
          code = 3;
        } catch (...) {
          out = std::string(1, kErrorTag) + "unknown error";
          code = 3;
        }
        write_all(fds[1], out);
        ::close(fds[1]);
        ::_exit(code);  // no destructors: the parent owns every shared resource
      }
      ::close(fds[1]);
      running.push_back({next, pid, fds[0], {}});
      if (hooks.started) hooks.started(next);
      ++next;
    }
    if (while_waiting && !waited && !running.empty()) {
      waited = true;
      try {
        while_waiting();
      } catch (...) {
      }
    }
    std::vector<pollfd> pfds;
    for (const auto& c : running) pfds.push_back({c.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), -1) < 0 && errno != EINTR) break;
    char buf[65536];
    for (size_t i = pfds.size(); i-- > 0;) {
      if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(running[i].fd, buf, sizeof buf);
      if (n > 0) {
        running[i].buffer.append(buf, size_t(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      finish(running[i]);
      if (hooks.finished) hooks.finished(running[i].index, results[running[i].index]);
      running.erase(running.begin() + long(i));
    }
  }
  reap_exited();
  return results;
}

}  // namespace torchabi::source
