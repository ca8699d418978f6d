// Which CMake configures a project. A project may ask for a newer CMake than
// the machine's (vLLM and its derivatives: cmake_minimum_required(VERSION
// 3.26) and FindPython's Development.SABIModule, on Debian bookworm's 3.25).
// Lowering the floor (cmake_version_floor.h) gets past the first line only;
// a newer CMake gets the project's real configure. It is the one
// TORCHABI_CMAKE names (always: the user chose it), else the one
// scripts/fetch-cmake.sh unpacked into torchabi's tool cache, used only when
// the project asks for more than the machine's has.
#pragma once

#include <string>

namespace torchabi::inputs {

struct CMakeTool {
  std::string path;     // run as argv[0]
  std::string version;  // "3.31.6"; "" when it cannot be run
  std::string chosen;   // why this one, for the report; "" for the machine's own
  std::string prefix;   // the tree it runs from (usr/bin/.., its modules), for the sandbox to show
};

// `machine` is the CMake the caller would run ("cmake" on PATH), `asked` the
// highest cmake_minimum_required floor of the project ("" when none).
CMakeTool cmake_for(const std::string& machine, const std::string& asked);

// Where scripts/fetch-cmake.sh puts its CMake: ${XDG_CACHE_HOME:-~/.cache}/torchabi/tools/cmake/usr/bin/cmake.
std::string fetched_cmake_path();

}  // namespace torchabi::inputs
