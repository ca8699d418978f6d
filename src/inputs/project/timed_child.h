// Runs a program of the machine (cmake) on a project's build files: in its own
// process group, stdin from /dev/null, stdout and stderr captured together,
// killed with its whole group when it outlives the time limit. Project mode
// runs build code this way only, so a hanging or forking build cannot outlive
// torchabi.
#pragma once

#include <string>
#include <vector>

#include "inputs/project/environment/sandbox.h"

namespace torchabi::inputs {

struct ChildResult {
  bool started = false;    // false: the program could not be executed (output says why)
  bool timed_out = false;  // killed at the time limit
  int exit_code = -1;      // the exit status; -1 when killed by a signal
  std::string output;      // stdout and stderr, interleaved
  // Confined, but the confinement could not be set up (no namespaces
  // here): the program did not run; output says why.
  bool sandbox_unavailable = false;
};

// `argv[0]` is looked up on PATH. `cwd` is the working directory. With
// `confine`, the program runs in that sandbox (environment/sandbox.h) with
// exactly its environment; repository code never runs without one unless the
// user asked for it.
ChildResult run_timed(const std::vector<std::string>& argv, const std::string& cwd, int timeout_seconds,
                      const Confinement* confine = nullptr);

}  // namespace torchabi::inputs
