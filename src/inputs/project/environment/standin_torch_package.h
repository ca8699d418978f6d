// An importable `torch` for the Python a CMake configure runs itself
// (execute_process(COMMAND ${Python_EXECUTABLE} -c "import torch; ...")):
// vLLM's CMakeLists.txt and its derivatives take torch's CMake prefix and
// nvcc flags from it, and a machine without torch (or the sandbox hiding
// the user's) stops the configure at "Failed to locate torch path". The
// package is the interpreter's torch when it has one as new as the headers,
// else the stand-in setup.py scripts run with (record_setup.py), whose paths
// lead to the headers in use (standin_torch_package.py says how).
#pragma once

#include <string>

#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

struct StandInTorchPackage {
  std::string pythonpath;  // the directory to put first on PYTHONPATH
  std::string used_marker; // a file the stand-in writes when it is imported instead of a real torch
};

// Writes the package into `dir` (created): torch/__init__.py, the recorder
// it builds on, the torch surface and the values it gives. `cuda_home` is
// the toolkit the configure is shown, `cuda_version` its release.
StandInTorchPackage write_standin_torch_package(const std::string& dir, const TorchLocation& torch,
                                                const std::string& cuda_home, const std::string& cuda_version);

}  // namespace torchabi::inputs
