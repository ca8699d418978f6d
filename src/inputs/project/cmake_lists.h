// The C++/CUDA targets a CMakeLists.txt declares, read without running CMake:
// their sources, include directories, compile definitions and options, and
// the C++ standard — what the generated compile commands would carry. The
// CMake language is followed as far as it is static: set/list/option,
// ${variables}, if/elseif/else with CMake's truth rules on the values known,
// file(GLOB), add_subdirectory, foreach over literal lists. What depends on
// the configure step (generator expressions, find_package results other than
// torch's, execute_process) becomes a note with its line.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "inputs/project/setup_py.h"

namespace torchabi::inputs {

// find_package(Torch) sets TORCH_INCLUDE_DIRS to this marker: an include
// directory equal to it stands for the torch headers project mode uses.
inline constexpr const char* kTorchIncludes = "@TORCH_INCLUDE_DIRS@";

struct CMakeTarget {
  std::string name;
  std::string type;  // SHARED, MODULE, STATIC, OBJECT or EXECUTABLE
  std::string file;  // the CMakeLists.txt that declares it
  int line = 0;
  std::string directory;  // its source directory
  std::vector<std::string> sources;       // absolute, C/C++/CUDA only
  std::vector<std::string> include_dirs;  // absolute, in order
  std::vector<std::string> system_include_dirs;  // target_include_directories(... SYSTEM ...): -isystem
  std::vector<std::string> definitions;   // NAME or NAME=VALUE
  std::vector<std::string> options;       // compile options
  std::string cxx_standard;               // "17", from CMAKE_CXX_STANDARD or the target's CXX_STANDARD
  std::string cuda_standard;              // the same for .cu files (CMAKE_CUDA_STANDARD, CUDA_STANDARD,
                                          // cuda_std_NN): CXX_STANDARD does not reach CUDA
  bool cxx_extensions = true;             // gnu++NN unless CMAKE_CXX_EXTENSIONS is OFF
  bool links_torch = false;               // links torch (its include directories come with it)
};

struct CMakeProject {
  std::vector<CMakeTarget> targets;
  std::vector<ProjectNote> notes;
  // Variables an if() tested that nothing read had set (CUDA_FOUND, set by
  // TorchConfig.cmake; HIP_FOUND; a value the configure computes): taken as
  // false, as CMake takes an undefined variable, but a configure may well
  // have set them, so the flags under such a branch are not known.
  std::vector<std::string> unknown_conditions;
};

// `cache` holds -D values given as a configure would (NAME → value).
// Throws InputError naming the file when it cannot be read or parsed.
CMakeProject read_cmake_lists(const std::string& path, const std::map<std::string, std::string>& cache = {});

}  // namespace torchabi::inputs
