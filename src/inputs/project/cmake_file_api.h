// A CMake project's targets as CMake itself computes them: the project is
// copied to a temporary directory, configured into a scratch build directory
// with a stateless File API query (codemodel-v2), and the reply read
// (cmake_reply.h). What the static reader (cmake_lists.h) cannot follow —
// functions in the project's own .cmake modules, generator expressions,
// everything a configure computes — comes out as the build would see it.
// find_package(Torch) and the CUDA compiler are stand-ins (cmake_stand_ins.h),
// so the configure needs no libtorch install and no GPU toolchain.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "inputs/project/build_configuration.h"
#include "inputs/project/setup_py.h"  // ProjectNote
#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

struct FileApiOptions {
  std::vector<std::string> defines;  // cache entries, NAME[=VALUE] as `cmake -D` (no value: ON)
  int timeout_seconds = 120;
  std::string cmake = "cmake";
  // The directory copied (the CMakeLists.txt must be inside it); empty: the
  // CMakeLists.txt's own directory. A scikit-build-core project's source dir
  // may reach up into the pyproject's directory.
  std::string copy_root;
  // Show CMake the machine's CUDA installation when it has one; false: the
  // stand-in toolkit always (as on a machine without CUDA).
  bool machine_cuda = true;
  // The interpreter the configure is given (a setup.py that drives CMake
  // passes it, e.g. VLLM_PYTHON_EXECUTABLE): visible in the sandbox. "" for none.
  std::string python;
  // Give that interpreter as the frontend does (scikit-build-core):
  // Python_EXECUTABLE, Python3_EXECUTABLE and PYTHON_EXECUTABLE.
  bool python_cache_entries = false;
  // Configure without the sandbox (the user asked: --run-build=unconfined).
  bool unconfined = false;
};

struct FileApiResult {
  bool ok = false;
  std::string failure;  // one line, when !ok: "cmake did not finish within 120 s"
  std::string cmake_version;
  std::vector<BuildConfiguration> configurations;
  std::vector<std::pair<std::string, std::string>> facts;
  std::vector<ProjectNote> notes;
};

// Never throws: every failure (no cmake, timeout, configure error, no reply)
// is a result with `failure` set. Nothing under the project is written.
FileApiResult configure_with_file_api(const std::string& cmake_lists, const TorchLocation& torch,
                                      const FileApiOptions& options);

// The last "CMake Error" of a configure's output, as one line.
std::string last_cmake_error(const std::string& output);

}  // namespace torchabi::inputs
