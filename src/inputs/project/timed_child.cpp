#include "inputs/project/timed_child.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace torchabi::inputs {

namespace {

struct ExecArgs {
  char* const* argv;
};

void exec_program(void* p) {
  char* const* argv = static_cast<ExecArgs*>(p)->argv;
  execvp(argv[0], argv);
  dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

// In the child: never returns. Exit code 127 with the reason on the pipe
// when the program cannot be executed. Everything it uses was made before
// the fork (the parent has other threads).
[[noreturn]] void exec_child(ExecArgs& args, const std::string& cwd, int out_fd, const Confinement* confine,
                             char* const* envp) {
  setpgid(0, 0);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  if (confine) enter_sandbox_and_run(*confine, cwd, envp, exec_program, &args);
  if (chdir(cwd.c_str()) != 0) {
    dprintf(STDERR_FILENO, "cannot enter %s: %s\n", cwd.c_str(), strerror(errno));
    _exit(127);
  }
  exec_program(&args);
  _exit(127);
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildResult run_timed(const std::vector<std::string>& argv, const std::string& cwd, int timeout_seconds,
                      const Confinement* confine) {
  ChildResult r;
  int fds[2];
  if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) return r;
  std::vector<std::string> argv_copy = argv;
  std::vector<std::string> env = confine ? environment_entries(*confine) : std::vector<std::string>();
  std::vector<char*> argv_ptrs = pointers(argv_copy), env_ptrs = pointers(env);
  ExecArgs args{argv_ptrs.data()};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  if (pid == 0) exec_child(args, cwd, fds[1], confine, env_ptrs.data());
  // Also from the parent, so that a kill right after fork reaches the group.
  setpgid(pid, pid);
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buf[4096];
  int status = 0;
  bool reaped = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready == 0) {
      // The program has exited but something it started holds the pipe:
      // its output is complete, the leftover is killed below.
      if (!reaped && waitpid(pid, &status, WNOHANG) == pid) reaped = true;
      if (reaped) break;
    }
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) r.output.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;  // every writer closed: the output is complete
  }
  close(fds[0]);
  // The pipe also closes when the group's processes are done writing; a
  // background process that keeps running past its parent is killed with it.
  if (r.timed_out) kill(-pid, SIGKILL);
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!r.timed_out) kill(-pid, SIGKILL);  // leftovers of the group, if any
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.sandbox_unavailable = confine && r.exit_code == kSandboxUnavailable &&
                          r.output.find("sandbox unavailable: ") != std::string::npos;
  r.started = !r.sandbox_unavailable && !(r.exit_code == 127 && r.output.starts_with("cannot "));
  return r;
}

}  // namespace torchabi::inputs
