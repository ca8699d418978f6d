#include "analyzers/runtime/driver/pid_isolation.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace torchabi::runtime_driver {

namespace {

bool write_proc(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// Waits for `pid` and returns its wait status.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 0;
  return status;
}

// Ends this process as `status` says the extension's ended.
[[noreturn]] void end_like(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);  // the extension's crash already happened; no second core
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

// Without a namespace, a process the extension starts and orphans (a daemon's
// double fork, setsid included) would outlive the run. As a subreaper this
// process adopts such orphans; it runs the extension in a child and, when that
// ends, kills every process still adopted before ending as the extension did.
// The extension's kill(getppid()) then reaches this process, not torchabi.
void reap_what_it_leaves() {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) return;
  const pid_t worker = ::fork();
  if (worker < 0) ::_exit(125);
  if (worker == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    return;
  }
  const int status = wait_for(worker);
  const std::string children = "/proc/self/task/" + std::to_string(::getpid()) + "/children";
  for (;;) {
    std::ifstream in(children);
    if (!in) break;  // no children list in this kernel: nothing more can be found
    bool any = false;
    for (pid_t pid; in >> pid;) any = ::kill(pid, SIGKILL) == 0 || any;
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (!any) break;
    ::usleep(1000);
  }
  end_like(status);
}

}  // namespace

void isolate_pids(std::string* note) {
  // kill(0, ...) reaches the caller's process group: a session of its own
  // keeps the extension out of torchabi's group, namespace or not.
  const uid_t uid = ::getuid();
  const gid_t gid = ::getgid();
  const int flags = CLONE_NEWPID | (::geteuid() == 0 ? 0 : CLONE_NEWUSER);
  if (::unshare(flags) != 0) {
    if (note)
      *note = std::string("the extension ran without a PID namespace of its own (unshare: ") + std::strerror(errno) +
              "): it could signal torchabi";
    ::setsid();
    reap_what_it_leaves();
    return;
  }
  if (flags & CLONE_NEWUSER) {
    // The same uid and gid inside, so files and a nested namespace (--root)
    // behave as before.
    write_proc("/proc/self/setgroups", "deny");
    write_proc("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n");
    write_proc("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n");
  }
  // The extension's wait status, handed from the namespace's init (which
  // cannot end by a signal it raises itself) to this process.
  auto* shared = static_cast<int*>(::mmap(nullptr, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (shared == MAP_FAILED) ::_exit(125);
  *shared = 0;
  const pid_t init = ::fork();  // PID 1 of the new namespace
  if (init < 0) ::_exit(125);
  if (init > 0) {
    const int init_status = wait_for(init);
    // Init ends normally once the extension's process has; anything else
    // (killed from outside) is how this ends too.
    end_like(WIFEXITED(init_status) && WEXITSTATUS(init_status) == 0 ? *shared : init_status);
  }
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // this process is killed with torchabi; the namespace dies with its init
  const pid_t worker = ::fork();
  if (worker < 0) ::_exit(125);
  if (worker > 0) {
    *shared = wait_for(worker);
    ::_exit(0);
  }
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  ::setsid();
}

}  // namespace torchabi::runtime_driver
