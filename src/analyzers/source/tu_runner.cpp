#include "analyzers/source/tu_runner.h"

#include "common/temp_dirs.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <exception>
#include <new>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <chrono>
#include <thread>
#include <unistd.h>

#include "analyzers/source/libclang_loader/libclang_loader.h"

namespace torchabi::source {

namespace {

constexpr char kErrorTag = '\x01';
// How an item past a limit is described (hit_a_limit recognises them).
constexpr std::string_view kTimeLimitHit = "not finished within the time limit of ";
constexpr std::string_view kMemoryLimitHit = "out of memory at the limit of ";
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

// What a child wrote on stderr (LLVM's fatal errors land there), read by
// the parent when it finishes.
std::string read_memfd(int fd) {
  std::string out;
  if (fd < 0) return out;
  char buf[8192];
  for (off_t off = 0;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, off);
    if (n <= 0) break;
    out.append(buf, size_t(n));
    off += n;
  }
  return out;
}

// LLVM's words for an allocation that failed, and libclang's dump of the
// arguments of the parse it then gave up: the report names the limit instead.
std::string without_out_of_memory_chatter(const std::string& text) {
  std::string out;
  bool in_dump = false;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    const std::string_view line(text.data() + at, end - at);
    if (line.starts_with("libclang: crash detected")) in_dump = true;
    const bool chatter = in_dump || line.starts_with("LLVM ERROR: out of memory") || line.starts_with("Allocation failed");
    if (in_dump && line.starts_with("}")) in_dump = false;
    if (!chatter) out.append(line);
    at = end;
  }
  return out;
}

struct Child {
  size_t index;
  pid_t pid;
  int fd;
  int err_fd;  // its stderr (a memfd), or -1
  std::string buffer;
  std::chrono::steady_clock::time_point started;
  bool timed_out = false;
};

IsolatedLimits& limits() {
  static IsolatedLimits l;
  return l;
}

std::string gib(unsigned long long bytes) {
  if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1ull << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

// The memory limit a unit actually runs under: --tu-memory, unless the
// address-space limit torchabi inherited (ulimit -v) is lower. The child only
// ever lowers its limit: an inherited ulimit is the user's, kept even where
// torchabi could raise it (as root).
struct MemoryLimit {
  unsigned long long bytes = 0;  // 0: none
  bool inherited = false;        // from ulimit -v, not --tu-memory
};

MemoryLimit effective_memory_limit() {
  MemoryLimit m{limits().memory_bytes, false};
  rlimit r{};
  if (::getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
      (m.bytes == 0 || static_cast<unsigned long long>(r.rlim_cur) < m.bytes))
    m = {static_cast<unsigned long long>(r.rlim_cur), true};
  return m;
}

// "8 GiB (--tu-memory raises it)", or for an inherited ulimit "390 MiB
// inherited from the environment (ulimit -v 400000, below --tu-memory's 8 GiB; ...)".
std::string describe_memory_limit(const MemoryLimit& m) {
  if (!m.inherited) return gib(m.bytes) + " (--tu-memory raises it)";
  const auto asked = limits().memory_bytes;
  return gib(m.bytes) + " inherited from the environment (ulimit -v " + std::to_string(m.bytes >> 10) + ", " +
         (asked ? "below --tu-memory's " + gib(asked) : std::string("while --tu-memory is 0")) +
         "; raise the ulimit, --tu-memory cannot)";
}

// In the child: an allocation past the limit fails (std::bad_alloc, or LLVM's
// fatal "out of memory") instead of the machine swapping or the OOM killer
// choosing some other process.
void limit_memory(const MemoryLimit& m) {
  if (m.bytes && !m.inherited) {
    rlimit r{};
    ::getrlimit(RLIMIT_AS, &r);
    r.rlim_cur = static_cast<rlim_t>(m.bytes);
    if (r.rlim_max == RLIM_INFINITY || r.rlim_max > r.rlim_cur) r.rlim_max = r.rlim_cur;
    ::setrlimit(RLIMIT_AS, &r);
  }
}

std::function<void()>& fork_barrier() {
  static std::function<void()> wait;
  return wait;
}

}  // namespace

void set_fork_barrier(std::function<void()> wait) { fork_barrier() = std::move(wait); }

void set_isolated_limits(IsolatedLimits l) { limits() = l; }
IsolatedLimits isolated_limits() { return limits(); }

bool hit_a_limit(std::string_view error) {
  return error.find(kTimeLimitHit) != std::string_view::npos || error.find(kMemoryLimitHit) != std::string_view::npos;
}

bool llvm_ran_out_of_memory(std::string_view text) {
  return text.find("LLVM ERROR: out of memory") != std::string_view::npos;
}

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
  const MemoryLimit memory = effective_memory_limit();
  std::vector<Child> running;
  size_t next = 0;
  bool waited = false;
  auto finish = [&](Child& c) {
    ::close(c.fd);
    // What it wrote on stderr is passed on, except LLVM's words for an
    // allocation that failed: that unit is reported as over the memory limit.
    std::string err = read_memfd(c.err_fd);
    if (c.err_fd >= 0) ::close(c.err_fd);
    const bool out_of_memory = memory.bytes && llvm_ran_out_of_memory(err);
    if (out_of_memory) err = without_out_of_memory_chatter(err);
    if (!err.empty()) {
      std::fflush(stderr);
      write_all(STDERR_FILENO, err);
    }
    IsolatedResult& done = results[c.index];
    if (out_of_memory) {
      // Whatever it handed back was cut short by the failed allocation.
      int status = 0;
      while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
      }
      done.ok = false;
      done.output.clear();
      done.error = std::string(kMemoryLimitHit) + describe_memory_limit(memory);
      return;
    }
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
    if (c.timed_out) {
      r.error = std::string(kTimeLimitHit) + std::to_string(limits().seconds) +
                " s (--tu-timeout raises it)";
    } else if (!c.buffer.empty() && c.buffer[0] == kErrorTag && c.buffer.find("std::bad_alloc") != std::string::npos) {
      r.error = std::string(kMemoryLimitHit) + describe_memory_limit(memory);
    } else if (WIFSIGNALED(status)) {
      r.error = std::string("crashed (signal ") + std::to_string(WTERMSIG(status)) + ": " + ::strsignal(WTERMSIG(status)) + ")";
      // Under the memory limit LLVM reports an allocation failure as a fatal
      // error and aborts, and a stack that cannot grow faults.
      const int sig = WTERMSIG(status);
      if (memory.bytes && (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS))
        r.error += "; if it ran out of memory, the limit is " +
                   (memory.inherited ? describe_memory_limit(memory) : gib(memory.bytes) + " (--tu-memory)");
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
      const int err_fd = ::memfd_create("torchabi-tu-stderr", MFD_CLOEXEC);
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      pid_t pid = ::fork();
      if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        if (err_fd >= 0) ::close(err_fd);
        results[next].error = std::string("cannot start an analysis process: ") + std::strerror(errno);
        if (hooks.finished) hooks.finished(next, results[next]);
        ++next;
        continue;
      }
      if (pid == 0) {
        temp_dirs::die_with_parent();
        ::close(fds[0]);
        if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
        limit_memory(memory);
        std::string out;
        int code = 0;
        try {
          out = work(next);
          out += kDoneTrailer;
        } catch (const std::bad_alloc&) {
          out = std::string(1, kErrorTag) + "std::bad_alloc";
          code = 3;
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
      running.push_back({next, pid, fds[0], err_fd, {}, std::chrono::steady_clock::now()});
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
    // A child past the time limit is killed; its pipe then reads as closed
    // and it is finished below like any other failure.
    int wait_ms = -1;
    if (const unsigned seconds = limits().seconds) {
      const auto now = std::chrono::steady_clock::now();
      for (auto& c : running) {
        const auto left = c.started + std::chrono::seconds(seconds) - now;
        if (left <= std::chrono::steady_clock::duration::zero()) {
          if (!c.timed_out) ::kill(c.pid, SIGKILL);
          c.timed_out = true;
          continue;
        }
        const int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(left).count()) + 1;
        wait_ms = wait_ms < 0 ? ms : std::min(wait_ms, ms);
      }
    }
    std::vector<pollfd> pfds;
    for (const auto& c : running) pfds.push_back({c.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), wait_ms) < 0 && errno != EINTR) break;
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
