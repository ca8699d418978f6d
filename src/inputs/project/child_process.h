// Child processes that run a project's own code (its setup.py): each in its
// own process group, stdin from /dev/null, stdout and stderr into files, all
// under one time limit after which the whole group is killed, so that
// nothing the project's code started outlives the run.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::vector<std::string> env;   // NAME=VALUE, added to (or replacing in) this process's environment
  std::string stdout_file;
  std::string stderr_file;
};

struct ChildResult {
  bool started = false;
  std::string spawn_error;  // why it could not be started
  bool timed_out = false;
  int exit_code = -1;  // -1 when killed by a signal
};

// Starts every child at once and waits for all of them; a child still
// running `timeout_seconds` after the start is killed with its group.
// Whatever a child's group still holds when the child ends is killed too.
std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, int timeout_seconds);

}  // namespace torchabi::inputs
