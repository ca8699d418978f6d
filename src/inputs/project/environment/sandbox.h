// The confinement of repository code (setup.py, a CMake configure): running a
// build script is running someone else's code, as root in CI. The child gets
// Linux namespaces of its own:
//  - network: an empty one (only a loopback that is down): nothing to reach;
//  - PID: the child's tree lives under an init of ours, so a process that
//    calls setsid() or double-forks still dies when the script ends or the
//    time limit kills the init, and nothing inside can see or signal torchabi;
//  - mount: the whole filesystem read-only, `writable` trees (the scratch
//    copy) read-write, `hidden` trees (home directories, the original
//    project) replaced by empty directories, `visible` trees inside them
//    (the interpreter's prefix) shown again read-only, and a /proc of the
//    new PID namespace (so /proc/<ppid>/cwd leads nowhere);
//  - privileges: as root the script runs as nobody (no capabilities, no
//    setuid gain): it cannot undo the mounts or read root-only files; as a
//    user, in a user namespace that maps that user to itself.
// The environment is exactly `env`: nothing of torchabi's reaches the child.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace torchabi::inputs {

struct Confinement {
  std::vector<std::string> writable;  // the only trees the child may write
  std::vector<std::string> hidden;    // replaced by empty directories
  std::vector<std::string> visible;   // shown again (read-only) inside hidden trees
  std::map<std::string, std::string> env;  // the child's whole environment
  // As root: the user the child runs as (nobody). Writable trees are handed
  // to it before the run (chown), since it owns nothing else.
  unsigned run_as_uid = 65534, run_as_gid = 65534;
};

// Exit status the sandboxed child reports when the confinement itself could
// not be set up (no namespaces: a rootless container): the program did not run.
inline constexpr int kSandboxUnavailable = 125;

// In the child of a fork, before exec: enters the namespaces, sets up the
// mounts and drops privileges, then forks the program under an init that
// reaps orphans and exits with the program's status. `exec` runs in the
// final process and must not return. Never returns; on failure writes one
// line to stderr ("sandbox unavailable: ...") and exits kSandboxUnavailable.
// `envp` (from environment_entries, made before the fork) becomes the
// program's whole environment.
[[noreturn]] void enter_sandbox_and_run(const Confinement& c, const std::string& cwd, char* const envp[],
                                        void (*exec)(void*), void* arg);

// "NAME=VALUE" for each of c.env.
std::vector<std::string> environment_entries(const Confinement& c);

// Gives the writable trees to the user the child runs as (root only; a user
// keeps its own files). Throws std::filesystem::filesystem_error.
void hand_over_writable(const Confinement& c);

// True when this process can confine a child here (namespaces permitted),
// checked once by trying; `why` says what failed otherwise.
bool sandbox_available(std::string* why = nullptr);

}  // namespace torchabi::inputs
