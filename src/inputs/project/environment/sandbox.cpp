#include "inputs/project/environment/sandbox.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"

extern char** environ;

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// Only async-signal-safe calls from here on: these run between fork and exec
// of a multi-threaded parent (the platforms' runs are concurrent).
[[noreturn]] void unavailable(const char* step, const char* path = nullptr) {
  const int e = errno;
  dprintf(STDERR_FILENO, "sandbox unavailable: %s%s%s: %s\n", step, path ? " " : "", path ? path : "", strerror(e));
  _exit(kSandboxUnavailable);
}

bool write_proc(const char* file, const char* text) {
  const int fd = ::open(file, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = ::write(fd, text, strlen(text));
  close(fd);
  return n == static_cast<ssize_t>(strlen(text));
}

bool under(const std::string& path, const std::string& tree) { return text::path_is_under(path, tree); }

void set_attr(const char* path, uint64_t set, uint64_t clear) {
  mount_attr attr{};
  attr.attr_set = set;
  attr.attr_clr = clear;
  if (mount_setattr(AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr) != 0) unavailable("mount_setattr", path);
}

// mkdir -p inside a tree we just mounted (an empty tmpfs).
void make_dirs(const std::string& path) {
  for (size_t at = 1; at != std::string::npos; at = path.find('/', at + 1)) {
    const std::string part = path.substr(0, at);
    if (!part.empty()) mkdir(part.c_str(), 0755);
  }
  mkdir(path.c_str(), 0755);
}

void set_up_mounts(const Confinement& c) {
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) unavailable("making mounts private");
  // Reopened by descriptor after hiding: a writable or visible tree may lie
  // inside a hidden one (TMPDIR under the home directory, a pyenv Python).
  struct Reopen {
    std::string path;
    int fd;
    bool writable;
  };
  std::vector<Reopen> reopen;
  auto hidden_parent = [&](const std::string& p) {
    return std::any_of(c.hidden.begin(), c.hidden.end(), [&](const std::string& h) { return under(p, h) && p != h; });
  };
  for (const auto& w : c.writable) {
    if (mount(w.c_str(), w.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) unavailable("binding", w.c_str());
    if (hidden_parent(w)) reopen.push_back({w, open(w.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC), true});
  }
  for (const auto& v : c.visible)
    if (hidden_parent(v)) reopen.push_back({v, open(v.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC), false});
  set_attr("/", MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0);
  for (const auto& w : c.writable) set_attr(w.c_str(), 0, MOUNT_ATTR_RDONLY);
  for (const auto& h : c.hidden) {
    struct stat st;
    if (h == "/" || lstat(h.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    // A tree inside one hidden already is gone with it.
    if (hidden_parent(h)) continue;
    if (mount("tmpfs", h.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0) unavailable("hiding", h.c_str());
    for (const auto& r : reopen) {
      if (r.fd < 0 || !under(r.path, h)) continue;
      make_dirs(r.path);
      char from[64];
      snprintf(from, sizeof from, "/proc/self/fd/%d", r.fd);
      if (mount(from, r.path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) unavailable("showing", r.path.c_str());
      if (!r.writable) set_attr(r.path.c_str(), MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0);
    }
    // The empty tree itself is read-only too (not recursively: what was
    // shown again inside keeps its own mode).
    mount_attr ro{};
    ro.attr_set = MOUNT_ATTR_RDONLY;
    if (mount_setattr(AT_FDCWD, h.c_str(), 0, &ro, sizeof ro) != 0) unavailable("mount_setattr", h.c_str());
  }
  for (const auto& r : reopen)
    if (r.fd >= 0) close(r.fd);
  // The new PID namespace's /proc: no process outside it can be found there.
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) unavailable("mounting /proc");
}

void drop_privileges(const Confinement& c, bool root) {
  if (root) {
    // A fork bomb stops at the user's process limit, not the machine's.
    rlimit nproc{4096, 4096};
    setrlimit(RLIMIT_NPROC, &nproc);
    if (setgroups(0, nullptr) != 0) unavailable("setgroups");
    if (setresgid(c.run_as_gid, c.run_as_gid, c.run_as_gid) != 0) unavailable("setresgid");
    if (setresuid(c.run_as_uid, c.run_as_uid, c.run_as_uid) != 0) unavailable("setresuid");
  }
  // No setuid program (sudo, su) gives privileges back.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) unavailable("no_new_privs");
}

int status_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

}  // namespace

void enter_sandbox_and_run(const Confinement& c, const std::string& cwd, char* const envp[], void (*exec)(void*),
                           void* arg) {
  // torchabi gone (killed, crashed): the whole tree goes with it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const bool root = geteuid() == 0;
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  int flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS;
  if (!root) flags |= CLONE_NEWUSER;
  if (unshare(flags) != 0) unavailable("unshare");
  if (!root) {
    char map[64];
    if (!write_proc("/proc/self/setgroups", "deny")) unavailable("setgroups map");
    snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
    if (!write_proc("/proc/self/uid_map", map)) unavailable("uid map");
    snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
    if (!write_proc("/proc/self/gid_map", map)) unavailable("gid map");
  }
  const pid_t init = fork();
  if (init < 0) unavailable("fork");
  if (init > 0) {
    int status = 0;
    while (waitpid(init, &status, 0) < 0 && errno == EINTR) {
    }
    _exit(status_code(status));
  }
  // PID 1 of the namespace: when it exits, the kernel kills everything left
  // in it, setsid() or not. Signals from inside do not reach it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  set_up_mounts(c);
  if (chdir(cwd.c_str()) != 0) unavailable("entering", cwd.c_str());
  const pid_t program = fork();
  if (program < 0) unavailable("fork");
  if (program == 0) {
    drop_privileges(c, root);
    signal(SIGPIPE, SIG_DFL);
    // The program's exec looks PATH up in its own environment.
    environ = const_cast<char**>(envp);
    exec(arg);
    _exit(127);
  }
  int code = 0;
  for (;;) {
    int status = 0;
    const pid_t p = wait(&status);
    if (p == program) {
      code = status_code(status);
      break;
    }
    if (p < 0 && errno != EINTR) break;
  }
  _exit(code);
}

void hand_over_writable(const Confinement& c) {
  if (geteuid() != 0) return;
  for (const auto& w : c.writable) {
    if (lchown(w.c_str(), c.run_as_uid, c.run_as_gid) != 0)
      throw fs::filesystem_error("cannot hand over", fs::path(w), std::error_code(errno, std::generic_category()));
    for (auto it = fs::recursive_directory_iterator(w); it != fs::recursive_directory_iterator(); ++it)
      if (lchown(it->path().c_str(), c.run_as_uid, c.run_as_gid) != 0)
        throw fs::filesystem_error("cannot hand over", it->path(), std::error_code(errno, std::generic_category()));
  }
}

std::vector<std::string> environment_entries(const Confinement& c) {
  std::vector<std::string> out;
  for (const auto& [k, v] : c.env) out.push_back(k + "=" + v);
  return out;
}

bool sandbox_available(std::string* why) {
  static const std::string failure = [] {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return std::string("pipe: ") + strerror(errno);
    const pid_t pid = fork();
    if (pid < 0) return std::string("fork: ") + strerror(errno);
    if (pid == 0) {
      close(fds[0]);
      int flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS;
      if (geteuid() != 0) flags |= CLONE_NEWUSER;
      if (unshare(flags) != 0) {
        dprintf(fds[1], "unshare: %s", strerror(errno));
        _exit(1);
      }
      mount_attr attr{};
      // mount_setattr with no change: ENOSYS on kernels older than 5.12.
      if (mount_setattr(AT_FDCWD, "/", 0, &attr, sizeof attr) != 0 && errno == ENOSYS) {
        dprintf(fds[1], "mount_setattr: %s", strerror(errno));
        _exit(1);
      }
      _exit(0);
    }
    close(fds[1]);
    char buf[256];
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::string();
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("namespaces are not permitted");
  }();
  if (why) *why = failure;
  return failure.empty();
}

}  // namespace torchabi::inputs
