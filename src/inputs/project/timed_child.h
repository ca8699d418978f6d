// Runs a program of the machine (cmake) on a project's build files: in its own
// process group, stdin from /dev/null, stdout and stderr captured together,
// killed with its whole group when it outlives the time limit. Project mode
// runs build code this way only, so a hanging or forking build cannot outlive
// torchabi.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct ChildResult {
  bool started = false;    // false: the program could not be executed (output says why)
  bool timed_out = false;  // killed at the time limit
  int exit_code = -1;      // the exit status; -1 when killed by a signal
  std::string output;      // stdout and stderr, interleaved
};

// `argv[0]` is looked up on PATH. `cwd` is the working directory.
ChildResult run_timed(const std::vector<std::string>& argv, const std::string& cwd, int timeout_seconds);

}  // namespace torchabi::inputs
