// Temporary directories torchabi makes (scratch copies of projects, shared
// preambles, inline sources), registered so that an interrupted run
// (SIGINT, SIGTERM, SIGHUP) removes them before it exits: CI cancels jobs
// with SIGTERM, and a cancelled check must not leave copies of repositories
// in /tmp. The children torchabi starts die with it (PR_SET_PDEATHSIG).
#pragma once

#include <string>

namespace torchabi::temp_dirs {

// mkdtemp of "<system temporary directory>/torchabi-PREFIX-XXXXXX",
// registered; "" when it cannot be made.
std::string make(const std::string& prefix);

// Removes `path` (recursively) and forgets it.
void remove(const std::string& path);

// From here on, SIGINT, SIGTERM and SIGHUP remove every registered directory
// and exit with 128 + the signal's number. Call once, early in main.
void remove_on_interrupt();

// In a forked child: the kernel kills it when torchabi exits (for the
// analysis workers that would otherwise outlive an interrupt), and SIGINT,
// SIGTERM and SIGHUP act on it as by default.
void die_with_parent();

}  // namespace torchabi::temp_dirs
