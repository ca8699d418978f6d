// Project mode's default for setup.py: the script runs in CPython, from a
// temporary copy of the project, under our recorder (record_setup.py, built
// into torchabi) which replaces setup() and records every extension instead
// of building it. Sources found by helpers, globs and os.walk, extensions
// made in functions, and flags chosen by `if CUDA_HOME`, `match sys.platform`
// or `os.name` branches come out as setuptools computes them. The script
// runs once per platform (linux, darwin, win32, emulated) so that flags that
// differ between them can be reported.
#pragma once

#include <optional>
#include <string>

#include "inputs/project/project_build.h"

namespace torchabi::inputs {

// Whose torch.utils.cpp_extension the script imports.
enum class RecorderTorch {
  Installed,  // the interpreter's torch when it imports, else the stand-in
  StandIn,    // always the stand-in (setuptools Extensions without torch's paths)
};

// A build_ext that runs CMake itself (vLLM's cmake_build_ext): the first
// configure it would start (record_cmake_drive.py).
struct CMakeDrive {
  std::string source_dir;            // relative to the setup.py's directory
  std::vector<std::string> defines;  // NAME[:TYPE]=VALUE, as given after -D
  std::string build_ext;             // the class that runs it
};

struct SetupRunResult {
  std::optional<ProjectBuild> build;  // db not filled yet (fill_compile_db)
  // When there is no build: one line, why ("setup.py:8: RuntimeError: ...",
  // "did not finish within 120 s", "python3 cannot be run (...)").
  std::string failure;
  // No build because the script declared no extension with sources (a
  // script that drives CMake, typically).
  bool no_extensions = false;
  std::optional<CMakeDrive> cmake;  // with no_extensions: what it would configure
  // No build because the script could not be confined here (no namespaces).
  bool not_confinable = false;
};

// Runs `setup_py` with options.python, options.timeout_seconds per run;
// options.defines are added to every command. Never throws for the
// script's failures: they come back as `failure`.
SetupRunResult run_setup_py(const std::string& setup_py, const TorchLocation& torch, const ProjectOptions& options,
                            RecorderTorch which = RecorderTorch::Installed);

}  // namespace torchabi::inputs
