// `torchabi run --root DIR`: the child that loads the extension runs inside
// a root filesystem (a chroot of the distribution the extension was built
// on), so that the extension finds that system's C/C++ runtime and
// libraries; the reference runtime still stands in for PyTorch there.
//
// A forked child cannot just chroot: it already has this machine's
// libstdc++ mapped, and the extension would bind to it. So it enters
// private namespaces (a user namespace when not root, a mount namespace),
// assembles a view of DIR on a private tmpfs (DIR's top-level entries bound
// in, this machine's /proc, /dev and /sys, and this machine's whole tree at
// /.torchabi-host, so torchabi and its runtime libraries are reachable), and
// execs torchabi there (`torchabi __run-child PLAN`): the root's dynamic
// loader then loads the root's libc and libstdc++ (torchabi, built on an
// older system, runs on a newer one), plus the few libraries of torchabi's
// that DIR lacks, linked from /.torchabi-libs. Nothing in DIR is modified.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzers/runtime/driver/child.h"
#include "analyzers/runtime/driver/run_extension.h"

namespace torchabi::runtime_driver {

struct RootSetup {
  std::string root;     // canonical
  std::string scratch;  // an empty directory of this machine: where the view is assembled
  std::string self;     // torchabi's own path on this machine
  std::vector<std::pair<std::string, std::string>> libraries;  // soname -> path: torchabi's libraries DIR lacks
};

// In the parent. Throws InputError naming --root when DIR is not a directory.
RootSetup prepare_root(const std::string& root);
void release_root(const RootSetup& setup);

// A path of this machine as the child inside the root sees it: unchanged
// below DIR's own tree (DIR/usr/lib/x.so -> /usr/lib/x.so), else through
// /.torchabi-host.
std::string path_in_root(const RootSetup& setup, const std::string& path);

// In the forked child: enters the root and execs torchabi's child there.
// Reports a failure on plan.event_fd as an input error naming --root.
[[noreturn]] void exec_in_root(const ChildPlan& plan, const RunOptions& options, const RootSetup& setup);

// `torchabi __run-child PLAN` (argv[2] is the plan's JSON): rebuilds the
// plan from the rules and runs the child. Never returns.
[[noreturn]] void run_child_main(int argc, char** argv);

}  // namespace torchabi::runtime_driver
