#include "inputs/project/child_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace torchabi::inputs {

namespace {

std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    vars[kv.substr(0, kv.find('='))] = kv;
  }
  for (const auto& kv : extra) vars[kv.substr(0, kv.find('='))] = kv;
  std::vector<std::string> out;
  for (auto& [name, kv] : vars) out.push_back(std::move(kv));
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& words) {
  std::vector<char*> out;
  for (auto& w : words) out.push_back(w.data());
  out.push_back(nullptr);
  return out;
}

// posix_spawnp in a new process group (its id is the child's pid).
pid_t spawn(const ChildSpec& spec, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, spec.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, spec.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawnattr_setpgroup(&attr, 0);
  // The child starts with default signal handling and nothing blocked,
  // whatever this process set up for itself.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> env = environment_with(spec.env);
  std::vector<char*> argv_p = pointers(argv), env_p = pointers(env);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv_p[0], &actions, &attr, argv_p.data(), env_p.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    error = std::strerror(rc);
    return -1;
  }
  return pid;
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, int timeout_seconds) {
  std::vector<ChildResult> results(children.size());
  std::vector<pid_t> pids(children.size(), -1);
  for (size_t i = 0; i < children.size(); ++i) {
    pids[i] = spawn(children[i], results[i].spawn_error);
    results[i].started = pids[i] > 0;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  size_t running = 0;
  for (pid_t p : pids) running += p > 0;
  while (running > 0) {
    const bool late = std::chrono::steady_clock::now() >= deadline;
    for (size_t i = 0; i < pids.size(); ++i) {
      if (pids[i] <= 0) continue;
      if (late) {
        ::kill(-pids[i], SIGKILL);
        results[i].timed_out = true;
      }
      int status = 0;
      const pid_t r = ::waitpid(pids[i], &status, late ? 0 : WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) continue;
      if (r > 0 && WIFEXITED(status)) results[i].exit_code = WEXITSTATUS(status);
      // Its group may still hold what it started in the background.
      ::kill(-pids[i], SIGKILL);
      pids[i] = -1;
      --running;
    }
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return results;
}

}  // namespace torchabi::inputs
