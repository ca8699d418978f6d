// A project that asks for a newer CMake than the machine has
// (`cmake_minimum_required(VERSION 3.26)` on Debian bookworm's 3.25) stops
// its configure at the first line, though most such projects use nothing of
// the newer release. In the scratch copy (never the user's tree) the floor is
// lowered to the machine's version, and the report says so; a project that
// really needs the newer CMake then fails further on, with its own error.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

// "3.25.1" for `cmake`; "" when it cannot be run.
std::string machine_cmake_version(const std::string& cmake);

struct LoweredFloor {
  std::string file;       // the copy's CMakeLists.txt
  std::string asked;      // "3.26"
};

// Rewrites, in every CMakeLists.txt under `copy`, a cmake_minimum_required
// whose VERSION is above `machine` to `machine`; returns what was lowered.
std::vector<LoweredFloor> lower_cmake_floor(const std::string& copy, const std::string& machine);

// The highest cmake_minimum_required floor of any CMakeLists.txt under
// `copy` ("3.26"; "" when none), without changing anything.
std::string highest_cmake_floor(const std::string& copy);

// True when dotted version `a` is below `b` (missing parts are 0).
bool version_below(const std::string& a, const std::string& b);

}  // namespace torchabi::inputs
