// The last resort of project mode: a repository whose build torchabi could
// not understand (no build description, a script that failed everywhere, one
// that declares nothing torchabi can read) still has its C++/CUDA sources
// right there. Answering "exit 2" would pass nothing and help nobody, so every
// source that includes stable PyTorch headers (itself or through the project's
// headers, and no ATen/c10 ones) is linted with the flags that can be
// determined without the build: the repository's include directories, the
// torch headers, torch's default standard, the user's -D. The configuration
// says so, and the report says how to give the real build.
#pragma once

#include <string>
#include <vector>

#include "inputs/project/project_build.h"

namespace torchabi::inputs {

// What a sweep reads at most: a repository is not a file system.
inline constexpr size_t kMaxSweptFiles = 4000;

// The C/C++/CUDA sources under `dir` (hidden directories, virtual
// environments, build trees and third-party checkouts left out) that
// include stable PyTorch headers and no legacy ones, as one configuration per compiler. `why` is the
// one line saying why the build was not understood; it becomes a note.
// Never throws for the repository's content.
ProjectBuild sweep_sources(const std::string& dir, const TorchLocation& torch, const std::vector<std::string>& defines,
                           const std::string& why);

// True when `dir` holds at least one C/C++/CUDA source file (same walk).
bool has_sources(const std::string& dir);

// The project's own headers under `dir` (same walk), for TorchIncludeGraph.
std::vector<std::string> project_headers(const std::string& dir);

}  // namespace torchabi::inputs
